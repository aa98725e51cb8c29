"""How a stored field is declared: once, on the line of the record that holds it.

A field of a case (or of another record) is a dataclass field whose metadata carries a
`Spec`: its words and unit, its bounds or form, where it is stored, who may write it and
whether it is someone's contact data. `domain/registry.py` reads these declarations, and
everything else derives from them: the case file's schema and its reader and writer, the
mapping to database columns, the checks a sync package's values pass, the words of the
history and of every message, the form's editors and a laptop's clearing of contact data.
Adding a field is one line here plus a migration for its column.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import Flag, StrEnum, auto
from typing import Any

from .sbl import SBL_PATTERN as SBL_PATTERN  # declared with the reader of tax map numbers

DATE_PATTERN = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"
# A moment as the clock at the site shows it, to the minute (seconds optional), no offset:
# "2026-11-18T09:30". A date alone, or a date and a time (`DATE_OR_TIME_PATTERN`).
LOCAL_TIME_PATTERN = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}(:[0-9]{2})?$"
DATE_OR_TIME_PATTERN = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2}(:[0-9]{2})?)?$"
EMAIL_PATTERN = r"^[^@\s]+@[^@\s]+\.[^@\s]+$"
NOT_BLANK = r"\S"
SHA256_PATTERN = r"^[0-9a-f]{64}$"
RECORD_ID = r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"

# Text a person names or types on one line (a name, an address line, a permit number)...
NAME_LENGTH = 200
# ... and free text (a note, a description).
TEXT_LENGTH = 5000


class Writer(Flag):
    """Who may change a field: a laptop enrolled for the parcel, the office, or both."""

    LAPTOP = auto()
    OFFICE = auto()
    BOTH = LAPTOP | OFFICE


class Text(StrEnum):
    """The kinds of text a field holds, each with its own bounds."""

    NAME = "name"      # one line, not blank, at most NAME_LENGTH characters
    TEXT = "text"      # free text, at most TEXT_LENGTH characters
    PLAIN = "plain"    # bounded by the spec's own max_length / pattern only


class Editor(StrEnum):
    """How the form edits a field (derived from its type when not declared)."""

    LINE = "line"          # one line of text
    LINES = "lines"        # one item per line
    INTEGER = "integer"
    NUMBER = "number"
    CHECK = "check"        # yes / no
    CHOICE = "choice"      # one of a vocabulary
    DATE = "date"
    NONE = "none"          # not edited in the form (the site map, a dialog, the office)


@dataclass(frozen=True, kw_only=True)
class Spec:
    """One field's declaration."""

    label: str
    unit: str | None = None
    column: str | None = None          # the database column, when not the field's name
    minimum: float | None = None
    maximum: float | None = None
    text: Text = Text.TEXT
    min_length: int | None = None
    max_length: int | None = None
    pattern: str | None = None
    min_items: int | None = None       # a list's bounds
    max_items: int | None = None
    items: Text = Text.NAME            # what a list of text holds
    item_pattern: str | None = None    # the form each item of a list of text has
    choices: tuple[str, ...] | None = None  # a closed list narrower than its vocabulary
    future: bool = False               # a date that lies ahead by nature (a deadline)
    past_year: bool = False            # a year of something that happened
    writers: Writer = Writer.BOTH
    contact: bool = False              # cleared on a laptop that no longer holds the parcel
    required: bool = False             # a case file must give it (and not null), though the
                                       # record may lack it
    omit_empty: bool = False           # the case file leaves out an empty list
    strip: bool = False                # surrounding spaces dropped when read
    geometries: tuple[str, ...] = ()   # the GeoJSON types a geometry may be
    plus_minus: bool = False           # an accuracy: written ±5 ft
    editor: Editor | None = None
    # records beyond the case file
    reference_to: str | None = None    # the id of a record of this table
    date_text: bool = False            # a date kept as text (a real date, not after today)
    timestamp: bool = False            # a moment, stored in UTC
    fixed: bool = False                # never changes once the record exists
    long: bool = False                 # may be longer than any other text (an outline)
    bookkeeping: bool = False          # kept for the record's integrity, not a clerk's value
    suggestion: bool = False           # the key of a suggested finding
    shown_as_choice: bool = False      # a word of a vocabulary the program keeps elsewhere
    identity: bool = False             # the record's own id: read, never written as a value
    plain: bool = False                # any plain value: text, a number, yes or no (a setting)


def declare(label: str, *, default: Any = dataclasses.MISSING, **spec: Any) -> Any:
    """A dataclass field with its declaration: `bedrooms: int = declare("Bedrooms", ...)`."""
    metadata = {"spec": Spec(label=label, **spec)}
    if default is dataclasses.MISSING:
        return dataclasses.field(metadata=metadata)
    if isinstance(default, list | dict | set):
        raise TypeError("a mutable default needs default_factory")
    return dataclasses.field(default=default, metadata=metadata)


def declare_many(label: str, **spec: Any) -> Any:
    """A list field (a tuple) that defaults to empty."""
    return dataclasses.field(default=(), metadata={"spec": Spec(label=label, **spec)})


@dataclass(frozen=True, kw_only=True)
class RecordSpec:
    """A kind of record: its name in words and the table it is kept in (None: a part of
    its parent's record, such as a capture or the site)."""

    name: str
    table: str | None = None
    writers: Writer = Writer.BOTH
    synced: bool = True        # travels between the office and its laptops


def record(name: str, *, table: str | None = None, writers: Writer = Writer.BOTH,
           synced: bool = True) -> Any:
    """Declare a dataclass as a kind of record: `@record("Dwelling", table="dwellings")`."""
    def mark(cls: type) -> type:
        cls.__record__ = RecordSpec(  # type: ignore[attr-defined]
            name=name, table=table, writers=writers, synced=synced)
        return cls
    return mark


def record_of(cls: type) -> RecordSpec | None:
    found = getattr(cls, "__record__", None)
    return found if isinstance(found, RecordSpec) else None


def spec_of(field: dataclasses.Field[Any]) -> Spec | None:
    found = field.metadata.get("spec")
    return found if isinstance(found, Spec) else None
