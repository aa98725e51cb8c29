"""A parcel's inspections as records: listed, and marked (or no longer marked) entered in
error."""

from __future__ import annotations

import sqlite3
from typing import Any

from .records import RecordWriter
from .rows import rows

_COLUMNS = ("id, date, inspector, reason, void_reason, voided_by, voided_on, created_at, "
            "device_id")


def of_parcel(conn: sqlite3.Connection, parcel_id: str) -> list[dict[str, Any]]:
    """Every inspection of the parcel that was not removed, those marked entered in error
    included, oldest first."""
    return rows(conn, f"SELECT {_COLUMNS} FROM inspections WHERE parcel_id = ? AND "
                      "deleted_at IS NULL ORDER BY date, created_at", (parcel_id,))


def mark_void(w: RecordWriter, inspection_id: str, *, reason: str, by: str, on: str) -> None:
    """Mark an inspection entered in error: it stays on record, read as no inspection."""
    w.update("inspections", inspection_id,
             {"void_reason": reason, "voided_by": by, "voided_on": on})


def clear_void(w: RecordWriter, inspection_id: str) -> None:
    """Undo the mark: the inspection counts again."""
    w.update("inspections", inspection_id,
             {"void_reason": None, "voided_by": None, "voided_on": None})
