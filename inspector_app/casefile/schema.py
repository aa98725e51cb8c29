"""The case file's JSON Schema, derived from the fields' declarations (domain/registry).

Structure is checked against it (published as `docs/case-1.schema.json`); what a schema
cannot say (real calendar dates, dates after "today", cross-field consistency, GeoJSON
shape) is the reader's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

import jsonschema

from ..domain import registry
from ..domain.field_spec import (
    DATE_PATTERN,
    NAME_LENGTH,
    NOT_BLANK,
    TEXT_LENGTH,
    Text,
)
from ..domain.registry import Field, Kind, Section
from ..json_input import schema_check

FORMAT = "watershed-inspector/case/1"
# a number with no declared bound is still bounded
_UNBOUNDED = 1e9


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    t = schema["type"]
    return {**schema, "type": [t, "null"]}


def _text(text: Text, *, min_length: int | None = None, max_length: int | None = None,
          pattern: str | None = None) -> dict[str, Any]:
    node: dict[str, Any] = {"type": "string"}
    if text is Text.NAME:
        node.update(minLength=1, maxLength=NAME_LENGTH, pattern=NOT_BLANK)
    elif text is Text.TEXT:
        node.update(maxLength=TEXT_LENGTH)
    if min_length is not None:
        node["minLength"] = min_length
    if max_length is not None:
        node["maxLength"] = max_length
    if pattern is not None:
        node["pattern"] = pattern
    return node


def _object(section: Section) -> dict[str, Any]:
    fields = [f for f in section.fields if f.in_case]
    return {"type": "object", "properties": {f.key: node_of(f) for f in fields},
            "required": [f.key for f in fields if f.required],
            "additionalProperties": False}


def node_of(field: Field, *, stored: bool = False) -> dict[str, Any]:
    """The schema of one field, as its declaration says; `stored`: of the values its
    column holds (a site feature's kind in the records includes the absorption area and
    the holding tank, which the case file gives apart from the other features)."""
    spec = field.spec
    node: dict[str, Any]
    vocabulary = field.stored_vocabulary if stored else field.vocabulary
    if field.kind is Kind.CHOICE and vocabulary is not None:
        if field.nullable:
            return {"enum": [*vocabulary, None]}
        return {"type": "string", "enum": list(vocabulary)}
    if field.kind is Kind.OBJECT:
        assert field.target is not None
        node = _object(_section_of(field))
    elif field.kind is Kind.OBJECTS:
        node = {"type": "array", "items": _object(_section_of(field, listed=True))}
        if spec.max_items is not None:
            node["maxItems"] = spec.max_items
        return {**node, **({"minItems": spec.min_items} if spec.min_items else {})}
    elif field.kind is Kind.LIST:
        node = {"type": "array",
                "items": {"type": "number"} if field.numbers
                else _text(spec.items, pattern=spec.item_pattern)}
        if spec.max_items is not None:
            node["maxItems"] = spec.max_items
        if spec.min_items is not None:
            node["minItems"] = spec.min_items
        return node
    elif field.kind is Kind.GEOMETRY:
        node = {"type": "object"}
    elif field.kind is Kind.PLAIN:
        node = {"type": ["string", "number", "boolean"]}
        return {"type": [*node["type"], "null"]} if field.nullable else node
    elif field.kind is Kind.BOOLEAN:
        node = {"type": "boolean"}
    elif field.kind is Kind.DATE:
        node = {"type": "string", "pattern": DATE_PATTERN}
    elif field.kind in (Kind.INTEGER, Kind.NUMBER):
        node = {"type": "integer" if field.kind is Kind.INTEGER else "number",
                "minimum": spec.minimum if spec.minimum is not None else 0,
                "maximum": spec.maximum if spec.maximum is not None else _UNBOUNDED}
    else:
        node = _text(spec.text, min_length=spec.min_length, max_length=spec.max_length,
                     pattern=DATE_PATTERN if spec.date_text else spec.pattern)
    # a part the records may lack but a case file must give (a parcel from the roll has
    # no dwelling yet) is required and not null in the file
    return _nullable(node) if field.nullable and not spec.required else node


def _section_of(field: Field, *, listed: bool = False) -> Section:
    path = f"{field.path}.{field.key}" if field.path else field.key
    return registry.BY_PATH[path + ("[]" if listed else "")]


@cache
def case_schema() -> dict[str, Any]:
    """The JSON Schema of the case file, extensions included."""
    top = _object(registry.CASE)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://watershed-inspector.invalid/schema/case-1.json",
        "title": "Watershed Inspector case file, version 1",
        "type": "object",
        "properties": {"format": {"const": FORMAT}, **top["properties"]},
        "required": ["format", *top["required"]],
        "additionalProperties": False,
    }


def quick(schema: Mapping[str, Any]) -> Callable[[Any], bool]:
    """Whether a value passes a part of the schema, by `fastjsonschema`'s compiled code:
    about twenty times faster than `jsonschema`, which is asked only when it does not pass,
    for its words. The schema uses only keywords both libraries read alike (type,
    properties, required, additionalProperties, items, enum, const, pattern, lengths and
    bounds); `tests/test_casefile.py` holds the two to the same answers."""
    check = schema_check(dict(schema), detailed=False)
    return lambda value: check(value) is None


VALIDATOR = jsonschema.Draft202012Validator(case_schema())
PASSES = quick(case_schema())
