"""Parcels found in the field: each proposal and what became of it."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from typing import Any

from .rows import one, rows

PENDING, ACCEPTED, REJECTED = "pending", "accepted", "rejected"


def listed(conn: sqlite3.Connection, status: Iterable[str] | None = None,
           device_id: str | None = None) -> dict[str, dict[str, Any]]:
    """The proposals (on a laptop: its own; at the office: its laptops'), by parcel id."""
    found = rows(conn, "SELECT * FROM parcel_proposals ORDER BY proposed_at, sbl")
    wanted = None if status is None else set(status)
    return {r["parcel_id"]: r for r in found
            if (wanted is None or r["status"] in wanted)
            and (device_id is None or r["device_id"] == device_id)}


def of_parcel(conn: sqlite3.Connection, parcel_id: str) -> dict[str, Any] | None:
    return one(conn, "SELECT * FROM parcel_proposals WHERE parcel_id = ?", (parcel_id,))


def record(conn: sqlite3.Connection, *, parcel_id: str, sbl: str, device_id: str,
           proposed_at: str, proposed_by: str) -> None:
    """Note a proposal, pending, unless it is noted already."""
    conn.execute("INSERT OR IGNORE INTO parcel_proposals (parcel_id, sbl, device_id, "
                 "proposed_at, proposed_by, status) VALUES (?, ?, ?, ?, ?, 'pending')",
                 (parcel_id, sbl, device_id, proposed_at, proposed_by))


def decide(conn: sqlite3.Connection, parcel_id: str, *, status: str, by: str, at: str,
           note: str | None) -> None:
    """What the office decided (noted at the office, and on the laptop when it learns)."""
    conn.execute("UPDATE parcel_proposals SET status = ?, decided_by = ?, decided_at = ?, "
                 "note = ? WHERE parcel_id = ?", (status, by, at, note, parcel_id))
