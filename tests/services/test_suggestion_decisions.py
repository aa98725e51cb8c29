"""Decisions on suggested findings: notes, undo with history, and findings that follow the
record they rest on."""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from inspector_app.casefile import parse_document
from inspector_app.domain.vocabulary import CaptureMethod, Condition
from inspector_app.errors import InputError
from inspector_app.services.parcel.site import set_geometry
from inspector_app.services.workspace import Workspace
from tests.conftest import Clock

TODAY = date(2026, 11, 25)
SBL = "112.09-1-7.2"
TANK_KEY = "septic_tank_capacity/septic_tank#1"
WELL_KEY = "setback/septic_tank#1/well"
SECTION = "10 NYCRR Appendix 75-A.6"  # unconfirmed in the bundled jurisdiction file


def _store(ws: Workspace, doc: dict[str, Any]) -> None:
    ws.save_case(parse_document(doc, source="case.json", today=TODAY), today=TODAY)


def _undersized(contract_case: dict[str, Any], capacity_gal: int = 750) -> dict[str, Any]:
    doc = copy.deepcopy(contract_case)
    doc["components"] = [{"kind": "septic_tank", "condition": "acceptable", "defects": [],
                          "capacity_gal": capacity_gal}]
    return doc


def _tank(ws: Workspace) -> Any:
    (tank,) = ws.load_case(SBL).components
    return tank


def _set_capacity(ws: Workspace, capacity_gal: int) -> None:
    case = ws.load_case(SBL)
    (tank,) = case.components
    tank = replace(tank, details={**tank.details, "capacity_gal": capacity_gal})
    ws.save_case(replace(case, components=(tank,)), today=TODAY)


def _suggestion(ws: Workspace, key: str = TANK_KEY) -> Any:
    return {s.key: s for s in ws.evaluate_parcel(SBL, as_of=TODAY).suggestions}[key]


def test_an_accepted_finding_states_its_section_without_draft_marks(
        workspace: Workspace, contract_case: dict[str, Any]) -> None:
    _store(workspace, _undersized(contract_case))
    s = _suggestion(workspace)
    assert s.citation == f"{SECTION} (unconfirmed)"  # the draft view still says so
    workspace.decide_suggestion(SBL, TANK_KEY, accept=True, as_of=TODAY)
    (defect,) = _tank(workspace).defects
    assert defect == f"{s.defect} ({SECTION})"
    assert "unconfirmed" not in defect
    stored = workspace.store.query("SELECT defect, citation FROM finding_decisions")
    assert stored == [{"defect": s.defect, "citation": SECTION}]


def test_a_decision_takes_a_note_and_the_evaluation_shows_who_when_and_why(
        workspace: Workspace, contract_case: dict[str, Any]) -> None:
    _store(workspace, _undersized(contract_case))
    workspace.decide_suggestion(SBL, TANK_KEY, accept=False, note="  tank replaced 2019 ",
                                as_of=TODAY)
    d = _suggestion(workspace).decision
    assert (d.status.value, d.decided_by, d.decided_on, d.note) == (
        "rejected", "k.olmsted", TODAY, "tank replaced 2019")


def test_undoing_an_acceptance_takes_off_exactly_what_it_added(
        workspace: Workspace, contract_case: dict[str, Any], clock: Clock) -> None:
    doc = _undersized(contract_case)
    doc["components"][0]["defects"] = ["lid cracked"]
    _store(workspace, doc)
    clock.advance(minutes=1)
    workspace.decide_suggestion(SBL, TANK_KEY, accept=True, note="measured", as_of=TODAY)
    tank = _tank(workspace)
    assert tank.condition is Condition.SUBSTANDARD and len(tank.defects) == 2
    clock.advance(minutes=1)
    before = len(workspace.history(SBL))
    undone = workspace.reopen_suggestion(SBL, TANK_KEY)
    tank = _tank(workspace)
    assert tank.condition is Condition.ACCEPTABLE
    assert tank.defects == ("lid cracked",)  # the inspector's own defect stays
    assert undone.condition_restored and undone.removed_defect
    assert "pending again" in undone.summary()
    s = _suggestion(workspace)
    assert s.status.value == "pending" and s.decision is None
    # One transaction, attributed: the component's two fields and the decision's deletion.
    changes = workspace.history(SBL)[before:]
    assert {(h["table_name"], h["op"], h["field"]) for h in changes} == {
        ("components", "update", "defects"), ("components", "update", "condition"),
        ("finding_decisions", "delete", None)}
    assert {(h["at"], h["user"]) for h in changes} == {(changes[0]["at"], "k.olmsted")}
    # The decision record stays, marked deleted; the finding can be decided again.
    rows = workspace.store.query("SELECT decision, note, deleted_at FROM finding_decisions")
    assert [(r["decision"], r["note"], r["deleted_at"] is not None) for r in rows] == [
        ("accepted", "measured", True)]
    clock.advance(minutes=1)
    workspace.decide_suggestion(SBL, TANK_KEY, accept=True, as_of=TODAY)
    assert _tank(workspace).condition is Condition.SUBSTANDARD
    clock.advance(minutes=1)
    workspace.reopen_suggestion(SBL, TANK_KEY)
    assert _tank(workspace).condition is Condition.ACCEPTABLE
    assert _tank(workspace).defects == ("lid cracked",)


