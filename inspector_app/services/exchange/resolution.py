"""What resolving a sync conflict may write: the values a case file may hold.

A value a person enters, or one taken from the other side's package (untrusted), is
checked the way the case-file reader checks it: first against the field's part of the
case JSON Schema (type, range, vocabulary, form), then the value is put in place and the
parcel's whole case is read back through the case-file reader (real calendar dates, dates
not after today, cross-field rules). A refusal names the field in words; the caller's
transaction rolls back, so nothing changes and the conflict stays open.

A problem the parcel's records had before the resolution is not laid at the value's
door: only a problem the value brings is refused. Fields the case file does not hold (a
photo's caption, the letter register) are checked against their column's declared type.
Typed text (the desktop app's "Enter a value...") is read as the field's type first:
"5" for bedrooms is the whole number 5.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Callable, Sequence
from datetime import date
from functools import cache
from typing import Any

from ... import casefile
from ...casefile import _describe
from ...domain.case import Case
from ...domain.labels import change_label, section_for_table
from ...domain.units import plain_number
from ...errors import InputError
from ...storage.cases import load_case, load_cases
from ...storage.records import RecordWriter, SqlValue, to_sql
from ...storage.sync_apply import BYTES_REF

# Where each table's columns sit in the case file ("[]": the items of a list).
_PLACES: dict[str, tuple[str, ...]] = {
    "parcels": ("parcel",), "renters": ("parcel", "renters", "[]"),
    "dwellings": ("dwelling",), "proposed_work": ("proposed_work",), "systems": ("system",),
    "components": ("components", "[]"), "etu_services": ("etu",),
    "etu_reports": ("etu", "inspections", "[]"),
    "holding_tank_services": ("holding_tank_service",),
    "pump_outs": ("holding_tank_service", "pump_outs", "[]"),
    "site_observations": ("observations",), "ahj_determinations": ("ahj",),
    "notices": ("notice",), "inspections": ("inspection",),
    "inspection_tests": ("inspection", "tests", "[]"),
    "site_features": ("site", "features", "[]"),
}
_KEYS = {("etu_reports", "inspection_date"): "date"}  # column -> case-file key
# The case file lists the absorption area and the holding tank apart from the other site
# features; a kind is checked with the whole case instead.
_CASE_ONLY = {("site_features", "kind")}
_REFUSED = "nothing was changed and the conflict stays open"
_YES = {"yes", "y", "true", "1"}
_NO = {"no", "n", "false", "0"}


@cache
def _schema() -> dict[str, Any]:
    return casefile.case_schema()


def field_schema(table: str, column: str) -> dict[str, Any] | None:
    """The case-file schema of one column, or None if the case file does not hold it."""
    place = _PLACES.get(table)
    if place is None or (table, column) in _CASE_ONLY:
        return None
    node: dict[str, Any] = _schema()
    for part in (*place, _KEYS.get((table, column), column)):
        node = node.get("items", {}) if part == "[]" else node.get("properties", {}).get(
            part, {})
        if not node:
            return None
    return node


def list_limit(table: str) -> int | None:
    """How many records of a table one case may hold (the case file's list bound), if the
    case file lists them."""
    place = _PLACES.get(table)
    if place is None or place[-1] != "[]":
        return None
    node: dict[str, Any] = _schema()
    for part in place[:-1]:
        node = node.get("properties", {}).get(part, {})
    limit = node.get("maxItems")
    return None if limit is None else int(limit)


def label(table: str, column: str) -> str:
    """The field in words, with its unit: "Bedrooms", "Living area (sq ft)"."""
    return change_label(table, column).with_unit


def _types(node: dict[str, Any]) -> set[str]:
    declared = node.get("type", [])
    types = {declared} if isinstance(declared, str) else set(declared)
    for option in node.get("enum", ()):
        types.add("null" if option is None else "string")
    return types


def _parsed_json(value: Any, kind: type) -> Any:
    if isinstance(value, str):
        try:
            parsed = json.loads(value)
        except ValueError:
            return value
        if isinstance(parsed, kind):
            return parsed
    return value


def _case_value(node: dict[str, Any], value: Any) -> Any:
    """A stored (or change-log) value as the case file writes it."""
    types = _types(node)
    if ("boolean" in types and isinstance(value, int) and not isinstance(value, bool)
            and value in (0, 1)):
        return bool(value)
    if "array" in types:
        return _parsed_json(value, list)
    if "object" in types:
        return _parsed_json(value, dict)
    if isinstance(value, float) and ("number" in types or "integer" in types):
        return plain_number(value)
    return value


def from_text(table: str, column: str, text: str) -> Any:
    """Typed text read as the field's type: "5" -> 5, "yes" -> true, "a; b" -> [a, b].

    Text that is not of the field's type stays text, for the check to refuse in words."""
    raw = text.strip()
    node = field_schema(table, column)
    types = _types(node) if node is not None else set()
    if node is None:
        return _column_text(raw)
    if not raw:
        return [] if "array" in types and "null" not in types else None
    if "boolean" in types:
        lowered = raw.lower()
        return True if lowered in _YES else False if lowered in _NO else raw
    if "integer" in types or "number" in types:
        try:
            number = float(raw.replace(",", ""))
        except ValueError:
            return raw
        return plain_number(number)
    if "array" in types:
        if raw.startswith("["):
            return _parsed_json(raw, list)
        return [part.strip() for part in re.split(r"[;\n]", raw) if part.strip()]
    if "object" in types:
        return _parsed_json(raw, dict)
    options = [o for o in node.get("enum", ()) if isinstance(o, str)]
    if options and raw not in options:
        spelled = re.sub(r"[\s-]+", "_", raw.lower())
        return spelled if spelled in options else raw
    return raw


def _column_text(raw: str) -> Any:
    if not raw:
        return None
    try:
        number = float(raw.replace(",", ""))
    except ValueError:
        return raw
    return plain_number(number)


def as_text(table: str, column: str, value: Any) -> str:
    """A stored (or change-log) value as a person would type it: the opposite of
    `from_text`."""
    node = field_schema(table, column)
    shown = _case_value(node, value) if node is not None else value
    if shown is None:
        return ""
    if isinstance(shown, bool):
        return "yes" if shown else "no"
    if isinstance(shown, list) and all(isinstance(v, str) for v in shown):
        return "; ".join(shown)
    if isinstance(shown, list | dict):
        return json.dumps(shown, ensure_ascii=False)
    if isinstance(shown, int | float):
        return str(plain_number(shown))
    return str(shown)


# --- the check -------------------------------------------------------------------------

def _refuse(problem: str) -> InputError:
    return InputError(f"{problem.rstrip('.')}; {_REFUSED}.")


def _field_value(conn: sqlite3.Connection, table: str, column: str, value: Any,
                 words: str) -> SqlValue:
    """The value as it is stored, if the field's own rules allow it."""
    if isinstance(value, dict) and set(value) == {BYTES_REF}:
        raise _refuse(f"{words} is a document's bytes, which a resolution cannot take over; "
                      "keep the value here")
    problem = value_problem(conn, table, column, value, words)
    if problem is not None:
        raise _refuse(problem)
    node = field_schema(table, column)
    return to_sql(value if node is None else _case_value(node, value))


def value_problem(conn: sqlite3.Connection, table: str, column: str, value: Any,
                  words: str) -> str | None:
    """What the case-file reader would say of one stored (or change-log) value of a
    column, naming the field `words`; None if it passes. A column the case file does not
    hold is checked against its declared type."""
    node = field_schema(table, column)
    if node is None:
        return _column_problem(conn, table, column, value, words)
    shown = _case_value(node, value)
    problem = casefile.field_problem(node, shown, words)
    allowed = _GEOMETRIES.get((table, column))
    if problem is None and allowed is not None and shown is not None:
        fault = casefile.geometry_fault(shown, allowed)
        if fault is not None:
            inner = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in fault[0])
            return f"{words}{inner} {fault[1]}"
    return problem


