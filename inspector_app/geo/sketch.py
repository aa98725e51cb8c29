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
# A lot up to this size across is framed whole with the parcel's system; a larger one is
# framed whole only where nothing is drawn yet (else its system is framed).
MAX_LOT_SHOWN_FT = 1500.0
# The margin around what a window frames, as a share of its size.
MARGIN = 0.125
# The most neighbouring lots drawn (the nearest).
MAX_NEIGHBOURS = 150


@dataclass(frozen=True)
class Dimension:
    """A setback drawn as a dimension line: between the nearest points of a component and
    what it is measured to (EPSG:2261), the figure shown beside it, the evaluation's words
    for it, and whether the measurement proves it short of what the table requires."""

    a: tuple[float, float]
    b: tuple[float, float]
    figure: str      # "62.3 ft (100 ft required)"
    words: str       # "absorption area: 62.3 ft from the well (site map); the separation ..."
    short: bool


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
    # What is shown first (minx, miny, maxx, maxy), inside the window: the system and
    # what is drawn, or the lot where nothing is; None: the whole window.
    frame: tuple[float, float, float, float] | None = None
    # The lot-line and well setbacks the evaluation measures, drawn as dimension lines.
    dimensions: tuple[Dimension, ...] = ()
    # Where the parcel's photos were taken (their camera's GPS), inside the window: label,
    # position.
    photos: tuple[tuple[str, tuple[float, float]], ...] = ()

    @property
    def first_view(self) -> tuple[float, float, float, float]:
        return self.window if self.frame is None else self.frame


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


def _square(bounds: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    """A square window around `bounds`, at least MIN_WINDOW_FT across, with a margin."""
    minx, miny, maxx, maxy = bounds
    cx, cy = (minx + maxx) / 2, (miny + maxy) / 2
    half = max(maxx - minx, maxy - miny, MIN_WINDOW_FT) / 2 * (1 + 2 * MARGIN)
    return (cx - half, cy - half, cx + half, cy + half)


def _around(bounds: tuple[float, float, float, float], inner: tuple[float, float, float, float]
            ) -> tuple[float, float, float, float]:
    """`inner` grown to hold `bounds` with a margin."""
    minx, miny, maxx, maxy = bounds
    pad = max(maxx - minx, maxy - miny) * MARGIN
    return (min(inner[0], minx - pad), min(inner[1], miny - pad),
            max(inner[2], maxx + pad), max(inner[3], maxy + pad))


def sketch_geometry(case: Case, lake: LakeLine, setback_ft: float, *,
                    lot: BaseGeometry | None = None,
                    neighbours: Callable[[BaseGeometry], Sequence[tuple[str, BaseGeometry]]]
                    | None = None,
                    neighbour_wells: Sequence[tuple[str, BaseGeometry]] = (),
                    photos: Sequence[tuple[str, float, float]] = (),
                    whole_lot: bool = False) -> SketchGeometry | None:
    """The sketch's geometry in a window around the parcel's system (and its whole lot,
    when the lot is not over MAX_LOT_SHOWN_FT across, or nothing is drawn: then the lot is
    what the window frames, whatever its size). `lot` is the parcel's lot polygon;
    `neighbours(focus)` gives the other lots to show near the parcel's things (its system,
    features and lot), each with its SBL; `neighbour_wells` are the wells on other parcels
    to show, each with its label; `photos` the places photos were taken (label, longitude,
    latitude), drawn where they fall inside the window (they never widen it). With
    `whole_lot` (a map that can be zoomed out) the
    window also holds the whole lot, and `frame` is the part shown first."""
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
    drawn = [g for g in (area, *located, *(g for _, g in features)) if g is not None]
    shapes = drawn + [g for _, g in neighbour_wells]
    if not shapes and case.parcel.longitude is not None and case.parcel.latitude is not None:
        shapes = [geometry_from_lonlat({"type": "Point", "coordinates": [
            case.parcel.longitude, case.parcel.latitude]}, where)]
    if lot is not None:
        minx, miny, maxx, maxy = lot.bounds
        if not drawn or max(maxx - minx, maxy - miny) <= MAX_LOT_SHOWN_FT:
            shapes.append(lot.envelope)
    if not shapes:
        return None
    m = lake.measure(area) if area is not None else None
    things = shapely.union_all(shapes)
    focus = shapely.union_all([things] + ([shapely.Point(m.shore_point)] if m else []))
    frame = _square(focus.bounds)
    bounds = frame if lot is None or not whole_lot else _around(lot.bounds, frame)
    window = shapely.box(*bounds)
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
    taken = [(label, geometry_from_lonlat({"type": "Point", "coordinates": [lon, lat]},
                                          where)) for label, lon, lat in photos]
    return SketchGeometry(
        photos=tuple((label, (float(p.x), float(p.y))) for label, p in taken
                     if window.contains(p)),
        window=bounds, frame=None if bounds == frame else frame,
        shore=tuple(_coords(shore)), band=tuple(_coords(band)),
        water=tuple(_coords(shapely.intersection(lake.water, window)))
        if lake.water is not None else (),
        areas=tuple(_coords(area)) if area is not None else (),
        features=tuple((label, ring) for label, g in features for ring in _coords(g)),
        nearest=(m.area_point, m.shore_point) if m else None,
        distance_ft=m.distance_ft if m else 0.0, lot=lot_rings, neighbours=others,
        neighbour_wells=wells)


def leg_lengths(points_ft: Sequence[tuple[float, float]]) -> list[float]:
    """The length in feet of each leg of a path clicked on the map (EPSG:2261, US survey
    feet): the distance between consecutive points, as shapely measures every distance."""
    if len(points_ft) < 2:
        return []
    xy = np.asarray(points_ft, dtype=float)
    return [float(d) for d in shapely.distance(shapely.points(xy[:-1]), shapely.points(xy[1:]))]
