from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from inspector_app.errors import InputError
from inspector_app.services import exchange as sync
from inspector_app.services.letters import register as letters
from inspector_app.services.workspace import Workspace
from inspector_app.sync.package import PackageError
from tests.sync.conftest import KIT_PASSPHRASE, TODAY, Pair, state


def owner(name: str) -> Any:
    return lambda d: d["parcel"].__setitem__("owner_name", name)


def test_join_gives_the_laptop_its_parcels_layer_and_rules(pair: Pair) -> None:
    assert [p["sbl"] for p in pair.field.parcels()] == pair.sbls
    for sbl in pair.sbls:
        assert pair.field.load_case(sbl) == pair.office.load_case(sbl)
    office_layer = pair.office.store.query("SELECT id FROM shoreline_layers WHERE active = 1")
    assert pair.field.store.query("SELECT id FROM shoreline_layers WHERE active = 1") == (
        office_layer)
    assert (pair.field.folder.root / "jurisdictions" / "town-of-canandaigua-ch202.toml").exists()
    # the same changes in the same order (each folder numbers its own log)
    def changes(ws: Workspace) -> list[dict[str, Any]]:
        return [{k: v for k, v in h.items() if k != "seq"} for h in ws.history(pair.sbls[0])]

    assert changes(pair.field) and changes(pair.field) == changes(pair.office)
    with pytest.raises(InputError, match="only an empty data folder can join"):
        sync.join(pair.field.folder.root, pair.tmp / "kit.zip", user="x",
                  passphrase=KIT_PASSPHRASE)


def test_round_trip_and_reimport(pair: Pair) -> None:
    sbl = pair.sbls[0]
    before = pair.office.load_case(sbl).parcel.owner_name
    pair.edit(pair.field, sbl, owner("New Owner"))
    result = pair.up()
    assert (result["applied"], result["already_imported"], result["conflicts"]) == (1, False, 0)
    assert pair.office.load_case(sbl).parcel.owner_name == "New Owner"
    change = [h for h in pair.office.history(sbl) if h["op"] == "update"][-1]
    assert (change["user"], change["device"], change["old_value"], change["new_value"]) == (
        "k.olmsted", "laptop-1", before, "New Owner")
    again = sync.import_package(pair.office, pair.tmp / "up.zip")
    assert again == {"applied": 0, "already_imported": True, "conflicts": 0}


def test_overlapping_packages_apply_each_change_once(pair: Pair) -> None:
    a, b = pair.sbls[0], pair.sbls[1]
    pair.edit(pair.field, a, owner("First"))
    sync.export(pair.field, pair.tmp / "p1.zip")  # carries change 1
    pair.edit(pair.field, b, owner("Second"))
    sync.export(pair.field, pair.tmp / "p2.zip")  # not yet acknowledged: changes 1 and 2
    second = sync.import_package(pair.office, pair.tmp / "p2.zip")
    first = sync.import_package(pair.office, pair.tmp / "p1.zip")
    assert (second["applied"], first["applied"], first["already_had"]) == (2, 0, 1)
    assert not first["already_imported"]
    owners = {pair.office.load_case(s).parcel.owner_name for s in (a, b)}
    assert owners == {"First", "Second"}
    applied = pair.office.store.query("SELECT count(*) AS n FROM change_log WHERE device_id = "
                                      "(SELECT id FROM devices WHERE name = 'laptop-1')")
    assert applied[0]["n"] == 2


def test_different_fields_merge(pair: Pair) -> None:
    sbl = pair.sbls[0]
    pair.edit(pair.field, sbl, lambda d: d["dwelling"].__setitem__("bedrooms", 6))
    pair.edit(pair.office, sbl, lambda d: d["parcel"].__setitem__("site_address", "9 Shore Rd"))
    assert pair.up()["conflicts"] == 0
    assert pair.down()["conflicts"] == 0
    for ws in (pair.office, pair.field):
        case = ws.load_case(sbl)
        assert (case.dwelling.bedrooms, case.parcel.site_address) == (6, "9 Shore Rd")