# The geometry a field may hold; a site feature's kind narrows it, with the whole case.
_GEOMETRIES = {("site_features", "geometry"): casefile.SITE_FEATURE_GEOMETRIES,
               ("components", "geometry"): casefile.COMPONENT_GEOMETRIES}


_COLUMN_TYPES = {"INTEGER": ((int,), "a whole number"), "REAL": ((int, float), "a number"),
                 "TEXT": ((str,), "text")}


def _column_problem(conn: sqlite3.Connection, table: str, column: str, value: Any,
                    words: str) -> str | None:
    declared = {r[1]: (str(r[2]).upper(), bool(r[3]))
                for r in conn.execute(f"PRAGMA table_info({table})")}
    if column not in declared:
        return f"{words} is not a field of the records"
    kind, required = declared[column]
    if value is None:
        return f"{words} cannot be blank" if required else None
    if isinstance(value, list | dict) and kind == "TEXT":
        return None
    accepted, wanted = _COLUMN_TYPES.get(kind, ((), "a value this app can check"))
    if isinstance(value, bool) or not isinstance(value, accepted):
        return f"{words} must be {wanted}, not {_describe(value)}"
    return None


def case_problem(conn: sqlite3.Connection, parcel_id: str, source: str,
                  today: date) -> str | None:
    """What the case-file reader says of the parcel's case as stored now, if anything."""
    try:
        case = load_case(conn, parcel_id)
    except (ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
        return f"{source}: the parcel's records would no longer read as a case ({exc})"
    return _problem_of(case, source, today)


def case_problems(conn: sqlite3.Connection, parcel_ids: Sequence[str], source: str,
                  today: date) -> dict[str, str | None]:
    """`case_problem` of many parcels, their cases read with one query per table for each
    500 of them (a chunk that cannot be read so is read parcel by parcel, for the words of
    each parcel's own problem)."""
    found: dict[str, str | None] = {}
    ids = list(parcel_ids)
    for start in range(0, len(ids), 500):
        chunk = ids[start:start + 500]
        try:
            cases = load_cases(conn, parcel_ids=chunk)
        except (ValueError, TypeError, KeyError, IndexError, AttributeError):
            cases = {}
        for parcel_id in chunk:
            case = cases.get(parcel_id)
            found[parcel_id] = (case_problem(conn, parcel_id, source, today) if case is None
                                else _problem_of(case, source, today))
    return found


def _problem_of(case: Case, source: str, today: date) -> str | None:
    try:
        doc = json.loads(json.dumps(casefile.to_document(case)))
    except (ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
        return f"{source}: the parcel's records would no longer read as a case ({exc})"
    try:
        casefile.parse_document(doc, source=source, today=today)
    except casefile.CaseFileError as exc:
        return str(exc)
    return None


def _parcel_of(w: RecordWriter, table: str, record_id: str) -> str | None:
    if table == "parcels":
        return record_id
    row = w.current(table, record_id)
    parcel = row.get("parcel_id")
    return None if parcel is None else str(parcel)


def _checked_change(w: RecordWriter, table: str, record_id: str, words: str, today: date,
                    change: Callable[[], None]) -> None:
    """Make the change, then refuse it if the parcel's case reads worse than before."""
    parcel_id = _parcel_of(w, table, record_id)
    before = None if parcel_id is None else case_problem(w.conn, parcel_id, words, today)
    try:
        change()
    except sqlite3.IntegrityError as exc:
        raise _refuse(f"{words}: the records do not allow this value ({exc})") from None
    if parcel_id is None:
        return
    after = case_problem(w.conn, parcel_id, words, today)
    if after is not None and after != before:
        raise _refuse(after)


def put(w: RecordWriter, *, table: str, record_id: str, column: str, value: Any,
        today: date, write: Callable[[SqlValue], None]) -> SqlValue:
    """Check a resolution's value and write it with `write`; returns the stored value.

    Raises InputError, naming the field in words, for a value a case file could not hold;
    the caller's transaction then rolls back."""
    words = label(table, column)
    stored = _field_value(w.conn, table, column, value, words)
    key = _KEYS.get((table, column), column)
    try:
        _checked_change(w, table, record_id, words, today, lambda: write(stored))
    except InputError as exc:
        # "Inspection date: inspection.date is ..." -> "Inspection date is ..."
        own = re.match(rf"{re.escape(words)}: \S*\b{re.escape(key)} is ", str(exc))
        if own is None:
            raise
        raise InputError(f"{words} is {str(exc)[own.end():]}") from None
    return stored


def delete(w: RecordWriter, *, table: str, record_id: str, today: date) -> None:
    """Take the other side's deletion of a record, if the parcel's case can do without it."""
    name = section_for_table(table).name
    words = f"Removing the {name if name[:2].isupper() else name[:1].lower() + name[1:]}"
    _checked_change(w, table, record_id, words, today, lambda: w.delete(table, record_id))


def column_of(field: str) -> str:
    """The column of a conflict's field as `sync.conflicts` names it ("dwelling.bedrooms")."""
    return field.split(".", 1)[1] if "." in field else field
