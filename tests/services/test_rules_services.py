from __future__ import annotations

import copy
import json
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from inspector_app.casefile import parse_document
from inspector_app.errors import InputError
from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.letters.register import issue
from inspector_app.services.lists.worklists import worklists
from inspector_app.services.workspace import Workspace
from tests.suggestions import decide_pending

TODAY = date(2026, 11, 25)


def _store(ws: Workspace, doc: dict[str, Any]) -> None:
    ws.save_case(parse_document(doc, source="case.json", today=TODAY), today=TODAY)


def _undersized(contract_case: dict[str, Any]) -> dict[str, Any]:
    doc = copy.deepcopy(contract_case)
    doc["components"] = [{"kind": "septic_tank", "condition": "acceptable", "defects": [],
                          "capacity_gal": 750}]
    return doc


def test_accepting_a_suggestion_records_it_and_marks_the_component(
        workspace: Workspace, contract_case: dict[str, Any]) -> None:
    _store(workspace, _undersized(contract_case))
    (s,) = workspace.evaluate_parcel("112.09-1-7.2", as_of=TODAY).suggestions
    assert s.status.value == "pending"
    decided = workspace.decide_suggestion("112.09-1-7.2", s.key, accept=True,
                                          note="confirmed with owner", as_of=TODAY)
    assert decided.status.value == "accepted"
    case = workspace.load_case("112.09-1-7.2")
    (tank,) = case.components
    assert tank.condition.value == "substandard"
    assert tank.defects == (s.record_text,)  # the finding and its section, no draft marks
    e = workspace.evaluate_parcel("112.09-1-7.2", as_of=TODAY)
    assert e.outcome.value == "substandard"
    assert e.suggestions[0].status.value == "accepted"
    rows = workspace.store.query("SELECT decision, decided_by, note FROM finding_decisions")
    assert rows == [{"decision": "accepted", "decided_by": "k.olmsted",
                     "note": "confirmed with owner"}]
    logged = {(h["table_name"], h["op"]) for h in workspace.history("112.09-1-7.2")}
    assert {("finding_decisions", "insert"), ("components", "update")} <= logged


def test_rejecting_keeps_the_component_and_can_be_revised(workspace: Workspace,
                                                          contract_case: dict) -> None:
    _store(workspace, _undersized(contract_case))
    key = workspace.evaluate_parcel("112.09-1-7.2", as_of=TODAY).suggestions[0].key
    workspace.decide_suggestion("112.09-1-7.2", key, accept=False, note="tank replaced 2019")
    assert workspace.load_case("112.09-1-7.2").components[0].condition.value == "acceptable"
    assert workspace.evaluate_parcel("112.09-1-7.2").suggestions[0].status.value == "rejected"
    workspace.decide_suggestion("112.09-1-7.2", key, accept=True)
    updates = [(h["field"], h["old_value"], h["new_value"])
               for h in workspace.history("112.09-1-7.2")
               if h["table_name"] == "finding_decisions" and h["op"] == "update"]
    assert ("decision", "rejected", "accepted") in updates


def test_an_unknown_suggestion_is_refused(workspace: Workspace, contract_case: dict) -> None:
    _store(workspace, contract_case)
    with pytest.raises(InputError, match="has no suggested finding 'bogus'"):
        workspace.decide_suggestion("112.09-1-7.2", "bogus", accept=True)


def test_worklists_as_of_a_date(workspace: Workspace) -> None:
    install_demo(workspace, today=TODAY)
    lists = worklists(workspace, as_of=TODAY)
    five = lists["five-year-inspections"]
    assert five and all(item["status"] in ("overdue", "due", "never_inspected") for item in five)
    assert all(item["citation"] for item in five)
    overdue = [i for i in five if i["status"] == "overdue"]
    assert overdue and all(date.fromisoformat(i["due"]) < TODAY for i in overdue)
    # a day before the earliest due date, that parcel is "due" rather than "overdue"
    earliest = min(date.fromisoformat(i["due"]) for i in overdue)
    before = worklists(workspace, as_of=earliest, names=("five-year-inspections",))
    assert any(i["status"] == "due" for i in before["five-year-inspections"])
    etu = lists["etu-reports"]
    assert etu and all(v["code"].startswith("etu_") for i in etu for v in i["violations"])
    holding = lists["holding-tank-records"]
    assert holding and all(v["citation"].startswith("§ 202-8 B") for i in holding
                           for v in i["violations"])
    assert lists["notices-past-deadline"] == []
    # deadlines typed into a case are not followed up until a notice served sets them
    later = worklists(workspace, as_of=date(2027, 6, 1), names=("notices-past-deadline",))
    assert later["notices-past-deadline"] == []
    decide_pending(workspace, "900.01-1-7", as_of=TODAY)
    issue(workspace, "900.01-1-7", ["notice_of_violation"], as_of=TODAY)
    later = worklists(workspace, as_of=date(2027, 6, 1), names=("notices-past-deadline",))
    assert [i["sbl"] for i in later["notices-past-deadline"]] == ["900.01-1-7"]
    assert {d["deadline"] for i in later["notices-past-deadline"]
            for d in i["deadlines_passed"]} == {"permit_by", "complete_by"}


def test_never_inspected_lakefront_parcel_goes_to_the_watershed_inspector(
        workspace: Workspace, contract_case: dict[str, Any]) -> None:
    doc = copy.deepcopy(contract_case)
    del doc["inspection"]
    _store(workspace, doc)
    (item,) = worklists(workspace, as_of=TODAY)["five-year-inspections"]
    assert item["status"] == "never_inspected"
    assert item["first_inspection_by_watershed_inspector"] is True
    doc["system"] = {"stamped_as_built": True}
    _store(workspace, doc)
    (item,) = worklists(workspace, as_of=TODAY)["five-year-inspections"]
    assert item["first_inspection_by_watershed_inspector"] is False


# a file put into the folder by hand: at an office database the law is the office's, kept
# by `jurisdiction use` (tests/cli/test_office_database_cli.py)
@pytest.mark.sqlite_only
def test_a_data_folder_jurisdiction_file_takes_over(workspace: Workspace, tmp_path: Path,
                                                    contract_case: dict) -> None:
    from inspector_app.paths import resource

    text = resource("jurisdictions", "town-of-canandaigua-ch202.toml").read_text("utf-8")
    (workspace.folder.root / "jurisdiction.toml").write_text(
        text.replace("gpd_per_bedroom_within = 150", "gpd_per_bedroom_within = 175"))
    fresh = Workspace(workspace.folder.root, user="x")
    try:
        case = parse_document(contract_case, source="c", today=TODAY)
        assert fresh.evaluate_case(case, as_of=TODAY).design.gpd_per_bedroom == 175
    finally:
        fresh.close()
    assert json.loads(json.dumps(contract_case))  # the case itself is untouched
