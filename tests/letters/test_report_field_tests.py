"""The report of findings prints, beside the tests' table, each test's times, the volume
preset it followed with its arithmetic, what was seen at the test and at later visits,
and the warning for a test soon after a pump-out."""

from __future__ import annotations

import copy
from datetime import date
from typing import Any

from inspector_app.casefile import parse_document
from inspector_app.services.letters import register as letters
from inspector_app.services.workspace import Workspace
from tests.letters.test_letters import text_of

TODAY = date(2026, 11, 25)
SBL = "98.00-1-23.100"


def _case(full_case: dict[str, Any], *, pumped: str) -> dict[str, Any]:
    doc = copy.deepcopy(full_case)
    doc["dwelling"]["bedrooms"] = 4
    doc["holding_tank_service"] = {"hauler_contract": True, "pump_outs": [
        {"date": pumped, "record_received": True}]}
    doc["inspection"]["tests"] = [{
        "kind": "dye", "result": "pass", "volume_gal": 80, "duration_min": 16,
        "started_at": "2026-11-18T09:30", "ended_at": "2026-11-18T09:46",
        "observations": [
            {"at": "2026-11-18T10:15", "dye_seen": False},
            {"at": "2026-11-24", "dye_seen": True, "note": "at the shore",
             "place": {"type": "Point", "coordinates": [-77.335, 42.7612]}}]}]
    return doc


def _report(workspace: Workspace, doc: dict[str, Any]) -> str:
    workspace.save_case(parse_document(doc, source="c.json", today=TODAY), today=TODAY)
    return " ".join(text_of(letters.draft_pdf(workspace, SBL, "report_of_findings",
                                              as_of=TODAY)).split())


def test_the_report_prints_the_test_its_visits_and_the_pump_out_warning(
        workspace: Workspace, full_case: dict[str, Any]) -> None:
    text = _report(workspace, _case(full_case, pumped="2026-11-10"))
    assert "Test 1: Dye test" in text
    assert "Started 2026-11-18 09:30, ended 2026-11-18 09:46" in text
    assert ("Volume as the office's preset: 4 bedrooms × 20 gal = 80 gal (cap 100); at 5 "
            "gpm, 80 gal takes 16 min") in text
    assert "Observed 2026-11-18 10:15: no dye seen" in text
    assert "Observed 2026-11-24: dye seen at 42.76120° N, 77.33500° W; at the shore" in text
    assert ("Warning: A dye test within 30 days after a pump-out proves little: the holding "
            "tank was pumped 2026-11-10, 8 days before (the number of days is the office's "
            "practice, not the law's)") in text


def test_no_warning_for_a_pump_out_31_days_before(
        workspace: Workspace, full_case: dict[str, Any]) -> None:
    text = _report(workspace, _case(full_case, pumped="2026-10-18"))
    assert "Observed 2026-11-18 10:15" in text
    assert "proves little" not in text
