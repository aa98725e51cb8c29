"""Words for the names the records use.

The case file names a field `site.lake_distance_method` and the change log names it by
table and column (`dwellings`, `bedrooms`); a person reads "Lake distance measured by"
and "Bedrooms: 3 -> 4". The words for every case field are declared here once, next to
the case model they describe: what kind of value a field holds is read from the case
dataclasses, component details take their labels from `fields.COMPONENT_DETAILS`, and the
database tables reuse the words of the case section they store.

The case file and the command line keep their own messages (the public contract names
fields by path); only what the desktop app shows is put into these words.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo
from enum import Enum, StrEnum
from typing import Any

from . import case as model
from . import registry
from .registry import Kind


class Shown(StrEnum):
    """How a stored value is written out for a person."""

    TEXT = "text"
    INTEGER = "integer"
    NUMBER = "number"
    BOOLEAN = "boolean"
    DATE = "date"
    CHOICE = "choice"
    LIST = "list"
    FINDINGS = "findings"      # the AHJ's findings, factor by factor
    GEOMETRY = "geometry"
    CAPTURE = "capture"        # how a geometry was captured (a nested object)
    ITEMS = "items"            # a list of records (renters, tests, ...)
    TIMESTAMP = "timestamp"    # a moment, stored in UTC
    BYTES = "bytes"            # a document's bytes; the log keeps their hash
    REFERENCE = "reference"    # the id of another record
    POSITION = "position"      # the place of an item in its list, counted from 0
    SUGGESTION = "suggestion"  # the key of a suggested finding: what it is about
    BOOKKEEPING = "bookkeeping"  # kept for the record's integrity; not a clerk's value


@dataclass(frozen=True)
class FieldLabel:
    label: str
    shown: Shown = Shown.TEXT
    unit: str | None = None
    plus_minus: bool = False   # an accuracy: written ±5 ft

    @property
    def with_unit(self) -> str:
        return f"{self.label} ({self.unit})" if self.unit else self.label


@dataclass(frozen=True)
class Section:
    """One part of a case (or one table of records) and the words for its fields."""

    path: str                  # in the case file; "[]" marks the items of a list
    table: str | None          # where the database keeps it
    name: str                  # one record of it, in words
    labels: Mapping[str, FieldLabel]

    @property
    def listed(self) -> bool:
        return self.path.endswith("[]")

    def label(self, name: str) -> FieldLabel:
        return self.labels.get(name) or FieldLabel(words(name).capitalize())


# --- values in words ---------------------------------------------------------------------

_WORDS = {
    "ahj_order": "AHJ order",
    "etu_follow_up": "ETU follow-up",
    "five_year_cycle": "five-year cycle",
    "five_year_reminder": "five-year reminder",
    "etu_report_reminder": "ETU report reminder",
    "pump_out_request": "pump-out request",
    "enhanced_treatment_unit": "enhanced treatment unit (ETU)",
    "typed_lonlat": "typed longitude/latitude",
}


def words(value: Any) -> str:
    """A vocabulary value or an internal name in words: "above_outlet" -> "above outlet"."""
    text = str(value.value if isinstance(value, Enum) else value)
    return _WORDS.get(text, text.replace("_", " "))


def _capitalized(text: str) -> str:
    return text[:1].upper() + text[1:]


def _lowered(text: str) -> str:
    """A label inside a sentence: "Living area" -> "living area"; "ETU service" stays."""
    if len(text) > 1 and text[:2].isupper():
        return text
    return text[:1].lower() + text[1:]


def kind_words(kind: Any) -> str:
    """A component or site-feature kind as the start of a sentence: "Septic tank"."""
    return _capitalized(words(kind))


def _number(value: float, unit: str | None, *, plus_minus: bool = False) -> str:
    text = f"{value:,}" if isinstance(value, float) and not value.is_integer() else \
        f"{int(value):,}"
    after = "" if not unit else unit if unit == "°" else f" {unit}"
    return ("±" if plus_minus else "") + text + after


def _nearest_words(value: Any) -> str | None:
    """A map measurement notes the nearest points of the area and of the lake line."""
    note = _parsed(value)
    nearest = note.get("nearest") if isinstance(note, Mapping) else None
    if not isinstance(nearest, Mapping):
        return None
    points = []
    for key, name in (("area", "area"), ("shoreline", "lake line")):
        point = nearest.get(key)
        if isinstance(point, list) and len(point) >= 2:
            points.append(f"{name} at {point[1]:.6f}, {point[0]:.6f}")
    return "nearest points: " + "; ".join(points) if points else None


def _parsed(value: Any) -> Any:
    """Lists, findings and geometry are kept as JSON text in the records."""
    if isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


def suggestion_words(key: str) -> str:
    """A suggested finding's key in words: "septic_tank_capacity/septic_tank#1" ->
    "Septic tank capacity (septic tank 1)"; "setback/absorption_area#1/lake" ->
    "Setback from the lake (absorption area 1)"."""
    topic, *parts = [p for p in str(key).split("/") if p]
    about = []
    rest = []
    for part in parts:
        kind, sep, ordinal = part.partition("#")
        if sep and ordinal.isdigit():
            about.append(f"{words(kind)} {int(ordinal)}")
        else:
            rest.append(words(part))
    text = _capitalized(words(topic))
    if rest:
        text += (" from the " if topic == "setback" else ", ") + ", ".join(rest)
    return text + (f" ({', '.join(about)})" if about else "")


def _geometry_words(value: Any) -> str:
    geometry = _parsed(value)
    if not isinstance(geometry, Mapping):
        return str(geometry)
    kind = str(geometry.get("type", "shape"))
    coordinates = geometry.get("coordinates") or []
    if kind == "Point":
        return "a point"
    if kind == "Polygon" and coordinates:
        return f"an outline with {max(len(coordinates[0]) - 1, 0)} corners"
    if kind == "LineString":
        return f"a line through {len(coordinates)} points"
    if kind == "MultiPolygon":
        return f"{len(coordinates)} outlines"
    return "a " + re.sub(r"(?<!^)(?=[A-Z])", " ", kind).lower()


def show_value(label: FieldLabel, value: Any, *, tz: tzinfo | None = None) -> str:
    """A stored value as a person reads it, with its unit."""
    if value is None or value == "":
        return "(blank)"
    shown = label.shown
    if shown is Shown.BOOLEAN:
        return "yes" if value in (1, True, "1", "true") else "no"
    if shown in (Shown.NUMBER, Shown.INTEGER) and isinstance(value, int | float) \
            and not isinstance(value, bool):
        return _number(value, label.unit, plus_minus=label.plus_minus)
    if shown is Shown.TEXT and isinstance(value, str) and value.startswith("{"):
        nearest = _nearest_words(value)
        if nearest is not None:
            return nearest
    if shown is Shown.POSITION and isinstance(value, int):
        return str(value + 1)
    if shown is Shown.CHOICE:
        return words(value)
    if shown is Shown.TIMESTAMP:
        return local_time(str(value), tz)
    if shown is Shown.GEOMETRY:
        return _geometry_words(value)
    if shown is Shown.BYTES:
        digest = value.get("sha256_of_bytes", "") if isinstance(value, Mapping) else ""
        return f"a PDF (fingerprint {digest[:12]}…)" if digest else "a PDF"
    if shown is Shown.REFERENCE:
        return f"record {str(value)[:8]}"
    if shown is Shown.SUGGESTION:
        return suggestion_words(str(value))
    if shown is Shown.BOOKKEEPING:
        return "recorded"
    if shown is Shown.FINDINGS:
        items = _parsed(value)
        if isinstance(items, list):
            return "; ".join(f"({i.get('factor')}) {i.get('finding')}" if isinstance(
                i, Mapping) else str(i) for i in items) or "(none)"
    if shown in (Shown.LIST, Shown.ITEMS):
        items = _parsed(value)
        if isinstance(items, list):
            return "; ".join(str(i) for i in items) or "(none)"
    if isinstance(value, list | tuple):
        return "; ".join(str(i) for i in value) or "(none)"
    if isinstance(value, Mapping):
        return "; ".join(f"{words(k)}: {v}" for k, v in value.items())
    return str(value)


def local_time(at: str, tz: tzinfo | None = None) -> str:
    """A stored UTC moment in local time, with its zone: "2026-12-01 05:40 EST"."""
    try:
        moment = datetime.fromisoformat(at)
    except ValueError:
        return at
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    local = moment.astimezone(tz)
    return f"{local:%Y-%m-%d %H:%M} {zone_name(local)}"


def zone_name(moment: datetime) -> str:
    name = moment.tzname() or ""
    if not name or name[0] in "+-":  # zones without an abbreviation
        offset = moment.utcoffset()
        if offset is None:
            return "UTC"
        minutes = int(offset.total_seconds() // 60)
        sign = "+" if minutes >= 0 else "−"
        name = f"UTC{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"
    return name


# --- the fields' words, from their declarations ------------------------------------------

_SHOWN = {Kind.TEXT: Shown.TEXT, Kind.INTEGER: Shown.INTEGER, Kind.NUMBER: Shown.NUMBER,
          Kind.BOOLEAN: Shown.BOOLEAN, Kind.DATE: Shown.DATE, Kind.CHOICE: Shown.CHOICE,
          Kind.LIST: Shown.LIST, Kind.GEOMETRY: Shown.GEOMETRY, Kind.OBJECTS: Shown.ITEMS,
          Kind.REFERENCE: Shown.REFERENCE, Kind.BYTES: Shown.BYTES,
          Kind.TIMESTAMP: Shown.TIMESTAMP, Kind.OBJECT: Shown.CAPTURE}


def _shown(f: registry.Field) -> Shown:
    spec = f.spec
    if f.key == "position":
        return Shown.POSITION
    if spec.suggestion:
        return Shown.SUGGESTION
    if spec.bookkeeping:
        return Shown.BOOKKEEPING
    if spec.shown_as_choice:
        return Shown.CHOICE
    if spec.date_text:
        return Shown.DATE
    if f.kind is Kind.OBJECTS and f.target is model.FactorFinding:
        return Shown.FINDINGS
    return _SHOWN.get(f.kind, Shown.TEXT)


def _label(f: registry.Field) -> FieldLabel:
    return FieldLabel(f.spec.label, _shown(f), f.spec.unit, plus_minus=f.spec.plus_minus)


def _section(s: registry.Section) -> Section:
    labels: dict[str, FieldLabel] = {}
    for f in s.fields:
        labels[f.key] = _label(f)
        labels.setdefault(f.column, labels[f.key])
    return Section(s.path, s.table, s.name, labels)


# Each part of a case and each kind of record, with its fields' words (domain/registry);
# the case itself (the top level) has none of its own.
SECTIONS: tuple[Section, ...] = tuple(_section(s) for s in registry.SECTIONS if s.path)
BY_PATH = {s.path: s for s in SECTIONS}
BY_TABLE = {s.table: s for s in SECTIONS if s.table}
_TOP = ("format", "parcel", "dwelling", "proposed_work", "site", "system", "components", "etu",
        "holding_tank_service", "observations", "ahj", "notice", "inspection")


def _with(label: FieldLabel, unit: bool) -> str:
    return label.with_unit if unit else label.label


def split_path(path: str) -> list[str | int]:
    """"components[0].sludge_depth_in" -> ["components", 0, "sludge_depth_in"]."""
    parts: list[str | int] = []
    for name, index in re.findall(r"([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]", path):
        parts.append(int(index) if index else name)
    return parts


def _item_name(section: Section, index: int, case: model.Case | None) -> str:
    if section.path == "components[]":
        if case is not None and 0 <= index < len(case.components):
            return f"{kind_words(case.components[index].kind)} (component {index + 1})"
        return f"Component {index + 1}"
    if section.path == "site.features[]" and case is not None and case.site is not None \
            and 0 <= index < len(case.site.features):
        return f"Site feature {index + 1} ({words(case.site.features[index].kind)})"
    return f"{section.name} {index + 1}"


def field_label(path: str | Sequence[str | int], case: model.Case | None = None, *,
                unit: bool = True) -> str:
    """A case-file field in words: "site.lake_distance_method" -> "Lake distance measured
    by"; "components[0].sludge_depth_in" -> "Septic tank (component 1), sludge depth (in)".
    `case` names list items by what they are; `unit=False` leaves out the unit."""
    parts = split_path(path) if isinstance(path, str) else list(path)
    if not parts:
        return "The case file"
    if parts == ["format"]:
        return "Format"
    key = ""
    context: list[str] = []
    section: Section | None = None
    i = 0
    while i < len(parts):
        part = parts[i]
        if isinstance(part, int):
            i += 1
            continue
        candidate = f"{key}.{part}" if key else str(part)
        if f"{candidate}[]" in BY_PATH:
            section = BY_PATH[f"{candidate}[]"]
            key = f"{candidate}[]"
            if i + 1 < len(parts) and isinstance(parts[i + 1], int):
                context.append(_item_name(section, int(parts[i + 1]), case))
                i += 2
                continue
            owner = BY_PATH.get(key.rsplit(".", 1)[0]) if "." in key else None
            if owner is not None and part in owner.labels:  # the whole list
                label = _with(owner.label(str(part)), unit)
                return ", ".join([*context, _lowered(label) if context else label])
            context.append(section.name + "s")
            i += 1
            continue
        if candidate in BY_PATH:
            section = BY_PATH[candidate]
            key = candidate
            if key.count("."):  # a nested object: name it
                context.append(section.name)
            i += 1
            continue
        if section is None:
            return " ".join(words(p) for p in parts if isinstance(p, str)).capitalize()
        label = _with(section.label(str(part)), unit)
        return ", ".join([*context, _lowered(label) if context else label])
    if context:
        return ", ".join(context)
    return section.name if section is not None else "The case file"


_PATH = re.compile(
    r"(?<![\w.\[])(?:" + "|".join(_TOP) + r")(?:\.[a-z_][a-z0-9_]*|\[\d+\])+(?![\w\[])")
_SNAKE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
_PREFIXES = ("Not saved: ", "Not added: ", "Not removed: ", "The form: ")
_QUOTED = re.compile(r'"(?:[^"\\]|\\.)*"|(?<=[\s(])\'[^\']*\'(?=[\s);,.]|$)')


def _section_of(path: str) -> Section | None:
    """The section a path's last field belongs to."""
    key = ""
    found: Section | None = None
    for part in split_path(path):
        if isinstance(part, int):
            continue
        candidate = f"{key}.{part}" if key else str(part)
        if f"{candidate}[]" in BY_PATH:
            key = f"{candidate}[]"
            found = BY_PATH[key]
        elif candidate in BY_PATH:
            key = candidate
            found = BY_PATH[key]
    return found


