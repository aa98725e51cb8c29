"""The `distance` command: areas against a shoreline file, no data folder involved."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..domain.rules import zone_for
from ..domain.units import plain_number
from ..errors import InputError
from ..geo.crs import MEASURE_CRS
from ..geo.vector_files import read_geojson_areas
from .shorelines import read_layer_file

SETBACK_FT = 200.0  # the contract's zones are named for the 200-ft line


def distances(shoreline: Path, areas_file: Path, *, accuracy_ft: float,
              batch: bool) -> list[dict[str, Any]]:
    lake, _ = read_layer_file(shoreline)
    areas = read_geojson_areas(areas_file)
    if not batch and len(areas.geometries) != 1:
        raise InputError(f"{areas_file}: holds {len(areas.geometries)} features; --area takes "
                         "exactly one geometry (use --areas for a batch).")
    out = []
    for feature_id, m in zip(areas.ids, lake.measure_many(areas.geometries), strict=True):
        distance = round(m.distance_ft, 2)
        result: dict[str, Any] = {"id": feature_id} if batch else {}
        result.update({
            "distance_ft": distance,
            "zone": zone_for(distance, accuracy_ft, SETBACK_FT).value,
            "crs": MEASURE_CRS,
            "shoreline_accuracy_ft": plain_number(accuracy_ft),
            "nearest": m.nearest_lonlat(),
        })
        out.append(result)
    return out
