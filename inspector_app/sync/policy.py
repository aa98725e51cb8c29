"""Who may change what by sync, and which values a change may carry.

A laptop may change the case records of the parcels assigned to it (or that it created):
the case fields of the parcel itself, and the dwelling, system, components, inspections,
services, observations, determinations, notices, site features, lake measurements,
findings and photos that belong to the parcel. Only the office changes the parcels roll
beyond those case fields (tax map numbers, adding and removing parcels), the shoreline
layers, the letters register (printing included) and the devices; the jurisdiction file
and the sync bookkeeping do not travel as changes at all.

A package from a laptop must speak only for that laptop: every change carries the
signer's device id and a sequence number that continues the signer's own, within a
bound, and its acknowledgements do not go beyond what the office has sent. Every value,
from either side, passes the rules the case-file reader applies to the same field
(type, range, vocabulary, length, form, real dates) and is a finite number where it is a
number; timestamps are real and not far ahead of now, and a laptop's are not older than
its enrolment; a photo is addressed by its lower-case hex SHA-256 and its bytes match it,
and a package carries no file its changes or records do not name. A laptop's record
names only records of its own parcel, its geometry passes the case file's geometry check,
fields the case file does not hold pass `COLUMN_RULES`, and its package carries at most
`MAX_CHANGES` changes.

`check_package` looks at a whole package before anything is applied. The first change
that breaks the policy refuses the package, with a message that names the change (table,
field, record), and nothing is changed.
"""

from __future__ import annotations

import json
import math
import re
import sqlite3
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from ..casefile import DATE_PATTERN as _DATE_PATTERN
from ..domain.vocabulary import ComponentKind
from ..services.exchange import resolution
from ..storage.records import BOOKKEEPING
from ..storage.sync_apply import BYTES_REF, SYNCED_TABLES
from .package import Package, PackageError

# The tables a laptop may change: the case records of its parcels, and their photos.
LAPTOP_TABLES = frozenset({
    "renters", "dwellings", "proposed_work", "systems", "components", "inspections",
    "inspection_tests", "etu_services", "etu_reports", "holding_tank_services", "pump_outs",
    "site_observations", "ahj_determinations", "notices", "site_features",
    "lake_measurements", "attachments", "finding_decisions", "lot_measurements",
})
# Only the office changes these (and the parcels roll beyond its case fields).
OFFICE_TABLES = SYNCED_TABLES - LAPTOP_TABLES
# The parcel's own fields a laptop may change: those its case file holds, except the tax
# map number, which identifies the parcel on the roll.
LAPTOP_PARCEL_FIELDS = frozenset({
    "municipality", "site_address", "owner_name", "owner_mailing_address", "owner_phone",
    "owner_email", "longitude", "latitude",
})
# Fields that never change once the record exists: a photo's bytes are named by them.
FIXED_FIELDS = {"attachments": frozenset({"sha256", "size_bytes"})}

MAX_SEQ = 2**31 - 1
# How many of its numbers a laptop's package may skip beyond what the office has of it
# and the changes it carries (changes lost with an earlier package are reported as gaps).
MAX_SKIPPED = 10_000
MAX_TEXT = 5000  # characters, for a text field the case file does not bound itself
MAX_GEOMETRY_TEXT = 20 * 1024**2  # a shoreline layer's outline, from the office
LONG_TEXT = frozenset({"geometry"})
CLOCK_AHEAD = timedelta(days=1)
CLOCK_BEHIND = timedelta(days=5 * 366)
# A laptop's change is no older than the laptop's enrolment, give or take this much clock.
CLOCK_ALLOWANCE = timedelta(days=1)
# The most changes a laptop's package carries; `sync export` on a laptop writes at most
# this many and the rest in the next package.
MAX_CHANGES = 50_000
# The most that a change's previous value (old) may hold, as JSON text, besides an outline.
MAX_OLD_TEXT = MAX_TEXT + 100
DIGEST = re.compile(r"\A[0-9a-f]{64}\Z")
_FIELD_NAME = re.compile(r"\A[a-z_0-9]{1,60}\Z")


