"""A parcel's inspections as records: listed, its latest on record, the parcels inspected,
and one marked (or no longer marked) entered in error. An inspection entered in error stays
on record but counts no more: every read here that counts inspections leaves it out."""

from __future__ import annotations

import sqlite3
from typing import Any

from .records import RecordWriter
from .rows import rows

# An inspection that counts: not removed, not marked entered in error.
ON_RECORD = "deleted_at IS NULL AND void_reason IS NULL"
_COLUMNS = ("id, date, inspector, reason, void_reason, voided_by, voided_on, created_at, "
            "device_id")


def of_parcel(conn: sqlite3.Connection, parcel_id: str) -> list[dict[str, Any]]:
    """Every inspection of the parcel that was not removed, those marked entered in error
    included, oldest first."""
    return rows(conn, f"SELECT {_COLUMNS} FROM inspections WHERE parcel_id = ? AND "
                      "deleted_at IS NULL ORDER BY date, created_at", (parcel_id,))


def last_date(conn: sqlite3.Connection, parcel_id: str) -> str | None:
    """The date (ISO text) of the parcel's latest inspection that counts, or None."""
    row = conn.execute(f"SELECT max(date) FROM inspections WHERE parcel_id = ? AND "
                       f"{ON_RECORD}", (parcel_id,)).fetchone()
    return None if row[0] is None else str(row[0])


def inspected_parcels(conn: sqlite3.Connection) -> list[str]:
    """The ids of the parcels with an inspection that counts, in order of id."""
    return [r[0] for r in conn.execute(f"SELECT DISTINCT parcel_id FROM inspections WHERE "
                                       f"{ON_RECORD} ORDER BY parcel_id")]


def mark_void(w: RecordWriter, inspection_id: str, *, reason: str, by: str, on: str) -> None:
    """Mark an inspection entered in error: it stays on record, read as no inspection."""
    w.update("inspections", inspection_id,
             {"void_reason": reason, "voided_by": by, "voided_on": on})


def clear_void(w: RecordWriter, inspection_id: str) -> None:
    """Undo the mark: the inspection counts again."""
    w.update("inspections", inspection_id,
             {"void_reason": None, "voided_by": None, "voided_on": None})
