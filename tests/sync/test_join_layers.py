"""Joining a kit from an office that holds more than one shoreline layer, and a join that
fails leaving the folder as it was."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector_app.services import exchange as sync
from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.reference.shorelines import import_layer
from inspector_app.services.workspace import Workspace
from inspector_app.storage.store import Store
from tests.geo.helpers import lake_with_island, write_wgs84
from tests.sync.conftest import KIT_PASSPHRASE, TODAY


@pytest.fixture
def two_layer_office(tmp_path: Path) -> Workspace:
    office = Workspace(tmp_path / "office", user="clerk")
    install_demo(office, count=4, today=TODAY)
    measured = office.store.query("SELECT count(*) AS n FROM lake_measurements WHERE "
                                  "shoreline_layer_id IS NOT NULL")[0]["n"]
    assert measured  # the demo's measurements name the first layer
    import_layer(office, write_wgs84(tmp_path / "lake.geojson", [lake_with_island()]),
                 name="County contour", accuracy_ft=3)
    yield office
    office.close()


def test_join_after_the_office_imported_a_second_layer(two_layer_office: Workspace,
                                                       tmp_path: Path) -> None:
    office = two_layer_office
    sbls = [p["sbl"] for p in office.parcels()]
    sync.enroll(office, "laptop-1", tmp_path / "kit.zip", sbls, passphrase=KIT_PASSPHRASE)
    joined = sync.join(tmp_path / "field", tmp_path / "kit.zip", user="k.olmsted",
                       passphrase=KIT_PASSPHRASE)
    assert joined["parcels"] == 4
    field = Workspace(tmp_path / "field", user="k.olmsted")
    try:
        active = office.store.query("SELECT id FROM shoreline_layers WHERE active = 1")
        assert field.store.query("SELECT id FROM shoreline_layers WHERE active = 1") == active
        # the earlier layer the measurements were taken on came along, inactive
        layers = field.store.query("SELECT id, active FROM shoreline_layers ORDER BY active")
        assert len(layers) == 2 and layers[0]["active"] == 0
        assert field.store.query("PRAGMA foreign_key_check") == []
        for sbl in sbls:
            assert field.load_case(sbl).parcel.sbl == sbl
    finally:
        field.close()


def test_a_failed_join_leaves_the_folder_as_it_was(two_layer_office: Workspace,
                                                   tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    office = two_layer_office
    sync.enroll(office, "laptop-1", tmp_path / "kit.zip", [p["sbl"] for p in office.parcels()],
                passphrase=KIT_PASSPHRASE)
    root = tmp_path / "field"

    real = Store.set_meta

    def broken(self: Store, key: str, value: str) -> None:
        if key == "office_seq_received":  # the last step of a join
            raise OSError(28, "No space left on device")
        real(self, key, value)

    monkeypatch.setattr(Store, "set_meta", broken)
    with pytest.raises(OSError, match="No space"):
        sync.join(root, tmp_path / "kit.zip", user="k.olmsted", passphrase=KIT_PASSPHRASE)
    assert not root.exists()  # nothing was left behind
    monkeypatch.undo()
    again = sync.join(root, tmp_path / "kit.zip", user="k.olmsted", passphrase=KIT_PASSPHRASE)
    assert again["device"] == "laptop-1"

    # a folder the app had only opened is left opened, not half joined
    opened_root = tmp_path / "opened"
    Workspace(opened_root, user="k.olmsted").close()
    before = sorted(p.relative_to(opened_root) for p in opened_root.rglob("*"))
    office_kit = tmp_path / "kit2.zip"
    sync.enroll(office, "laptop-2", office_kit, [p["sbl"] for p in office.parcels()],
                passphrase=KIT_PASSPHRASE)
    monkeypatch.setattr(Store, "set_meta", broken)
    with pytest.raises(OSError, match="No space"):
        sync.join(opened_root, office_kit, user="k.olmsted", passphrase=KIT_PASSPHRASE)
    assert sorted(p.relative_to(opened_root) for p in opened_root.rglob("*")) == before
    opened = Workspace(opened_root, user="k.olmsted")
    try:
        assert sync.holds_nothing_yet(opened.store)
    finally:
        opened.close()
    monkeypatch.undo()
    again = sync.join(opened_root, office_kit, user="k.olmsted", passphrase=KIT_PASSPHRASE)
    assert again["device"] == "laptop-2"
