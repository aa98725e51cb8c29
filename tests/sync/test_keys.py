"""Per-device keys, encrypted field kits, owner-only files (docs/security.md)."""

from __future__ import annotations

import io
import json
import sqlite3
import stat
import zipfile
from pathlib import Path
from typing import Any

import pytest

from inspector_app.errors import InputError
from inspector_app.paths import DATABASE_NAME
from inspector_app.services import exchange as sync
from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.workspace import Workspace
from inspector_app.sync import keys
from inspector_app.sync.package import (
    SHARED_KEY_FORMAT,
    PackageError,
    package_bytes,
    write_package,
    write_private,
)
from tests.sync.conftest import KIT_PASSPHRASE, TODAY, Pair, state
from tests.test_cli import cli

FIXTURES = Path(__file__).parent.parent / "fixtures"


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _kit_members(kit: Path, passphrase: str = KIT_PASSPHRASE) -> dict[str, bytes]:
    inner = keys.unseal(kit.read_bytes(), passphrase, source=str(kit))
    with zipfile.ZipFile(io.BytesIO(inner)) as z:
        return {n: z.read(n) for n in z.namelist()}


def _private_key(ws: Workspace) -> str:
    return str(ws.store.query("SELECT private_key FROM devices WHERE role = 'this'"
                              )[0]["private_key"])


def _office_package(pair: Pair, sbl: str, owner: str) -> tuple[dict[str, Any], bytes]:
    """What a package from the office rewriting a parcel's owner would hold."""
    office_row = pair.office.store.query("SELECT * FROM devices WHERE role = 'this'")[0]
    parcel = pair.office.store.query("SELECT * FROM parcels WHERE sbl = ?", (sbl,))[0]
    change = {"change_id": "forged-change-0001", "at": "2026-11-25T12:00:00.000+00:00",
              "user": "clerk", "device_id": office_row["id"], "device_seq": None,
              "table": "parcels", "record_id": parcel["id"], "parcel_id": parcel["id"],
              "op": "update", "field": "owner_name", "old": parcel["owner_name"],
              "new": owner, "record_version": parcel["version"] + 1, "source_seq": 999}
    manifest = {"format": "watershed-inspector/sync/2", "kind": "changes",
                "package_id": "forged-package-0001", "source_device": office_row["id"],
                "source_name": office_row["name"], "created_at": "2026-11-25T12:00:00+00:00",
                "first_seq": 999, "last_seq": 999, "source_seq_through": 999,
                "counts": {"changes": 1, "attachments": 0}, "acknowledges": []}
    return manifest, json.dumps(change).encode()


# --- the attack: one laptop's kit speaking for the office -----------------------------

def test_a_package_signed_with_one_laptops_key_as_the_office_is_refused_by_another(
        pair: Pair) -> None:
    sbl = pair.sbls[0]
    sync.enroll(pair.office, "laptop-2", pair.tmp / "kit2.zip", [sbl],
                passphrase=KIT_PASSPHRASE)
    sync.join(pair.tmp / "field2", pair.tmp / "kit2.zip", user="r.vance",
              passphrase=KIT_PASSPHRASE)
    with Workspace(pair.tmp / "field2", user="r.vance") as b:
        before = state(b)
        manifest, change = _office_package(pair, sbl, "Rewritten by laptop 1")
        # Everything laptop 1 holds: its own private key, from its database or its kit.
        write_package(pair.tmp / "forged.zip", manifest, {"changes.jsonl": change},
                      _private_key(pair.field))
        with pytest.raises(PackageError, match="signature does not match"):
            sync.import_package(b, pair.tmp / "forged.zip")
        assert state(b) == before
        # Laptop 1 itself refuses it too; only the office's own key is accepted.
        with pytest.raises(PackageError, match="signature does not match"):
            sync.import_package(pair.field, pair.tmp / "forged.zip")
        # the office addresses its packages to one laptop, naming that laptop's parcels
        manifest.update(for_device=b.store.device_id, assignment={
            "revision": 0, "parcels": [pair.office.parcel_id(sbl)]})
        write_package(pair.tmp / "genuine.zip", manifest, {"changes.jsonl": change},
                      _private_key(pair.office))
        assert sync.import_package(b, pair.tmp / "genuine.zip")["applied"] == 1


