"""Changes received and kept aside for a person: the records of a proposed parcel, or a
change from the office that this laptop's rules refuse. Each is kept whole, as the package
carried it; one released is applied then, and says when, by whom and with what outcome."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .rows import rows

PROPOSAL, REFUSED = "proposal", "refused"


def hold(conn: sqlite3.Connection, changes: Iterable[Mapping[str, Any]], *, package_id: str,
         received_at: str, reason: str, problems: Mapping[str, str] | None = None) -> int:
    """Keep these changes aside (each once, however often it arrives); how many were new."""
    before = conn.total_changes
    conn.executemany(
        "INSERT OR IGNORE INTO held_changes (change_id, device_id, device_seq, package_id, "
        "table_name, record_id, op, parcel_id, reason, problem, change, received_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(c["change_id"], c["device_id"], c["device_seq"], package_id, c["table"],
          c["record_id"], c["op"], c["parcel_id"], reason,
          (problems or {}).get(c["change_id"]), json.dumps(c, ensure_ascii=False),
          received_at) for c in changes])
    return conn.total_changes - before


def known(conn: sqlite3.Connection, change_ids: Sequence[str]) -> set[str]:
    """Which of these changes are held (released or not)."""
    found: set[str] = set()
    for start in range(0, len(change_ids), 500):
        chunk = list(change_ids[start:start + 500])
        found.update(r[0] for r in conn.execute(
            f"SELECT change_id FROM held_changes WHERE change_id IN "
            f"({','.join('?' * len(chunk))})", chunk))
    return found


def waiting(conn: sqlite3.Connection, *, parcel_id: str | None = None,
            reason: str | None = None) -> list[dict[str, Any]]:
    """The changes still held (not released), in the order their device made them, each
    with the change as it arrived (`change`)."""
    where = ["released_at IS NULL"]
    params: list[Any] = []
    if parcel_id is not None:
        where.append("parcel_id = ?")
        params.append(parcel_id)
    if reason is not None:
        where.append("reason = ?")
        params.append(reason)
    found = rows(conn, f"SELECT * FROM held_changes WHERE {' AND '.join(where)} "
                       "ORDER BY device_id, device_seq, received_at", params)
    for r in found:
        r["change"] = json.loads(r["change"])
    return found


def release(conn: sqlite3.Connection, change_id: str, *, at: str, by: str,
            outcome: str) -> None:
    conn.execute("UPDATE held_changes SET released_at = ?, released_by = ?, outcome = ? "
                 "WHERE change_id = ?", (at, by, outcome, change_id))