@dataclass(frozen=True)
class Sender:
    """Who signed the package, as the receiving data folder knows it."""

    device_id: str
    role: str  # "field" (a laptop, received at the office) or "office"
    parcels: frozenset[str] = frozenset()  # a laptop's parcels: assigned or its own
    enrolled_at: datetime | None = None  # when the office enrolled the laptop


class _Refusal(Exception):
    pass


def is_digest(value: Any) -> bool:
    """Whether a value is a SHA-256 as this app names a file: 64 lower-case hex digits."""
    return isinstance(value, str) and DIGEST.match(value) is not None


def check_package(conn: sqlite3.Connection, package: Package, *, sender: Sender,
                  receiver_id: str, source: str, now: datetime | None = None,
                  attachment_exists: Callable[[str], bool] = lambda digest: False) -> None:
    """Refuse the whole package (PackageError) if anything in it breaks the policy.

    `attachment_exists(digest)` says whether this data folder already holds a file; it
    is asked only with a digest that passed the check."""
    now = now or datetime.now(UTC)
    try:
        _check(conn, package, sender=sender, receiver_id=receiver_id, now=now,
               attachment_exists=attachment_exists)
    except _Refusal as why:
        raise PackageError(f"{source}: {why}; the package was refused and nothing was "
                           "changed.") from None


def _check(conn: sqlite3.Connection, package: Package, *, sender: Sender, receiver_id: str,
           now: datetime, attachment_exists: Callable[[str], bool]) -> None:
    manifest = package.manifest
    _timestamp(manifest["created_at"], "its creation time (created_at)", now)
    for digest in package.attachments:
        if not is_digest(digest):
            raise _Refusal(f"the attachment {digest[:80]!r} is not named by a SHA-256")
    from_laptop = sender.role == "field"
    if from_laptop and len(package.changes) > MAX_CHANGES:
        raise _Refusal(f"it carries {len(package.changes):,} changes; a laptop's package "
                       f"carries at most {MAX_CHANGES:,} (split it: export again after this "
                       "one is imported)")
    _unreferenced(package)
    if from_laptop:
        _sequence(conn, package, sender)
    _acknowledgements(conn, manifest, sender, receiver_id)
    columns: dict[str, dict[str, tuple[str, bool]]] = {}
    # a laptop's records of its parcels' changes: a change's time is no earlier than the
    # laptop's enrolment; the office is the authority on the records it relays
    earliest = (None if not from_laptop
                else now - CLOCK_BEHIND if sender.enrolled_at is None
                else sender.enrolled_at - CLOCK_ALLOWANCE)
    for c in package.changes:
        where = _where(c)
        try:
            _timestamp(c["at"], "its time (at)", now, earliest=earliest,
                       since="this laptop was enrolled")
            if from_laptop:
                _authorised(conn, c, sender)
            _values(conn, c, columns, package.attachments, attachment_exists, now.date())
        except _Refusal as why:
            raise _Refusal(f"{where} {why}") from None
    if from_laptop:
        _references(conn, package.changes)
        _feature_counts(conn, package.changes)


def _named_files(value: Any, found: set[str], depth: int = 0) -> None:
    """Collect the files a change or record names: a photo's SHA-256, a document's bytes."""
    if depth > 64:
        return
    if isinstance(value, dict):
        for key, item in value.items():
            if key in ("sha256", BYTES_REF) and isinstance(item, str):
                found.add(item)
            else:
                _named_files(item, found, depth + 1)
    elif isinstance(value, list):
        for item in value:
            _named_files(item, found, depth + 1)


def _unreferenced(package: Package) -> None:
    """A package carries only the photos and documents its changes or records use."""
    if not package.attachments:
        return
    found: set[str] = set()
    for c in package.changes:
        _named_files(c.get("new"), found)
        _named_files(c.get("old"), found)
    for member in ("records.jsonl", "history.jsonl"):
        for line in package.extra.get(member, b"").splitlines():
            try:
                _named_files(json.loads(line), found)
            except ValueError:
                continue  # refused as damaged where the records are read
    for digest in package.attachments:
        if digest not in found:
            raise _Refusal(f"it carries the attachment {digest[:12]}..., which none of its "
                           "changes or records refers to; a package carries only the photos "
                           "and documents its records use")


