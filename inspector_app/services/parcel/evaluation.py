"""One parcel's evaluation under its municipality's law, and the inspector's decisions on
the findings it suggests."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from dataclasses import replace
from datetime import date
from types import EllipsisType
from typing import TYPE_CHECKING

from ...domain.case import Case
from ...domain.rules import Decision, Evaluation, Suggestion, SuggestionStatus, evaluate
from ...errors import InputError
from ...storage.records import RecordWriter
from ..reference.shorelines import component_map_distances, map_distance
from ..session.laws import NoLawFacts, NoLawOnFile, no_law_facts
from ..session.session import Session
from .decisions import Reversal, active_decisions, decide, follow_findings, reopen

if TYPE_CHECKING:
    from ...geo.case_shapes import CaseShapes
    from ...geo.setbacks import WellIndex
    from ..reference.lot_lines import LotLayer
    from ..reference.shorelines import ActiveLayer


def judged(ws: Session, case: Case, *, as_of: date | None,
           decisions: Mapping[str, SuggestionStatus | Decision],
           layer: ActiveLayer | EllipsisType | None = ..., shapes: CaseShapes | None = None,
           parcel_id: str | None = None,
           lots: LotLayer | EllipsisType | None = ...,
           wells: WellIndex | EllipsisType = ...) -> Evaluation:
    """A case judged under its municipality's law (NoLawOnFile when there is none)."""
    from ...geo.case_shapes import CaseShapes
    from ...geo.setbacks import separations
    from .separations import separation_inputs

    law = ws.law_for(case.parcel.municipality)
    if shapes is None:
        shapes = CaseShapes(case)  # each geometry projected once for every distance
    found = map_distance(ws, case, layer=layer, shapes=shapes)
    inputs = separation_inputs(ws, case, shapes, law=law, parcel_id=parcel_id, lots=lots,
                               wells=wells)
    return evaluate(case, law, as_of=as_of or ws.today(),
                    map_distance=None if found is None else found[0],
                    separations=separations(case, shapes, lot=inputs.lot, wells=inputs.wells),
                    decisions=decisions,
                    component_distances=component_map_distances(ws, case, layer=layer,
                                                                shapes=shapes))


def evaluate_case(ws: Session, case: Case, *, as_of: date | None = None) -> Evaluation:
    """A case that is not (or not yet) stored, judged under its municipality's law
    (NoLawOnFile when there is none)."""
    return judged(ws, case, as_of=as_of, decisions={})


def assess_case(ws: Session, case: Case, *, as_of: date | None = None,
                layer: ActiveLayer | EllipsisType | None = ...,
                shapes: CaseShapes | None = None, parcel_id: str | None = None,
                lots: LotLayer | EllipsisType | None = ...,
                wells: WellIndex | EllipsisType = ...) -> Evaluation | NoLawFacts:
    """The evaluation under the parcel's law, or, with no law on file, the record's facts
    and measurements with no judgement. `layer`, `lots` and `wells`, when given, are the
    active shoreline and lot layers and the wells' index as read once for many cases
    (`separations.well_index`); `shapes`, the case's geometries
    as projected together with other cases'; `parcel_id`, the stored parcel's id."""
    if ws.laws.for_municipality(case.parcel.municipality) is None:
        found = map_distance(ws, case, layer=layer, shapes=shapes)
        return no_law_facts(case, as_of=as_of or ws.today(),
                            map_distance=None if found is None else found[0])
    return judged(ws, case, as_of=as_of, decisions={}, layer=layer, shapes=shapes,
                  parcel_id=parcel_id, lots=lots, wells=wells)


def decisions(ws: Session, sbl: str) -> dict[str, SuggestionStatus]:
    return {key: d.status for key, d in active_decisions(ws.store.conn,
                                                          ws.parcel_id(sbl)).items()}


def decision_records(ws: Session, sbl: str) -> dict[str, Decision]:
    """The standing decisions on the parcel's suggested findings: who, when, why."""
    return active_decisions(ws.store.conn, ws.parcel_id(sbl))


def evaluate_parcel(ws: Session, sbl: str, *, as_of: date | None = None) -> Evaluation:
    """A stored parcel judged, with the inspector's decisions on suggested findings."""
    return judged(ws, ws.load_case(sbl), as_of=as_of, decisions=decision_records(ws, sbl))


def assess_parcel(ws: Session, sbl: str, *, as_of: date | None = None
                  ) -> Evaluation | NoLawFacts:
    case = ws.load_case(sbl)
    if ws.laws.for_municipality(case.parcel.municipality) is None:
        return assess_case(ws, case, as_of=as_of)
    return evaluate_parcel(ws, sbl, as_of=as_of)


def decide_suggestion(ws: Session, sbl: str, key: str, *, accept: bool,
                      note: str | None = None, as_of: date | None = None) -> Suggestion:
    """Record the inspector's decision, with an optional note; an accepted finding marks
    the component substandard with the finding and its section, in the same transaction.
    Deciding again revises the decision (rejecting an accepted finding takes off what its
    acceptance added)."""
    day = as_of or ws.today()
    evaluation = evaluate_parcel(ws, sbl, as_of=day)
    found = {s.key: s for s in evaluation.suggestions}
    if key not in found:
        offered = ", ".join(found) or "none"
        raise InputError(f"Parcel {sbl} has no suggested finding {key!r} (suggested now: "
                         f"{offered}).")
    suggestion = found[key]
    parcel_id = ws.parcel_id(sbl)
    with ws.store.transaction() as w:
        decision = decide(w, parcel_id, suggestion, accept=accept, note=note,
                          user=ws.store.actor.user, day=day)
    return replace(suggestion, status=decision.status, decision=decision)


def reopen_suggestion(ws: Session, sbl: str, key: str) -> Reversal:
    """Undo the decision on a suggested finding: it is pending again, and what its
    acceptance added to the component is taken off where nobody has changed it since.
    One transaction; the change log records who and when."""
    parcel_id = ws.parcel_id(sbl)
    with ws.store.transaction() as w:
        return reopen(w, parcel_id, key)


def follow_after_save(ws: Session, w: RecordWriter, parcel_id: str, day: date) -> None:
    """Accepted findings follow the record as saved (`decisions.follow_findings`)."""
    # With no law on file the evaluation refuses before any write: accepted findings
    # stay as they were recorded.
    with contextlib.suppress(NoLawOnFile):
        follow_findings(w, parcel_id, lambda case, decided: judged(
            ws, case, as_of=day, decisions=decided))
