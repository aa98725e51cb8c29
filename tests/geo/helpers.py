"""Geometry built in EPSG:2261 feet, written as WGS84 files: the right answer is known."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import shapely
from pyproj import Transformer

TO_LONLAT = Transformer.from_crs("EPSG:2261", "OGC:CRS84", always_xy=True)
TO_FEET = Transformer.from_crs("OGC:CRS84", "EPSG:2261", always_xy=True)
# A point on Canandaigua Lake, in State Plane feet, to build around.
X0, Y0 = 625_000.0, 1_010_000.0


def lonlat(geom: Any) -> Any:
    return shapely.transform(geom, lambda xy: np.column_stack(TO_LONLAT.transform(xy[:, 0],
                                                                                  xy[:, 1])))


def box(x: float, y: float, w: float, h: float) -> Any:
    return shapely.box(X0 + x, Y0 + y, X0 + x + w, Y0 + y + h)


def lake_with_island() -> Any:
    """A 10,000 ft square lake with a 1,000 ft square island in the middle."""
    outer = [(X0, Y0), (X0 + 10_000, Y0), (X0 + 10_000, Y0 + 10_000), (X0, Y0 + 10_000)]
    hole = [(X0 + 4500, Y0 + 4500), (X0 + 5500, Y0 + 4500), (X0 + 5500, Y0 + 5500),
            (X0 + 4500, Y0 + 5500)]
    return shapely.Polygon(outer, [hole])


def feature_collection(geoms: list[Any], ids: list[Any] | None = None,
                       crs: str | None = None) -> dict[str, Any]:
    doc: dict[str, Any] = {"type": "FeatureCollection", "features": [
        {"type": "Feature", "properties": {},
         "geometry": json.loads(shapely.to_geojson(g)),
         **({"id": ids[i]} if ids else {})} for i, g in enumerate(geoms)]}
    if crs:
        doc["crs"] = {"type": "name", "properties": {"name": crs}}
    return doc


def write(path: Path, doc: dict[str, Any]) -> Path:
    path.write_text(json.dumps(doc))
    return path


def write_wgs84(path: Path, geoms: list[Any], ids: list[Any] | None = None) -> Path:
    return write(path, feature_collection([lonlat(g) for g in geoms], ids))
