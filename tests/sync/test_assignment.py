"""What a laptop holds: office packages addressed to one laptop, parcels assigned and
taken away after enrolment, and the clearing of owners' contact data a laptop no longer
needs."""

from __future__ import annotations

import json
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from inspector_app.casefile import parse_document, to_document
from inspector_app.errors import InputError
from inspector_app.services import exchange as sync
from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.workspace import Workspace
from inspector_app.sync import package
from inspector_app.sync.package import PackageError
from tests.sync.conftest import KIT_PASSPHRASE, TODAY, state
from tests.templates import Templates

PHONE, EMAIL = "585-555-0142", "owner@example.com"
RENTER = {"name": "Pat Renter", "mailing_address": ["12 Vine St", "Naples, NY 14512"],
          "phone": "585-555-0177", "email": "renter@example.com"}


def assign(ws: Workspace, device: str, parcels: list[str], **how: Any) -> dict[str, Any]:
    from inspector_app.services.exchange.assignment import assign

    return assign(ws, device, parcels, **how)


def edit(ws: Workspace, sbl: str, change: Any) -> None:
    doc = to_document(ws.load_case(sbl))
    change(doc)
    ws.save_case(parse_document(json.loads(json.dumps(doc)), source="edit", today=TODAY),
                 today=TODAY)


def contact(doc: dict[str, Any]) -> None:
    doc["parcel"].update(owner_phone=PHONE, owner_email=EMAIL, renters=[RENTER])


@dataclass
class Office:
    office: Workspace
    a: Workspace
    tmp: Path
    sbls: list[str]  # p1, p2 are A's; p3 is B's; the rest nobody's

    def down(self, name: str = "down.zip") -> dict[str, Any]:
        sync.export(self.office, self.tmp / name, device="A")
        return sync.import_package(self.a, self.tmp / name)

    def up(self, name: str = "up.zip") -> dict[str, Any]:
        sync.export(self.a, self.tmp / name)
        return sync.import_package(self.office, self.tmp / name)


def _two(root: Path) -> None:
    with Workspace(root / "office", user="clerk") as office:
        install_demo(office, count=6, today=TODAY)
        sbls = [p["sbl"] for p in office.parcels()]
        for sbl in sbls[:4]:
            edit(office, sbl, contact)
        sync.enroll(office, "A", root / "a.kit", sbls[:2], passphrase=KIT_PASSPHRASE)
        sync.enroll(office, "B", root / "b.kit", sbls[2:3], passphrase=KIT_PASSPHRASE)
    sync.join(root / "a", root / "a.kit", user="k.olmsted", passphrase=KIT_PASSPHRASE)


@pytest.fixture
def two(tmp_path: Path, templates: Templates) -> Iterator[Office]:
    templates.copy("office-two-laptops", _two, tmp_path)  # built once, a copy per test
    office = Workspace(tmp_path / "office", user="clerk")
    sbls = [p["sbl"] for p in office.parcels()]
    a = Workspace(tmp_path / "a", user="k.olmsted")
    yield Office(office, a, tmp_path, sbls)
    office.close()
    a.close()


