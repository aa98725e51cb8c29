"""One parcel, its dwelling, its system and one inspection: the case.

These values are what the case file carries and what the rules read. `None` means "not
recorded", never zero or false. Each field is declared here once, with its words, bounds
and who may write it (`field_spec.declare`); `registry.py` derives the rest from these
lines.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from datetime import date as Date  # fields named "date" shadow the type
from typing import Any

from .field_spec import (
    DATE_OR_TIME_PATTERN,
    EMAIL_PATTERN,
    LOCAL_TIME_PATTERN,
    RECORD_ID,
    SBL_PATTERN,
    SHA256_PATTERN,
    Editor,
    Text,
    Writer,
    declare,
    declare_many,
    record,
)
from .vocabulary import (
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

GeoJSON = dict[str, Any]
DetailValue = str | int | float | bool | date

MAX_BEDROOMS = 50
MAX_AREA_SQFT = 100_000
MAX_LAKE_DISTANCE_FT = 100_000
MAX_PERMIT_NUMBER = 60  # characters of a building permit's number
MAX_ACCURACY_FT = 10_000
# The most positions one site feature or component outline may have: a real absorption
# field, property line or shore frontage needs at most a few thousand.
MAX_FEATURE_VERTICES = 10_000
SITE_FEATURE_GEOMETRIES = ("Point", "LineString", "Polygon", "MultiPoint", "MultiLineString",
                           "MultiPolygon")
COMPONENT_GEOMETRIES = ("Point", "LineString", "Polygon")


@record("Renter", table="renters")
@dataclass(frozen=True, kw_only=True)
class Renter:
    name: str = declare("Name", text=Text.NAME)
    mailing_address: tuple[str, ...] = declare_many("Mailing address", max_items=6,
                                                    contact=True)
    phone: str | None = declare("Phone", default=None, text=Text.PLAIN, max_length=40,
                                contact=True)
    email: str | None = declare("E-mail", default=None, text=Text.PLAIN, max_length=200,
                                contact=True)


@record("Parcel", table="parcels")
@dataclass(frozen=True, kw_only=True)
class Parcel:
    sbl: str = declare("SBL (tax map number)", text=Text.PLAIN, pattern=SBL_PATTERN,
                       max_length=60, strip=True, writers=Writer.OFFICE)
    municipality: str = declare("Municipality", text=Text.NAME, strip=True)
    site_address: str = declare("Site address", text=Text.NAME, strip=True)
    owner_name: str = declare("Owner", text=Text.NAME, strip=True)
    owner_mailing_address: tuple[str, ...] = declare("Owner's mailing address", min_items=1,
                                                     max_items=6, strip=True,
                                                     editor=Editor.LINES)
    owner_phone: str | None = declare("Owner's phone", default=None, text=Text.PLAIN,
                                      max_length=40, contact=True)
    owner_email: str | None = declare("Owner's e-mail", default=None, text=Text.PLAIN,
                                      max_length=200, pattern=EMAIL_PATTERN, contact=True)
    renters: tuple[Renter, ...] = declare_many("Renters to notify", max_items=20,
                                               omit_empty=True)
    longitude: float | None = declare("Longitude", default=None, unit="°", minimum=-180,
                                      maximum=180, editor=Editor.NONE)
    latitude: float | None = declare("Latitude", default=None, unit="°", minimum=-90,
                                     maximum=90, editor=Editor.NONE)


@record("Dwelling", table="dwellings")
@dataclass(frozen=True, kw_only=True)
class Dwelling:
    bedrooms: int = declare("Bedrooms", minimum=0, maximum=MAX_BEDROOMS)
    living_area_sqft: float = declare("Living area", unit="sq ft", minimum=0,
                                      maximum=MAX_AREA_SQFT)
    building_area_sqft: float | None = declare("Building area", default=None, unit="sq ft",
                                               minimum=0, maximum=MAX_AREA_SQFT)
    ahj_design_bedrooms: int | None = declare("Design bedrooms set by the AHJ", default=None,
                                              minimum=2, maximum=MAX_BEDROOMS)
    ahj_design_by: str | None = declare("AHJ design determination by", default=None,
                                        text=Text.NAME)
    ahj_design_date: date | None = declare("AHJ design determination date", default=None)
    ahj_design_reason: str | None = declare("Reason for the AHJ design determination",
                                            default=None)
    garbage_grinder: bool | None = declare("Garbage grinder", default=None)


@record("Proposed work", table="proposed_work")
@dataclass(frozen=True, kw_only=True)
class ProposedWork:
    conveyance: bool | None = declare("Conveyance (sale or transfer)", default=None)
    change_of_use: bool | None = declare("Change of use", default=None)
    bedrooms: int | None = declare("Proposed bedrooms", default=None, minimum=0,
                                   maximum=MAX_BEDROOMS)
    living_area_sqft: float | None = declare("Proposed living area", default=None,
                                             unit="sq ft", minimum=0, maximum=MAX_AREA_SQFT)
    work_area_sqft: float | None = declare("Area of the proposed work", default=None,
                                           unit="sq ft", minimum=0, maximum=MAX_AREA_SQFT)


@record("Site feature", table="site_features")
@dataclass(frozen=True, kw_only=True)
class SiteFeature:
    kind: SiteFeatureKind = declare("Kind", choices=tuple(
        k.value for k in SiteFeatureKind
        if k not in (SiteFeatureKind.ABSORPTION_AREA, SiteFeatureKind.HOLDING_TANK)))
    geometry: GeoJSON = declare("Location on the map", geometries=SITE_FEATURE_GEOMETRIES)
    capture_method: CaptureMethod | None = declare("Captured by", default=None)
    capture_accuracy_ft: float | None = declare("Capture accuracy", default=None, unit="ft",
                                                minimum=0, maximum=MAX_ACCURACY_FT,
                                                plus_minus=True)
    note: str | None = declare("Note", default=None)
    # A well's conditions that change its separations (10 NYCRR Appendix 75-A, Table 2):
    # yes, no, or not known (None). Read for wells only.
    shallow_aquifer: bool | None = declare(
        "Aquifer water enters the well less than 50 ft below grade", default=None)
    drainage_path: bool | None = declare(
        "System upgrade and in the general path of drainage to the well", default=None)


@record("Capture")
@dataclass(frozen=True, kw_only=True)
class Capture:
    """How a geometry was captured and how well."""

    method: CaptureMethod | None = declare("Captured by", default=None)
    accuracy_ft: float | None = declare("Capture accuracy", default=None, unit="ft",
                                        minimum=0, maximum=MAX_ACCURACY_FT, plus_minus=True)


@record("Site")
@dataclass(frozen=True, kw_only=True)
class Site:
    absorption_area: GeoJSON | None = declare("Absorption area on the map", default=None,
                                              geometries=("Polygon", "MultiPolygon"))
    holding_tank: GeoJSON | None = declare("Holding tank on the map", default=None,
                                           geometries=("Point", "Polygon"))
    absorption_area_capture: Capture | None = declare(
        "Absorption area on the map: how it was captured", default=None)
    holding_tank_capture: Capture | None = declare(
        "Holding tank on the map: how it was captured", default=None)
    lake_distance_ft: float | None = declare("Measured distance to the lake line",
                                             default=None, unit="ft", minimum=0,
                                             maximum=MAX_LAKE_DISTANCE_FT)
    lake_distance_method: LakeDistanceMethod | None = declare("Lake distance measured by",
                                                              default=None)
    features: tuple[SiteFeature, ...] = declare_many("Site features", max_items=200,
                                                     omit_empty=True)


@record("System", table="systems")
@dataclass(frozen=True, kw_only=True)
class SystemRecord:
    """What is on file about the system as a whole."""

    stamped_as_built: bool | None = declare("Stamped as-built drawing on file", default=None)
    as_built_reference: str | None = declare("As-built reference", default=None,
                                             text=Text.NAME)
    installed_year: int | None = declare("Year installed", default=None, minimum=1900,
                                         maximum=2100, past_year=True)
    description: str | None = declare("System description", default=None)


@record("Component", table="components")
@dataclass(frozen=True, kw_only=True)
class Component:
    kind: ComponentKind = declare("Component")
    condition: Condition = declare("Condition")
    defects: tuple[str, ...] = declare_many("Defects", max_items=100)
    note: str | None = declare("Note", default=None)
    # each detail is declared in `fields.COMPONENT_DETAILS`, with the kinds it applies to
    details: dict[str, DetailValue] = field(default_factory=dict)
    geometry: GeoJSON | None = declare("Location on the map", default=None,
                                       geometries=COMPONENT_GEOMETRIES, editor=Editor.NONE)


def element_names(kinds: Sequence[ComponentKind | str]) -> list[str]:
    """Components in order, each by its kind and its number among those of its kind
    ("septic_tank#1"): how `attach`, the site map, the form and the report name them."""
    seen: dict[str, int] = {}
    out = []
    for kind in kinds:
        name = kind.value if isinstance(kind, ComponentKind) else kind
        seen[name] = seen.get(name, 0) + 1
        out.append(f"{name}#{seen[name]}")
    return out


@record("ETU inspection", table="etu_reports")
@dataclass(frozen=True, kw_only=True)
class EtuInspection:
    date: Date = declare("Date", column="inspection_date")
    report_received: Date | None = declare("Report received", default=None)
    # as the certified manufacturer's representative's report states it (§ 202-8 A)
    provider_number: str | None = declare("Representative's certification", default=None,
                                          text=Text.NAME, strip=True, writers=Writer.OFFICE)
    provider_name: str | None = declare("Representative", default=None, text=Text.NAME,
                                        writers=Writer.OFFICE)
    unit: str | None = declare("Unit", default=None, text=Text.NAME)
    fully_functional: bool | None = declare("Certified fully functional", default=None)
    service_contract_through: Date | None = declare("Service contract through",
                                                    default=None, future=True)
    document: str | None = declare("Report received as", default=None, text=Text.PLAIN,
                                   pattern=SHA256_PATTERN, writers=Writer.OFFICE,
                                   editor=Editor.NONE)


@record("ETU service", table="etu_services")
@dataclass(frozen=True, kw_only=True)
class EtuService:
    service_contract: bool | None = declare("ETU service contract on file", default=None)
    manufacturer_interval_months: int | None = declare(
        "Manufacturer's inspection interval", default=None, unit="months", minimum=1,
        maximum=60)
    provider: str | None = declare("ETU service provider", default=None, text=Text.NAME)
    inspections: tuple[EtuInspection, ...] = declare_many("ETU inspections", max_items=500)


@record("Pump-out", table="pump_outs")
@dataclass(frozen=True, kw_only=True)
class PumpOut:
    date: Date = declare("Date")
    record_received: bool = declare("Record received")
    volume_gal: float | None = declare("Volume", default=None, unit="gal", minimum=0,
                                       maximum=100_000)
    # as the NYSDEC-permitted hauler's record states it (§ 202-8 B)
    hauler_permit: str | None = declare("Hauler's NYSDEC permit", default=None,
                                        text=Text.NAME, strip=True, writers=Writer.OFFICE)
    hauler_name: str | None = declare("Hauler", default=None, text=Text.NAME,
                                      writers=Writer.OFFICE)
    record_received_on: Date | None = declare("Record received on", default=None)
    document: str | None = declare("Record received as", default=None, text=Text.PLAIN,
                                   pattern=SHA256_PATTERN, writers=Writer.OFFICE,
                                   editor=Editor.NONE)


@record("Holding-tank service", table="holding_tank_services")
@dataclass(frozen=True, kw_only=True)
class HoldingTankService:
    hauler_contract: bool | None = declare("Hauler contract on file", default=None)
    hauler_name: str | None = declare("Hauler", default=None, text=Text.NAME)
    pump_outs: tuple[PumpOut, ...] = declare_many("Pump-outs", max_items=2000)


@record("Site observations", table="site_observations")
@dataclass(frozen=True, kw_only=True)
class Observations:
    absorption_area_encroachments: tuple[str, ...] = declare_many(
        "On the absorption area (encroachments)", max_items=100)
    clear_water_connections: tuple[str, ...] = declare_many("Clear-water connections",
                                                            max_items=100)
    # § 202-8 B: "At no time will sewage discharge from the tank to the surface, ground, or
    # surface water be allowed": where sewage was seen leaving the holding tank.
    holding_tank_discharges: tuple[str, ...] = declare_many(
        "Sewage discharging from the holding tank", max_items=100, omit_empty=True)


@record("Factor weighed")
@dataclass(frozen=True, kw_only=True)
class FactorFinding:
    """The AHJ's finding on one § 202-7 B(1) factor, (a) to (e)."""

    factor: str = declare("Factor", text=Text.PLAIN, choices=("a", "b", "c", "d", "e"))
    finding: str = declare("Finding", min_length=1)


