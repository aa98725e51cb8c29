from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
import shapely

from inspector_app.domain.sbl import sbl_key
from inspector_app.errors import InputError
from inspector_app.services.reference.lot_lines import (
    DEFAULT_ACCURACY_FT,
    activate_lot_layer,
    active_lot_layer,
    active_lot_layer_info,
    import_lot_lines,
    list_lot_layers,
)
from inspector_app.services.workspace import Workspace
from tests.geo.helpers import X0, Y0
from tests.services.lot_files import add_parcels, lot_box, write_lots

PARCELS = ["098.00-1-12", "098.00-1-13", "098.00-1-14", "112.09-1-7.2"]


@pytest.fixture
def ws(workspace: Workspace, tmp_path: Path) -> Workspace:
    add_parcels(workspace, tmp_path, PARCELS)
    return workspace


def _grid(n: int) -> list[Any]:
    return [lot_box(i) for i in range(n)]


def _counts(ws: Workspace) -> tuple[int, int, int]:
    return (ws.store.query("SELECT count(*) AS n FROM lot_layers")[0]["n"],
            ws.store.query("SELECT count(*) AS n FROM lot_lines")[0]["n"],
            ws.store.query("SELECT count(*) AS n FROM change_log")[0]["n"])


@pytest.mark.parametrize("suffix", [".gpkg", ".shp", ".geojson"])
def test_each_format_is_read_matched_and_made_the_active_layer(ws: Workspace, tmp_path: Path,
                                                               suffix: str) -> None:
    path = write_lots(tmp_path / f"lots{suffix}", _grid(4), PARCELS)
    report = import_lot_lines(ws, path, name="County tax map 2025")
    assert (report["features"], report["matched"], report["version"]) == (4, 4, 1)
    assert report["sbl_field"] == "SBL" and report["sbl_field_guessed"]
    assert report["accuracy_ft"] == DEFAULT_ACCURACY_FT and report["parcels_without_lot"] == 0
    layer = active_lot_layer(ws)
    assert layer is not None and layer.label() == "County tax map 2025 v1 (±10 ft)"
    lot = layer.lot_for(ws.parcel_id("098.00-1-13"))
    assert lot is not None and lot.sbl == "098.00-1-13"
    assert shapely.equals_exact(lot.geometry.normalize(), lot_box(1).normalize(), tolerance=0.01)
    assert active_lot_layer_info(ws) == {"id": layer.id, "name": "County tax map 2025",
                                         "version": 1, "accuracy_ft": 10.0,
                                         "label": layer.label()}


def test_a_wgs84_geojson_and_a_state_plane_geopackage_give_the_same_lots(
        ws: Workspace, tmp_path: Path) -> None:
    geoms = [shapely.Polygon([(X0, Y0), (X0 + 130.5, Y0 + 3), (X0 + 120, Y0 + 260),
                              (X0 - 4, Y0 + 240)]), *_grid(4)[1:]]
    a = write_lots(tmp_path / "a.geojson", geoms, PARCELS, crs="EPSG:4326")
    b = write_lots(tmp_path / "b.gpkg", geoms, PARCELS)
    import_lot_lines(ws, a, name="A")
    first = active_lot_layer(ws)
    import_lot_lines(ws, b, name="B")
    second = active_lot_layer(ws)
    assert first is not None and second is not None and first.id != second.id
    for sbl in PARCELS:
        one, two = (layer.lot_for(ws.parcel_id(sbl)) for layer in (first, second))
        assert one is not None and two is not None
        assert one.geometry.hausdorff_distance(two.geometry) < 0.01


def test_near_miss_sbls_never_match_and_respellings_are_listed(ws: Workspace,
                                                               tmp_path: Path) -> None:
    sbls = ["98.-1-12", "98.00-01-013", "098.000-0001-014.000",  # spelled differently
            "98.00-1-120", "98.01-1-12", "98.00-11-2", "098.00-1-12.1", "112.09-1-7.20",
            "112.09-1-72", "98.00-1-12-A"]  # near misses
    path = write_lots(tmp_path / "lots.gpkg", _grid(len(sbls)), sbls, field="PRINT_KEY")
    report = import_lot_lines(ws, path)
    assert report["matched"] == 3 and report["sbl_field"] == "PRINT_KEY"
    assert [s["reason"] for s in report["spelled_differently"]] == [
        "SBL spelled differently: matched 98.-1-12 as 098.00-1-12",
        "SBL spelled differently: matched 98.00-01-013 as 098.00-1-13",
        "SBL spelled differently: matched 098.000-0001-014.000 as 098.00-1-14"]
    assert [(u["sbl"], u["reason"]) for u in report["unmatched"]] == [
        (s, "no such parcel in this data folder") for s in sbls[3:]]
    assert report["parcels_without_lot_sbls"] == ["112.09-1-7.2"]


