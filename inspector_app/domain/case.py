"""One parcel, its dwelling, its system and one inspection: the case.

These values are what the case file carries and what the rules read. `None` means "not
recorded", never zero or false.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from datetime import date as Date  # fields named "date" shadow the type
from typing import Any

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


@dataclass(frozen=True, kw_only=True)
class Renter:
    name: str
    mailing_address: tuple[str, ...] = ()
    phone: str | None = None
    email: str | None = None


@dataclass(frozen=True, kw_only=True)
class Parcel:
    sbl: str
    municipality: str
    site_address: str
    owner_name: str
    owner_mailing_address: tuple[str, ...]
    owner_phone: str | None = None
    owner_email: str | None = None
    renters: tuple[Renter, ...] = ()
    longitude: float | None = None
    latitude: float | None = None


@dataclass(frozen=True, kw_only=True)
class Dwelling:
    bedrooms: int
    living_area_sqft: float
    building_area_sqft: float | None = None
    ahj_design_bedrooms: int | None = None
    ahj_design_by: str | None = None
    ahj_design_date: date | None = None
    ahj_design_reason: str | None = None
    garbage_grinder: bool | None = None


@dataclass(frozen=True, kw_only=True)
class ProposedWork:
    conveyance: bool | None = None
    change_of_use: bool | None = None
    bedrooms: int | None = None
    living_area_sqft: float | None = None
    work_area_sqft: float | None = None


@dataclass(frozen=True, kw_only=True)
class SiteFeature:
    kind: SiteFeatureKind
    geometry: GeoJSON
    capture_method: CaptureMethod | None = None
    capture_accuracy_ft: float | None = None
    note: str | None = None


@dataclass(frozen=True, kw_only=True)
class Capture:
    """How a geometry was captured and how well."""

    method: CaptureMethod | None = None
    accuracy_ft: float | None = None


@dataclass(frozen=True, kw_only=True)
class Site:
    absorption_area: GeoJSON | None = None
    holding_tank: GeoJSON | None = None
    absorption_area_capture: Capture | None = None
    holding_tank_capture: Capture | None = None
    lake_distance_ft: float | None = None
    lake_distance_method: LakeDistanceMethod | None = None
    features: tuple[SiteFeature, ...] = ()


@dataclass(frozen=True, kw_only=True)
class SystemRecord:
    """What is on file about the system as a whole."""

    stamped_as_built: bool | None = None
    as_built_reference: str | None = None
    installed_year: int | None = None
    description: str | None = None


@dataclass(frozen=True, kw_only=True)
class Component:
    kind: ComponentKind
    condition: Condition
    defects: tuple[str, ...] = ()
    note: str | None = None
    details: dict[str, DetailValue] = field(default_factory=dict)
    geometry: GeoJSON | None = None


@dataclass(frozen=True, kw_only=True)
class EtuInspection:
    date: Date
    report_received: Date | None = None


@dataclass(frozen=True, kw_only=True)
class EtuService:
    service_contract: bool | None = None
    manufacturer_interval_months: int | None = None
    provider: str | None = None
    inspections: tuple[EtuInspection, ...] = ()


@dataclass(frozen=True, kw_only=True)
class PumpOut:
    date: Date
    record_received: bool
    volume_gal: float | None = None


@dataclass(frozen=True, kw_only=True)
class HoldingTankService:
    hauler_contract: bool | None = None
    hauler_name: str | None = None
    pump_outs: tuple[PumpOut, ...] = ()


@dataclass(frozen=True, kw_only=True)
class Observations:
    absorption_area_encroachments: tuple[str, ...] = ()
    clear_water_connections: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class FactorFinding:
    """The AHJ's finding on one § 202-7 B(1) factor, (a) to (e)."""

    factor: str
    finding: str


@dataclass(frozen=True, kw_only=True)
class AhjDetermination:
    greatest_extent_possible: bool | None = None
    waiver_granted: bool | None = None
    waiver_description: str | None = None
    factors_weighed: tuple[FactorFinding, ...] = ()
    determined_by: str | None = None
    determined_on: Date | None = None
    permit_number: str | None = None  # § 202-7 B(3): the permit given with the acknowledgement
    permit_issued_on: Date | None = None


@dataclass(frozen=True, kw_only=True)
class NoticeDeadlines:
    permit_by: date | None = None
    complete_by: date | None = None


@dataclass(frozen=True, kw_only=True)
class FieldTest:
    kind: TestKind
    result: TestResult
    volume_gal: float | None = None
    duration_min: float | None = None
    note: str | None = None


@dataclass(frozen=True, kw_only=True)
class Inspection:
    date: Date
    inspector: str
    reason: InspectionReason
    failure_evidence: tuple[str, ...] = ()
    inspector_certification: str | None = None
    weather: str | None = None
    occupancy: Occupancy | None = None
    tests: tuple[FieldTest, ...] = ()
    note: str | None = None


@dataclass(frozen=True, kw_only=True)
class Case:
    parcel: Parcel
    dwelling: Dwelling | None = None
    proposed_work: ProposedWork | None = None
    site: Site | None = None
    system: SystemRecord | None = None
    components: tuple[Component, ...] = ()
    etu: EtuService | None = None
    holding_tank_service: HoldingTankService | None = None
    observations: Observations | None = None
    ahj: AhjDetermination | None = None
    notice: NoticeDeadlines | None = None
    inspection: Inspection | None = None