def for_people(message: str, case: model.Case | None = None) -> str:
    """A case-file message with its field paths in words, for the desktop app:

    "Not saved: site.lake_distance_method is missing; ..." becomes
    "Not saved: Lake distance measured by: missing; ..."."""
    text = message
    lead = ""
    while True:
        for prefix in _PREFIXES:
            if text.startswith(prefix):
                if prefix != "The form: ":
                    lead += prefix
                text = text[len(prefix):]
                break
        else:
            break
    section: Section | None = None
    head = ""
    first = _PATH.match(text)
    if first is not None:
        section = _section_of(first.group(0))
        rest = text[first.end():].removeprefix(":").lstrip().removeprefix("is ")
        label = field_label(first.group(0), case)
        bare_label = field_label(first.group(0), case, unit=False)
        unit = label.removeprefix(bare_label).strip(" ()")
        if unit and f" {unit}" in rest:  # the message gives the unit itself
            label = bare_label
        head = label + (": " if rest else "")
        text = rest

    def bare(match: re.Match[str]) -> str:
        """A field of the same section named alone; other names may be values to type."""
        name = match.group(0)
        if section is not None and name in section.labels:
            return _lowered(section.labels[name].label)
        return name

    def in_words(part: str) -> str:
        part = _PATH.sub(lambda m: _lowered(field_label(m.group(0), case, unit=False)), part)
        return _SNAKE.sub(bare, part)

    # What the user typed (quoted in the message) stays exactly as typed.
    pieces = _QUOTED.split(text)
    quoted = _QUOTED.findall(text)
    text = "".join(in_words(p) + (quoted[i] if i < len(quoted) else "")
                   for i, p in enumerate(pieces))
    return lead + head + text