def test_sbl_keys() -> None:
    same = ["098.00-1-12", "98.-1-12", "98.00-01-012", "098.000-0001-012.000",
            "322089 098.00-1-12", " 098.00 - 1 - 12 "]
    assert len({sbl_key(s) for s in same}) == 1 and sbl_key(same[0]) is not None
    differ = ["098.00-1-12", "098.00-1-12.1", "098.00-1-120", "098.00-1-12-1", "098.10-1-12",
              "098.00-1.1-12"]
    assert len({sbl_key(s) for s in differ}) == len(differ)
    assert sbl_key("not an sbl") is None and sbl_key(None) is None


def test_missing_sbls_duplicates_and_ambiguous_parcels(workspace: Workspace,
                                                       tmp_path: Path) -> None:
    add_parcels(workspace, tmp_path, ["098.00-1-12", "098.00-1-13", "098.00-1-15"])
    # one tax map number on two parcels, as a folder filled before the one SBL reader
    # may hold it (a roll now refuses the second spelling)
    with workspace.store.transaction() as w:
        w.insert("parcels", {"sbl": "98.0-1-12", "municipality": "Town of Gorham",
                             "site_address": "9 West Lake Rd", "owner_name": "A. Owner",
                             "owner_mailing_address": ["PO Box 1"]}, parcel_id=None)
    sbls = ["098.00-1-12", "098.000-1-12", None, "098.00-1-13", "098.00-1-13",
            "322089 098.00-1-15", "322001 098.00-1-15"]
    path = write_lots(tmp_path / "lots.gpkg", _grid(len(sbls)), sbls)
    report = import_lot_lines(workspace, path)
    reasons = {u["fid"]: u["reason"] for u in report["unmatched"]}
    assert reasons[2].startswith("SBL matches several parcels (098.00-1-12, 98.0-1-12)")
    assert reasons[3] == "no SBL in field SBL"
    assert "different municipalities" in reasons[6] and "different municipalities" in reasons[7]
    assert report["same_sbl"] == [{"fids": [4, 5], "sbl": "098.00-1-13", "reason": (
        "two features carry the same SBL: both are kept as parts of the parcel's one lot")}]
    layer = active_lot_layer(workspace)
    assert layer is not None
    joined = layer.lot_for(workspace.parcel_id("098.00-1-13"))
    assert joined is not None and joined.fid == 4
    assert joined.geometry.area == pytest.approx(2 * 100 * 200)
    assert report["matched"] == 3  # 098.00-1-12 (exact) and both parts of 098.00-1-13


def test_versions_keep_earlier_layers_and_their_lots(ws: Workspace, tmp_path: Path) -> None:
    path = write_lots(tmp_path / "lots.gpkg", _grid(4), PARCELS)
    first = import_lot_lines(ws, path, name="County")
    before = ws.store.query("SELECT * FROM lot_lines WHERE layer_id = ? ORDER BY fid",
                            (first["id"],))
    moved = write_lots(tmp_path / "moved.gpkg", [shapely.affinity.translate(g, 5, 0)
                                                 for g in _grid(4)], PARCELS)
    second = import_lot_lines(ws, moved, name="County", accuracy_ft=3)
    assert (second["version"], second["label"]) == (2, "County v2 (±3 ft)")
    assert [(x["version"], x["active"]) for x in list_lot_layers(ws)] == [(1, False),
                                                                          (2, True)]
    assert ws.store.query("SELECT * FROM lot_lines WHERE layer_id = ? ORDER BY fid",
                          (first["id"],)) == before
    layer = active_lot_layer(ws)
    assert layer is not None and layer.version == 2
    activated = activate_lot_layer(ws, first["id"])
    assert activated["active"] and activated["version"] == 1
    again = active_lot_layer(ws)
    assert again is not None and again.id == first["id"]
    lot = again.lot_for(ws.parcel_id(PARCELS[0]))
    assert lot is not None and lot.geometry.bounds[0] == X0
    with pytest.raises(InputError, match="No lot layer named 'Nope'"):
        activate_lot_layer(ws, "Nope")


def test_lots_are_kept_as_imported(ws: Workspace, tmp_path: Path) -> None:
    import_lot_lines(ws, write_lots(tmp_path / "lots.gpkg", _grid(4), PARCELS))
    for sql in ("UPDATE lot_lines SET sbl = 'x'", "DELETE FROM lot_lines"):
        with pytest.raises(sqlite3.IntegrityError, match="kept as imported"):
            ws.store.conn.execute(sql)