@record("AHJ determination", table="ahj_determinations")
@dataclass(frozen=True, kw_only=True)
class AhjDetermination:
    greatest_extent_possible: bool | None = declare(
        "Design standards met to the greatest extent possible", default=None)
    waiver_granted: bool | None = declare("Local waiver granted", default=None)
    waiver_description: str | None = declare("Local waiver", default=None)
    factors_weighed: tuple[FactorFinding, ...] = declare_many(
        "Factors weighed (§ 202-7 B(1))", max_items=5, omit_empty=True)
    determined_by: str | None = declare("Determined by", default=None, text=Text.NAME)
    determined_on: Date | None = declare("Determined on", default=None)
    # § 202-7 B(3): the permit given with the acknowledgement
    permit_number: str | None = declare("Permit number", default=None, text=Text.NAME,
                                        max_length=MAX_PERMIT_NUMBER)
    permit_issued_on: Date | None = declare("Permit issued on", default=None)


@record("Notice deadlines", table="notices")
@dataclass(frozen=True, kw_only=True)
class NoticeDeadlines:
    permit_by: date | None = declare("Permit due by", default=None, future=True)
    complete_by: date | None = declare("Work to be complete by", default=None, future=True)


# A field test's observations, each what was seen at a moment (the test's own visit or a
# later one): at most this many to a test.
MAX_TEST_OBSERVATIONS = 50
# A dye or hydraulic-load test runs within a day: its end at most this many hours after its
# start, and an observation of it at most MAX_OBSERVED_AFTER_DAYS after its start.
MAX_TEST_HOURS = 24
MAX_OBSERVED_AFTER_DAYS = 366


