"""Parcels found in the field, and changes kept aside, waiting for a person.

A laptop records a parcel that is not on its roll (a subdivision, a lot the kit lacked) as
its own: the parcel is a proposal, and the laptop's package carries it with the records
made on it. The office holds them all (`held_changes`) and lists the proposal; a person
accepts it (the held changes are applied, in the order the laptop made them, and the
parcel is assigned to that laptop) or rejects it with a reason. Either way the office's
next package to that laptop says so; a rejected parcel stays on the laptop, marked, and
its later changes are held at the office too: nothing a laptop sends is dropped.

On a laptop, a change from the office that the laptop's own rules refuse is kept aside
with the reason (`sync held`), and the rest of the package applied.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ...domain.field_spec import TEXT_LENGTH
from ...domain.sbl import lookup_key
from ...errors import InputError, NotFoundError
from ...storage import held, proposals
from ...storage import parcels as parcel_rows
from ...storage.sync_apply import ApplyCounts, ChangeApplier
from ..session.session import FIELD, OFFICE, Session
from . import assignment, resolution
from .devices import device_by_id, now_text


def listed(ws: Session) -> list[dict[str, Any]]:
    """The proposals: at the office, its laptops' (with how many changes each holds); on a
    laptop, its own, with what the office decided."""
    conn = ws.store.conn
    out = []
    for pid, p in proposals.listed(conn).items():
        waiting = held.waiting(conn, parcel_id=pid, reason=held.PROPOSAL)
        device = (device_by_id(ws, p["device_id"])["name"] if ws.role == OFFICE
                  else ws.store.device_name)
        out.append({"parcel_id": pid, "sbl": p["sbl"], "laptop": device,
                    "proposed_at": p["proposed_at"], "proposed_by": p["proposed_by"],
                    "status": p["status"], "decided_by": p["decided_by"],
                    "decided_at": p["decided_at"], "note": p["note"],
                    **({"changes_held": len(waiting)} if ws.role == OFFICE else {})})
    return out


def _pending(ws: Session, parcel: str) -> dict[str, Any]:
    if ws.role != OFFICE:
        raise InputError("Only the office decides on a parcel a laptop proposed; this data "
                         "folder is " + ("a field laptop." if ws.role == FIELD
                                         else "not an office."))
    wanted = parcel.strip()
    for pid, p in proposals.listed(ws.store.conn).items():
        if wanted == pid or lookup_key(wanted) == lookup_key(p["sbl"]):
            if p["status"] != proposals.PENDING:
                raise InputError(f"The proposal of parcel {p['sbl']} was already "
                                 f"{p['status']} by {p['decided_by']} on "
                                 f"{str(p['decided_at'])[:10]}; nothing was changed.")
            return p
    raise NotFoundError(f"No laptop proposed a parcel {wanted!r}; `inspector-app sync "
                        "proposals` lists the proposals.",
                        in_app=f"No laptop proposed a parcel {wanted!r}.")


def accept(ws: Session, parcel: str) -> dict[str, Any]:
    """Add a proposed parcel to the roll, with what the laptop recorded on it, and assign it
    to that laptop."""
    p = _pending(ws, parcel)
    conn = ws.store.conn
    if parcel_rows.has_sbl(conn, p["sbl"]):
        raise InputError(f"The roll already holds parcel {p['sbl']}; reject the proposal "
                         "(saying so) and assign that parcel to the laptop with `inspector-app "
                         "sync assign`. Nothing was changed.",
                         in_app=f"The roll already holds parcel {p['sbl']}; reject the "
                                "proposal, saying so, and assign that parcel to the laptop.")
    waiting = held.waiting(conn, parcel_id=p["parcel_id"], reason=held.PROPOSAL)
    at = now_text()
    with ws.store.transaction() as w, ws.store.foreign_keys_at_commit():
        applier = ChangeApplier(w.conn, package_id=waiting[0]["package_id"] if waiting else "",
                                received_at=at, blobs={})
        applier.prepare([h["change"] for h in waiting])
        for h in waiting:
            before = _outcomes(applier.counts)
            applier.apply(h["change"])
            held.release(w.conn, h["change_id"], at=at, by=w.actor.user,
                         outcome=_changed(before, applier.counts))
        applier.finish()
        problem = resolution.case_problem(w.conn, p["parcel_id"], f"Parcel {p['sbl']}",
                                          ws.today())
        if problem is not None:
            raise InputError(f"{problem}; the proposal was not accepted and nothing was "
                             "changed.")
        laptop = device_by_id(ws, p["device_id"])
        assignment.assign(ws, laptop["name"], [p["sbl"]])
        proposals.decide(w.conn, p["parcel_id"], status=proposals.ACCEPTED, by=w.actor.user,
                         at=at, note=None)
    return {"sbl": p["sbl"], "status": proposals.ACCEPTED, "laptop": laptop["name"],
            "changes_applied": applier.counts.applied}


def reject(ws: Session, parcel: str, *, reason: str) -> dict[str, Any]:
    """Refuse a proposed parcel, saying why: the laptop learns it, and what it recorded on
    the parcel stays held here, on record."""
    why = " ".join(reason.split())
    if not why:
        raise InputError("Say why the proposal is rejected (--reason); the laptop is told.",
                         in_app="Say why the proposal is rejected; the laptop is told.")
    if len(why) > TEXT_LENGTH:
        raise InputError(f"The reason is {len(why):,} characters; at most {TEXT_LENGTH:,}.")
    p = _pending(ws, parcel)
    with ws.store.transaction() as w:
        proposals.decide(w.conn, p["parcel_id"], status=proposals.REJECTED, by=w.actor.user,
                         at=now_text(), note=why)
    return {"sbl": p["sbl"], "status": proposals.REJECTED, "reason": why}


def decisions_for(ws: Session, device_id: str) -> list[dict[str, Any]]:
    """What an office package tells a laptop of the parcels it proposed."""
    return [{"parcel_id": pid, "sbl": p["sbl"], "status": p["status"],
             "decided_by": p["decided_by"], "decided_at": p["decided_at"], "note": p["note"]}
            for pid, p in proposals.listed(ws.store.conn, (proposals.ACCEPTED,
                                                           proposals.REJECTED),
                                           device_id=device_id).items()]


def learn_decisions(conn: Any, decisions: Iterable[Mapping[str, Any]]) -> None:
    """On a laptop, inside an import: what the office decided on its proposals."""
    mine = proposals.listed(conn)
    for d in decisions:
        p = mine.get(d["parcel_id"])
        if p is not None and p["status"] != d["status"]:
            proposals.decide(conn, d["parcel_id"], status=d["status"], by=d["decided_by"],
                             at=d["decided_at"], note=d["note"])


def kept_aside(ws: Session) -> list[dict[str, Any]]:
    """The changes kept aside for a person, with why: on a laptop, the office's changes its
    rules refuse; at the office, the changes of proposed parcels."""
    out = []
    for h in held.waiting(ws.store.conn):
        c = h["change"]
        out.append({"change_id": h["change_id"], "why": h["reason"], "problem": h["problem"],
                    "table": c["table"], "op": c["op"], "field": c["field"],
                    "value": c["new"] if c["op"] == "update" else None,
                    "parcel": parcel_rows.sbl_of(ws.store.conn, c["parcel_id"] or "")
                    or c["parcel_id"], "by": c["user"], "at": c["at"],
                    "received_at": h["received_at"]})
    return out


_OUTCOMES = ("applied", "same_value", "conflicts", "skipped", "already")


def _outcomes(counts: ApplyCounts) -> tuple[int, ...]:
    return tuple(getattr(counts, name) for name in _OUTCOMES)


def _changed(before: tuple[int, ...], counts: ApplyCounts) -> str:
    after = _outcomes(counts)
    for name, was, now in zip(_OUTCOMES, before, after, strict=True):
        if now > was:
            return "conflict" if name == "conflicts" else name
    return "skipped"
