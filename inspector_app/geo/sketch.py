"""Geometry for a site sketch, clipped to a window around the parcel (EPSG:2261 feet)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from ..domain.case import Case
from .lake_line import LakeLine
from .vector_files import geometry_from_lonlat

Ring = tuple[tuple[float, float], ...]
MIN_WINDOW_FT = 500.0
# A lot up to this size across is shown whole on the sketch.
MAX_LOT_SHOWN_FT = 1500.0
# The most neighbouring lots drawn (the nearest).
MAX_NEIGHBOURS = 150


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
    # The parcel's lot line (on the active lot layer), clipped to the window: lines, each
    # closed where the whole ring is inside the window.
    lot: tuple[Ring, ...] = ()
    # The neighbouring lots' lines clipped to the window, each with its lot's SBL.
    neighbours: tuple[tuple[str, Ring], ...] = ()
    # Wells recorded on other parcels within the well setback: "Well (SBL)", position.
    neighbour_wells: tuple[tuple[str, tuple[float, float]], ...] = ()


def _coords(g: BaseGeometry) -> list[Ring]:
    out = []
    for part in shapely.get_parts(g):
        if part.geom_type == "Polygon":
            out.append(tuple(map(tuple, part.exterior.coords)))
        elif not part.is_empty:
            out.append(tuple(map(tuple, part.coords)))
    return out


def _nearest(lots: Sequence[tuple[str, BaseGeometry]], near: BaseGeometry
             ) -> Sequence[tuple[str, BaseGeometry]]:
    """At most MAX_NEIGHBOURS of the lots, the nearest, in the order given."""
    if len(lots) <= MAX_NEIGHBOURS:
        return lots
    distances = shapely.distance(np.asarray([g for _, g in lots], dtype=object), near)
    kept = sorted(np.argsort(distances, kind="stable")[:MAX_NEIGHBOURS])
    return [lots[int(i)] for i in kept]


def _clipped(lots: Sequence[tuple[str, BaseGeometry]], window: BaseGeometry
             ) -> tuple[tuple[str, Ring], ...]:
    """The lots' lines clipped to the window, each line with its lot's label (in one call
    for all the lots: a village window holds hundreds)."""
    if not lots:
        return ()
    lines = shapely.intersection(shapely.boundary(np.asarray([g for _, g in lots],
                                                             dtype=object)), window)
    parts, owner = shapely.get_parts(lines, return_index=True)
    coords, part = shapely.get_coordinates(parts, return_index=True)
    out: list[tuple[str, Ring]] = []
    starts = np.searchsorted(part, np.arange(len(parts) + 1))
    for n, i in enumerate(owner):
        ring = coords[starts[n]:starts[n + 1]]
        if len(ring):
            out.append((lots[int(i)][0], tuple((float(x), float(y)) for x, y in ring)))
    return tuple(out)


def sketch_geometry(case: Case, lake: LakeLine, setback_ft: float, *,
                    lot: BaseGeometry | None = None,
                    neighbours: Callable[[BaseGeometry], Sequence[tuple[str, BaseGeometry]]]
                    | None = None,
                    neighbour_wells: Sequence[tuple[str, BaseGeometry]] = ()
                    ) -> SketchGeometry | None:
    """The sketch's geometry in a window around the parcel's system (and its whole lot,
    when the lot is not over MAX_LOT_SHOWN_FT across). `lot` is the parcel's lot polygon;
    `neighbours(focus)` gives the other lots to show near the parcel's things (its system,
    features and lot), each with its SBL; `neighbour_wells` are the wells on other parcels
    to show, each with its label."""
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
    shapes = [g for g in (area, *located, *(g for _, g in features),
                          *(g for _, g in neighbour_wells)) if g is not None]
    if not shapes and case.parcel.longitude is not None and case.parcel.latitude is not None:
        shapes = [geometry_from_lonlat({"type": "Point", "coordinates": [
            case.parcel.longitude, case.parcel.latitude]}, where)]
    if lot is not None:
        minx, miny, maxx, maxy = lot.bounds
        if max(maxx - minx, maxy - miny) <= MAX_LOT_SHOWN_FT:
            shapes.append(lot.envelope)
        elif not shapes:
            shapes.append(lot.point_on_surface())
    if not shapes:
        return None
    m = lake.measure(area) if area is not None else None
    things = shapely.union_all(shapes)
    focus = shapely.union_all([things] + ([shapely.Point(m.shore_point)] if m else []))
    minx, miny, maxx, maxy = focus.bounds
    cx, cy = (minx + maxx) / 2, (miny + maxy) / 2
    half = max(maxx - minx, maxy - miny, MIN_WINDOW_FT) / 2 * 1.25
    window = shapely.box(cx - half, cy - half, cx + half, cy + half)
    line = lake.geometry.boundary if lake.water is not None else lake.geometry
    shore = shapely.intersection(line, window)
    band = shapely.intersection(line.buffer(setback_ft), window)
    if lake.water is not None:
        band = shapely.difference(band, lake.water)
    lot_rings = () if lot is None else tuple(_coords(shapely.intersection(lot.boundary,
                                                                          window)))
    others = () if neighbours is None else _clipped(_nearest(neighbours(things), things),
                                                     window)
    points = [(label, g if g.geom_type == "Point" else g.point_on_surface())
              for label, g in neighbour_wells]
    wells = tuple((label, (float(p.x), float(p.y))) for label, p in points
                  if window.contains(p))
    return SketchGeometry(
        window=(cx - half, cy - half, cx + half, cy + half),
        shore=tuple(_coords(shore)), band=tuple(_coords(band)),
        water=tuple(_coords(shapely.intersection(lake.water, window)))
        if lake.water is not None else (),
        areas=tuple(_coords(area)) if area is not None else (),
        features=tuple((label, ring) for label, g in features for ring in _coords(g)),
        nearest=(m.area_point, m.shore_point) if m else None,
        distance_ft=m.distance_ft if m else 0.0, lot=lot_rings, neighbours=others,
        neighbour_wells=wells)