def test_undo_leaves_what_a_person_changed_since(workspace: Workspace,
                                                 contract_case: dict[str, Any],
                                                 clock: Clock) -> None:
    _store(workspace, _undersized(contract_case))
    workspace.decide_suggestion(SBL, TANK_KEY, accept=True, as_of=TODAY)
    clock.advance(minutes=1)
    case = workspace.load_case(SBL)
    (tank,) = case.components
    workspace.save_case(replace(case, components=(replace(tank, condition=Condition.FAILED),)),
                        today=TODAY)
    clock.advance(minutes=1)
    undone = workspace.reopen_suggestion(SBL, TANK_KEY)
    tank = _tank(workspace)
    assert tank.condition is Condition.FAILED  # the inspector's call since stays
    assert tank.defects == ()
    assert not undone.condition_restored

    # A defect the inspector reworded is theirs now: it stays, and so does the condition.
    workspace.decide_suggestion(SBL, TANK_KEY, accept=True, as_of=TODAY)
    case = workspace.load_case(SBL)
    (tank,) = case.components
    workspace.save_case(replace(case, components=(replace(
        tank, condition=Condition.ACCEPTABLE, defects=()),)), today=TODAY)
    clock.advance(minutes=1)
    workspace.decide_suggestion(SBL, TANK_KEY, accept=True, as_of=TODAY)  # again
    case = workspace.load_case(SBL)
    (tank,) = case.components
    workspace.save_case(replace(case, components=(replace(
        tank, defects=("tank too small for the house",)),)), today=TODAY)
    clock.advance(minutes=1)
    undone = workspace.reopen_suggestion(SBL, TANK_KEY)
    tank = _tank(workspace)
    assert tank.defects == ("tank too small for the house",)
    assert tank.condition is Condition.SUBSTANDARD
    assert undone.removed_defect is None and len(undone.left) == 2


def test_rejecting_an_accepted_finding_takes_off_what_the_acceptance_added(
        workspace: Workspace, contract_case: dict[str, Any], clock: Clock) -> None:
    _store(workspace, _undersized(contract_case))
    workspace.decide_suggestion(SBL, TANK_KEY, accept=True, as_of=TODAY)
    clock.advance(minutes=1)
    workspace.decide_suggestion(SBL, TANK_KEY, accept=False, note="new tank on order",
                                as_of=TODAY)
    tank = _tank(workspace)
    assert (tank.condition, tank.defects) == (Condition.ACCEPTABLE, ())
    assert _suggestion(workspace).decision.note == "new tank on order"


def test_two_accepted_findings_on_one_component_undone_in_either_order(
        workspace: Workspace, contract_case: dict[str, Any], clock: Clock) -> None:
    _store(workspace, _undersized(contract_case))
    tank = {"type": "Point", "coordinates": [-77.3, 42.8002]}
    well = {"type": "Point", "coordinates": [-77.3, 42.80025]}  # about 18 ft away
    set_geometry(workspace, SBL, "component:septic_tank#1", tank, method=CaptureMethod.GPS,
                 accuracy_ft=None, today=TODAY)
    set_geometry(workspace, SBL, "well", well, method=CaptureMethod.GPS, accuracy_ft=5,
                 today=TODAY)
    assert {TANK_KEY, WELL_KEY} <= {s.key for s in
                                    workspace.evaluate_parcel(SBL, as_of=TODAY).suggestions}
    for first, second in ((TANK_KEY, WELL_KEY), (WELL_KEY, TANK_KEY)):
        for key in (TANK_KEY, WELL_KEY):
            clock.advance(minutes=1)
            workspace.decide_suggestion(SBL, key, accept=True, as_of=TODAY)
        assert len(_tank(workspace).defects) == 2
        clock.advance(minutes=1)
        kept = workspace.reopen_suggestion(SBL, first)
        assert _tank(workspace).condition is Condition.SUBSTANDARD
        assert "Another accepted finding" in kept.summary()
        clock.advance(minutes=1)
        workspace.reopen_suggestion(SBL, second)
        assert (_tank(workspace).condition, _tank(workspace).defects) == (
            Condition.ACCEPTABLE, ())


