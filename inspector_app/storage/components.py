"""A parcel's components as rows, looked up by kind and order."""

from __future__ import annotations

import sqlite3


def ids_of_kind(conn: sqlite3.Connection, parcel_id: str, kind: str) -> list[str]:
    """The ids of the parcel's components of one kind, in their order (the first septic
    tank first)."""
    return [r[0] for r in conn.execute(
        "SELECT id FROM components WHERE parcel_id = ? AND kind = ? AND deleted_at IS NULL "
        "ORDER BY position", (parcel_id, kind))]
