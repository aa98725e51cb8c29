"""What a data folder already holds, as a package's check asks it: the sequence numbers a
device's changes have used, whether a record exists and whose parcel it is, the site
features a parcel lists, the columns a table has."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence


def last_device_seq(conn: sqlite3.Connection, device_id: str) -> int:
    """The highest sequence number of a device's changes here: received, applied or held
    for a person."""
    return int(conn.execute(
        "SELECT max(coalesce((SELECT max(device_seq) FROM sync_received WHERE device_id = ?),"
        " 0), coalesce((SELECT max(device_seq) FROM change_log WHERE device_id = ? AND"
        " device_seq IS NOT NULL), 0), coalesce((SELECT max(device_seq) FROM held_changes"
        " WHERE device_id = ?), 0))", (device_id, device_id, device_id)).fetchone()[0])


def known_device_seqs(conn: sqlite3.Connection, device_id: str,
                      seqs: Sequence[int]) -> dict[int, set[str]]:
    """Of these sequence numbers of a device, those already used: number -> change ids."""
    known: dict[int, set[str]] = {}
    for start in range(0, len(seqs), 500):
        chunk = list(seqs[start:start + 500])
        marks = ",".join("?" * len(chunk))
        for seq, change_id in conn.execute(
                f"SELECT device_seq, change_id FROM sync_received WHERE device_id = ? AND "
                f"device_seq IN ({marks}) UNION SELECT device_seq, change_id FROM change_log "
                f"WHERE device_id = ? AND device_seq IN ({marks}) UNION SELECT device_seq, "
                f"change_id FROM held_changes WHERE device_id = ? AND device_seq IN ({marks})",
                [device_id, *chunk, device_id, *chunk, device_id, *chunk]):
            known.setdefault(int(seq), set()).add(str(change_id))
    return known


def last_seq_recorded(conn: sqlite3.Connection) -> int:
    """The newest change-log number of this data folder."""
    return int(conn.execute("SELECT coalesce(max(seq), 0) FROM change_log").fetchone()[0])


def last_seq_made(conn: sqlite3.Connection, device_id: str) -> int:
    """The highest sequence number a device gave its own changes here."""
    return int(conn.execute(
        "SELECT coalesce(max(device_seq), 0) FROM change_log WHERE device_id = ? AND "
        "device_seq IS NOT NULL", (device_id,)).fetchone()[0])


def parcel_of_record(conn: sqlite3.Connection, table: str, record_id: str,
                     *, held: bool = False) -> str | None:
    """The parcel a record belongs to, if this data folder holds the record (with `held`,
    also one inserted by a change held for a person); None if it holds no such record or
    the record belongs to no parcel."""
    row = conn.execute(f"SELECT parcel_id FROM {table} WHERE id = ?", (record_id,)).fetchone()
    if row is None and held:
        row = conn.execute("SELECT parcel_id FROM held_changes WHERE table_name = ? AND "
                           "record_id = ? AND op = 'insert' AND released_at IS NULL",
                           (table, record_id)).fetchone()
    return None if row is None or row[0] is None else str(row[0])


def has_parcel(conn: sqlite3.Connection, parcel_id: str) -> bool:
    return conn.execute("SELECT 1 FROM parcels WHERE id = ?", (parcel_id,)).fetchone() \
        is not None


def proposal_status(conn: sqlite3.Connection, parcel_id: str, device_id: str) -> str | None:
    """What became of a parcel a device proposed (pending, accepted, rejected), if it did."""
    row = conn.execute("SELECT status FROM parcel_proposals WHERE parcel_id = ? AND "
                       "device_id = ?", (parcel_id, device_id)).fetchone()
    return None if row is None else str(row[0])


def listed_features(conn: sqlite3.Connection, parcel_id: str,
                    apart: Iterable[str]) -> set[str]:
    """The ids of a parcel's site features, but those of the kinds listed apart."""
    kinds = list(apart)
    return {r[0] for r in conn.execute(
        "SELECT id FROM site_features WHERE parcel_id = ? AND deleted_at IS NULL AND "
        f"kind NOT IN ({','.join('?' * len(kinds))})", (parcel_id, *kinds))}


def references(conn: sqlite3.Connection, table: str) -> dict[str, str]:
    """A table's columns that name a record of another table: column -> table."""
    return {str(r[3]): str(r[2]) for r in conn.execute(f"PRAGMA foreign_key_list({table})")}


def columns(conn: sqlite3.Connection, table: str) -> dict[str, tuple[str, bool]]:
    """A table's columns: name -> (declared type, not null)."""
    return {r[1]: (str(r[2]).upper(), bool(r[3]))
            for r in conn.execute(f"PRAGMA table_info({table})")}
