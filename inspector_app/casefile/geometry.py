"""A case geometry's checks: bare GeoJSON in WGS84, closed rings, bounded size."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Any

from ..domain.case import MAX_FEATURE_VERTICES
from .messages import describe

_DEPTH = {"Point": 0, "LineString": 1, "MultiPoint": 1, "Polygon": 2, "MultiLineString": 2,
          "MultiPolygon": 3}


def geometry_fault(value: Any, allowed: Sequence[str]) -> tuple[list[str | int], str] | None:
    """What is wrong with a case geometry, as (where within it, the reader's words), or
    None: a bare GeoJSON geometry of an allowed type, of finite WGS84 longitude/latitude
    positions, closed polygon rings, at most MAX_FEATURE_VERTICES positions."""
    if not isinstance(value, dict):
        return [], f"must be a GeoJSON geometry (an object), not {describe(value)}"
    gtype = value.get("type")
    if gtype not in allowed:
        return [], (f"is a GeoJSON {json.dumps(gtype)[:80]}; it must be one of: "
                    f"{', '.join(allowed)}")
    if set(value) - {"type", "coordinates", "bbox"}:
        extra = sorted(set(value) - {"type", "coordinates", "bbox"})[0]
        return [], (f"has the unknown key {json.dumps(extra)[:80]}; give a bare GeoJSON "
                    "geometry (type and coordinates)")
    kind = str(gtype)
    return _positions_fault(value.get("coordinates"), _DEPTH[kind], ["coordinates"], kind, [0])


def _positions_fault(node: Any, depth: int, path: list[str | int], gtype: str,
                     count: list[int]) -> tuple[list[str | int], str] | None:
    if depth == 0:
        if (not isinstance(node, list) or len(node) not in (2, 3)
                or not all(isinstance(c, int | float) and not isinstance(c, bool)
                           and math.isfinite(c) for c in node)):
            return path, "must be a position [longitude, latitude]"
        lon, lat = node[0], node[1]
        if not (-180 <= lon <= 180 and -90 <= lat <= 90):
            return path, (f"is [{lon}, {lat}], which is not a WGS84 longitude/latitude; case "
                          "geometry must be GeoJSON in WGS84 (longitude first)")
        count[0] += 1
        if count[0] > MAX_FEATURE_VERTICES:
            return path, (f"has more than {MAX_FEATURE_VERTICES:,} positions; a site feature "
                          f"or component has at most {MAX_FEATURE_VERTICES:,}")
        return None
    if not isinstance(node, list) or not node:
        return path, f"must be a non-empty list of coordinates for a {gtype}"
    for i, child in enumerate(node):
        fault = _positions_fault(child, depth - 1, [*path, i], gtype, count)
        if fault is not None:
            return fault
    if (gtype in ("Polygon", "MultiPolygon") and depth == 1
            and (len(node) < 4 or node[0] != node[-1])):
        return path, ("is not a closed ring; a polygon ring needs at least four positions "
                      "and must end where it starts")
    return None
