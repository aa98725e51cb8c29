"""Writing a case as its canonical case file: the declared order, no null keys."""

from __future__ import annotations

import json
from datetime import date
from enum import Enum
from functools import cache
from typing import Any

from ..domain import registry
from ..domain.case import Case, Component
from ..domain.registry import Field, Kind, Section
from ..domain.units import plain_number
from .schema import FORMAT


def json_value(value: Any) -> Any:
    """A value as the case file writes it: dates ISO, words of a vocabulary, numbers
    without a needless decimal point."""
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int | float):
        return plain_number(value)
    return value


def _inner(field: Field, *, listed: bool = False) -> Section:
    path = f"{field.path}.{field.key}" if field.path else field.key
    return registry.BY_PATH[path + ("[]" if listed else "")]


@cache
def _written(section: Section) -> tuple[tuple[Field, Section | None], ...]:
    """The fields of a part that its case file holds, in order, each with the part it
    holds (an object or a list of them)."""
    return tuple((f, _inner(f, listed=f.kind is Kind.OBJECTS)
                  if f.kind in (Kind.OBJECT, Kind.OBJECTS) else None)
                 for f in section.fields if f.in_case)


def _field(field: Field, inner: Section | None, value: Any) -> Any:
    if field.kind is Kind.OBJECT:
        assert inner is not None
        return None if value is None else _part(inner, value)
    if field.kind is Kind.OBJECTS:
        assert inner is not None
        items = [_part(inner, item) for item in value]
        return None if field.spec.omit_empty and not items else items
    if field.kind is Kind.LIST:
        return None if field.spec.omit_empty and not value else list(value)
    return json_value(value)


def _part(section: Section, obj: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    details = obj.details if isinstance(obj, Component) else {}
    for f, inner in _written(section):
        value = details.get(f.key) if f.kinds is not None else getattr(obj, f.key)
        written = _field(f, inner, value)
        if written is not None:
            out[f.key] = written
    return out


def to_document(case: Case) -> dict[str, Any]:
    """The canonical case file of a case: the declared key order, no null keys."""
    return {"format": FORMAT, **_part(registry.CASE, case)}


def dumps(case: Case) -> str:
    return json.dumps(to_document(case), indent=2, ensure_ascii=False) + "\n"
