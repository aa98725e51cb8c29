"""The case file (`watershed-inspector/case/1`): strict reading and canonical writing.

Structure is checked against a JSON Schema (published as `docs/case-1.schema.json`);
what a schema cannot say (real calendar dates, dates after "today", cross-field
consistency, GeoJSON shape) is checked while the values are built. Every refusal names
the file and the field.

Extensions to the contract are optional keys only, so every valid version-1 file from
another office stays valid here.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping, Sequence
from datetime import date
from pathlib import Path
from typing import Any

import jsonschema
from jsonschema.exceptions import ValidationError, best_match

from .domain.case import (
    AhjDetermination,
    Capture,
    Case,
    Component,
    DetailValue,
    Dwelling,
    EtuInspection,
    EtuService,
    FactorFinding,
    FieldTest,
    HoldingTankService,
    Inspection,
    NoticeDeadlines,
    Observations,
    Parcel,
    ProposedWork,
    PumpOut,
    Renter,
    Site,
    SiteFeature,
    SystemRecord,
)
from .domain.fields import COMPONENT_DETAILS, DetailField, FieldType
from .domain.units import plain_number
from .domain.vocabulary import (
    CaptureMethod,
    ComponentKind,
    Condition,
    InspectionReason,
    LakeDistanceMethod,
    Occupancy,
    SiteFeatureKind,
    TestKind,
    TestResult,
)
from .errors import InputError
from .json_input import NonFiniteNumber, check_finite, loads, schema_check
from .paths import UnreadableFile, read_regular_file

FORMAT = "watershed-inspector/case/1"

MAX_BEDROOMS = 50
MAX_AREA_SQFT = 100_000
MAX_LAKE_DISTANCE_FT = 100_000
MAX_PERMIT_NUMBER = 60  # characters of a building permit's number
SBL_PATTERN = (r"^[0-9]+(\.[0-9A-Za-z]+)?-[0-9A-Za-z]+-[0-9A-Za-z]+(\.[0-9A-Za-z]+)*"
               r"(/[0-9A-Za-z.]+)?$")
DATE_PATTERN = _DATE_PATTERN = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"


class CaseFileError(InputError):
    pass


# --- the schema ------------------------------------------------------------------------

def _obj(props: dict[str, Any], required: Sequence[str] = ()) -> dict[str, Any]:
    return {"type": "object", "properties": props, "required": list(required),
            "additionalProperties": False}


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    t = schema["type"]
    return {**schema, "type": [t, "null"]}


_NAME = {"type": "string", "minLength": 1, "maxLength": 200, "pattern": r"\S"}
_TEXT = {"type": "string", "maxLength": 5000}
_DATE = {"type": "string", "pattern": _DATE_PATTERN}
_BOOL = {"type": "boolean"}
_LINES = {"type": "array", "items": {**_NAME}, "maxItems": 6}
_STRINGS = {"type": "array", "items": {**_NAME}, "maxItems": 100}
_GEOMETRY = {"type": "object"}


def _num(lo: float, hi: float, *, integer: bool = False) -> dict[str, Any]:
    return {"type": "integer" if integer else "number", "minimum": lo, "maximum": hi}


def _enum(values: Sequence[str]) -> dict[str, Any]:
    return {"type": "string", "enum": list(values)}


def _detail_schema(spec: DetailField) -> dict[str, Any]:
    if spec.type is FieldType.TEXT:
        return _nullable({**_TEXT})
    if spec.type is FieldType.DATE:
        return _nullable({**_DATE})
    if spec.type is FieldType.BOOLEAN:
        return _nullable({**_BOOL})
    if spec.type is FieldType.CHOICE:
        return {"enum": [*spec.choices, None]}
    lo = spec.minimum if spec.minimum is not None else 0
    hi = spec.maximum if spec.maximum is not None else 1e9
    return _nullable(_num(lo, hi, integer=spec.type is FieldType.INTEGER))


def case_schema() -> dict[str, Any]:
    """The JSON Schema of the case file, extensions included."""
    area = _num(0, MAX_AREA_SQFT)
    component_props: dict[str, Any] = {
        "kind": _enum([k.value for k in ComponentKind]),
        "condition": _enum([c.value for c in Condition]),
        "defects": _STRINGS,
        "note": _nullable({**_TEXT}),
        "geometry": _nullable({**_GEOMETRY}),
    }
    component_props.update({spec.name: _detail_schema(spec) for spec in COMPONENT_DETAILS})
    capture = _nullable(_obj({
        "method": {"enum": [m.value for m in CaptureMethod] + [None]},
        "accuracy_ft": _nullable(_num(0, 10_000)),
    }))
    feature = _obj({
        "kind": _enum([k.value for k in SiteFeatureKind
                       if k not in (SiteFeatureKind.ABSORPTION_AREA,
                                    SiteFeatureKind.HOLDING_TANK)]),
        "geometry": _GEOMETRY,
        "capture_method": {"enum": [m.value for m in CaptureMethod] + [None]},
        "capture_accuracy_ft": _nullable(_num(0, 10_000)),
        "note": _nullable({**_TEXT}),
    }, ["kind", "geometry"])
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://watershed-inspector.invalid/schema/case-1.json",
        "title": "Watershed Inspector case file, version 1",
        **_obj({
            "format": {"const": FORMAT},
            "parcel": _obj({
                "sbl": {"type": "string", "pattern": SBL_PATTERN, "maxLength": 60},
                "municipality": _NAME,
                "site_address": _NAME,
                "owner_name": _NAME,
                "owner_mailing_address": {**_LINES, "minItems": 1},
                "owner_phone": _nullable({"type": "string", "maxLength": 40}),
                "owner_email": _nullable({"type": "string", "maxLength": 200,
                                          "pattern": r"^[^@\s]+@[^@\s]+\.[^@\s]+$"}),
                "renters": {"type": "array", "maxItems": 20, "items": _obj({
                    "name": _NAME,
                    "mailing_address": _LINES,
                    "phone": _nullable({"type": "string", "maxLength": 40}),
                    "email": _nullable({"type": "string", "maxLength": 200}),
                }, ["name"])},
                "longitude": _nullable(_num(-180, 180)),
                "latitude": _nullable(_num(-90, 90)),
            }, ["sbl", "municipality", "site_address", "owner_name", "owner_mailing_address"]),
            "dwelling": _obj({
                "bedrooms": _num(0, MAX_BEDROOMS, integer=True),
                "living_area_sqft": area,
                "building_area_sqft": _nullable(area),
                "ahj_design_bedrooms": _nullable(_num(2, MAX_BEDROOMS, integer=True)),
                "ahj_design_by": _nullable({**_NAME}),
                "ahj_design_date": _nullable({**_DATE}),
                "ahj_design_reason": _nullable({**_TEXT}),
                "garbage_grinder": _nullable({**_BOOL}),
            }, ["bedrooms", "living_area_sqft"]),
            "proposed_work": _nullable(_obj({
                "conveyance": _nullable({**_BOOL}),
                "change_of_use": _nullable({**_BOOL}),
                "bedrooms": _nullable(_num(0, MAX_BEDROOMS, integer=True)),
                "living_area_sqft": _nullable(area),
                "work_area_sqft": _nullable(area),
            })),
            "site": _nullable(_obj({
                "absorption_area": _nullable({**_GEOMETRY}),
                "holding_tank": _nullable({**_GEOMETRY}),
                "absorption_area_capture": capture,
                "holding_tank_capture": capture,
                "lake_distance_ft": _nullable(_num(0, MAX_LAKE_DISTANCE_FT)),
                "lake_distance_method": {"enum": [m.value for m in LakeDistanceMethod] + [None]},
                "features": {"type": "array", "maxItems": 200, "items": feature},
            })),
            "system": _nullable(_obj({
                "stamped_as_built": _nullable({**_BOOL}),
                "as_built_reference": _nullable({**_NAME}),
                "installed_year": _nullable(_num(1900, 2100, integer=True)),
                "description": _nullable({**_TEXT}),
            })),
            "components": {"type": "array", "maxItems": 50,
                           "items": _obj(component_props, ["kind", "condition"])},
            "etu": _nullable(_obj({
                "service_contract": _nullable({**_BOOL}),
                "manufacturer_interval_months": _nullable(_num(1, 60, integer=True)),
                "provider": _nullable({**_NAME}),
                "inspections": {"type": "array", "maxItems": 500, "items": _obj({
                    "date": _DATE, "report_received": _nullable({**_DATE})}, ["date"])},
            })),
            "holding_tank_service": _nullable(_obj({
                "hauler_contract": _nullable({**_BOOL}),
                "hauler_name": _nullable({**_NAME}),
                "pump_outs": {"type": "array", "maxItems": 2000, "items": _obj({
                    "date": _DATE, "record_received": _BOOL,
                    "volume_gal": _nullable(_num(0, 100_000))}, ["date", "record_received"])},
            })),
            "observations": _nullable(_obj({
                "absorption_area_encroachments": _STRINGS,
                "clear_water_connections": _STRINGS,
            })),
            "ahj": _nullable(_obj({
                "greatest_extent_possible": _nullable({**_BOOL}),
                "waiver_granted": _nullable({**_BOOL}),
                "waiver_description": _nullable({**_TEXT}),
                "factors_weighed": {"type": "array", "maxItems": 5, "items": _obj({
                    "factor": _enum(["a", "b", "c", "d", "e"]),
                    "finding": {**_TEXT, "minLength": 1}}, ["factor", "finding"])},
                "determined_by": _nullable({**_NAME}),
                "determined_on": _nullable({**_DATE}),
                "permit_number": _nullable({**_NAME, "maxLength": MAX_PERMIT_NUMBER}),
                "permit_issued_on": _nullable({**_DATE}),
            })),
            "notice": _nullable(_obj({"permit_by": _nullable({**_DATE}),
                                      "complete_by": _nullable({**_DATE})})),
            "inspection": _nullable(_obj({
                "date": _DATE,
                "inspector": _NAME,
                "reason": _enum([r.value for r in InspectionReason]),
                "failure_evidence": _STRINGS,
                "inspector_certification": _nullable({**_NAME}),
                "weather": _nullable({**_NAME}),
                "occupancy": {"enum": [o.value for o in Occupancy] + [None]},
                "tests": {"type": "array", "maxItems": 20, "items": _obj({
                    "kind": _enum([t.value for t in TestKind]),
                    "result": _enum([r.value for r in TestResult]),
                    "volume_gal": _nullable(_num(0, 10_000)),
                    "duration_min": _nullable(_num(0, 10_000)),
                    "note": _nullable({**_TEXT}),
                }, ["kind", "result"])},
                "note": _nullable({**_TEXT}),
            }, ["date", "inspector", "reason"])),
        }, ["format", "parcel", "dwelling"]),
    }


_VALIDATOR = jsonschema.Draft202012Validator(case_schema())


def _quick(schema: Mapping[str, Any]) -> Callable[[Any], bool]:
    """Whether a value passes a part of the schema, by `fastjsonschema`'s compiled code:
    about twenty times faster than `jsonschema`, which is asked only when it does not pass,
    for its words. The schema uses only keywords both libraries read alike (type,
    properties, required, additionalProperties, items, enum, const, pattern, lengths and
    bounds); `tests/test_casefile.py` holds the two to the same answers."""
    check = schema_check(dict(schema))
    return lambda value: check(value) is None


_PASSES = _quick(case_schema())


# --- messages --------------------------------------------------------------------------

def field_path(parts: Sequence[str | int]) -> str:
    out = ""
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "the top level"


def _describe(value: Any) -> str:
    if isinstance(value, str):
        return f"the text {json.dumps(value)}"
    if isinstance(value, bool):
        return f"{str(value).lower()}"
    if value is None:
        return "null"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    return json.dumps(value)


_TYPE_WORDS = {"integer": "a whole number", "number": "a number", "string": "text",
               "boolean": "true or false", "object": "an object", "array": "a list",
               "null": "null"}


def _schema_message(error: ValidationError) -> str:
    where = field_path(list(error.absolute_path))
    v = error.validator
    if v == "additionalProperties":
        allowed = sorted(error.schema.get("properties", {}))
        extra = sorted(set(error.instance) - set(allowed))
        return (f"{where} has the unknown key {json.dumps(extra[0])}; check its spelling "
                f"(allowed keys: {', '.join(allowed)})")
    if v == "required":
        missing = re.findall(r"'([^']+)' is a required property", error.message)
        name = missing[0] if missing else error.message
        full = field_path([*error.absolute_path, name])
        return f"{full} is missing; it is required"
    if v == "type":
        types = error.validator_value if isinstance(error.validator_value, list) else [
            error.validator_value]
        wanted = " or ".join(_TYPE_WORDS.get(str(t), str(t)) for t in types)
        return f"{where} must be {wanted}, not {_describe(error.instance)}"
    if v in ("enum", "const"):
        options = error.validator_value if v == "enum" else [error.validator_value]
        shown = ", ".join(str(o) for o in options if o is not None)
        return f"{where} is {_describe(error.instance)}; it must be one of: {shown}"
    if v in ("minimum", "maximum"):
        lo = error.schema.get("minimum")
        hi = error.schema.get("maximum")
        return (f"{where} is {_describe(error.instance)}, which is not plausible; it must be "
                f"between {lo:g} and {hi:g}")
    if v == "pattern":
        if error.validator_value == _DATE_PATTERN:
            return f"{where} is {_describe(error.instance)}; write dates as YYYY-MM-DD"
        if error.validator_value == SBL_PATTERN:
            return (f"{where} is {_describe(error.instance)}, which is not a tax map number; "
                    "write it like 112.09-1-7.2")
        if error.validator_value == r"\S":
            return f"{where} is blank; fill it in"
        return f"{where} is {_describe(error.instance)}, which is not in the expected form"
    if v in ("minLength", "minItems"):
        return f"{where} is empty; it must have at least {error.validator_value} entry"
    if v in ("maxLength", "maxItems"):
        return f"{where} is too long; at most {error.validator_value} allowed"
    return f"{where}: {error.message}"


def _fail(source: str, message: str) -> CaseFileError:
    return CaseFileError(f"{source}: {message}.")


# --- reading ---------------------------------------------------------------------------

class _Reader:
    def __init__(self, source: str, today: date) -> None:
        self.source = source
        self.today = today

    def fail(self, path: Sequence[str | int], message: str) -> CaseFileError:
        return _fail(self.source, f"{field_path(path)} {message}")

    def date(self, value: Any, path: Sequence[str | int], *, past: bool) -> date | None:
        if value is None:
            return None
        try:
            parsed = date.fromisoformat(value)
        except ValueError:
            raise self.fail(path, f"is {json.dumps(value)}, which is not a real calendar "
                                  "date") from None
        if past and parsed > self.today:
            raise self.fail(path, f"is {parsed.isoformat()}, which is after today "
                                  f"({self.today.isoformat()}); a recorded event cannot be "
                                  "in the future")
        return parsed

    def geometry(self, value: Any, path: Sequence[str | int],
                 allowed: Sequence[str]) -> dict[str, Any] | None:
        if value is None:
            return None
        fault = geometry_fault(value, allowed)
        if fault is not None:
            raise self.fail([*path, *fault[0]], fault[1])
        return {"type": value["type"], "coordinates": value["coordinates"]}

    def read(self, doc: Mapping[str, Any]) -> Case:
        p = doc["parcel"]
        parcel = Parcel(
            sbl=p["sbl"].strip(), municipality=p["municipality"].strip(),
            site_address=p["site_address"].strip(), owner_name=p["owner_name"].strip(),
            owner_mailing_address=tuple(line.strip() for line in p["owner_mailing_address"]),
            owner_phone=p.get("owner_phone"), owner_email=p.get("owner_email"),
            renters=tuple(Renter(name=r["name"], mailing_address=tuple(
                r.get("mailing_address", ())), phone=r.get("phone"), email=r.get("email"))
                for r in p.get("renters", ())),
            longitude=p.get("longitude"), latitude=p.get("latitude"),
        )
        if (parcel.longitude is None) != (parcel.latitude is None):
            raise self.fail(["parcel"], "has only one of longitude and latitude; give both "
                                        "or neither")
        d = doc["dwelling"]
        dwelling = Dwelling(
            bedrooms=d["bedrooms"], living_area_sqft=d["living_area_sqft"],
            building_area_sqft=d.get("building_area_sqft"),
            ahj_design_bedrooms=d.get("ahj_design_bedrooms"),
            ahj_design_by=d.get("ahj_design_by"),
            ahj_design_date=self.date(d.get("ahj_design_date"),
                                      ["dwelling", "ahj_design_date"], past=True),
            ahj_design_reason=d.get("ahj_design_reason"),
            garbage_grinder=d.get("garbage_grinder"),
        )
        if (dwelling.building_area_sqft is not None
                and dwelling.building_area_sqft < dwelling.living_area_sqft):
            raise self.fail(["dwelling", "building_area_sqft"],
                            f"({dwelling.building_area_sqft:g} sq ft) is smaller than "
                            f"living_area_sqft ({dwelling.living_area_sqft:g} sq ft); the "
                            "building's aggregate area includes its living space")
        return Case(
            parcel=parcel,
            dwelling=dwelling,
            proposed_work=self._proposed(doc.get("proposed_work")),
            site=self._site(doc.get("site")),
            system=None if doc.get("system") is None else SystemRecord(**{
                k: doc["system"].get(k) for k in ("stamped_as_built", "as_built_reference",
                                                  "installed_year", "description")}),
            components=tuple(self._component(c, i)
                             for i, c in enumerate(doc.get("components", ()))),
            etu=self._etu(doc.get("etu")),
            holding_tank_service=self._holding(doc.get("holding_tank_service")),
            observations=None if doc.get("observations") is None else Observations(
                absorption_area_encroachments=tuple(
                    doc["observations"].get("absorption_area_encroachments", ())),
                clear_water_connections=tuple(
                    doc["observations"].get("clear_water_connections", ()))),
            ahj=self._ahj(doc.get("ahj")),
            notice=self._notice(doc.get("notice")),
            inspection=self._inspection(doc.get("inspection")),
        )

    def _proposed(self, w: Mapping[str, Any] | None) -> ProposedWork | None:
        if w is None:
            return None
        return ProposedWork(conveyance=w.get("conveyance"), change_of_use=w.get("change_of_use"),
                            bedrooms=w.get("bedrooms"),
                            living_area_sqft=w.get("living_area_sqft"),
                            work_area_sqft=w.get("work_area_sqft"))

    def _site(self, s: Mapping[str, Any] | None) -> Site | None:
        if s is None:
            return None
        distance = s.get("lake_distance_ft")
        method = s.get("lake_distance_method")
        if (distance is None) != (method is None):
            missing = "lake_distance_method" if method is None else "lake_distance_ft"
            raise self.fail(["site", missing], "is missing; a field measurement of the lake "
                                               "distance needs both the distance and the method")
        features = []
        for i, f in enumerate(s.get("features", ())):
            path: list[str | int] = ["site", "features", i, "geometry"]
            geometry = self.geometry(f["geometry"], path, SITE_FEATURE_GEOMETRIES)
            assert geometry is not None
            features.append(SiteFeature(
                kind=SiteFeatureKind(f["kind"]), geometry=geometry,
                capture_method=None if f.get("capture_method") is None else CaptureMethod(
                    f["capture_method"]),
                capture_accuracy_ft=f.get("capture_accuracy_ft"), note=f.get("note")))
        return Site(
            absorption_area_capture=_capture(s.get("absorption_area_capture")),
            holding_tank_capture=_capture(s.get("holding_tank_capture")),
            absorption_area=self.geometry(s.get("absorption_area"), ["site", "absorption_area"],
                                          ("Polygon", "MultiPolygon")),
            holding_tank=self.geometry(s.get("holding_tank"), ["site", "holding_tank"],
                                       ("Point", "Polygon")),
            lake_distance_ft=distance,
            lake_distance_method=None if method is None else LakeDistanceMethod(method),
            features=tuple(features),
        )

    def _component(self, c: Mapping[str, Any], index: int) -> Component:
        kind = ComponentKind(c["kind"])
        details: dict[str, DetailValue] = {}
        for spec in COMPONENT_DETAILS:
            value = c.get(spec.name)
            if value is None:
                continue
            if kind not in spec.kinds:
                raise self.fail(["components", index, spec.name],
                                f"does not apply to a {kind.value}; it is recorded for: "
                                + ", ".join(sorted(k.value for k in spec.kinds)))
            if spec.type is FieldType.DATE:
                when = self.date(value, ["components", index, spec.name], past=True)
                assert when is not None
                value = when
            details[spec.name] = value
        return Component(kind=kind, condition=Condition(c["condition"]),
                         defects=tuple(c.get("defects", ())), note=c.get("note"),
                         details=details,
                         geometry=self.geometry(c.get("geometry"), ["components", index,
                                                                    "geometry"],
                                                COMPONENT_GEOMETRIES))

    def _etu(self, e: Mapping[str, Any] | None) -> EtuService | None:
        if e is None:
            return None
        inspections = []
        for i, item in enumerate(e.get("inspections", ())):
            base: list[str | int] = ["etu", "inspections", i]
            done = self.date(item["date"], [*base, "date"], past=True)
            received = self.date(item.get("report_received"), [*base, "report_received"],
                                 past=True)
            assert done is not None
            if received is not None and received < done:
                raise self.fail([*base, "report_received"],
                                f"({received}) is before the inspection date ({done})")
            inspections.append(EtuInspection(date=done, report_received=received))
        return EtuService(service_contract=e.get("service_contract"),
                          manufacturer_interval_months=e.get("manufacturer_interval_months"),
                          provider=e.get("provider"), inspections=tuple(inspections))

    def _holding(self, h: Mapping[str, Any] | None) -> HoldingTankService | None:
        if h is None:
            return None
        pump_outs = []
        for i, item in enumerate(h.get("pump_outs", ())):
            when = self.date(item["date"], ["holding_tank_service", "pump_outs", i, "date"],
                             past=True)
            assert when is not None
            pump_outs.append(PumpOut(date=when, record_received=item["record_received"],
                                     volume_gal=item.get("volume_gal")))
        return HoldingTankService(hauler_contract=h.get("hauler_contract"),
                                  hauler_name=h.get("hauler_name"), pump_outs=tuple(pump_outs))

    def _ahj(self, a: Mapping[str, Any] | None) -> AhjDetermination | None:
        if a is None:
            return None
        factors = [FactorFinding(factor=f["factor"], finding=f["finding"])
                   for f in a.get("factors_weighed", ())]
        letters = [f.factor for f in factors]
        if len(set(letters)) != len(letters):
            raise self.fail(["ahj", "factors_weighed"], "names a factor twice; give one "
                                                        "finding per factor")
        if a.get("waiver_granted") and not a.get("waiver_description"):
            raise self.fail(["ahj", "waiver_description"],
                            "is missing; a granted local waiver must say what it waives")
        return AhjDetermination(
            greatest_extent_possible=a.get("greatest_extent_possible"),
            waiver_granted=a.get("waiver_granted"),
            waiver_description=a.get("waiver_description"),
            factors_weighed=tuple(sorted(factors, key=lambda f: f.factor)),
            determined_by=a.get("determined_by"),
            determined_on=self.date(a.get("determined_on"), ["ahj", "determined_on"],
                                    past=True),
            permit_number=a.get("permit_number"),
            permit_issued_on=self.date(a.get("permit_issued_on"), ["ahj", "permit_issued_on"],
                                       past=True))

    def _notice(self, n: Mapping[str, Any] | None) -> NoticeDeadlines | None:
        if n is None:
            return None
        permit_by = self.date(n.get("permit_by"), ["notice", "permit_by"], past=False)
        complete_by = self.date(n.get("complete_by"), ["notice", "complete_by"], past=False)
        if permit_by and complete_by and complete_by < permit_by:
            raise self.fail(["notice", "complete_by"],
                            f"({complete_by}) is before notice.permit_by ({permit_by}); the "
                            "work cannot be due before its permit")
        return NoticeDeadlines(permit_by=permit_by, complete_by=complete_by)

    def _inspection(self, i: Mapping[str, Any] | None) -> Inspection | None:
        if i is None:
            return None
        when = self.date(i["date"], ["inspection", "date"], past=True)
        assert when is not None
        return Inspection(
            date=when, inspector=i["inspector"].strip(), reason=InspectionReason(i["reason"]),
            failure_evidence=tuple(i.get("failure_evidence", ())),
            inspector_certification=i.get("inspector_certification"),
            weather=i.get("weather"),
            occupancy=None if i.get("occupancy") is None else Occupancy(i["occupancy"]),
            tests=tuple(FieldTest(kind=TestKind(t["kind"]), result=TestResult(t["result"]),
                                  volume_gal=t.get("volume_gal"),
                                  duration_min=t.get("duration_min"), note=t.get("note"))
                        for t in i.get("tests", ())),
            note=i.get("note"),
        )


def _capture(c: Mapping[str, Any] | None) -> Capture | None:
    if c is None:
        return None
    return Capture(method=None if c.get("method") is None else CaptureMethod(c["method"]),
                   accuracy_ft=c.get("accuracy_ft"))


def _capture_json(c: Capture | None) -> dict[str, Any] | None:
    if c is None:
        return None
    return _prune({"method": c.method, "accuracy_ft": c.accuracy_ft})


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
        raise _fail(source, f"is not valid JSON (line {exc.lineno}, column {exc.colno}: "
                            f"{exc.msg})") from None
    except ValueError as exc:
        raise _fail(source, str(exc)) from None
    return parse_document(doc, source=source, today=today)


def parse_document(doc: Any, *, source: str, today: date) -> Case:
    if not isinstance(doc, dict):
        raise _fail(source, "is not a case file; it must be a JSON object with "
                            f"\"format\": \"{FORMAT}\"")
    try:
        # NaN or an infinity would pass every range check and be stored as nothing
        check_finite(doc)
    except NonFiniteNumber as exc:
        raise _fail(source, str(exc)) from None
    if doc.get("format") != FORMAT:
        found = doc.get("format")
        raise _fail(source, f"format is {_describe(found)}; this app reads "
                            f"\"{FORMAT}\" case files")
    if not _PASSES(doc):
        errors = list(_VALIDATOR.iter_errors(doc))
        if errors:
            raise _fail(source, _problems_message(errors))
    return _Reader(source, today).read(doc)


# A case file with many problems is told the first this many of them, so each can be fixed
# in one go; the rest are counted.
SHOWN_PROBLEMS = 20


def _problems_message(errors: list[ValidationError]) -> str:
    """Every problem the schema finds, the most telling first, then in the file's order."""
    first = best_match(errors)
    assert first is not None
    rest = sorted((e for e in errors if e is not first),
                  key=lambda e: [str(part) for part in e.absolute_path])
    messages = list(dict.fromkeys(_schema_message(e) for e in (first, *rest)))
    if len(messages) == 1:
        return messages[0]
    shown = messages[:SHOWN_PROBLEMS]
    listed = "; ".join(f"({n}) {m}" for n, m in enumerate(shown, start=1))
    more = len(messages) - len(shown)
    tail = f"; and {more} more, shown once these are fixed" if more else ""
    return f"has {len(messages)} problems: {listed}{tail}"