def _reference_columns(conn: sqlite3.Connection,
                       cache: dict[str, dict[str, str]], table: str) -> dict[str, str]:
    """A table's columns that name a record of another case table: column -> table."""
    if table not in cache:
        cache[table] = {str(r[3]): str(r[2]) for r in conn.execute(
            f"PRAGMA foreign_key_list({table})")
            if r[2] in LAPTOP_TABLES and r[3] != "parcel_id"}
    return cache[table]


def _references(conn: sqlite3.Connection, changes: list[dict[str, Any]]) -> None:
    """A laptop's record names only records of its own parcel (an inspection, system,
    component...): one the receiver holds, or one the same package inserts."""
    inserted = {(c["table"], c["record_id"]): c["parcel_id"] for c in changes
                if c["op"] == "insert"}
    cache: dict[str, dict[str, str]] = {}
    for c in changes:
        refs = _reference_columns(conn, cache, c["table"])
        if not refs:
            continue
        if c["op"] == "insert" and isinstance(c["new"], dict):
            values = [(k, v) for k, v in c["new"].items() if k in refs]
        elif c["op"] == "update" and c["field"] in refs:
            values = [(c["field"], c["new"])]
        else:
            continue
        for column, value in values:
            if value is None:
                continue
            target = refs[column]
            words = resolution.label(c["table"], column)
            if not isinstance(value, str):
                raise _Refusal(f"{_where(c)} {words} is {str(value)[:80]!r}, which is not the "
                               f"id of a record of {target}")
            row = conn.execute(f"SELECT parcel_id FROM {target} WHERE id = ?",
                               (value,)).fetchone()
            owner = row[0] if row is not None else inserted.get((target, value))
            if owner is None:
                raise _Refusal(f"{_where(c)} {words} names the record {value[:80]} of "
                               f"{target}, which neither this data folder nor the package "
                               "holds")
            if owner != c["parcel_id"]:
                raise _Refusal(f"{_where(c)} {words} names the record {value} of {target}, "
                               f"which belongs to the parcel {owner}, not to this record's "
                               f"parcel {c['parcel_id']}; a record names only records of "
                               "its own parcel")


# Site features the case file lists apart, outside its bound on the features list.
_LISTED_APART = ("absorption_area", "holding_tank")


def _feature_counts(conn: sqlite3.Connection, changes: list[dict[str, Any]]) -> None:
    """A parcel holds no more site features than its case file may list."""
    limit = resolution.list_limit("site_features")
    if limit is None:
        return
    added: dict[str, list[dict[str, Any]]] = {}
    removed: dict[str, set[str]] = {}
    for c in changes:
        if c["table"] != "site_features":
            continue
        if c["op"] == "insert" and isinstance(c["new"], dict) \
                and c["new"].get("kind") not in _LISTED_APART:
            added.setdefault(c["parcel_id"], []).append(c)
        elif c["op"] == "delete":
            removed.setdefault(c["parcel_id"], set()).add(c["record_id"])
    for parcel, inserts in added.items():
        held = {r[0] for r in conn.execute(
            "SELECT id FROM site_features WHERE parcel_id = ? AND deleted_at IS NULL AND "
            f"kind NOT IN ({','.join('?' * len(_LISTED_APART))})", (parcel, *_LISTED_APART))}
        total = len(held - removed.get(parcel, set())) + len(inserts)
        if total > limit:
            raise _Refusal(f"{_where(inserts[-1])} would give the parcel {total} site "
                           f"features; a case holds at most {limit}")


def _where(c: Mapping[str, Any]) -> str:
    field = f".{c['field']}" if c.get("field") else ""
    return (f"change {c['change_id']} ({c['op']} of {c['table']}{field}, record "
            f"{c['record_id']})")


_DEFAULT_EARLIEST = datetime.min.replace(tzinfo=UTC)


