"""Packages from a laptop that speak beyond what the laptop may say.

Each package here is a genuine one from the laptop, changed by one mutation and signed
again with the laptop's own key, so its signature is valid: what stops it is the office's
policy (`sync.policy`). Each is refused whole, with a message that names the change, and
changes nothing at the office.
"""

from __future__ import annotations

import hashlib
import json
import random
import shutil
import string
import tempfile
import time
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from inspector_app.paths import DATABASE_NAME
from inspector_app.services import exchange as sync
from inspector_app.services.letters import register as letters
from inspector_app.services.letters import service
from inspector_app.services.workspace import Workspace
from inspector_app.storage.records import new_id
from inspector_app.sync import package
from inspector_app.sync.package import PackageError
from tests.attesting import attest_report
from tests.suggestions import decide_pending
from tests.sync.conftest import KIT_PASSPHRASE, TODAY, Pair, state


def sign_and_write(path: Path, manifest: dict[str, Any], members: dict[str, bytes],
                   sender: Workspace) -> None:
    """Write a package signed with the sending data folder's own key."""
    key = sender.store.query("SELECT private_key FROM devices WHERE role = 'this'"
                             )[0]["private_key"]
    package.write_package(path, manifest, members, key)


@dataclass
class Contents:
    manifest: dict[str, Any]
    changes: list[dict[str, Any]]
    attachments: dict[str, bytes]


Mutation = Callable[[Pair, Contents], None]
_SHORT_DIRS: list[Path] = []


@pytest.fixture(autouse=True)
def _remove_short_dirs() -> Iterator[None]:
    yield
    while _SHORT_DIRS:
        shutil.rmtree(_SHORT_DIRS.pop())


def hostile(pair: Pair, mutate: Mutation, name: str = "hostile.zip", *,
            from_office: bool = False) -> Path:
    """The laptop's (or the office's) genuine package with `mutate` applied, signed again
    by its sender."""
    sender = pair.office if from_office else pair.field
    genuine = pair.tmp / "genuine.zip"
    sync.export(sender, genuine)
    with zipfile.ZipFile(genuine) as z:
        manifest = json.loads(z.read("manifest.json"))
        changes = [json.loads(line) for line in z.read("changes.jsonl").splitlines()
                   if line.strip()]
        attachments = {n.split("/", 1)[1]: z.read(n) for n in z.namelist()
                       if n.startswith("attachments/")}
    contents = Contents(manifest, changes, attachments)
    mutate(pair, contents)
    manifest = {k: v for k, v in contents.manifest.items() if k != "members"}
    seqs = [c["source_seq" if from_office else "device_seq"] for c in contents.changes]
    manifest.update(counts={"changes": len(contents.changes),
                            "attachments": len(contents.attachments)},
                    first_seq=min(seqs) if seqs else None, last_seq=max(seqs) if seqs else None)
    members = {"changes.jsonl": "\n".join(json.dumps(c) for c in contents.changes).encode(),
               **{f"attachments/{k}": v for k, v in contents.attachments.items()}}
    out = pair.tmp / name
    sign_and_write(out, manifest, members, sender)
    return out


# --- the pieces a mutation is made of ---------------------------------------------------------

def office_row(pair: Pair, table: str, where: str, args: tuple[Any, ...]) -> dict[str, Any]:
    return pair.office.store.query(f"SELECT * FROM {table} WHERE {where}", args)[0]


def unassigned(pair: Pair) -> dict[str, Any]:
    return next(p for p in pair.office.store.query("SELECT * FROM parcels ORDER BY sbl")
                if p["sbl"] not in pair.sbls)


def retarget(c: dict[str, Any], **values: Any) -> None:
    """Make a genuine change into another one, keeping its device, number and time."""
    c.update(values)


def update(c: dict[str, Any], table: str, row: dict[str, Any], field: str, new: Any) -> None:
    parcel = row["id"] if table == "parcels" else row.get("parcel_id")
    retarget(c, table=table, record_id=row["id"], parcel_id=parcel, op="update", field=field,
             old=row[field], new=new, record_version=int(row["version"]) + 1)