def members(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as z:
        return {n: z.read(n) for n in z.namelist()}


def row(ws: Workspace, table: str, where: str, args: tuple[Any, ...]) -> dict[str, Any]:
    return ws.store.query(f"SELECT * FROM {table} WHERE {where}", args)[0]


# --- an office package is for one laptop --------------------------------------------------

def test_with_two_laptops_an_office_export_names_its_laptop(two: Office) -> None:
    p3 = two.sbls[2]
    edit(two.office, p3, lambda d: d["parcel"].__setitem__("owner_phone", "315-555-0199"))
    with pytest.raises(InputError, match=r"2 laptops are enrolled here \(A, B\).*--device"):
        sync.export(two.office, two.tmp / "all.zip")
    assert not (two.tmp / "all.zip").exists()
    sync.export(two.office, two.tmp / "a.zip", device="A")
    held = b"".join(members(two.tmp / "a.zip").values())
    p3_id = two.office.parcel_id(p3).encode()
    assert p3_id not in held and b"315-555-0199" not in held
    for sbl in two.sbls[3:]:
        assert two.office.parcel_id(sbl).encode() not in held
    manifest = json.loads(members(two.tmp / "a.zip")["manifest.json"])
    assert manifest["for_device"] == two.a.store.device_id
    assert sorted(manifest["assignment"]["parcels"]) == sorted(
        two.office.parcel_id(s) for s in two.sbls[:2])
    sync.import_package(two.a, two.tmp / "a.zip")
    assert [p["sbl"] for p in two.a.parcels()] == two.sbls[:2]


def _resign(two: Office, source: Path, out: Path, mutate: Any) -> None:
    """The office's genuine package to A, changed and signed again with the office's
    key: only the laptop's own checks can stop it."""
    held = members(source)
    manifest = json.loads(held.pop("manifest.json"))
    held.pop("signature")
    changes = [json.loads(x) for x in held["changes.jsonl"].splitlines() if x.strip()]
    mutate(manifest, changes)
    manifest.pop("members")
    manifest["counts"]["changes"] = len(changes)
    seqs = [c["source_seq"] for c in changes]
    manifest.update(first_seq=min(seqs) if seqs else None, last_seq=max(seqs) if seqs else None)
    held["changes.jsonl"] = "\n".join(json.dumps(c) for c in changes).encode()
    key = two.office.store.query("SELECT private_key FROM devices WHERE role = 'this'"
                                 )[0]["private_key"]
    package.write_package(out, manifest, held, key)


def test_a_laptop_refuses_office_changes_for_parcels_not_assigned_to_it(two: Office) -> None:
    p3 = two.sbls[2]
    p3_row = row(two.office, "parcels", "sbl = ?", (p3,))
    sync.export(two.office, two.tmp / "genuine.zip", device="A")

    def add_p3(manifest: dict[str, Any], changes: list[dict[str, Any]]) -> None:
        values = {k: v for k, v in p3_row.items() if k not in (
            "id", "created_at", "updated_at", "device_id", "version", "deleted_at")}
        changes.append({"change_id": "office-change-p3-0001", "at": p3_row["created_at"],
                        "user": "clerk", "device_id": two.office.store.device_id,
                        "device_seq": None, "table": "parcels", "record_id": p3_row["id"],
                        "parcel_id": p3_row["id"], "op": "insert", "field": None,
                        "old": None, "new": values, "record_version": 1, "source_seq": 1})

    _resign(two, two.tmp / "genuine.zip", two.tmp / "p3.zip", add_p3)
    before = state(two.a)
    with pytest.raises(PackageError, match="not assigned to this laptop"):
        sync.import_package(two.a, two.tmp / "p3.zip")
    assert state(two.a) == before

    # nor does a package addressed to laptop B do for A, however genuine
    b = row(two.office, "devices", "name = ?", ("B",))["id"]
    _resign(two, two.tmp / "genuine.zip", two.tmp / "for-b.zip",
            lambda manifest, changes: manifest.update(for_device=b))
    with pytest.raises(PackageError, match="addressed to another laptop"):
        sync.import_package(two.a, two.tmp / "for-b.zip")
    assert state(two.a) == before


# --- assigning parcels after enrolment ----------------------------------------------------

def test_a_parcel_assigned_later_arrives_whole_and_its_edits_sync_back(
        two: Office, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.test_cli import cli

    p4 = two.sbls[3]
    office_root = str(two.office.folder.root)
    two.office.close()
    status, out, err = cli(capsys, "--data-dir", office_root, "--user", "clerk", "sync",
                           "assign", "--device", "A", "--parcels", p4)
    assert status == 0, err
    assert out == {"device": "A", "parcels": 3, "added": [p4], "removed": [], "revision": 1}
    two.office = Workspace(two.office.folder.root, user="clerk")
    (event,) = two.office.store.query(
        "SELECT * FROM device_assignments WHERE device_id = ?", (two.a.store.device_id,))
    assert (event["user"], json.loads(event["added"]), event["revision"], event["device_name"]
            ) == ("clerk", [two.office.parcel_id(p4)], 1, "A")
    assert event["at"]

    two.down()
    assert two.a.load_case(p4) == two.office.load_case(p4)
    def history(ws: Workspace) -> list[dict[str, Any]]:
        return [{k: v for k, v in h.items() if k != "seq"} for h in ws.history(p4)]

    assert history(two.a) == history(two.office)
    edit(two.a, p4, lambda d: d["dwelling"].__setitem__("bedrooms", 7))
    assert two.up()["applied"] == 1
    assert two.office.load_case(p4).dwelling.bedrooms == 7
    # the laptop said it holds the new assignment: the records are not sent again
    sync.export(two.office, two.tmp / "again.zip", device="A")
    assert "records.jsonl" not in members(two.tmp / "again.zip")


def test_a_parcel_on_two_laptops_never_reaches_the_other_through_assignment(
        two: Office) -> None:
    assign(two.office, "B", [two.sbls[3]])
    sync.export(two.office, two.tmp / "a.zip", device="A")
    assert two.office.parcel_id(two.sbls[3]).encode() not in b"".join(
        members(two.tmp / "a.zip").values())


# --- taking parcels away ------------------------------------------------------------------

def test_changes_to_a_parcel_taken_away_are_kept_for_a_person_not_lost(two: Office) -> None:
    p2 = two.sbls[1]
    before = two.office.load_case(p2).parcel.owner_name
    edit(two.a, p2, lambda d: d["parcel"].__setitem__("owner_name", "Made Before Removal"))
    result = assign(two.office, "A", [p2], remove=True)
    assert (result["removed"], result["added"], result["parcels"]) == ([p2], [], 1)
    up = two.up()
    assert (up["applied"], up["conflicts"]) == (0, 1)
    assert two.office.load_case(p2).parcel.owner_name == before
    (kept,) = sync.conflicts(two.office)
    assert (kept["sbl"], kept["field"], kept["incoming_value"], kept["device"]) == (
        p2, "parcel.owner_name", "Made Before Removal", "A")
    # acknowledged: the laptop stops sending it
    sync.export(two.office, two.tmp / "d.zip", device="A")
    ack = json.loads(members(two.tmp / "d.zip")["manifest.json"])["acknowledges"]
    assert ack == [{"device_id": two.a.store.device_id, "through_seq": 1}]
    sync.resolve(two.office, kept["id"], choice="take_incoming")
    assert two.office.load_case(p2).parcel.owner_name == "Made Before Removal"


def test_after_removal_the_laptop_ignores_an_older_office_package(two: Office) -> None:
    p2 = two.sbls[1]
    sync.export(two.office, two.tmp / "old.zip", device="A")
    edit(two.office, p2, lambda d: d["parcel"].__setitem__("owner_name", "Office Rename"))
    assign(two.office, "A", [p2], remove=True)
    two.down("new.zip")
    sync.import_package(two.a, two.tmp / "old.zip")
    from inspector_app.services.exchange.assignment import assigned_here

    assert two.a.parcel_id(p2) not in assigned_here(two.a)


# --- clearing contact data the laptop no longer needs -------------------------------------

def _contact_of(ws: Workspace, sbl: str) -> tuple[Any, ...]:
    case = ws.load_case(sbl)
    return (case.parcel.owner_phone, case.parcel.owner_email,
            [(r.phone, r.email, r.mailing_address) for r in case.parcel.renters])


def test_contact_data_is_cleared_only_once_the_office_has_every_change(
        two: Office, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.test_cli import cli

    p2 = two.sbls[1]
    full = (PHONE, EMAIL, [(RENTER["phone"], RENTER["email"], tuple(RENTER["mailing_address"]))])
    assert _contact_of(two.a, p2) == full
    edit(two.a, p2, lambda d: d["dwelling"].__setitem__("bedrooms", 6))  # not yet sent
    assign(two.office, "A", [p2], remove=True)
    result = two.down()
    assert result["contact_data_cleared"] == []
    assert _contact_of(two.a, p2) == full  # its change has not reached the office

    log_before = two.a.store.query("SELECT count(*) AS n FROM change_log")[0]["n"]
    two.up()
    result = two.down("down2.zip")
    assert result["contact_data_cleared"] == [p2]
    assert _contact_of(two.a, p2) == (None, None, [(None, None, ())])
    assert two.a.store.query("SELECT count(*) AS n FROM change_log")[0]["n"] == log_before
    (clearing,) = two.a.store.query("SELECT * FROM contact_clearings")
    assert (clearing["parcel_id"], clearing["cleared_by"], clearing["restored_at"]) == (
        two.a.parcel_id(p2), "k.olmsted", None)
    # nothing travels: the office keeps every value
    assert sync.export(two.a, two.tmp / "nothing.zip")["changes"] == 0
    sync.import_package(two.office, two.tmp / "nothing.zip")
    assert _contact_of(two.office, p2) == full
    assert _contact_of(two.a, two.sbls[0]) == full  # still assigned: untouched

    # the parcel list, the case file and `parcels` still work with the cleared copy
    assert p2 in [p["sbl"] for p in two.a.parcels()]
    field_root = str(two.a.folder.root)
    two.a.close()
    status, out, err = cli(capsys, "--data-dir", field_root, "case", "export", p2)
    assert status == 0, err
    assert out["parcel"].get("owner_phone") is None
    assert out["parcel"]["owner_mailing_address"]
    status, out, err = cli(capsys, "--data-dir", field_root, "parcels")
    assert status == 0 and p2 in [p["sbl"] for p in out]
    two.a = Workspace(two.a.folder.root, user="k.olmsted")

    # given back, the parcel's contact data arrives again with its records
    assign(two.office, "A", [p2])
    two.down("down3.zip")
    assert _contact_of(two.a, p2) == full
    (clearing,) = two.a.store.query("SELECT * FROM contact_clearings")
    assert clearing["restored_by"] == "k.olmsted" and clearing["restored_at"]