@record("Test observation")
@dataclass(frozen=True, kw_only=True)
class TestObservation:
    """What was seen of a field test at one moment: at the test or at a later visit."""

    at: str = declare("Observed at", text=Text.PLAIN, pattern=DATE_OR_TIME_PATTERN,
                      max_length=19)
    dye_seen: bool = declare("Dye seen")
    place: GeoJSON | None = declare("Place on the map", default=None, geometries=("Point",))
    note: str | None = declare("Note", default=None)


@record("Field test", table="inspection_tests")
@dataclass(frozen=True, kw_only=True)
class FieldTest:
    kind: TestKind = declare("Kind of test")
    result: TestResult = declare("Result")
    volume_gal: float | None = declare("Volume", default=None, unit="gal", minimum=0,
                                       maximum=10_000)
    duration_min: float | None = declare("Duration", default=None, unit="min", minimum=0,
                                         maximum=10_000)
    note: str | None = declare("Note", default=None)
    # the clock at the site when the test's water began and stopped (the app's timer)
    started_at: str | None = declare("Started at", default=None, text=Text.PLAIN,
                                     pattern=LOCAL_TIME_PATTERN, max_length=19,
                                     editor=Editor.NONE)
    ended_at: str | None = declare("Ended at", default=None, text=Text.PLAIN,
                                   pattern=LOCAL_TIME_PATTERN, max_length=19,
                                   editor=Editor.NONE)
    observations: tuple[TestObservation, ...] = declare_many(
        "Observations", max_items=MAX_TEST_OBSERVATIONS, omit_empty=True)