def test_same_field_conflict_is_kept_and_resolution_syncs_back(pair: Pair) -> None:
    sbl = pair.sbls[0]
    base = pair.office.load_case(sbl).parcel.owner_name
    pair.edit(pair.field, sbl, owner("Field Name"))
    pair.edit(pair.office, sbl, owner("Office Name"))
    result = pair.up()
    assert (result["applied"], result["conflicts"]) == (0, 1)
    (conflict,) = sync.conflicts(pair.office)
    assert {k: conflict[k] for k in ("sbl", "field", "local_value", "incoming_value")} == {
        "sbl": sbl, "field": "parcel.owner_name", "local_value": "Office Name",
        "incoming_value": "Field Name"}
    assert conflict["base_value"] == base and conflict["device"] == "laptop-1"
    assert pair.office.load_case(sbl).parcel.owner_name == "Office Name"  # local value stays
    with pytest.raises(InputError, match="unresolved sync conflicts"):
        letters.issue(pair.office, sbl, ["report_of_findings"], as_of=TODAY)
    sync.resolve(pair.office, conflict["id"], choice="take_incoming")
    assert sync.conflicts(pair.office) == []
    assert pair.office.load_case(sbl).parcel.owner_name == "Field Name"
    pair.down()
    assert pair.field.load_case(sbl).parcel.owner_name == "Field Name"
    assert sync.conflicts(pair.field) == []
    resolution = [h for h in pair.office.history(sbl) if h["field"] == "owner_name"][-1]
    assert (resolution["user"], resolution["new_value"]) == ("clerk", "Field Name")


def test_entered_value_converges_on_both_sides(pair: Pair) -> None:
    sbl = pair.sbls[1]
    pair.edit(pair.field, sbl, owner("A"))
    pair.edit(pair.office, sbl, owner("B"))
    pair.up()
    (conflict,) = sync.conflicts(pair.office)
    sync.resolve(pair.office, conflict["id"], choice="enter_value", value="A and B Trust")
    pair.down()
    assert {ws.load_case(sbl).parcel.owner_name for ws in (pair.office, pair.field)} == {
        "A and B Trust"}
    assert sync.conflicts(pair.field) == [] and sync.conflicts(pair.office) == []
    with pytest.raises(InputError, match="already resolved"):
        sync.resolve(pair.office, conflict["id"], choice="keep_local")


def test_acknowledged_changes_are_not_sent_again(pair: Pair) -> None:
    pair.edit(pair.field, pair.sbls[0], owner("Acked"))
    assert pair.up()["applied"] == 1
    assert sync.status(pair.field)["waiting_to_send"] == 1  # not acknowledged yet
    pair.down()
    assert sync.status(pair.field)["waiting_to_send"] == 0
    assert sync.export(pair.field, pair.tmp / "empty.zip")["changes"] == 0


def test_the_office_reports_gaps(pair: Pair) -> None:
    for n in range(3):
        pair.edit(pair.field, pair.sbls[0], owner(f"Owner {n}"))
    # a package that lost its first changes (as if acknowledged by mistake)
    pair.field.store.conn.execute("UPDATE devices SET acknowledged_seq = 2 WHERE role = 'office'")
    result = pair.up()
    assert result["gaps"] == [1, 2]
    (device,) = sync.status(pair.office)["devices"]
    assert (device["received_through"], device["gaps"]) == (0, [1, 2])


def test_photos_travel_with_their_bytes(pair: Pair, tmp_path: Path) -> None:
    photo = tmp_path / "lid.jpg"
    photo.write_bytes(b"\xff\xd8 a photo of a cracked riser lid" * 50)
    info = pair.field.add_attachment(pair.sbls[0], photo, caption="cracked lid")
    pair.up()
    stored = pair.office.attachment_path(info["sha256"])
    assert stored.read_bytes() == photo.read_bytes()
    assert pair.office.attachments(pair.sbls[0])[0]["caption"] == "cracked lid"