def _timestamp(text: str, what: str, now: datetime, *,
               earliest: datetime | None = _DEFAULT_EARLIEST, since: str = "") -> None:
    """A real, zoned time not after now (and its allowance); not before `earliest` (by
    default, 5 years before now; None: no lower bound)."""
    try:
        at = datetime.fromisoformat(text)
    except ValueError:
        raise _Refusal(f"{what} is {text!r}, which is not a real date and time") from None
    if at.tzinfo is None:
        raise _Refusal(f"{what} is {text!r}, which does not say its time zone")
    if at > now + CLOCK_AHEAD:
        raise _Refusal(f"{what} is {text}, more than {CLOCK_AHEAD.days} day after now "
                       f"({now.isoformat(timespec='seconds')}); check the sending computer's "
                       "clock")
    if earliest is not None and earliest is not _DEFAULT_EARLIEST:
        if at < earliest:
            raise _Refusal(f"{what} is {text}, before {since} "
                           f"({(earliest + CLOCK_ALLOWANCE).isoformat(timespec='seconds')}, "
                           f"with {CLOCK_ALLOWANCE.days} day allowed for its clock); check "
                           "the sending computer's clock")
    elif earliest is not None and at < now - CLOCK_BEHIND:
        raise _Refusal(f"{what} is {text}, more than {CLOCK_BEHIND.days // 366} years before "
                       f"now ({now.isoformat(timespec='seconds')}); check the sending "
                       "computer's clock")


# --- who speaks for whom -----------------------------------------------------------------

def _known_seqs(conn: sqlite3.Connection, device_id: str,
                seqs: list[int]) -> dict[int, set[str]]:
    known: dict[int, set[str]] = {}
    for start in range(0, len(seqs), 500):
        chunk = seqs[start:start + 500]
        marks = ",".join("?" * len(chunk))
        for seq, change_id in conn.execute(
                f"SELECT device_seq, change_id FROM sync_received WHERE device_id = ? AND "
                f"device_seq IN ({marks}) UNION SELECT device_seq, change_id FROM change_log "
                f"WHERE device_id = ? AND device_seq IN ({marks})",
                [device_id, *chunk, device_id, *chunk]):
            known.setdefault(int(seq), set()).add(str(change_id))
    return known


def _sequence(conn: sqlite3.Connection, package: Package, sender: Sender) -> None:
    """A laptop's changes are its own, numbered on from what the office has of it."""
    for c in package.changes:
        if c["device_id"] != sender.device_id:
            raise _Refusal(f"{_where(c)} claims to come from the device {c['device_id']}, "
                           f"but the package is signed by {sender.device_id}; a laptop "
                           "sends only its own changes")
        if c["device_seq"] is None:
            raise _Refusal(f"{_where(c)} has no sequence number (device_seq)")
    last = int(conn.execute(
        "SELECT max(coalesce((SELECT max(device_seq) FROM sync_received WHERE device_id = ?),"
        " 0), coalesce((SELECT max(device_seq) FROM change_log WHERE device_id = ? AND"
        " device_seq IS NOT NULL), 0))",
        (sender.device_id, sender.device_id)).fetchone()[0])
    count = len(package.changes)
    bound = min(last + count + MAX_SKIPPED, MAX_SEQ)
    seen: dict[int, str] = {}
    for c in package.changes:
        seq = int(c["device_seq"])
        if seq > bound:
            raise _Refusal(
                f"{_where(c)} has the sequence number {seq}, but this laptop's changes here "
                f"run to {last} and the package holds {count}, so its numbers can go no "
                f"higher than {bound} (at most {MAX_SKIPPED:,} numbers skipped)")
        if seq in seen:
            raise _Refusal(f"{_where(c)} has the sequence number {seq}, which the change "
                           f"{seen[seq]} of the same package has too")
        seen[seq] = c["change_id"]
    known = _known_seqs(conn, sender.device_id, sorted(s for s in seen if s <= last))
    for c in package.changes:
        seq = int(c["device_seq"])
        if seq in known and c["change_id"] not in known[seq]:
            raise _Refusal(f"{_where(c)} has the sequence number {seq}, which this laptop "
                           "already used for another change")
    first, top = package.manifest["first_seq"], package.manifest["last_seq"]
    if seen and (first != min(seen) or top != max(seen)):
        raise _Refusal(f"its manifest says it carries changes {first} to {top}, but they "
                       f"are numbered {min(seen)} to {max(seen)}")