def test_the_import_is_attributed_and_its_digest_vouches_for_the_lots(
        ws: Workspace, tmp_path: Path) -> None:
    from inspector_app.services.reference.lot_lines import lot_digest

    report = import_lot_lines(ws, write_lots(tmp_path / "lots.gpkg", _grid(4), PARCELS),
                              source="Ontario County GIS, 2025")
    (entry,) = ws.store.query("SELECT * FROM change_log WHERE record_id = ?", (report["id"],))
    assert (entry["op"], entry["user"], entry["table_name"]) == ("insert", "k.olmsted",
                                                                 "lot_layers")
    assert entry["device_id"] == ws.store.device_id
    (row,) = ws.store.query("SELECT * FROM lot_layers")
    assert (row["imported_by"], row["source"], row["feature_count"],
            row["matched_count"]) == ("k.olmsted", "Ontario County GIS, 2025", 4, 4)
    lots = [(r["fid"], r["sbl"], r["parcel_id"], r["geometry"]) for r in ws.store.query(
        "SELECT * FROM lot_lines ORDER BY fid")]
    assert row["digest"] == lot_digest(lots)
    assert row["digest"] != lot_digest([(lots[0][0], "x", *lots[0][2:]), *lots[1:]])


def test_lots_near_finds_the_neighbours(ws: Workspace, tmp_path: Path) -> None:
    import_lot_lines(ws, write_lots(tmp_path / "lots.gpkg", _grid(4), PARCELS))
    layer = active_lot_layer(ws)
    assert layer is not None
    assert [lot.fid for lot in layer.lots_near(lot_box(0), 0)] == [1, 2]
    assert [lot.fid for lot in layer.lots_near(lot_box(0), 100.5)] == [1, 2, 3]
    assert [lot.sbl for lot in layer.lots_near(shapely.Point(X0 + 350, Y0 + 10), 1)] == [
        "112.09-1-7.2"]


def test_invalid_polygons_are_repaired_and_lines_are_not_lots(ws: Workspace,
                                                              tmp_path: Path) -> None:
    bowtie = shapely.Polygon([(X0, Y0), (X0 + 100, Y0 + 200), (X0 + 100, Y0),
                              (X0, Y0 + 200)])
    line = shapely.LineString([(X0 + 200, Y0), (X0 + 300, Y0)])
    path = write_lots(tmp_path / "lots.gpkg", [bowtie, lot_box(1), line], PARCELS[:3])
    report = import_lot_lines(ws, path)
    assert report["repaired"] == [1] and report["stored"] == 2
    assert report["unmatched"] == [{"fid": 3, "sbl": "098.00-1-14", "reason": (
        "not kept: not a polygon (a LineString); a lot is an area")}]
    layer = active_lot_layer(ws)
    assert layer is not None
    lot = layer.lot_for(ws.parcel_id(PARCELS[0]))
    assert lot is not None and lot.geometry.is_valid
    assert lot.geometry.area == pytest.approx(2 * 0.5 * 200 * 50)


def _refused(ws: Workspace, path: Path, match: str, **kwargs: Any) -> None:
    before = _counts(ws)
    with pytest.raises(InputError, match=match):
        import_lot_lines(ws, path, **kwargs)
    assert _counts(ws) == before


def test_refusals_store_nothing(ws: Workspace, tmp_path: Path) -> None:
    _refused(ws, tmp_path / "none.gpkg", "no such file")
    text = tmp_path / "lots.txt"
    text.write_text("hello")
    _refused(ws, text, "not a file type this app reads")
    shp = write_lots(tmp_path / "noprj.shp", _grid(4), PARCELS)
    shp.with_suffix(".prj").unlink()
    _refused(ws, shp, r"the shapefile's \.prj file \(noprj\.prj\) is missing beside it")
    far = write_lots(tmp_path / "far.gpkg", [shapely.box(0, 0, 10, 10)], PARCELS[:1],
                     crs="EPSG:4326")
    _refused(ws, far, "outside the area of use")
    lines = write_lots(tmp_path / "lines.gpkg", [shapely.LineString(
        [(X0, Y0), (X0 + 10, Y0)])], PARCELS[:1])
    _refused(ws, lines, "holds no polygon")
    other = write_lots(tmp_path / "other.gpkg", _grid(4), PARCELS, field="OWNER")
    _refused(ws, other, r"no field looks like it holds tax map numbers.*OWNER")
    _refused(ws, write_lots(tmp_path / "named.gpkg", _grid(4), PARCELS), "has no field 'TAX'",
             sbl_field="TAX")
    wrong = write_lots(tmp_path / "wrong.gpkg", _grid(2), ["1-1-1", "1-1-2"])
    _refused(ws, wrong, "none of its 2 lots matched a parcel")
    good = write_lots(tmp_path / "good.gpkg", _grid(4), PARCELS)
    _refused(ws, good, "cancelled", cancelled=lambda: True)
    _refused(ws, good, "not plausible", accuracy_ft=-1)


