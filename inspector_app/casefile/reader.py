"""Reading a case file strictly: structure by the schema, then each value as its field is
declared (real dates, dates not after "today", GeoJSON shape), then the rules between
fields. Every refusal names the file and the field."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from datetime import date, datetime, timedelta
from functools import cache
from pathlib import Path
from typing import Any

from ..domain import registry
from ..domain.case import (
    MAX_OBSERVED_AFTER_DAYS,
    MAX_TEST_HOURS,
    AhjDetermination,
    Case,
    Component,
    DetailValue,
    Dwelling,
    EtuInspection,
    FieldTest,
    NoticeDeadlines,
    Parcel,
    PumpOut,
    Site,
    SiteFeature,
)
from ..domain.registry import Field, Kind, Section
from ..domain.tank import depth_problem
from ..domain.vocabulary import SiteFeatureKind
from ..json_input import NonFiniteNumber, check_finite, loads
from ..paths import UnreadableFile, read_regular_file
from ..text_input import decode, json_problem
from .geometry import geometry_fault
from .messages import CaseFileError, describe, fail, field_path, problems_message
from .schema import FORMAT, PASSES, VALIDATOR, case_schema

Path_ = list[str | int]
MAX_CASE_FILE_BYTES = 50 * 1024**2


class _Reader:
    def __init__(self, source: str, today: date) -> None:
        self.source = source
        self.today = today

    def fail(self, path: Sequence[str | int], message: str) -> CaseFileError:
        return fail(self.source, f"{field_path(path)} {message}")

    def date(self, value: Any, path: Sequence[str | int], *, past: bool) -> date | None:
        if value is None:
            return None
        try:
            parsed = date.fromisoformat(value)
        except ValueError:
            raise self.fail(path, f"is {json.dumps(value)}, which is not a real calendar "
                                  "date") from None
        if past and parsed > self.today:
            raise self._after_today(path, parsed.isoformat())
        return parsed

    def moment(self, text: str | None, path: Sequence[str | int]) -> datetime | None:
        """A date or a date and time of the site's clock, not after today."""
        if text is None:
            return None
        try:
            moment = datetime.fromisoformat(text)
        except ValueError:
            raise self.fail(path, f"is {json.dumps(text)}, which is not a real date and "
                                  "time of day") from None
        if moment.date() > self.today:
            raise self._after_today(path, text)
        return moment

    def _after_today(self, path: Sequence[str | int], shown: str) -> CaseFileError:
        return self.fail(path, f"is {shown}, which is after today ({self.today.isoformat()}); "
                               "a recorded event cannot be in the future")

    def geometry(self, value: Any, path: Sequence[str | int],
                 allowed: Sequence[str]) -> dict[str, Any] | None:
        if value is None:
            return None
        fault = geometry_fault(value, allowed)
        if fault is not None:
            raise self.fail([*path, *fault[0]], fault[1])
        return {"type": value["type"], "coordinates": value["coordinates"]}

    def value(self, field: Field, value: Any, path: Path_) -> Any:
        """One value as its field is declared."""
        kind, spec = field.kind, field.spec
        if kind in (Kind.LIST, Kind.OBJECTS):
            items = value if value is not None else ()
            if kind is Kind.LIST:
                return tuple(i.strip() for i in items) if spec.strip else tuple(items)
            inner = _inner(field, listed=True)
            return tuple(self.build(inner, item, [*path, i]) for i, item in enumerate(items))
        if value is None:
            return None
        if kind is Kind.OBJECT:
            return self.build(_inner(field), value, path)
        if kind is Kind.DATE:
            return self.date(value, path, past=not spec.future)
        if kind is Kind.GEOMETRY:
            return self.geometry(value, path, spec.geometries)
        if kind is Kind.CHOICE and field.enum is not None:
            return field.enum(value)
        if isinstance(value, str) and spec.strip:
            return value.strip()
        return value

    def build(self, section: Section, doc: Mapping[str, Any], path: Path_) -> Any:
        """A part of the case from its part of the file, checked field by field, then by
        the rules between its fields."""
        assert section.cls is not None
        values = {f.key: self.value(f, doc.get(f.key), [*path, f.key])
                  for f in _read(section)}
        if section.cls is Component:
            values["details"] = self._details(section, doc, path)
        built = section.cls(**{k: v for k, v in values.items() if v is not None})
        check = _CHECKS.get(section.path)
        return check(self, built, path) if check is not None else built

    def _details(self, section: Section, doc: Mapping[str, Any],
                 path: Path_) -> dict[str, DetailValue]:
        kind = str(doc["kind"])
        details: dict[str, DetailValue] = {}
        for f in section.fields:
            value = doc.get(f.key)
            if f.kinds is None or value is None:
                continue
            if kind not in f.kinds:
                raise self.fail([*path, f.key], f"does not apply to a {kind}; it is recorded "
                                                f"for: " + ", ".join(sorted(f.kinds)))
            details[f.key] = self.value(f, value, [*path, f.key])
        return details