# The most positions one site feature or component outline may have: a real absorption
# field, property line or shore frontage needs at most a few thousand.
MAX_FEATURE_VERTICES = 10_000
SITE_FEATURE_GEOMETRIES = ("Point", "LineString", "Polygon", "MultiPoint", "MultiLineString",
                           "MultiPolygon")
COMPONENT_GEOMETRIES = ("Point", "LineString", "Polygon")
_DEPTH = {"Point": 0, "LineString": 1, "MultiPoint": 1, "Polygon": 2, "MultiLineString": 2,
          "MultiPolygon": 3}


def geometry_fault(value: Any, allowed: Sequence[str]) -> tuple[list[str | int], str] | None:
    """What is wrong with a case geometry, as (where within it, the reader's words), or
    None: a bare GeoJSON geometry of an allowed type, of finite WGS84 longitude/latitude
    positions, closed polygon rings, at most MAX_FEATURE_VERTICES positions."""
    if not isinstance(value, dict):
        return [], f"must be a GeoJSON geometry (an object), not {_describe(value)}"
    gtype = value.get("type")
    if gtype not in allowed:
        return [], (f"is a GeoJSON {json.dumps(gtype)[:80]}; it must be one of: "
                    f"{', '.join(allowed)}")
    if set(value) - {"type", "coordinates", "bbox"}:
        extra = sorted(set(value) - {"type", "coordinates", "bbox"})[0]
        return [], (f"has the unknown key {json.dumps(extra)[:80]}; give a bare GeoJSON "
                    "geometry (type and coordinates)")
    kind = str(gtype)
    return _positions_fault(value.get("coordinates"), _DEPTH[kind], ["coordinates"], kind, [0])


