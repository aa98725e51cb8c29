"""Enrolling a laptop at the office: its key pair and its field kit, encrypted with a passphrase."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...domain.certified import certified_person
from ...domain.sbl import closest
from ...errors import InputError, NotFoundError
from ...paths import resource
from ...storage import devices, received, sync_log
from ...storage import parcels as parcels_table
from ...storage.records import new_id
from ...sync import keys
from ...sync.package import (
    FORMAT,
    package_bytes,
    write_private,
)
from ..reference import basemaps
from ..reference import lot_kits as lots
from ..reference.providers import provider_problem
from ..session.laws import DATA_FOLDER_JURISDICTION, DEFAULT_JURISDICTION, kit_laws
from ..session.session import FIELD, NAME_MAX, OFFICE, Session, working_name
from . import assignment
from .devices import device_row, now_text, office_private_key


def _enrolment_parcels(ws: Session, parcels: list[str] | None,
                       worklist: str | None) -> list[str]:
    from ..lists.worklists import WORKLISTS, worklists

    if not parcels and not worklist:
        raise InputError("sync enroll: name the laptop's parcels with --parcels SBL,SBL or a "
                         f"work list with --worklist ({', '.join(WORKLISTS)}); a field kit "
                         "carries only the parcels assigned to that laptop.",
                         in_app="Name the laptop's parcels (tax map numbers separated by "
                                "commas); a field kit carries only the parcels assigned to "
                                "that laptop.")
    # each as stored, so that the laptop's list names each parcel once, in one spelling
    sbls = list(dict.fromkeys(_stored(ws, s) for s in parcels or []))
    if worklist:
        if worklist not in WORKLISTS:
            raise InputError(f"sync enroll: --worklist {worklist!r} is not a work list; use "
                             f"one of {', '.join(WORKLISTS)}.")
        listed = worklists(ws, as_of=ws.today(), names=(worklist,))[worklist]
        if not listed:
            raise InputError(f"sync enroll: the work list {worklist} has no parcels today; "
                             "name parcels with --parcels SBL,SBL.")
        sbls += [p["sbl"] for p in listed if p["sbl"] not in sbls]
    return sbls


def _stored(ws: Session, sbl: str) -> str:
    """The parcel's SBL as stored; an unknown one refused with words for the enrolment
    form (its Parcels field), not for the parcel list."""
    try:
        return ws.stored_sbl(sbl)
    except NotFoundError as exc:
        near = closest(sbl, parcels_table.ids_by_sbl(ws.store.conn))
        hint = f" (the closest: {', '.join(near)})" if near else ""
        raise NotFoundError(str(exc), in_app=f"No parcel with SBL {sbl.strip()!r} in this "
                            f"data folder; correct the Parcels field{hint}.") from exc


@dataclass(frozen=True)
class CertifiedInspector:
    """The private certified inspector a laptop is enrolled for: every change made on it is
    recorded as this person (`domain.certified.certified_person`)."""
    name: str
    certification: str


def check_inspector(ws: Session, name: str | None,
                    certification: str | None) -> CertifiedInspector | None:
    """The certified inspector named for a laptop (None: an office laptop), or the one
    sentence that refuses them: name and number go together, and the number is that of a
    provider of kind `inspector` whose certification is valid today, registered under that
    name (`reference.providers.provider_problem`, the one check of a provider's number)."""
    name = " ".join((name or "").split()) or None
    certification = (certification or "").strip() or None
    if name is None and certification is None:
        return None
    if name is None or certification is None:
        given, missing = (("--inspector", "--certification") if certification is None
                          else ("--certification", "--inspector"))
        raise InputError(f"sync enroll: {given} was given without {missing}; a certified "
                         "inspector's laptop names both the inspector and their certification "
                         "number.",
                         in_app="Give both the inspector's name and their certification "
                                "number, or neither (a laptop of the office).")
    who = certified_person(name, certification)
    try:
        working_name(who)
    except InputError:
        raise InputError(f"sync enroll: the inspector {who!r} is longer than {NAME_MAX} "
                         "characters as the records name them; shorten the name (initials "
                         "for given names).") from None
    provider, refusal = provider_problem(ws.store.conn, "inspector", certification,
                                         ws.today())
    if refusal is not None:
        said = refusal if refusal.startswith("the ") else f"the {refusal}"
        raise InputError(f"sync enroll: {said}; no field kit was written.")
    assert provider is not None
    if " ".join(provider["name"].split()).casefold() != name.casefold():
        raise InputError(f"sync enroll: the providers register holds certification "
                         f"{provider['number']} for {provider['name']}, not {name}; give "
                         "the inspector's name as registered. No field kit was written.")
    return CertifiedInspector(provider["name"], provider["number"])


def check_enrolment(ws: Session, name: str, parcels: list[str] | None, *, passphrase: str,
                    worklist: str | None = None, inspector: str | None = None,
                    certification: str | None = None) -> list[str]:
    """What `enroll` refuses before it writes anything, checked before the kit's file is
    chosen: the laptop's SBLs as stored, or the one sentence that refuses them (the
    certified inspector it is for, if any, included)."""
    check_inspector(ws, inspector, certification)
    if ws.role == FIELD:
        raise InputError("This data folder is a field laptop; only the office enrols devices.")
    name = name.strip()
    if not name:
        raise InputError("sync enroll: --device is empty; name the laptop.",
                         in_app="Name the laptop (e.g. laptop-olmsted).")
    keys.check_passphrase(passphrase)
    if devices.laptop_named(ws.store.conn, name) is not None:
        raise InputError(f"A laptop named {name!r} is already enrolled; choose another name.")
    return _enrolment_parcels(ws, parcels, worklist)


def enroll(ws: Session, name: str, out: Path, parcels: list[str] | None, *,
           passphrase: str, worklist: str | None = None, inspector: str | None = None,
           certification: str | None = None) -> dict[str, Any]:
    """Enrol a laptop: a new key pair for it, and its field kit (its private key, the
    office's public key, its parcels, and the certified inspector it is for, if any)
    encrypted with `passphrase`. The kit is written before the laptop is recorded, so an
    interrupted enrolment leaves the name free."""
    sbls = check_enrolment(ws, name, parcels, passphrase=passphrase, worklist=worklist,
                           inspector=inspector, certification=certification)
    certified = check_inspector(ws, inspector, certification)
    name = name.strip()
    parcel_ids = [ws.parcel_id(s) for s in sbls]
    office_private = office_private_key(ws)
    office_public = keys.public_key(office_private)
    this = device_row(ws, "this")
    assert this is not None
    device_private = keys.new_private_key()
    device_id = new_id()
    _write_kit(ws, out, passphrase, office_private,
               device={"id": device_id, "name": name, "private_key": device_private},
               office={"id": this["id"], "name": this["name"], "public_key": office_public},
               parcel_ids=parcel_ids, sbls=sbls, inspector=certified)
    person = None if certified is None else (certified.name, certified.certification)
    try:
        with ws.store.transaction() as w:
            devices.enrol_laptop(w.conn, device_id=device_id, name=name, at=now_text(),
                                 public_key=keys.public_key(device_private), parcels=sbls,
                                 inspector=person)
            ws.store.set_meta("sync_role", OFFICE)
    except BaseException:
        out.unlink(missing_ok=True)
        raise
    return {"path": str(out), "device": name, "parcels": len(sbls),
            "office_fingerprint": keys.fingerprint(office_public),
            **({} if certified is None else {"inspector": certified.name,
                                             "certification": certified.certification})}


def _jurisdiction_text(ws: Session) -> str:
    own = ws.folder.root / DATA_FOLDER_JURISDICTION
    return (own if own.exists() else resource(*DEFAULT_JURISDICTION)).read_text("utf-8")


def _write_kit(ws: Session, out: Path, passphrase: str, office_private: str, *,
               device: dict[str, str], office: dict[str, str], parcel_ids: list[str],
               sbls: list[str], inspector: CertifiedInspector | None) -> None:
    blobs: dict[str, bytes] = {}
    records = assignment.parcel_records(ws, parcel_ids, blobs, active_layer=True)
    layer_ids = [r["row"]["id"] for r in records if r["table"] == "shoreline_layers"]
    history = sync_log.of_records(ws.store.conn, parcel_ids, layer_ids)
    seq = received.last_seq_recorded(ws.store.conn)
    kit = {"device": device, "office": office, "parcels": sbls,
           "jurisdiction_toml": _jurisdiction_text(ws), "jurisdictions": kit_laws(ws.laws),
           "office_seq": seq}
    if inspector is not None:
        kit["inspector"] = {"name": inspector.name, "certification": inspector.certification}
    # the active basemap, clipped to the parcels' surroundings (none when none is active)
    imagery = basemaps.kit_imagery(ws, parcel_ids)
    if imagery is not None:
        kit["basemap"] = imagery[0]
    members = {
        "kit.json": json.dumps(kit, indent=2).encode(),
        "records.jsonl": "\n".join(json.dumps(r, ensure_ascii=False) for r in records).encode(),
        "history.jsonl": "\n".join(json.dumps(h, ensure_ascii=False) for h in history).encode(),
        **{f"attachments/{k}": v for k, v in blobs.items()},
        **({imagery[0]["member"]: imagery[1]} if imagery is not None else {}),
    }
    # the active lot layer's lots of the parcels and of their neighbours (none when none
    # is active)
    lot_lines = lots.kit_lot_lines(ws, parcel_ids)
    if lot_lines is not None:
        members["lot_lines.jsonl"] = lot_lines
    manifest: dict[str, Any] = {"format": FORMAT, "kind": "field_kit", "package_id": new_id(),
                "source_device": office["id"], "source_name": office["name"],
                "created_at": now_text(), "first_seq": None, "last_seq": seq,
                "counts": {"changes": 0, "attachments": len(blobs)}, "acknowledges": []}
    write_private(out, keys.seal(package_bytes(manifest, members, office_private), passphrase))
