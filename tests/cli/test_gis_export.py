"""`report export --format gpkg`: the period's systems as GIS layers in a GeoPackage,
read back with GDAL (pyogrio) and as the SQLite file it is; `--public` without a trace of
the owners; bad input refused in one sentence with nothing written."""

from __future__ import annotations

import csv
import errno
import io
import json
import sqlite3
from pathlib import Path
from typing import Any

import numpy as np
import pyogrio
import pyogrio.raw
import pytest
import shapely

from inspector_app.cli import run
from inspector_app.services.lists.gis_export import (
    COMPONENT_FIELDS,
    GPKG_LAYERS,
    HOLDING_TANK_POINT_RADIUS_FT,
    OWNER_FIELDS,
    PARCEL_FIELDS,
    SYSTEM_FIELDS,
)
from inspector_app.services.workspace import Workspace
from inspector_app.storage.cases import load_cases

AS_OF = "2026-11-25"
PERIOD = ("--from", "2021-01-01", "--to", "2026-11-24", "--as-of", AS_OF)
GEOMETRY_TYPES = {"systems": "MultiPolygon", "components": "Point", "parcels": "Point",
                  "parcel_lots": "MultiPolygon"}
# A parcel of our own beside the demo's: located components of each shape, a holding tank
# recorded as a point, and renters with their contact data.
LON, LAT = -77.3050, 42.8300
RENTER = {"name": "Quentin Lodger", "mailing_address": ["77 Quarry Lane", "Naples, NY 14512"],
          "phone": "585-555-7781", "email": "quentin@example.org"}
CASE = {
    "format": "watershed-inspector/case/1",
    "parcel": {"sbl": "112.09-1-7.2", "municipality": "Town of Canandaigua",
               "site_address": "5150 Lakeview Terrace", "owner_name": "Prudence Holloway",
               "owner_mailing_address": ["17 Birch Hollow Lane", "Pittsford, NY 14534"],
               "owner_phone": "585-555-4242", "owner_email": "prudence@example.com",
               "renters": [RENTER], "longitude": LON, "latitude": LAT},
    "dwelling": {"bedrooms": 3, "living_area_sqft": 2400},
    "site": {"holding_tank": {"type": "Point", "coordinates": [LON + 0.0002, LAT]}},
    "components": [
        {"kind": "holding_tank", "condition": "acceptable",
         "geometry": {"type": "Point", "coordinates": [LON + 0.0002, LAT]}},
        {"kind": "septic_tank", "condition": "acceptable",
         "geometry": {"type": "Polygon", "coordinates": [[
             [LON, LAT], [LON + 0.0001, LAT], [LON + 0.0001, LAT + 0.00005],
             [LON, LAT + 0.00005], [LON, LAT]]]}},
        {"kind": "septic_tank", "condition": "acceptable"},
        {"kind": "distribution_box", "condition": "acceptable",
         "geometry": {"type": "LineString", "coordinates": [[LON, LAT], [LON, LAT + 0.0002]]}},
    ],
    "inspection": {"date": "2026-03-01", "inspector": "A. Inspector",
                   "reason": "conveyance", "failure_evidence": []},
}


# A parcel with no point, no lot and no system drawn: a feature without geometry.
UNLOCATED = "999.99-9-9"


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any, str]:
    status = run(list(argv))
    out, err = capsys.readouterr()
    return status, json.loads(out) if out.strip() else None, err


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> str:
    root = tmp_path_factory.mktemp("gis")
    folder = str(root / "data")
    assert run(["--data-dir", folder, "demo", "--as-of", AS_OF]) == 0
    nowhere = {**CASE, "parcel": {k: v for k, v in CASE["parcel"].items()
                                  if k not in ("longitude", "latitude", "renters")},
               "site": {}, "components": [{"kind": "septic_tank", "condition": "acceptable"}]}
    nowhere["parcel"]["sbl"] = UNLOCATED
    for name, case in (("case.json", CASE), ("nowhere.json", nowhere)):
        (root / name).write_text(json.dumps(case), "utf-8")
        assert run(["--data-dir", folder, "case", "import", str(root / name),
                    "--as-of", AS_OF]) == 0
    return folder


