"""Revoking a laptop, and rotating the office's or a laptop's key (docs/security.md)."""

from __future__ import annotations

import json
import sqlite3
import zipfile
from pathlib import Path
from typing import Any

import pytest

from inspector_app.errors import InputError
from inspector_app.paths import DATABASE_NAME
from inspector_app.services import exchange as sync
from inspector_app.services.workspace import Workspace
from inspector_app.sync import keys
from inspector_app.sync.package import PackageError, write_package
from tests.sync.conftest import KIT_PASSPHRASE, Pair
from tests.sync.conftest import state as records_state
from tests.sync.test_hostile_packages import edit_unassigned_parcel, hostile
from tests.test_cli import cli

FIXTURES = Path(__file__).parent.parent / "fixtures"


def owner(name: str) -> Any:
    return lambda d: d["parcel"].__setitem__("owner_name", name)


def owner_of(ws: Workspace, sbl: str) -> str:
    return str(ws.store.query("SELECT owner_name FROM parcels WHERE sbl = ?",
                              (sbl,))[0]["owner_name"])


def state(ws: Workspace) -> dict[str, Any]:
    """The records, the sync bookkeeping and every key held."""
    return {**records_state(ws),
            "device_keys": ws.store.query("SELECT * FROM device_keys ORDER BY rowid")}


def this_device(ws: Workspace) -> dict[str, Any]:
    return ws.store.query("SELECT * FROM devices WHERE role = 'this'")[0]


def keys_held(ws: Workspace, device_id: str) -> list[dict[str, Any]]:
    return ws.store.query("SELECT * FROM device_keys WHERE device_id = ? ORDER BY rowid",
                          (device_id,))


