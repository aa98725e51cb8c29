"""What each inspection found, as the record stood for it: the latest is the record as it
stands (the stored case, judged as the parcel's page judges it); an earlier one is the
record as it stood just before the parcel's next inspection was recorded, so an edit made
after an inspection, with no new inspection, counts for that inspection. Each is judged as
of its day, on the ETU service reports and pump-outs dated up to it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest

from inspector_app.casefile import parse_document, to_document
from inspector_app.domain.case import Case
from inspector_app.domain.vocabulary import Condition
from inspector_app.services import exchange as sync
from inspector_app.services.demo.parcels import demo_cases, demo_history, install_demo
from inspector_app.services.lists.program_report import program_report
from inspector_app.services.parcel import inspection_history
from inspector_app.services.parcel.inspection_history import (
    InspectionResult,
    inspection_results,
    parcel_inspections,
)
from inspector_app.services.session.laws import NoLawFacts
from inspector_app.services.workspace import Workspace
from inspector_app.storage.cases import load_case
from tests.services.program_fixture import CANANDAIGUA, TODAY, TickingClock, case_doc

DEMO_COUNT = 40


def _up_to(case: Case, day: date) -> Case:
    """The case with the ETU service inspections and pump-outs dated up to `day` alone: what
    there was to judge on that day."""
    etu, tank = case.etu, case.holding_tank_service
    return replace(
        case, etu=None if etu is None else replace(
            etu, inspections=tuple(i for i in etu.inspections if i.date <= day)),
        holding_tank_service=None if tank is None else replace(
            tank, pump_outs=tuple(p for p in tank.pump_outs if p.date <= day)))


def _judged_as_stored(ws: Workspace, sbl: str, result: InspectionResult) -> None:
    """The result equals the stored case's evaluation as of the inspection's day, on the
    ETU reports and pump-outs dated up to it."""
    case = ws.load_case(sbl)
    assert case.inspection is not None and result.date == case.inspection.date, sbl
    assert (result.sbl, result.municipality, result.site_address, result.reason,
            result.inspector) == (case.parcel.sbl, case.parcel.municipality,
                                  case.parcel.site_address, case.inspection.reason.value,
                                  case.inspection.inspector), sbl
    assert result.units == tuple(k for k in ("enhanced_treatment_unit", "holding_tank")
                                 if any(c.kind.value == k for c in case.components)), sbl
    page = ws.assess_parcel(sbl, as_of=result.date)
    if isinstance(page, NoLawFacts):
        assert (result.outcome, result.zone, result.violations) == (None, None, ()), sbl
        assert (result.distance_ft, result.distance_source) == (page.lake_distance_ft,
                                                                page.lake_source), sbl
        return
    # what the parcel's page shows as of that day, but for the ETU reports and pump-outs
    # dated after it
    judged = ws.evaluate_case(_up_to(case, result.date), as_of=result.date)
    assert (judged.outcome, judged.lake, judged.failed_components) == (
        page.outcome, page.lake, page.failed_components), sbl
    assert (result.outcome, result.zone, result.distance_ft, result.distance_source) == (
        judged.outcome.value, judged.lake.zone.value, judged.lake.distance_ft,
        judged.lake.source), sbl
    assert result.violations == tuple((v.code, v.citation) for v in judged.violations), sbl
    assert result.failed_components == tuple(k.value for k in judged.failed_components), sbl
    assert result.substandard_components == tuple(
        k.value for k in judged.substandard_components), sbl
    assert result.letters_called_for == tuple(k.value for k in judged.letters), sbl
    assert result.outcome_citation == judged.outcome_citation, sbl


def test_on_the_demo_the_latest_inspection_is_the_stored_case_and_the_earlier_ones_what_was_saved(
        workspace: Workspace, monkeypatch: pytest.MonkeyPatch) -> None:
    install_demo(workspace, count=DEMO_COUNT, today=TODAY)
    replayed: dict[str, list[Any]] = {}
    real = inspection_history._result

    def keep(parcel_id: str, inspection_id: str, case: Any, judged: Any) -> InspectionResult:
        replayed.setdefault(parcel_id, []).append(case)
        return real(parcel_id, inspection_id, case, judged)

    monkeypatch.setattr(inspection_history, "_result", keep)
    # the parcels' change-log entries read a few parcels at a time: in several reads
    monkeypatch.setattr(inspection_history, "_PARCELS_READ_AT_ONCE", 7)
    results = inspection_results(workspace)
    assert results == sorted(results, key=lambda r: (r.date, r.sbl))
    cases = list(demo_cases(DEMO_COUNT, today=TODAY))
    inspected = 0
    for n, saved in enumerate(cases):
        sbl = saved.parcel.sbl
        parcel_id = workspace.parcel_id(sbl)
        mine = parcel_inspections(workspace, parcel_id)
        assert mine == [r for r in results if r.parcel_id == parcel_id]
        stored = load_case(workspace.store.conn, parcel_id)
        if stored.inspection is None:
            assert mine == [] and parcel_id not in replayed
            continue
        inspected += 1
        # the latest inspection's case, replayed from the change log, is the stored case
        assert replayed[parcel_id][-1] == stored, sbl
        _judged_as_stored(workspace, sbl, mine[-1])
        # each earlier one found what the demo saved for it then
        earlier = demo_history(saved, n, TODAY)
        assert len(mine) == len(earlier) + 1, sbl
        for result, then, case in zip(mine, earlier, replayed[parcel_id], strict=False):
            assert then.inspection is not None
            assert (result.date, result.reason) == (then.inspection.date,
                                                    then.inspection.reason.value), sbl
            assert case.components == then.components, sbl
            # the replayed inspection is a record (its id); the demo's source knows none
            assert case.inspection is not None and case.inspection.id is not None, sbl
            assert replace(case.inspection, id=None) == then.inspection, sbl
            if result.outcome is not None:
                assert result.outcome == workspace.evaluate_case(
                    then, as_of=then.inspection.date).outcome.value, sbl
    assert inspected >= 30
    assert len(results) > inspected + 20  # most demo parcels have an earlier inspection


@pytest.fixture
def office(tmp_path: Path) -> Iterator[tuple[Workspace, TickingClock]]:
    clock = TickingClock(datetime(2024, 1, 1, tzinfo=UTC))
    with Workspace(tmp_path / "data", user="k.olmsted", clock=clock) as ws:
        yield ws, clock


def _bring(ws: Workspace, clock: TickingClock, tmp: Path, day: str, condition: str, *,
           on: str | None = None) -> None:
    clock.day(date.fromisoformat(on or day))
    path = tmp / f"case-{day}-{on}.json"
    path.write_text(json.dumps(case_doc("50-1-1", CANANDAIGUA, day, "five_year_cycle",
                                        [("septic_tank", condition),
                                         ("absorption_area", "acceptable")],
                                        distance_ft=150)), "utf-8")
    ws.import_case_file(path)


def _found(ws: Workspace) -> list[tuple[str, str | None]]:
    return [(r.date.isoformat(), r.outcome) for r in inspection_results(ws)]


def test_an_edit_after_an_inspection_without_a_new_one_counts_for_that_inspection(
        office: tuple[Workspace, TickingClock], tmp_path: Path) -> None:
    """The form edits the latest inspection's record: a finding corrected (or a repair
    recorded) a month after an inspection, with no new inspection, is what that inspection
    counts with. The next inspection's findings never count for the one before."""
    ws, clock = office
    _bring(ws, clock, tmp_path, "2024-03-01", "substandard")
    assert _found(ws) == [("2024-03-01", "substandard")]
    clock.day(date(2024, 4, 1))
    parcel_id, before, _ = ws.open_for_edit("50-1-1")
    tank = replace(before.components[0], condition=Condition.ACCEPTABLE, defects=())
    ws.save_edit(parcel_id, before, replace(before, components=(tank, *before.components[1:])))
    assert _found(ws) == [("2024-03-01", "acceptable")]
    _bring(ws, clock, tmp_path, "2025-05-01", "failed")
    assert _found(ws) == [("2024-03-01", "acceptable"), ("2025-05-01", "failure")]
    # the report of 2024 counts the 2024 inspection as it was edited, not the 2025 failure
    clock.day(TODAY)
    totals = program_report(ws, date(2024, 1, 1), date(2024, 12, 31)).figures["totals"]
    assert (totals["by_outcome"]["acceptable"], totals["failures"]["found"]) == (1, 0)
    _judged_as_stored(ws, "50-1-1", inspection_results(ws)[-1])


