"""The period's inspected systems as GIS layers: a GeoPackage in EPSG:2261 for the county's
GIS office, the Commission's public map and records requests (docs/reports.md).

The layers are made from the same inspections as the spreadsheet export's rows (one row
per inspection in the period): `parcels` has one feature per parcel with an inspection in
the period (the SBLs of those rows, each once, its `inspections` the number of rows it has),
`systems` each absorption area and holding tank recorded on those parcels, `components`
each of their components located on the map, and `parcel_lots` the lot polygon of each of
those parcels the active lot layer matches. Outlines and points are the record as it
stands at the export; the inspection's figures are those of the parcel's latest inspection
in the period. With `public`, the owner's name, mailing address, phone and e-mail and the
renters are left out: no column holds them and no value of them is written.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Any

from ...domain.rules import Zone, next_inspection_due
from ...domain.sbl import sbl_sort_key
from ...errors import Cancelled
from ...geo.case_shapes import project_cases
from ...geo.export_shapes import as_polygon, inside_point, point_feet
from ...geo.vector_files import OutLayer, geopackage_bytes
from ...storage.cases import load_cases
from ..parcel.inspection_history import InspectionResult
from ..reference.lot_lines import active_lot_layer

if TYPE_CHECKING:
    from ..session.session import Session

# A holding tank recorded as a point is drawn in `systems` as a circle of this radius
# around it (a 1,000-gallon tank is about 5 ft by 10 ft), so that every system is a
# polygon; its `shape` says so, and the point itself is the circle's centre.
HOLDING_TANK_POINT_RADIUS_FT = 5.0
GPKG_LAYERS = ("systems", "components", "parcels", "parcel_lots")
_CASES_READ_AT_ONCE = 500

# Each layer's fields, in order, with their kinds (text, integer, real, date).
_INSPECTION_FIELDS = (("sbl", "text"), ("last_inspection", "date"), ("outcome", "text"),
                      ("lake_zone", "text"))
PARCEL_FIELDS = (("sbl", "text"), ("municipality", "text"), ("site_address", "text"),
                 ("inspections", "integer"), ("last_inspection", "date"),
                 ("outcome", "text"), ("lake_zone", "text"), ("lake_distance_ft", "real"),
                 ("next_five_year_due", "date"), ("location_source", "text"))
# The owner's and the renters' data: left out of a public export.
OWNER_FIELDS = (("owner_name", "text"), ("owner_mailing_address", "text"),
                ("owner_phone", "text"), ("owner_email", "text"), ("renters", "text"))
SYSTEM_FIELDS = (*_INSPECTION_FIELDS, ("kind", "text"), ("shape", "text"),
                 ("capture_method", "text"), ("capture_accuracy_ft", "real"))
COMPONENT_FIELDS = (*_INSPECTION_FIELDS, ("kind", "text"), ("number", "integer"),
                    ("condition", "text"), ("located_as", "text"))
LOT_FIELDS = (("sbl", "text"), ("lot_sbl", "text"), ("lot_layer", "text"),
              ("lot_layer_version", "integer"))


@dataclass(frozen=True)
class _Parcel:
    """A parcel exported: its latest inspection in the period and how many it had."""

    latest: InspectionResult
    inspections: int


def _latest(in_period: Sequence[InspectionResult]) -> dict[str, _Parcel]:
    counts: dict[str, int] = {}
    latest: dict[str, InspectionResult] = {}
    for r in in_period:  # by date, then SBL: the last one seen is the latest
        counts[r.parcel_id] = counts.get(r.parcel_id, 0) + 1
        latest[r.parcel_id] = r
    return {pid: _Parcel(r, counts[pid]) for pid, r in latest.items()}


def _lines(values: Sequence[str]) -> str | None:
    return "\n".join(values) if values else None


def _renters(case: Any) -> str | None:
    out = []
    for r in case.parcel.renters:
        out.append("; ".join(x for x in (r.name, ", ".join(r.mailing_address), r.phone,
                                         r.email) if x))
    return _lines(out)


def _five_year(ws: Session, r: InspectionResult) -> date | None:
    """The next five-year inspection's due date of a system within 200 ft, counted from
    the parcel's latest inspection in the period (None beyond, undetermined or unjudged)."""
    law = ws.laws.for_municipality(r.municipality)
    if law is None or r.zone != Zone.WITHIN.value:
        return None
    return next_inspection_due(r.date, law)


