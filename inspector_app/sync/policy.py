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
fields the case file does not hold pass their declarations (`domain/records.py`), and its
package carries at most
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
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime, timedelta
from functools import lru_cache
from typing import Any

from ..casefile.values import after_today_problem, declared_problem, list_limit
from ..domain import authority, registry
from ..domain.authority import FIXED_FIELDS, LAPTOP_PARCEL_FIELDS, LAPTOP_TABLES
from ..domain.records import MAX_GEOMETRY_TEXT
from ..domain.registry import SYNCED_TABLES
from ..storage import received
from ..storage.records import BOOKKEEPING
from ..storage.sync_apply import BYTES_REF
from .package import Package, PackageError

__all__ = ["FIXED_FIELDS", "LAPTOP_PARCEL_FIELDS", "LAPTOP_TABLES"]

MAX_SEQ = 2**31 - 1
# How many of its numbers a laptop's package may skip beyond what the office has of it
# and the changes it carries (changes lost with an earlier package are reported as gaps).
MAX_SKIPPED = 10_000
MAX_TEXT = 5000  # characters, for a text field the case file does not bound itself
LONG_TEXT = frozenset(f.column for sec in registry.SECTIONS for f in sec.fields if f.spec.long)
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
    # parcels the laptop found in the field and proposed, not yet accepted: their records
    # travel with the proposal and are held for a person
    proposed: frozenset[str] = frozenset()


class _Refusal(Exception):
    pass


def is_digest(value: Any) -> bool:
    """Whether a value is a SHA-256 as this app names a file: 64 lower-case hex digits."""
    return isinstance(value, str) and DIGEST.match(value) is not None


def check_package(conn: sqlite3.Connection, package: Package, *, sender: Sender,
                  receiver_id: str, source: str, now: datetime | None = None,
                  attachment_exists: Callable[[str], bool] = lambda digest: False
                  ) -> Verdict:
    """Refuse the whole package (PackageError) if anything in it breaks the policy; else
    say which of its changes are held for a person rather than applied.

    A laptop's package is refused whole for any change it may not make or any value the
    records may not hold: the laptop applies the same policy to every edit as it is made
    (`storage/laptop_gate`), so only a forged or tampered package carries one. A parcel it
    found in the field is a proposal: that change and the changes made on the parcel are
    held for a person at the office. An office package is the office's word: a change whose
    value this laptop's rules refuse is held aside, with the reason, and the rest applied.

    `attachment_exists(digest)` says whether this data folder already holds a file; it
    is asked only with a digest that passed the check."""
    now = now or datetime.now(UTC)
    try:
        return _check(conn, package, sender=sender, receiver_id=receiver_id, now=now,
                      attachment_exists=attachment_exists)
    except _Refusal as why:
        raise PackageError(f"{source}: {why}; the package was refused and nothing was "
                           "changed.") from None


@dataclass(frozen=True)
class Verdict:
    """What a package's check decided beyond refusing it."""

    proposed: frozenset[str] = frozenset()  # parcels whose changes are held as proposals
    refused: Mapping[str, str] = field(default_factory=dict)  # change id -> why, held aside


def _check(conn: sqlite3.Connection, package: Package, *, sender: Sender, receiver_id: str,
           now: datetime, attachment_exists: Callable[[str], bool]) -> Verdict:
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
        sender = replace(sender, proposed=sender.proposed | _new_parcels(conn, package,
                                                                           sender))
    _acknowledgements(conn, manifest, sender, receiver_id)
    columns: dict[str, dict[str, tuple[str, bool]]] = {}
    # a laptop's records of its parcels' changes: a change's time is no earlier than the
    # laptop's enrolment; the office is the authority on the records it relays
    earliest = (None if not from_laptop
                else now - CLOCK_BEHIND if sender.enrolled_at is None
                else sender.enrolled_at - CLOCK_ALLOWANCE)
    refused: dict[str, str] = {}
    for c in package.changes:
        try:
            _timestamp(c["at"], "its time (at)", now, earliest=earliest,
                       since="this laptop was enrolled")
            if from_laptop:
                _authorised(conn, c, sender)
            # a number no record can hold is a damaged package, whoever signed it
            if not _finite(c["new"]):
                raise _Refusal(f"{_label(c['table'], c['field'] or '')} is not a finite "
                               "number (infinity or NaN)" if c["op"] == "update" else
                               "carries a number that is not a finite number (infinity or "
                               "NaN)")
        except _Refusal as why:
            raise _Refusal(f"{_where(c)} {why}") from None
        try:
            _values(conn, c, columns, package.attachments, attachment_exists, now.date())
        except _Refusal as why:
            if from_laptop or c["table"] not in SYNCED_TABLES:
                raise _Refusal(f"{_where(c)} {why}") from None
            refused[c["change_id"]] = str(why)
    if from_laptop:
        _references(conn, package.changes)
        _feature_counts(conn, package.changes)
    return Verdict(proposed=sender.proposed if from_laptop else frozenset(), refused=refused)


