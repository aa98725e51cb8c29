"""Demo parcels around Canandaigua Lake, in the states an inspector meets.

Every demo parcel is flagged `is_demo`, its SBL starts with 900 (no such tax map section
exists on the lake) and its owner is marked "(demo)", so demo data can never pass for a
real record.
"""

from __future__ import annotations

import gc
import json
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import date, timedelta
from typing import TYPE_CHECKING

from ...domain.case import (
    AhjDetermination,
    Case,
    Component,
    Dwelling,
    EtuInspection,
    EtuService,
    HoldingTankService,
    Inspection,
    NoticeDeadlines,
    Observations,
    Parcel,
    ProposedWork,
    PumpOut,
    Site,
    SiteFeature,
)
from ...domain.vocabulary import (
    CaptureMethod,
    InspectionReason,
    LakeDistanceMethod,
    Occupancy,
    SiteFeatureKind,
)
from ...domain.vocabulary import ComponentKind as K
from ...domain.vocabulary import Condition as C
from ...errors import InputError
from ...paths import resource
from ...storage import measurements
from ...storage.cases import parcel_id_for, save_case
from ...storage.database import page_cache
from ..reference.lot_lines import store_demo_lots
from ..reference.shorelines import active_layer, record_map_measurement
from ..session.session import FIELD

if TYPE_CHECKING:
    from ...geo.placement import PlacedSite
    from ..session.session import Session

DEFAULT_COUNT = 40
_FIRST = ("Jane", "Robert", "Maria", "David", "Susan", "Thomas", "Linda", "James", "Karen",
          "Michael", "Patricia", "William", "Nancy", "Richard", "Ellen", "Joseph", "Carol",
          "Daniel", "Ruth", "Paul")
_LAST = ("Roe", "Whitaker", "Lindqvist", "Okafor", "Brennan", "Castellano", "Hughes",
         "Nakamura", "Fitzgerald", "Moreau", "Delgado", "Sorensen", "Abbott", "Kowalski",
         "Reyes", "Thornton", "Baptiste", "Haldane", "Iverson", "McAllister")
_HOME_TOWNS = ("Pittsford, NY 14534", "Rochester, NY 14618", "Canandaigua, NY 14424",
               "Fairport, NY 14450", "Naples, NY 14512", "Victor, NY 14564",
               "Sarasota, FL 34236", "Buffalo, NY 14222")
_STREETS = ("Birch Hollow Lane", "Elm Street", "Main Street", "Lakeview Terrace",
            "Park Avenue", "Orchard Drive")
_INSPECTORS = ("K. Olmsted (OTN 2217)", "R. Vance (OTN 1983)")

# The states a demo parcel is put in, in turn.
STATES = ("never_inspected", "five_year_overdue", "acceptable_recent", "substandard_beyond",
          "substandard_within", "substandard_within_acknowledged", "failed", "etu_overdue",
          "holding_tank_records_missing", "violations_on_site", "large_house_ahj",
          "proposed_conveyance", "incomplete_unlocated")

_OFFSETS_FT = (35, 60, 95, 120, 150, 180, 199, 240, 320, 450, 700, 1300)


@dataclass(frozen=True)
class _Place:
    municipality: str
    road: str


def _municipality(site: PlacedSite) -> _Place:
    lat = site.latitude
    if site.west_shore:
        if lat > 42.80:
            return _Place("Town of Canandaigua", "County Road 16 (West Lake Road)")
        if lat > 42.72:
            return _Place("Town of South Bristol", "West Lake Road")
        return _Place("Town of Naples", "West Lake Road")
    if lat > 42.87:
        return _Place("City of Canandaigua", "Lakeshore Drive")
    if lat > 42.77:
        return _Place("Town of Gorham", "East Lake Road (NY 364)")
    return _Place("Town of Middlesex", "East Lake Road (NY 364)")


def _years_ago(today: date, years: float) -> date:
    return today - timedelta(days=int(years * 365.25))


def _tank(condition: C = C.ACCEPTABLE, defects: tuple[str, ...] = (), **details: object
          ) -> Component:
    base: dict[str, object] = {"capacity_gal": 1000, "material": "concrete", "compartments": 1,
                               "sludge_depth_in": 10, "scum_depth_in": 3,
                               "inlet_baffle": "present", "outlet_baffle": "present"}
    base.update(details)
    return Component(kind=K.SEPTIC_TANK, condition=condition, defects=defects,
                     details=base)  # type: ignore[arg-type]