def _inner(field: Field, *, listed: bool = False) -> Section:
    path = f"{field.path}.{field.key}" if field.path else field.key
    return registry.BY_PATH[path + ("[]" if listed else "")]


@cache
def _read(section: Section) -> tuple[Field, ...]:
    """The fields of a part read from its own keys of the file (not a component's
    details), in order."""
    return tuple(f for f in section.fields if f.in_case and f.kinds is None)


# --- the rules between fields, by part of the case ----------------------------------------

def _parcel(r: _Reader, p: Parcel, path: Path_) -> Parcel:
    if (p.longitude is None) != (p.latitude is None):
        raise r.fail(path, "has only one of longitude and latitude; give both or neither")
    return p


def _dwelling(r: _Reader, d: Dwelling, path: Path_) -> Dwelling:
    if d.building_area_sqft is not None and d.building_area_sqft < d.living_area_sqft:
        raise r.fail([*path, "building_area_sqft"],
                     f"({d.building_area_sqft:g} sq ft) is smaller than living_area_sqft "
                     f"({d.living_area_sqft:g} sq ft); the building's aggregate area includes "
                     "its living space")
    return d


def _site(r: _Reader, s: Site, path: Path_) -> Site:
    if (s.lake_distance_ft is None) != (s.lake_distance_method is None):
        missing = "lake_distance_method" if s.lake_distance_method is None else (
            "lake_distance_ft")
        raise r.fail([*path, missing], "is missing; a field measurement of the lake distance "
                                       "needs both the distance and the method")
    return s


def _feature(r: _Reader, f: SiteFeature, path: Path_) -> SiteFeature:
    if f.kind is not SiteFeatureKind.WELL:
        for name in ("shallow_aquifer", "drainage_path"):
            if getattr(f, name) is not None:
                raise r.fail([*path, name], f"is a well's condition (10 NYCRR Appendix 75-A, "
                                            f"Table 2); a {f.kind.value} has none")
    return f


def _etu_inspection(r: _Reader, i: EtuInspection, path: Path_) -> EtuInspection:
    if i.report_received is not None and i.report_received < i.date:
        raise r.fail([*path, "report_received"],
                     f"({i.report_received}) is before the inspection date ({i.date})")
    return i


def _pump_out(r: _Reader, p: PumpOut, path: Path_) -> PumpOut:
    if p.record_received_on is not None:
        if not p.record_received:
            raise r.fail([*path, "record_received_on"],
                         "is given, but record_received is false; a record received has "
                         "record_received true")
        if p.record_received_on < p.date:
            raise r.fail([*path, "record_received_on"],
                         f"({p.record_received_on}) is before the pump-out ({p.date})")
    return p


def _ahj(r: _Reader, a: AhjDetermination, path: Path_) -> AhjDetermination:
    letters = [f.factor for f in a.factors_weighed]
    if len(set(letters)) != len(letters):
        raise r.fail([*path, "factors_weighed"], "names a factor twice; give one finding per "
                                                 "factor")
    if a.waiver_granted and not a.waiver_description:
        raise r.fail([*path, "waiver_description"],
                     "is missing; a granted local waiver must say what it waives")
    return replace(a, factors_weighed=tuple(sorted(a.factors_weighed, key=lambda f: f.factor)))


def _notice(r: _Reader, n: NoticeDeadlines, path: Path_) -> NoticeDeadlines:
    if n.permit_by and n.complete_by and n.complete_by < n.permit_by:
        raise r.fail([*path, "complete_by"],
                     f"({n.complete_by}) is before notice.permit_by ({n.permit_by}); the "
                     "work cannot be due before its permit")
    return n


