"""Notices of violation as rows: their deadlines."""

from __future__ import annotations

import sqlite3

from .rows import Row, rows


def first_deadlines(conn: sqlite3.Connection) -> dict[str, Row]:
    """Each parcel's first notice (the earliest recorded, not deleted): its `permit_by`
    and `complete_by` (ISO text or None), by parcel id."""
    return {n["parcel_id"]: n for n in rows(
        conn, "SELECT parcel_id, permit_by, complete_by FROM notices WHERE deleted_at IS NULL "
              "ORDER BY created_at DESC, id DESC")}
