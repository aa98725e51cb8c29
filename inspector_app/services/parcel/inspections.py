"""A parcel's inspections: each one a record with its own id, listed; one entered in error
is marked so (who, when, why) and stays on record, and the mark can be undone. Both are
changes like any other: in the history, undoable, synced."""

from __future__ import annotations

from datetime import date
from typing import Any

from ...domain.field_spec import TEXT_LENGTH
from ...errors import InputError, NotFoundError
from ...storage import inspections as records
from ..session.session import Session


def listed(ws: Session, sbl: str) -> list[dict[str, Any]]:
    """Every inspection of a parcel, oldest first, with whether it is marked entered in
    error (and by whom, when, why)."""
    found = []
    for r in records.of_parcel(ws.store.conn, ws.parcel_id(sbl)):
        void = r["void_reason"] is not None
        found.append({"id": r["id"], "date": r["date"], "inspector": r["inspector"],
                      "reason": r["reason"], "entered_in_error": void,
                      **({"marked_by": r["voided_by"], "marked_on": r["voided_on"],
                          "why": r["void_reason"]} if void else {})})
    return found


def _inspection(ws: Session, sbl: str, inspection_id: str) -> dict[str, Any]:
    parcel_id = ws.parcel_id(sbl)
    for r in records.of_parcel(ws.store.conn, parcel_id):
        if r["id"] == inspection_id.strip():
            return r
    raise NotFoundError(f"Parcel {sbl} has no inspection {inspection_id!r}; "
                        f"`inspector-app inspection list {sbl}` lists its inspections.",
                        in_app=f"Parcel {sbl} has no inspection {inspection_id!r}.")


def mark_entered_in_error(ws: Session, sbl: str, inspection_id: str, *,
                          reason: str, on: date | None = None) -> dict[str, Any]:
    """Mark an inspection entered in error (a duplicate, a wrong parcel): it stays on
    record with its history, and is read as no inspection from then on."""
    why = " ".join(reason.split())
    if not why:
        raise InputError("Say why the inspection was entered in error (--reason); the "
                         "record keeps the reason.",
                         in_app="Say why the inspection was entered in error; the record "
                                "keeps the reason.")
    if len(why) > TEXT_LENGTH:
        raise InputError(f"The reason is {len(why):,} characters; at most {TEXT_LENGTH:,}.")
    found = _inspection(ws, sbl, inspection_id)
    if found["void_reason"] is not None:
        raise InputError(f"The inspection of {found['date']} was already marked entered in "
                         f"error by {found['voided_by']} on {found['voided_on']}; nothing "
                         "was changed.")
    with ws.store.transaction() as w:
        records.mark_void(w, found["id"], reason=why, by=w.actor.user,
                          on=(on or ws.today()).isoformat())
    return _one(ws, sbl, found["id"])


def restore(ws: Session, sbl: str, inspection_id: str) -> dict[str, Any]:
    """Undo the mark: the inspection counts again, as it was recorded."""
    found = _inspection(ws, sbl, inspection_id)
    if found["void_reason"] is None:
        raise InputError(f"The inspection of {found['date']} is not marked entered in "
                         "error; nothing was changed.")
    with ws.store.transaction() as w:
        records.clear_void(w, found["id"])
    return _one(ws, sbl, found["id"])


def _one(ws: Session, sbl: str, inspection_id: str) -> dict[str, Any]:
    return next(i for i in listed(ws, sbl) if i["id"] == inspection_id)


FINDINGS_OFFERED = 500  # the most used phrases the form offers as one types a finding


def recorded_findings(ws: Session) -> list[str]:
    """The defects and evidence of failure written down in this data folder, the most
    used first: the form offers them as an inspector types a finding."""
    from ...storage.phrases import recorded_findings as phrases

    return phrases(ws.store.conn, limit=FINDINGS_OFFERED)