def _acknowledgements(conn: sqlite3.Connection, manifest: Mapping[str, Any], sender: Sender,
                      receiver_id: str) -> None:
    """An acknowledgement goes no further than what the receiver has sent."""
    for ack in manifest["acknowledges"]:
        if sender.role == "field":
            if ack["device_id"] != receiver_id:
                raise _Refusal(f"it acknowledges changes of the device {ack['device_id']}; a "
                               "laptop acknowledges only the office's changes")
            sent = int(conn.execute("SELECT coalesce(max(seq), 0) FROM change_log")
                       .fetchone()[0])
            what = "the office has recorded"
        elif ack["device_id"] == receiver_id:
            sent = int(conn.execute(
                "SELECT coalesce(max(device_seq), 0) FROM change_log WHERE device_id = ? "
                "AND device_seq IS NOT NULL",
                (receiver_id,)).fetchone()[0])
            what = "this laptop has made"
        else:
            continue  # another laptop's: this laptop keeps no count of it
        if ack["through_seq"] > sent:
            raise _Refusal(f"it acknowledges changes through {ack['through_seq']}, but "
                           f"{what} only {sent}")


def _authorised(conn: sqlite3.Connection, c: Mapping[str, Any], sender: Sender) -> None:
    """What a laptop may change: the case records of its own parcels."""
    table, op, field = c["table"], c["op"], c["field"]
    if table == "parcels":
        if op != "update" or field not in LAPTOP_PARCEL_FIELDS:
            what = (f"changes the parcel's {field}" if op == "update"
                    else f"{'adds' if op == 'insert' else 'removes'} a parcel")
            raise _Refusal(f"{what}; only the office changes the parcels roll (a laptop "
                           f"may change {', '.join(sorted(LAPTOP_PARCEL_FIELDS))})")
        if c["record_id"] != c["parcel_id"]:
            raise _Refusal("names another parcel than the record it changes")
    elif table not in LAPTOP_TABLES:
        raise _Refusal(f"changes {table}, which only the office changes")
    if field is not None and field in FIXED_FIELDS.get(table, ()):
        raise _Refusal(f"changes {field}, which never changes once the record exists")
    parcel = c["parcel_id"]
    if parcel is None or parcel not in sender.parcels:
        raise _Refusal(f"changes the parcel {parcel}, which is not assigned to this laptop")
    if op != "insert" and table != "parcels":
        row = conn.execute(f"SELECT parcel_id FROM {table} WHERE id = ?",
                           (c["record_id"],)).fetchone()
        if row is not None and row[0] != parcel:
            raise _Refusal(f"says the record belongs to the parcel {parcel}, but it belongs "
                           f"to {row[0]}, which is not this change's to make")


def record_problem(conn: sqlite3.Connection, records: Iterable[Mapping[str, Any]], *,
                   blobs: Mapping[str, bytes],
                   attachment_exists: Callable[[str], bool]) -> str | None:
    """What is wrong with the first of these whole records (`{"table", "row"}`, as an office
    package carries those of newly assigned parcels), or None: each row's values pass the
    checks of a change that inserted it."""
    columns: dict[str, dict[str, tuple[str, bool]]] = {}
    for item in records:
        row = item["row"]
        c = {"change_id": "(record)", "table": item["table"], "op": "insert", "field": None,
             "record_id": row.get("id"), "old": None,
             "new": {k: v for k, v in row.items() if k not in BOOKKEEPING}}
        try:
            _values(conn, c, columns, blobs, attachment_exists, today=None)
        except _Refusal as why:
            return f"the record {row.get('id')} of {item['table']} it carries {why}"
    return None


# --- the values --------------------------------------------------------------------------

def _finite(value: Any, depth: int = 0) -> bool:
    if isinstance(value, float):
        return math.isfinite(value)
    if depth > 64:
        return False
    if isinstance(value, list):
        return all(_finite(v, depth + 1) for v in value)
    if isinstance(value, dict):
        return all(_finite(v, depth + 1) for v in value.values())
    return True


def _declared(conn: sqlite3.Connection, table: str,
              columns: dict[str, dict[str, tuple[str, bool]]]) -> dict[str, tuple[str, bool]]:
    if table not in columns:
        columns[table] = {r[1]: (str(r[2]).upper(), bool(r[3]))
                          for r in conn.execute(f"PRAGMA table_info({table})")}
    return columns[table]