def test_no_kit_and_no_laptop_holds_the_offices_private_key(pair: Pair) -> None:
    office_private = _private_key(pair.office)
    members = _kit_members(pair.tmp / "kit.zip")
    assert all(office_private.encode() not in data for data in members.values())
    kit = json.loads(members["kit.json"])
    assert set(kit["office"]) == {"id", "name", "public_key"}
    assert kit["office"]["public_key"] == keys.public_key(office_private)
    laptop = pair.field.store.query("SELECT role, private_key, public_key FROM devices "
                                    "ORDER BY role")
    assert [(r["role"], r["private_key"] is None) for r in laptop] == [("office", True),
                                                                      ("this", False)]
    # The office holds the laptop's public key only.
    at_office = pair.office.store.query("SELECT private_key, public_key FROM devices WHERE "
                                        "role = 'field'")[0]
    assert at_office["private_key"] is None
    assert at_office["public_key"] == keys.public_key(_private_key(pair.field))


# --- passphrase, tampering, fingerprint ----------------------------------------------

@pytest.fixture
def kit(tmp_path: Path) -> tuple[Workspace, Path]:
    office = Workspace(tmp_path / "office", user="clerk")
    install_demo(office, count=3, today=TODAY)
    result = sync.enroll(office, "laptop-1", tmp_path / "kit.zip",
                         [office.parcels()[0]["sbl"]], passphrase=KIT_PASSPHRASE)
    assert result["office_fingerprint"] == sync.office_fingerprint(office)
    yield office, tmp_path / "kit.zip"
    office.close()


@pytest.mark.parametrize("passphrase", ["", "kit passphrase 2", KIT_PASSPHRASE.upper()])
def test_a_wrong_passphrase_is_refused_and_changes_nothing(
        kit: tuple[Workspace, Path], tmp_path: Path, passphrase: str) -> None:
    with pytest.raises(InputError, match="passphrase is wrong"):
        sync.join(tmp_path / "field", kit[1], user="k.olmsted", passphrase=passphrase)
    assert not (tmp_path / "field").exists()


