"""Reading the change log (`RecordWriter` alone writes it): a parcel's history, what changed
since an entry, and where a record last changed."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

from .rows import Row, rows

# --- where the log stands ------------------------------------------------------------------

def latest_entry(conn: sqlite3.Connection) -> tuple[int, str] | None:
    """The newest entry's sequence number and change id (None: the log is empty)."""
    row = conn.execute("SELECT seq, change_id FROM change_log ORDER BY seq DESC LIMIT 1"
                       ).fetchone()
    return None if row is None else (int(row[0]), str(row[1]))


def change_id_at(conn: sqlite3.Connection, seq: int) -> str | None:
    """The change id of the entry numbered `seq`, or None when there is none."""
    row = conn.execute("SELECT change_id FROM change_log WHERE seq = ?", (seq,)).fetchone()
    return None if row is None else str(row[0])


def touched_since(conn: sqlite3.Connection, seq: int, limit: int
                  ) -> list[tuple[str | None, str, str, str | None]]:
    """(parcel id, table, op, field) of the entries after `seq`, oldest first, at most
    `limit`. Read in the log's own order, not through an index."""
    return conn.execute(
        "SELECT parcel_id, table_name, op, field FROM change_log NOT INDEXED "
        "WHERE seq > ? ORDER BY seq LIMIT ?", (seq, limit)).fetchall()


def entries_after(conn: sqlite3.Connection, seq: int, limit: int) -> list[tuple[Any, ...]]:
    """(seq, at, device, table, record, op, field, old value, new value, record version) of
    the entries after `seq`, oldest first, at most `limit`."""
    return conn.execute(
        "SELECT seq, at, device_id, table_name, record_id, op, field, old_value, "
        "new_value, record_version FROM change_log WHERE seq > ? ORDER BY seq "
        "LIMIT ?", (seq, limit)).fetchall()


def last_change_to(conn: sqlite3.Connection, record_id: str) -> int:
    """The sequence number of the newest entry about the record (0: none)."""
    return int(conn.execute("SELECT coalesce(max(seq), 0) FROM change_log WHERE "
                            "record_id = ?", (record_id,)).fetchone()[0])


def last_update_of(conn: sqlite3.Connection, table: str, record_id: str, field: str
                   ) -> int | None:
    """The sequence number of the newest update of one field of a record, or None."""
    row = conn.execute(
        "SELECT seq FROM change_log WHERE table_name = ? AND record_id = ? AND "
        "op = 'update' AND field = ? ORDER BY seq DESC LIMIT 1",
        (table, record_id, field)).fetchone()
    return None if row is None else int(row[0])


# --- a parcel's history -----------------------------------------------------------------

def parcel_changes(conn: sqlite3.Connection, parcel_id: str) -> list[Row]:
    """Every entry about the parcel's records, oldest first, with the name of the device it
    was made on; old and new values as logged (JSON text)."""
    return rows(conn,
                "SELECT c.seq, c.at, c.user, d.name AS device, c.table_name, c.record_id, "
                "c.op, c.field, c.old_value, c.new_value, c.record_version FROM change_log c "
                "LEFT JOIN devices d ON d.id = c.device_id WHERE c.parcel_id = ? "
                "ORDER BY c.seq", (parcel_id,))


def resolved_conflicts(conn: sqlite3.Connection, parcel_id: str) -> list[Row]:
    """The parcel's resolved sync conflicts, oldest first, each with the name of the device
    the incoming value came from."""
    return rows(conn,
                "SELECT c.table_name, c.record_id, c.field, c.local_value, c.incoming_value, "
                "c.resolved_value, c.resolution, c.resolved_at, c.resolved_by, "
                "c.incoming_user, d.name AS device FROM sync_conflicts c LEFT JOIN devices d "
                "ON d.id = c.device_id WHERE c.parcel_id = ? AND c.resolved_at IS NOT NULL "
                "ORDER BY c.resolved_at, c.id", (parcel_id,))


_REPLAY_COLUMNS = ("seq, at, device_id, table_name, record_id, parcel_id, op, field, "
                   "new_value, record_version")
# Parcel ids named in one statement (SQLite's default limit of parameters is 999, and the
# tables are named too).
_IDS_AT_ONCE = 800


def parcel_entries(conn: sqlite3.Connection, parcel_id: str, tables: Sequence[str]
                   ) -> list[tuple[Any, ...]]:
    """(seq, at, device, table, record, parcel, op, field, new value, record version) of
    the parcel's entries about the tables named, oldest first: what replaying its records
    reads."""
    return conn.execute(
        f"SELECT {_REPLAY_COLUMNS} FROM change_log WHERE parcel_id = ? AND table_name IN "
        f"({','.join('?' * len(tables))}) ORDER BY seq", [parcel_id, *tables]).fetchall()


def parcels_entries(conn: sqlite3.Connection, parcel_ids: Sequence[str],
                    tables: Sequence[str]) -> dict[str, list[tuple[Any, ...]]]:
    """`parcel_entries` of each of many parcels, read a few hundred parcels a statement;
    every parcel named is a key (with no entries, an empty list)."""
    out: dict[str, list[tuple[Any, ...]]] = {i: [] for i in parcel_ids}
    ids = list(out)
    named = ",".join("?" * len(tables))
    for start in range(0, len(ids), _IDS_AT_ONCE):
        part = ids[start:start + _IDS_AT_ONCE]
        for e in conn.execute(
                f"SELECT {_REPLAY_COLUMNS} FROM change_log WHERE parcel_id IN "
                f"({','.join('?' * len(part))}) AND table_name IN ({named}) "
                "ORDER BY parcel_id, seq", [*part, *tables]):
            out[e[5]].append(e)
    return out