def test_the_sbl_field_named_or_the_best_guessed(ws: Workspace, tmp_path: Path) -> None:
    path = write_lots(tmp_path / "lots.gpkg", _grid(4), ["x"] * 4, field="SBL",
                      extra={"print_key": PARCELS, "Owner": ["a"] * 4})
    report = import_lot_lines(ws, path)
    assert (report["sbl_field"], report["matched"]) == ("print_key", 4)
    named = import_lot_lines(ws, path, sbl_field="PRINT_KEY")
    assert (named["sbl_field"], named["sbl_field_guessed"]) == ("print_key", False)


def test_the_demo_draws_invented_lots_with_neighbours(workspace: Workspace) -> None:
    import numpy as np

    from inspector_app.services.demo.parcels import install_demo
    from inspector_app.services.reference.lot_lines import DEMO_LOTS_NAME
    from tests.geo.helpers import TO_FEET

    install_demo(workspace, count=14)
    (layer_row,) = list_lot_layers(workspace)
    assert layer_row["name"] == DEMO_LOTS_NAME and "invented" in layer_row["name"].casefold()
    assert "not any county's tax map" in layer_row["source"]
    layer = active_lot_layer(workspace)
    assert layer is not None and len(layer) == 3 * 14
    gaps = []
    for p in workspace.parcels():
        case = workspace.load_case(p["sbl"])
        lot = layer.lot_for(workspace.parcel_id(p["sbl"]))
        assert lot is not None and lot.sbl == p["sbl"]
        neighbours = [n for n in layer.lots_near(lot.geometry, 0.5) if n.fid != lot.fid]
        assert len(neighbours) == 2 and all(n.parcel_id is None for n in neighbours)
        assert {n.sbl.split(".")[0] for n in neighbours if n.sbl} == {"901", "902"}
        site = case.site
        assert site is not None
        if site.absorption_area:
            area = shapely.transform(shapely.geometry.shape(site.absorption_area), lambda xy: (
                np.column_stack(TO_FEET.transform(xy[:, 0], xy[:, 1]))))
            assert lot.geometry.contains(area)
            gaps.append(lot.geometry.exterior.distance(area))
    assert min(gaps) < 10 < max(gaps)
    log = workspace.store.query("SELECT count(*) AS n FROM change_log")[0]["n"]
    install_demo(workspace, count=14)
    assert workspace.store.query("SELECT count(*) AS n FROM change_log")[0]["n"] == log
    assert len(list_lot_layers(workspace)) == 1


def test_a_layer_made_of_lots_reads_like_a_stored_one() -> None:
    from inspector_app.services.reference.lot_lines import Lot, LotLayer

    layer = LotLayer.of([Lot(1, "1-1-1", "p1", lot_box(0)), Lot(2, "1-1-2", None, lot_box(1)),
                         Lot(3, "1-1-1", "p1", lot_box(3))], name="Survey")
    lot = layer.lot_for("p1")
    assert lot is not None and lot.fid == 1 and lot.geometry.area == pytest.approx(40_000)
    assert [x.fid for x in layer.lots_near(lot_box(1), 0)] == [1, 2]
    assert layer.lot_for("p2") is None and layer.label() == "Survey v1 (±10 ft)"


def test_invented_lots_of_close_sites_tile_without_overlapping() -> None:
    import numpy as np

    from inspector_app.geo.lots import invented_lots
    from inspector_app.geo.placement import sites_around
    from inspector_app.services.demo.parcels import _lake_outline

    lake = _lake_outline()
    # two sites about 150 ft apart along the shore, and one further on and deeper inland
    sites = sites_around(lake, [0.300, 0.3007, 0.302], [120.0, 120.0, 320.0])
    areas = [s.absorption_area for s in sites]
    sides = [(6.0, 45.0, 30.0), (30.0, 8.0, 90.0), (15.0, 70.0, 150.0)]
    made = invented_lots(lake, areas, sides)
    assert made == invented_lots(lake, areas, sides)  # the same lots every time
    lots = [shapely.from_wkb(x.wkb) for row in made for x in row if x is not None]
    assert all(g.geom_type == "Polygon" and g.is_valid for g in lots)
    assert len(lots) < 9  # a neighbour's lot where the close site's lies is not made
    tree = shapely.STRtree(lots)
    first, second = tree.query(lots, predicate="intersects")
    pairs = first < second
    overlap = shapely.area(shapely.intersection(np.asarray(lots)[first[pairs]],
                                                np.asarray(lots)[second[pairs]]))
    assert pairs.any() and float(overlap.max()) < 0.01
    own_a, own_b = (shapely.from_wkb(made[i][0].wkb) for i in (0, 1))
    assert own_a.boundary.intersection(own_b.buffer(0.01)).length > 50  # one lot line
