"""Hostile files through the command line, as a user runs it: a database file whose views
never end, an image that declares more pixels than the office could hold. Each is refused
with one sentence naming the file, exit status 2, and nothing written; the subprocess
timeout only guards against a hang (the refusal itself takes about a second)."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests import hostile_files, pg_engine

ROOT = Path(__file__).resolve().parents[2]


def cli(data: Path, *argv: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "inspector_app", "--data-dir", str(data),
                           *argv], capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL, env=env)


def snapshot(folder: Path) -> dict[str, str]:
    """Every file under the data folder with a digest of its contents; the database's by
    a digest of the records it holds (SQLite may fold its log into the file at any close;
    the kept summaries are derived data, worked out by any reading command). The day's
    safety copy, which any command opening the folder takes once a day, is no change."""
    out = {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
           for p in sorted(folder.rglob("*")) if p.is_file()
           and not p.name.startswith("inspector.sqlite")
           and not (p.parent.name == "backups" and p.name.endswith("-daily.sqlite"))}
    conn = sqlite3.connect(f"file:{folder / 'inspector.sqlite'}?mode=ro", uri=True)
    try:
        out["inspector.sqlite"] = hashlib.sha256(
            "\n".join(line for line in conn.iterdump()
                      if not line.startswith('INSERT INTO "case_summaries"')).encode()
        ).hexdigest()
    finally:
        conn.close()
    return out


def assert_refused(result: subprocess.CompletedProcess[str], file: Path, *words: str) -> None:
    err = result.stderr.strip()
    assert result.returncode == 2, err
    assert result.stdout == ""
    assert "\n" not in err and err.endswith("."), err
    assert str(file) in err and "unexpectedly" not in err, err
    for word in words:
        assert word in err, err


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    data = tmp_path_factory.mktemp("demo") / "data"
    assert cli(data, "demo", "--parcels", "3").returncode == 0
    return data


SQLITE_DOORS = [
    ("loop.mbtiles", hostile_files.loop_mbtiles, ["basemap", "import", "FILE", "--name", "x"],
     "common table expression"),
    ("cross.mbtiles", hostile_files.endless_view_mbtiles,
     ["basemap", "import", "FILE", "--name", "x"], "SQLite steps"),
    ("trigger.mbtiles", hostile_files.trigger_mbtiles,
     ["basemap", "import", "FILE", "--name", "x"], "trigger (t)"),
    ("loop.gpkg", hostile_files.loop_gpkg, ["parcels", "import-lines", "FILE"],
     "common table expression"),
    ("loop.gpkg", hostile_files.loop_gpkg,
     ["shoreline", "import", "FILE", "--name", "x", "--accuracy-ft", "1"],
     "common table expression"),
    ("cross.gpkg", hostile_files.endless_view_gpkg, ["parcels", "import-lines", "FILE"],
     "SQLite steps"),
    ("cross.gpkg", hostile_files.endless_view_gpkg,
     ["shoreline", "import", "FILE", "--name", "x", "--accuracy-ft", "1"], "SQLite steps"),
    ("loop.gpkg", hostile_files.loop_gpkg, ["basemap", "import", "FILE", "--name", "x"],
     "not an image"),
    ("loop.gpkg", hostile_files.loop_gpkg, ["parcels", "import", "FILE"],
     "common table expression"),
]


@pytest.mark.parametrize(("name", "make", "argv", "words"), SQLITE_DOORS)
def test_a_database_whose_reading_never_ends_is_refused(tmp_path: Path, demo: Path, name: str,
                                                        make, argv: list[str],
                                                        words: str) -> None:
    file = make(tmp_path / name)
    args = [str(file) if a == "FILE" else a for a in argv]
    fresh = tmp_path / "fresh"
    assert_refused(cli(fresh, *args), file, words)
    assert not fresh.exists()
    before = snapshot(demo)
    assert_refused(cli(demo, *args), file, words)
    assert snapshot(demo) == before


def test_an_image_declaring_more_pixels_than_the_budget_is_refused_from_its_header(
        tmp_path: Path, demo: Path) -> None:
    from inspector_app.geo.rasters import CLIP_PX_BUDGET

    image = hostile_files.huge_sparse_geotiff(tmp_path / "huge.tif")
    fresh = tmp_path / "fresh"
    result = cli(fresh, "basemap", "import", str(image), "--name", "Huge")
    if pg_engine.active():  # at an office database a reference, which needs no copy
        assert_refused(result, image, "200,000 x 200,000 pixels")
    else:
        assert_refused(result, image, "200,000 x 200,000 pixels",
                       f"{CLIP_PX_BUDGET:,} pixels")
    assert not fresh.exists()
    before = snapshot(demo)
    for storage in ("--copy", "--reference"):
        result = cli(demo, "basemap", "import", str(image), "--name", "Huge", storage)
        assert_refused(result, image, "200,000 x 200,000 pixels")
    assert snapshot(demo) == before
    assert not list((demo / "basemaps").glob(".*"))  # no temporary file left


def test_a_kit_of_imagery_too_fine_to_clip_is_refused_before_clipping(
        tmp_path: Path, demo: Path) -> None:
    conn = sqlite3.connect(demo / "inspector.sqlite")
    sbl, lon, lat = conn.execute("SELECT sbl, longitude, latitude FROM parcels "
                                 "WHERE longitude IS NOT NULL LIMIT 1").fetchone()
    conn.close()
    tile = hostile_files.one_fine_tile_mbtiles(tmp_path / "z22.mbtiles", lon, lat)
    imported = cli(demo, "basemap", "import", str(tile), "--name", "Fine")
    assert imported.returncode == 0, imported.stderr
    passphrase = tmp_path / "passphrase"
    passphrase.write_text("correct horse battery staple\n")
    kit = tmp_path / "kit.zip"
    # the office's own key pair is made by its first enrolment, imagery or not
    assert cli(demo, "basemap", "off").returncode == 0
    assert cli(demo, "sync", "enroll", "--device", "Laptop 0", "--out",
               str(tmp_path / "first.zip"), "--parcels", sbl, "--passphrase-file",
               str(passphrase)).returncode == 0
    assert cli(demo, "basemap", "use", "Fine").returncode == 0
    before = snapshot(demo)
    result = cli(demo, "sync", "enroll", "--device", "Laptop 1", "--out", str(kit),
                 "--parcels", sbl, "--passphrase-file", str(passphrase))
    err = result.stderr.strip()
    assert result.returncode == 2 and "\n" not in err, err
    assert "basemap Fine" in err and "64,000,000 a parcel" in err and "basemap off" in err
    assert not kit.exists() and snapshot(demo) == before
    assert not list((demo / "basemaps").glob(".*"))
    assert cli(demo, "basemap", "off").returncode == 0
    enrolled = cli(demo, "sync", "enroll", "--device", "Laptop 1", "--out", str(kit),
                   "--parcels", sbl, "--passphrase-file", str(passphrase))
    assert enrolled.returncode == 0, enrolled.stderr


def _layer_doors(demo: Path, file: Path) -> list[list[str]]:
    """Every command that reads a layer file, reading `file`."""
    conn = sqlite3.connect(demo / "inspector.sqlite")
    sbl = conn.execute("SELECT sbl FROM parcels LIMIT 1").fetchone()[0]
    conn.close()
    return [["shoreline", "import", str(file), "--name", "x", "--accuracy-ft", "5",
             "--far-ok"],
            ["parcels", "import-lines", str(file)],
            ["site", sbl, "absorption_area", "--file", str(file)],
            ["distance", "--shoreline", str(file), "--area", str(file)]]


def _refused_at_every_layer_door(demo: Path, file: Path, *words: str) -> None:
    before = snapshot(demo)
    for argv in _layer_doors(demo, file):
        assert_refused(cli(demo, *argv), file, *words)
    assert snapshot(demo) == before


def test_a_geojson_nested_beyond_the_depth_bound_is_refused_at_every_layer_door(
        tmp_path: Path, demo: Path) -> None:
    file = hostile_files.deep_geojson(tmp_path / "deep.geojson")
    _refused_at_every_layer_door(demo, file, "nests 100,002 levels deep")


@pytest.mark.parametrize("crs", ["+proj=geos +h=1e30 +a=1e30", "urn:ogc:def:crs:EPSG::99999"])
def test_a_layer_in_a_crs_the_app_cannot_convert_is_refused_naming_it(
        tmp_path: Path, demo: Path, crs: str) -> None:
    file = hostile_files.named_crs_geojson(tmp_path / "crs.geojson", crs)
    _refused_at_every_layer_door(demo, file, f"coordinate reference system {crs!r}",
                                 "EPSG:2261")


def test_a_utf16_geojson_is_read_as_its_utf8_twin(tmp_path: Path, demo: Path) -> None:
    utf16 = hostile_files.utf16_geojson(tmp_path / "utf16.geojson")
    utf8 = tmp_path / "utf8.geojson"
    utf8.write_text(utf16.read_text(encoding="utf-16"), encoding="utf-8")
    before = snapshot(demo)
    # these read without changing the folder (the roll is refused: no municipality column)
    for argv in [*_layer_doors(demo, utf16)[2:], ["parcels", "import", str(utf16)]]:
        read16 = cli(demo, *argv)
        read8 = cli(demo, *[str(utf8) if a == str(utf16) else a for a in argv])
        assert "GeoJSON" not in read16.stderr, read16.stderr
        assert (read16.returncode, read16.stdout, read16.stderr.replace(str(utf16), "F")) == (
            read8.returncode, read8.stdout, read8.stderr.replace(str(utf8), "F"))
    assert snapshot(demo) == before
    imported = cli(demo, "shoreline", "import", str(utf16), "--name", "utf16",
                   "--accuracy-ft", "5", "--far-ok")
    assert imported.returncode == 0, imported.stderr
    assert json.loads(imported.stdout)["vertices"] == 2


def test_a_layer_of_more_features_than_the_bound_is_refused_before_it_is_read(
        tmp_path: Path, demo: Path) -> None:
    from inspector_app.geo.capture import SITE_FILE
    from inspector_app.geo.vector_files import LAYER

    file = hostile_files.many_features_geojson(tmp_path / "many.geojson", LAYER.features + 1)
    before = snapshot(demo)
    for argv in [*_layer_doors(demo, file), ["parcels", "import", str(file)]]:
        bound = SITE_FILE.features if "site" in argv else LAYER.features
        assert_refused(cli(demo, *argv), file, f"more than {bound:,} features")
    assert snapshot(demo) == before


def test_a_geometry_of_more_vertices_than_the_bound_is_refused_before_it_is_read(
        tmp_path: Path, demo: Path) -> None:
    from inspector_app.geo.capture import SITE_FILE
    from inspector_app.geo.vector_files import LAYER

    file = hostile_files.long_line_geojson(tmp_path / "long.geojson", LAYER.vertices + 1)
    before = snapshot(demo)
    for argv in _layer_doors(demo, file):
        bound = SITE_FILE.vertices if "site" in argv else LAYER.vertices
        assert_refused(cli(demo, *argv), file, f"more than {bound:,} coordinates")
    site = hostile_files.long_line_geojson(tmp_path / "site.geojson", SITE_FILE.vertices + 1)
    argv = _layer_doors(demo, site)[2]
    assert_refused(cli(demo, *argv), site, f"more than {SITE_FILE.vertices:,} coordinates")
    assert snapshot(demo) == before


def test_only_our_sentence_reaches_the_user_when_gdal_complains_of_an_image(
        tmp_path: Path, demo: Path) -> None:
    image = hostile_files.bogus_strips_tiff(tmp_path / "bogus.tif")
    before = snapshot(demo)
    for storage in ("--copy", "--reference"):
        result = cli(demo, "basemap", "import", str(image), "--name", "Bogus", storage)
        assert_refused(result, image, "has no georeferencing")
        assert "StripByteCounts" not in result.stderr and "rasterio" not in result.stderr
    assert snapshot(demo) == before


def test_an_image_in_a_crs_the_app_cannot_convert_is_refused(tmp_path: Path,
                                                             demo: Path) -> None:
    image = hostile_files.other_body_world_file_png(tmp_path / "moon.png")
    prj = image.with_suffix(".prj")
    before = snapshot(demo)
    for storage in ("--copy", "--reference"):
        result = cli(demo, "basemap", "import", str(image), "--name", "Moon", storage)
        assert_refused(result, prj, "cannot be converted to NY State Plane Central")
        assert "nan" not in result.stderr
    assert snapshot(demo) == before