def test_a_deleted_inspection_is_not_counted(office: tuple[Workspace, TickingClock],
                                            tmp_path: Path) -> None:
    ws, clock = office
    _bring(ws, clock, tmp_path, "2024-03-01", "substandard")
    _bring(ws, clock, tmp_path, "2024-09-01", "failed")
    _bring(ws, clock, tmp_path, "2025-05-01", "acceptable")
    middle = ws.store.query("SELECT id FROM inspections WHERE date = '2024-09-01'")[0]["id"]
    clock.day(date(2025, 6, 1))
    with ws.store.transaction() as w:
        w.delete("inspections", middle)
    # the deleted one is gone; the others keep what they found
    assert _found(ws) == [("2024-03-01", "substandard"), ("2025-05-01", "acceptable")]
    clock.day(TODAY)
    figures = program_report(ws, date(2024, 1, 1), date(2025, 6, 30)).figures
    assert figures["totals"]["inspections"] == 2
    assert figures["totals"]["by_outcome"]["failure"] == 0
    # (with its failure gone, nothing is counted as corrected)
    assert figures["totals"]["failures"] == {"found": 0, "corrected": 0,
                                             "systems_in_failure_at_end": 0}


def test_an_inspection_recorded_on_a_laptop_counts_in_the_office(tmp_path: Path) -> None:
    """A parcel's new inspection, recorded on a laptop and imported in the office, is the
    office's latest inspection, and the one before it keeps what it found."""
    with Workspace(tmp_path / "office", user="clerk") as office:
        install_demo(office, count=4, today=TODAY)
        sbl = "900.01-1-3"
        before = [(r.date, r.outcome) for r in parcel_inspections(office,
                                                                   office.parcel_id(sbl))]
        assert [o for _, o in before] == ["substandard", "acceptable"]
        sync.enroll(office, "laptop", tmp_path / "kit.zip", [sbl],
                    passphrase="kit passphrase 1")
        sync.join(tmp_path / "field", tmp_path / "kit.zip", user="r.vance",
                  passphrase="kit passphrase 1")
        with Workspace(tmp_path / "field", user="r.vance") as field:
            doc = to_document(field.load_case(sbl))
            # a new inspection: not the stored one (its id) with a new date
            doc["inspection"] = {**{k: v for k, v in doc["inspection"].items() if k != "id"},
                                 "date": "2026-11-20", "reason": "complaint",
                                 "inspector": "R. Vance"}
            doc["components"][-1]["condition"] = "failed"
            doc["components"][-1]["defects"] = ["surface breakout"]
            field.save_case(parse_document(doc, source="laptop", today=TODAY), today=TODAY)
            sync.export(field, tmp_path / "up.zip")
        sync.import_package(office, tmp_path / "up.zip")
        results = parcel_inspections(office, office.parcel_id(sbl))
        assert [(r.date, r.outcome) for r in results] == [
            *before, (date(2026, 11, 20), "failure")]
        assert results[-1].reason == "complaint" and results[-1].inspector == "R. Vance"
        _judged_as_stored(office, sbl, results[-1])