def test_the_accepted_finding_follows_the_record_it_rests_on(
        workspace: Workspace, contract_case: dict[str, Any], clock: Clock) -> None:
    _store(workspace, _undersized(contract_case, capacity_gal=750))
    workspace.decide_suggestion(SBL, TANK_KEY, accept=True, note="measured", as_of=TODAY)
    clock.advance(minutes=1)
    _set_capacity(workspace, 900)  # a better measurement of the same tank
    s = _suggestion(workspace)
    assert "capacity 900 gal" in s.defect and s.status.value == "accepted"
    assert s.decision.defect == s.defect and s.decision.note == "measured"
    (defect,) = _tank(workspace).defects
    assert defect == f"{s.defect} ({SECTION})"
    # Never silently: the change log has the old and the new wording.
    changed = [h for h in workspace.history(SBL)
               if h["table_name"] == "components" and h["field"] == "defects"]
    assert "capacity 750 gal" in changed[-1]["old_value"]
    assert "capacity 900 gal" in changed[-1]["new_value"]
    assert changed[-1]["user"] == "k.olmsted"

    # Once the record no longer bears the finding out, the evaluation says so and the
    # decision can still be undone.
    clock.advance(minutes=1)
    _set_capacity(workspace, 1250)
    e = workspace.evaluate_parcel(SBL, as_of=TODAY)
    assert not e.suggestions
    (unsupported,) = e.unsupported
    assert unsupported.key == TANK_KEY and "capacity 900 gal" in unsupported.defect
    clock.advance(minutes=1)
    workspace.reopen_suggestion(SBL, TANK_KEY)
    assert (_tank(workspace).condition, _tank(workspace).defects) == (Condition.ACCEPTABLE, ())
    assert not workspace.evaluate_parcel(SBL, as_of=TODAY).unsupported


def test_a_finding_recorded_with_draft_marks_is_cleaned_by_a_recorded_change(
        workspace: Workspace, contract_case: dict[str, Any], clock: Clock) -> None:
    """Records made before the marks were dropped state them; the next save corrects
    them through the change log."""
    _store(workspace, _undersized(contract_case))
    s = _suggestion(workspace)
    marked = f"{s.defect} ({s.citation})"
    parcel_id = workspace.parcel_id(SBL)
    with workspace.store.transaction() as w:
        w.insert("finding_decisions", {
            "suggestion_key": TANK_KEY, "decision": "accepted", "defect": s.defect,
            "citation": s.citation, "decided_by": "k.olmsted", "decided_on": TODAY},
            parcel_id=parcel_id)
        (component_id,) = [r["id"] for r in workspace.store.query(
            "SELECT id FROM components WHERE parcel_id = ?", (parcel_id,))]
        w.update("components", component_id, {"defects": [marked], "condition": "substandard"})
    clock.advance(minutes=1)
    workspace.save_case(workspace.load_case(SBL), today=TODAY)
    assert _tank(workspace).defects == (f"{s.defect} ({SECTION})",)
    clock.advance(minutes=1)
    workspace.reopen_suggestion(SBL, TANK_KEY)
    assert (_tank(workspace).condition, _tank(workspace).defects) == (Condition.ACCEPTABLE, ())


def test_undo_with_no_decision_is_refused_in_words(workspace: Workspace,
                                                   contract_case: dict[str, Any]) -> None:
    _store(workspace, _undersized(contract_case))
    with pytest.raises(InputError, match="has no decision to undo: it is already pending"):
        workspace.reopen_suggestion(SBL, TANK_KEY)


# --- a parcel nobody has inspected --------------------------------------------------------

def test_a_never_inspected_parcel_is_not_called_acceptable(workspace: Workspace,
                                                           contract_case: dict[str, Any],
                                                           tmp_path: Path) -> None:
    from inspector_app.services.lists.overview import overview
    from inspector_app.services.parcel.evaluation_json import evaluation_json

    doc = copy.deepcopy(contract_case)
    del doc["inspection"]
    doc["components"] = []
    _store(workspace, doc)
    e = workspace.evaluate_parcel(SBL, as_of=TODAY)
    assert e.outcome.value == "acceptable"  # the contract's outcome is unchanged ...
    assert not e.inspected and e.standing == "not_inspected"  # ... and says it rests on nothing
    out = evaluation_json(e, workspace.jurisdiction)
    assert out["outcome"] == "acceptable" and out["inspected"] is False
    (row,) = overview(workspace, as_of=TODAY)
    assert row["outcome"] == "not_inspected"

    doc["inspection"] = contract_case["inspection"]
    _store(workspace, doc)
    e = workspace.evaluate_parcel(SBL, as_of=TODAY)
    assert e.inspected and e.standing == "acceptable"
    assert evaluation_json(e, workspace.jurisdiction)["inspected"] is True
    (row,) = overview(workspace, as_of=TODAY)
    assert row["outcome"] == "acceptable"


def test_what_the_records_say_is_shown_even_without_an_inspection(
        workspace: Workspace, contract_case: dict[str, Any]) -> None:
    doc = copy.deepcopy(contract_case)
    del doc["inspection"]
    _store(workspace, doc)  # a substandard septic tank on record
    e = workspace.evaluate_parcel(SBL, as_of=TODAY)
    assert not e.inspected and e.standing == "substandard"


def test_the_cli_evaluate_keeps_its_contract_for_a_case_without_an_inspection(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, contract_case: dict) -> None:
    from tests.test_cli import cli

    doc = copy.deepcopy(contract_case)
    del doc["inspection"]
    doc["components"] = []
    path = tmp_path / "case.json"
    path.write_text(json.dumps(doc))
    status, out, _ = cli(capsys, "--data-dir", str(tmp_path / "d"), "evaluate", str(path),
                         "--as-of", "2026-11-25")
    assert status == 0 and out["outcome"] == "acceptable" and out["inspected"] is False
