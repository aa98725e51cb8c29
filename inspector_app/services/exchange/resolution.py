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
from typing import Any

from ... import casefile
from ...casefile.values import case_value, value_problem
from ...domain import registry
from ...domain.case import Case
from ...domain.labels import section_for_table
from ...errors import InputError
from ...storage.cases import load_case, load_cases
from ...storage.records import RecordWriter, SqlValue, to_sql
from ...storage.sync_apply import BYTES_REF

_REFUSED = "nothing was changed and the conflict stays open"


def label(table: str, column: str) -> str:
    """The field in words, with its unit: "Bedrooms", "Living area (sq ft)"."""
    field = registry.column(table, column)
    return field.with_unit if field is not None else column.replace("_", " ").capitalize()


# --- the check -------------------------------------------------------------------------

def _refuse(problem: str) -> InputError:
    return InputError(f"{problem.rstrip('.')}; {_REFUSED}.")


def _field_value(conn: sqlite3.Connection, table: str, column: str, value: Any,
                 words: str) -> SqlValue:
    """The value as it is stored, if the field's own rules allow it."""
    if isinstance(value, dict) and set(value) == {BYTES_REF}:
        raise _refuse(f"{words} is a document's bytes, which a resolution cannot take over; "
                      "keep the value here")
    problem = value_problem(table, column, value, words)
    if problem is not None:
        raise _refuse(problem)
    field = registry.column(table, column)
    return to_sql(value if field is None else case_value(field, value))


def case_problem(conn: sqlite3.Connection, parcel_id: str, source: str,
                  today: date) -> str | None:
    """What the case-file reader says of the parcel's case as stored now, if anything."""
    return problem_of(_stored_case(conn, parcel_id, source), source, today)


def _stored_case(conn: sqlite3.Connection, parcel_id: str, source: str) -> Case | str:
    """The parcel's case as stored now, or the words of why its records do not read as one."""
    try:
        return load_case(conn, parcel_id)
    except (ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
        return f"{source}: the parcel's records would no longer read as a case ({exc})"


def stored_cases(conn: sqlite3.Connection, parcel_ids: Sequence[str],
                 source: str) -> dict[str, Case | str]:
    """The cases of many parcels as stored now, read with one query per table for each 500
    of them (a chunk that cannot be read so is read parcel by parcel); for a parcel whose
    records do not read as a case, the words of its problem. `problem_of` judges each."""
    found: dict[str, Case | str] = {}
    ids = list(parcel_ids)
    for start in range(0, len(ids), 500):
        chunk = ids[start:start + 500]
        try:
            cases = load_cases(conn, parcel_ids=chunk)
        except (ValueError, TypeError, KeyError, IndexError, AttributeError):
            cases = {}
        for parcel_id in chunk:
            case = cases.get(parcel_id)
            found[parcel_id] = _stored_case(conn, parcel_id, source) if case is None else case
    return found


def problem_of(case: Case | str | None, source: str, today: date) -> str | None:
    """What the case-file reader says of a case from `stored_cases`, if anything (a case
    already judged is its problem's words, or None)."""
    return _problem_of(case, source, today) if isinstance(case, Case) else case


def case_problems(conn: sqlite3.Connection, parcel_ids: Sequence[str], source: str,
                  today: date) -> dict[str, str | None]:
    """`case_problem` of many parcels, their cases read as `stored_cases` reads them, 500
    at a time."""
    ids = list(parcel_ids)
    return {parcel_id: problem_of(case, source, today)
            for start in range(0, len(ids), 500)
            for parcel_id, case in stored_cases(conn, ids[start:start + 500], source).items()}


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
    field = registry.column(table, column)
    key = field.key if field is not None else column
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