def _field_test(r: _Reader, t: FieldTest, path: Path_) -> FieldTest:
    start = r.moment(t.started_at, [*path, "started_at"])
    end = r.moment(t.ended_at, [*path, "ended_at"])
    if end is not None:
        if start is None:
            raise r.fail([*path, "ended_at"], "is given without started_at; a test's end "
                                              "needs its start")
        if end <= start:
            raise r.fail([*path, "ended_at"], f"({t.ended_at}) is not after started_at "
                                              f"({t.started_at}); a test ends after it starts")
        if end - start > timedelta(hours=MAX_TEST_HOURS):
            raise r.fail([*path, "ended_at"], f"({t.ended_at}) is more than {MAX_TEST_HOURS} "
                                              f"hours after started_at ({t.started_at}); a "
                                              "dye or hydraulic-load test runs within a day")
    for n, o in enumerate(t.observations):
        seen = r.moment(o.at, [*path, "observations", n, "at"])
        assert seen is not None
        if start is None:
            continue
        # a date alone is compared with the test's day; a time of day with its start
        if (seen < start) if "T" in o.at else (seen.date() < start.date()):
            raise r.fail([*path, "observations", n, "at"],
                         f"({o.at}) is before the test started ({t.started_at})")
        if seen.date() - start.date() > timedelta(days=MAX_OBSERVED_AFTER_DAYS):
            raise r.fail([*path, "observations", n, "at"],
                         f"({o.at}) is more than {MAX_OBSERVED_AFTER_DAYS} days after the "
                         f"test started ({t.started_at})")
    return t


def _component(r: _Reader, c: Component, path: Path_) -> Component:
    problem = depth_problem(c.details)
    if problem is not None:
        raise r.fail([*path, problem[0]], problem[1])
    return c


_CHECKS: dict[str, Callable[[_Reader, Any, Path_], Any]] = {
    "inspection.tests[]": _field_test,
    "parcel": _parcel, "dwelling": _dwelling, "site": _site, "components[]": _component,
    "site.features[]": _feature,
    "etu.inspections[]": _etu_inspection, "holding_tank_service.pump_outs[]": _pump_out,
    "ahj": _ahj, "notice": _notice,
}


# --- reading -----------------------------------------------------------------------------

def _reject_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"the key {json.dumps(key)} appears twice in one object")
        out[key] = value
    return out


def parse_text(text: str, *, source: str, today: date) -> Case:
    """Read a case from JSON text. `source` names the file in messages."""
    try:
        doc = loads(text, object_pairs_hook=_reject_duplicate_keys)
    except json.JSONDecodeError as exc:
        raise fail(source, json_problem(exc)) from None
    except ValueError as exc:
        raise fail(source, str(exc)) from None
    return parse_document(doc, source=source, today=today)


def overlong(schema: Mapping[str, Any], value: Any, path: Path_) -> str | None:
    """The first list in `value` longer than its part of `schema` allows, in the words of
    the schema's messages, or None. Lists within their bounds are looked into, lists over
    them are not: a case file of a million components is told so at once, where the schema's
    validator would first find a problem in each of them."""
    if isinstance(value, list):
        most = schema.get("maxItems")
        if most is not None and len(value) > most:
            return f"{field_path(path)} has {len(value):,} entries; at most {most} allowed"
        items = schema.get("items")
        if isinstance(items, Mapping):
            for n, item in enumerate(value):
                if (found := overlong(items, item, [*path, n])) is not None:
                    return found
    elif isinstance(value, dict):
        properties = schema.get("properties")
        if isinstance(properties, Mapping):
            for name, part in properties.items():
                if name in value and (found := overlong(part, value[name], [*path, name])):
                    return found
    return None


def parse_document(doc: Any, *, source: str, today: date) -> Case:
    if not isinstance(doc, dict):
        raise fail(source, "is not a case file; it must be a JSON object with "
                           f"\"format\": \"{FORMAT}\"")
    if (too_long := overlong(case_schema(), doc, [])) is not None:
        raise fail(source, too_long)
    try:
        # NaN or an infinity would pass every range check and be stored as nothing
        check_finite(doc)
    except NonFiniteNumber as exc:
        raise fail(source, str(exc)) from None
    if doc.get("format") != FORMAT:
        found = doc.get("format")
        raise fail(source, f"format is {describe(found)}; this app reads \"{FORMAT}\" case "
                           "files")
    if not PASSES(doc):
        errors = list(VALIDATOR.iter_errors(doc))
        if errors:
            raise fail(source, problems_message(errors))
    case: Case = _Reader(source, today).build(registry.CASE, doc, [])
    return case


def read_file(path: Path, *, today: date) -> Case:
    try:
        raw = read_regular_file(path, limit=MAX_CASE_FILE_BYTES, what="case file")
    except FileNotFoundError:
        raise CaseFileError(f"{path}: no such case file.") from None
    except UnreadableFile as exc:
        raise CaseFileError(str(exc)) from None
    text = decode(raw, path, what="case file", save_as="UTF-8 JSON", error=CaseFileError).text
    return parse_text(text, source=str(path), today=today)