def _standard_system(tank: Component, field: C = C.ACCEPTABLE,
                     field_defects: tuple[str, ...] = ()) -> tuple[Component, ...]:
    return (tank,
            Component(kind=K.DISTRIBUTION_BOX, condition=C.ACCEPTABLE,
                      details={"box_level": True, "solids_present": False}),
            Component(kind=K.ABSORPTION_AREA, condition=field, defects=field_defects,
                      details={"absorption_type": "trench", "laterals": 4, "area_sqft": 600}))


# The demo is set in the Town of Canandaigua, whose law the app ships; a few parcels (by
# index, of every 40) lie in towns with no law on file, to show what the app says of them.
HOME_TOWN = "Town of Canandaigua"
ELSEWHERE = {16: "Town of South Bristol", 35: "Town of Gorham"}


def _stretch(lake: dict[str, object], town: str) -> tuple[float, float]:
    """The longest run of the shore (as fractions along it) in the town, trimmed at both
    ends so that sites at any offset stay inside."""
    from ...geo.placement import sites_around

    steps = 400
    fractions = [i / steps for i in range(steps)]
    inside = [_municipality(s).municipality == town
              for s in sites_around(lake, fractions, [199.0] * steps)]
    best, start = (0, 0), None
    for i, yes in enumerate([*inside, False]):
        if yes and start is None:
            start = i
        elif not yes and start is not None:
            best = max(best, (start, i), key=lambda r: r[1] - r[0])
            start = None
    first, end = best
    trim = max(1, (end - first) // 12)
    return (first + trim) / steps, (end - 1 - trim) / steps


def demo_cases(count: int, *, today: date, seed: int = 202) -> Iterator[Case]:
    from ...geo.lots import beside
    from ...geo.placement import sites_around

    rng = random.Random(seed)
    with resource("shorelines", "canandaigua_lake_ne10m_coarse.geojson").open() as f:
        lake = json.load(f)["features"][0]["geometry"]
    stretches = {town: _stretch(lake, town) for town in {HOME_TOWN, *ELSEWHERE.values()}}
    towns = [ELSEWHERE.get(i % 40, HOME_TOWN) for i in range(count)]
    spread = [(i + rng.random() * 0.5) / count for i in range(count)]
    fractions = [stretches[town][0] + (stretches[town][1] - stretches[town][0]) * f
                 for town, f in zip(towns, spread, strict=True)]
    offsets = [rng.choice(_OFFSETS_FT) for _ in range(count)]
    owner, neighbour = _WELL_PAIR
    if neighbour < count and owner < count:  # the neighbour's site beside the well's parcel
        (there,) = sites_around(lake, [fractions[owner]], [offsets[owner]])
        (spot,) = beside(lake, [(there.longitude, there.latitude)], [(_PAIR_FT, 0.0)])
        offsets[neighbour] = offsets[owner]
        fractions[neighbour] = _fraction_at(lake, fractions[owner], offsets[owner], spot)
    sites = sites_around(lake, fractions, offsets)
    wells = _wells(lake, sites)
    for index, (site, offset) in enumerate(zip(sites, offsets, strict=True)):
        case = _demo_case(index, site, offset, STATES[index % len(STATES)], rng, today)
        if index in wells and case.site is not None:
            case = replace(case, site=replace(case.site, features=(wells[index],)))
        yield case


# A few of the first 40 demo parcels have a well on record (by index: where it lies from
# the site's centre, feet along the shore and inland, square to it). The well of index 34
# (900.01-1-35, a holding tank's small lot) lies near its lot line with index 33
# (900.01-1-34), whose site is placed beside it, and within the 100 ft a well keeps from
# 900.01-1-34's absorption area: the neighbour's well its site map and setback checks show.
_WELLS_FT = {3: (0.0, 140.0), 24: (0.0, 140.0), 34: (62.0, -40.0)}
_WELL_PAIR = (34, 33)
_PAIR_FT = 140.0  # parcel 33's site centre from parcel 34's, along the shore
_WELL_CAPTURE = (CaptureMethod.GPS, 5.0)


def _fraction_at(lake: dict[str, object], fraction: float, offset_ft: float,
                 spot: tuple[float, float]) -> float:
    """The fraction along the shore, near `fraction`, of the site at `offset_ft` from the
    lake line nearest to `spot` (longitude, latitude)."""
    from ...geo.crs import lonlat_to_feet
    from ...geo.placement import sites_around

    step = 0.0005
    here, there = sites_around(lake, [fraction, fraction + step], [offset_ft, offset_ft])
    x, y = lonlat_to_feet([here.longitude, there.longitude, spot[0]],
                          [here.latitude, there.latitude, spot[1]])
    dx, dy = float(x[1] - x[0]), float(y[1] - y[0])
    return fraction + step * float((x[2] - x[0]) * dx + (y[2] - y[0]) * dy) / (dx * dx + dy * dy)


def _wells(lake: dict[str, object], sites: list[PlacedSite]) -> dict[int, SiteFeature]:
    """The demo parcels' recorded wells, by index."""
    from ...geo.lots import beside

    chosen = [i for i in sorted(_WELLS_FT) if i < len(sites)]
    spots = beside(lake, [(sites[i].longitude, sites[i].latitude) for i in chosen],
                   [_WELLS_FT[i] for i in chosen])
    method, accuracy = _WELL_CAPTURE
    return {i: SiteFeature(kind=SiteFeatureKind.WELL,
                           geometry={"type": "Point",
                                     "coordinates": [round(lon, 7), round(lat, 7)]},
                           capture_method=method, capture_accuracy_ft=accuracy,
                           note="drilled well (demo)")
            for i, (lon, lat) in zip(chosen, spots, strict=True)}


def _demo_case(index: int, site: PlacedSite, offset_ft: float, state: str,
               rng: random.Random, today: date) -> Case:
    place = _municipality(site)
    owner = f"{rng.choice(_FIRST)} {rng.choice(_LAST)} (demo)"
    seasonal = rng.random() < 0.4
    mailing = ((f"{rng.randint(2, 390)} {rng.choice(_STREETS)}", rng.choice(_HOME_TOWNS))
               if seasonal else (f"{4000 + index * 7 % 5000} {place.road}",
                                 "Canandaigua, NY 14424"))
    parcel = Parcel(
        sbl=f"900.{index // 1000 + 1:02d}-{index // 100 % 10 + 1}-{index % 100 + 1}",
        municipality=place.municipality,
        site_address=f"{4000 + index * 7 % 5000} {place.road}",
        owner_name=owner, owner_mailing_address=mailing,
        owner_phone=f"585-555-{rng.randint(0, 9999):04d}",
        longitude=site.longitude, latitude=site.latitude)
    bedrooms = rng.choice((2, 3, 3, 3, 4, 4, 5))
    living = rng.choice((900, 1150, 1500, 1900, 2300, 2800, 3200))
    dwelling = Dwelling(bedrooms=bedrooms, living_area_sqft=living,
                        building_area_sqft=living + rng.choice((0, 200, 400)))
    measured = Site(absorption_area=site.absorption_area,
                    lake_distance_ft=float(offset_ft) + rng.choice((0.0, 2.5, -2.5)),
                    lake_distance_method=rng.choice(list(LakeDistanceMethod)))
    mapped_only = Site(absorption_area=site.absorption_area)
    inspector = rng.choice(_INSPECTORS)

    def inspection(years: float, reason: InspectionReason = InspectionReason.FIVE_YEAR_CYCLE,
                   evidence: tuple[str, ...] = ()) -> Inspection:
        name, cert = inspector.split(" (")
        return Inspection(date=_years_ago(today, years), inspector=name,
                          inspector_certification=cert.rstrip(")"), reason=reason,
                          failure_evidence=evidence, weather="overcast, 55 °F",
                          occupancy=Occupancy.SEASONAL if seasonal else Occupancy.OCCUPIED)

    case = Case(parcel=parcel, dwelling=dwelling, site=mapped_only)
    builders: dict[str, Callable[[], Case]] = {
        "never_inspected": lambda: case,
        "five_year_overdue": lambda: Case(
            parcel=parcel, dwelling=dwelling,
            site=Site(absorption_area=site.absorption_area, lake_distance_ft=min(offset_ft, 150.0),
                      lake_distance_method=LakeDistanceMethod.TAPE),
            components=_standard_system(_tank()), inspection=inspection(5.6)),
        "acceptable_recent": lambda: Case(
            parcel=parcel, dwelling=dwelling, site=measured,
            components=_standard_system(_tank(capacity_gal=1250)), inspection=inspection(1.5)),
        "substandard_beyond": lambda: Case(
            parcel=parcel, dwelling=dwelling,
            site=Site(absorption_area=site.absorption_area, lake_distance_ft=offset_ft + 260,
                      lake_distance_method=LakeDistanceMethod.SURVEY),
            components=_standard_system(_tank(C.SUBSTANDARD, ("outlet baffle missing",),
                                              outlet_baffle="missing")),
            inspection=inspection(0.3, InspectionReason.CONVEYANCE)),
        "substandard_within": lambda: Case(
            parcel=parcel, dwelling=dwelling,
            site=Site(absorption_area=site.absorption_area, lake_distance_ft=min(offset_ft, 90.0),
                      lake_distance_method=LakeDistanceMethod.TAPE),
            components=_standard_system(_tank(C.SUBSTANDARD, ("tank undersized (750 gal)",),
                                              capacity_gal=750)),
            ahj=AhjDetermination(greatest_extent_possible=False),
            inspection=inspection(0.2, InspectionReason.CONVEYANCE)),
        "substandard_within_acknowledged": lambda: Case(
            parcel=parcel, dwelling=dwelling,
            site=Site(absorption_area=site.absorption_area, lake_distance_ft=min(offset_ft, 70.0),
                      lake_distance_method=LakeDistanceMethod.SURVEY),
            components=_standard_system(_tank(), C.SUBSTANDARD,
                                        ("separation to lake below 100 ft (lot limitation)",)),
            ahj=AhjDetermination(greatest_extent_possible=True),
            inspection=inspection(0.8, InspectionReason.EXPANSION)),
        "failed": lambda: Case(
            parcel=parcel, dwelling=dwelling, site=measured,
            components=_standard_system(_tank(C.SUBSTANDARD, ("inlet baffle damaged",),
                                              inlet_baffle="damaged"),
                                        C.FAILED, ("surface breakout over laterals",)),
            inspection=inspection(0.1, InspectionReason.COMPLAINT,
                                  ("effluent ponding at surface", "dye surfaced in 20 min")),
            notice=NoticeDeadlines(permit_by=today + timedelta(days=45),
                                   complete_by=today + timedelta(days=165))),
        "etu_overdue": lambda: Case(
            parcel=parcel, dwelling=dwelling, site=measured,
            components=(_tank(), Component(kind=K.ENHANCED_TREATMENT_UNIT,
                                           condition=C.ACCEPTABLE,
                                           details={"make_model": "Norweco Singulair 960"}),
                        Component(kind=K.ABSORPTION_AREA, condition=C.ACCEPTABLE)),
            etu=EtuService(service_contract=True, manufacturer_interval_months=6,
                           provider="Finger Lakes Aerobic Service",
                           inspections=(EtuInspection(date=_years_ago(today, 1.4),
                                                      report_received=_years_ago(today, 1.35)),
                                        EtuInspection(date=_years_ago(today, 0.9),
                                                      report_received=None))),
            inspection=inspection(1.0, InspectionReason.ETU_FOLLOW_UP)),
        "holding_tank_records_missing": lambda: Case(
            parcel=parcel, dwelling=dwelling,
            site=Site(holding_tank={"type": "Point",
                                    "coordinates": [site.longitude, site.latitude]},
                      lake_distance_ft=min(offset_ft, 60.0),
                      lake_distance_method=LakeDistanceMethod.TAPE),
            components=(Component(kind=K.HOLDING_TANK, condition=C.ACCEPTABLE,
                                  details={"capacity_gal": 2000, "alarm_tested": True}),),
            holding_tank_service=HoldingTankService(
                hauler_contract=True, hauler_name="Bristol Septic Pumping",
                pump_outs=(PumpOut(date=_years_ago(today, 0.5), record_received=True,
                                   volume_gal=1800),
                           PumpOut(date=_years_ago(today, 0.2), record_received=False))),
            inspection=inspection(0.6)),
        "violations_on_site": lambda: Case(
            parcel=parcel, dwelling=dwelling, site=measured,
            components=_standard_system(_tank()),
            observations=Observations(absorption_area_encroachments=("driveway", "shed"),
                                      clear_water_connections=("roof drains",)),
            inspection=inspection(0.4, InspectionReason.CONVEYANCE)),
        "large_house_ahj": lambda: Case(
            parcel=parcel,
            dwelling=Dwelling(bedrooms=4, living_area_sqft=4600, building_area_sqft=5200),
            site=measured, components=_standard_system(_tank(capacity_gal=1500)),
            inspection=inspection(2.0, InspectionReason.EXPANSION)),
        "proposed_conveyance": lambda: Case(
            parcel=parcel, dwelling=dwelling, site=measured,
            proposed_work=ProposedWork(conveyance=True, bedrooms=bedrooms + 1,
                                       living_area_sqft=living + 600, work_area_sqft=700),
            components=_standard_system(_tank()), inspection=inspection(3.0)),
        "incomplete_unlocated": lambda: Case(
            parcel=parcel, dwelling=dwelling, site=mapped_only,
            components=(_tank(),
                        Component(kind=K.DISTRIBUTION_BOX, condition=C.NOT_LOCATED,
                                  note="not found after probing 30 ft down-gradient")),
            inspection=inspection(0.05, InspectionReason.CONVEYANCE)),
    }
    return builders[state]()


# The earlier inspections of a demo parcel in each state, oldest first: (years ago, reason,
# what it found). Each is saved before the parcel's current record, as an inspector would
# have recorded it then, so the program report has several years to count.
_HISTORY: dict[str, tuple[tuple[float, InspectionReason, str], ...]] = {
    "five_year_overdue": ((10.8, InspectionReason.CONVEYANCE, "substandard"),),
    "acceptable_recent": ((5.6, InspectionReason.FIVE_YEAR_CYCLE, "substandard"),),
    "substandard_beyond": ((3.4, InspectionReason.COMPLAINT, "acceptable"),),
    "substandard_within": ((5.3, InspectionReason.FIVE_YEAR_CYCLE, "acceptable"),),
    "substandard_within_acknowledged": ((4.1, InspectionReason.COMPLAINT, "failed"),
                                        (3.7, InspectionReason.AHJ_ORDER, "substandard")),
    "failed": ((4.7, InspectionReason.FIVE_YEAR_CYCLE, "substandard"),),
    "etu_overdue": ((2.2, InspectionReason.ETU_FOLLOW_UP, "acceptable"),),
    "holding_tank_records_missing": ((3.1, InspectionReason.FIVE_YEAR_CYCLE, "acceptable"),),
    "violations_on_site": ((4.6, InspectionReason.FIVE_YEAR_CYCLE, "substandard"),),
    "large_house_ahj": ((3.3, InspectionReason.COMPLAINT, "failed"),),
    "proposed_conveyance": ((5.9, InspectionReason.CONVEYANCE, "acceptable"),),
    "incomplete_unlocated": ((2.6, InspectionReason.FIVE_YEAR_CYCLE, "substandard"),),
}
_EARLIER_DEFECT = "outlet baffle missing"
_HISTORY_ALL, _HISTORY_EVERY = 400, 25  # parcels with earlier inspections: the first 400,
# then every 25th
_EARLIER_FAILURE = ("surface breakout over the absorption area", "effluent odor at the lawn")


def demo_history(case: Case, index: int, today: date) -> tuple[Case, ...]:
    """The demo parcel's earlier inspections (oldest first) as the cases saved for them:
    the same parcel and system, the components in the state that inspection found."""
    if case.inspection is None or not case.components:
        return ()
    state = STATES[index % len(STATES)]
    jitter = random.Random(7919 * (index + 1)).random()  # spread the dates over months
    out = []
    for years, reason, found in _HISTORY.get(state, ()):
        components = tuple(replace(c, condition=C.ACCEPTABLE, defects=()) for c in case.components)
        evidence: tuple[str, ...] = ()
        if found == "substandard":
            first = components[0]
            components = (replace(first, condition=C.SUBSTANDARD, defects=(_EARLIER_DEFECT,)),
                          *components[1:])
        elif found == "failed":
            last = components[-1]
            components = (*components[:-1], replace(last, condition=C.FAILED,
                                                    defects=(_EARLIER_FAILURE[0],)))
            evidence = _EARLIER_FAILURE
        day = _years_ago(today, years + jitter * 0.4)
        out.append(replace(case, components=components, observations=None, notice=None,
                           proposed_work=None, ahj=None,
                           inspection=replace(case.inspection, date=day, reason=reason,
                                              failure_evidence=evidence)))
    return tuple(out)


def install_demo(workspace: Session, *, count: int = DEFAULT_COUNT,
                 today: date | None = None,
                 progress: Callable[[int, int], None] | None = None) -> dict[str, int]:
    """Save `count` demo parcels in one transaction; running it again changes nothing.

    Each parcel is saved as an edit is (change log, versions, who and when); the active
    layer is read once and the map distances of all parcels are measured in one call."""
    if workspace.role == FIELD:
        raise InputError("This data folder is an enrolled laptop: the demo fills an office's "
                         "data folder, and only the office changes the parcels roll. Nothing "
                         "was changed.")
    day = today or workspace.today()
    with _cycle_collector_paused():
        result = _install(workspace, count, day, progress)
    # invented aerial imagery over the demo parcels, so that the site map shows some
    from .imagery import install_demo_imagery

    install_demo_imagery(workspace, _lake_outline())
    return result


@contextmanager
def _cycle_collector_paused() -> Iterator[None]:
    """Hold the cycle collector back while the demo builds its many records (each object
    is freed by reference counting; scanning them all again and again is what is saved)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _install(workspace: Session, count: int, day: date,
             progress: Callable[[int, int], None] | None) -> dict[str, int]:
    from ...geo.case_shapes import measure_cases, project_cases

    cases = list(demo_cases(count, today=day))
    # a larger page cache while thousands of records (and their indexes) are written
    with workspace.store.transaction() as w, page_cache(w.conn, mib=64):
        layer = active_layer(workspace)
        shapes = project_cases(cases)
        if layer is not None:
            measure_cases(shapes, layer.lake)
        last = ({} if layer is None
                else measurements.latest_map_distances(w.conn, layer.id))
        # The earlier inspections of the parcels this run creates, one round at a time
        # (each round's rows written together; the next round reads them back).
        new = [n for n, case in enumerate(cases) if parcel_id_for(w.conn, case.parcel.sbl)
               is None]
        # (in a large demo, a share of the parcels: saving a parcel again reads it back)
        earlier = {n: demo_history(cases[n], n, day) for n in new
                   if n < _HISTORY_ALL or n % _HISTORY_EVERY == 0}
        for round_ in range(max((len(h) for h in earlier.values()), default=0)):
            with w.batched_inserts():
                for history in earlier.values():
                    if round_ < len(history):
                        save_case(w, history[round_], today=day,
                                  created_with={"is_demo": 1})
        # Each save reads back only its own parcel's records, so the rows can be written
        # together.
        # The parcels saved before (their earlier inspections) first: an update writes out
        # the rows held back, fewer while those come first.
        order = sorted(range(count), key=lambda i: i not in earlier)
        saved: dict[int, tuple[str, Case]] = {}
        with w.batched_inserts():
            for n, i in enumerate(order, start=1):
                case = cases[i]
                parcel_id, was_created = save_case(w, case, today=day,
                                                   created_with={"is_demo": 1})
                if not was_created:
                    w.update("parcels", parcel_id, {"is_demo": 1})
                record_map_measurement(w, workspace, parcel_id, case, day, layer=layer,
                                       shapes=shapes[i], last=last.get(parcel_id))
                saved[i] = (parcel_id, case)
                if progress is not None and (n % 500 == 0 or n == count):
                    progress(n, count)
        lots = store_demo_lots(w, _lake_outline(), [saved[i] for i in range(count)])
    return {"parcels": count, "created": len(new), "lots": lots}


def _lake_outline() -> dict[str, object]:
    """The bundled outline of the lake the demo sites are placed along (WGS84 GeoJSON)."""
    with resource("shorelines", "canandaigua_lake_ne10m_coarse.geojson").open() as f:
        geometry: dict[str, object] = json.load(f)["features"][0]["geometry"]
    return geometry
