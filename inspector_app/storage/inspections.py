"""Inspections as rows: which parcels have one, and a parcel's latest."""

from __future__ import annotations

import sqlite3


def last_date(conn: sqlite3.Connection, parcel_id: str) -> str | None:
    """The date (ISO text) of the parcel's latest inspection, or None."""
    row = conn.execute("SELECT max(date) FROM inspections WHERE parcel_id = ? AND "
                       "deleted_at IS NULL", (parcel_id,)).fetchone()
    return None if row[0] is None else str(row[0])


def inspected_parcels(conn: sqlite3.Connection) -> list[str]:
    """The ids of the parcels with an inspection on record, in order of id."""
    return [r[0] for r in conn.execute("SELECT DISTINCT parcel_id FROM inspections WHERE "
                                       "deleted_at IS NULL ORDER BY parcel_id")]
