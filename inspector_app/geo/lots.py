"""Lot polygons: checking them as read from a file, their stored form (WKB in EPSG:2261)
and a spatial index over a layer's lots."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

__all__ = ["BaseGeometry", "LotIndex", "PreparedLot", "decode", "join", "prepare"]

_POLYGONAL = frozenset({"Polygon", "MultiPolygon"})


@dataclass(frozen=True)
class PreparedLot:
    """A feature's geometry as it is kept, or why it cannot be."""

    wkb: bytes | None
    bounds: tuple[float, float, float, float] | None
    repaired: bool  # the polygon was invalid and made valid (shapely.make_valid)
    problem: str | None  # why the feature is not kept as a lot


def _polygonal(geom: BaseGeometry) -> BaseGeometry | None:
    """The polygons of a geometry (of a collection that make_valid may give), or None."""
    if geom.geom_type in _POLYGONAL:
        return geom
    if geom.geom_type == "GeometryCollection":
        parts = [g for g in shapely.get_parts(geom) if g.geom_type in _POLYGONAL]
        if parts:
            return shapely.union_all(parts)
    return None


def prepare(geometries: Sequence[BaseGeometry | None]) -> list[PreparedLot]:
    """Each geometry checked as a lot: a polygon or multipolygon, made valid when it is not
    (its polygonal part kept: a self-touching ring becomes two polygons); lines, points
    and polygons with no area left after repair are not lots."""
    arr = np.asarray(list(geometries), dtype=object)
    present = np.array([g is not None for g in arr], dtype=bool)
    valid = np.zeros(len(arr), dtype=bool)
    if present.any():
        valid[present] = shapely.is_valid(arr[present])
    out: list[PreparedLot] = []
    for geom, ok in zip(arr, valid, strict=True):
        if geom is None:
            out.append(PreparedLot(None, None, False, "the feature has no geometry"))
            continue
        if geom.geom_type not in _POLYGONAL:
            out.append(PreparedLot(None, None, False,
                                   f"not a polygon (a {geom.geom_type}); a lot is an area"))
            continue
        repaired = False
        if not ok:
            fixed = _polygonal(shapely.make_valid(geom))
            if fixed is None or fixed.is_empty or fixed.area <= 0:
                out.append(PreparedLot(None, None, False,
                                       "an invalid polygon with no area left once repaired"))
                continue
            geom, repaired = fixed, True
        if geom.area <= 0:
            out.append(PreparedLot(None, None, False, "a polygon with no area"))
            continue
        minx, miny, maxx, maxy = (float(v) for v in geom.bounds)
        out.append(PreparedLot(shapely.to_wkb(geom), (minx, miny, maxx, maxy), repaired, None))
    return out


def decode(blobs: Sequence[bytes]) -> list[BaseGeometry]:
    """Stored lots (WKB) as geometries, in one call."""
    if not blobs:
        return []
    return list(shapely.from_wkb(np.asarray(list(blobs), dtype=object)))


def join(geometries: Sequence[BaseGeometry]) -> BaseGeometry:
    """The features of one lot as one (multi)polygon."""
    return shapely.union_all(np.asarray(list(geometries), dtype=object))


class LotIndex:
    """A layer's lots in a spatial index (an STRtree built once), for the lots near a
    geometry."""

    def __init__(self, geometries: Sequence[BaseGeometry]) -> None:
        self._geometries = np.asarray(list(geometries), dtype=object)
        self._tree = shapely.STRtree(self._geometries)

    def near(self, geometry: BaseGeometry, distance_ft: float) -> list[int]:
        """The positions of the lots within `distance_ft` of the geometry, in order."""
        if distance_ft < 0:
            raise ValueError("a distance is not negative")
        found = self._tree.query(geometry, predicate="dwithin", distance=float(distance_ft))
        return sorted(int(i) for i in found)