# --- the change log in words -------------------------------------------------------------

def section_for_table(table: str) -> Section:
    found = BY_TABLE.get(table)
    if found is not None:
        return found
    return Section(f"({table})", table, _capitalized(words(table)), {})


def change_label(table: str, field: str) -> FieldLabel:
    """A column of a table in the change log, in words."""
    return section_for_table(table).label(field)


def record_name(table: str, values: Mapping[str, Any] | None) -> str:
    """One record in words: "Septic tank", "Pump-out of 2026-05-27", "Dwelling"."""
    v = values or {}
    section = section_for_table(table)
    if table == "components" and v.get("kind"):
        return kind_words(v["kind"])
    if table == "site_features" and v.get("kind"):
        return f"{kind_words(v['kind'])} on the map"
    if table == "renters" and v.get("name"):
        return f"Renter {v['name']}"
    if table == "inspections" and v.get("date"):
        return f"Inspection of {v['date']}"
    if table == "inspection_tests" and v.get("kind"):
        return f"{kind_words(v['kind'])} test"
    if table == "etu_reports" and v.get("inspection_date"):
        return f"ETU inspection of {v['inspection_date']}"
    if table == "pump_outs" and v.get("date"):
        return f"Pump-out of {v['date']}"
    if table == "attachments":
        what = "Photo" if str(v.get("media_type", "")).startswith("image/") else "Document"
        return f"{what} {v['filename']}" if v.get("filename") else "Photo or document"
    if table == "letters" and v.get("kind"):
        return f"Letter: {words(v['kind'])}"
    if table == "letter_service" and v.get("event"):
        how = f" by {words(v['method'])}" if v.get("method") else ""
        return f"Letter {words(v['event'])}{how}"
    if table == "finding_decisions" and v.get("defect"):
        return f"Suggested finding \u201c{v['defect']}\u201d"
    return section.name


