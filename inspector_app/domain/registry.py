"""Every stored field, read once from its declaration.

The case model (`case.py`) and the records kept beside it (`records.py`) declare each field
on its own line (`field_spec.declare`). This module reads those lines into `SECTIONS`: for
each part of a case (and each other kind of record) its path in the case file, its table,
its name in words and its fields, each with its column, its kind of value, its bounds and
who may write it. The case file's schema and reader, the storage mapping, the sync checks,
the history's words, the form's editors and the clearing of contact data all read it here.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import date
from enum import Enum, StrEnum
from functools import cache
from typing import Any

from . import case as model
from . import records
from .field_spec import Editor, Spec, Writer, record_of, spec_of
from .fields import COMPONENT_DETAILS, DetailField, FieldType


class Kind(StrEnum):
    """What kind of value a field holds."""

    TEXT = "text"
    INTEGER = "integer"
    NUMBER = "number"
    BOOLEAN = "boolean"
    DATE = "date"
    TIMESTAMP = "timestamp"    # a moment, stored in UTC (records only)
    CHOICE = "choice"          # one of a closed vocabulary
    LIST = "list"              # a list of text
    GEOMETRY = "geometry"      # GeoJSON, stored as text
    OBJECT = "object"          # a part of the record (a capture, the site)
    OBJECTS = "objects"        # a list of records (renters, pump-outs, ...)
    REFERENCE = "reference"    # the id of another record
    BYTES = "bytes"            # a document's bytes
    PLAIN = "plain"            # any plain value: text, a number, yes or no (a setting)


@dataclass(frozen=True)
class Field:
    """One declared field: its key in the case file (or record), its column, its spec."""

    table: str | None          # the table of the record that holds it
    path: str                  # its section's path
    key: str
    column: str
    spec: Spec
    kind: Kind
    nullable: bool
    required: bool             # in the case file
    vocabulary: tuple[str, ...] | None = None
    enum: type[Enum] | None = None
    target: type | None = None  # the record an OBJECT or OBJECTS field holds
    kinds: frozenset[str] | None = None  # component details: the kinds it applies to
    extra: bool = False        # a column of a case's table that the case file does not hold
    numbers: bool = False      # a list of numbers (a map's extent), not of text

    @property
    def label(self) -> str:
        return self.spec.label

    @property
    def stored_vocabulary(self) -> tuple[str, ...] | None:
        """The words the column may hold (a case file's list may be narrower)."""
        if self.enum is not None:
            return tuple(str(v.value) for v in self.enum)
        return self.vocabulary

    @property
    def with_unit(self) -> str:
        return f"{self.spec.label} ({self.spec.unit})" if self.spec.unit else self.spec.label

    @property
    def stored(self) -> bool:
        """Whether the field is a column of its record's own row (a list of parts with no
        table of their own, such as the AHJ's findings, is kept as JSON in one column)."""
        if self.table is None or self.kind is Kind.OBJECT:
            return False
        if self.kind is Kind.OBJECTS:
            inner = record_of(self.target) if self.target is not None else None
            return inner is not None and inner.table is None
        return True

    @property
    def in_case(self) -> bool:
        """Whether the case file holds the field."""
        return not self.path.startswith("(") and not self.extra

    @property
    def editor(self) -> Editor:
        if self.spec.editor is not None:
            return self.spec.editor
        return _EDITORS.get(self.kind, Editor.NONE)

    @property
    def contact(self) -> bool:
        return self.spec.contact

    def may_write(self, writer: Writer) -> bool:
        return bool(self.spec.writers & writer)


_EDITORS = {Kind.TEXT: Editor.LINE, Kind.INTEGER: Editor.INTEGER, Kind.NUMBER: Editor.NUMBER,
            Kind.BOOLEAN: Editor.CHECK, Kind.DATE: Editor.DATE, Kind.CHOICE: Editor.CHOICE,
            Kind.LIST: Editor.LINES}


# Compared and hashed by identity: each is made once, and the lookups keyed on a section
# (`_by_key`, `_by_column`) run for every value checked.
@dataclass(frozen=True, eq=False)
class Section:
    """A part of a case (or a kind of record) and its fields."""

    path: str                  # in the case file; "[]" marks the items of a list
    table: str | None          # where the database keeps it
    name: str                  # one record of it, in words
    cls: type | None
    fields: tuple[Field, ...]
    writers: Writer = Writer.BOTH
    synced: bool = True

    @property
    def listed(self) -> bool:
        return self.path.endswith("[]")

    @property
    def in_case(self) -> bool:
        return not self.path.startswith("(")

    def field(self, key: str) -> Field | None:
        return _by_key(self).get(key)

    def column(self, column: str) -> Field | None:
        return _by_column(self).get(column)


@cache
def _by_key(section: Section) -> Mapping[str, Field]:
    return {f.key: f for f in section.fields}


@cache
def _by_column(section: Section) -> Mapping[str, Field]:
    return {f.column: f for f in section.fields if f.stored}


# --- reading the declarations --------------------------------------------------------------

def _unwrap(hint: Any) -> tuple[Any, bool]:
    """(the type, whether None is allowed)."""
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        if len(args) == 1:
            return args[0], True
    return hint, False


def _kind(hint: Any, spec: Spec) -> tuple[Kind, type | None, type[Enum] | None]:
    if spec.reference_to is not None:
        return Kind.REFERENCE, None, None
    origin = typing.get_origin(hint)
    if origin is tuple:
        item = typing.get_args(hint)[0]
        if isinstance(item, type) and dataclasses.is_dataclass(item):
            return Kind.OBJECTS, item, None
        return Kind.LIST, None, None
    if origin is dict:
        return Kind.GEOMETRY, None, None
    if isinstance(hint, type):
        if dataclasses.is_dataclass(hint):
            return Kind.OBJECT, hint, None
        if issubclass(hint, bool):
            return Kind.BOOLEAN, None, None
        if issubclass(hint, Enum):
            return Kind.CHOICE, None, hint
        if issubclass(hint, int):
            return Kind.INTEGER, None, None
        if issubclass(hint, float):
            return Kind.NUMBER, None, None
        if issubclass(hint, date):
            return Kind.DATE, None, None
        if issubclass(hint, bytes):
            return Kind.BYTES, None, None
    if spec.choices is not None:
        return Kind.CHOICE, None, None
    return Kind.TEXT, None, None


def _fields(cls: type, path: str, table: str | None) -> list[Field]:
    hints = typing.get_type_hints(cls)
    out = []
    for f in dataclasses.fields(cls):
        spec = spec_of(f)
        if spec is None:
            continue
        hint, nullable = _unwrap(hints[f.name])
        kind, target, enum = _kind(hint, spec)
        if spec.timestamp:
            kind = Kind.TIMESTAMP
        elif spec.plain:
            kind = Kind.PLAIN
        numbers = kind is Kind.LIST and typing.get_args(hint)[0] is float
        vocabulary = spec.choices if spec.choices is not None else (
            tuple(str(v.value) for v in enum) if enum is not None else None)
        has_default = (f.default is not dataclasses.MISSING
                       or f.default_factory is not dataclasses.MISSING)
        out.append(Field(table=table, path=path, key=f.name, column=spec.column or f.name,
                         spec=spec, kind=kind, nullable=nullable,
                         required=spec.required or not has_default,
                         vocabulary=vocabulary, enum=enum, target=target,
                         numbers=numbers))
    return out


_DETAIL_KINDS = {FieldType.TEXT: Kind.TEXT, FieldType.INTEGER: Kind.INTEGER,
                 FieldType.NUMBER: Kind.NUMBER, FieldType.BOOLEAN: Kind.BOOLEAN,
                 FieldType.DATE: Kind.DATE, FieldType.CHOICE: Kind.CHOICE}


def _detail(d: DetailField) -> Field:
    """A component detail (`fields.COMPONENT_DETAILS`) as a field of the component."""
    spec = Spec(label=d.label, unit=d.unit, minimum=d.minimum, maximum=d.maximum,
                choices=d.choices or None)
    kind = _DETAIL_KINDS[d.type]
    return Field(table="components", path="components[]", key=d.name, column=d.name,
                 spec=spec, kind=kind, nullable=True, required=False,
                 vocabulary=d.choices or None, kinds=frozenset(k.value for k in d.kinds))


def _walk(cls: type, path: str, named: str | None = None) -> Iterator[Section]:
    declared = record_of(cls)
    assert declared is not None, f"{cls.__name__} is not declared as a record"
    table = declared.table
    fields = _fields(cls, path, table)
    if cls is model.Component:
        # the details sit beside the component's own fields, before its geometry
        at = next(i for i, f in enumerate(fields) if f.key == "geometry")
        fields[at:at] = [_detail(d) for d in COMPONENT_DETAILS]
    for extra in records.EXTRA.get(table or "", ()):
        fields += [dataclasses.replace(f, extra=True) for f in _fields(extra, path, table)]
    yield Section(path=path, table=table, name=named or declared.name, cls=cls,
                  fields=tuple(fields), writers=declared.writers, synced=declared.synced)
    for f in fields:
        if f.target is not None and f.kind is Kind.OBJECT:
            # a part with no table of its own (a capture) is named by what holds it:
            # "Absorption area on the map: how it was captured" -> "Absorption area on the map"
            inner = record_of(f.target)
            part = f.spec.label.split(":")[0] if inner is not None and inner.table is None \
                and ":" in f.spec.label else None
            yield from _walk(f.target, f"{path}.{f.key}" if path else f.key, part)
        elif f.target is not None:
            yield from _walk(f.target, (f"{path}.{f.key}" if path else f.key) + "[]")


def _sections() -> tuple[Section, ...]:
    found = list(_walk(model.Case, ""))
    for cls in records.RECORDS:
        declared = record_of(cls)
        assert declared is not None and declared.table is not None
        path = f"({declared.table})[]"
        found.append(Section(path=path, table=declared.table, name=declared.name, cls=cls,
                             fields=tuple(_fields(cls, path, declared.table)),
                             writers=declared.writers, synced=declared.synced))
    return tuple(found)


SECTIONS: tuple[Section, ...] = _sections()
CASE: Section = SECTIONS[0]
BY_PATH: Mapping[str, Section] = {s.path: s for s in SECTIONS}
BY_TABLE: Mapping[str, Section] = {s.table: s for s in SECTIONS if s.table}
# The tables whose rows are records (a case's and the others'), in the case's order.
RECORD_TABLES: tuple[str, ...] = tuple(BY_TABLE)
# The records that travel between the office and its laptops.
SYNCED_TABLES: frozenset[str] = frozenset(s.table for s in SECTIONS
                                          if s.table and s.synced)


def section(table: str) -> Section | None:
    return BY_TABLE.get(table)


_COLUMNS: Mapping[tuple[str, str], Field] = {
    (s.table, f.column): f for s in SECTIONS if s.table for f in s.fields if f.stored}


def at(path: str) -> Field:
    """The field at a path of the case ("dwelling.bedrooms", "site.lake_distance_ft")."""
    parent, _, key = path.rpartition(".")
    section_ = BY_PATH.get(parent)
    found = section_.field(key) if section_ is not None else None
    if found is None:
        raise KeyError(f"no field is declared at {path}")
    return found


def column(table: str, name: str) -> Field | None:
    """The field a table's column stores, or None if nothing declares it."""
    return _COLUMNS.get((table, name))


def contact_fields() -> tuple[Field, ...]:
    """The contact data a laptop clears once it no longer holds the parcel."""
    return tuple(f for s in SECTIONS for f in s.fields if f.contact and f.stored)