def _values(conn: sqlite3.Connection, c: Mapping[str, Any],
            columns: dict[str, dict[str, tuple[str, bool]]],
            blobs: Mapping[str, bytes], attachment_exists: Callable[[str], bool],
            today: date | None) -> None:
    """Refuse a change whose values a case could not hold; with `today`, also a date of
    something that happened that lies after it (records the office sends are its own
    and are not judged by the receiver's clock)."""
    table = c["table"]
    if table not in SYNCED_TABLES:
        raise _Refusal(f"names the table {table!r}, which is not synchronised")
    declared = _declared(conn, table, columns)
    if c["op"] == "insert":
        values: Iterable[tuple[str, Any]] = c["new"].items()
    elif c["op"] == "update":
        values = [(c["field"], c["new"])]
    else:
        values = []
    for column, value in values:
        if not _FIELD_NAME.match(column) or column not in declared or column in BOOKKEEPING:
            raise _Refusal(f"sets {str(column)[:60]!r}, which is not a field of {table} "
                           "that a change may set")
        _value(conn, table, column, value, declared[column][0], blobs)
        if today is not None:
            _not_after_today(table, column, value, today)
    if c["op"] == "update" and isinstance(c["old"], dict) and set(c["old"]) == {BYTES_REF} \
            and c["old"][BYTES_REF] not in blobs:
        raise _Refusal("refers to a document that is not in the package")
    if not _finite(c["old"]):
        raise _Refusal("carries a previous value (old) with a number that is not finite "
                       "(infinity or NaN)")
    _old_size(c)
    if table == "attachments" and c["op"] == "insert":
        digest, size = c["new"].get("sha256"), c["new"].get("size_bytes")
        if digest in blobs:
            if size != len(blobs[digest]):
                raise _Refusal(f"says the photo is {size} bytes, but its file in the package "
                               f"is {len(blobs[digest])} bytes")
        elif not attachment_exists(digest):
            raise _Refusal("records a photo whose bytes are neither in the package nor on "
                           "this computer")


def _old_size(c: Mapping[str, Any]) -> None:
    """A change's previous value is held to the bounds of a value."""
    old = c["old"]
    if old is None:
        return
    long = c["op"] == "update" and c["field"] in LONG_TEXT
    bound = MAX_GEOMETRY_TEXT if long else MAX_TEXT if isinstance(old, str) else MAX_OLD_TEXT
    try:
        size = len(old) if isinstance(old, str) else len(json.dumps(
            old, ensure_ascii=False, separators=(",", ":")))
    except (ValueError, TypeError, RecursionError):
        raise _Refusal("carries a previous value (old) that is not plain JSON") from None
    if size > bound:
        raise _Refusal(f"carries a previous value (old) of {size:,} characters; at most "
                       f"{bound:,} allowed")


@dataclass(frozen=True)
class ColumnRule:
    """What a field the case file does not hold (or holds loosely) may be, beyond its type:
    a real date (not after today, checked with the change's other dates), a year, a
    number within a range, or one of a closed list of words."""

    kind: str  # "date", "year", "number" or "choice"
    low: float = 0
    high: float = 0
    unit: str = ""
    choices: tuple[str, ...] = ()

    def problem(self, value: Any, words: str) -> str | None:
        if self.kind == "choice":
            return None if value in self.choices else (
                f"{words} is {str(value)[:80]!r}, which is not one of "
                f"{', '.join(self.choices)}")
        if self.kind == "date":
            real = isinstance(value, str) and _DATE_TEXT.match(value) is not None
            if real:
                try:
                    date.fromisoformat(value)
                except ValueError:
                    real = False
            return None if real else (f"{words} is {str(value)[:80]!r}, which is not a real "
                                      "calendar date; write dates as YYYY-MM-DD")
        if isinstance(value, bool) or not isinstance(value, int | float):
            return None  # the column's type check speaks of it
        if not self.low <= value <= self.high:
            return (f"{words} is {value:g}, which is not plausible; it must be between "
                    f"{self.low:g} and {self.high:g}{self.unit}")
        return None


