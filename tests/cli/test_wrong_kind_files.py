"""Every command that reads a file, given a file of the wrong kind (binary data, plain
text, JSON cut short, text in another encoding) under the name the command expects: one
sentence naming the file, exit status 2, nothing changed, and never the words of a library
or of Python (a setting of GDAL, a codec, an errno, a traceback). The commands are those
of tests/cli/test_file_doors.py, which finds them from the parser itself."""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from inspector_app.cli import run
from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.workspace import Workspace
from tests.cli.test_file_doors import CASES
from tests.geo.nmea import noisy_log

SBL = "900.01-1-13"  # a demo parcel

# The name each reading argument's file is given (its kind shown by its suffix, so that
# what is refused is its content), and the command line with readable files of the right
# kind around it (SHORE, AREA, LOG) and OUT where it writes.
COMMANDS: dict[tuple[str, str], tuple[str, list[str]]] = {
    ("case import", "file"): ("case.json", ["case", "import", "FILE"]),
    ("parcels import", "file"): ("roll.csv", ["parcels", "import", "FILE"]),
    ("parcels import-lines", "file"): ("lots.geojson", ["parcels", "import-lines", "FILE"]),
    ("evaluate", "file"): ("case.json", ["evaluate", "FILE"]),
    ("jurisdiction check", "file"): ("law.toml", ["jurisdiction", "check", "FILE"]),
    ("jurisdiction use", "file"): ("law.toml", ["jurisdiction", "use", "FILE"]),
    ("distance", "--shoreline"): ("shore.geojson", ["distance", "--shoreline", "FILE",
                                                    "--area", "AREA"]),
    ("distance", "--area"): ("area.geojson", ["distance", "--shoreline", "SHORE", "--area",
                                              "FILE"]),
    ("distance", "--areas"): ("areas.geojson", ["distance", "--shoreline", "SHORE",
                                                "--areas", "FILE"]),
    ("shoreline import", "file"): ("shore.geojson", ["shoreline", "import", "FILE", "--name",
                                                     "x", "--accuracy-ft", "1"]),
    ("basemap import", "file"): ("image.tif", ["basemap", "import", "FILE", "--name", "x"]),
    ("site", "--file"): ("well.geojson", ["site", SBL, "well", "--file", "FILE"]),
    ("site", "--gps"): ("well.nmea", ["site", SBL, "well", "--gps", "LOG", "FILE"]),
    ("gps", "--log"): ("well.nmea", ["gps", "--log", "FILE"]),
    ("letters", "file"): ("case.json", ["letters", "FILE", "--out", "OUT"]),
    ("attest", "--signature"): ("signature.png", [
        "attest", SBL, "--name", "A. Smith", "--kind", "certified_inspector", "--number",
        "1", "--signature", "FILE"]),
    ("office use", "file"): ("office.toml", ["office", "use", "FILE"]),
    ("wording use", "file"): ("templates.toml", ["wording", "use", "FILE"]),
    ("sync enroll", "--passphrase-file"): ("passphrase.txt", [
        "sync", "enroll", "--device", "x", "--out", "OUT", "--parcels", SBL,
        "--passphrase-file", "FILE"]),
    ("sync join", "file"): ("laptop.wikit", ["sync", "join", "FILE", "--passphrase-file",
                                             "PASS"]),
    ("sync join", "--passphrase-file"): ("passphrase.txt", ["sync", "join", "KIT",
                                                            "--passphrase-file", "FILE"]),
    ("sync import", "file"): ("package.zip", ["sync", "import", "FILE"]),
    ("records import", "file"): ("reports.csv", ["records", "import", "FILE", "--kind",
                                                 "etu-service"]),
}
# Any file may be attached; any text is a passphrase.
ANY_FILE = {("attach", "file")}
ANY_TEXT = {("sync enroll", "--passphrase-file"), ("sync join", "--passphrase-file")}

KINDS = {
    "binary": bytes(range(256)) * 4,
    "plain text": b"hello world\nthis is not it\n",
    "JSON cut short": b'{"type": "FeatureCollection", "features": [{"type": "Feature", "geo',
    "Windows-1252 text": "name = \"M\u00fcller Caf\u00e9\"\n".encode("cp1252"),
}
LIBRARY_WORDS = ("GDAL", "OGR", "codec", "config option", "Errno", "Traceback",
                 "unexpectedly", "Exception", "sqlite3", "rasterio", "pyogrio", "shapely",
                 "json.", "tomllib", "char ")


def test_every_reading_argument_is_tried() -> None:
    assert set(COMMANDS) | ANY_FILE == set(CASES)


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("demo") / "data"
    with Workspace(root, user="k.olmsted") as ws:
        install_demo(ws)
    return root


@pytest.fixture
def data(demo: Path, tmp_path: Path) -> Iterator[Path]:
    copy = tmp_path / "data"
    shutil.copytree(demo, copy)
    yield copy


def _state(data: Path) -> tuple[object, list[str]]:
    with sqlite3.connect(f"file:{data / 'inspector.sqlite'}?mode=ro", uri=True) as conn:
        seq = conn.execute("SELECT max(seq) FROM change_log").fetchone()[0]
    files = sorted(str(p.relative_to(data)) for p in data.rglob("*")
                   if "backups" not in p.parts and not p.name.endswith(("-wal", "-shm")))
    return seq, files