_SUMMARY_SKIPS = (Shown.REFERENCE, Shown.POSITION, Shown.BYTES, Shown.BOOKKEEPING)
_SUMMARY_SKIP_FIELDS = frozenset({"crs", "sha256", "kind"})


# The fields that name a document taken in by its SHA-256 (`history_lines` shows its file
# name where it is given one).
DOCUMENT_FIELDS = frozenset({("etu_reports", "document"), ("pump_outs", "document")})


def _value_words(table: str, name: str, label: FieldLabel, value: Any, tz: tzinfo | None,
                 documents: Mapping[str, str]) -> str:
    if (table, name) in DOCUMENT_FIELDS and isinstance(value, str) and value in documents:
        return f"{documents[value]} (SHA-256 {value[:12]}\u2026)"
    return show_value(label, value, tz=tz)


def _summary(table: str, values: Mapping[str, Any], tz: tzinfo | None,
             documents: Mapping[str, str]) -> str:
    parts = []
    for name, value in values.items():
        label = change_label(table, name)
        if label.shown in _SUMMARY_SKIPS or name in _SUMMARY_SKIP_FIELDS:
            continue
        if label.shown in (Shown.LIST, Shown.FINDINGS) and _parsed(value) in ([], None):
            continue
        parts.append(f"{label.label}: {_value_words(table, name, label, value, tz, documents)}")
    return "; ".join(parts)


