"""Case builders for rule tests: a plain acceptable case, changed one aspect at a time."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from typing import Any

from inspector_app.domain.case import (
    Case,
    Component,
    Dwelling,
    Inspection,
    Parcel,
    Site,
)
from inspector_app.domain.jurisdiction import Jurisdiction, parse_jurisdiction
from inspector_app.domain.vocabulary import (
    ComponentKind,
    Condition,
    InspectionReason,
    LakeDistanceMethod,
)
from inspector_app.paths import resource

AS_OF = date(2026, 11, 25)


def jurisdiction(**changes: Any) -> Jurisdiction:
    path = resource("jurisdictions", "town-of-canandaigua-ch202.toml")
    j = parse_jurisdiction(path.read_text("utf-8"), source=str(path))
    return replace(j, **changes) if changes else j


def component(kind: str, condition: str = "acceptable", **details: Any) -> Component:
    return Component(kind=ComponentKind(kind), condition=Condition(condition), details=details)


def case(*, bedrooms: int = 3, living: float = 1800, building: float | None = None,
         lake_ft: float | None = 150.0, components: tuple[Component, ...] | None = None,
         **changes: Any) -> Case:
    base = Case(
        parcel=Parcel(sbl="112.09-1-7.2", municipality="Town of Canandaigua",
                      site_address="5150 County Road 16", owner_name="Jane Roe",
                      owner_mailing_address=("17 Birch Hollow Lane", "Pittsford, NY 14534")),
        dwelling=Dwelling(bedrooms=bedrooms, living_area_sqft=living,
                          building_area_sqft=building),
        site=None if lake_ft is None else Site(
            lake_distance_ft=lake_ft, lake_distance_method=LakeDistanceMethod.TAPE),
        components=components if components is not None else (
            component("septic_tank", capacity_gal=1250), component("distribution_box"),
            component("absorption_area")),
        inspection=Inspection(date=date(2026, 11, 20), inspector="K. Olmsted",
                              reason=InspectionReason.CONVEYANCE),
    )
    return replace(base, **changes)


def as_recorded(case: Case) -> Case:
    """A case without what only the records know: its inspection's record id (a case
    built here, or read from a file without it, has none)."""
    if case.inspection is None or case.inspection.id is None:
        return case
    return replace(case, inspection=replace(case.inspection, id=None))