_DATE_TEXT = re.compile(r"\A[0-9]{4}-[0-9]{2}-[0-9]{2}\Z")
_REAL_DATE = ColumnRule("date")
# The fields of a laptop's records the case file does not hold, with what they may be.
# Every date (a TEXT field named *_on) and year (*_year) of those records is listed here;
# dates are also not after today and years not after this year.
COLUMN_RULES: dict[tuple[str, str], ColumnRule] = {
    ("lake_measurements", "measured_on"): _REAL_DATE,
    ("lake_measurements", "distance_ft"): ColumnRule("number", 0, 50_000, " ft"),
    ("lake_measurements", "accuracy_ft"): ColumnRule("number", 0, 10_000, " ft"),
    ("lake_measurements", "capture_accuracy_ft"): ColumnRule("number", 0, 10_000, " ft"),
    ("lake_measurements", "shoreline_layer_version"): ColumnRule("number", 1, MAX_SEQ),
    ("lot_measurements", "measured_on"): _REAL_DATE,
    ("lot_measurements", "component"): ColumnRule(
        "choice", choices=tuple(k.value for k in ComponentKind)),
    ("lot_measurements", "distance_ft"): ColumnRule("number", 0, 50_000, " ft"),
    ("lot_measurements", "accuracy_ft"): ColumnRule("number", 0, 10_000, " ft"),
    ("lot_measurements", "ordinal"): ColumnRule("number", 1, 1000),
    ("lot_measurements", "lot_layer_version"): ColumnRule("number", 1, MAX_SEQ),
    ("finding_decisions", "decided_on"): _REAL_DATE,
    ("attachments", "size_bytes"): ColumnRule("number", 0, 200 * 1024**2, " bytes"),
    ("systems", "installed_year"): ColumnRule("number", 1900, 2100),
    **{(t, "position"): ColumnRule("number", 0, 100_000) for t in (
        "components", "etu_reports", "inspection_tests", "pump_outs", "renters",
        "site_features")},
}
# Years of something that happened: not after this year.
PAST_YEARS = frozenset({("systems", "installed_year")})


# Dates a case records that lie ahead by nature (a notice's deadlines); every other date of
# a case is something that happened, which the case-file reader refuses after today.
FUTURE_DATES = frozenset({("notices", "permit_by"), ("notices", "complete_by")})


def _not_after_today(table: str, column: str, value: Any, today: date) -> None:
    if (table, column) in PAST_YEARS and isinstance(value, int) and value > today.year:
        raise _Refusal(f"{resolution.label(table, column)} is {value}, which is after this "
                       f"year ({today.year}); a recorded event cannot be in the future")
    if not isinstance(value, str) or (table, column) in FUTURE_DATES:
        return
    node = resolution.field_schema(table, column)
    dated = COLUMN_RULES.get((table, column)) is _REAL_DATE
    if not dated and (node is None or node.get("pattern") != _DATE_PATTERN):
        return
    if value > today.isoformat():
        raise _Refusal(f"{resolution.label(table, column)} is {value}, which is after today "
                       f"({today.isoformat()}); a recorded event cannot be in the future")


def _value(conn: sqlite3.Connection, table: str, column: str, value: Any, kind: str,
           blobs: Mapping[str, bytes]) -> None:
    words = resolution.label(table, column)
    if isinstance(value, dict) and set(value) == {BYTES_REF}:
        digest = value[BYTES_REF]
        if kind != "BLOB" or not is_digest(digest) or digest not in blobs:
            raise _Refusal(f"{words} refers to a document that is not in the package")
        return
    if column == "sha256" and table == "attachments" and not is_digest(value):
        raise _Refusal(f"{words} is {str(value)[:80]!r}; a photo is named by its SHA-256, "
                       "64 lower-case hexadecimal digits")
    if isinstance(value, dict | list):
        raise _Refusal(f"{words} is a JSON {'object' if isinstance(value, dict) else 'list'}; "
                       "a change sets a field to text, a number or nothing (geometry as "
                       "GeoJSON text)")
    if not _finite(value):
        raise _Refusal(f"{words} is not a finite number (infinity or NaN)")
    if isinstance(value, str):
        bound = MAX_GEOMETRY_TEXT if column in LONG_TEXT else MAX_TEXT
        if len(value) > bound:
            raise _Refusal(f"{words} is {len(value):,} characters long; at most {bound:,} "
                           "allowed")
    problem = resolution.value_problem(conn, table, column, value, words)
    if problem is not None:
        raise _Refusal(problem)
    rule = COLUMN_RULES.get((table, column))
    if rule is not None and value is not None:
        problem = rule.problem(value, words)
        if problem is not None:
            raise _Refusal(problem)
