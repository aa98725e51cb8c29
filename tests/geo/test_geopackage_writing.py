"""`vector_files.geopackage_bytes`: layers written by GDAL, read back by GDAL, with every
kind of field, missing values kept missing, and an empty layer still a layer."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import numpy as np
import pyogrio
import pyogrio.raw
import shapely

from inspector_app.geo.export_shapes import point_feet
from inspector_app.geo.vector_files import OutLayer, geopackage_bytes, read_vector_table


def test_fields_nulls_and_an_empty_layer_read_back(tmp_path: Path) -> None:
    at = point_feet(-77.28, 42.85)  # on Canandaigua Lake
    points = OutLayer(
        "points", "Point",
        (("name", "text"), ("count", "integer"), ("feet", "real"), ("day", "date")),
        [at, None],
        [("Canandaigua – Lake", 3, 12.5, date(2026, 3, 1)), (None, None, None, None)])
    empty = OutLayer("areas", "MultiPolygon", (("name", "text"),), [], [])
    path = tmp_path / "x.gpkg"
    path.write_bytes(geopackage_bytes([points, empty]))

    assert [list(map(str, row)) for row in pyogrio.list_layers(path)] == [
        ["points", "Point"], ["areas", "MultiPolygon"]]
    assert pyogrio.read_info(path, layer="areas")["features"] == 0
    meta, _, wkb, values = pyogrio.raw.read(path, layer="points")
    assert meta["crs"] == "EPSG:2261"
    assert meta["ogr_types"] == ["OFTString", "OFTInteger64", "OFTReal", "OFTDate"]
    name, count, feet, day = values
    assert list(name) == ["Canandaigua – Lake", None]
    assert count[0] == 3 and np.isnan(count[1])  # a missing integer is no value, not 0
    assert feet[0] == 12.5 and np.isnan(feet[1])
    assert str(day[0]) == "2026-03-01" and np.isnat(day[1])
    assert shapely.from_wkb(wkb[0]).equals(at)
    assert wkb[1] is None
    # and the app's own reader takes it back, in the same feet
    table = read_vector_table(path)
    assert table.geometries[0] is not None
    assert table.geometries[0].distance(at) < 1e-6