def _positions_fault(node: Any, depth: int, path: list[str | int], gtype: str,
                     count: list[int]) -> tuple[list[str | int], str] | None:
    if depth == 0:
        if (not isinstance(node, list) or len(node) not in (2, 3)
                or not all(isinstance(c, int | float) and not isinstance(c, bool)
                           and math.isfinite(c) for c in node)):
            return path, "must be a position [longitude, latitude]"
        lon, lat = node[0], node[1]
        if not (-180 <= lon <= 180 and -90 <= lat <= 90):
            return path, (f"is [{lon}, {lat}], which is not a WGS84 longitude/latitude; case "
                          "geometry must be GeoJSON in WGS84 (longitude first)")
        count[0] += 1
        if count[0] > MAX_FEATURE_VERTICES:
            return path, (f"has more than {MAX_FEATURE_VERTICES:,} positions; a site feature "
                          f"or component has at most {MAX_FEATURE_VERTICES:,}")
        return None
    if not isinstance(node, list) or not node:
        return path, f"must be a non-empty list of coordinates for a {gtype}"
    for i, child in enumerate(node):
        fault = _positions_fault(child, depth - 1, [*path, i], gtype, count)
        if fault is not None:
            return fault
    if (gtype in ("Polygon", "MultiPolygon") and depth == 1
            and (len(node) < 4 or node[0] != node[-1])):
        return path, ("is not a closed ring; a polygon ring needs at least four positions "
                      "and must end where it starts")
    return None