def every_value(ws: Workspace) -> str:
    """Every row of every table, as text."""
    tables = [r["name"] for r in ws.store.query(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%'")]
    return "\n".join(repr(row) for table in tables
                     for row in ws.store.query(f"SELECT * FROM {table}"))


def contents(path: Path) -> tuple[dict[str, Any], dict[str, bytes]]:
    with zipfile.ZipFile(path) as z:
        manifest = json.loads(z.read("manifest.json"))
        members = {n: z.read(n) for n in z.namelist() if n not in ("manifest.json",
                                                                   "signature")}
    manifest.pop("members")
    return manifest, members


# --- revoking a laptop -----------------------------------------------------------------

def test_a_revoked_laptops_later_packages_are_refused_and_its_earlier_ones_stay(
        pair: Pair, capsys: pytest.CaptureFixture[str]) -> None:
    sbl = pair.sbls[0]
    pair.edit(pair.field, sbl, owner("Before The Loss"))
    assert pair.up("before.zip")["applied"] >= 1
    pair.edit(pair.field, sbl, owner("After The Loss"))
    sync.export(pair.field, pair.tmp / "after.zip")
    office = str(pair.office.folder.root)
    status, revoked, _ = cli(capsys, "--data-dir", office, "--user", "alice", "sync",
                             "revoke", "--device", "laptop-1", "--reason", "lost")
    assert status == 0
    assert revoked["device"] == "laptop-1" and revoked["revoked_by"] == "alice"
    assert revoked["reason"] == "lost" and revoked["parcels"] == pair.sbls
    day = revoked["revoked_at"][:10]
    before = state(pair.office)
    with pytest.raises(PackageError, match=(
            rf"The laptop 'laptop-1' was revoked on {day} by alice \(lost\); its packages "
            r"are refused.*Enrol a replacement laptop under a new name")):
        sync.import_package(pair.office, pair.tmp / "after.zip")
    status, _, err = cli(capsys, "--data-dir", office, "sync", "import",
                         str(pair.tmp / "after.zip"))
    assert status == 2 and "was revoked on" in err
    assert state(pair.office) == before
    # what it sent before it was revoked stays, as it was imported
    assert owner_of(pair.office, sbl) == "Before The Loss"
    assert len(pair.office.store.query("SELECT * FROM sync_packages")) == 1


def test_status_shows_a_revoked_laptop_as_revoked(pair: Pair) -> None:
    assert sync.status(pair.office)["devices"][0]["revoked"] is False
    sync.revoke(pair.office, "laptop-1", reason="stolen from a truck")
    shown = sync.status(pair.office)["devices"][0]
    assert shown["device"] == "laptop-1" and shown["revoked"] is True
    assert shown["revoked_by"] == "clerk" and shown["revoked_reason"] == "stolen from a truck"
    assert shown["revoked_at"]


def test_revoking_an_unknown_or_revoked_laptop_changes_nothing(
        pair: Pair, capsys: pytest.CaptureFixture[str]) -> None:
    office = str(pair.office.folder.root)
    before = state(pair.office)
    status, _, err = cli(capsys, "--data-dir", office, "sync", "revoke", "--device",
                         "laptop-9")
    assert status == 2 and "No laptop named 'laptop-9' is enrolled here" in err
    assert state(pair.office) == before
    sync.revoke(pair.office, "laptop-1", reason="lost")
    once = state(pair.office)
    status, _, err = cli(capsys, "--data-dir", office, "sync", "revoke", "--device",
                         "laptop-1", "--reason", "again")
    assert status == 2 and "was revoked on" in err and "already" in err
    assert state(pair.office) == once
    # only the office revokes
    field_before = state(pair.field)
    with pytest.raises(InputError, match="only the office revokes"):
        sync.revoke(pair.field, "laptop-1")
    assert state(pair.field) == field_before


def test_a_revoked_laptops_parcels_go_to_a_replacement(pair: Pair) -> None:
    sync.revoke(pair.office, "laptop-1", reason="lost")
    with pytest.raises(InputError, match="was revoked on .*nothing is exported to it"):
        sync.export(pair.office, pair.tmp / "to-lost.zip", device="laptop-1")
    assert not (pair.tmp / "to-lost.zip").exists()
    # the name stays the revoked laptop's
    with pytest.raises(InputError, match="already enrolled"):
        sync.enroll(pair.office, "laptop-1", pair.tmp / "again.zip", pair.sbls,
                    passphrase=KIT_PASSPHRASE)
    sync.enroll(pair.office, "laptop-2", pair.tmp / "kit2.zip", pair.sbls,
                passphrase=KIT_PASSPHRASE)
    sync.join(pair.tmp / "field2", pair.tmp / "kit2.zip", user="r.vance",
              passphrase=KIT_PASSPHRASE)
    with Workspace(pair.tmp / "field2", user="r.vance") as replacement:
        pair.edit(replacement, pair.sbls[1], owner("Taken Over"))
        sync.export(replacement, pair.tmp / "up2.zip")
        assert sync.import_package(pair.office, pair.tmp / "up2.zip")["applied"] >= 1
        assert owner_of(pair.office, pair.sbls[1]) == "Taken Over"
        # the office's export goes to the one laptop still enrolled
        pair.edit(pair.office, pair.sbls[2], owner("From The Office"))
        sync.export(pair.office, pair.tmp / "down2.zip")
        sync.import_package(replacement, pair.tmp / "down2.zip")
        assert owner_of(replacement, pair.sbls[2]) == "From The Office"


# --- rotating a key --------------------------------------------------------------------

def test_the_office_rotates_and_the_laptop_learns_the_new_key(
        pair: Pair, capsys: pytest.CaptureFixture[str]) -> None:
    office_id = this_device(pair.office)["id"]
    old_public = this_device(pair.office)["public_key"]
    old_private = this_device(pair.office)["private_key"]
    pair.edit(pair.office, pair.sbls[0], owner("Written Before"))
    sync.export(pair.office, pair.tmp / "old.zip")  # signed by the old key
    status, rotated, _ = cli(capsys, "--data-dir", str(pair.office.folder.root), "sync",
                             "rotate-key")
    assert status == 0 and rotated["device"] == this_device(pair.office)["name"]
    assert rotated["previous"] == keys.fingerprint(old_public)
    new = this_device(pair.office)
    assert new["public_key"] != old_public
    assert rotated["fingerprint"] == keys.fingerprint(new["public_key"])
    assert sync.status(pair.office)["key_fingerprint"] == rotated["fingerprint"]
    # the old private key is gone: only the public keys of retired keys are kept
    held = keys_held(pair.office, office_id)
    assert [k["public_key"] for k in held] == [old_public, new["public_key"]]
    assert held[0]["retired_at"] and held[1]["retired_at"] is None
    assert keys.endorsement_holds(office_id, {
        "previous_key": held[1]["endorsed_by"], "public_key": held[1]["public_key"],
        "endorsed_at": held[1]["endorsed_at"], "signature": held[1]["endorsement"]})
    assert held[1]["endorsed_by"] == old_public
    assert keys.public_key(new["private_key"]) == new["public_key"]
    dump = every_value(pair.office)
    assert dump.count(new["private_key"]) == 1 and old_private not in dump
    if pair.office.store.database is None:  # nor do the data folder's files hold its bytes
        dump = "\n".join(sqlite3.connect(pair.office.folder.root / DATABASE_NAME).iterdump())
        assert dump.count(new["private_key"]) == 1 and old_private not in dump
        files = [p for p in pair.office.folder.root.glob(f"{DATABASE_NAME}*") if p.is_file()]
        assert not [p.name for p in files if old_private.encode() in p.read_bytes()]

    pair.edit(pair.office, pair.sbls[1], owner("Written After"))
    sync.export(pair.office, pair.tmp / "new.zip")
    sync.import_package(pair.field, pair.tmp / "new.zip")
    assert owner_of(pair.field, pair.sbls[1]) == "Written After"
    learned = keys_held(pair.field, office_id)
    assert [k["public_key"] for k in learned] == [old_public, new["public_key"]]
    assert learned[1]["endorsement"] == held[1]["endorsement"]
    assert pair.field.store.query("SELECT public_key FROM devices WHERE role = 'office'"
                                  )[0]["public_key"] == new["public_key"]
    # a package the old key signed, imported after the rotation, still verifies
    result = sync.import_package(pair.field, pair.tmp / "old.zip")
    assert result["already_imported"] is False
    assert owner_of(pair.field, pair.sbls[0]) == "Written Before"
    # and later packages verify with the key learned
    pair.edit(pair.office, pair.sbls[2], owner("Later Still"))
    assert pair.down("later.zip")["applied"] >= 1
    assert owner_of(pair.field, pair.sbls[2]) == "Later Still"


def test_a_kit_written_after_the_office_rotates_carries_the_new_key(pair: Pair) -> None:
    rotated = sync.rotate_key(pair.office)
    joined = sync.enroll(pair.office, "laptop-2", pair.tmp / "kit2.zip", pair.sbls[:1],
                         passphrase=KIT_PASSPHRASE)
    assert joined["office_fingerprint"] == rotated["fingerprint"]
    result = sync.join(pair.tmp / "field2", pair.tmp / "kit2.zip", user="r.vance",
                       passphrase=KIT_PASSPHRASE, fingerprint=rotated["fingerprint"])
    assert result["office_fingerprint"] == rotated["fingerprint"]
    with Workspace(pair.tmp / "field2", user="r.vance") as second:
        pair.edit(pair.office, pair.sbls[0], owner("To Both"))
        sync.export(pair.office, pair.tmp / "down2.zip", device="laptop-2")
        sync.import_package(second, pair.tmp / "down2.zip")
        assert owner_of(second, pair.sbls[0]) == "To Both"


def test_a_laptop_rotates_and_the_office_learns_the_new_key(pair: Pair) -> None:
    laptop = this_device(pair.field)
    pair.edit(pair.field, pair.sbls[0], owner("Sent Before"))
    sync.export(pair.field, pair.tmp / "old.zip")
    rotated = sync.rotate_key(pair.field)
    assert rotated["device"] == "laptop-1"
    assert rotated["previous"] == keys.fingerprint(laptop["public_key"])
    pair.edit(pair.field, pair.sbls[1], owner("Sent After"))
    sync.export(pair.field, pair.tmp / "new.zip")
    # the package written before the rotation goes in first, with the old key...
    sync.import_package(pair.office, pair.tmp / "old.zip")
    # ...and the next one teaches the office the new key
    sync.import_package(pair.office, pair.tmp / "new.zip")
    assert owner_of(pair.office, pair.sbls[1]) == "Sent After"
    current = this_device(pair.field)["public_key"]
    assert [k["public_key"] for k in keys_held(pair.office, laptop["id"])] == [
        laptop["public_key"], current]
    assert sync.status(pair.office)["devices"][0]["key_fingerprint"] == rotated["fingerprint"]
    pair.edit(pair.field, pair.sbls[2], owner("Sent Later"))
    pair.up("later.zip")
    assert owner_of(pair.office, pair.sbls[2]) == "Sent Later"


def test_two_rotations_are_learned_through_the_whole_chain(pair: Pair) -> None:
    first = this_device(pair.office)["public_key"]
    sync.rotate_key(pair.office)
    sync.rotate_key(pair.office)
    pair.edit(pair.office, pair.sbls[0], owner("Twice Rotated"))
    manifest, _ = contents(Path(sync.export(pair.office, pair.tmp / "down.zip")["path"]))
    assert manifest["key_chain"][0]["previous_key"] == first
    assert len(manifest["key_chain"]) == 2
    sync.import_package(pair.field, pair.tmp / "down.zip")
    assert owner_of(pair.field, pair.sbls[0]) == "Twice Rotated"
    assert len(keys_held(pair.field, this_device(pair.office)["id"])) == 3


# --- forged keys -------------------------------------------------------------------------

def _forge(pair: Pair, how: str) -> Path:
    """A package from laptop 1 rewritten to be signed by a key the office does not hold,
    with the endorsements `how` says."""
    laptop = this_device(pair.field)
    pair.edit(pair.field, pair.sbls[0], owner("Forged Owner"))
    sync.export(pair.field, pair.tmp / "genuine.zip")
    manifest, members = contents(pair.tmp / "genuine.zip")
    attacker = keys.new_private_key()
    attacker_public = keys.public_key(attacker)
    at = manifest["created_at"]
    if how == "no chain":
        manifest["key_chain"] = []
    elif how == "signed by a key not held":
        stranger = keys.new_private_key()
        manifest["key_chain"] = [keys.endorse(laptop["id"], stranger, attacker_public, at)]
    elif how == "names the held key, signed by another":
        link = keys.endorse(laptop["id"], attacker, attacker_public, at)
        link["previous_key"] = laptop["public_key"]
        manifest["key_chain"] = [link]
    elif how == "signed by another laptop's key":
        sync.enroll(pair.office, "laptop-2", pair.tmp / "kit2.zip", pair.sbls[:1],
                    passphrase=KIT_PASSPHRASE)
        sync.join(pair.tmp / "field2", pair.tmp / "kit2.zip", user="r.vance",
                  passphrase=KIT_PASSPHRASE)
        with Workspace(pair.tmp / "field2", user="r.vance") as second:
            other = str(this_device(second)["private_key"])
        manifest["key_chain"] = [keys.endorse(laptop["id"], other, attacker_public, at)]
    elif how == "endorses a changed key":
        sync.rotate_key(pair.field)
        sync.export(pair.field, pair.tmp / "rotated.zip")
        genuine, _ = contents(pair.tmp / "rotated.zip")
        manifest["key_chain"] = [{**genuine["key_chain"][0], "public_key": attacker_public}]
    elif how == "continues from a key of its own":
        good = keys.endorse(laptop["id"], str(laptop["private_key"]), keys.public_key(
            keys.new_private_key()), at)
        manifest["key_chain"] = [good, keys.endorse(laptop["id"], attacker, attacker_public,
                                                    at)]
    manifest["signing_key"] = attacker_public
    write_package(pair.tmp / "forged.zip", manifest, members, attacker)
    return pair.tmp / "forged.zip"


@pytest.mark.parametrize("how, says", [
    ("no chain", "no endorsement in it leads to that key"),
    ("signed by a key not held", "no endorsement in it leads to that key"),
    ("names the held key, signed by another", "is not signed by the key it replaces"),
    ("signed by another laptop's key", "no endorsement in it leads to that key"),
    ("endorses a changed key", "is not signed by the key it replaces"),
    ("continues from a key of its own", "endorsement 2 does not continue"),
])
def test_a_key_the_office_cannot_trace_to_the_laptops_is_refused_whole(
        pair: Pair, how: str, says: str) -> None:
    forged = _forge(pair, how)
    before = state(pair.office)
    with pytest.raises(PackageError, match=f"{says}.*refused and nothing was changed"):
        sync.import_package(pair.office, forged)
    assert state(pair.office) == before
    assert owner_of(pair.office, pair.sbls[0]) != "Forged Owner"


def test_a_new_key_in_a_package_refused_for_its_changes_is_not_learned(pair: Pair) -> None:
    laptop_id = this_device(pair.field)["id"]
    sync.rotate_key(pair.field)
    pair.edit(pair.field, pair.sbls[0], owner("Beyond Its Say"))
    refused = hostile(pair, edit_unassigned_parcel, "refused.zip")
    before = state(pair.office)
    with pytest.raises(PackageError, match="not assigned to this laptop"):
        sync.import_package(pair.office, refused)
    assert state(pair.office) == before
    assert len(keys_held(pair.office, laptop_id)) == 1
    pair.up("clean.zip")
    assert len(keys_held(pair.office, laptop_id)) == 2


@pytest.mark.parametrize("change", [
    lambda m: m["key_chain"][0].__setitem__("public_key", "AB" * 32),
    lambda m: m["key_chain"][0].__setitem__("note", "extra"),
    lambda m: m.__setitem__("signing_key", "ab" * 31),
    lambda m: m.pop("signing_key"),
], ids=["upper-case key", "unknown field", "short key", "chain without signing key"])
def test_the_key_fields_of_a_manifest_are_strict(pair: Pair, change: Any) -> None:
    sync.rotate_key(pair.field)
    pair.edit(pair.field, pair.sbls[0], owner("Strict"))
    sync.export(pair.field, pair.tmp / "up.zip")
    manifest, members = contents(pair.tmp / "up.zip")
    change(manifest)
    write_package(pair.tmp / "bent.zip", manifest, members,
                  str(this_device(pair.field)["private_key"]))
    before = state(pair.office)
    with pytest.raises(PackageError, match="its manifest is not valid"):
        sync.import_package(pair.office, pair.tmp / "bent.zip")
    assert state(pair.office) == before


def test_a_package_without_the_key_fields_still_verifies(pair: Pair) -> None:
    """As the version before key rotation wrote them."""
    pair.edit(pair.field, pair.sbls[0], owner("Older Version"))
    sync.export(pair.field, pair.tmp / "up.zip")
    manifest, members = contents(pair.tmp / "up.zip")
    del manifest["signing_key"], manifest["key_chain"]
    write_package(pair.tmp / "older.zip", manifest, members,
                  str(this_device(pair.field)["private_key"]))
    sync.import_package(pair.office, pair.tmp / "older.zip")
    assert owner_of(pair.office, pair.sbls[0]) == "Older Version"


def test_rotation_needs_an_enrolled_folder(tmp_path: Path) -> None:
    with Workspace(tmp_path / "alone", user="clerk") as ws, pytest.raises(
            InputError, match="no sync key to rotate"):
        sync.rotate_key(ws)


# --- the schema --------------------------------------------------------------------------

def test_the_migration_keeps_every_current_key_as_the_first_of_its_device(
        tmp_path: Path) -> None:
    root = tmp_path / "old"
    root.mkdir()
    office_private = keys.new_private_key()
    laptop_public = keys.public_key(keys.new_private_key())
    conn = sqlite3.connect(root / DATABASE_NAME)
    conn.executescript((FIXTURES / "schema_v7.sql").read_text("utf-8"))
    conn.execute("UPDATE devices SET private_key = ?, public_key = ? WHERE role = 'this'",
                 (office_private, keys.public_key(office_private)))
    conn.execute("INSERT INTO devices (id, name, role, created_at, parcels, public_key) "
                 "VALUES ('dev-2', 'laptop-1', 'field', '2026-01-06T09:00:00.000+00:00', "
                 "'[]', ?)", (laptop_public,))
    conn.commit()
    conn.close()
    with Workspace(root, user="clerk") as ws:
        held = ws.store.query("SELECT device_id, public_key, created_at, retired_at, "
                              "endorsement FROM device_keys ORDER BY device_id")
        devices = ws.store.query("SELECT id, private_key, revoked_at, revoked_by, "
                                 "revoked_reason FROM devices ORDER BY id")
    assert held == [
        {"device_id": "dev-1", "public_key": keys.public_key(office_private),
         "created_at": "2026-01-05T09:00:00.000+00:00", "retired_at": None,
         "endorsement": None},
        {"device_id": "dev-2", "public_key": laptop_public,
         "created_at": "2026-01-06T09:00:00.000+00:00", "retired_at": None,
         "endorsement": None}]
    assert devices == [
        {"id": "dev-1", "private_key": office_private, "revoked_at": None,
         "revoked_by": None, "revoked_reason": None},
        {"id": "dev-2", "private_key": None, "revoked_at": None, "revoked_by": None,
         "revoked_reason": None}]
