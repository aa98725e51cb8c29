"""Observations recorded on a component suggest the finding they point to: effluent breaking
out over the absorption area a failure (§ 202-5 C), a damaged baffle a substandard tank."""

from __future__ import annotations

import copy
from datetime import date
from typing import Any

from inspector_app.casefile import parse_document
from inspector_app.domain.rules import Outcome
from inspector_app.domain.vocabulary import Condition
from inspector_app.services.parcel.evaluation_json import evaluation_json
from inspector_app.services.workspace import Workspace

TODAY = date(2026, 11, 25)
SBL = "112.09-1-7.2"
BREAKOUT = "failure/breakout/absorption_area#1"
BAFFLE = "baffle/outlet_baffle/septic_tank#1"


def _store(ws: Workspace, contract_case: dict[str, Any], **details: Any) -> None:
    doc = copy.deepcopy(contract_case)
    doc["components"] = [
        {"kind": "septic_tank", "condition": "acceptable", "defects": [],
         **details.get("tank", {})},
        {"kind": "absorption_area", "condition": "acceptable", "defects": [],
         **details.get("area", {})}]
    doc["inspection"]["failure_evidence"] = []
    for key in ("observations", "etu", "holding_tank_service"):
        doc.pop(key)
    ws.save_case(parse_document(doc, source="case.json", today=TODAY), today=TODAY)


def _conditions(ws: Workspace) -> list[Condition]:
    return [c.condition for c in ws.load_case(SBL).components]


def test_a_breakout_suggests_failure_and_accepting_it_fails_the_absorption_area(
        workspace: Workspace, contract_case: dict[str, Any]) -> None:
    _store(workspace, contract_case, area={"breakout": True})
    e = workspace.evaluate_parcel(SBL, as_of=TODAY)
    assert e.outcome is Outcome.ACCEPTABLE  # nothing is decided for the inspector
    (s,) = [s for s in e.suggestions if s.key == BREAKOUT]
    assert s.condition is Condition.FAILED
    assert s.citation == "§ 202-5 C (unconfirmed)"
    assert "surface breakout of effluent" in s.defect
    shown = {x["key"]: x for x in evaluation_json(e, workspace.jurisdiction)[
        "suggested_findings"]}
    assert shown[BREAKOUT]["condition"] == "failed"

    workspace.decide_suggestion(SBL, BREAKOUT, accept=True, note="seen over lateral 2",
                                as_of=TODAY)
    assert _conditions(workspace) == [Condition.ACCEPTABLE, Condition.FAILED]
    area = workspace.load_case(SBL).components[1]
    assert area.defects == (f"{s.defect} (§ 202-5 C)",)
    after = workspace.evaluate_parcel(SBL, as_of=TODAY)
    assert after.outcome is Outcome.FAILURE
    assert [v.code for v in after.violations] == ["system_in_failure"]

    reversal = workspace.reopen_suggestion(SBL, BREAKOUT)
    assert "absorption area is acceptable again" in reversal.summary()
    assert _conditions(workspace) == [Condition.ACCEPTABLE, Condition.ACCEPTABLE]
    assert workspace.load_case(SBL).components[1].defects == ()


def test_a_damaged_baffle_suggests_substandard(workspace: Workspace,
                                               contract_case: dict[str, Any]) -> None:
    _store(workspace, contract_case, tank={"outlet_baffle": "damaged"})
    (s,) = [s for s in workspace.evaluate_parcel(SBL, as_of=TODAY).suggestions
            if s.key == BAFFLE]
    assert (s.condition, s.defect, s.citation) == (
        Condition.SUBSTANDARD, "outlet baffle/tee damaged", "§ 202-6 A")
    workspace.decide_suggestion(SBL, BAFFLE, accept=True, as_of=TODAY)
    assert _conditions(workspace) == [Condition.SUBSTANDARD, Condition.ACCEPTABLE]
    e = workspace.evaluate_parcel(SBL, as_of=TODAY)
    assert (e.outcome, e.substandard_components[0].value) == (Outcome.SUBSTANDARD,
                                                              "septic_tank")
    present = workspace.evaluate_parcel(SBL, as_of=TODAY)
    assert BAFFLE in {x.key for x in present.suggestions}  # still offered, now accepted


def test_undoing_a_failure_on_a_component_another_finding_holds_leaves_it_substandard(
        workspace: Workspace, contract_case: dict[str, Any]) -> None:
    setback = "setback/absorption_area#1/lake"
    for first, second in ((setback, BREAKOUT),):
        # The absorption area 85 ft from the lake (tape) is short of the table's 100 ft, and
        # effluent breaks out over it: two findings on one component.
        doc = copy.deepcopy(contract_case)
        doc["site"]["lake_distance_ft"] = 85.0
        workspace.save_case(parse_document(doc, source="case.json", today=TODAY), today=TODAY)
        _store(workspace, {**doc}, area={"breakout": True})
        keys = {s.key for s in workspace.evaluate_parcel(SBL, as_of=TODAY).suggestions}
        assert {setback, BREAKOUT} <= keys
        workspace.decide_suggestion(SBL, first, accept=True, as_of=TODAY)
        workspace.decide_suggestion(SBL, second, accept=True, as_of=TODAY)
        assert _conditions(workspace) == [Condition.ACCEPTABLE, Condition.FAILED]
        reversal = workspace.reopen_suggestion(SBL, BREAKOUT)
        assert _conditions(workspace) == [Condition.ACCEPTABLE, Condition.SUBSTANDARD], (
            first, reversal.summary())
        assert workspace.evaluate_parcel(SBL, as_of=TODAY).outcome is Outcome.SUBSTANDARD
        # The condition was last written by the undo, not by an acceptance: it is left as
        # it is, and the summary says so.
        last = workspace.reopen_suggestion(SBL, setback)
        assert "condition was changed since; it stays as it is" in last.summary()
        assert workspace.load_case(SBL).components[1].defects == ()


def test_accepting_a_finding_the_component_already_states_adds_no_second_defect(
        workspace: Workspace, contract_case: dict[str, Any]) -> None:
    # The inspector typed "inlet baffle damaged" and left the tank acceptable: accepting
    # "inlet baffle/tee damaged" makes it substandard and adds no near-duplicate.
    _store(workspace, contract_case,
           tank={"inlet_baffle": "damaged", "defects": ["inlet baffle damaged"]})
    key = "baffle/inlet_baffle/septic_tank#1"
    (s,) = [s for s in workspace.evaluate_parcel(SBL, as_of=TODAY).suggestions if s.key == key]
    assert s.changes_record  # the tank is still acceptable
    workspace.decide_suggestion(SBL, key, accept=True, as_of=TODAY)
    tank = workspace.load_case(SBL).components[0]
    assert (tank.condition, tank.defects) == (Condition.SUBSTANDARD, ("inlet baffle damaged",))
    # Undoing takes back the condition it raised and leaves the inspector's words.
    workspace.reopen_suggestion(SBL, key)
    tank = workspace.load_case(SBL).components[0]
    assert (tank.condition, tank.defects) == (Condition.ACCEPTABLE, ("inlet baffle damaged",))
