"""What a laptop holds: its parcels, the office packages addressed to it, and clearing
the owners' contact data of parcels it no longer has.

At the office, `assign` adds parcels to an enrolled laptop or takes them away; each change
is a new revision of the laptop's assignment, recorded with who made it and when. Every
office package is addressed to one laptop and carries, signed, that laptop's parcels now
(the assignment and its revision), and the whole records of parcels newly assigned to it
(as a field kit carries them) until the laptop says it holds that revision.

On a laptop, a package addressed to another laptop, or carrying a change or a record of a
parcel outside the assignment it states, is refused whole. The laptop keeps the newest
assignment it has seen; once a parcel is no longer assigned and the office has
acknowledged every change the laptop made to it, the laptop clears the owner's and the
renters' telephone numbers and e-mail addresses (and the renters' mailing addresses) in its
own copy, its copy of their history included. That clearing writes no change: nothing of
it travels to the office.

The assignments are kept in `device_assignments` (schema version 9), the clearings in
`contact_clearings` and `cleared_copies`.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Callable, Mapping
from typing import Any

from ...errors import InputError
from ...storage import (
    assignments,
    contacts,
    devices,
    laptop_gate,
    proposals,
    received_records,
    sync_log,
)
from ...storage.laptop_gate import assignment_held
from ...storage.received_records import HISTORY_COLUMNS
from ...storage.sync_apply import BYTES_REF, SYNCED_TABLES
from ...sync import policy
from ...sync.package import Package, PackageError
from ..session.session import FIELD, OFFICE, Session
from .devices import field_device, now_text

# History columns a package may carry for a newly assigned parcel (its `seq` is local).
_HISTORY_COLUMNS = HISTORY_COLUMNS


# --- at the office -----------------------------------------------------------------------

def office_state(ws: Session, device_id: str) -> dict[str, Any]:
    """A laptop's assignment history at the office: `revision` (0 at enrolment), the
    parcels taken from it (`released`), those added and not yet confirmed held
    (`pending`: parcel id -> revision), the revision the laptop last said it holds, and
    every change (`events`: revision, at, user, added, removed)."""
    laptop_revision = assignments.revision_held(ws.store.conn, device_id)
    events = assignments.events(ws.store.conn, device_id)
    last: dict[str, tuple[int, bool]] = {}  # parcel id -> its latest revision, added?
    for e in events:
        last.update({p: (e["revision"], True) for p in e["added"]})
        last.update({p: (e["revision"], False) for p in e["removed"]})
    return {"revision": events[-1]["revision"] if events else 0,
            "released": sorted(p for p, (_, added) in last.items() if not added),
            "pending": {p: r for p, (r, added) in last.items()
                        if added and r > laptop_revision},
            "laptop_revision": laptop_revision, "events": events}


def _named(ws: Session, parcels: list[str] | None, worklist: str | None) -> list[str]:
    from ..lists.worklists import WORKLISTS, worklists

    if not parcels and not worklist:
        raise InputError("sync assign: name the parcels with --parcels SBL,SBL or a work list "
                         f"with --worklist ({', '.join(WORKLISTS)}).")
    # each as stored (an unknown tax map number is refused, with where to look), so that
    # one typed in another spelling is found among the laptop's
    sbls = list(dict.fromkeys(ws.stored_sbl(s) for s in parcels or [] if s.strip()))
    if worklist:
        if worklist not in WORKLISTS:
            raise InputError(f"sync assign: --worklist {worklist!r} is not a work list; use "
                             f"one of {', '.join(WORKLISTS)}.")
        listed = worklists(ws, as_of=ws.today(), names=(worklist,))[worklist]
        sbls += [p["sbl"] for p in listed if p["sbl"] not in sbls]
    return sbls


def assign(ws: Session, device: str, parcels: list[str] | None = None, *,
           worklist: str | None = None, remove: bool = False) -> dict[str, Any]:
    """Add parcels to an enrolled laptop (or, with `remove`, take them from it). The next
    office package to that laptop tells it, and carries the whole records of the parcels
    added; the office keeps the laptop's later changes to a parcel taken from it as
    conflicts for a person (docs/sync.md)."""
    if ws.role != OFFICE:
        raise InputError("sync assign: only the office assigns parcels, and this data folder "
                         "has enrolled no laptop.")
    target = field_device(ws, device.strip())
    if target.get("revoked_at"):
        raise InputError(f"sync assign: the laptop {target['name']!r} was revoked; its "
                         "parcels can be assigned to another laptop.")
    named = _named(ws, parcels, worklist)
    current = list(json.loads(target["parcels"]))
    if remove:
        changed = [s for s in named if s in current]
        after = [s for s in current if s not in changed]
    else:
        changed = [s for s in named if s not in current]
        after = current + changed
    result: dict[str, Any] = {"device": target["name"], "parcels": len(after),
                              "added": [] if remove else changed,
                              "removed": changed if remove else []}
    if not changed:
        return result
    revision = int(office_state(ws, target["id"])["revision"]) + 1
    ids = [ws.parcel_id(s) for s in changed]
    with ws.store.transaction() as w:
        assignments.add_revision(w.conn, device_id=target["id"], revision=revision, at=w.now,
                                 user=w.actor.user, device_name=target["name"],
                                 added=[] if remove else ids, removed=ids if remove else [])
        devices.set_parcels(w.conn, target["id"], after)
    return {**result, "revision": revision}


def held_from(ws: Session, device_id: str, current: set[str]) -> frozenset[str]:
    """Parcels taken from a laptop (and not given back): its changes to them are received,
    but kept for a person."""
    return frozenset(set(office_state(ws, device_id)["released"]) - current)


def note_laptop_revision(ws: Session, device_id: str, revision: int) -> None:
    """The laptop says it holds this revision of its assignment (inside the import's
    transaction): the parcels added up to it no longer need their records sent."""
    state = office_state(ws, device_id)
    if revision <= int(state["laptop_revision"]) or revision > int(state["revision"]):
        return
    devices.note_assignment_held(ws.store.conn, device_id, revision)


def encode_row(row: Mapping[str, Any], blobs: dict[str, bytes]) -> dict[str, Any]:
    """A row as a package carries it: bytes (a letter's PDF) stand as a reference to a
    member named by their SHA-256, which joins `blobs`."""
    out = {}
    for k, v in row.items():
        if isinstance(v, bytes):
            digest = hashlib.sha256(v).hexdigest()
            blobs[digest] = v
            v = {BYTES_REF: digest}
        out[k] = v
    return out


def parcel_records(ws: Session, parcel_ids: list[str], blobs: dict[str, bytes], *,
                   active_layer: bool = False) -> list[dict[str, Any]]:
    """The rows of the synced tables for these parcels and the shoreline layers their
    measurements were taken on (and the active layer, for a field kit), with their photos'
    bytes added to `blobs`: what a field kit or an office package carries of them."""
    records: list[dict[str, Any]] = []
    for table in sorted(SYNCED_TABLES - {"lot_measurements"}):  # measured on the laptop
        rows = assignments.records_of(ws.store.conn, table, parcel_ids,
                                      active_layer=active_layer)
        records += [{"table": table, "row": encode_row(r, blobs)} for r in rows]
        if table == "attachments":
            for r in rows:
                path = ws.attachment_path(r["sha256"])
                if not path.exists():
                    raise InputError(f"The photo {r['sha256'][:12]}... of parcel record "
                                     f"{r['parcel_id']} is missing from "
                                     f"{ws.folder.attachments}; restore it before exporting.")
                blobs[r["sha256"]] = path.read_bytes()
    return records


def _records_of(ws: Session, parcel_ids: list[str],
                blobs: dict[str, bytes]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The records of newly assigned parcels and their history."""
    records = parcel_records(ws, parcel_ids, blobs)
    history = sync_log.of_records(ws.store.conn, parcel_ids)
    return records, [{k: h[k] for k in _HISTORY_COLUMNS} for h in history]


def office_package(ws: Session, target: Mapping[str, Any], parcel_ids: set[str],
                   blobs: dict[str, bytes]) -> tuple[dict[str, Any], dict[str, bytes]]:
    """What an office package to one laptop adds to its manifest (the laptop it is for,
    its assignment now) and to its members (the records of parcels newly assigned, whose
    files join `blobs`)."""
    state = office_state(ws, target["id"])
    fields = {"for_device": target["id"],
              "assignment": {"revision": int(state["revision"]),
                             "parcels": sorted(parcel_ids)}}
    pending = sorted(p for p in state["pending"] if p in parcel_ids)
    if not pending:
        return fields, {}
    records, history = _records_of(ws, pending, blobs)
    return fields, {
        "records.jsonl": "\n".join(json.dumps(r, ensure_ascii=False) for r in records).encode(),
        "history.jsonl": "\n".join(json.dumps(h, ensure_ascii=False) for h in history).encode()}


# --- on a laptop -------------------------------------------------------------------------

def laptop_revision(ws: Session) -> int:
    """The revision of its assignment this laptop holds (0: the one of its kit)."""
    held = assignment_held(ws.store.conn)
    return 0 if held is None else int(held["revision"])


def assigned_here(ws: Session) -> set[str]:
    """The parcels this laptop holds as assigned: the newest assignment the office sent,
    or, before any, every parcel of its kit."""
    return laptop_gate.assigned_here(ws.store.conn)


def cleared_here(ws: Session) -> set[str]:
    """The tax map numbers of the parcels whose contact data this laptop has cleared."""
    return contacts.cleared_sbls(ws.store.conn)


def _lines(package: Package, member: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in package.extra.get(member, b"").splitlines()
            if line.strip()]


def _record_parcel(item: Mapping[str, Any]) -> str | None:
    row = item["row"]
    value = row.get("id") if item["table"] == "parcels" else row.get("parcel_id")
    return value if isinstance(value, str) else None


def check_office_package(ws: Session, package: Package, this: Mapping[str, Any],
                         source: str,
                         attachment_exists: Callable[[str], bool]) -> None:
    """Refuse, before anything is touched, an office package that is not addressed to
    this laptop, or that carries a change or a record of a parcel outside the assignment
    it states."""
    manifest = package.manifest

    def refuse(why: str) -> PackageError:
        return PackageError(f"{source}: {why}; the package was refused and nothing was "
                            "changed.")

    addressed = manifest.get("for_device")
    if addressed is None or "assignment" not in manifest:
        raise refuse(f"it is not addressed to this laptop ({this['name']!r}); ask the office "
                     f"for this laptop's package (`sync export --device {this['name']}`)")
    if addressed != this["id"]:
        raise refuse(f"it is addressed to another laptop (device {addressed}), not to this "
                     f"one ({this['name']!r}); ask the office for this laptop's package "
                     f"(`sync export --device {this['name']}`)")
    parcels = set(manifest["assignment"]["parcels"])
    for c in package.changes:
        if c["parcel_id"] is not None and c["parcel_id"] not in parcels:
            raise refuse(f"change {c['change_id']} ({c['op']} of {c['table']}) is for the "
                         f"parcel {c['parcel_id']}, which is not assigned to this laptop")
    records = _lines(package, "records.jsonl")
    layers = set()
    for n, item in enumerate(records, start=1):
        if not isinstance(item, dict) or set(item) != {"table", "row"} or not isinstance(
                item["row"], dict) or item["table"] not in SYNCED_TABLES:
            raise refuse(f"records.jsonl line {n} is not a record of a synchronised table")
        if item["table"] == "shoreline_layers":
            layers.add(item["row"].get("id"))
        elif _record_parcel(item) not in parcels:
            raise refuse(f"records.jsonl line {n} ({item['table']}) belongs to the parcel "
                         f"{_record_parcel(item)}, which is not assigned to this laptop")
    problem = policy.record_problem(ws.store.conn, records, blobs=package.attachments,
                                    attachment_exists=attachment_exists)
    if problem is not None:
        raise refuse(problem)
    for n, h in enumerate(_lines(package, "history.jsonl"), start=1):
        if not isinstance(h, dict) or set(h) != set(_HISTORY_COLUMNS) or (
                h["parcel_id"] not in parcels and h["record_id"] not in layers):
            raise refuse(f"history.jsonl line {n} is not the history of a parcel assigned to "
                         "this laptop")


def take_office_package(ws: Session, conn: sqlite3.Connection,
                        package: Package) -> frozenset[str]:
    """Inside the import's transaction: keep the package's assignment if it is the newest
    seen, add the records of newly assigned parcels (giving back the contact data of one
    cleared here), and return the parcels whose changes are not for this laptop (the
    package is older than the assignment held)."""
    manifest = package.manifest
    theirs = {"revision": manifest["assignment"]["revision"],
              "seq_through": manifest.get("source_seq_through", 0),
              "parcels": manifest["assignment"]["parcels"]}
    mine = assignment_held(conn)
    if mine is None or (theirs["revision"], theirs["seq_through"]) >= (
            mine["revision"], mine["seq_through"]):
        before = set(assigned_here(ws))
        now = set(theirs["parcels"])
        if mine is None or mine["revision"] != theirs["revision"] or before != now:
            assignments.take(conn, revision=theirs["revision"], at=now_text(),
                             user=ws.store.actor.user, added=sorted(now - before),
                             removed=sorted(before - now), parcels=sorted(now),
                             office_seq=theirs["seq_through"])
        mine = theirs
    assigned = set(mine["parcels"])
    purged = contacts.open_clearings(conn)
    restored: set[str] = set()
    for item in sorted(_lines(package, "records.jsonl"), key=lambda r: r["table"] != "parcels"):
        table, parcel = item["table"], _record_parcel(item)
        if table != "shoreline_layers" and parcel not in assigned:
            continue
        row = {k: package.attachments[v[BYTES_REF]] if isinstance(v, dict) else v
               for k, v in item["row"].items()}
        record_id = str(row["id"])
        if received_records.has(conn, table, record_id):
            if parcel is not None and parcel in purged:
                received_records.give_back_contact(conn, table, record_id, row)
                restored.add(parcel)
            continue
        received_records.take(conn, table, row)
        if parcel is not None and parcel in purged:
            restored.add(parcel)
    received_records.take_history(conn, [
        h for h in _lines(package, "history.jsonl")
        if h["parcel_id"] is None or h["parcel_id"] in assigned])
    for parcel in sorted(restored):
        contacts.note_restored(conn, purged[parcel], at=now_text(), by=ws.store.actor.user)
    outside = {c["parcel_id"] for c in package.changes
               if c["parcel_id"] is not None and c["parcel_id"] not in assigned}
    return frozenset(outside)


def purge(ws: Session, conn: sqlite3.Connection, this_id: str, user: str) -> list[str]:
    """Inside the import's transaction, after the acknowledgements: clear the contact data
    of every parcel no longer assigned whose changes made here the office has all
    acknowledged, in its records and in this copy's history of them (`storage.contacts`).
    A local clearing of this copy: no change is logged, none travels, and the office's
    records keep every value. A parcel this laptop proposed is its own, and kept. Returns
    the tax map numbers cleared."""
    if ws.role != FIELD:
        raise InputError("Contact data is cleared only on a laptop; the office keeps it.")
    office = devices.by_role(conn, OFFICE)
    assert office is not None
    acknowledged = int(office["acknowledged_seq"])
    kept = assigned_here(ws) | set(proposals.listed(conn))
    purged = contacts.open_clearings(conn)
    cleared = []
    for pid, sbl in assignments.parcel_ids(conn):
        if pid in kept or pid in purged:
            continue
        if assignments.last_own_change_to(conn, this_id, pid) > acknowledged:
            continue  # not yet all at the office: kept until it acknowledges them
        contacts.clear_parcel(conn, pid, sbl, at=now_text(), by=user)
        cleared.append(sbl)
    return cleared
