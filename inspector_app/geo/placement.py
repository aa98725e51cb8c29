"""Placing sites at chosen distances from a shoreline (demo data and test fixtures)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import shapely
from shapely.geometry import Polygon, shape

from .crs import feet_to_lonlat, lonlat_to_feet


@dataclass(frozen=True)
class PlacedSite:
    longitude: float
    latitude: float
    absorption_area: dict[str, Any]  # GeoJSON polygon, WGS84
    west_shore: bool


def _to_feet(lake_lonlat: dict[str, Any]) -> Polygon:
    geom = shape(lake_lonlat)
    return shapely.transform(geom, lambda xy: np.column_stack(lonlat_to_feet(xy[:, 0], xy[:, 1])))


def _west_shore(lake: Polygon) -> Any:
    """Whether a point is off the west shore: the outline's arc, between its southernmost
    and northernmost points, that lies further west; a point belongs to the arc of the
    outline point nearest to it."""
    outline = lake.exterior
    length = outline.length
    coords = np.asarray(outline.coords)
    south = outline.project(shapely.Point(coords[coords[:, 1].argmin()]))
    north = outline.project(shapely.Point(coords[coords[:, 1].argmax()]))
    span = (north - south) % length  # the arc from south forward to north
    middle_forward = outline.interpolate((south + span / 2) % length)
    middle_back = outline.interpolate((north + (length - span) / 2) % length)
    forward_is_west = middle_forward.x < middle_back.x

    def on_west(point: Any) -> bool:
        forward = (outline.project(point) - south) % length <= span
        return bool(forward == forward_is_west)

    return on_west


def sites_around(lake_lonlat: dict[str, Any], fractions: Sequence[float],
                 offsets_ft: Sequence[float], *, width_ft: float = 40,
                 depth_ft: float = 60) -> list[PlacedSite]:
    """One rectangular absorption area per (fraction along the shore, offset from it).

    The area's nearest edge lies `offset` feet from the lake polygon's outline.
    """
    lake = _to_feet(lake_lonlat)
    on_west = _west_shore(lake)
    rings: dict[float, Any] = {}
    for offset in offsets_ft:
        if offset not in rings:  # buffering is the slow part; offsets repeat in big batches
            rings[offset] = lake.buffer(offset + depth_ft / 2, quad_segs=16).exterior
    if not offsets_ft:
        return []
    # All the sites at once: centres, boxes and their coordinates in one call each.
    centres = shapely.line_interpolate_point(
        np.array([rings[o] for o in offsets_ft], dtype=object),
        np.asarray(fractions, dtype=float), normalized=True)
    cx, cy = shapely.get_x(centres), shapely.get_y(centres)
    boxes = shapely.box(cx - width_ft / 2, cy - depth_ft / 2, cx + width_ft / 2,
                        cy + depth_ft / 2)
    corners, where = shapely.get_coordinates(shapely.get_exterior_ring(boxes),
                                             return_index=True)
    lon, lat = feet_to_lonlat(corners[:, 0], corners[:, 1])
    clon, clat = feet_to_lonlat(cx, cy)
    out = []
    start = 0
    for i, centre in enumerate(centres):
        end = start
        while end < len(where) and where[end] == i:
            end += 1
        coords = [[round(a, 7), round(b, 7)] for a, b in
                  zip(lon[start:end].tolist(), lat[start:end].tolist(), strict=True)]
        start = end
        out.append(PlacedSite(longitude=round(float(clon[i]), 6),
                              latitude=round(float(clat[i]), 6),
                              absorption_area={"type": "Polygon", "coordinates": [coords]},
                              west_shore=on_west(centre)))
    return out
