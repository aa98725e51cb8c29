"""The attestation of a report of findings (Chapter 202, Article III: a report "attested to
by a design professional or an on-site training network certified inspector").

An attestation names the inspection it attests, the person (name, kind, certification or
licence number), the day, and the signature: an image drawn in the app or a scan, kept in
the data folder by its SHA-256 as photos are. It attests the records as they stand when it
is recorded: once they change (anything but letters and attestations), the report needs a
new attestation. A report of findings is issued only with an attestation in force, and the
register keeps the attestation and the signature's SHA-256 with the letter.

Who may attest is not kept on a list here: Chapter 202 qualifies a person by a credential
(the training network's certification, the State's licence) that the office checks against
the issuer's list, not the app. The attestation records the number as the person gives it,
prints it on the report for anyone to check, and the change log keeps who recorded it. A
certified inspector attesting an inspection recorded as their own must give the
certification number recorded with it.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...documents.content import AttestationBlock
from ...domain.case import Case
from ...domain.records import ATTESTER_KINDS
from ...errors import InputError
from ...storage import attestations as attestation_rows
from ...storage.cases import case_version

if TYPE_CHECKING:
    from ..session.session import Session

ATTESTER_WORDS = {"design_professional": "Design professional",
                  "certified_inspector": "On-site training network certified inspector"}
NUMBER_WORDS = {"design_professional": "licence no.",
                "certified_inspector": "certification no."}


def read_signature_file(path: Path) -> bytes:
    """A signature file's bytes, or one sentence saying why it cannot be read."""
    from ...documents.signature import MAX_SIGNATURE_BYTES

    try:
        if path.is_dir():
            raise InputError(f"{path}: is a folder, not a signature image file.")
        with path.open("rb") as handle:
            data = handle.read(MAX_SIGNATURE_BYTES + 1)
    except FileNotFoundError:
        raise InputError(f"{path}: no such file.") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a folder, not a signature image file.") from None
    except PermissionError:
        raise InputError(f"{path}: cannot be read (permission denied).") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot be read ({exc.strerror or exc}).") from None
    return data


@dataclass(frozen=True)
class Attester:
    name: str
    kind: str
    number: str


def _bare(number: str) -> str:
    """A certification number as compared: letters and digits, without a leading "OTN"."""
    return re.sub(r"[^0-9a-z]", "", number.casefold()).removeprefix("otn")


def enrolled_attester(ws: Session, sbl: str) -> Attester | None:
    """The certified inspector whose laptop recorded the parcel's inspection on record, as
    enrolled at the office (name and certification number), or None."""
    return _enrolled(ws, ws.load_case(sbl))


def _enrolled(ws: Session, case: Case) -> Attester | None:
    insp = case.inspection
    if insp is None or insp.id is None:
        return None
    row = attestation_rows.enrolled_inspector(ws.store.conn, insp.id)
    if row is None:
        return None
    return Attester(row["inspector_name"], "certified_inspector",
                    row["inspector_certification"])


def _as_enrolled(who: Attester, enrolled: Attester | None) -> Attester:
    """The attesting person: for an inspection recorded on a certified inspector's laptop,
    that inspector as enrolled (a name or number given must be theirs); otherwise the
    person as given, all three of name, kind and number."""
    if enrolled is not None and who.kind in ("", "certified_inspector"):
        name = " ".join(who.name.split())
        if name and name.casefold() != " ".join(enrolled.name.split()).casefold():
            raise InputError(f"The inspection was recorded on the laptop enrolled for the "
                             f"certified inspector {enrolled.name} (certification "
                             f"{enrolled.number}); its report of findings is attested as a "
                             f"certified inspector by {enrolled.name} only, not {name}.")
        if who.number.strip() and _bare(who.number) != _bare(enrolled.number):
            raise InputError(f"{enrolled.name} was enrolled with certification "
                             f"{enrolled.number!r}, not {who.number.strip()!r}; the attestation "
                             "states the number as enrolled.")
        return enrolled
    if not who.kind.strip():
        raise InputError("The attesting person's kind is not given (a design professional or "
                         "a certified inspector); only for an inspection recorded on a "
                         "certified inspector's laptop are the name, kind and number taken "
                         "from its enrolment.")
    return who


def _check_attester(who: Attester, case: Case) -> Attester:
    if who.kind not in ATTESTER_KINDS:
        raise InputError(f"{who.kind!r} is not a kind of attesting person; the kinds are "
                         f"{', '.join(ATTESTER_KINDS)} (Chapter 202, Article III).")
    name, number = " ".join(who.name.split()), who.number.strip()
    if not name:
        raise InputError("The attesting person's name is blank; give the name as it is "
                         "signed.")
    if not number:
        raise InputError(f"{name}'s {NUMBER_WORDS[who.kind].removesuffix(' no.')} number is "
                         "blank; an attestation states it.")
    insp = case.inspection
    if (who.kind == "certified_inspector" and insp is not None and insp.inspector_certification
            and " ".join(insp.inspector.split()).casefold() == name.casefold()
            and _bare(insp.inspector_certification) != _bare(number)):
        raise InputError(f"{name} is recorded as the inspector with certification "
                         f"{insp.inspector_certification!r}, not {number!r}; correct the "
                         "number (or the inspection's record) before attesting.")
    return Attester(name, who.kind, number)