def _new_parcels(conn: sqlite3.Connection, package: Package, sender: Sender) -> frozenset[str]:
    """The parcels a laptop's package adds: each a proposal, unless the roll already holds
    a parcel of that id that is not the laptop's own proposal."""
    found = set()
    for c in package.changes:
        if c["table"] != "parcels" or c["op"] != "insert":
            continue
        pid = c["record_id"]
        own = received.proposal_status(conn, pid, sender.device_id)
        if own is not None:
            if own != "accepted":
                found.add(pid)  # sent again before the office's word reached the laptop
            continue
        if received.has_parcel(conn, pid):
            raise _Refusal(f"{_where(c)} adds the parcel {pid}, which the roll already holds")
        found.add(pid)
    return frozenset(found)


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
        cache[table] = {column: target for column, target in
                        received.references(conn, table).items()
                        if target in LAPTOP_TABLES and column != "parcel_id"}
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
            words = _label(c["table"], column)
            if not isinstance(value, str):
                raise _Refusal(f"{_where(c)} {words} is {str(value)[:80]!r}, which is not the "
                               f"id of a record of {target}")
            owner = (received.parcel_of_record(conn, target, value, held=True)
                     or inserted.get((target, value)))
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
    limit = list_limit("site_features")
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
        held = received.listed_features(conn, parcel, _LISTED_APART)
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

def _sequence(conn: sqlite3.Connection, package: Package, sender: Sender) -> None:
    """A laptop's changes are its own, numbered on from what the office has of it."""
    for c in package.changes:
        if c["device_id"] != sender.device_id:
            raise _Refusal(f"{_where(c)} claims to come from the device {c['device_id']}, "
                           f"but the package is signed by {sender.device_id}; a laptop "
                           "sends only its own changes")
        if c["device_seq"] is None:
            raise _Refusal(f"{_where(c)} has no sequence number (device_seq)")
    last = received.last_device_seq(conn, sender.device_id)
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
    known = received.known_device_seqs(conn, sender.device_id, sorted(s for s in seen if s <= last))
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
            sent = received.last_seq_recorded(conn)
            what = "the office has recorded"
        elif ack["device_id"] == receiver_id:
            sent = received.last_seq_made(conn, receiver_id)
            what = "this laptop has made"
        else:
            continue  # another laptop's: this laptop keeps no count of it
        if ack["through_seq"] > sent:
            raise _Refusal(f"it acknowledges changes through {ack['through_seq']}, but "
                           f"{what} only {sent}")


def _authorised(conn: sqlite3.Connection, c: Mapping[str, Any], sender: Sender) -> None:
    """What a laptop may change: the case records of its own parcels (`domain.authority`);
    a parcel it found in the field is a proposal, held for a person."""
    table, op = c["table"], c["op"]
    parcel = c["parcel_id"]
    ruling = authority.laptop_change(
        table=table, op=op, field=c["field"], parcel_id=parcel, record_id=c["record_id"],
        holds=parcel is not None and (parcel in sender.parcels or parcel in sender.proposed),
        proposed=parcel in sender.proposed)
    if ruling.verdict is authority.Verdict.REFUSED:
        raise _Refusal(ruling.why)
    if op != "insert" and table != "parcels":
        owner = received.parcel_of_record(conn, table, c["record_id"], held=True)
        if owner is not None and owner != parcel:
            raise _Refusal(f"says the record belongs to the parcel {parcel}, but it belongs "
                           f"to {owner}, which is not this change's to make")


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
        columns[table] = received.columns(conn, table)
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


def _not_after_today(table: str, column: str, value: Any, today: date) -> None:
    problem = after_today_problem(table, column, value, today, _label(table, column))
    if problem is not None:
        raise _Refusal(problem)


@lru_cache(maxsize=4096)
def _label(table: str, column: str) -> str:
    """The field in words, with its unit: "Bedrooms", "Living area (sq ft)"."""
    field = registry.column(table, column)
    return field.with_unit if field is not None else str(column)[:60]


def _value(conn: sqlite3.Connection, table: str, column: str, value: Any, kind: str,
           blobs: Mapping[str, bytes]) -> None:
    words = _label(table, column)
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
    problem = declared_problem(table, column, value, words)
    if problem is not None:
        raise _Refusal(problem)
