"""The findings the form offers as an inspector types: the phrases recorded in the data
folder as defects or evidence of failure, the most used first, and none from a component
removed or an inspection entered in error."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import date

from inspector_app.domain.case import Case, Component, Inspection
from inspector_app.domain.vocabulary import ComponentKind, Condition, InspectionReason
from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.parcel import inspections
from inspector_app.services.workspace import Workspace

TODAY = date(2026, 11, 25)


def _edit(ws: Workspace, sbl: str, change: Callable[[Case], Case]) -> None:
    parcel_id, before, _ = ws.open_for_edit(sbl)
    ws.save_edit(parcel_id, before, change(before), today=TODAY)


def test_the_phrases_on_record_most_used_first(workspace: Workspace) -> None:
    ws = workspace
    install_demo(ws, count=6, today=TODAY)
    before = inspections.recorded_findings(ws)
    assert before, "the demo records defects and evidence of failure"
    sbls = [r["sbl"] for r in ws.parcels()]
    def tank(*defects: str) -> Component:
        return Component(kind=ComponentKind.SEPTIC_TANK, condition=Condition.FAILED,
                         defects=defects)

    _edit(ws, sbls[0], lambda c: replace(c, components=(
        *c.components, tank("  lid cracked ", "baffle rotted"))))
    for sbl in sbls[1:3]:  # "lid cracked" on three parcels (trimmed), "baffle rotted" on one
        _edit(ws, sbl, lambda c: replace(c, components=(*c.components, tank("lid cracked"))))
    found = inspections.recorded_findings(ws)
    assert found.count("lid cracked") == 1 and "  lid cracked " not in found
    assert found.index("lid cracked") < found.index("baffle rotted")
    assert set(before) <= set(found)

    # a component removed takes its phrases with it (while nothing else records them)
    _edit(ws, sbls[0], lambda c: replace(c, components=tuple(
        x for x in c.components if "baffle rotted" not in x.defects)))
    found = inspections.recorded_findings(ws)
    assert "baffle rotted" not in found and "lid cracked" in found

    # evidence of an inspection entered in error is offered no more
    sbl = sbls[3]
    _edit(ws, sbl, lambda c: replace(c, inspection=Inspection(
        date=TODAY, inspector="J. Haldane", reason=InspectionReason.CONVEYANCE,
        failure_evidence=("sewage odour at the cleanout",))))
    assert "sewage odour at the cleanout" in inspections.recorded_findings(ws)
    latest = inspections.listed(ws, sbl)[-1]
    inspections.mark_entered_in_error(ws, sbl, latest["id"], reason="the wrong parcel")
    assert "sewage odour at the cleanout" not in inspections.recorded_findings(ws)