@dataclass(frozen=True)
class HistoryLine:
    """One change to a parcel's records, in words."""

    when: str                 # local time, with its zone
    at: str                   # as stored (UTC)
    who: str
    device: str
    change: str               # one line
    op: str                   # insert, update, delete or resolution


def _resolution_words(row: Mapping[str, Any], what: str, label: FieldLabel,
                      tz: tzinfo | None) -> str:
    r = row["resolution"]
    other = (f"{r.get('incoming_user') or 'someone'} on "
             f"{r.get('incoming_device') or 'another device'}")
    here, there = (show_value(label, _parsed(r.get("local_value")), tz=tz),
                   show_value(label, _parsed(r.get("incoming_value")), tz=tz))
    choice = r.get("choice")
    if r.get("field") == "(deleted)" and _parsed(r.get("local_value")) == "deleted":
        return (f"Sync conflict resolved: {what} stays removed; the edit by {other} to the "
                "removed record was not applied")
    if r.get("field") == "(deleted)":
        if choice == "take_incoming":
            return f"Sync conflict resolved: {what} removed, as {other} had removed it"
        return f"Sync conflict resolved: {what} kept; its removal by {other} was not applied"
    if r.get("field") == "(record)":
        return (f"Sync conflict resolved: {what} kept as recorded here; the one created by "
                f"{other} was not taken")
    if choice == "keep_local":
        return (f"Sync conflict resolved, {what}: kept the value here ({here}); "
                f"not taken from {other}: {there}")
    if choice == "take_incoming":
        return (f"Sync conflict resolved, {what}: took the value from {other} ({there}); "
                f"the value here was {here}")
    chosen = show_value(label, _parsed(r.get("resolved_value")), tz=tz)
    return (f"Sync conflict resolved, {what}: entered {chosen} (here: {here}; "
            f"from {other}: {there})")


