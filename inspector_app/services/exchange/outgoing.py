"""Writing a sync package of what the other side may not have, and what the office knows of
each laptop's sequence."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ...domain.certified import certified_person
from ...errors import InputError
from ...storage import devices, received, sync_log
from ...storage.records import new_id
from ...storage.sync_apply import (
    BYTES_REF,
    SYNCED_TABLES,
    resolution_bases,
)
from ...sync import keys, policy
from ...sync.package import (
    FORMAT,
    write_package,
)
from ..session.session import FIELD, OFFICE, Session
from . import assignment, proposal_flow
from .conflicts import conflicts
from .devices import (
    SHARED_KEY_REFUSAL,
    device_row,
    field_device,
    key_fields,
    key_status,
    now_text,
    office_private_key,
    parcels_of,
    unrevoked,
)

GAPS_LISTED = 100  # missing sequence numbers (and ranges of them) listed at most


def gap_ranges(ws: Session, device_id: str) -> tuple[int, list[list[int]], int]:
    """The highest n such that changes 1..n from a device are all here; the first
    GAPS_LISTED ranges of numbers missing below the highest one here; and how many numbers
    are missing in all (`storage.sync_log.gaps`)."""
    return sync_log.gaps(ws.store.conn, device_id, GAPS_LISTED)


def listed_gaps(ranges: list[list[int]]) -> list[int]:
    """The first GAPS_LISTED missing numbers of these ranges."""
    numbers: list[int] = []
    for first, last in ranges:
        numbers += range(first, min(last, first + GAPS_LISTED - len(numbers) - 1) + 1)
        if len(numbers) >= GAPS_LISTED:
            break
    return numbers


def _contiguous_through(ws: Session, device_id: str) -> tuple[int, list[int]]:
    """The highest n such that changes 1..n from a device are all here, and the first
    GAPS_LISTED missing numbers (`gap_ranges` has them all, as ranges)."""
    through, ranges, _ = gap_ranges(ws, device_id)
    return through, listed_gaps(ranges)


def _blobs_for(ws: Session, changes: list[dict[str, Any]]) -> dict[str, bytes]:
    """The bytes every change refers to: photos by hash, letters' PDFs."""
    blobs: dict[str, bytes] = {}
    for c in changes:
        values = c["new"] if isinstance(c["new"], dict) else {}
        if c["table"] == "attachments" and c["op"] == "insert":
            path = ws.attachment_path(values["sha256"])
            if not path.exists():
                raise InputError(f"The photo {values['sha256'][:12]}... of change "
                                 f"{c['change_id']} is missing from {ws.folder.attachments}; "
                                 "restore it before exporting.")
            blobs[values["sha256"]] = path.read_bytes()
        refs = [v for v in (values.values() if values else [c["new"]])
                if isinstance(v, dict) and set(v) == {BYTES_REF}]
        for ref in refs:
            pdf = sync_log.letter_pdf(ws.store.conn, c["record_id"])
            if pdf is not None:
                blobs[ref[BYTES_REF]] = pdf
    return blobs


def _laptop_changes(ws: Session, device_id: str, acknowledged: int) -> list[dict[str, Any]]:
    """The laptop's changes the office has not acknowledged, at most `policy.MAX_CHANGES`:
    when there are more, each export carries the next of them after the last one's, and
    once the last are out the next export begins again at what the office acknowledged
    (so a lost package is sent again)."""
    start = max(acknowledged, int(ws.store.get_meta("export_resume_seq") or 0))
    rows = sync_log.made_by(ws.store.conn, device_id, start, policy.MAX_CHANGES + 1)
    full = len(rows) > policy.MAX_CHANGES
    rows = rows[:policy.MAX_CHANGES]
    resume = str(rows[-1]["device_seq"]) if full else "0"
    if resume != (ws.store.get_meta("export_resume_seq") or "0"):
        with ws.store.transaction():
            ws.store.set_meta("export_resume_seq", resume)
    return rows