def attest(ws: Session, sbl: str, who: Attester, signature: bytes, *, filename: str,
           source: str, on: date | None = None) -> dict[str, Any]:
    """Record the attestation of the parcel's inspection on record; refused with one
    sentence, nothing changed, when the inspection, the person or the signature is wanting.
    """
    from ...documents.signature import check_signature

    if source not in ("drawn", "scanned"):
        raise InputError(f"{source!r} is not how a signature is captured (drawn or scanned).")
    image = check_signature(signature, filename)
    parcel_id = ws.parcel_id(sbl)
    case = ws.load_case(sbl)
    insp = case.inspection
    if insp is None or insp.id is None:
        raise InputError(f"Parcel {sbl}: no inspection is recorded, so there is no report of "
                         "findings to attest.")
    who = _check_attester(_as_enrolled(who, _enrolled(ws, case)), case)
    day = on or ws.today()
    if day > ws.today():
        raise InputError(f"The attestation date {day.isoformat()} is after today; an "
                         "attestation is dated the day it is signed.")
    if day < insp.date:
        raise InputError(f"The attestation date {day.isoformat()} is before the inspection "
                         f"it attests ({insp.date.isoformat()}).")
    digest = hashlib.sha256(signature).hexdigest()
    with ws.store.transaction() as w:
        ws.keep_file(digest, signature, w)
        version = case_version(w.conn, parcel_id)
        attestation_id = w.insert("attestations", {
            "inspection_id": insp.id, "attester_name": who.name, "attester_kind": who.kind,
            "attester_number": who.number, "attested_on": day.isoformat(),
            "signature_sha256": digest, "signature_source": source,
            "signature_filename": Path(filename).name, "signature_media_type": image.media_type,
            "case_version": version}, parcel_id=parcel_id)
    return {"id": attestation_id, "sbl": sbl, "inspection_date": insp.date.isoformat(),
            "name": who.name, "kind": who.kind, "number": who.number,
            "attested_on": day.isoformat(), "signature_sha256": digest,
            "signature_source": source, "signature_file": Path(filename).name,
            "signature_px": [image.width_px, image.height_px]}


def attestations(ws: Session, sbl: str) -> list[dict[str, Any]]:
    """The parcel's attestations, oldest first, each saying whether it is in force (its
    inspection is the one on record and the records did not change since)."""
    parcel_id = ws.parcel_id(sbl)
    case = ws.load_case(sbl)
    current = case.inspection.id if case.inspection else None
    out = []
    for r in attestation_rows.of_parcel(ws.store.conn, parcel_id, ws.store.device_id):
        out.append({
            "id": r["id"], "name": r["attester_name"], "kind": r["attester_kind"],
            "number": r["attester_number"], "attested_on": r["attested_on"],
            "signature_sha256": r["signature_sha256"], "signature_source":
            r["signature_source"], "signature_file": r["signature_filename"],
            "recorded_by": r["recorded_by"], "recorded_at": r["created_at"],
            "recorded_here": bool(r["recorded_here"]),
            "in_force": r["inspection_id"] == current and not r["records_changed"]})
    # only the latest of those in force counts
    latest = [a for a in out if a["in_force"]][-1:]
    for a in out:
        a["in_force"] = a in latest
    return out


def missing_attestation(ws: Session, parcel_id: str, case: Case, day: date) -> str | None:
    """Why the parcel's report of findings dated `day` cannot be issued for want of an
    attestation, in words, or None when an attestation is in force."""
    insp = case.inspection
    if insp is None or insp.id is None:
        return "no inspection is recorded"
    found = attestation_rows.in_force(ws.store.conn, parcel_id, insp.id, ws.store.device_id)
    if found is not None and found["attested_on"] > day.isoformat():
        return (f"its attestation by {found['attester_name']} is dated "
                f"{found['attested_on']}, after the report's date {day.isoformat()}")
    if found is not None:
        return None
    stale = attestation_rows.latest_of(ws.store.conn, parcel_id, insp.id)
    inspected = f"{insp.date:%B} {insp.date.day}, {insp.date.year}"
    if stale is not None and stale["device_id"] != ws.store.device_id:
        return (f"{stale['attester_name']}'s attestation of the inspection of {inspected} (on "
                f"{stale['attested_on']}) was recorded at the office, which issues the report")
    if stale is not None:
        return (f"the records changed after {stale['attester_name']} attested the inspection "
                f"of {inspected} (on {stale['attested_on']}), so it must be attested again")
    return (f"the inspection of {inspected} is not attested by a design professional or a "
            "certified inspector")


def attestation_block(ws: Session, parcel_id: str, case: Case) -> AttestationBlock | None:
    """What the report prints of the attestation in force (None: none is). The signature's
    bytes are checked against the SHA-256 recorded when it was attested."""
    insp = case.inspection
    if insp is None or insp.id is None:
        return None
    row = attestation_rows.in_force(ws.store.conn, parcel_id, insp.id, ws.store.device_id)
    if row is None:
        return None
    path = ws.attachment_path(row["signature_sha256"])
    try:
        intact = hashlib.sha256(path.read_bytes()).hexdigest() == row["signature_sha256"]
    except OSError:
        intact = False
    if not intact:
        raise InputError(f"The signature of {row['attester_name']}'s attestation "
                         f"({row['signature_filename']}) is missing from the data folder or "
                         "no longer matches its recorded SHA-256; attest again.")
    return AttestationBlock(
        id=row["id"], name=row["attester_name"], kind=ATTESTER_WORDS[row["attester_kind"]],
        number=f"{NUMBER_WORDS[row['attester_kind']]} {row['attester_number']}",
        attested_on=date.fromisoformat(row["attested_on"]), inspection_date=insp.date,
        signature=path, signature_sha256=row["signature_sha256"])
