"""The one path by which records change.

Every insert, update and (soft) delete goes through `RecordWriter`, which bumps the
record's version, stamps who/when/which device, and appends one change-log row per
field in the same transaction. Sync and the audit trail read that log.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date
from enum import Enum
from typing import Any

from ..domain.records import LOCAL_TABLES
from ..errors import InputError
from ..nesting import JSON_STRINGS, check_depth

BOOKKEEPING = frozenset({"id", "parcel_id", "created_at", "updated_at", "device_id",
                         "version", "deleted_at"})

SqlValue = str | int | float | bytes | None

# Records of this data folder alone (`domain.records.LOCAL_TABLES`): their changes are
# logged like any other, but without a device sequence number, so that the numbers a
# receiver checks for gaps stay unbroken.

# Every row of the change log is written by this one statement (local edits and changes
# received from another device alike).
CHANGE_LOG_INSERT = (
    "INSERT INTO change_log (change_id, at, user, device_id, table_name, record_id,"
    " parcel_id, op, field, old_value, new_value, record_version, device_seq)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")


@dataclass(frozen=True)
class Actor:
    """Who is making a change, and on which device."""

    user: str
    device_id: str


def new_id() -> str:
    """A random (version 4) UUID, as text: what `str(uuid.uuid4())` gives."""
    b = bytearray(os.urandom(16))
    b[6] = (b[6] & 0x0F) | 0x40
    b[8] = (b[8] & 0x3F) | 0x80
    h = b.hex()
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


# The compact JSON text of a value (what `json.dumps(value, ensure_ascii=False,
# separators=(",", ":"))` gives), without making an encoder for each value.
_json = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
_PLAIN = frozenset({str, int, float, type(None)})


def to_sql(value: Any) -> SqlValue:
    """The stored form of a value: JSON text for lists and objects, ISO text for dates."""
    if type(value) in _PLAIN:
        return value  # type: ignore[no-any-return]
    if value is None or isinstance(value, str | bytes):
        return value
    if isinstance(value, Enum):
        return str(value.value)
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int | float):
        return value
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, list | tuple | dict):
        return _json(value)
    raise TypeError(f"cannot store a {type(value).__name__}")


def from_sql_text(value: Any) -> Any:
    """A list or object `to_sql` stored as JSON text, given back as itself; any other value
    (text that is not exactly that compact JSON form included) as it is."""
    if not isinstance(value, str) or value[:1] not in ("[", "{"):
        return value
    try:
        check_depth(value, JSON_STRINGS)  # a text of 1,000 brackets is text, not a crash
        parsed = json.loads(value)
    except ValueError:
        return value
    if not isinstance(parsed, list | dict):
        return value
    same = json.dumps(parsed, ensure_ascii=False, separators=(",", ":")) == value
    return parsed if same else value


def _same(a: SqlValue, b: SqlValue) -> bool:
    if isinstance(a, bool | int | float) and isinstance(b, bool | int | float):
        return float(a) == float(b)
    return a == b


def _loggable(value: SqlValue) -> Any:
    if isinstance(value, bytes):  # PDF bytes are kept in the record; the log keeps their hash
        return {"sha256_of_bytes": hashlib.sha256(value).hexdigest()}
    return value


def _log_value(value: SqlValue | Mapping[str, SqlValue]) -> str | None:
    if value is None:
        return None
    if isinstance(value, Mapping):
        if not any(isinstance(v, bytes) for v in value.values()):
            return _json(value)
        return _json({k: _loggable(v) for k, v in value.items()})
    return _json(_loggable(value))


# Tables other records point at, in the order they are written out of a batch.
_PARENT_ORDER = {"parcels": 0, "shoreline_layers": 0, "lot_layers": 0, "systems": 1,
                 "inspections": 1}


def _parents_first(table: str) -> int:
    return _PARENT_ORDER.get(table, 2)


class RecordWriter:
    """Writes records inside a transaction the caller holds open."""

    def __init__(self, conn: sqlite3.Connection, actor: Actor, now: str) -> None:
        self.conn = conn
        self.actor = actor
        self.now = now
        self._columns: dict[str, tuple[str, ...]] = {}
        self._writable: dict[str, frozenset[str]] = {}
        self._log: list[tuple[Any, ...]] = []
        self.changed_parcels: set[str] = set()
        # On an enrolled laptop, the office's policy applied as each record is written
        # (`laptop_gate.LaptopGate`); None elsewhere.
        self.gate: Any = None
        # The declared rules of every value written (`casefile.values`, given by the
        # session): type, bounds, length, form, vocabulary. None: not checked here.
        self.values_check: Callable[[str, str, Any], str | None] | None = None
        # Inserts held back by `batched_inserts`: per table, per column list, the rows.
        self._pending: dict[str, dict[tuple[str, ...], list[list[SqlValue]]]] | None = None

    def columns(self, table: str) -> tuple[str, ...]:
        if table not in self._columns:
            rows = self.conn.execute(f"PRAGMA table_info({table})").fetchall()
            if not rows:
                raise KeyError(f"no table {table}")
            self._columns[table] = tuple(r[1] for r in rows)
        return self._columns[table]

    @contextmanager
    def batched_inserts(self) -> Iterator[None]:
        """Inside, new records are written together, one statement per table and column
        list, when the block ends (or, for a table, before a record of it is read, updated
        or deleted through this writer). Each insert is logged as it is made, exactly as
        one by one. Reading the connection directly inside the block does not see the
        records held back; foreign keys are checked when the transaction commits."""
        if self._pending is not None:
            yield
            return
        self.conn.execute("PRAGMA defer_foreign_keys = ON")
        self._pending = {}
        try:
            yield
        except BaseException:
            self._pending = None
            raise
        self._write_pending()
        self._pending = None

    def _write_pending(self, table: str | None = None) -> None:
        if not self._pending:
            return
        # Parents before their children: a child written first would make SQLite look for
        # it again (a deferred foreign key) as each parent is written.
        for name in [table] if table is not None else sorted(self._pending, key=_parents_first):
            for names, rows in self._pending.pop(name, {}).items():
                self.conn.executemany(
                    f"INSERT INTO {name} ({', '.join(names)}) "
                    f"VALUES ({', '.join('?' * len(names))})", rows)

    def _check(self, table: str, values: Mapping[str, Any]) -> None:
        writable = self._writable.get(table)
        if writable is None:
            writable = self._writable[table] = frozenset(self.columns(table)) - BOOKKEEPING
        if writable.issuperset(values):
            return
        unknown = set(values) - set(self.columns(table))
        bookkeeping = set(values) & BOOKKEEPING
        if unknown or bookkeeping:
            raise KeyError(f"{table}: cannot write {sorted(unknown | bookkeeping)}")

    def log_change(self, *, table: str, record_id: str, parcel_id: str | None, op: str,
                    field: str | None, old: SqlValue, new: SqlValue, version: int,
                    change_id: str | None = None) -> None:
        self._log.append((change_id or new_id(), self.now, self.actor.user,
                          self.actor.device_id, table,
                          record_id, parcel_id, op, field, _log_value(old), _log_value(new),
                          version))
        if parcel_id is not None:
            self.changed_parcels.add(parcel_id)

    def insert(self, table: str, values: Mapping[str, Any], *, parcel_id: str | None,
               record_id: str | None = None) -> str:
        self._check(table, values)
        rid = record_id or new_id()
        if self.gate is not None:
            self.gate.check(table=table, op="insert", fields=list(values),
                            parcel_id=rid if table == "parcels" else parcel_id, record_id=rid,
                            values=dict(values))
        plain = _PLAIN
        row: dict[str, SqlValue] = {k: v if type(v) in plain else to_sql(v)
                                    for k, v in values.items()}
        if table == "parcels":
            parcel_id = rid
        elif "parcel_id" in self.columns(table):
            row["parcel_id"] = parcel_id
        if self.values_check is not None:
            self._check_values(table, values)
        row.update(id=rid, created_at=self.now, updated_at=self.now,
                   device_id=self.actor.device_id, version=1)
        names = tuple(row)
        if self._pending is None:
            self.conn.execute(
                f"INSERT INTO {table} ({', '.join(names)}) "
                f"VALUES ({', '.join('?' * len(names))})", list(row.values()))
        else:
            self._pending.setdefault(table, {}).setdefault(names, []).append(list(row.values()))
        # A new record is logged once, with every value it was created with; updates are
        # logged field by field, each with the value it replaced.
        created = {k: v for k, v in row.items() if k not in BOOKKEEPING and v is not None}
        self._log.append((new_id(), self.now, self.actor.user, self.actor.device_id, table, rid,
                          parcel_id, "insert", None, None, _log_value(created), 1))
        if parcel_id is not None:
            self.changed_parcels.add(parcel_id)
        return rid

    def current(self, table: str, record_id: str) -> dict[str, Any]:
        self._write_pending(table)
        cur = self.conn.execute(f"SELECT * FROM {table} WHERE id = ?", (record_id,))
        row = cur.fetchone()
        if row is None:
            raise KeyError(f"{table} has no record {record_id}")
        return dict(zip([d[0] for d in cur.description], row, strict=True))

    def update(self, table: str, record_id: str, values: Mapping[str, Any]) -> bool:
        """Apply the fields that differ; return whether anything changed."""
        self._check(table, values)
        old = self.current(table, record_id)
        if old["deleted_at"] is not None:
            raise ValueError(f"{table} record {record_id} was deleted and cannot be edited")
        changes = {k: to_sql(v) for k, v in values.items() if not _same(old[k], to_sql(v))}
        if not changes:
            return False
        if self.values_check is not None:
            self._check_values(table, {k: values[k] for k in changes})
        version = int(old["version"]) + 1
        parcel_id = record_id if table == "parcels" else old.get("parcel_id")
        if self.gate is not None:
            self.gate.check(table=table, op="update", fields=list(changes),
                            parcel_id=parcel_id, record_id=record_id)
        assignments = ", ".join(f"{k} = ?" for k in changes)
        self.conn.execute(
            f"UPDATE {table} SET {assignments}, updated_at = ?, device_id = ?, version = ? "
            "WHERE id = ?",
            [*changes.values(), self.now, self.actor.device_id, version, record_id])
        for name, value in changes.items():
            self.log_change(table=table, record_id=record_id, parcel_id=parcel_id, op="update",
                             field=name, old=old[name], new=value, version=version)
        return True

    def may_change_parcel(self, parcel_id: str) -> bool:
        """Whether this device may write a parcel's records (on a laptop: one it holds)."""
        return self.gate is None or bool(self.gate.holds(parcel_id))

    def _check_values(self, table: str, values: Mapping[str, Any]) -> None:
        assert self.values_check is not None
        for column, value in values.items():
            if column in BOOKKEEPING or column == "parcel_id":
                continue
            problem = self.values_check(table, column, value)
            if problem is not None:
                raise InputError(f"Not saved: {problem}; nothing was changed.")

    def delete(self, table: str, record_id: str) -> None:
        """Soft delete: the row stays, marked deleted, and its history stays in the log."""
        old = self.current(table, record_id)
        if old["deleted_at"] is not None:
            return
        version = int(old["version"]) + 1
        parcel_id = record_id if table == "parcels" else old.get("parcel_id")
        if self.gate is not None:
            self.gate.check(table=table, op="delete", fields=[], parcel_id=parcel_id,
                            record_id=record_id)
        self.conn.execute(
            f"UPDATE {table} SET deleted_at = ?, updated_at = ?, device_id = ?, version = ? "
            "WHERE id = ?", (self.now, self.now, self.actor.device_id, version, record_id))
        self.log_change(table=table, record_id=record_id, parcel_id=parcel_id, op="delete",
                         field=None, old=None, new=None, version=version)

    @property
    def pending_changes(self) -> int:
        """Change-log rows written in this transaction so far."""
        return len(self._log)

    def flush(self) -> int:
        """Append the buffered change-log rows; called before the transaction commits.

        Each device numbers its own changes 1, 2, 3... so a receiver can spot a gap."""
        self._write_pending()
        if self._log:
            # `device_seq IS NOT NULL` lets SQLite use the partial index on (device_id,
            # device_seq) instead of reading the whole change log.
            last = self.conn.execute("SELECT coalesce(max(device_seq), 0) FROM change_log "
                                     "WHERE device_id = ? AND device_seq IS NOT NULL",
                                     (self.actor.device_id,)).fetchone()[0]
            rows, n = [], last
            for row in self._log:
                if row[4] in LOCAL_TABLES:
                    rows.append((*row, None))
                else:
                    n += 1
                    rows.append((*row, n))
            self.conn.executemany(CHANGE_LOG_INSERT, rows)
        count = len(self._log)
        self._log.clear()
        return count