def insert(c: dict[str, Any], table: str, parcel_id: str, new: dict[str, Any]) -> None:
    retarget(c, table=table, record_id=new_id(), parcel_id=parcel_id, op="insert", field=None,
             old=None, new=new, record_version=1)


def second_laptop(pair: Pair) -> dict[str, Any]:
    """Another laptop enrolled at the office, with parcels of its own."""
    others = [p["sbl"] for p in pair.office.parcels() if p["sbl"] not in pair.sbls][:2]
    sync.enroll(pair.office, "laptop-2", pair.tmp / "kit-2.zip", others,
                passphrase=KIT_PASSPHRASE)
    return office_row(pair, "devices", "name = ?", ("laptop-2",))


def issued_letter(pair: Pair) -> dict[str, Any]:
    decide_pending(pair.office, pair.sbls[1], as_of=TODAY)
    attest_report(pair.office, pair.sbls[1], on=TODAY)
    letters.issue(pair.office, pair.sbls[1], ["report_of_findings"], as_of=TODAY)
    return office_row(pair, "letters", "status = 'issued'", ())


def random_text(n: int) -> str:
    rng = random.Random(12)
    return "".join(rng.choices(string.ascii_letters, k=n))  # does not compress: no zip bomb


# --- the attacks ------------------------------------------------------------------------------

def edit_unassigned_parcel(pair: Pair, p: Contents) -> None:
    update(p.changes[0], "parcels", unassigned(pair), "owner_name", "Someone Else")


def edit_other_laptops_parcel(pair: Pair, p: Contents) -> None:
    other = second_laptop(pair)
    sbl = json.loads(other["parcels"])[0]
    parcel = office_row(pair, "parcels", "sbl = ?", (sbl,))
    update(p.changes[0], "parcels", parcel, "owner_mailing_address", "1 Elsewhere; Nowhere NY")


def delete_unassigned_parcel(pair: Pair, p: Contents) -> None:
    parcel = unassigned(pair)
    retarget(p.changes[0], table="parcels", record_id=parcel["id"], parcel_id=parcel["id"],
             op="delete", field=None, old=None, new=None,
             record_version=int(parcel["version"]) + 1)


def claim_foreign_record_for_own_parcel(pair: Pair, p: Contents) -> None:
    other = unassigned(pair)
    dwelling = office_row(pair, "dwellings", "parcel_id = ?", (other["id"],))
    update(p.changes[0], "dwellings", dwelling, "bedrooms", 9)
    p.changes[0]["parcel_id"] = pair.office.parcel_id(pair.sbls[0])


def change_assigned_parcels_tax_map_number(pair: Pair, p: Contents) -> None:
    parcel = office_row(pair, "parcels", "sbl = ?", (pair.sbls[0],))
    update(p.changes[0], "parcels", parcel, "sbl", "999.99-9-9")


def zero_shoreline_accuracy(pair: Pair, p: Contents) -> None:
    layer = office_row(pair, "shoreline_layers", "active = 1", ())
    update(p.changes[0], "shoreline_layers", layer, "accuracy_ft", 0)


def stamp_issued_letter_printed(pair: Pair, p: Contents) -> None:
    letter = issued_letter(pair)
    update(p.changes[0], "letters", letter, "printed_at", "2026-11-26T10:00:00.000+00:00")


def insert_issued_letter(pair: Pair, p: Contents) -> None:
    letter = issued_letter(pair)
    new = {k: v for k, v in letter.items() if k not in (
        "id", "parcel_id", "created_at", "updated_at", "device_id", "version", "deleted_at",
        "pdf", "replaces_letter_id", "printed_at")}
    insert(p.changes[0], "letters", letter["parcel_id"], new)


def insert_letter_with_malformed_recipient(pair: Pair, p: Contents) -> None:
    insert(p.changes[0], "letters", pair.office.parcel_id(pair.sbls[0]), {
        "kind": "report_of_findings", "status": "draft", "letter_date": "2026-11-25",
        "recipient": "{not json", "case_version": 1})


def served_letter(pair: Pair) -> dict[str, Any]:
    letter = issued_letter(pair)
    service.serve(pair.office, letter["id"], method="first_class_mail", on=TODAY)
    return office_row(pair, "letter_service", "letter_id = ?", (letter["id"],))