def history_lines(rows: Iterable[Mapping[str, Any]], *, tz: tzinfo | None = None,
                  documents: Mapping[str, str] | None = None) -> list[HistoryLine]:
    """The change log of a parcel (oldest first, as `Workspace.history` gives it) in
    words, newest first. `tz` is the zone to show times in (the computer's own if None);
    `documents`, the file names of documents taken in by SHA-256, shown for the SHA-256."""
    documents = documents or {}
    state: dict[str, dict[str, Any]] = {}
    lines: list[HistoryLine] = []
    for row in rows:
        table = str(row.get("table_name") or "")
        record_id = str(row.get("record_id") or "")
        op = str(row.get("op") or "")
        field = row.get("field")
        known = state.setdefault(record_id, {})
        section = section_for_table(table)
        at = str(row.get("at") or "")
        if op == "insert":
            values = row.get("new_value") or {}
            if isinstance(values, Mapping):
                known.update(values)
            what = record_name(table, known)
            summary = (_summary(table, values, tz, documents) if isinstance(values, Mapping)
                       else "")
            change = f"{what} added" + (f" ({summary})" if summary else "")
        elif op == "update" and field:
            what = record_name(table, known)
            label = change_label(table, str(field))
            old = _value_words(table, str(field), label, row.get("old_value"), tz, documents)
            new = _value_words(table, str(field), label, row.get("new_value"), tz, documents)
            if label.shown is Shown.GEOMETRY and old == new:
                new = f"{new} (redrawn)"
            name = label.label
            lead = f"{what}, {_lowered(name)}" if section.listed else name
            change = (f"{lead}: changed" if label.shown is Shown.BOOKKEEPING else
                      f"{lead}: {old} -> {new}")
            known[str(field)] = row.get("new_value")
        elif op == "delete":
            what = record_name(table, known)
            change = f"{what} removed"
        else:
            what = record_name(table, known)
            change = what
        if row.get("resolution"):
            label = change_label(table, str(field)) if field else FieldLabel(what)
            name = (f"{what}, {_lowered(label.label)}" if section.listed else label.label
                    ) if field else what
            change = _resolution_words(row, name, label, tz)
            op = "resolution"
        when = local_time(at, tz) if at else ""
        device = str(row.get("device") or "")
        who = str(row.get("user") or "")
        lines.append(HistoryLine(when=when, at=at, who=who, device=device, change=change,
                                 op=op))
    lines.reverse()
    return lines
