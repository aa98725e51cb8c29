"""The `distance` command: areas against a shoreline file, no data folder involved."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from ...domain.rules import zone_for
from ...domain.units import plain_number
from ...errors import InputError
from ...geo.crs import MEASURE_CRS
from ...geo.vector_files import read_geojson_areas
from ...json_input import loads
from .shorelines import read_layer_file

SETBACK_FT = 200.0  # the contract's zones are named for the 200-ft line


ACCURACY_ASSUMED = ("the shoreline file declares no accuracy and --accuracy-ft was not "
                    "given: 0 ft is assumed, so the zone takes the line as exact")


def declared_accuracy_ft(shoreline: Path) -> float | None:
    """The accuracy a GeoJSON shoreline file declares for itself, in feet: an `accuracy_ft`
    member of the document, or of every feature's properties (the largest counts)."""
    if shoreline.suffix.lower() not in (".geojson", ".json"):
        return None
    try:
        doc = loads(shoreline.read_text("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    if not isinstance(doc, dict):
        return None
    found = [doc.get("accuracy_ft")]
    features = doc.get("features")
    if isinstance(features, list) and features:
        props = [f.get("properties") if isinstance(f, dict) else None for f in features]
        values = [p.get("accuracy_ft") if isinstance(p, dict) else None for p in props]
        if all(_feet(v) is not None for v in values):
            found += values
    feet = [v for v in (_feet(x) for x in found) if v is not None]
    return max(feet) if feet else None


def _feet(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    number = float(value)
    return number if math.isfinite(number) and 0 <= number <= 100_000 else None


def distances(shoreline: Path, areas_file: Path, *, accuracy_ft: float | None,
              batch: bool) -> list[dict[str, Any]]:
    """Distances to a shoreline file. Without an accuracy given, the file's declared
    accuracy is used, else 0 ft is assumed and the result says so."""
    lake, _ = read_layer_file(shoreline)
    areas = read_geojson_areas(areas_file)
    basis = "given"
    if accuracy_ft is None:
        accuracy_ft = declared_accuracy_ft(shoreline)
        basis = "declared"
        if accuracy_ft is None:
            accuracy_ft, basis = 0.0, "assumed"
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
            "shoreline_accuracy_basis": basis,
        })
        if basis == "assumed":
            result["shoreline_accuracy_note"] = ACCURACY_ASSUMED
        out.append(result)
    return out
