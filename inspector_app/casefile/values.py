"""One field's value checked as its declaration says, wherever the value comes from: a case
file, the form, a sync package, a field kit, a conflict's resolution, the parcel roll.

A stored value (as the database and the change log hold it: booleans as 0/1, lists as JSON
text) is first read back as the case file writes it, then checked against the field's
part of the schema, with the reader's words; a refusal names the field as the caller
names it (its label for people, its path in a file).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping
from datetime import date, datetime
from enum import Enum
from typing import Any

import jsonschema
from jsonschema.exceptions import best_match

from ..domain import registry
from ..domain.field_spec import DATE_OR_TIME_PATTERN, DATE_PATTERN, LOCAL_TIME_PATTERN
from ..domain.registry import Field, Kind
from ..domain.units import plain_number
from ..nesting import JSON_STRINGS, check_depth
from .geometry import geometry_fault
from .messages import describe, field_path, schema_message
from .schema import node_of, quick

_YES = {"yes", "y", "true", "1"}
_NO = {"no", "n", "false", "0"}

# Each field's checks, made once per part of the schema (making them costs far more than
# checking a value); the part is kept with them, so that its id is never reused.
_FIELD_CHECKS: dict[int, tuple[Mapping[str, Any], Callable[[Any], bool], Any]] = {}


def _field_checks(schema: Mapping[str, Any]) -> tuple[Callable[[Any], bool], Any]:
    found = _FIELD_CHECKS.get(id(schema))
    if found is None or found[0] is not schema:
        found = _FIELD_CHECKS[id(schema)] = (schema, quick(schema),
                                             jsonschema.Draft202012Validator(schema))
    return found[1], found[2]


def field_problem(schema: Mapping[str, Any], value: Any, name: str) -> str | None:
    """The reader's words for one value checked against its field's part of the schema
    (type, range, vocabulary, form, a real calendar date), naming the field `name`; None
    if it passes. The rules of a whole case (dates after today, cross-field) are
    `parse_document`'s."""
    passes, validator = _field_checks(schema)
    errors = [] if passes(value) else list(validator.iter_errors(value))
    if errors:
        first = best_match(errors)
        assert first is not None
        return name + schema_message(first).removeprefix(field_path([]))
    if schema.get("pattern") == DATE_PATTERN and isinstance(value, str):
        try:
            date.fromisoformat(value)
        except ValueError:
            return f"{name} is {json.dumps(value)}, which is not a real calendar date"
    if schema.get("pattern") in _MOMENTS and isinstance(value, str) and not real_moment(value):
        return f"{name} is {json.dumps(value)}, which is not a real date and time of day"
    return None


# The patterns of a moment (a date and a time of day, or either a date or that), whose
# text must also name a real one.
_MOMENTS = frozenset({LOCAL_TIME_PATTERN, DATE_OR_TIME_PATTERN})


def real_moment(text: str) -> bool:
    """Whether a date or a date and time of day ("2026-11-18T09:30") names a real one."""
    try:
        datetime.fromisoformat(text)
    except ValueError:
        return False
    return True


_NODES: dict[tuple[str, str], dict[str, Any]] = {}


def field_schema(table: str, column: str) -> dict[str, Any] | None:
    """The schema of a stored column's values, from its declaration; None if nothing
    declares it."""
    key = (table, column)
    if key not in _NODES:
        field = registry.column(table, column)
        if field is None:
            return None
        _NODES[key] = node_of(field, stored=True)
    return _NODES[key]


def list_limit(table: str) -> int | None:
    """How many records of a table one case may hold (the case file's list bound), if the
    case file lists them."""
    section = registry.section(table)
    if section is None or not section.listed or not section.in_case:
        return None
    parent, _, key = section.path.removesuffix("[]").rpartition(".")
    owner = registry.BY_PATH.get(parent)
    field = owner.field(key) if owner is not None else None
    return None if field is None else field.spec.max_items


def case_value(field: Field, value: Any) -> Any:
    """A stored (or change-log) value as the case file writes it."""
    if field.kind is Kind.BOOLEAN and isinstance(value, int) and not isinstance(value, bool) \
            and value in (0, 1):
        return bool(value)
    if field.kind in (Kind.LIST, Kind.OBJECTS) and isinstance(value, str):
        return _parsed_json(value, list)
    if field.kind is Kind.GEOMETRY and isinstance(value, str):
        return _parsed_json(value, dict)
    if isinstance(value, float) and field.kind in (Kind.INTEGER, Kind.NUMBER):
        return plain_number(value)
    return value


def _parsed_json(value: str, kind: type) -> Any:
    try:
        check_depth(value, JSON_STRINGS)
        parsed = json.loads(value)
    except ValueError:
        return value
    return parsed if isinstance(parsed, kind) else value


