"""The lake line and distances to it.

A polygon layer is the water body: all its rings, islands included, are the lake line, and
an area that overlaps the water is at distance 0. A line layer is the line itself. The
line is cut into segments held in an STRtree, so that each nearest-distance query touches
only the few segments near the area instead of the whole shoreline.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from ..errors import InputError
from .vector_files import GeometryFileError, feet_to_lonlat_point

WATER_BODY = "water_body"
LINE = "line"


@dataclass(frozen=True)
class Measurement:
    """Shortest horizontal distance, with both nearest points (EPSG:2261 feet)."""

    distance_ft: float
    area_point: tuple[float, float]
    shore_point: tuple[float, float]

    def nearest_lonlat(self) -> dict[str, list[float]]:
        return {"area": feet_to_lonlat_point(*self.area_point),
                "shoreline": feet_to_lonlat_point(*self.shore_point)}


def classify(geoms: list[BaseGeometry], where: str) -> tuple[str, BaseGeometry]:
    """Decide whether a layer is a water body or a line, and merge it into one geometry."""
    types = {g.geom_type for g in geoms}
    polygons = {"Polygon", "MultiPolygon"}
    lines = {"LineString", "MultiLineString", "LinearRing"}
    if types <= polygons:
        merged = shapely.union_all([shapely.make_valid(g) for g in geoms])
        merged = shapely.get_parts(merged)
        polys = [g for g in merged if g.geom_type in polygons]
        return WATER_BODY, shapely.multipolygons(polys) if len(polys) > 1 else polys[0]
    if types <= lines:
        return LINE, shapely.multilinestrings(
            [p for g in geoms for p in shapely.get_parts(g)])
    found = ", ".join(sorted(types))
    raise GeometryFileError(
        f"{where}: holds {found}; a shoreline layer must be all polygons (the water body) or "
        "all lines (the lake line itself)")


class LakeLine:
    """A shoreline layer ready for distance queries."""

    def __init__(self, kind: str, geometry: BaseGeometry) -> None:
        self.kind = kind
        self.geometry = geometry
        boundary = geometry.boundary if kind == WATER_BODY else geometry
        parts = shapely.get_parts(shapely.line_merge(boundary) if kind == LINE else boundary)
        segments = []
        for part in parts:
            xy = shapely.get_coordinates(part)
            if len(xy) >= 2:
                segments.append(np.stack([xy[:-1], xy[1:]], axis=1))
        if not segments:
            raise InputError("The shoreline layer has no line segments.")
        pairs = np.concatenate(segments)
        self.segments = shapely.linestrings(pairs)
        self.tree = shapely.STRtree(self.segments)
        self.vertex_count = len(shapely.get_coordinates(geometry))
        self.water = geometry if kind == WATER_BODY else None
        if self.water is not None:
            shapely.prepare(self.water)

    @classmethod
    def from_geojson(cls, kind: str, text: str) -> LakeLine:
        return cls(kind, shapely.from_geojson(text))

    def to_geojson(self) -> str:
        return str(shapely.to_geojson(self.geometry))

    def measure_many(self, areas: list[BaseGeometry]) -> list[Measurement]:
        """Distances from each area (EPSG:2261) to the lake line, in order."""
        arr = np.asarray(areas, dtype=object)
        out: list[Measurement | None] = [None] * len(arr)
        if self.water is not None:
            # The prepared water body must come first for GEOS to use its index.
            inside = shapely.intersects(self.water, arr)
            for i in np.flatnonzero(inside):
                p = self._point_in_both(arr[i])
                out[i] = Measurement(0.0, (p.x, p.y), (p.x, p.y))
            todo = np.flatnonzero(~inside)
        else:
            todo = np.arange(len(arr))
        if len(todo):
            (area_idx, seg_idx), dist = self.tree.query_nearest(
                arr[todo], return_distance=True, all_matches=False)
            lines = shapely.shortest_line(arr[todo][area_idx], self.segments[seg_idx])
            xy = shapely.get_coordinates(lines).reshape(-1, 4).tolist()  # ax, ay, sx, sy
            for k, (i, d) in enumerate(zip(todo[area_idx].tolist(), dist.tolist(),
                                           strict=True)):
                ax, ay, sx, sy = xy[k]
                out[i] = Measurement(d, (ax, ay), (sx, sy))
        return [m for m in out if m is not None]

    def _point_in_both(self, area: BaseGeometry) -> shapely.Point:
        """A point of an area that overlaps the water: where its edge crosses the lake line,
        or (for an area wholly in the water) the area's own representative point."""
        crossing = self.tree.query(area, predicate="intersects")
        if len(crossing):
            hit = shapely.intersection(area, self.segments[crossing[0]])
            return shapely.get_point(shapely.get_parts(hit)[0], 0) if hit.geom_type != (
                "Point") else hit
        return area.representative_point()

    def measure(self, area: BaseGeometry) -> Measurement:
        return self.measure_many([area])[0]

    def nearest_ft(self, xy: Sequence[tuple[float, float]]) -> float | None:
        """How far the nearest of the points (EPSG:2261 feet) lies from the layer (0 for a
        point in the water body); None without points."""
        if not len(xy):
            return None
        points = shapely.points(np.asarray(xy, dtype=float))
        if self.water is not None and shapely.intersects(self.water, points).any():
            return 0.0
        _, dist = self.tree.query_nearest(points, return_distance=True, all_matches=False)
        return float(dist.min())

    def feet_from_extent(self, extent: tuple[float, float, float, float]) -> float:
        """How far the layer lies from an extent (EPSG:2261 feet; 0 where they meet)."""
        return float(shapely.distance(self.geometry, shapely.box(*extent)))


def lake_rings(lake: LakeLine, *, tolerance_ft: float) -> list[list[tuple[float, float]]]:
    """The lake line's rings (or lines), simplified to `tolerance_ft`, as (x, y) lists in
    the layer's feet: for drawing a map of the whole lake."""
    boundary = lake.geometry.boundary if lake.kind == WATER_BODY else lake.geometry
    simple = shapely.simplify(boundary, tolerance_ft)
    return [[(float(x), float(y)) for x, y in shapely.get_coordinates(part)]
            for part in shapely.get_parts(simple)]
