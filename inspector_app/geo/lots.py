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


def _feet(geom: Any) -> Any:
    """WGS84 geometries (one, or an array of them) in EPSG:2261."""
    from .crs import lonlat_to_feet

    return shapely.transform(geom, lambda xy: np.column_stack(lonlat_to_feet(xy[:, 0],
                                                                             xy[:, 1])))


def _shore_frames(lake: BaseGeometry, centres: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """For each point (EPSG:2261), the nearest point of the lake line and the unit vector
    from it to the point, inland and square to the shore: (px, py, nx, ny)."""
    shore = shapely.get_point(shapely.shortest_line(lake.exterior, centres), 0)
    px, py = shapely.get_x(shore), shapely.get_y(shore)
    cx, cy = shapely.get_x(centres), shapely.get_y(centres)
    reach = np.hypot(cx - px, cy - py)
    return px, py, (cx - px) / reach, (cy - py) / reach


def beside(lake_lonlat: dict[str, Any], points_lonlat: Sequence[tuple[float, float]],
           moves_ft: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
    """Each point (WGS84 longitude, latitude) moved `along` feet along the shore and
    `inland` feet away from it, square to the shore at the lake line's point nearest to
    it, for `moves_ft` (along, inland) in turn. Along is the way an invented lot's right
    side lies (`invented_lots`)."""
    from shapely.geometry import shape

    from .crs import feet_to_lonlat, lonlat_to_feet

    if not points_lonlat:
        return []
    lon, lat = (np.asarray(v, dtype=float) for v in zip(*points_lonlat, strict=True))
    x, y = lonlat_to_feet(lon, lat)
    _, _, nx, ny = _shore_frames(_feet(shape(lake_lonlat)), shapely.points(x, y))
    along, inland = (np.asarray(v, dtype=float) for v in zip(*moves_ft, strict=True))
    new_lon, new_lat = feet_to_lonlat(x - along * ny + inland * nx,
                                      y + along * nx + inland * ny)
    return list(zip(new_lon.tolist(), new_lat.tolist(), strict=True))


def _cells(centres: np.ndarray, extent: BaseGeometry) -> np.ndarray:
    """Each point's Voronoi cell (where it is nearer than any other point), covering
    `extent`; points at one place (to 0.01 ft) share a cell."""
    xy = np.round(shapely.get_coordinates(centres), 2)
    unique, back = np.unique(xy, axis=0, return_inverse=True)
    if len(unique) == 1:
        return np.full(len(xy), extent, dtype=object)
    cells = shapely.get_parts(shapely.voronoi_polygons(shapely.multipoints(unique),
                                                       extend_to=extent, ordered=True))
    return np.asarray(cells[back.reshape(-1)], dtype=object)


def _one_part(lots: np.ndarray, areas: np.ndarray) -> np.ndarray:
    """Each lot as one polygon: of its polygons, the one nearest the absorption area (the
    one holding it), the largest of those; None for a lot with no polygon left."""
    out = np.full(len(lots), None, dtype=object)
    kind = shapely.get_type_id(lots)
    single = np.flatnonzero((kind == 3) & ~shapely.is_empty(lots))
    out[single] = lots[single]
    several = np.flatnonzero(kind > 3)  # a cut may leave several, and lines or points
    if len(several):
        parts, which = shapely.get_parts(lots[several], return_index=True)
        keep = shapely.get_type_id(parts) == 3
        parts, which = parts[keep], several[which[keep]]
        if len(parts):
            near = shapely.distance(parts, areas[which])
            order = np.lexsort((-shapely.area(parts), near, which))
            found, first = np.unique(which[order], return_index=True)
            out[found] = parts[order[first]]
    return out


def invented_lots(lake_lonlat: dict[str, Any], areas_lonlat: Sequence[dict[str, Any]],
                  sides_ft: Sequence[tuple[float, float, float]],
                  neighbour_width_ft: float = 100.0
                  ) -> list[tuple[PreparedLot | None, PreparedLot | None, PreparedLot | None]]:
    """Invented lots for demo sites (not anyone's tax map): for each absorption area (a
    WGS84 GeoJSON polygon), a rectangle from the lake line inland, square to the shore at
    the point nearest the area's centre, its sides and rear line `sides_ft` (left, right,
    behind) beyond the area, and the two neighbouring lots sharing its sides,
    `neighbour_width_ft` wide.

    As on a tax map, no two lots overlap: each lot made for a site is cut to the land
    nearer that area's centre than any other area's (its Voronoi cell) and to the land
    (the lake polygon left out), and kept as the one polygon nearest the area. A
    neighbouring lot whose first quarter (at the depth of the area's centre) is not in
    that cell is not made: the site's lot takes its place, reaching the next site's lot.

    Each as WKB in EPSG:2261: (the site's lot, the left neighbour's, the right
    neighbour's), None for a lot left out."""
    from shapely.geometry import shape

    if not areas_lonlat:
        return []
    lake = _feet(shape(lake_lonlat))
    rings = [a["coordinates"][0] if a.get("type") == "Polygon" else None
             for a in areas_lonlat]
    if all(r is not None and len(r) == len(rings[0] or ()) for r in rings):
        shapes = shapely.polygons(np.asarray(rings, dtype=float))  # all at once
    else:
        shapes = np.asarray([shape(a) for a in areas_lonlat], dtype=object)
    areas = _feet(shapes)
    centres = shapely.centroid(areas)
    px, py, nx, ny = _shore_frames(lake, centres)
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
    corner = np.column_stack([px + lo * tx, py + lo * ty, px + hi * tx, py + hi * ty])
    extent = shapely.box(*(np.minimum(corner[:, :2], corner[:, 2:]).min(axis=0)
                           - depth.max() - 2 * neighbour_width_ft - 200.0),
                         *(np.maximum(corner[:, :2], corner[:, 2:]).max(axis=0)
                           + depth.max() + 2 * neighbour_width_ft + 200.0))
    cells = _cells(centres, extent)
    # A neighbouring lot whose first quarter (at the depth of the area's centre) lies in
    # another site's cell is not made: the site's lot takes its width, up to that cell.
    quarter = 0.25 * neighbour_width_ft
    middle = (shapely.get_x(centres) - px) * nx + (shapely.get_y(centres) - py) * ny
    gone = []
    for edge, way in ((lo - left, -1.0), (hi + right, 1.0)):
        at = edge + way * quarter
        gone.append(~shapely.contains_xy(cells, px + at * tx + middle * nx,
                                         py + at * ty + middle * ny))
    west_gone, east_gone = gone
    a = lo - left - np.where(west_gone, neighbour_width_ft, 0.0)
    b = hi + right + np.where(east_gone, neighbour_width_ft, 0.0)
    kept_w, kept_e = np.flatnonzero(~west_gone), np.flatnonzero(~east_gone)
    # the sites' lots, then the left and right neighbours' kept: from a to b feet along
    # the shore from the shore point, `depth` feet inland
    of = np.concatenate([np.arange(count), kept_w, kept_e])
    a = np.concatenate([a, (lo - left - neighbour_width_ft)[kept_w], (hi + right)[kept_e]])
    b = np.concatenate([b, (lo - left)[kept_w], (hi + right + neighbour_width_ft)[kept_e]])
    qx, qy, ux, uy, vx, vy, d = (v[of] for v in (px, py, tx, ty, nx, ny, depth))
    ring = np.stack([np.column_stack([qx + a * ux, qy + a * uy]),
                     np.column_stack([qx + b * ux, qy + b * uy]),
                     np.column_stack([qx + b * ux + d * vx, qy + b * uy + d * vy]),
                     np.column_stack([qx + a * ux + d * vx, qy + a * uy + d * vy]),
                     np.column_stack([qx + a * ux, qy + a * uy])], axis=1)
    lots = shapely.intersection(shapely.polygons(ring), cells[of])
    shapely.prepare(lake)
    wet = np.flatnonzero(shapely.intersects(lake, lots))
    lots[wet] = shapely.difference(lots[wet], lake)
    lots = _one_part(lots, areas[of])
    out: list[PreparedLot | None] = [None] * (3 * count)
    slot = np.concatenate([np.arange(count), count + kept_w, 2 * count + kept_e])
    present = np.flatnonzero(lots != None)  # noqa: E711 (each element)
    for i, wkb, (x0, y0, x1, y1) in zip(slot[present].tolist(), shapely.to_wkb(lots[present]),
                                        shapely.bounds(lots[present]).tolist(), strict=True):
        out[i] = PreparedLot(wkb, (x0, y0, x1, y1), False, None)
    return list(zip(out[:count], out[count:2 * count], out[2 * count:], strict=True))


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
