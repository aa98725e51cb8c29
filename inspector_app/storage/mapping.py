"""A record's fields and its row's columns, both ways, as the registry declares them.

Each kind of record (`domain/registry`) knows its columns: a value is written as it is
(`records.to_sql` makes JSON text of lists, ISO text of dates) and read back by its kind:
0/1 as a boolean, ISO text as a date, a word as its vocabulary's member, JSON text as a
list or a geometry. The readers are worked out once per kind of record: loading 20,000
cases reads every row through them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from datetime import date
from functools import cache, lru_cache
from typing import Any

from ..domain import registry
from ..domain.field_spec import record_of
from ..domain.registry import Field, Kind, Section

Row = dict[str, Any]
Convert = Callable[[Any], Any]


def stored_date(value: Any) -> date | None:
    """A date as stored (ISO text), or None."""
    return None if value is None else date.fromisoformat(value)


def _bool(value: Any) -> bool | None:
    return None if value is None else bool(value)


@lru_cache(maxsize=4096)
def strings(text: str) -> tuple[Any, ...]:
    """A stored JSON list of plain values as a tuple; the same few texts (`[]` above all)
    recur on thousands of rows and are decoded once."""
    return tuple(json.loads(text))


def _geometry(value: Any) -> Any:
    return None if value is None else json.loads(value)


def _converter(field: Field) -> Convert | None:
    """How a column's stored value is read back (None: as stored)."""
    kind = field.kind
    if kind is Kind.BOOLEAN:
        return _bool
    if kind is Kind.DATE:
        return stored_date
    if kind is Kind.CHOICE and field.enum is not None:
        enum = field.enum
        return lambda v: None if v is None else enum(v)
    if kind is Kind.LIST:
        return lambda v: () if v is None else strings(v)
    if kind is Kind.GEOMETRY:
        return _geometry
    if kind is Kind.OBJECTS:  # parts kept as JSON in one column (the AHJ's findings)
        assert field.target is not None
        target = field.target
        return lambda v: tuple(target(**item) for item in json.loads(v or "[]"))
    return None


@cache
def readers(table: str) -> tuple[tuple[str, str, Convert | None], ...]:
    """(field, column, converter) of each column of a record's own row that its record
    object holds."""
    section = registry.BY_TABLE[table]
    return tuple((f.key, f.column, _converter(f)) for f in section.fields
                 if f.stored and not f.extra and f.kinds is None)


def from_row(table: str, row: Mapping[str, Any], **more: Any) -> Any:
    """The record object of a row (`more`: the fields held elsewhere, such as lists)."""
    section = registry.BY_TABLE[table]
    assert section.cls is not None
    values = {key: row[column] if convert is None else convert(row[column])
              for key, column, convert in readers(table)}
    return section.cls(**values, **more)


def to_row(table: str, obj: Any, **more: Any) -> dict[str, Any]:
    """The columns of a record object's own row (`more`: columns it does not hold, such as
    the record it belongs to)."""
    out: dict[str, Any] = {}
    for key, column, _ in readers(table):
        if column in _IDENTITY:
            continue  # the row's own id, never a value written
        value = getattr(obj, key)
        if isinstance(value, tuple) and value and hasattr(value[0], "__dataclass_fields__"):
            value = [{k: getattr(item, k) for k in item.__dataclass_fields__} for item in value]
        out[column] = value
    return {**out, **more}


_IDENTITY = frozenset({"id"})


def section_of(table: str) -> Section:
    return registry.BY_TABLE[table]


def child_table(section: Section, key: str) -> str | None:
    """The table of a list a record holds (a parcel's renters: `renters`)."""
    field = section.field(key)
    if field is None or field.target is None:
        return None
    inner = record_of(field.target)
    return None if inner is None else inner.table