def insert_letter_service(pair: Pair, p: Contents) -> None:
    letter = issued_letter(pair)
    insert(p.changes[0], "letter_service", letter["parcel_id"], {
        "letter_id": letter["id"], "event": "delivered", "signed_by": "R. Owner",
        "event_date": "2026-11-25", "recorded_by": "k.olmsted"})


def change_letter_service_date(pair: Pair, p: Contents) -> None:
    update(p.changes[0], "letter_service", served_letter(pair), "event_date", "2026-11-20")


def delete_letter_service(pair: Pair, p: Contents) -> None:
    row = served_letter(pair)
    retarget(p.changes[0], table="letter_service", record_id=row["id"],
             parcel_id=row["parcel_id"], op="delete", field=None, old=None, new=None,
             record_version=int(row["version"]) + 1)


def insert_attestation(pair: Pair, p: Contents) -> None:
    issued_letter(pair)
    attestation = office_row(pair, "attestations", "1", ())
    new = {k: v for k, v in attestation.items() if k not in (
        "id", "parcel_id", "created_at", "updated_at", "device_id", "version", "deleted_at")}
    insert(p.changes[0], "attestations", attestation["parcel_id"],
           {**new, "attester_name": "Someone Else"})


def insert_inspection_request(pair: Pair, p: Contents) -> None:
    insert(p.changes[0], "inspection_requests", pair.office.parcel_id(pair.sbls[0]), {
        "reason": "conveyance", "due": "2026-12-20", "requested_by": "A. Buyer",
        "requested_on": "2026-11-25"})


def runaway_sequence_number(pair: Pair, p: Contents) -> None:
    p.changes[0]["device_seq"] = 10**12


def sequence_number_past_the_bound(pair: Pair, p: Contents) -> None:
    p.changes[0]["device_seq"] = 2**31 + 5


def acknowledge_more_than_sent(pair: Pair, p: Contents) -> None:
    p.manifest["acknowledges"][0]["through_seq"] = 10**9


def photo_path_up_and_out(pair: Pair, p: Contents) -> None:
    digest = "./" * 22 + "/../" + DATABASE_NAME
    assert len(digest) == 64 and (pair.office.attachment_path(digest)).exists()
    insert(p.changes[0], "attachments", pair.office.parcel_id(pair.sbls[0]), {
        "sha256": digest, "filename": "lid.jpg", "media_type": "image/jpeg",
        "size_bytes": 10, "caption": None, "inspection_id": None, "component_id": None})


def photo_padded_absolute_path(pair: Pair, p: Contents) -> None:
    short = Path(tempfile.mkdtemp(prefix="w", dir="/tmp"))  # the path must fit in 64
    _SHORT_DIRS.append(short)
    (short / "o").symlink_to(pair.office.folder.root)
    target = str(short / "o" / DATABASE_NAME)
    digest = "/" * (64 - len(target)) + target
    assert len(digest) == 64 and pair.office.attachment_path(digest).exists()
    insert(p.changes[0], "attachments", pair.office.parcel_id(pair.sbls[0]), {
        "sha256": digest, "filename": "lid.jpg", "media_type": "image/jpeg",
        "size_bytes": 10, "caption": None, "inspection_id": None, "component_id": None})


def photo_upper_case_digest(pair: Pair, p: Contents) -> None:
    data = b"\xff\xd8 a photo" * 10
    digest = hashlib.sha256(data).hexdigest()
    pair.office.attachment_path(digest.upper()).parent.mkdir(parents=True, exist_ok=True)
    pair.office.attachment_path(digest.upper()).write_bytes(data)
    insert(p.changes[0], "attachments", pair.office.parcel_id(pair.sbls[0]), {
        "sha256": digest.upper(), "filename": "lid.jpg", "media_type": "image/jpeg",
        "size_bytes": len(data), "caption": None, "inspection_id": None,
        "component_id": None})