def test_a_photo_without_its_bytes_is_refused(pair: Pair, tmp_path: Path) -> None:
    photo = tmp_path / "gone.jpg"
    photo.write_bytes(b"\xff\xd8 soon to be missing" * 20)
    info = pair.field.add_attachment(pair.sbls[0], photo)
    sync.export(pair.field, pair.tmp / "with.zip")
    _rewrite(pair, pair.tmp / "with.zip", pair.tmp / "without.zip",
             drop=f"attachments/{info['sha256']}")
    before = state(pair.office)
    with pytest.raises(PackageError, match="whose bytes are neither in the package nor on "
                                           "this computer"):
        sync.import_package(pair.office, pair.tmp / "without.zip")
    assert state(pair.office) == before


def _rewrite(pair: Pair, source: Path, target: Path, *, drop: str) -> None:
    """Re-sign a package without one member, as a correctly keyed but careless sender."""
    import zipfile

    from inspector_app.sync.package import write_package

    with zipfile.ZipFile(source) as z:
        manifest = json.loads(z.read("manifest.json"))
        members = {n: z.read(n) for n in z.namelist() if n not in ("manifest.json",
                                                                   "signature", drop)}
    manifest["counts"]["attachments"] -= 1
    key = pair.field.store.query("SELECT private_key FROM devices WHERE role = 'this'"
                                 )[0]["private_key"]
    write_package(target, manifest, members, key)


def test_packages_from_strangers_are_refused(pair: Pair, tmp_path: Path) -> None:
    stranger = Workspace(tmp_path / "stranger", user="someone")
    try:
        stranger.save_case(pair.office.load_case(pair.sbls[0]), today=TODAY)
        sync.export(stranger, tmp_path / "unsigned.zip")
    finally:
        stranger.close()
    before = state(pair.office)
    with pytest.raises(PackageError, match="it is unsigned"):
        sync.import_package(pair.office, tmp_path / "unsigned.zip")
    assert state(pair.office) == before


def test_contract_cli_shapes(pair: Pair, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.test_cli import cli

    office, field = str(pair.office.folder.root), str(pair.field.folder.root)
    pair.office.close()
    pair.field.close()
    secret = pair.tmp / "passphrase.txt"
    secret.write_text(KIT_PASSPHRASE + "\n", "utf-8")
    status, out, err = cli(capsys, "--data-dir", office, "sync", "enroll", "--device",
                           "laptop-2", "--out", str(pair.tmp / "kit2.zip"), "--parcels",
                           ",".join(pair.sbls), "--passphrase-file", str(secret))
    assert status == 0, err
    assert {k: out[k] for k in ("path", "device")} == {"path": str(pair.tmp / "kit2.zip"),
                                                       "device": "laptop-2"}
    shown = out["office_fingerprint"]
    status, out, err = cli(capsys, "--data-dir", str(pair.tmp / "f2"), "sync", "join",
                           str(pair.tmp / "kit2.zip"), "--passphrase-file", str(secret))
    assert out == {"device": "laptop-2", "parcels": 3, "office_fingerprint": shown}
    assert shown in err
    status, out, _ = cli(capsys, "--data-dir", field, "sync", "export", "--out",
                         str(pair.tmp / "x.zip"))
    assert set(out) == {"path", "changes"}
    status, out, _ = cli(capsys, "--data-dir", office, "sync", "import", str(pair.tmp / "x.zip"))
    assert {"applied", "already_imported", "conflicts"} <= set(out)
    status, out, _ = cli(capsys, "--data-dir", office, "sync", "conflicts")
    assert out == []
    status, _, err = cli(capsys, "--data-dir", office, "sync", "import", str(pair.tmp / "nope"))
    assert status == 2 and "nope: no such sync package" in err
    pair.office = Workspace(Path(office), user="clerk")
    pair.field = Workspace(Path(field), user="k.olmsted")
