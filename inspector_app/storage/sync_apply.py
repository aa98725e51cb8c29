"""Applying changes received from another device, field by field, against the base.

An incoming update carries the value it replaced on its device (the base). If the local
value still equals the base, the change is applied; if the local value already equals
the incoming value, there is nothing to do; otherwise the local value stays and a
conflict is recorded with both values for a person to resolve. Every change id is
remembered, so a change is applied at most once however often it arrives.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..domain import registry
from .records import BOOKKEEPING, CHANGE_LOG_INSERT, RecordWriter, _json, _same, new_id

# the records that travel (`domain.registry`, declared with each kind of record)
SYNCED_TABLES = registry.SYNCED_TABLES
BYTES_REF = "sha256_of_bytes"


@dataclass
class ApplyCounts:
    applied: int = 0
    same_value: int = 0
    conflicts: int = 0  # received changes that met a conflict
    skipped: int = 0
    already: int = 0
    held: int = 0  # kept aside for a person (a proposed parcel's, a refused value)
    # the conflicts raised that still wait for a person when the package is in: one that a
    # later change of the same package settled (the other side resolved it, or came round
    # to our value) needs no decision
    open_conflicts: int = 0

    @property
    def received(self) -> int:
        return self.applied + self.same_value + self.conflicts + self.skipped


def _columns(conn: sqlite3.Connection, table: str) -> set[str]:
    return {r[1] for r in conn.execute(f"PRAGMA table_info({table})")}


# A trigger that only drops the kept summary of a record's parcel (`0011_case_summaries.sql`):
# whether it runs once or many times for a record, the summary is gone.
_SUMMARY_TRIGGER = re.compile(
    r"CREATE TRIGGER \w+ AFTER (INSERT|UPDATE|DELETE) ON \w+ BEGIN DELETE FROM case_summaries "
    r"WHERE parcel_id (= (OLD|NEW)\.\w+|IN \((OLD|NEW)\.\w+, (OLD|NEW)\.\w+\)); END")


def _merged_columns(conn: sqlite3.Connection, table: str) -> frozenset[str]:
    """The columns of a table whose updates of one record may be written as one update
    with their last values: SQLite would check nothing statement by statement that the
    last values do not pass. That is, the table has no CHECK constraint and no trigger but
    those that drop a parcel's kept summary, and the column is in no unique index, no
    partial index's condition and no foreign key. (A NOT NULL column is merged only while
    its values are not null.)"""
    found = conn.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?",
                         (table,)).fetchone()
    if found is None or "CHECK" in str(found[0]).upper():
        return frozenset()
    for (sql,) in conn.execute("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND "
                               "tbl_name = ?", (table,)):
        if not _SUMMARY_TRIGGER.fullmatch(" ".join(str(sql).split())):
            return frozenset()
    columns = {r[1] for r in conn.execute(f"PRAGMA table_info({table})")}
    fixed = {r[3] for r in conn.execute(f"PRAGMA foreign_key_list({table})")}
    for _, name, unique, _, partial in conn.execute(f"PRAGMA index_list({table})"):
        named = [r[2] for r in conn.execute(f"PRAGMA index_info({name})")]
        if unique:
            fixed.update(named)
        if partial or None in named:
            (sql,) = conn.execute("SELECT sql FROM sqlite_master WHERE name = ?",
                                  (name,)).fetchone()
            words = set(re.findall(r"\w+", str(sql)))
            fixed.update(c for c in columns if c in words)
    return frozenset(columns - fixed)


def _affinity(declared: str) -> str:
    """A column's type affinity, by SQLite's rules for its declared type."""
    declared = declared.upper()
    if "INT" in declared:
        return "INTEGER"
    if any(word in declared for word in ("CHAR", "CLOB", "TEXT")):
        return "TEXT"
    if "BLOB" in declared or not declared:
        return "BLOB"
    if any(word in declared for word in ("REAL", "FLOA", "DOUB")):
        return "REAL"
    return "NUMERIC"


def _kept_as_is(value: Any, affinity: str) -> bool:
    """Whether SQLite gives back exactly this value, of this type, once it is stored in a
    column of this affinity (text stays text in a TEXT column, a whole number in an
    INTEGER one; a number in a TEXT column becomes text, 3.0 in an INTEGER one becomes 3)."""
    kind = type(value)
    if value is None or kind is bytes or affinity == "BLOB":
        return value is None or kind in (bytes, str, int) or (
            kind is float and value == value)
    if kind is str:
        return affinity == "TEXT"
    if kind is int:
        return affinity in ("INTEGER", "NUMERIC")
    if kind is float:
        return affinity == "REAL" and value == value
    return False


def _row(conn: sqlite3.Connection, table: str, record_id: str) -> dict[str, Any] | None:
    cur = conn.execute(f"SELECT * FROM {table} WHERE id = ?", (record_id,))
    found = cur.fetchone()
    return None if found is None else dict(zip([d[0] for d in cur.description], found,
                                               strict=True))


def _resolve_bytes(value: Any, blobs: Mapping[str, bytes]) -> Any:
    if isinstance(value, dict) and set(value) == {BYTES_REF}:
        return blobs[value[BYTES_REF]]
    return value


class ChangeApplier:
    """Applies incoming changes inside a transaction the caller holds open."""

    def __init__(self, conn: sqlite3.Connection, *, package_id: str, received_at: str,
                 blobs: Mapping[str, bytes], held: frozenset[str] = frozenset()) -> None:
        self.conn = conn
        # parcels no longer assigned to the sending laptop: its changes to their existing
        # records are kept as conflicts for a person, never applied (docs/sync.md)
        self.held = held
        self.package_id = package_id
        self.received_at = received_at
        self.blobs = blobs
        self.counts = ApplyCounts()
        self._columns: dict[str, set[str]] = {}
        self._known: set[str] = set()
        # the records the changes name, as stored (None: no such record), read in bulk by
        # `prepare` and kept as this applier writes them
        self._rows: dict[tuple[str, str], dict[str, Any] | None] = {}
        # record updates not yet written, in order: (statement, values); and those that
        # may be written as one update of their record with its last values
        self._writes: list[tuple[str, tuple[Any, ...]]] = []
        self._merged: dict[tuple[str, str], dict[str, Any]] = {}
        # each update statement's `_plan`, made once
        self._plans: dict[str, tuple[bool, tuple[str, ...], tuple[tuple[str, str], ...]]] = {}
        self._log_rows: list[tuple[Any, ...]] = []
        self._received_rows: list[tuple[Any, ...]] = []
        self._open = {(r[0], r[1], r[2]) for r in conn.execute(
            "SELECT table_name, record_id, field FROM sync_conflicts WHERE resolved_at IS NULL")}
        self._raised: list[tuple[str, str, str]] = []

    def prepare(self, changes: Sequence[Mapping[str, Any]]) -> None:
        """Look up in bulk which of these changes this data folder already has, and read
        the records they name, one query per table for each 500 of them."""
        change_ids = [c["change_id"] for c in changes]
        for start in range(0, len(change_ids), 500):
            chunk = change_ids[start:start + 500]
            marks = ",".join("?" * len(chunk))
            self._known.update(r[0] for r in self.conn.execute(
                f"SELECT change_id FROM change_log WHERE change_id IN ({marks}) UNION "
                f"SELECT change_id FROM sync_received WHERE change_id IN ({marks})",
                [*chunk, *chunk]))
        named: dict[str, set[str]] = {}
        for c in changes:
            if c["table"] in SYNCED_TABLES and (c["table"], c["record_id"]) not in self._rows:
                named.setdefault(c["table"], set()).add(c["record_id"])
        self._write_pending()
        for table, ids in named.items():
            wanted = sorted(ids)
            for start in range(0, len(wanted), 500):
                chunk = wanted[start:start + 500]
                cur = self.conn.execute(f"SELECT * FROM {table} WHERE id IN "
                                        f"({','.join('?' * len(chunk))})", chunk)
                names = [d[0] for d in cur.description]
                found = {row["id"]: row for row in (dict(zip(names, r, strict=True))
                                                    for r in cur.fetchall())}
                for record_id in chunk:
                    self._rows[(table, record_id)] = found.get(record_id)

    def finish(self) -> None:
        """Write the buffered record updates and log rows, in the order the changes were
        applied."""
        self._write_pending()
        self.conn.executemany(CHANGE_LOG_INSERT, self._log_rows)
        self.conn.executemany(
            "INSERT INTO sync_received (change_id, device_id, device_seq, package_id, outcome)"
            " VALUES (?, ?, ?, ?, ?)", self._received_rows)
        self._log_rows.clear()
        self._received_rows.clear()
        self.counts.open_conflicts = sum(key in self._open for key in self._raised)

    # Whether updates of one record may be written as one (`_merged_columns`); off, each
    # is written as it was made (a test holds the two ways to the same records).
    merge_updates = True

    def _write_pending(self) -> None:
        """Write the record updates held back: those in order, each run of the same
        statement at once; then each record's merged updates, as one update."""
        writes, self._writes = self._writes, []
        merged: dict[str, list[tuple[Any, ...]]] = {}
        for (table, record_id), values in self._merged.items():
            sql, params = self._merged_update(table, record_id, values)
            merged.setdefault(sql, []).append(params)
        self._merged.clear()
        start = 0
        while start < len(writes):
            end = start + 1
            while end < len(writes) and writes[end][0] == writes[start][0]:
                end += 1
            self.conn.executemany(writes[start][0], [w[1] for w in writes[start:end]])
            start = end
        for sql, rows in merged.items():
            self.conn.executemany(sql, rows)

    @staticmethod
    def _merged_update(table: str, record_id: str,
                       values: dict[str, Any]) -> tuple[str, tuple[Any, ...]]:
        return (f"UPDATE {table} SET {', '.join(f'{k} = ?' for k in values)} WHERE id = ?",
                (*values.values(), record_id))

    def _plan(self, table: str, sql: str, values: dict[str, Any]
              ) -> tuple[bool, tuple[str, ...], tuple[tuple[str, str], ...]]:
        """What an update statement of a table needs to know of its columns (`values`'
        keys, in its order): whether its updates of a record may be merged (every column in
        `_merged_columns`), those of them that are NOT NULL (merged only while their values
        are not null), and each one's type affinity."""
        plan = self._plans.get(sql)
        if plan is None:
            info = self.conn.execute(f"PRAGMA table_info({table})").fetchall()
            required = {r[1] for r in info if r[3]}
            affinity = {r[1]: _affinity(r[2]) for r in info}
            merged = _merged_columns(self.conn, table) if self.merge_updates else frozenset()
            plan = self._plans[sql] = (all(k in merged for k in values),
                                       tuple(k for k in values if k in required),
                                       tuple((k, affinity[k]) for k in values))
        return plan

    def _row(self, table: str, record_id: str) -> dict[str, Any] | None:
        """A record as stored now (None if there is none)."""
        key = (table, record_id)
        if key not in self._rows:
            self._write_pending()
            self._rows[key] = _row(self.conn, table, record_id)
        return self._rows[key]

    def _write(self, table: str, row: dict[str, Any], sql: str,
               values: dict[str, Any]) -> None:
        """Update a record: held back to be written with the next ones, the row kept as
        SQLite will give it back (read again if SQLite would store a value otherwise)."""
        merge, required, affinities = self._plans.get(sql) or self._plan(table, sql, values)
        for k in required if merge else ():
            v = values[k]
            if v is None or v != v:  # NaN: stored as NULL
                merge = False
                break
        key = (table, row["id"])
        if merge:
            self._merged.setdefault(key, {}).update(values)
        else:
            earlier = self._merged.pop(key, None)
            if earlier is not None:  # the record's merged updates come before this one
                self._writes.append(self._merged_update(table, row["id"], earlier))
            self._writes.append((sql, (*values.values(), row["id"])))
        for k, affinity in affinities:
            if not _kept_as_is(values[k], affinity):
                del self._rows[key]
                return
        row.update(values)

    def columns(self, table: str) -> set[str]:
        if table not in self._columns:
            self._columns[table] = _columns(self.conn, table)
        return self._columns[table]

    def _remember(self, c: Mapping[str, Any], outcome: str) -> None:
        self._received_rows.append(
            (c["change_id"], c["device_id"], c["device_seq"], self.package_id, outcome))
        self._known.add(c["change_id"])
        counter = "conflicts" if outcome == "conflict" else outcome
        setattr(self.counts, counter, getattr(self.counts, counter) + 1)

    def _log(self, c: Mapping[str, Any], version: int) -> None:
        """Keep the received change in our change log, under its own id and device."""
        new = c["new"]
        self._log_rows.append(
            (c["change_id"], c["at"], c["user"], c["device_id"], c["table"], c["record_id"],
             c["parcel_id"], c["op"], c["field"],
             None if c["old"] is None else _json(c["old"]),
             None if new is None else _json(new),
             version, c["device_seq"]))

    def _conflict(self, c: Mapping[str, Any], local: Any, field: str, *,
                  base: Any = None, incoming: Any = None) -> None:
        """Record a conflict; `base` and `incoming` default to the change's own values."""
        self.conn.execute(
            "INSERT INTO sync_conflicts (id, parcel_id, table_name, record_id, field, "
            "base_value, local_value, incoming_value, change_id, device_id, incoming_user, "
            "incoming_at, received_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (new_id(), c["parcel_id"], c["table"], c["record_id"], field,
             json.dumps(c["old"] if base is None else base), json.dumps(local),
             json.dumps(c["new"] if incoming is None else incoming), c["change_id"],
             c["device_id"], c["user"], c["at"], self.received_at))
        self._open.add((c["table"], c["record_id"], field))
        self._raised.append((c["table"], c["record_id"], field))
        self._remember(c, "conflict")

    def apply(self, c: Mapping[str, Any]) -> None:
        if c["change_id"] in self._known:
            self.counts.already += 1
            return
        table = c["table"]
        if table not in SYNCED_TABLES:
            raise ValueError(f"change {c['change_id']} names the table {table!r}, which is "
                             "not synchronised")
        row = self._row(table, c["record_id"])
        op = c["op"]
        try:
            if op == "insert":
                self._insert(c, row)
            elif row is None:
                self._remember(c, "skipped")  # a record this device never had
            elif c["parcel_id"] in self.held:
                self._hold(c, row)
            elif op == "update":
                self._update(c, row)
            else:
                self._delete(c, row)
        except ValueError:
            # an update held back that does not fit is what refuses the package, as it
            # would have been had it been written at once
            self._write_pending()
            raise

    def _hold(self, c: Mapping[str, Any], row: dict[str, Any]) -> None:
        """A change to a record of a parcel taken from the sender: kept for a person."""
        if c["op"] == "delete":
            if row["deleted_at"] is not None:
                self._remember(c, "same_value")
            else:
                self._conflict(c, "kept", "(deleted)")
            return
        field = c["field"]
        if field not in self.columns(c["table"]) or field in BOOKKEEPING:
            raise ValueError(f"change {c['change_id']} sets the unknown field {field!r} of "
                             f"{c['table']}")
        if _same(row[field], _resolve_bytes(c["new"], self.blobs)):
            self._remember(c, "same_value")
        elif row["deleted_at"] is not None:
            self._conflict(c, "deleted", "(deleted)", base={field: c["old"]},
                           incoming={field: c["new"]})
        else:
            self._conflict(c, row[field], field)

    def _insert(self, c: Mapping[str, Any], row: dict[str, Any] | None) -> None:
        if row is not None:
            self._remember(c, "same_value")
            return
        table = c["table"]
        values = {k: _resolve_bytes(v, self.blobs) for k, v in c["new"].items()}
        unknown = set(values) - (self.columns(table) - BOOKKEEPING)
        if unknown:
            raise ValueError(f"change {c['change_id']} sets unknown fields {sorted(unknown)} "
                             f"of {table}")
        values.update(id=c["record_id"], created_at=c["at"], updated_at=c["at"],
                      device_id=c["device_id"], version=1)
        if table != "parcels" and "parcel_id" in self.columns(table):
            values["parcel_id"] = c["parcel_id"]
        names = list(values)
        self._write_pending()
        self.conn.execute("SAVEPOINT sync_insert")
        try:
            self.conn.execute(f"INSERT INTO {table} ({', '.join(names)}) VALUES "
                              f"({', '.join('?' * len(names))})", [values[n] for n in names])
        except sqlite3.IntegrityError:
            # e.g. the same tax map number created independently on both sides
            self.conn.execute("ROLLBACK TO sync_insert")
            self.conn.execute("RELEASE sync_insert")
            self._conflict(c, None, "(record)")
            return
        self.conn.execute("RELEASE sync_insert")
        self._rows.pop((table, c["record_id"]), None)  # read again, with its columns' defaults
        self._log(c, 1)
        self._remember(c, "applied")

    def _update(self, c: Mapping[str, Any], row: dict[str, Any]) -> None:
        field, table = c["field"], c["table"]
        if field not in self.columns(table) or field in BOOKKEEPING:
            raise ValueError(f"change {c['change_id']} sets the unknown field {field!r} of "
                             f"{table}")
        local = row[field]
        incoming = _resolve_bytes(c["new"], self.blobs)
        if row["deleted_at"] is not None and not _same(local, incoming):
            # removed here while the other side edited it: the edit is kept for a person,
            # never written onto the removed record
            self._conflict(c, "deleted", "(deleted)", base={field: c["old"]},
                           incoming={field: c["new"]})
            return
        if _same(local, incoming):
            self._remember(c, "same_value")
            self._settle(c, field, incoming)  # the other side now agrees with our value
            return
        if not _same(local, _resolve_bytes(c["old"], self.blobs)):
            self._conflict(c, local, field)
            return
        version = int(row["version"]) + 1
        self._write(table, row, f"UPDATE {table} SET {field} = ?, updated_at = ?, "
                    "device_id = ?, version = ? WHERE id = ?",
                    {field: incoming, "updated_at": c["at"], "device_id": c["device_id"],
                     "version": version})
        self._log(c, version)
        self._remember(c, "applied")
        self._settle(c, field, incoming)  # made against our value: the other side decided

    def _settle(self, c: Mapping[str, Any], field: str, value: Any) -> None:
        """Close an open conflict on this field: both sides now hold the same value."""
        key = (c["table"], c["record_id"], field)
        if key not in self._open:
            return
        self._open.discard(key)
        self.conn.execute(
            "UPDATE sync_conflicts SET resolved_at = ?, resolved_by = ?, "
            "resolution = 'enter_value', resolved_value = ? WHERE table_name = ? AND "
            "record_id = ? AND field = ? AND resolved_at IS NULL",
            (self.received_at, f"{c['user']} (on device {c['device_id']})",
             None if isinstance(value, bytes) else json.dumps(value), c["table"],
             c["record_id"], field))

    def _delete(self, c: Mapping[str, Any], row: dict[str, Any]) -> None:
        if row["deleted_at"] is not None:
            self._remember(c, "same_value")
            return
        if int(row["version"]) != int(c["record_version"]) - 1:
            # edited here since the other side last saw it: a person decides
            self._conflict(c, "kept", "(deleted)")
            return
        version = int(row["version"]) + 1
        self._write(c["table"], row, f"UPDATE {c['table']} SET deleted_at = ?, "
                    "updated_at = ?, device_id = ?, version = ? WHERE id = ?",
                    {"deleted_at": c["at"], "updated_at": c["at"],
                     "device_id": c["device_id"], "version": version})
        self._log(c, version)
        self._remember(c, "applied")