def photo_member_name_with_newline(pair: Pair, p: Contents) -> None:
    data = b"\xff\xd8 a photo" * 10
    digest = hashlib.sha256(data).hexdigest()
    p.attachments[digest + "\n"] = data
    insert(p.changes[0], "attachments", pair.office.parcel_id(pair.sbls[0]), {
        "sha256": digest, "filename": "lid.jpg", "media_type": "image/jpeg",
        "size_bytes": len(data), "caption": None, "inspection_id": None,
        "component_id": None})


def speak_for_another_laptop(pair: Pair, p: Contents) -> None:
    other = second_laptop(pair)
    p.changes[0].update(device_id=other["id"], device_seq=1)


def bedrooms_as_text(pair: Pair, p: Contents) -> None:
    dwelling = office_row(pair, "dwellings", "parcel_id = ?",
                          (pair.office.parcel_id(pair.sbls[0]),))
    update(p.changes[0], "dwellings", dwelling, "bedrooms", "lots")


def huge_owner_name(pair: Pair, p: Contents) -> None:
    p.changes[0]["new"] = random_text(1_000_000)


def latitude_infinity(pair: Pair, p: Contents) -> None:
    parcel = office_row(pair, "parcels", "sbl = ?", (pair.sbls[0],))
    update(p.changes[0], "parcels", parcel, "latitude", float("inf"))


def latitude_nan(pair: Pair, p: Contents) -> None:
    parcel = office_row(pair, "parcels", "sbl = ?", (pair.sbls[0],))
    update(p.changes[0], "parcels", parcel, "latitude", float("nan"))


def inspection_in_the_future(pair: Pair, p: Contents) -> None:
    insert(p.changes[0], "inspections", pair.office.parcel_id(pair.sbls[0]), {
        "date": "2031-05-01", "inspector": "A. Inspector", "reason": "five_year",
        "failure_evidence": "[]"})


def ten_years_ahead(pair: Pair, p: Contents) -> None:
    p.changes[0]["at"] = "2036-11-25T10:00:00.000+00:00"


def ten_years_back(pair: Pair, p: Contents) -> None:
    p.changes[0]["at"] = "2016-11-25T10:00:00.000+00:00"


def impossible_time(pair: Pair, p: Contents) -> None:
    p.changes[0]["at"] = "2026-13-45T25:61:61+00:00"


# (mutation, what the refusal says)
ATTACKS = [
    (edit_unassigned_parcel, "not assigned to this laptop"),
    (edit_other_laptops_parcel, "not assigned to this laptop"),
    (delete_unassigned_parcel, "removes a parcel; only the office changes the parcels roll"),
    (claim_foreign_record_for_own_parcel, "but it belongs to"),
    (change_assigned_parcels_tax_map_number, "changes the parcel's sbl; only the office"),
    (zero_shoreline_accuracy, "changes shoreline_layers, which only the office changes"),
    (stamp_issued_letter_printed, "changes letters, which only the office changes"),
    (insert_issued_letter, "changes letters, which only the office changes"),
    (insert_letter_with_malformed_recipient, "changes letters, which only the office"),
    (insert_letter_service, "changes letter_service, which only the office changes"),
    (change_letter_service_date, "changes letter_service, which only the office changes"),
    (delete_letter_service, "changes letter_service, which only the office changes"),
    (insert_attestation, "changes attestations, which only the office changes"),
    (insert_inspection_request, "changes inspection_requests, which only the office changes"),
    (runaway_sequence_number, "sequence number 1000000000000, .* no higher than"),
    (sequence_number_past_the_bound, "sequence number 2147483653"),
    (acknowledge_more_than_sent, "acknowledges changes through 1000000000, but the office"),
    # aimed at the data folder's SQLite file, which a desk of an office database has not
    pytest.param(photo_path_up_and_out, "64 lower-case hexadecimal digits",
                 marks=pytest.mark.sqlite_only),
    pytest.param(photo_padded_absolute_path, "64 lower-case hexadecimal digits",
                 marks=pytest.mark.sqlite_only),
    (photo_upper_case_digest, "64 lower-case hexadecimal digits"),
    (photo_member_name_with_newline, "which is not a member of a sync package"),
    (speak_for_another_laptop, "claims to come from the device .* signed by"),
    (bedrooms_as_text, "Bedrooms must be a whole number"),
    (huge_owner_name, "1,000,000 characters long; at most 5,000 allowed"),
    (latitude_infinity, "not a finite number"),
    (latitude_nan, "not a finite number"),
    (inspection_in_the_future, r"is 2031-05-01, which is after today .*in the future"),
    (ten_years_ahead, r"its time \(at\) is 2036-11-25.*after now"),
    (ten_years_back, r"its time \(at\) is 2016-11-25.*before this laptop was enrolled"),
    (impossible_time, "not a real date and time"),
]


