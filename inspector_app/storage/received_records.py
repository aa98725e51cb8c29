"""Whole records that arrive from the other side (a field kit's, or those of a parcel newly
assigned to a laptop), with their history, written as they were recorded there.

The rows are checked before they get here (`sync.policy.record_problem`); what is written
is only ever a column the registry declares for the table, so a kit cannot name a column
of its own choosing."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any

from ..domain import registry
from .records import BOOKKEEPING

# The columns of a change-log row a kit or package carries (its `seq` is the sender's).
HISTORY_COLUMNS = ("change_id", "at", "user", "device_id", "table_name", "record_id",
                   "parcel_id", "op", "field", "old_value", "new_value", "record_version",
                   "device_seq")


@cache
def _writable(table: str) -> frozenset[str]:
    section = registry.section(table)
    if section is None or not section.synced:
        return frozenset()
    return frozenset(f.column for f in section.fields if f.stored) | BOOKKEEPING


def take(conn: sqlite3.Connection, table: str, row: Mapping[str, Any]) -> None:
    """Write a record as the other side holds it."""
    names = list(row)
    unknown = set(names) - _writable(table)
    if unknown:
        raise ValueError(f"a record of {table!r} names columns no record of it has: "
                         f"{sorted(unknown)[:5]}")
    conn.execute(f"INSERT INTO {table} ({', '.join(names)}) VALUES "
                 f"({', '.join('?' * len(names))})", [row[n] for n in names])


def has(conn: sqlite3.Connection, table: str, record_id: str) -> bool:
    if table not in registry.SYNCED_TABLES:
        raise ValueError(f"{table!r} is not a table of records")
    return conn.execute(f"SELECT 1 FROM {table} WHERE id = ?", (record_id,)).fetchone() \
        is not None


def give_back_contact(conn: sqlite3.Connection, table: str, record_id: str,
                      values: Mapping[str, Any]) -> None:
    """Put back the contact data this laptop cleared from a record it holds again."""
    contact = {f.column for f in registry.contact_fields() if f.table == table}
    chosen = {k: v for k, v in values.items() if k in contact}
    if chosen:
        conn.execute(f"UPDATE {table} SET {', '.join(f'{c} = ?' for c in chosen)} "
                     "WHERE id = ?", [*chosen.values(), record_id])


def take_history(conn: sqlite3.Connection, entries: Iterable[Mapping[str, Any]]) -> int:
    """Write change-log entries the other side recorded (each once); how many were new."""
    before = conn.total_changes
    conn.executemany(
        f"INSERT OR IGNORE INTO change_log ({', '.join(HISTORY_COLUMNS)}) VALUES "
        f"({', '.join('?' * len(HISTORY_COLUMNS))})",
        [[h[k] for k in HISTORY_COLUMNS] for h in entries])
    return conn.total_changes - before
