"""Joining a field kit into a folder the app has only opened, and never over records."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from inspector_app.errors import InputError
from inspector_app.services import exchange as sync
from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.reference.shorelines import BUNDLED_NAME, import_layer, list_layers
from inspector_app.services.workspace import Workspace
from tests.pg_engine import laptop_folder
from tests.sync.conftest import KIT_PASSPHRASE, TODAY, Pair, state


@pytest.fixture
def office_kit(tmp_path: Path) -> tuple[Workspace, Path]:
    office = Workspace(tmp_path / "office", user="clerk")
    install_demo(office, count=4, today=TODAY)
    sbls = [p["sbl"] for p in office.parcels()][:2]
    sync.enroll(office, "laptop-1", tmp_path / "kit.zip", sbls, passphrase=KIT_PASSPHRASE)
    yield office, tmp_path / "kit.zip"
    office.close()


def test_a_folder_the_app_has_only_opened_can_join(office_kit: tuple[Workspace, Path],
                                                   tmp_path: Path) -> None:
    office, kit = office_kit
    # what the app does at start on a laptop
    opened = Workspace(laptop_folder(tmp_path / "field"), user="k.olmsted")
    assert sync.holds_nothing_yet(opened.store)
    opened.close()

    joined = sync.join(tmp_path / "field", kit, user="k.olmsted", passphrase=KIT_PASSPHRASE)
    assert joined == {"device": "laptop-1", "parcels": 2,
                      "office_fingerprint": sync.office_fingerprint(office)}
    field = Workspace(tmp_path / "field", user="k.olmsted")
    try:
        pair = Pair(office, field, tmp_path, [p["sbl"] for p in field.parcels()])
        assert len(pair.sbls) == 2
        # The office's layer is the active one; the outline the folder was opened with is
        # kept, inactive, and the change log says who retired it.
        office_layer = office.store.query("SELECT id FROM shoreline_layers WHERE active = 1")
        assert field.store.query("SELECT id FROM shoreline_layers WHERE active = 1") == (
            office_layer)
        kept = [r for r in list_layers(field) if r["id"] != office_layer[0]["id"]]
        assert [(r["name"], r["active"]) for r in kept] == [(BUNDLED_NAME, False)]
        retired = field.store.query("SELECT user, field, old_value, new_value FROM change_log "
                                    "WHERE record_id = ? AND op = 'update'", (kept[0]["id"],))
        assert retired == [{"user": "k.olmsted", "field": "active", "old_value": "1",
                            "new_value": "0"}]
        # The laptop's own changes are numbered from 1 and travel as usual; what opening
        # wrote before the laptop joined does not.
        assert sync.export(field, tmp_path / "nothing.zip")["changes"] == 0
        pair.edit(field, pair.sbls[0],
                  lambda d: d["parcel"].__setitem__("owner_name", "From the laptop"))
        result = pair.up()
        assert (result["applied"], result["conflicts"], result["gaps"]) == (1, 0, [])
        assert office.load_case(pair.sbls[0]).parcel.owner_name == "From the laptop"
    finally:
        field.close()


def _demo_parcel(ws: Workspace, _tmp: Path) -> None:
    install_demo(ws, count=1, today=TODAY)


def _another_layer(ws: Workspace, tmp: Path) -> None:
    from tests.geo.helpers import lake_with_island, write_wgs84

    import_layer(ws, write_wgs84(tmp / "lake.geojson", [lake_with_island()]),
                 name="County contour", accuracy_ft=3)


def _bundled_layer_edited(ws: Workspace, _tmp: Path) -> None:
    layer = ws.store.query("SELECT id FROM shoreline_layers")[0]["id"]
    with ws.store.transaction() as w:
        w.update("shoreline_layers", layer, {"accuracy_ft": 2000.0})


def _enrolled_a_laptop(ws: Workspace, tmp: Path) -> None:
    with ws.store.transaction():
        ws.store.conn.execute(
            "INSERT INTO devices (id, name, role, created_at, public_key) VALUES "
            "('other-laptop', 'other', 'field', '2026-01-01T00:00:00+00:00', ?)", ("0" * 64,))
        ws.store.set_meta("sync_role", "office")


def _a_package_imported(ws: Workspace, _tmp: Path) -> None:
    # A row in a table the check does not name: every table but the bookkeeping counts.
    with ws.store.transaction():
        ws.store.conn.execute(
            "INSERT INTO sync_packages (package_id, device_id, imported_at, imported_by, "
            "changes, applied, conflicts, sha256) VALUES ('p', 'd', "
            "'2026-01-01T00:00:00+00:00', 'clerk', 0, 0, 0, ?)", ("0" * 64,))


@pytest.mark.parametrize("held", [_demo_parcel, _another_layer, _bundled_layer_edited,
                                  _enrolled_a_laptop, _a_package_imported],
                         ids=lambda f: f.__name__.strip("_"))
def test_anything_beyond_what_opening_wrote_is_refused_and_left_alone(
        office_kit: tuple[Workspace, Path], tmp_path: Path,
        held: Callable[[Workspace, Path], Any]) -> None:
    _office, kit = office_kit
    ws = Workspace(laptop_folder(tmp_path / "field"), user="k.olmsted")
    try:
        held(ws, tmp_path)
        assert not sync.holds_nothing_yet(ws.store)
        before = state(ws)
        with pytest.raises(InputError, match="only an empty data folder can join") as refused:
            sync.join(tmp_path / "field", kit, user="k.olmsted", passphrase=KIT_PASSPHRASE)
        assert "File > New data folder" in refused.value.in_app
        assert state(ws) == before
        assert not (tmp_path / "field" / "jurisdiction.toml").exists()
    finally:
        ws.close()
