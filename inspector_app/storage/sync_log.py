"""The change log as sync reads it: what to send, what a device's sequence lacks, what a
package's files are, and the record of packages imported."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from typing import Any

from .rows import rows

# The sequence numbers of a device's changes this data folder has: received and applied,
# made here, or held for a person.
_PRESENT = ("SELECT device_seq AS n FROM sync_received WHERE device_id = :d AND "
            "device_seq >= 1 UNION SELECT device_seq FROM change_log WHERE device_id = :d "
            "AND device_seq >= 1 UNION SELECT device_seq FROM held_changes WHERE "
            "device_id = :d AND device_seq >= 1")
_RUNS = (f"WITH s AS ({_PRESENT}), o AS (SELECT n, lag(n, 1, 0) OVER (ORDER BY n) AS prev "
         "FROM s), r AS (SELECT prev + 1 AS first, n - 1 AS last FROM o WHERE n > prev + 1)")


def gaps(conn: sqlite3.Connection, device_id: str, listed: int
         ) -> tuple[int, list[list[int]], int]:
    """The highest n such that changes 1..n from a device are all here; the first `listed`
    ranges [first, last] of numbers missing below the highest one here; and how many
    numbers are missing in all. Computed from the numbers present, never by counting up to
    the highest one, in one statement: its first row the count missing and the highest
    number present, the ranges after it."""
    found = conn.execute(
        f"{_RUNS} SELECT 0, (SELECT coalesce(sum(last - first + 1), 0) FROM r), "
        "(SELECT coalesce(max(n), 0) FROM s) UNION ALL SELECT 1, * FROM "
        f"(SELECT first, last FROM r ORDER BY first LIMIT {int(listed)}) AS gaps ORDER BY 1, 2",
        {"d": device_id}).fetchall()
    (_, missing, top), ranges = found[0], [[first, last] for _, first, last in found[1:]]
    through = ranges[0][0] - 1 if ranges else top
    return int(through), ranges, int(missing)


def since(conn: sqlite3.Connection, seq: int) -> list[dict[str, Any]]:
    """Every change recorded here after this number, in order."""
    return rows(conn, "SELECT * FROM change_log WHERE seq > ? ORDER BY seq", (seq,))


def made_by(conn: sqlite3.Connection, device_id: str, after: int, limit: int
            ) -> list[dict[str, Any]]:
    """A device's own changes after this sequence number, at most `limit`, in order."""
    return rows(conn, "SELECT * FROM change_log WHERE device_id = ? AND device_seq > ? "
                      "ORDER BY device_seq LIMIT ?", (device_id, after, limit))


def of_records(conn: sqlite3.Connection, parcel_ids: Sequence[str],
               record_ids: Sequence[str] = ()) -> list[dict[str, Any]]:
    """The history of these parcels (and of these other records), in order."""
    parcels = ",".join("?" * len(parcel_ids)) or "NULL"
    records = ",".join("?" * len(record_ids)) or "NULL"
    return rows(conn, f"SELECT * FROM change_log WHERE parcel_id IN ({parcels}) OR record_id "
                      f"IN ({records}) ORDER BY seq", [*parcel_ids, *record_ids])


def letter_pdf(conn: sqlite3.Connection, letter_id: str) -> bytes | None:
    row = conn.execute("SELECT pdf FROM letters WHERE id = ?", (letter_id,)).fetchone()
    return None if row is None else row[0]


def package_imported(conn: sqlite3.Connection, package_id: str) -> bool:
    return conn.execute("SELECT 1 FROM sync_packages WHERE package_id = ?",
                        (package_id,)).fetchone() is not None


def record_package(conn: sqlite3.Connection, *, package_id: str, device_id: str, at: str,
                   by: str, changes: int, applied: int, conflicts: int, sha256: str) -> None:
    conn.execute("INSERT INTO sync_packages (package_id, device_id, imported_at, imported_by, "
                 "changes, applied, conflicts, sha256) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                 (package_id, device_id, at, by, changes, applied, conflicts, sha256))


def change_line(row: dict[str, Any]) -> dict[str, Any]:
    """A change-log row as a package carries it."""
    return {"change_id": row["change_id"], "at": row["at"], "user": row["user"],
            "device_id": row["device_id"], "device_seq": row["device_seq"],
            "table": row["table_name"], "record_id": row["record_id"],
            "parcel_id": row["parcel_id"], "op": row["op"], "field": row["field"],
            "old": None if row["old_value"] is None else json.loads(row["old_value"]),
            "new": None if row["new_value"] is None else json.loads(row["new_value"]),
            "record_version": row["record_version"], "source_seq": row["seq"]}
