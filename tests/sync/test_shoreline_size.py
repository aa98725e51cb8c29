"""A shoreline layer over the vertex limit is refused whole; the largest one allowed goes
through sync from the office to the laptop."""

from __future__ import annotations

import json
import math
import zipfile
from pathlib import Path

import pytest

from inspector_app.errors import InputError
from inspector_app.services import exchange as sync
from inspector_app.services.reference.shorelines import (
    MAX_LAYER_VERTICES,
    import_layer,
    list_layers,
)
from inspector_app.sync.package import MAX_MEMBER_BYTES

from .conftest import Pair


def _shore(path: Path, vertices: int) -> Path:
    """An open line of `vertices` points around the middle of the lake, in WGS84."""
    coords = []
    for n in range(vertices):
        t = 2 * math.pi * 0.97 * n / vertices
        coords.append([round(-77.3 + 0.02 * math.cos(t), 9),
                       round(42.75 + 0.1 * math.sin(t), 9)])
    path.write_text(json.dumps({"type": "Feature", "properties": {},
                                "geometry": {"type": "LineString", "coordinates": coords}}))
    return path


def test_a_layer_over_the_vertex_limit_is_refused_whole(pair: Pair) -> None:
    before = list_layers(pair.office)
    path = _shore(pair.tmp / "too-many.geojson", MAX_LAYER_VERTICES + 1)
    with pytest.raises(InputError) as refused:
        import_layer(pair.office, path, name="Too fine", accuracy_ft=1)
    message = str(refused.value)
    assert f"{MAX_LAYER_VERTICES + 1:,} vertices" in message
    assert f"limit of {MAX_LAYER_VERTICES:,} vertices" in message
    assert "Nothing was imported" in message
    assert list_layers(pair.office) == before


@pytest.mark.slow
def test_the_largest_layer_allowed_syncs_to_the_laptop(pair: Pair) -> None:
    path = _shore(pair.tmp / "largest.geojson", MAX_LAYER_VERTICES)
    layer = import_layer(pair.office, path, name="Survey line", accuracy_ft=1)
    assert layer["vertices"] == MAX_LAYER_VERTICES
    package = pair.tmp / "down.zip"
    sync.export(pair.office, package)
    with zipfile.ZipFile(package) as z:
        largest = max(i.file_size for i in z.infolist())
    assert largest < MAX_MEMBER_BYTES / 10
    result = sync.import_package(pair.field, package)
    assert result["applied"] >= 1
    (active,) = [r for r in list_layers(pair.field) if r["active"]]
    assert (active["name"], active["vertices"]) == ("Survey line", MAX_LAYER_VERTICES)
