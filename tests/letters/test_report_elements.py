"""What the report of findings states of the system: every element drawn, no zone's section
while the zone is undetermined, and the lot line named by its own layer."""

from __future__ import annotations

import copy
from datetime import date
from pathlib import Path
from typing import Any

from inspector_app.casefile import parse_document
from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.letters import register as letters
from inspector_app.services.workspace import Workspace
from tests.letters.test_letters import text_of
from tests.suggestions import decide_pending

TODAY = date(2026, 11, 25)
SBL = "98.00-1-23.100"


def _substandard_undetermined(doc: dict[str, Any]) -> dict[str, Any]:
    """The septic tank substandard, nothing failed, and no distance to the lake line on
    record (no field measurement, no shoreline layer): the zone is undetermined."""
    doc = copy.deepcopy(doc)
    doc["components"] = [c for c in doc["components"]
                         if c["condition"] in ("acceptable", "substandard")
                         and c["kind"] not in ("absorption_area", "enhanced_treatment_unit")]
    doc["inspection"]["failure_evidence"] = []
    for key in ("observations", "etu", "holding_tank_service", "ahj"):
        doc.pop(key, None)
    for key in ("lake_distance_ft", "lake_distance_method", "holding_tank",
                "holding_tank_capture"):
        doc["site"].pop(key, None)
    return doc


def test_an_undetermined_zone_cites_no_zone_section_and_the_drawn_area_is_an_element(
        workspace: Workspace, full_case: dict[str, Any]) -> None:
    workspace.save_case(parse_document(_substandard_undetermined(full_case), source="c.json",
                                       today=TODAY), today=TODAY)
    decide_pending(workspace, SBL, as_of=TODAY)
    evaluation = workspace.evaluate_parcel(SBL, as_of=TODAY)
    assert (evaluation.outcome.value, evaluation.lake.zone.value) == ("substandard",
                                                                      "undetermined")
    assert evaluation.outcome_citation is None
    text = text_of(letters.draft_pdf(workspace, SBL, "report_of_findings", as_of=TODAY))
    assert "§ 202-5 D" not in text
    assert ("Outcome: substandard (whether § 202-7 B or § 202-7 C(1) applies is not settled: "
            "the distance to the lake line is undetermined)") in text
    # the absorption area is drawn on the site map though no component records it
    assert "Absorption area (drawn on the site map)" in text
    assert "area, 4 points, centred at 42.76120° N, 77.33500° W" in text


def test_demo_lot_lines_are_named_by_their_layer_not_as_the_tax_map(tmp_path: Path) -> None:
    ws = Workspace(tmp_path / "demo", user="clerk")
    try:
        install_demo(ws, today=TODAY)
        sbl = "900.01-1-14"
        text = text_of(letters.draft_pdf(ws, sbl, "report_of_findings", as_of=TODAY))
    finally:
        ws.close()
    assert "Lot line: Invented demo lot lines (not the county's tax map) v1 (±2 ft)" in text
    assert "tax map," not in text and "Lot line (tax map" not in text