def resolve_field(w: RecordWriter, *, table: str, record_id: str, field: str, value: Any,
                  conflict_id: str) -> None:
    """Set a field to a person's chosen value.

    The change-log entry records what the field held before, as every change does. It
    carries the conflict's id as its change id: an export sends it against the value the
    other side sent (`resolution_bases`), so the device that sent the conflicting change
    takes the resolution as a decision, not as a new conflict."""
    row = w.current(table, record_id)
    version = int(row["version"]) + 1
    w.conn.execute(f"UPDATE {table} SET {field} = ?, updated_at = ?, device_id = ?, "
                   "version = ? WHERE id = ?",
                   (value, w.now, w.actor.device_id, version, record_id))
    parcel_id = record_id if table == "parcels" else row.get("parcel_id")
    w.log_change(table=table, record_id=record_id, parcel_id=parcel_id, op="update",
                 field=field, old=row[field], new=value, version=version,
                 change_id=conflict_id)


def resolution_bases(conn: sqlite3.Connection, change_ids: list[str]) -> dict[str, Any]:
    """For the changes among these that resolved a conflict: the value the other side
    sent, which the resolution is sent against."""
    bases: dict[str, Any] = {}
    for start in range(0, len(change_ids), 500):
        chunk = change_ids[start:start + 500]
        for conflict_id, incoming in conn.execute(
                f"SELECT id, incoming_value FROM sync_conflicts WHERE id IN "
                f"({','.join('?' * len(chunk))}) AND resolution IS NOT NULL", chunk):
            bases[conflict_id] = None if incoming is None else json.loads(incoming)
    return bases
