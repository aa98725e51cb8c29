"""Field kits carry the active lot layer's lots of the laptop's parcels and their
neighbours, checked on the laptop as strictly as an import of lot lines."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

import pytest

from inspector_app.errors import InputError
from inspector_app.services import exchange as sync
from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.reference import lot_kits
from inspector_app.services.reference import lot_lines as lots
from inspector_app.services.workspace import Workspace
from inspector_app.storage.records import new_id
from inspector_app.sync.package import PackageError
from tests.sync.conftest import KIT_PASSPHRASE, TODAY, Pair
from tests.sync.test_hostile_packages import sign_and_write


@pytest.fixture
def office(tmp_path: Path) -> Workspace:
    ws = Workspace(tmp_path / "office", user="clerk")
    install_demo(ws, count=8, today=TODAY)
    yield ws
    ws.close()


def _join(office: Workspace, tmp_path: Path, sbls: list[str]) -> Workspace:
    sync.enroll(office, "laptop-1", tmp_path / "kit.zip", sbls, passphrase=KIT_PASSPHRASE)
    sync.join(tmp_path / "field", tmp_path / "kit.zip", user="k.olmsted",
              passphrase=KIT_PASSPHRASE)
    return Workspace(tmp_path / "field", user="k.olmsted")


def test_a_kit_carries_the_parcels_lots_and_their_neighbours_only(office: Workspace,
                                                                  tmp_path: Path) -> None:
    sbls = [p["sbl"] for p in office.parcels()][:3]
    ids = {office.parcel_id(s) for s in sbls}
    layer = lots.active_lot_layer(office)
    assert layer is not None and layer.name == lots.DEMO_LOTS_NAME and len(layer) == 24
    expected: set[int] = set()
    for pid in ids:
        own = layer.lot_for(pid)
        assert own is not None
        expected |= {lot.fid for lot in layer.lots_near(own.geometry, lots.KIT_NEIGHBOUR_FT)}
    assert len(expected) < len(layer)  # the other parcels' lots stay at the office
    field = _join(office, tmp_path, sbls)
    try:
        held = lots.active_lot_layer(field)
        assert held is not None
        assert (held.id, held.name, held.version, held.accuracy_ft) == (
            layer.id, layer.name, layer.version, layer.accuracy_ft)
        rows = field.store.query("SELECT * FROM lot_lines ORDER BY fid")
        assert {r["fid"] for r in rows} == expected
        assert {r["parcel_id"] for r in rows} - {None} == ids
        office_rows = {r["fid"]: r for r in office.store.query("SELECT * FROM lot_lines")}
        assert all(r["geometry"] == office_rows[r["fid"]]["geometry"] for r in rows)
        (record,) = field.store.query("SELECT * FROM lot_layers")
        assert record["feature_count"] == len(rows) and record["matched_count"] == 3
        assert record["digest"] == lots.lot_digest(
            (r["fid"], r["sbl"], r["parcel_id"], r["geometry"]) for r in rows)
        for sbl in sbls:
            assert held.lot_for(field.parcel_id(sbl)) is not None
        assert field.store.query("PRAGMA foreign_key_check") == []
        with pytest.raises(InputError, match="enrolled laptop"):
            lots.activate_lot_layer(field, layer.id)
    finally:
        field.close()


def _tampered(office: Workspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
              change: Any) -> None:
    real = lot_kits.kit_lot_lines

    def kit_lot_lines(ws: Workspace, parcel_ids: Any) -> bytes:
        data = real(ws, parcel_ids)
        assert data is not None
        lines = [json.loads(line) for line in data.splitlines()]
        return "\n".join(json.dumps(x) for x in change(lines)).encode()

    monkeypatch.setattr(lot_kits, "kit_lot_lines", kit_lot_lines)
    sync.enroll(office, "laptop-1", tmp_path / "kit.zip", [p["sbl"] for p in office.parcels()][:2],
                passphrase=KIT_PASSPHRASE)


def _square_elsewhere(lines: list[Any]) -> list[Any]:
    import shapely

    lines[1]["wkb"] = shapely.box(0, 0, 10, 10).wkb.hex()
    return lines


def _line_not_polygon(lines: list[Any]) -> list[Any]:
    import shapely

    geom = shapely.from_wkb(bytes.fromhex(lines[1]["wkb"]))
    lines[1]["wkb"] = geom.exterior.wkb.hex()
    return lines


@pytest.mark.parametrize(("change", "match"), [
    (lambda ls: [ls[0], {**ls[1], "parcel_id": new_id()}, *ls[2:]], "the kit does not carry"),
    (lambda ls: [ls[0], {**ls[1], "extra": 1}, *ls[2:]], "is not a lot"),
    (lambda ls: [ls[0], ls[1], ls[1], *ls[2:]], "repeats the lot"),
    (lambda ls: [{"layer": {**ls[0]["layer"], "digest": "x"}}, *ls[1:]],
     "is not a lot layer record"),
    (lambda ls: ls[1:], "is not a lot layer record"),
    (_square_elsewhere, "outside the area of use"),
    (_line_not_polygon, "not a lot as the office keeps one"),
])
def test_a_tampered_lots_member_is_refused(office: Workspace, tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch, change: Any,
                                           match: str) -> None:
    _tampered(office, tmp_path, monkeypatch, change)
    with pytest.raises(InputError, match=match):
        sync.join(tmp_path / "field", tmp_path / "kit.zip", user="k.olmsted",
                  passphrase=KIT_PASSPHRASE)
    assert not (tmp_path / "field").exists() or not any((tmp_path / "field").iterdir())


def test_an_oversized_lots_member_is_refused(office: Workspace, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    _tampered(office, tmp_path, monkeypatch, lambda ls: ls)
    monkeypatch.setattr(lot_kits, "MAX_KIT_LOTS", 2)
    with pytest.raises(InputError, match="one lot too many"):
        sync.join(tmp_path / "field", tmp_path / "kit.zip", user="k.olmsted",
                  passphrase=KIT_PASSPHRASE)


def test_a_laptops_package_carrying_lots_is_refused(pair: Pair) -> None:
    genuine = pair.tmp / "genuine.zip"
    sync.export(pair.field, genuine)
    with zipfile.ZipFile(genuine) as z:
        manifest = json.loads(z.read("manifest.json"))
        members = {n: z.read(n) for n in z.namelist() if n not in ("manifest.json",
                                                                   "signature")}
    members["lot_lines.jsonl"] = pair.office.store.query(
        "SELECT 'x' AS x")[0]["x"].encode()
    manifest.pop("members")
    out = pair.tmp / "lots.zip"
    sign_and_write(out, manifest, members, pair.field)
    with pytest.raises(PackageError, match="only a field kit from the office carries"):
        sync.import_package(pair.office, out)


def test_lot_layers_do_not_travel_as_changes(pair: Pair, tmp_path: Path) -> None:
    before = lots.active_lot_layer_info(pair.field)
    assert before is not None
    from tests.services.lot_files import write_lots

    layer = lots.active_lot_layer(pair.office)
    assert layer is not None
    geoms = [layer.lot_for(pair.office.parcel_id(s)).geometry  # type: ignore[union-attr]
             for s in pair.sbls]
    lots.import_lot_lines(pair.office, write_lots(tmp_path / "new.gpkg", geoms, pair.sbls),
                          name="County 2026")
    pair.down()  # the office's new layer is not a change a laptop takes
    assert lots.active_lot_layer_info(pair.field) == before
    with pytest.raises(InputError, match="enrolled laptop"):
        lots.import_lot_lines(pair.field, tmp_path / "new.gpkg")
