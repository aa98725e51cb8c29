from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pyogrio
import pytest
import shapely

from inspector_app.errors import InputError
from inspector_app.geo.lake_line import LakeLine, classify
from inspector_app.geo.vector_files import GeometryFileError, read_vector_file
from inspector_app.services.reference.distances import distances
from tests.geo.helpers import (
    X0,
    Y0,
    box,
    feature_collection,
    lake_with_island,
    lonlat,
    write,
    write_wgs84,
)


@pytest.fixture
def lake_file(tmp_path: Path) -> Path:
    return write_wgs84(tmp_path / "lake.geojson", [lake_with_island()])


def _one(lake_file: Path, tmp_path: Path, area, accuracy: float = 0):
    area_file = write_wgs84(tmp_path / "area.geojson", [area])
    return distances(lake_file, area_file, accuracy_ft=accuracy, batch=False)[0]


@pytest.mark.parametrize(("gap", "zone"), [(150, "within_200ft"), (199.99, "within_200ft"),
                                           (200, "within_200ft"), (200.01, "beyond_200ft"),
                                           (1000, "beyond_200ft")])
def test_distance_outside_the_lake(lake_file: Path, tmp_path: Path, gap: float,
                                   zone: str) -> None:
    area = box(10_000 + gap, 3000, 40, 60)  # east of the lake
    result = _one(lake_file, tmp_path, area)
    assert result["distance_ft"] == pytest.approx(gap, abs=0.005)
    assert result["zone"] == zone
    assert result["crs"] == "EPSG:2261"
    assert result["shoreline_accuracy_ft"] == 0


def test_island_shores_are_lake_line_too(lake_file: Path, tmp_path: Path) -> None:
    on_island = box(4500 + 150, 4500 + 400, 30, 30)  # 150 ft from the island's west shore
    assert _one(lake_file, tmp_path, on_island)["distance_ft"] == pytest.approx(150, abs=0.005)


def test_overlapping_the_water_is_zero(lake_file: Path, tmp_path: Path) -> None:
    straddling = box(9_980, 2000, 40, 60)
    result = _one(lake_file, tmp_path, straddling)
    assert result["distance_ft"] == 0
    assert result["nearest"]["area"] == result["nearest"]["shoreline"]
    assert _one(lake_file, tmp_path, box(3000, 3000, 40, 40))["distance_ft"] == 0


def test_nearest_points_draw_the_dimension_line(lake_file: Path, tmp_path: Path) -> None:
    result = _one(lake_file, tmp_path, box(10_300, 3000, 40, 60))
    from tests.geo.helpers import TO_FEET

    ax, ay = TO_FEET.transform(*result["nearest"]["area"])
    sx, sy = TO_FEET.transform(*result["nearest"]["shoreline"])
    assert ax == pytest.approx(X0 + 10_300, abs=0.05)
    assert sx == pytest.approx(X0 + 10_000, abs=0.05)
    assert 3000 - 0.05 <= sy - Y0 <= 3060 + 0.05  # rounded, as the lines above
    assert ((ax - sx) ** 2 + (ay - sy) ** 2) ** 0.5 == pytest.approx(300, abs=0.05)


@pytest.mark.parametrize(("gap", "accuracy", "zone"), [
    (190, 10, "within_200ft"), (190, 10.5, "undetermined"), (215, 15, "undetermined"),
    (215, 14.9, "beyond_200ft"), (150, 1000, "undetermined")])
def test_accuracy_bands(lake_file: Path, tmp_path: Path, gap: float, accuracy: float,
                        zone: str) -> None:
    result = _one(lake_file, tmp_path, box(10_000 + gap, 3000, 40, 60), accuracy)
    assert (result["zone"], result["shoreline_accuracy_ft"]) == (zone, accuracy)


def test_line_layer_is_the_line_itself(tmp_path: Path) -> None:
    line = shapely.LineString([(X0, Y0), (X0, Y0 + 20_000)])
    shore = write_wgs84(tmp_path / "line.geojson", [line])
    area = write_wgs84(tmp_path / "a.geojson", [box(-300, 5000, 40, 60)])
    assert distances(shore, area, accuracy_ft=0, batch=False)[0]["distance_ft"] == (
        pytest.approx(260, abs=0.005))


def test_batch_keeps_order_and_ids(lake_file: Path, tmp_path: Path) -> None:
    gaps = [500, 50, 250, 0.5]
    areas = [box(10_000 + g, 1000 * i, 40, 60) for i, g in enumerate(gaps)]
    batch = write_wgs84(tmp_path / "batch.geojson", areas, ids=["lot-7", 12, "lot-2", 3])
    results = distances(lake_file, batch, accuracy_ft=0, batch=True)
    assert [r["id"] for r in results] == ["lot-7", 12, "lot-2", 3]
    assert [r["distance_ft"] for r in results] == pytest.approx(gaps, abs=0.005)
    with pytest.raises(InputError, match="holds 4 features; --area takes exactly one"):
        distances(lake_file, batch, accuracy_ft=0, batch=False)


def test_strtree_matches_plain_shapely(tmp_path: Path) -> None:
    rng = random.Random(5)
    angles = np.linspace(0, 2 * np.pi, 2000, endpoint=False)
    radii = 20_000 + 3000 * np.sin(7 * angles) + np.array([rng.uniform(-200, 200)
                                                           for _ in angles])
    lake = shapely.Polygon(np.column_stack([X0 + radii * np.cos(angles),
                                            Y0 + radii * np.sin(angles)]))
    line = LakeLine(*classify([lake], "test"))
    areas = [shapely.Point(X0 + rng.uniform(-30_000, 30_000),
                           Y0 + rng.uniform(-30_000, 30_000)).buffer(30) for _ in range(300)]
    ours = [m.distance_ft for m in line.measure_many(areas)]
    plain = [0.0 if a.intersects(lake) else a.distance(lake.boundary) for a in areas]
    assert np.allclose(ours, plain, atol=0.01)


