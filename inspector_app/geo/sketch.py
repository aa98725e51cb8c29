"""Geometry for a site sketch, clipped to a window around the parcel (EPSG:2261 feet)."""

from __future__ import annotations

from dataclasses import dataclass

import shapely
from shapely.geometry.base import BaseGeometry

from ..domain.case import Case
from .lake_line import LakeLine
from .vector_files import geometry_from_lonlat

Ring = tuple[tuple[float, float], ...]
MIN_WINDOW_FT = 500.0


@dataclass(frozen=True)
class SketchGeometry:
    window: tuple[float, float, float, float]
    shore: tuple[Ring, ...]
    band: tuple[Ring, ...]
    water: tuple[Ring, ...]
    areas: tuple[Ring, ...]
    features: tuple[tuple[str, Ring], ...]
    nearest: tuple[tuple[float, float], tuple[float, float]] | None
    distance_ft: float


def _coords(g: BaseGeometry) -> list[Ring]:
    out = []
    for part in shapely.get_parts(g):
        if part.geom_type == "Polygon":
            out.append(tuple(map(tuple, part.exterior.coords)))
        elif not part.is_empty:
            out.append(tuple(map(tuple, part.coords)))
    return out


def sketch_geometry(case: Case, lake: LakeLine, setback_ft: float) -> SketchGeometry | None:
    site = case.site
    if site is None:
        from ..domain.case import Site

        site = Site()
    where = f"parcel {case.parcel.sbl}"
    area = None
    if site.absorption_area or site.holding_tank:
        area = geometry_from_lonlat(site.absorption_area or site.holding_tank or {}, where)
    features = [(f.kind.value.replace("_", " "), geometry_from_lonlat(f.geometry, where))
                for f in site.features]
    located = [geometry_from_lonlat(c.geometry, where) for c in case.components if c.geometry]
    shapes = [g for g in (area, *located, *(g for _, g in features)) if g is not None]
    if not shapes and case.parcel.longitude is not None and case.parcel.latitude is not None:
        shapes = [geometry_from_lonlat({"type": "Point", "coordinates": [
            case.parcel.longitude, case.parcel.latitude]}, where)]
    if not shapes:
        return None
    m = lake.measure(area) if area is not None else None
    focus = shapely.union_all(shapes + ([shapely.Point(m.shore_point)] if m else []))
    minx, miny, maxx, maxy = focus.bounds
    cx, cy = (minx + maxx) / 2, (miny + maxy) / 2
    half = max(maxx - minx, maxy - miny, MIN_WINDOW_FT) / 2 * 1.25
    window = shapely.box(cx - half, cy - half, cx + half, cy + half)
    line = lake.geometry.boundary if lake.water is not None else lake.geometry
    shore = shapely.intersection(line, window)
    band = shapely.intersection(line.buffer(setback_ft), window)
    if lake.water is not None:
        band = shapely.difference(band, lake.water)
    return SketchGeometry(
        window=(cx - half, cy - half, cx + half, cy + half),
        shore=tuple(_coords(shore)), band=tuple(_coords(band)),
        water=tuple(_coords(shapely.intersection(lake.water, window)))
        if lake.water is not None else (),
        areas=tuple(_coords(area)) if area is not None else (),
        features=tuple((label, ring) for label, g in features for ring in _coords(g)),
        nearest=(m.area_point, m.shore_point) if m else None,
        distance_ft=m.distance_ft if m else 0.0)