@record("Inspection", table="inspections")
@dataclass(frozen=True, kw_only=True)
class Inspection:
    date: Date = declare("Inspection date")
    inspector: str = declare("Inspector", text=Text.NAME, strip=True)
    reason: InspectionReason = declare("Reason for the inspection")
    failure_evidence: tuple[str, ...] = declare_many("Failure evidence", max_items=100)
    inspector_certification: str | None = declare("Inspector's certification", default=None,
                                                  text=Text.NAME)
    weather: str | None = declare("Weather", default=None, text=Text.NAME)
    occupancy: Occupancy | None = declare("Occupancy", default=None)
    tests: tuple[FieldTest, ...] = declare_many("Field tests", max_items=20, omit_empty=True)
    note: str | None = declare("Inspection note", default=None)
    # The inspection's record, once stored: an edit changes that inspection (a corrected
    # date included); a case file that names it updates it (`docs/case-file.md`).
    id: str | None = declare("Inspection record", default=None, text=Text.PLAIN,
                             pattern=RECORD_ID, column="id", identity=True,
                             editor=Editor.NONE)


@record("Case")
@dataclass(frozen=True, kw_only=True)
class Case:
    parcel: Parcel = declare("Parcel")
    dwelling: Dwelling | None = declare("Dwelling", default=None, required=True)
    proposed_work: ProposedWork | None = declare("Proposed work", default=None)
    site: Site | None = declare("Site", default=None)
    system: SystemRecord | None = declare("System", default=None)
    components: tuple[Component, ...] = declare_many("Components", max_items=50)
    etu: EtuService | None = declare("ETU service", default=None)
    holding_tank_service: HoldingTankService | None = declare("Holding-tank service",
                                                              default=None)
    observations: Observations | None = declare("Site observations", default=None)
    ahj: AhjDetermination | None = declare("AHJ determination", default=None)
    notice: NoticeDeadlines | None = declare("Notice deadlines", default=None)
    inspection: Inspection | None = declare("Inspection", default=None)