# Each field's checks, made once per part of the schema (making them costs far more than
# checking a value); the part is kept with them, so that its id is never reused.
_FIELD_CHECKS: dict[int, tuple[Mapping[str, Any], Callable[[Any], bool], Any]] = {}


def _field_checks(schema: Mapping[str, Any]) -> tuple[Callable[[Any], bool], Any]:
    found = _FIELD_CHECKS.get(id(schema))
    if found is None or found[0] is not schema:
        found = _FIELD_CHECKS[id(schema)] = (schema, _quick(schema),
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
        return name + _schema_message(first).removeprefix(field_path([]))
    if schema.get("pattern") == _DATE_PATTERN and isinstance(value, str):
        try:
            date.fromisoformat(value)
        except ValueError:
            return f"{name} is {json.dumps(value)}, which is not a real calendar date"
    return None


MAX_CASE_FILE_BYTES = 50 * 1024**2


def read_file(path: Path, *, today: date) -> Case:
    try:
        raw = read_regular_file(path, limit=MAX_CASE_FILE_BYTES, what="case file")
    except FileNotFoundError:
        raise CaseFileError(f"{path}: no such case file.") from None
    except UnreadableFile as exc:
        raise CaseFileError(str(exc)) from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise CaseFileError(f"{path}: is not UTF-8 text (byte {exc.start}); save the case "
                            "file as UTF-8 JSON.") from None
    return parse_text(text, source=str(path), today=today)


# --- writing ---------------------------------------------------------------------------

def _prune(obj: dict[str, Any]) -> dict[str, Any]:
    """Drop the keys that are not recorded (None); lists stay, empty or not."""
    return {k: v for k, v in obj.items() if v is not None}


def _json_value(value: Any) -> Any:
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float):
        return plain_number(value)
    return value