def _layer(path: Path, name: str) -> tuple[dict[str, Any], list[Any], dict[str, list[Any]]]:
    """A layer read back by GDAL: its description, its geometries and its fields' values."""
    meta, _, wkb, values = pyogrio.raw.read(path, layer=name)
    geometries = [None if g is None else shapely.from_wkb(g) for g in wkb]
    return meta, geometries, {str(f): list(v) for f, v in zip(meta["fields"], values,
                                                               strict=True)}


def _export(capsys: pytest.CaptureFixture[str], data: str, out: Path,
            *extra: str) -> dict[str, Any]:
    capsys.readouterr()
    status, summary, err = _cli(capsys, "--data-dir", data, "report", "export", *PERIOD,
                                "--out", str(out), *extra)
    assert status == 0, err
    return dict(summary)


def test_the_layers_their_types_crs_and_counts_match_the_csv(
        capsys: pytest.CaptureFixture[str], data: str, tmp_path: Path) -> None:
    out = tmp_path / "systems.gpkg"
    summary = _export(capsys, data, out)
    assert summary["format"] == "gpkg" and summary["crs"] == "EPSG:2261"
    csv_summary = _export(capsys, data, tmp_path / "i.csv")
    rows = list(csv.DictReader(io.StringIO((tmp_path / "i.csv").read_text("utf-8-sig"))))
    assert summary["inspections"] == csv_summary["inspections"] == len(rows) > 0

    listed = {str(name): str(kind) for name, kind in pyogrio.list_layers(out)}
    assert listed == GEOMETRY_TYPES and tuple(listed) == GPKG_LAYERS
    for name in GPKG_LAYERS:
        info = pyogrio.read_info(out, layer=name)
        assert info["crs"] == "EPSG:2261" and info["driver"] == "GPKG"
        assert info["features"] == summary["layers"][name]
    # the GeoPackage's own tables, as any GPKG reader finds them
    with sqlite3.connect(out) as conn:
        contents = dict(conn.execute("SELECT table_name, srs_id FROM gpkg_contents "
                                     "WHERE data_type = 'features'").fetchall())
        columns = {r[0]: (r[1], r[2]) for r in conn.execute(
            "SELECT table_name, geometry_type_name, srs_id FROM gpkg_geometry_columns")}
        srs = conn.execute("SELECT organization, organization_coordsys_id FROM "
                           "gpkg_spatial_ref_sys WHERE srs_id = 2261").fetchone()
    assert contents == dict.fromkeys(GPKG_LAYERS, 2261)
    assert columns == {n: (t.upper(), 2261) for n, t in GEOMETRY_TYPES.items()}
    assert srs == ("EPSG", 2261)

    # parcels: one per parcel with an inspection in the period, the CSV's SBLs each once,
    # its `inspections` the number of the CSV's rows it has
    meta, points, parcels = _layer(out, "parcels")
    assert list(meta["fields"]) == [f for f, _ in (*PARCEL_FIELDS, *OWNER_FIELDS)]
    per_sbl: dict[str, int] = {}
    for r in rows:
        per_sbl[r["sbl"]] = per_sbl.get(r["sbl"], 0) + 1
    assert sorted(parcels["sbl"]) == sorted(per_sbl)
    assert dict(zip(parcels["sbl"], (int(n) for n in parcels["inspections"]),
                    strict=True)) == per_sbl
    latest = {r["sbl"]: r for r in rows}  # by date: the last row of a parcel is its latest
    for i, sbl in enumerate(parcels["sbl"]):
        assert str(parcels["last_inspection"][i]) == latest[sbl]["date"]
        assert parcels["outcome"][i] == latest[sbl]["outcome"]
        assert parcels["lake_zone"][i] == latest[sbl]["lake_zone"]
    where = dict(zip(parcels["sbl"], zip(points, parcels["location_source"], strict=True),
                     strict=True))
    assert where.pop(UNLOCATED) == (None, "none")
    assert all(isinstance(p, shapely.Point) and source != "none"
               for p, source in where.values())
    five = dict(zip(parcels["sbl"], parcels["next_five_year_due"], strict=True))
    assert all(np.isnat(five[s]) for s in parcels["sbl"]
               if latest[s]["lake_zone"] != "within_200ft")
    assert any(not np.isnat(five[s]) and str(five[s]) > latest[s]["date"]
               for s in parcels["sbl"] if latest[s]["lake_zone"] == "within_200ft")

    # systems and components: every one recorded on those parcels, and nothing else
    with Workspace(Path(data)) as ws:
        ids = {c.parcel.sbl: pid for pid, c in load_cases(ws.store.conn).items()}
        cases = load_cases(ws.store.conn, parcel_ids=[ids[s] for s in per_sbl])
    expected_systems = sorted(
        (c.parcel.sbl, name) for c in cases.values() for name in ("absorption_area",
                                                                 "holding_tank")
        if c.site is not None and getattr(c.site, name) is not None)
    meta, polygons, systems = _layer(out, "systems")
    assert list(meta["fields"]) == [f for f, _ in SYSTEM_FIELDS]
    assert sorted(zip(systems["sbl"], systems["kind"], strict=True)) == expected_systems
    assert all(isinstance(g, shapely.MultiPolygon) and g.area > 0 for g in polygons)
    meta, located, components = _layer(out, "components")
    assert list(meta["fields"]) == [f for f, _ in COMPONENT_FIELDS]
    expected_components = sorted((c.parcel.sbl, k.kind.value) for c in cases.values()
                                 for k in c.components if k.geometry is not None)
    assert sorted(zip(components["sbl"], components["kind"], strict=True)) == \
        expected_components
    assert all(isinstance(g, shapely.Point) for g in located)
    # the parcel of our own: its holding tank's point drawn as a circle around it, its
    # components located at their point, inside their outline, along their line
    ours = [i for i, s in enumerate(systems["sbl"]) if s == "112.09-1-7.2"]
    assert [systems["kind"][i] for i in ours] == ["holding_tank"]
    (tank,) = [polygons[i] for i in ours]
    assert systems["shape"][ours[0]].startswith("recorded point, drawn as a circle")
    radius = (tank.area / np.pi) ** 0.5
    assert radius == pytest.approx(HOLDING_TANK_POINT_RADIUS_FT, rel=0.01)
    mine = {(components["kind"][i], int(components["number"][i])):
            (located[i], components["located_as"][i])
            for i, s in enumerate(components["sbl"]) if s == "112.09-1-7.2"}
    assert {k: v[1] for k, v in mine.items()} == {
        ("holding_tank", 1): "Point", ("septic_tank", 1): "Polygon",
        ("distribution_box", 1): "LineString"}
    assert mine["holding_tank", 1][0].distance(tank.centroid) < 0.01
    sbl_index = parcels["sbl"].index("112.09-1-7.2")
    septic = mine["septic_tank", 1][0]
    assert septic.distance(points[sbl_index]) < 30  # about 13 ft inside the tank's outline
    # lots: the active lot layer's polygon of each parcel it matches
    _, lots, lot_fields = _layer(out, "parcel_lots")
    assert set(lot_fields["sbl"]) <= set(per_sbl) and len(lots) == summary["layers"][
        "parcel_lots"] > 0
    for sbl, lot in zip(lot_fields["sbl"], lots, strict=True):
        i = parcels["sbl"].index(sbl)
        assert lot.buffer(1).contains(points[i]) or parcels["location_source"][i] != "lot"