def test_projected_geojson_and_shapefile_and_geopackage(tmp_path: Path) -> None:
    lake = lake_with_island()
    named = write(tmp_path / "sp.geojson", feature_collection([lake], crs="EPSG:2261"))
    wgs = read_vector_file(write_wgs84(tmp_path / "w.geojson", [lake]))
    for path in (named, _write_ogr(tmp_path / "lake.shp", lake, "ESRI Shapefile"),
                 _write_ogr(tmp_path / "lake.gpkg", lake, "GPKG")):
        features = read_vector_file(path)
        assert features.geometries[0].area == pytest.approx(wgs.geometries[0].area, rel=1e-9)
    utm = write(tmp_path / "utm.geojson", feature_collection(
        [shapely.transform(lake, _to_utm)], crs="EPSG:26918"))
    area = write_wgs84(tmp_path / "a.geojson", [box(10_250, 3000, 40, 60)])
    assert distances(utm, area, accuracy_ft=0, batch=False)[0]["distance_ft"] == (
        pytest.approx(250, abs=0.01))


def _to_utm(xy: np.ndarray) -> np.ndarray:
    from pyproj import Transformer

    t = Transformer.from_crs("EPSG:2261", "EPSG:26918", always_xy=True)
    return np.column_stack(t.transform(xy[:, 0], xy[:, 1]))


def _write_ogr(path: Path, geom, driver: str, crs: str | None = "EPSG:4326") -> Path:
    wgs = lonlat(geom)
    pyogrio.raw.write(path, np.array([shapely.to_wkb(wgs)], dtype=object), [], [],
                      geometry_type=wgs.geom_type, crs=crs, driver=driver)
    return path


# --- refusals --------------------------------------------------------------------------

def test_shapefile_without_prj_is_refused(tmp_path: Path) -> None:
    path = _write_ogr(tmp_path / "lake.shp", lake_with_island(), "ESRI Shapefile")
    path.with_suffix(".prj").unlink()
    with pytest.raises(GeometryFileError, match=r"the shapefile's \.prj file \(lake\.prj\) is "
                                                r"missing beside it; copy the whole set"):
        read_vector_file(path)


def test_points_are_not_a_shoreline(tmp_path: Path) -> None:
    from inspector_app.services.reference.shorelines import read_layer_file

    pts = write_wgs84(tmp_path / "p.geojson", [shapely.Point(X0, Y0)])
    with pytest.raises(GeometryFileError, match="holds Point; a shoreline layer must be all "
                                                "polygons"):
        read_layer_file(pts)
    mixed = write_wgs84(tmp_path / "m.geojson", [lake_with_island(),
                                                 shapely.LineString([(X0, Y0), (X0, Y0 + 9)])])
    with pytest.raises(GeometryFileError, match="holds LineString, Polygon"):
        read_layer_file(mixed)


def test_coordinates_outside_the_area_of_use_are_refused(tmp_path: Path) -> None:
    florida = {"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {},
               "geometry": {"type": "LineString", "coordinates": [[-81.5, 27.5],
                                                                  [-81.4, 27.6]]}}]}
    with pytest.raises(GeometryFileError, match="outside the area of use of NY State Plane "
                                                "Central"):
        read_vector_file(write(tmp_path / "fl.geojson", florida))
    wrong_crs = write(tmp_path / "wrong.geojson", feature_collection(
        [lake_with_island()], crs="EPSG:26918"))  # feet written as if UTM metres
    with pytest.raises(GeometryFileError, match="outside the area of use"):
        read_vector_file(wrong_crs)


def test_swapped_latitude_longitude_is_refused(tmp_path: Path) -> None:
    lake = lonlat(lake_with_island())
    swapped = shapely.transform(lake, lambda xy: xy[:, ::-1].copy())
    with pytest.raises(GeometryFileError, match="latitude and longitude look swapped"):
        read_vector_file(write(tmp_path / "s.geojson", feature_collection([swapped])))


def test_empty_and_unreadable_files_are_refused(tmp_path: Path) -> None:
    empty = write(tmp_path / "e.geojson", {"type": "FeatureCollection", "features": []})
    with pytest.raises(GeometryFileError, match="contains no geometry"):
        read_vector_file(empty)
    junk = tmp_path / "junk.shp"
    junk.write_bytes(b"not a shapefile")
    for suffix in (".shx", ".dbf", ".prj"):
        junk.with_suffix(suffix).write_bytes(b"not a shapefile")
    with pytest.raises(GeometryFileError, match="cannot be read as an ESRI Shapefile: it is "
                                                "damaged or was cut short"):
        read_vector_file(junk)
    with pytest.raises(GeometryFileError, match="no such file"):
        read_vector_file(tmp_path / "missing.geojson")
    (tmp_path / "bad.json").write_text("{not json")
    from inspector_app.geo.vector_files import read_geojson_areas

    with pytest.raises(GeometryFileError, match=r"is not valid JSON \(line 1, column 2: a key "
                                                "must be written in double quotes"):
        read_geojson_areas(tmp_path / "bad.json")
    assert json.loads((tmp_path / "e.geojson").read_text())["features"] == []