def to_document(case: Case) -> dict[str, Any]:
    """The canonical case file of a case: contract key order, no null keys."""
    p = case.parcel
    doc: dict[str, Any] = {"format": FORMAT, "parcel": _prune({
        "sbl": p.sbl, "municipality": p.municipality, "site_address": p.site_address,
        "owner_name": p.owner_name, "owner_mailing_address": list(p.owner_mailing_address),
        "owner_phone": p.owner_phone, "owner_email": p.owner_email,
        "renters": [_prune({"name": r.name, "mailing_address": list(r.mailing_address),
                            "phone": r.phone, "email": r.email}) for r in p.renters] or None,
        "longitude": p.longitude, "latitude": p.latitude,
    })}
    if case.dwelling is not None:
        d = case.dwelling
        doc["dwelling"] = _prune({
            "bedrooms": d.bedrooms, "living_area_sqft": plain_number(d.living_area_sqft),
            "building_area_sqft": None if d.building_area_sqft is None else plain_number(
                d.building_area_sqft),
            "ahj_design_bedrooms": d.ahj_design_bedrooms, "ahj_design_by": d.ahj_design_by,
            "ahj_design_date": _json_value(d.ahj_design_date),
            "ahj_design_reason": d.ahj_design_reason, "garbage_grinder": d.garbage_grinder,
        })
    if case.proposed_work is not None:
        w = case.proposed_work
        doc["proposed_work"] = _prune({k: _json_value(getattr(w, k)) for k in (
            "conveyance", "change_of_use", "bedrooms", "living_area_sqft", "work_area_sqft")})
    if case.site is not None:
        s = case.site
        doc["site"] = _prune({
            "absorption_area": s.absorption_area, "holding_tank": s.holding_tank,
            "absorption_area_capture": _capture_json(s.absorption_area_capture),
            "holding_tank_capture": _capture_json(s.holding_tank_capture),
            "lake_distance_ft": None if s.lake_distance_ft is None else plain_number(
                s.lake_distance_ft),
            "lake_distance_method": s.lake_distance_method,
            "features": [_prune({"kind": f.kind.value, "geometry": f.geometry,
                                 "capture_method": f.capture_method,
                                 "capture_accuracy_ft": f.capture_accuracy_ft,
                                 "note": f.note}) for f in s.features] or None,
        })
    if case.system is not None:
        doc["system"] = _prune({k: getattr(case.system, k) for k in (
            "stamped_as_built", "as_built_reference", "installed_year", "description")})
    doc["components"] = [
        _prune({"kind": c.kind.value, "condition": c.condition.value,
                "defects": list(c.defects), "note": c.note,
                **{name: _json_value(value) for name, value in c.details.items()},
                "geometry": c.geometry})
        for c in case.components]
    if case.etu is not None:
        e = case.etu
        doc["etu"] = _prune({
            "service_contract": e.service_contract,
            "manufacturer_interval_months": e.manufacturer_interval_months,
            "provider": e.provider,
            "inspections": [_prune({"date": i.date.isoformat(),
                                    "report_received": _json_value(i.report_received)})
                            for i in e.inspections]})
    if case.holding_tank_service is not None:
        h = case.holding_tank_service
        doc["holding_tank_service"] = _prune({
            "hauler_contract": h.hauler_contract, "hauler_name": h.hauler_name,
            "pump_outs": [_prune({"date": po.date.isoformat(),
                                  "record_received": po.record_received,
                                  "volume_gal": _json_value(po.volume_gal)})
                          for po in h.pump_outs]})
    if case.observations is not None:
        o = case.observations
        doc["observations"] = {
            "absorption_area_encroachments": list(o.absorption_area_encroachments),
            "clear_water_connections": list(o.clear_water_connections)}
    if case.ahj is not None:
        a = case.ahj
        doc["ahj"] = _prune({
            "greatest_extent_possible": a.greatest_extent_possible,
            "waiver_granted": a.waiver_granted, "waiver_description": a.waiver_description,
            "factors_weighed": [{"factor": f.factor, "finding": f.finding}
                                for f in a.factors_weighed] or None,
            "determined_by": a.determined_by, "determined_on": _json_value(a.determined_on),
            "permit_number": a.permit_number,
            "permit_issued_on": _json_value(a.permit_issued_on)})
    if case.notice is not None:
        doc["notice"] = _prune({"permit_by": _json_value(case.notice.permit_by),
                                "complete_by": _json_value(case.notice.complete_by)})
    if case.inspection is not None:
        i = case.inspection
        doc["inspection"] = _prune({
            "date": i.date.isoformat(), "inspector": i.inspector, "reason": i.reason.value,
            "failure_evidence": list(i.failure_evidence),
            "inspector_certification": i.inspector_certification, "weather": i.weather,
            "occupancy": i.occupancy,
            "tests": [_prune({"kind": t.kind.value, "result": t.result.value,
                              "volume_gal": _json_value(t.volume_gal),
                              "duration_min": _json_value(t.duration_min), "note": t.note})
                      for t in i.tests] or None,
            "note": i.note})
    return doc


def dumps(case: Case) -> str:
    return json.dumps(to_document(case), indent=2, ensure_ascii=False) + "\n"


def problem(case: Case, *, source: str, today: date) -> str | None:
    """What the case-file reader would say of this case, or None if it reads cleanly."""
    try:
        parse_document(json.loads(json.dumps(to_document(case))), source=source, today=today)
    except CaseFileError as exc:
        return str(exc)
    return None


def new_problem(before: Case, after: Case, *, source: str, today: date) -> str | None:
    """The reader's complaint about `after` if an edit from `before` made it read worse.

    A record may hold less than a case file needs (a parcel from the assessment roll has no
    dwelling yet); an edit of something else is not refused for what it did not cause."""
    found = problem(after, source=source, today=today)
    if found is None or found == problem(before, source=source, today=today):
        return None
    return found