def _point(case: Any, shapes: Any, lot: Any) -> tuple[Any, str]:
    """Where the parcel's point is, and what gave it: the parcel's recorded point, else a
    point inside its lot, else the centre of its absorption area or holding tank."""
    p = case.parcel
    if p.longitude is not None and p.latitude is not None:
        return point_feet(p.longitude, p.latitude), "parcel point"
    if lot is not None:
        return inside_point(lot.geometry), "lot"
    site = case.site
    for name in ("absorption_area", "holding_tank"):
        if site is not None and getattr(site, name) is not None:
            return inside_point(shapes.site(name, f"parcel {p.sbl}: site.{name}")), name
    return None, "none"


def _cases(ws: Session, ids: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for i in range(0, len(ids), _CASES_READ_AT_ONCE):
        out.update(load_cases(ws.store.conn, parcel_ids=ids[i:i + _CASES_READ_AT_ONCE]))
    return out


def gis_layers(ws: Session, in_period: Sequence[InspectionResult], *, public: bool,
               cancelled: Callable[[], bool] = lambda: False) -> list[OutLayer]:
    """The layers of the inspections `in_period` (the spreadsheet export's rows)."""
    exported = _latest(in_period)
    ids = sorted(exported, key=lambda pid: sbl_sort_key(exported[pid].latest.sbl))
    cases = _cases(ws, ids)
    ids = [pid for pid in ids if pid in cases]
    shapes = dict(zip(ids, project_cases(cases[pid] for pid in ids), strict=True))
    lots = active_lot_layer(ws)
    parcel_fields = PARCEL_FIELDS if public else (*PARCEL_FIELDS, *OWNER_FIELDS)
    layers = {name: OutLayer(name, kind, fields, [], []) for name, kind, fields in (
        ("parcels", "Point", parcel_fields), ("systems", "MultiPolygon", SYSTEM_FIELDS),
        ("components", "Point", COMPONENT_FIELDS),
        ("parcel_lots", "MultiPolygon", LOT_FIELDS))}

    def add(name: str, geometry: Any, *values: Any) -> None:
        layers[name].geometries.append(geometry)
        layers[name].rows.append(values)

    for pid in ids:
        if cancelled():
            raise Cancelled("The export was cancelled; no file was written.")
        case, shape, found = cases[pid], shapes[pid], exported[pid]
        r = found.latest
        judged = (r.sbl, r.date, r.outcome or "not_judged", r.zone or "not_judged")
        lot = None if lots is None else lots.lot_for(pid)
        point, source = _point(case, shape, lot)
        p = case.parcel
        owner = () if public else (p.owner_name, _lines(p.owner_mailing_address),
                                   p.owner_phone, p.owner_email, _renters(case))
        add("parcels", point, r.sbl, r.municipality, r.site_address, found.inspections,
            r.date, *judged[2:], r.distance_ft, _five_year(ws, r), source, *owner)
        site = case.site
        for name in ("absorption_area", "holding_tank"):
            geojson = None if site is None else getattr(site, name)
            if geojson is None:
                continue
            geometry, drawn = as_polygon(shape.site(name, f"parcel {p.sbl}: site.{name}"),
                                         HOLDING_TANK_POINT_RADIUS_FT)
            outline = (f"recorded point, drawn as a circle of {HOLDING_TANK_POINT_RADIUS_FT:g}"
                       " ft radius") if drawn else "recorded outline"
            capture = getattr(site, f"{name}_capture")
            add("systems", geometry, *judged, name, outline,
                None if capture is None or capture.method is None else capture.method.value,
                None if capture is None else capture.accuracy_ft)
        seen: dict[str, int] = {}
        for i, c in enumerate(case.components):
            seen[c.kind.value] = seen.get(c.kind.value, 0) + 1
            if c.geometry is None:
                continue
            geometry = shape.component(i)
            add("components", inside_point(geometry), *judged, c.kind.value,
                seen[c.kind.value],
                c.condition.value, geometry.geom_type)
        if lot is not None and lots is not None:
            add("parcel_lots", lot.geometry, r.sbl, lot.sbl, lots.name, lots.version)
    return [layers[name] for name in GPKG_LAYERS]


def write_gpkg(ws: Session, in_period: Sequence[InspectionResult], *, public: bool,
               cancelled: Callable[[], bool] = lambda: False) -> tuple[bytes, dict[str, int]]:
    """The GeoPackage's bytes and each layer's number of features."""
    layers = gis_layers(ws, in_period, public=public, cancelled=cancelled)
    return geopackage_bytes(layers), {layer.name: len(layer.rows) for layer in layers}

