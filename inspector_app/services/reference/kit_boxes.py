"""Where a field kit's imagery is clipped: each assigned parcel's surroundings."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from ...storage import parcels as parcel_rows
from ...storage import site_features

if TYPE_CHECKING:
    from ..session.session import Session


def kit_boxes(ws: Session, parcel_ids: list[str], radius_ft: float
              ) -> list[tuple[float, float, float, float]]:
    """Each parcel's surroundings (EPSG:2261): the box around its location and its drawn
    site features, `radius_ft` beyond them. A parcel with neither has none."""
    from ...geo.crs import lonlat_to_feet

    boxes = []
    for start in range(0, len(parcel_ids), 500):
        chunk = parcel_ids[start:start + 500]
        points: dict[str, list[tuple[float, float]]] = {}
        for r in parcel_rows.locations(ws.store.conn, chunk):
            points.setdefault(r["id"], []).append((r["longitude"], r["latitude"]))
        for r in site_features.drawn_geometries(ws.store.conn, chunk):
            try:
                points.setdefault(r["parcel_id"], []).extend(
                    _lonlat_points(json.loads(r["geometry"])))
            except (TypeError, ValueError, KeyError):
                continue
        for lonlats in points.values():
            if not lonlats:
                continue
            xs, ys = lonlat_to_feet([p[0] for p in lonlats], [p[1] for p in lonlats])
            boxes.append((float(xs.min()) - radius_ft, float(ys.min()) - radius_ft,
                          float(xs.max()) + radius_ft, float(ys.max()) + radius_ft))
    return boxes


def _lonlat_points(geojson: Any) -> list[tuple[float, float]]:
    coords = geojson["coordinates"] if isinstance(geojson, dict) else geojson
    if isinstance(coords, list) and len(coords) >= 2 and all(
            isinstance(v, (int, float)) for v in coords[:2]):
        return [(float(coords[0]), float(coords[1]))]
    out: list[tuple[float, float]] = []
    if isinstance(coords, list):
        for part in coords:
            out.extend(_lonlat_points(part))
    return out