@pytest.mark.parametrize(("mutate", "words"), ATTACKS, ids=[
    (a.values if hasattr(a, "values") else a)[0].__name__ for a in ATTACKS])
def test_a_package_beyond_the_laptops_say_is_refused_whole(
        pair: Pair, mutate: Mutation, words: str) -> None:
    pair.edit(pair.field, pair.sbls[0], lambda d: d["parcel"].__setitem__("owner_name", "Ok"))
    pair.edit(pair.field, pair.sbls[1], lambda d: d["parcel"].__setitem__("owner_name", "Ok"))
    path = hostile(pair, mutate)
    change_id = json.loads(zipfile.ZipFile(path).read("changes.jsonl").splitlines()[0])[
        "change_id"]
    before = state(pair.office)
    files = sorted(pair.office.folder.attachments.rglob("*"))
    started = time.monotonic()
    with pytest.raises(PackageError, match=words) as refused:
        sync.import_package(pair.office, path)
    assert time.monotonic() - started < 10
    text = str(refused.value)
    assert "the package was refused and nothing was changed" in text
    if "acknowledges" not in words and "member" not in words:
        assert change_id in text  # the message names the change
    assert state(pair.office) == before
    assert sorted(pair.office.folder.attachments.rglob("*")) == files
    assert sync.status(pair.office)["devices"][0]["received_through"] == 0
    # the genuine package still goes in afterwards: the refusal used up nothing
    assert pair.up()["applied"] == 2


def test_a_package_that_breaks_nothing_goes_in(pair: Pair) -> None:
    """The builder itself makes packages the office takes, when nothing is changed."""
    pair.edit(pair.field, pair.sbls[0], lambda d: d["parcel"].__setitem__("owner_name", "Ok"))
    path = hostile(pair, lambda pair, p: None)
    assert sync.import_package(pair.office, path)["applied"] == 1
    assert pair.office.load_case(pair.sbls[0]).parcel.owner_name == "Ok"


def test_a_resent_number_must_be_the_same_change(pair: Pair) -> None:
    """A laptop's number that the office already holds cannot carry another change."""
    pair.edit(pair.field, pair.sbls[0], lambda d: d["parcel"].__setitem__("owner_name", "A"))
    pair.up()
    pair.edit(pair.field, pair.sbls[1], lambda d: d["parcel"].__setitem__("owner_name", "B"))

    def reuse(pair: Pair, p: Contents) -> None:
        p.changes[:] = [p.changes[1]]  # the new change, under the number already received
        p.changes[0]["device_seq"] = 1

    path = hostile(pair, reuse)
    before = state(pair.office)
    with pytest.raises(PackageError, match="sequence number 1, which this laptop already used"):
        sync.import_package(pair.office, path)
    assert state(pair.office) == before


def test_the_office_cannot_acknowledge_more_than_the_laptop_made(pair: Pair) -> None:
    """An acknowledgement "through 10^9" would silence the laptop: it would send nothing."""
    pair.edit(pair.field, pair.sbls[0], lambda d: d["parcel"].__setitem__("owner_name", "A"))
    pair.up()

    def overstate(pair: Pair, p: Contents) -> None:
        (mine,) = [a for a in p.manifest["acknowledges"]
                   if a["device_id"] == pair.field.store.device_id]
        mine["through_seq"] = 10**9

    path = hostile(pair, overstate, from_office=True)
    before = state(pair.field)
    with pytest.raises(PackageError, match="through 1000000000, but this laptop has made "
                                           "only 1"):
        sync.import_package(pair.field, path)
    assert state(pair.field) == before
    assert sync.status(pair.field)["waiting_to_send"] == 1
    pair.down()
    assert sync.status(pair.field)["waiting_to_send"] == 0
