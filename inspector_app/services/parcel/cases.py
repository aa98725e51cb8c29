"""Saving one parcel's case: a case file imported, or the form's edit written onto the
record as it is stored now."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from pathlib import Path

from ...domain.case import Case
from ...errors import InputError
from ...storage import proposals
from ...storage.cases import case_version, load_case, parcel_id_for, save_case
from ..reference.providers import named_provider_problem
from ..reference.shorelines import record_map_measurement
from ..session.session import FIELD, Session
from .evaluation import follow_after_save
from .separations import located_things, record_lot_measurements


@dataclass(frozen=True)
class CaseImportResult:
    sbl: str
    created: bool
    changes: int
    # on a laptop, a parcel not on its roll: sent to the office as a proposal
    proposed: bool = False


def import_case_file(ws: Session, path: Path, *, today: date | None = None
                     ) -> CaseImportResult:
    from ... import casefile

    case = casefile.read_file(path, today=today or ws.today())
    return store_case(ws, case, today=today)


def store_case(ws: Session, case: Case, *, today: date | None = None) -> CaseImportResult:
    """Make the stored parcel exactly what the case says (a new parcel if its SBL is new)."""
    day = today or ws.today()
    with ws.store.transaction() as w:
        known = parcel_id_for(w.conn, case.parcel.sbl)
        stored = None if known is None else load_case(w.conn, known)
        refused = named_provider_problem(w.conn, stored, case)
        if refused is not None:
            raise InputError(f"{case.parcel.sbl}: {refused}; nothing was imported.")
        moved = stored is None or located_things(stored) != located_things(case)
        parcel_id, created = save_case(w, case, today=day)
        record_map_measurement(w, ws, parcel_id, case, day)
        if moved:
            record_lot_measurements(w, ws, parcel_id, case, day)
        follow_after_save(ws, w, parcel_id, day)
        changes = w.pending_changes
        proposal = proposals.of_parcel(w.conn, parcel_id) if ws.role == FIELD else None
    return CaseImportResult(sbl=case.parcel.sbl, created=created, changes=changes,
                            proposed=proposal is not None
                            and proposal["status"] == proposals.PENDING)


def save_edit(ws: Session, parcel_id: str, before: Case, after: Case, *,
              today: date | None = None) -> tuple[Case, int]:
    """Write what changed from `before` to `after` onto the parcel as it is stored now.

    `parcel_id` is the parcel the edit was made on: an edit never lands on another parcel.
    A value that changed meanwhile elsewhere is kept; one changed both here and elsewhere
    is refused (EditConflict) and nothing is written. Returns the stored case and its
    version after the save."""
    from ... import casefile
    from ...domain.edits import EditConflict, apply_case_edit

    day = today or ws.today()
    with ws.store.transaction() as w:
        current = parcel_id_for(w.conn, before.parcel.sbl)
        if current != parcel_id:
            raise InputError(f"Parcel {before.parcel.sbl} is no longer the record this "
                             "form was opened on; nothing was saved. Open it again.")
        stored = load_case(w.conn, parcel_id)
        _same_inspection(stored, before, after)
        try:
            merged = apply_case_edit(stored, before, after)
        except EditConflict as exc:
            raise InputError(f"Not saved: {exc}. The form now shows the stored values."
                             ) from None
        if merged != stored:
            # The same gate as a case file: type, range, vocabulary, dates, cross-field
            # (what the stored record already lacked is not the edit's fault).
            found = casefile.new_problem(stored, merged, source="The form", today=day)
            if found is not None:
                raise InputError(found)
            refused = named_provider_problem(w.conn, stored, merged)
            if refused is not None:
                raise InputError(f"Not saved: {refused}.")
            save_case(w, merged, today=day)
            record_map_measurement(w, ws, parcel_id, merged, day)
            if located_things(stored) != located_things(merged):
                record_lot_measurements(w, ws, parcel_id, merged, day)
            follow_after_save(ws, w, parcel_id, day)
    return load_case(ws.store.conn, parcel_id), case_version(ws.store.conn, parcel_id)


def _same_inspection(stored: Case, before: Case, after: Case) -> None:
    """An edit of the inspection is made on the inspection the form showed: if the parcel's
    latest inspection is another one by now (a new inspection recorded elsewhere, one marked
    entered in error), the edit is refused rather than laid onto another inspection."""
    from ...domain.edits import changed_paths

    shown = before.inspection.id if before.inspection is not None else None
    now = stored.inspection.id if stored.inspection is not None else None
    if shown == now or shown is None:
        return
    if any(p.startswith("inspection") for p in changed_paths(before, after)):
        day = stored.inspection.date.isoformat() if stored.inspection else None
        raise InputError(
            "Not saved: the inspection this form shows is no longer the parcel's latest "
            + (f"(that is now the inspection of {day})" if day else "(it has none now)")
            + "; nothing was saved. Open the parcel again.")