def invented_lots(lake_lonlat: dict[str, Any], areas_lonlat: Sequence[dict[str, Any]],
                  sides_ft: Sequence[tuple[float, float, float]],
                  neighbour_width_ft: float = 100.0
                  ) -> list[tuple[PreparedLot, PreparedLot, PreparedLot]]:
    """Invented lots for demo sites (not anyone's tax map): for each absorption area (a
    WGS84 GeoJSON polygon), a rectangle from the lake line inland, square to the shore at
    the point nearest the area's centre, its sides and rear line `sides_ft` (left, right,
    behind) beyond the area, and the two neighbouring lots sharing its sides,
    `neighbour_width_ft` wide. Each as WKB in EPSG:2261: (the site's lot, the left
    neighbour's, the right neighbour's), ready to be kept."""
    from shapely.geometry import shape

    from .crs import lonlat_to_feet

    if not areas_lonlat:
        return []

    def feet(geom: Any) -> Any:
        return shapely.transform(geom, lambda xy: np.column_stack(lonlat_to_feet(xy[:, 0],
                                                                                 xy[:, 1])))

    lake = feet(shape(lake_lonlat))
    rings = [a["coordinates"][0] if a.get("type") == "Polygon" else None
             for a in areas_lonlat]
    if all(r is not None and len(r) == len(rings[0] or ()) for r in rings):
        shapes = shapely.polygons(np.asarray(rings, dtype=float))  # all at once
    else:
        shapes = np.asarray([shape(a) for a in areas_lonlat], dtype=object)
    areas = feet(shapes)
    centres = shapely.centroid(areas)
    cx, cy = shapely.get_x(centres), shapely.get_y(centres)
    shore = shapely.get_point(shapely.shortest_line(lake.exterior, centres), 0)
    px, py = shapely.get_x(shore), shapely.get_y(shore)
    reach = np.hypot(cx - px, cy - py)
    nx, ny = (cx - px) / reach, (cy - py) / reach  # inland, square to the shore
    tx, ty = -ny, nx  # along the shore
    corners, which = shapely.get_coordinates(areas, return_index=True)
    along = (corners[:, 0] - px[which]) * tx[which] + (corners[:, 1] - py[which]) * ty[which]
    inland = (corners[:, 0] - px[which]) * nx[which] + (corners[:, 1] - py[which]) * ny[which]
    count = len(areas)
    lo, hi, deep = np.full(count, np.inf), np.full(count, -np.inf), np.full(count, -np.inf)
    np.minimum.at(lo, which, along)
    np.maximum.at(hi, which, along)
    np.maximum.at(deep, which, inland)
    left, right, behind = (np.asarray(s, dtype=float) for s in zip(*sides_ft, strict=True))
    depth = deep + behind

    def rect(a: np.ndarray, b: np.ndarray) -> list[PreparedLot]:
        """Rectangles from a to b along the shore (feet from the shore point)."""
        ring = np.stack([
            np.column_stack([px + a * tx, py + a * ty]),
            np.column_stack([px + b * tx, py + b * ty]),
            np.column_stack([px + b * tx + depth * nx, py + b * ty + depth * ny]),
            np.column_stack([px + a * tx + depth * nx, py + a * ty + depth * ny]),
            np.column_stack([px + a * tx, py + a * ty])], axis=1)
        polygons = shapely.polygons(ring)
        return [PreparedLot(wkb, (float(b[0]), float(b[1]), float(b[2]), float(b[3])), False,
                            None)
                for wkb, b in zip(shapely.to_wkb(polygons), shapely.bounds(polygons),
                                  strict=True)]

    own = rect(lo - left, hi + right)
    west = rect(lo - left - neighbour_width_ft, lo - left)
    east = rect(hi + right, hi + right + neighbour_width_ft)
    return list(zip(own, west, east, strict=True))


def from_measure_wkb(blobs: Sequence[bytes], where: str) -> list[BaseGeometry | None]:
    """Lots as WKB in EPSG:2261 (a field kit's), decoded and checked as a file's are:
    coordinates that are numbers, inside NY State Plane Central's area of use. None for
    bytes that are not WKB."""
    from pyproj import CRS

    from .vector_files import GeometryFileError, to_measure_crs

    out: list[BaseGeometry | None] = []
    for blob in blobs:
        try:
            out.append(shapely.from_wkb(blob))
        except shapely.errors.GEOSException:
            out.append(None)
    present = [g for g in out if g is not None and not g.is_empty]
    if not present:
        raise GeometryFileError(f"{where}: contains no geometry.")
    crs = CRS.from_user_input("EPSG:2261")
    to_measure_crs(present, crs, where)  # the check; EPSG:2261 is what they are in
    return [None if g is None or g.is_empty else g for g in out]