def value_problem(table: str, column: str, value: Any, words: str) -> str | None:
    """What the case-file reader would say of one stored (or change-log) value of a column,
    naming the field `words`; None if it passes."""
    field = registry.column(table, column)
    if field is None:
        return f"{words} is not a field of the records"
    if field.kind is Kind.BYTES:
        return None if value is None or isinstance(value, bytes) else (
            f"{words} must be a document's bytes, not {describe(value)}")
    node = field_schema(table, column)
    assert node is not None
    shown = case_value(field, value)
    problem = field_problem(node, shown, words)
    if problem is None and field.kind is Kind.GEOMETRY and shown is not None \
            and field.spec.geometries:
        fault = geometry_fault(shown, field.spec.geometries)
        if fault is not None:
            inner = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in fault[0])
            return f"{words}{inner} {fault[1]}"
    if problem is None and field.kind is Kind.OBJECTS and isinstance(shown, list):
        return _parts_geometry_problem(field, shown, words)
    return problem


def _parts_geometry_problem(field: Field, items: list[Any], words: str) -> str | None:
    """A geometry held inside a list of parts kept in one column (a field test's
    observations: the place of each), checked for its shape as a column's own is."""
    path = f"{field.path}.{field.key}" if field.path else field.key
    section = registry.BY_PATH.get(path + "[]")
    shapes = [f for f in section.fields if f.kind is Kind.GEOMETRY and f.spec.geometries] \
        if section is not None else []
    for n, item in enumerate(items):
        for f in shapes:
            value = item.get(f.key) if isinstance(item, dict) else None
            fault = None if value is None else geometry_fault(value, f.spec.geometries)
            if fault is not None:
                inner = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in fault[0])
                return f"{words}[{n}].{f.key}{inner} {fault[1]}"
    return None


def after_today_problem(table: str, column: str, value: Any, today: date,
                        words: str) -> str | None:
    """A date or year of something that happened that lies after today; None if it does
    not (a deadline may lie ahead)."""
    field = registry.column(table, column)
    if field is None or field.spec.future:
        return None
    if field.spec.past_year and isinstance(value, int) and value > today.year:
        return (f"{words} is {value}, which is after this year ({today.year}); a recorded "
                "event cannot be in the future")
    dated = field.kind is Kind.DATE or field.spec.date_text
    if field.spec.pattern in _MOMENTS and isinstance(value, str):
        value = value[:10]  # the day of a moment
        dated = True
    if dated and isinstance(value, str) and value > today.isoformat():
        return (f"{words} is {value}, which is after today ({today.isoformat()}); a recorded "
                "event cannot be in the future")
    return None


def from_text(table: str, column: str, text: str) -> Any:
    """Typed text read as the field's type: "5" -> 5, "yes" -> true, "a; b" -> [a, b].

    Text that is not of the field's type stays text, for the check to refuse in words."""
    field = registry.column(table, column)
    if field is None:
        return _number_or_text(text.strip())
    return _typed_value(field, text)


_FIELD_NODES: dict[Field, dict[str, Any]] = {}


def typed(field: Field, text: str, words: str) -> Any:
    """What a person typed into a field's editor, read as the field's type and checked as
    its declaration says ("1,200" -> 1200). Raises ValueError with the field's own
    sentence, naming it `words`, for what does not fit: nothing is cut to fit."""
    value = _typed_value(field, text)
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"{words} must be a number, not {text.strip()!r}")
    node = _FIELD_NODES.get(field)
    if node is None:
        node = _FIELD_NODES[field] = node_of(field)
    problem = field_problem(node, value, words)
    if problem is not None:
        raise ValueError(problem)
    return value


def _typed_value(field: Field, text: str) -> Any:
    raw = text.strip()
    if not raw:
        return [] if field.kind is Kind.LIST and not field.nullable else None
    if field.kind is Kind.BOOLEAN:
        lowered = raw.lower()
        return True if lowered in _YES else False if lowered in _NO else raw
    if field.kind in (Kind.INTEGER, Kind.NUMBER):
        try:
            number = float(raw.replace(",", ""))
        except ValueError:
            return raw
        return plain_number(number)
    if field.kind is Kind.LIST:
        if raw.startswith("["):
            return _parsed_json(raw, list)
        return [part.strip() for part in re.split(r"[;\n]", raw) if part.strip()]
    if field.kind in (Kind.GEOMETRY, Kind.OBJECTS):
        return _parsed_json(raw, dict if field.kind is Kind.GEOMETRY else list)
    options = field.vocabulary or ()
    if options and raw not in options:
        spelled = re.sub(r"[\s-]+", "_", raw.lower())
        return spelled if spelled in options else raw
    return raw


def _number_or_text(raw: str) -> Any:
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
    field = registry.column(table, column)
    shown = case_value(field, value) if field is not None else value
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


def stored_problem(table: str, column: str, value: Any) -> str | None:
    """What the declared rules say of a value about to be written to a column, naming the
    field in words; None if it passes (or nothing declares the column). Every record write
    asks this: a value that passes is told so by a check compiled once per column, and only
    one that fails goes through the schema validator, for its words."""
    passes = _PASSES_STORED.get((table, column))
    if passes is None:
        passes = _PASSES_STORED[(table, column)] = _compiled(table, column)
    value = _plain(value)
    if passes(value):
        return None
    field = registry.column(table, column)
    assert field is not None
    return value_problem(table, column, value, field.with_unit)


def _plain(value: Any) -> Any:
    """A value as a record holds it (a word of a vocabulary, a date as ISO text, a list)
    or as the case file writes it: what the checks read."""
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