def _inputs(tmp_path: Path) -> dict[str, str]:
    shore = tmp_path / "ok-shore.geojson"
    shore.write_text('{"type": "LineString", "coordinates": [[-77.31, 42.80], '
                     '[-77.31, 42.81]]}')
    area = tmp_path / "ok-area.geojson"
    area.write_text('{"type": "Point", "coordinates": [-77.30, 42.80]}')
    log = tmp_path / "ok.nmea"
    log.write_text("\n".join(noisy_log(-77.30, 42.80, 20)) + "\n")
    passphrase = tmp_path / "ok-passphrase.txt"
    passphrase.write_text("correct horse battery staple\n")
    kit = tmp_path / "ok.wikit"
    kit.write_bytes(b"not looked at: the passphrase is refused first")
    return {"SHORE": str(shore), "AREA": str(area), "LOG": str(log), "PASS": str(passphrase),
            "KIT": str(kit), "OUT": str(tmp_path / "out")}


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("case", COMMANDS, ids=" ".join)
def test_a_file_of_the_wrong_kind(data: Path, tmp_path: Path,
                                  capsys: pytest.CaptureFixture[str], case: tuple[str, str],
                                  kind: str) -> None:
    if case in ANY_TEXT and kind != "binary":
        pytest.skip("any text is a passphrase")
    name, argv = COMMANDS[case]
    wrong = tmp_path / "given" / name
    wrong.parent.mkdir()
    wrong.write_bytes(KINDS[kind])
    words = {**_inputs(tmp_path), "FILE": str(wrong)}
    joining = case[0] == "sync join"
    folder = tmp_path / "new" if joining else data  # only an empty folder can join
    before = None if joining else _state(data)
    status = run(["--data-dir", str(folder), *[words.get(a, a) for a in argv]])
    out, err = capsys.readouterr()
    lines = err.splitlines()
    assert status == 2, err
    assert len(lines) == 1, err
    assert lines[0].startswith(f"{wrong}: "), lines[0]
    assert not [w for w in LIBRARY_WORDS if w in lines[0]], lines[0]
    assert out == ""
    assert not (tmp_path / "out").exists()
    if joining:
        assert not folder.exists()
    else:
        assert _state(data) == before
    assert wrong.read_bytes() == KINDS[kind]


# --- the layer files a county hands over, incomplete or damaged ---------------------------

def _shapefile(folder: Path) -> Path:
    import numpy as np
    import pyogrio
    import shapely

    folder.mkdir()
    lot = shapely.box(-77.3005, 42.8, -77.3, 42.8005)
    pyogrio.raw.write(folder / "lots.shp", np.array([shapely.to_wkb(lot)], dtype=object),
                      [np.array([SBL])], ["SBL"], geometry_type="Polygon", crs="EPSG:4326",
                      driver="ESRI Shapefile")
    return folder / "lots.shp"


def _refused(data: Path, capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    before = _state(data)
    status = run(["--data-dir", str(data), *argv])
    out, err = capsys.readouterr()
    assert (status, out) == (2, ""), err
    assert len(err.splitlines()) == 1, err
    assert not [w for w in LIBRARY_WORDS if w in err], err
    assert _state(data) == before
    return err.strip()


@pytest.mark.parametrize("side", [".shx", ".dbf", ".prj"])
@pytest.mark.parametrize("command", [["parcels", "import-lines"],
                                     ["shoreline", "import", "--name", "x", "--accuracy-ft",
                                      "1"]])
def test_a_shapefile_without_a_side_file(data: Path, tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str], side: str,
                                         command: list[str]) -> None:
    shp = _shapefile(tmp_path / "county")
    shp.with_suffix(side).unlink()
    err = _refused(data, capsys, [*command[:2], str(shp), *command[2:]])
    assert err == (f"{shp}: the shapefile's {side} file (lots{side}) is missing beside it; "
                   "copy the whole set (.shp, .shx, .dbf, .prj) into one folder.")


def test_a_shapefile_cut_short(data: Path, tmp_path: Path,
                               capsys: pytest.CaptureFixture[str]) -> None:
    shp = _shapefile(tmp_path / "county")
    shp.write_bytes(shp.read_bytes()[:60])
    err = _refused(data, capsys, ["parcels", "import-lines", str(shp)])
    assert err == (f"{shp}: cannot be read as an ESRI Shapefile: it is damaged or was cut "
                   "short; copy the whole set (.shp, .shx, .dbf, .prj) again.")


@pytest.mark.parametrize(("text", "words"), [
    ('{"type": "Feature", "properties": {"SBL": "900.01-1-13"}, "geometry": {"type": '
     '"Polygon", "coordinates": [[[NaN, 42.8], [-77.29, 42.8], [-77.29, 42.81], [NaN, '
     '42.8]]]}}', "feature 1's geometry is not valid (a ring that is not closed, or a coordinate "
     "that is not a number)"),
    ('{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {}, '
     '"geometry": {"type": "Point", "coordinates": [1e999, 42.8]}}]}',
     "features[0].geometry.coordinates[0] is 1e999, which is not a finite number"),
    ('{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": '
     '{"": 1, "a b": 2}, "geometry": {"type": "Polygon", "coordinates": [[[-77.3, 42.8], '
     '[-77.29, 42.8], [-77.29, 42.81], [-77.3, 42.8]]]}}]}',
     "no field looks like it holds tax map numbers"),
])
def test_geojson_a_library_cannot_read(data: Path, tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str], text: str,
                                       words: str) -> None:
    path = tmp_path / "lots.geojson"
    path.write_text(text)
    err = _refused(data, capsys, ["parcels", "import-lines", str(path)])
    assert err.startswith(f"{path}: {words}"), err
    assert "cannot be read as GeoJSON" not in err


def test_a_point_at_an_infinite_longitude_in_state_plane(data: Path, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    err = _refused(data, capsys, ["site", SBL, "well", "--state-plane", "1e300,1e300"])
    assert "inf" not in err
    assert "lie beyond where their coordinate system" in err