def _owner_values(data: str) -> set[str]:
    """Every owner's and renter's name, mailing address line, phone and e-mail on record
    (a mailing address line that is a parcel's site address, as an owner living there has,
    is the site's public address and not counted)."""
    with Workspace(Path(data)) as ws:
        cases = list(load_cases(ws.store.conn).values())
    sites = {c.parcel.site_address for c in cases}
    values: set[str] = set()
    for c in cases:
        p = c.parcel
        values |= {p.owner_name, p.owner_phone or "", p.owner_email or ""}
        values |= {line for line in p.owner_mailing_address if line not in sites}
        for r in p.renters:
            values |= {r.name, r.phone or "", r.email or "", *r.mailing_address}
    return {v for v in values if v}


def test_public_leaves_out_every_owner_and_renter_value(
        capsys: pytest.CaptureFixture[str], data: str, tmp_path: Path) -> None:
    private, public = tmp_path / "all.gpkg", tmp_path / "public.gpkg"
    _export(capsys, data, private)
    summary = _export(capsys, data, public, "--public")
    assert summary["public"] is True
    owners = _owner_values(data)
    assert "Prudence Holloway" in owners and "quentin@example.org" in owners
    # the private file holds them (so that the search below can find them)
    _, _, parcels = _layer(private, "parcels")
    assert "Prudence Holloway" in parcels["owner_name"]
    assert any(v and "quentin@example.org" in v for v in parcels["renters"])

    seen: list[str] = []
    for name in GPKG_LAYERS:
        meta, _, values = _layer(public, name)
        assert not set(meta["fields"]) & {f for f, _ in OWNER_FIELDS}
        seen += [str(v) for column in values.values() for v in column]
    with sqlite3.connect(public) as conn:
        tables = [r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")]
        for table in tables:  # every table: the layers and the GeoPackage's own
            seen += [str(v) for row in conn.execute(f'SELECT * FROM "{table}"')
                     for v in row]
    text = "\n".join(seen)
    raw = public.read_bytes()
    for value in owners:
        assert value not in text, value
        assert value.encode("utf-8") not in raw, value
    # the same layers and features as the full file
    for name in GPKG_LAYERS:
        assert pyogrio.read_info(public, layer=name)["features"] == \
            pyogrio.read_info(private, layer=name)["features"]


@pytest.mark.parametrize(("out", "extra", "message"), [
    ("nowhere/x.gpkg", (), "the folder"),
    ("folder.gpkg", (), "it is a folder"),
    ("x.gpkg", ("--format", "csv"), "--format csv contradicts the file"),
    ("x.csv", ("--format", "gpkg"), "--format gpkg contradicts the file"),
    ("x.gpkg", ("--format", "shp"), "--format 'shp' is not one of the export's formats"),
    ("x.shp", (), "must end in .csv, .xlsx or .gpkg"),
])
def test_bad_input_is_one_sentence_status_2_and_nothing_written(
        capsys: pytest.CaptureFixture[str], data: str, tmp_path: Path, out: str,
        extra: tuple[str, ...], message: str) -> None:
    (tmp_path / "folder.gpkg").mkdir()
    before = sorted(p.name for p in tmp_path.rglob("*"))
    capsys.readouterr()
    status, printed, err = _cli(capsys, "--data-dir", data, "report", "export", *PERIOD,
                                "--out", str(tmp_path / out), *extra)
    assert status == 2 and printed is None and message in err
    assert err.strip().count("\n") == 0 and err.rstrip().endswith(".")
    assert sorted(p.name for p in tmp_path.rglob("*")) == before


def test_format_may_be_given_when_it_agrees(capsys: pytest.CaptureFixture[str], data: str,
                                            tmp_path: Path) -> None:
    summary = _export(capsys, data, tmp_path / "x.GPKG", "--format", "gpkg")
    assert summary["format"] == "gpkg" and pyogrio.read_info(tmp_path / "x.GPKG",
                                                             layer="parcels")["features"] > 0
    summary = _export(capsys, data, tmp_path / "x.csv", "--format", "csv")
    assert summary["format"] == "csv"


def test_a_failed_write_leaves_the_old_file_and_no_half_file(
        capsys: pytest.CaptureFixture[str], data: str, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "x.gpkg"
    out.write_bytes(b"the earlier export")

    def full(_: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr("inspector_app.paths.os.fsync", full)
    capsys.readouterr()
    status, printed, err = _cli(capsys, "--data-dir", data, "report", "export", *PERIOD,
                                "--out", str(out))
    assert status == 1 and printed is None and "the disk is full" in err
    assert out.read_bytes() == b"the earlier export"
    assert [p.name for p in tmp_path.iterdir()] == ["x.gpkg"]


def test_a_cancelled_export_writes_nothing(data: str, tmp_path: Path) -> None:
    from datetime import date

    from inspector_app.errors import Cancelled
    from inspector_app.services.lists.exports import export_inspections

    calls = iter(range(1_000_000))
    with Workspace(Path(data)) as ws, pytest.raises(Cancelled, match="no file was written"):
        export_inspections(ws, date(2021, 1, 1), date(2026, 11, 24), tmp_path / "x.gpkg",
                           as_of=date(2026, 11, 25), cancelled=lambda: next(calls) > 40)
    assert not list(tmp_path.iterdir())