def test_join_at_the_cli_without_the_passphrase_is_refused(
        kit: tuple[Workspace, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = cli(capsys, "--data-dir", str(tmp_path / "field"), "sync", "join",
                           str(kit[1]))  # stdin is not a terminal here
    assert status == 2 and out is None
    assert "--passphrase-file" in err
    assert not (tmp_path / "field").exists()
    wrong = tmp_path / "wrong.txt"
    wrong.write_text("not the passphrase\n", "utf-8")
    status, out, err = cli(capsys, "--data-dir", str(tmp_path / "field"), "sync", "join",
                           str(kit[1]), "--passphrase-file", str(wrong))
    assert status == 2 and "passphrase is wrong" in err
    assert not (tmp_path / "field").exists()


def _flip(data: bytes, at: int) -> bytes:
    return data[:at] + bytes([data[at] ^ 0x01]) + data[at + 1:]


@pytest.mark.parametrize("where", ["last byte", "middle", "header"])
def test_a_tampered_kit_is_refused(kit: tuple[Workspace, Path], tmp_path: Path,
                                   where: str) -> None:
    data = kit[1].read_bytes()
    header_end = data.index(b"\n", len(keys.KIT_MAGIC))
    at = {"last byte": len(data) - 1, "middle": (header_end + len(data)) // 2,
          "header": header_end - 3}[where]
    bad = tmp_path / "bad-kit.zip"
    bad.write_bytes(_flip(data, at))
    with pytest.raises(InputError, match="passphrase is wrong, or the kit was changed|"
                                         "damaged"):
        sync.join(tmp_path / "field", bad, user="k.olmsted", passphrase=KIT_PASSPHRASE)
    assert not (tmp_path / "field").exists()


def test_a_kit_resealed_by_someone_who_knows_the_passphrase_is_refused(
        kit: tuple[Workspace, Path], tmp_path: Path) -> None:
    """Knowing the passphrase is not enough: the contents are signed by the office."""
    office, path = kit
    members = _kit_members(path)
    manifest = json.loads(members.pop("manifest.json"))
    members.pop("signature")
    records = members["records.jsonl"].replace(b'"owner_name": "', b'"owner_name": "X')
    bad = tmp_path / "resealed.zip"
    # members changed under the office's signature
    with zipfile.ZipFile(io.BytesIO(keys.unseal(path.read_bytes(), KIT_PASSPHRASE,
                                                source="kit"))) as z:
        raw_manifest, signature = z.read("manifest.json"), z.read("signature")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as z:
        z.writestr("manifest.json", raw_manifest)
        z.writestr("signature", signature)
        for name, data in members.items():
            z.writestr(name, records if name == "records.jsonl" else data)
    write_private(bad, keys.seal(buffer.getvalue(), KIT_PASSPHRASE))
    with pytest.raises(PackageError, match="does not match its hash"):
        sync.join(tmp_path / "field", bad, user="k.olmsted", passphrase=KIT_PASSPHRASE)
    # or re-signed with another key claiming to be the office: its fingerprint differs
    impostor = keys.new_private_key()
    kit_json = json.loads(members["kit.json"])
    kit_json["office"]["public_key"] = keys.public_key(impostor)
    members["kit.json"] = json.dumps(kit_json).encode()
    manifest.pop("members")
    write_private(bad, keys.seal(package_bytes(manifest, members, impostor), KIT_PASSPHRASE))
    with pytest.raises(PackageError, match="fingerprint is .* not .* as expected"):
        sync.join(tmp_path / "field", bad, user="k.olmsted", passphrase=KIT_PASSPHRASE,
                  fingerprint=sync.office_fingerprint(office))
    assert not (tmp_path / "field").exists()


def test_join_shows_the_fingerprint_the_office_showed(kit: tuple[Workspace, Path],
                                                     tmp_path: Path) -> None:
    office, path = kit
    shown = sync.office_fingerprint(office)
    assert len(shown) == 19 and shown.count("-") == 3
    joined = sync.join(tmp_path / "field", path, user="k.olmsted", passphrase=KIT_PASSPHRASE,
                       fingerprint=shown.upper())
    assert joined["office_fingerprint"] == shown


def test_an_unencrypted_kit_of_the_shared_key_scheme_is_refused(
        kit: tuple[Workspace, Path], tmp_path: Path) -> None:
    old = tmp_path / "old-kit.zip"
    old.write_bytes(keys.unseal(kit[1].read_bytes(), KIT_PASSPHRASE, source="kit"))
    with pytest.raises(PackageError, match="not encrypted.*enrol the laptop again"):
        sync.join(tmp_path / "field", old, user="k.olmsted", passphrase=KIT_PASSPHRASE)


def test_a_short_passphrase_is_refused_at_enrolment(kit: tuple[Workspace, Path],
                                                    tmp_path: Path) -> None:
    office, _ = kit
    before = state(office)
    with pytest.raises(InputError, match="at least 10"):
        sync.enroll(office, "laptop-2", tmp_path / "k2.zip", [office.parcels()[0]["sbl"]],
                    passphrase="short")
    assert state(office) == before and not (tmp_path / "k2.zip").exists()


# --- parcels must be named ----------------------------------------------------------

def test_enrolment_requires_parcels_or_a_work_list(
        kit: tuple[Workspace, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    office, _ = kit
    before = state(office)
    with pytest.raises(InputError, match="--parcels SBL,SBL or a work list"):
        sync.enroll(office, "laptop-2", tmp_path / "k2.zip", None, passphrase=KIT_PASSPHRASE)
    with pytest.raises(InputError, match="is not a work list"):
        sync.enroll(office, "laptop-2", tmp_path / "k2.zip", None, passphrase=KIT_PASSPHRASE,
                    worklist="everything")
    assert state(office) == before and not (tmp_path / "k2.zip").exists()
    root = str(office.folder.root)
    office.close()
    status, _, err = cli(capsys, "--data-dir", root, "sync", "enroll", "--device", "laptop-2",
                         "--out", str(tmp_path / "k2.zip"))
    assert status == 2 and "--parcels" in err and "--worklist" in err
    assert not (tmp_path / "k2.zip").exists()


def test_enrolment_by_work_list(tmp_path: Path) -> None:
    from inspector_app.services.lists.worklists import worklists

    with Workspace(tmp_path / "office", user="clerk") as office:
        install_demo(office, count=8, today=TODAY)
        listed = {p["sbl"] for p in worklists(office, as_of=office.today(),
                                              names=("five-year-inspections",)
                                              )["five-year-inspections"]}
        assert listed and len(listed) < 8
        result = sync.enroll(office, "laptop-1", tmp_path / "kit.zip", None,
                             passphrase=KIT_PASSPHRASE, worklist="five-year-inspections")
        assert result["parcels"] == len(listed)
    kit = json.loads(_kit_members(tmp_path / "kit.zip")["kit.json"])
    assert set(kit["parcels"]) == listed


# --- owner-only files -----------------------------------------------------------------

def test_kits_packages_and_data_folders_are_owner_only(pair: Pair) -> None:
    assert _mode(pair.tmp / "kit.zip") == 0o600
    sync.export(pair.field, pair.tmp / "up.zip")
    sync.export(pair.office, pair.tmp / "down.zip")
    assert _mode(pair.tmp / "up.zip") == 0o600
    assert _mode(pair.tmp / "down.zip") == 0o600
    for ws in (pair.office, pair.field):
        for folder in (ws.folder.root, ws.folder.attachments, ws.folder.backups,
                       ws.folder.letters):
            assert _mode(folder) == 0o700, folder


def test_an_existing_open_data_folder_is_made_owner_only(tmp_path: Path) -> None:
    (tmp_path / "shared").mkdir(mode=0o755)
    (tmp_path / "shared").chmod(0o755)
    Workspace(tmp_path / "shared", user="clerk").close()
    assert _mode(tmp_path / "shared") == 0o700


# --- signatures that are not signatures ------------------------------------------------

@pytest.mark.parametrize("signature", ["é" * 128, "00" * 64, "zz", ""])
def test_a_malformed_signature_is_refused_not_a_crash(pair: Pair, signature: str) -> None:
    sync.export(pair.field, pair.tmp / "up.zip")
    with zipfile.ZipFile(pair.tmp / "up.zip") as z:
        members = {n: z.read(n) for n in z.namelist()}
    members["signature"] = signature.encode()
    with zipfile.ZipFile(pair.tmp / "bad.zip", "w") as z:
        for name, data in members.items():
            z.writestr(name, data)
    before = state(pair.office)
    with pytest.raises(PackageError, match="signature does not match|signature is not an "
                                           "Ed25519 signature"):
        sync.import_package(pair.office, pair.tmp / "bad.zip")
    assert state(pair.office) == before


# --- pairs enrolled under the shared-key scheme --------------------------------------

def _as_the_migration_left_it(ws: Workspace) -> None:
    with ws.store.transaction():
        ws.store.conn.execute("UPDATE devices SET private_key = NULL, public_key = NULL, "
                              "secret = NULL")


def test_a_pair_enrolled_under_the_shared_key_scheme_is_told_to_enrol_again(
        pair: Pair) -> None:
    _as_the_migration_left_it(pair.office)
    _as_the_migration_left_it(pair.field)
    with pytest.raises(InputError, match="earlier shared-key scheme.*enrol the laptop again"):
        sync.export(pair.field, pair.tmp / "up.zip")
    assert not (pair.tmp / "up.zip").exists()
    # a package from that laptop, however it was signed
    this = pair.field.store.query("SELECT * FROM devices WHERE role = 'this'")[0]
    manifest = {"format": "watershed-inspector/sync/2", "kind": "changes",
                "package_id": "from-an-old-laptop", "source_device": this["id"],
                "source_name": this["name"], "created_at": "2026-11-25T12:00:00+00:00",
                "first_seq": None, "last_seq": None, "source_seq_through": 0,
                "counts": {"changes": 0, "attachments": 0}, "acknowledges": []}
    write_package(pair.tmp / "old.zip", manifest, {"changes.jsonl": b""},
                  keys.new_private_key())
    before = state(pair.office)
    with pytest.raises(PackageError, match="'laptop-1' was enrolled under the earlier "
                                           "shared-key scheme"):
        sync.import_package(pair.office, pair.tmp / "old.zip")
    assert state(pair.office) == before
    # the office gets a key pair of its own; the old laptop refuses what it signs
    sync.export(pair.office, pair.tmp / "down.zip")
    before = state(pair.field)
    with pytest.raises(PackageError, match="This laptop was enrolled under the earlier"):
        sync.import_package(pair.field, pair.tmp / "down.zip")
    assert state(pair.field) == before


def test_a_package_of_the_shared_key_format_is_refused_in_words(pair: Pair) -> None:
    sync.export(pair.field, pair.tmp / "up.zip")
    with zipfile.ZipFile(pair.tmp / "up.zip") as z:
        manifest = json.loads(z.read("manifest.json"))
        members = {n: z.read(n) for n in z.namelist() if n not in ("manifest.json",
                                                                   "signature")}
    manifest["format"] = SHARED_KEY_FORMAT
    manifest.pop("members")
    write_package(pair.tmp / "v1.zip", manifest, members, _private_key(pair.field))
    with pytest.raises(PackageError, match="earlier shared-key scheme"):
        sync.import_package(pair.office, pair.tmp / "v1.zip")


def test_the_migration_removes_the_shared_keys(tmp_path: Path) -> None:
    root = tmp_path / "old"
    root.mkdir()
    conn = sqlite3.connect(root / DATABASE_NAME)
    conn.executescript((FIXTURES / "schema_v6.sql").read_text("utf-8"))
    conn.execute("UPDATE devices SET secret = ? WHERE role = 'this'", ("ab" * 32,))
    conn.execute("INSERT INTO devices (id, name, role, created_at, secret, parcels) VALUES "
                 "('dev-2', 'laptop-1', 'field', '2026-01-05T09:00:00.000+00:00', ?, '[]')",
                 ("cd" * 32,))
    conn.commit()
    conn.close()
    with Workspace(root, user="clerk") as ws:
        rows = ws.store.query("SELECT secret, private_key, public_key FROM devices")
    assert rows == [{"secret": None, "private_key": None, "public_key": None}] * 2


def test_a_kit_given_to_import_is_pointed_to_join(pair: Pair) -> None:
    before = state(pair.office)
    with pytest.raises(PackageError, match="is a field kit; use `inspector-app sync join`"):
        sync.import_package(pair.office, pair.tmp / "kit.zip")
    assert state(pair.office) == before


@pytest.mark.parametrize("name", ["laptop-1.wikit", "kit.zip", "kit-without-suffix"])
def test_a_kit_is_read_by_its_content_whatever_its_name(
        kit: tuple[Workspace, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str],
        name: str) -> None:
    """Kits are named .wikit; one written as .zip by an earlier version still joins."""
    renamed = tmp_path / name
    renamed.write_bytes(kit[1].read_bytes())
    phrase = tmp_path / "phrase.txt"
    phrase.write_text(KIT_PASSPHRASE + "\n", "utf-8")
    status, out, err = cli(capsys, "--user", "J. Haldane", "--data-dir",
                           str(tmp_path / "field"), "sync", "join", str(renamed),
                           "--passphrase-file", str(phrase))
    assert status == 0, err
    assert out["device"] == "laptop-1" and out["parcels"] == 1
    with Workspace(tmp_path / "field", user="reader") as field:
        assert field.role == "field"
        assert len(field.parcels()) == 1
