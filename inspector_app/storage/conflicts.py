"""Sync conflicts as rows: those waiting for a person, and a person's decision."""

from __future__ import annotations

import sqlite3
from typing import Any

from .rows import one, rows


def waiting(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    """The conflicts no one has resolved, oldest first, with the parcel's SBL and the
    device's name."""
    return rows(conn, "SELECT c.*, p.sbl, d.name AS device FROM sync_conflicts c "
                      "LEFT JOIN parcels p ON p.id = c.parcel_id LEFT JOIN devices d ON "
                      "d.id = c.device_id WHERE c.resolved_at IS NULL "
                      "ORDER BY c.received_at, c.id")


def waiting_on(conn: sqlite3.Connection, parcel_id: str) -> int:
    return int(conn.execute("SELECT count(*) FROM sync_conflicts WHERE parcel_id = ? AND "
                            "resolved_at IS NULL", (parcel_id,)).fetchone()[0])


def by_id(conn: sqlite3.Connection, conflict_id: str) -> dict[str, Any] | None:
    return one(conn, "SELECT * FROM sync_conflicts WHERE id = ?", (conflict_id,))


def resolve(conn: sqlite3.Connection, conflict_id: str, *, at: str, by: str, choice: str,
            value_json: str) -> None:
    conn.execute("UPDATE sync_conflicts SET resolved_at = ?, resolved_by = ?, resolution = ?, "
                 "resolved_value = ? WHERE id = ?", (at, by, choice, value_json, conflict_id))