def export(ws: Session, out: Path, *, device: str | None = None) -> dict[str, Any]:
    this = device_row(ws, "this")
    assert this is not None
    acks: list[dict[str, Any]] = []
    addressed_to: tuple[dict[str, Any], set[str]] | None = None
    if ws.role == FIELD:
        office = device_row(ws, OFFICE)
        assert office is not None
        if not this["private_key"] or not office["public_key"]:
            raise InputError(f"This laptop {SHARED_KEY_REFUSAL}.")
        rows = _laptop_changes(ws, this["id"], int(office["acknowledged_seq"]))
        acks = [{"device_id": office["id"],
                 "through_seq": int(ws.store.get_meta("office_seq_received") or 0)}]
    else:
        fields = devices.laptops(ws.store.conn, revoked=False)
        targets = ([unrevoked(field_device(ws, device))] if device else fields)
        if ws.role == OFFICE and len(targets) != 1:
            _refuse_unaddressed(targets)
        since = min((t["acknowledged_seq"] for t in targets), default=0)
        # A laptop holds only its kit's lot layer: lot-line measurements travel from the
        # laptops to the office, never back (a laptop measures its own).
        rows = [r for r in sync_log.since(ws.store.conn, since)
                if r["table_name"] in SYNCED_TABLES
                and r["table_name"] != "lot_measurements"]
        if len(targets) == 1:
            target = targets[0]
            ids = parcels_of(ws, target)
            rows = [r for r in rows if r["device_id"] != target["id"]
                    and (r["parcel_id"] is None or r["parcel_id"] in ids)]
            if ws.role == OFFICE:
                addressed_to = (target, ids)
        for t in targets:
            through, _ = _contiguous_through(ws, t["id"])
            acks.append({"device_id": t["id"], "through_seq": through})
    changes = [sync_log.change_line(r) for r in rows]
    # A resolution goes out against the value the other side sent, so that side takes it
    # as the decision on its change; the change log here keeps the value it replaced.
    bases = resolution_bases(ws.store.conn, [c["change_id"] for c in changes
                                             if c["op"] == "update"])
    for c in changes:
        if c["change_id"] in bases:
            c["old"] = bases[c["change_id"]]
    blobs = _blobs_for(ws, changes)
    # An office package is for one laptop: its assignment now, and the whole records of
    # parcels newly assigned to it; a laptop's says which assignment it holds.
    addressed: dict[str, Any] = {}
    records: dict[str, bytes] = {}
    if addressed_to is not None:
        addressed, records = assignment.office_package(ws, *addressed_to, blobs)
        decided = proposal_flow.decisions_for(ws, addressed_to[0]["id"])
        if decided:
            addressed["proposals"] = decided
    elif ws.role == FIELD:
        addressed = {"assignment_revision": assignment.laptop_revision(ws)}
    seq_through = received.last_seq_recorded(ws.store.conn)
    seqs = [c["device_seq"] if ws.role == FIELD else c["source_seq"] for c in changes]
    manifest = {"format": FORMAT, "kind": "changes", "package_id": new_id(),
                "source_device": this["id"], "source_name": this["name"],
                "created_at": now_text(), "first_seq": min(seqs) if seqs else None,
                "last_seq": max(seqs) if seqs else None, "source_seq_through": seq_through,
                "counts": {"changes": len(changes), "attachments": len(blobs)},
                "acknowledges": acks, **addressed}
    members = {"changes.jsonl": "\n".join(json.dumps(c, ensure_ascii=False)
                                          for c in changes).encode(),
               **{f"attachments/{k}": v for k, v in blobs.items()}, **records}
    signing_key = (this["private_key"] if ws.role == FIELD
                   else office_private_key(ws) if ws.role == OFFICE else None)
    if signing_key is not None:
        manifest.update(key_fields(ws, this["id"], signing_key))
    write_package(out, manifest, members, signing_key)
    return {"path": str(out), "changes": len(changes)}


def _refuse_unaddressed(targets: list[dict[str, Any]]) -> None:
    """An office package is addressed to one laptop: refuse to guess which."""
    if not targets:
        raise InputError("sync export: no laptop is enrolled here (or every one was revoked); "
                         "an office package is for one laptop. Enrol one with `inspector-app "
                         "sync enroll`.",
                         in_app="No laptop is enrolled here (or every one was revoked); an "
                                "office package is for one laptop. Enrol one with Sync > "
                                "Enrol a laptop (field kit)...")
    names = ", ".join(sorted(t["name"] for t in targets))
    raise InputError(f"sync export: {len(targets)} laptops are enrolled here ({names}); an "
                     "office package carries one laptop's parcels only. Name the laptop with "
                     "--device NAME.",
                     in_app=f"{len(targets)} laptops are enrolled here ({names}); an office "
                            "package carries one laptop's parcels only. Choose the laptop to "
                            "write it for.")


def _inspector(device: dict[str, Any]) -> dict[str, Any]:
    """What `sync status` says of the certified inspector a laptop is enrolled for."""
    if device["inspector_name"] is None:
        return {}
    return {"inspector": device["inspector_name"],
            "certification": device["inspector_certification"],
            "recorded_as": certified_person(device["inspector_name"],
                                            device["inspector_certification"])}


def status(ws: Session) -> dict[str, Any]:
    this = device_row(ws, "this")
    assert this is not None
    out: dict[str, Any] = {"role": ws.role, "device": this["name"], "device_id": this["id"],
                           "key_fingerprint": (keys.fingerprint(this["public_key"])
                                               if this["public_key"] else None)}
    if ws.role == FIELD:
        office = device_row(ws, OFFICE)
        assert office is not None
        mine = received.last_seq_made(ws.store.conn, this["id"])
        out.update(office=office["name"], changes_made=mine,
                   acknowledged_by_office=office["acknowledged_seq"],
                   waiting_to_send=mine - office["acknowledged_seq"], **_inspector(this))
    else:
        listed = []
        for d in devices.laptops(ws.store.conn):
            through, ranges, missing = gap_ranges(ws, d["id"])
            listed.append({"device": d["name"], "received_through": through,
                            "gaps": listed_gaps(ranges), "gap_ranges": ranges,
                            "missing_changes": missing,
                            "parcels": len(json.loads(d["parcels"])),
                            "office_changes_acknowledged": d["acknowledged_seq"],
                            **_inspector(d), **key_status(d)})
        out["devices"] = listed
    out["open_conflicts"] = len(conflicts(ws))
    return out


# --- revoking a laptop, rotating a key -------------------------------------------------