_PASSES_STORED: dict[tuple[str, str], Callable[[Any], bool]] = {}
_PY_TYPES: dict[str, tuple[type, ...]] = {"string": (str,), "integer": (int,),
                                          "number": (int, float), "boolean": (bool,)}


def _compiled(table: str, column: str) -> Callable[[Any], bool]:
    """Whether a stored value of a column passes its declaration: `_plain_check` where the
    field has one; a geometry by its shape; any other field by `value_problem` itself."""
    field = registry.column(table, column)
    if field is None or field.spec.identity:
        return lambda value: True
    if field.kind is Kind.GEOMETRY and field.spec.geometries:
        allowed = field.spec.geometries
        return lambda value: value is None or (
            geometry_fault(value if isinstance(value, dict) else case_value(field, value),
                           allowed) is None)
    plain = _plain_check(table, column)
    if plain is not None:
        return plain
    return lambda value: value_problem(table, column, value, "") is None


def declared_problem(table: str, column: str, value: Any, words: str) -> str | None:
    """`value_problem` of a stored (or change-log) value, asked first of the column's
    compiled check (`_plain_check`), so that the schema validator reads only a value that
    check does not pass: what it says of that value is the answer."""
    passes = _plain_check(table, column)
    if passes is not None and passes(value):
        return None
    return value_problem(table, column, value, words)


_PLAIN_CHECKS: dict[tuple[str, str], Callable[[Any], bool] | None] = {}


def _plain_check(table: str, column: str) -> Callable[[Any], bool] | None:
    """For a field of one plain value (text, a number, yes or no, a date, a word of a
    vocabulary) or a list of them, a small function of its schema (type, bounds, lengths,
    pattern, vocabulary, items) made once, that passes a stored value only if
    `value_problem` passes it; None for any other field (geometry, a list of records,
    bytes) and a column nothing declares."""
    key = (table, column)
    if key not in _PLAIN_CHECKS:
        field = registry.column(table, column)
        node = field_schema(table, column)
        _PLAIN_CHECKS[key] = None if (
            field is None or node is None or field.spec.identity
            or field.kind in (Kind.GEOMETRY, Kind.OBJECTS, Kind.BYTES)) else (
            _list_check(node) if field.kind is Kind.LIST
            else _node_check(node, boolean=field.kind is Kind.BOOLEAN))
    return _PLAIN_CHECKS[key]


def _list_check(node: Mapping[str, Any]) -> Callable[[Any], bool] | None:
    """A list of plain values, as the records hold it (JSON text) or as written (a list)."""
    if node.get("type") != "array" or not isinstance(node.get("items"), dict):
        return None
    item = _node_check(node["items"], boolean=False)
    if item is None:
        return None
    fewest, most = node.get("minItems"), node.get("maxItems")

    def passes(value: Any) -> bool:
        if isinstance(value, str):
            value = _parsed_json(value, list)
        if type(value) is not list:
            return False
        if (fewest is not None and len(value) < fewest) or (
                most is not None and len(value) > most):
            return False
        return all(item(v) for v in value)

    return passes


_KNOWN = frozenset({"type", "enum", "minimum", "maximum", "minLength", "maxLength", "pattern"})


def _node_check(node: Mapping[str, Any], *, boolean: bool) -> Callable[[Any], bool] | None:
    """One plain value against a part of the schema that says no more than its type,
    bounds, lengths, pattern and vocabulary; None for any other part."""
    declared = node.get("type")
    types = [declared] if isinstance(declared, str) else list(declared or ())
    if not set(node) <= _KNOWN or not set(types) <= {*_PY_TYPES, "null"} or (
            not types and "enum" not in node):
        return None
    nullable = "null" in types or None in node.get("enum", ())
    accepted = tuple(t for name in types for t in _PY_TYPES.get(name, ()))
    enum = frozenset(v for v in node.get("enum", ()) if v is not None) or None
    lo, hi = node.get("minimum"), node.get("maximum")
    shortest, longest = node.get("minLength"), node.get("maxLength")
    pattern = re.compile(node["pattern"]) if "pattern" in node else None
    dated = node.get("pattern") == DATE_PATTERN
    moment = node.get("pattern") in _MOMENTS

    def passes(value: Any) -> bool:
        if value is None:
            return nullable
        if boolean:
            return value in (0, 1) and not isinstance(value, float)
        if enum is not None:
            return type(value) is str and value in enum
        if isinstance(value, bool) or (accepted and not isinstance(value, accepted)):
            return False
        if isinstance(value, str):
            if shortest is not None and len(value) < shortest:
                return False
            if longest is not None and len(value) > longest:
                return False
            if pattern is not None and pattern.search(value) is None:
                return False
            if dated:
                try:
                    date.fromisoformat(value)
                except ValueError:
                    return False
            return not moment or real_moment(value)
        if not isinstance(value, int | float) or (
                isinstance(value, float) and (value != value or value in (_INF, -_INF))):
            return False
        if lo is not None and value < lo:
            return False
        return hi is None or value <= hi

    return passes


_INF = float("inf")
