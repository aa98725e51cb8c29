"""The program report's figures, worked out by hand for a small program
(`tests/services/program_fixture.py` lists its parcels, inspections and letters), and again
by a simple path of its own: plain SQL on the inspections, parcels and letters, and each
inspection's outcome from the case files written for it."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest

from inspector_app.errors import InputError
from inspector_app.services.lists.program_report import program_report
from inspector_app.services.workspace import Workspace
from tests.services.program_fixture import (
    CANANDAIGUA,
    GORHAM,
    SOUTH_BRISTOL,
    TODAY,
    Program,
    TickingClock,
    build_program,
    case_doc,
)

START, END = date(2024, 1, 1), date(2026, 6, 30)
TOTAL = "All municipalities"
REASONS = ("five_year_cycle", "conveyance", "change_of_use", "expansion", "complaint",
           "ahj_order", "etu_follow_up", "other")
OUTCOMES = ("acceptable", "substandard", "failure", "incomplete", "not_judged")
FIVE_YEAR = ("within_200ft", "due_in_period", "done_on_time", "done_late", "not_done_by_end",
             "overdue_at_end", "never_inspected_at_end", "undetermined_never_inspected_at_end")
LETTER_KINDS = ("notice_of_violation", "substandard_notice", "letter_of_acknowledgement",
                "five_year_reminder", "etu_report_reminder", "pump_out_request",
                "report_of_findings")


@pytest.fixture(scope="module")
def program(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Program]:
    built = build_program(tmp_path_factory.mktemp("program"))
    yield built
    built.ws.close()


@pytest.fixture(scope="module")
def figures(program: Program) -> dict[str, Any]:
    return program_report(program.ws, START, END).figures


def _zeros(keys: tuple[str, ...], **counted: int) -> dict[str, int]:
    assert set(counted) <= set(keys)
    return {k: counted.get(k, 0) for k in keys}


def _group(*, law: bool, inspections: int, reasons: dict[str, int], outcomes: dict[str, int],
           systems: dict[str, int], failures: tuple[int, int, int], letters: dict[str, int],
           etu: tuple[int, int, int], tanks: tuple[int, int, int],
           five: tuple[int, int, int, int, int, int, int, int], on_record: dict[str, int],
           never: dict[str, int], notices: int = 0,
           etu_reports: tuple[int, int] = (0, 0)) -> dict[str, Any]:
    zones = ("within_200ft", "beyond_200ft", "undetermined", "not_judged")
    return {
        "law_on_file": law,
        "inspections": inspections,
        "by_reason": _zeros(REASONS, **reasons),
        "by_outcome": _zeros(OUTCOMES, **outcomes),
        "systems_inspected": {"parcels": sum(systems.values()), **_zeros(zones, **systems)},
        "failures": dict(zip(("found", "corrected", "systems_in_failure_at_end"), failures,
                             strict=True)),
        "letters_issued": _zeros((*LETTER_KINDS, "corrections", "replaced"), **letters),
        # no service is recorded: every notice in force is counted as not served
        "notices_served": {"notices": notices, "served": 0, "confirmed": 0,
                           "unconfirmed": 0, "returned": 0, "not_served": notices},
        # no inspection request is on record in this program
        "requests": {"received": 0, "answered": 0, "open_past_due_at_end": 0},
        "etu": dict(zip(("units", "compliant", "not_judged"), etu, strict=True)),
        "holding_tanks": dict(zip(("units", "compliant", "not_judged"), tanks, strict=True)),
        # the ETU reports received in the period, and of those the late ones; no report
        # states a unit's function or a contract's end, and no pump-out record its day
        # received, in this program
        "records_received": {"etu_reports_received": etu_reports[0],
                             "etu_reports_late": etu_reports[1],
                             "etu_reported_not_functional": 0,
                             "etu_contracts_lapsed_at_end": 0,
                             "pump_out_records_received": 0, "pump_out_records_late": 0},
        "five_year": dict(zip(FIVE_YEAR, five, strict=True)),
        # every parcel once, by the zone the records place it in now, and those never
        # inspected by the period's end
        "systems_on_record": {"parcels": sum(on_record.values()), **_zeros(zones, **on_record),
                              "never_inspected_at_end": {"parcels": sum(never.values()),
                                                         **_zeros(zones, **never)}},
    }


# The period 2024-01-01..2026-06-30 holds eleven inspections (both ends included):
#   20-1-1 2024-01-01 complaint incomplete, beyond     (G: the first day counts)
#   10-1-3 2024-02-20 conveyance acceptable, within    (C: 190 ft then)
#   10-1-1 2024-04-15 five_year substandard, within    (C)
#   30-1-1 2024-08-08 five_year not judged             (SB: no law on file)
#   10-1-2 2024-09-12 ahj_order acceptable, within     (C: its 2021 failure corrected)
#   20-1-2 2025-03-03 expansion acceptable, undetermined (G: no distance recorded)
#   10-1-4 2025-06-10 five_year acceptable, within     (C: after an acceptable 2022 one)
#   10-1-3 2025-07-08 etu_follow_up substandard, beyond (C: measured again, 250 ft)
#   20-1-3 2025-09-15 complaint failure, beyond        (G: failure evidence alone)
#   20-1-3 2026-02-10 ahj_order failure, beyond        (G: still failed)
#   20-1-1 2026-06-30 other failure, beyond            (G: the last day counts)
# and not 10-1-1 2019-02-10, 10-1-6 2020-08-01, 10-1-2 2021-03-01, 10-1-4 2022-05-01,
# 20-1-1 2023-11-30 (before) nor 10-1-5 2026-07-01 (the day after).
FIVE_YEAR_CANANDAIGUA = (
    5,  # within 200 ft, with a law: 10-1-1 (150 ft), 10-1-2 (120), 10-1-4 (90), 10-1-5 (180),
    #     10-1-6 (200 ft: the setback itself counts as within)
    # (a due date on a weekend moves to the Monday, GCL § 25-a, worked out by hand)
    3,  # fell due in the period: 10-1-1 (2019-02-10 -> Saturday 2024-02-10: 2024-02-12),
    #     10-1-2 (2021-03-01 -> Sunday 2026-03-01: 2026-03-02), 10-1-6 (2020-08-01 ->
    #     2025-08-01, a Friday); not 10-1-4 (2022-05-01 -> Saturday 2027-05-01: 2027-05-03)
    #     nor 10-1-5 (none before)
    1,  # done on time: 10-1-2 (2024-09-12, before 2026-03-02)
    1,  # done late: 10-1-1 (2024-04-15, after 2024-02-12)
    1,  # not done by the end: 10-1-6
    1,  # overdue on 2026-06-30: 10-1-6 (due 2025-08-01)
    1,  # never inspected by 2026-06-30: 10-1-5 (first inspected 2026-07-01)
    0,  # zone undetermined and never inspected: none in Canandaigua
)
CANANDAIGUA_FIGURES = _group(
    law=True,
    inspections=5,  # 10-1-3 x2, 10-1-1, 10-1-2, 10-1-4
    reasons={"five_year_cycle": 2,  # 10-1-1 2024-04-15, 10-1-4
             "conveyance": 1,  # 10-1-3 2024-02-20
             "ahj_order": 1,  # 10-1-2 2024-09-12
             "etu_follow_up": 1},  # 10-1-3 2025-07-08
    outcomes={"acceptable": 3,  # 10-1-3 2024-02-20 (a violation is no outcome), 10-1-2,
              #                   10-1-4
              "substandard": 2},  # 10-1-1 (septic tank), 10-1-3 2025-07-08 (ETU)
    systems={"within_200ft": 3,  # latest in the period: 10-1-1, 10-1-2, 10-1-4
             "beyond_200ft": 1},  # 10-1-3 as its latest (2025-07-08) found it
    failures=(0,  # none found in the period
              1,  # 10-1-2 acceptable on 2024-09-12 after its 2021-03-01 failure (not
              #     10-1-4, acceptable after an acceptable one)
              0),  # none in failure on 2026-06-30 (10-1-5 failed the day after)
    letters={"pump_out_request": 1,  # 10-1-4's correction of 2025-06-20, in force at the
             #                          end (the 2021-03-05 and 2026-07-02 not)
             "corrections": 1,  # that correction
             "replaced": 1},  # the 2025-06-15 letter it replaced: counted once, not twice
    etu=(1,  # 10-1-3
         0,  # its 2025-07-01 report came late, and the next ETU inspection fell due
             # 2026-01-01 (six months, the maker's interval)
         0),
    tanks=(1, 0, 0),  # 10-1-4: the 2025-05-01 pump-out's record is missing
    etu_reports=(2,  # 10-1-3's, received 2024-01-15 and 2025-07-30
                 1),  # the second, 29 days after its 2025-07-01 inspection (10 allowed)
    five=FIVE_YEAR_CANANDAIGUA,
    on_record={"within_200ft": 5,  # 10-1-1, 10-1-2, 10-1-4, 10-1-5, 10-1-6
               "beyond_200ft": 1},  # 10-1-3 (250 ft as measured again)
    never={"within_200ft": 1})  # 10-1-5, first inspected the day after the period
GORHAM_FIGURES = _group(
    law=True,
    inspections=5,  # 20-1-1 2024-01-01 and 2026-06-30, 20-1-2, 20-1-3 twice
    reasons={"complaint": 2,  # 20-1-1 2024-01-01, 20-1-3 2025-09-15
             "expansion": 1,  # 20-1-2
             "ahj_order": 1,  # 20-1-3 2026-02-10
             "other": 1},  # 20-1-1 2026-06-30
    outcomes={"incomplete": 1,  # 20-1-1 2024-01-01: distribution box not located
              "acceptable": 1,  # 20-1-2
              "failure": 3},  # 20-1-1 2026-06-30 (septic tank), 20-1-3 twice
    systems={"beyond_200ft": 2,  # 20-1-1 (300 ft), 20-1-3 (350 ft)
             "undetermined": 1},  # 20-1-2 (no distance, nothing drawn)
    failures=(3,  # 20-1-1 2026-06-30 and 20-1-3 twice
              0,  # nothing corrected (20-1-1's incomplete 2024-01-01 inspection followed
                  # an acceptable one)
              2),  # in failure on 2026-06-30: 20-1-1, 20-1-3
    letters={},  # (an example law issues no letter)
    etu=(1,  # 20-1-2
         1,  # contract; the 2026-02-15 ETU inspection (recorded later, dated in the period)
             # keeps it in date, reports within ten days; the 2026-08-01 one is not counted
         0),
    tanks=(0, 0, 0),
    etu_reports=(2,  # 20-1-2's, received 2025-02-05 and 2026-02-20 (not 2026-08-05: after)
                 0),  # each within ten days
    five=(0, 0, 0, 0, 0, 0, 0, 0),  # no system of Gorham within 200 ft (20-1-2, its zone
    #                                  undetermined, was inspected in 2025)
    on_record={"beyond_200ft": 2,  # 20-1-1, 20-1-3
               "undetermined": 1},  # 20-1-2: counted, in its own column
    never={})
SOUTH_BRISTOL_FIGURES = _group(
    law=False,
    inspections=1, reasons={"five_year_cycle": 1},  # 30-1-1 2024-08-08
    outcomes={"not_judged": 1},  # no law on file: its failed septic tank is not judged
    systems={"not_judged": 1}, failures=(0, 0, 0), letters={},
    etu=(0, 0, 0),
    tanks=(1, 0, 1),  # 30-1-1's holding tank, not judged
    five=(0, 0, 0, 0, 0, 0, 0, 0),  # (not judged: no setback without a law)
    on_record={"not_judged": 1}, never={})  # 30-1-1
TOTAL_FIGURES = _group(
    law=True,
    inspections=11,
    reasons={"five_year_cycle": 3, "conveyance": 1, "expansion": 1, "complaint": 2,
             "ahj_order": 2, "etu_follow_up": 1, "other": 1},
    outcomes={"acceptable": 4, "substandard": 2, "failure": 3, "incomplete": 1,
              "not_judged": 1},
    systems={"within_200ft": 3, "beyond_200ft": 3, "undetermined": 1, "not_judged": 1},
    failures=(3, 1, 2), letters={"pump_out_request": 1, "corrections": 1, "replaced": 1},
    etu=(2, 1, 0), tanks=(2, 0, 1), etu_reports=(4, 1), five=FIVE_YEAR_CANANDAIGUA,
    on_record={"within_200ft": 5, "beyond_200ft": 3, "undetermined": 1, "not_judged": 1},
    never={"within_200ft": 1})


def test_the_figures_of_each_municipality_and_in_total_are_the_hand_worked_ones(
        figures: dict[str, Any]) -> None:
    assert {k: figures[k] for k in ("format", "from", "to", "as_of", "municipalities")} == {
        "format": "watershed-inspector/program-report/1", "from": "2024-01-01",
        "to": "2026-06-30", "as_of": "2026-11-25",
        "municipalities": [CANANDAIGUA, GORHAM, SOUTH_BRISTOL]}
    assert figures["by_municipality"][CANANDAIGUA] == CANANDAIGUA_FIGURES
    assert figures["by_municipality"][GORHAM] == GORHAM_FIGURES
    assert figures["by_municipality"][SOUTH_BRISTOL] == SOUTH_BRISTOL_FIGURES
    assert figures["totals"] == TOTAL_FIGURES
    assert list(figures["by_municipality"]) == [CANANDAIGUA, GORHAM, SOUTH_BRISTOL]


def _months() -> list[str]:
    return [f"{y}-{m:02d}" for y in (2024, 2025, 2026) for m in range(1, 13)][:30]


def test_the_charts_are_the_hand_worked_ones(figures: dict[str, Any]) -> None:
    charts = figures["charts"]
    inspected = {  # the month of each inspection of the period, and what it found
        "2024-01": {"incomplete": 1},  # 20-1-1
        "2024-02": {"acceptable": 1},  # 10-1-3
        "2024-04": {"substandard": 1},  # 10-1-1
        "2024-08": {"not_judged": 1},  # 30-1-1
        "2024-09": {"acceptable": 1},  # 10-1-2
        "2025-03": {"acceptable": 1},  # 20-1-2
        "2025-06": {"acceptable": 1},  # 10-1-4
        "2025-07": {"substandard": 1},  # 10-1-3
        "2025-09": {"failure": 1},  # 20-1-3
        "2026-02": {"failure": 1},  # 20-1-3
        "2026-06": {"failure": 1},  # 20-1-1 on the period's last day
    }
    assert charts["inspections_per_month"] == [
        {"month": m, **_zeros(OUTCOMES, **inspected.get(m, {}))} for m in _months()]
    assert charts["failure_rate"] == {
        # 10-1-3 2024-02-20 (190 ft then), 10-1-1, 10-1-2, 10-1-4: none failed
        "within_200ft": {"inspections": 4, "failures": 0, "percent": 0.0},
        # 20-1-1 twice, 10-1-3 2025-07-08, 20-1-3 twice: 20-1-1 on 2026-06-30 and 20-1-3
        # twice failed
        "beyond_200ft": {"inspections": 5, "failures": 3, "percent": 60.0}}
    # Overdue at each month's end: 10-1-1 from its due day 2024-02-12 until its inspection
    # of 2024-04-15 (February and March); 10-1-6 from 2025-08-01 on (never inspected again).
    # 10-1-5, never inspected by then, is not overdue but never inspected.
    overdue = {"2024-02", "2024-03"} | {m for m in _months() if m >= "2025-08"}
    ends = {"2024-02": "2024-02-29", "2025-02": "2025-02-28", "2026-02": "2026-02-28",
            "2024-04": "2024-04-30", "2024-06": "2024-06-30", "2024-09": "2024-09-30",
            "2024-11": "2024-11-30", "2025-04": "2025-04-30", "2025-06": "2025-06-30",
            "2025-09": "2025-09-30", "2025-11": "2025-11-30", "2026-04": "2026-04-30",
            "2026-06": "2026-06-30"}
    assert charts["overdue_five_year"] == [
        {"month": m, "month_end": ends.get(m, f"{m}-31"), "overdue": int(m in overdue)}
        for m in _months()]
    assert len(overdue) == 13


def test_the_open_matters_and_the_map_are_the_hand_worked_ones(
        figures: dict[str, Any]) -> None:
    gorham = {"sbl": "20-1-1", "municipality": GORHAM, "site_address": "20 Lake Road",
              "section": "§ 202-5 C (unconfirmed)", "inspection": "2026-06-30"}
    assert figures["open_matters"] == [
        # 10-1-4's and 20-1-1's deadlines were typed into their cases, but no notice of
        # violation was served on either (10-1-4 got a pump-out request; Gorham's law is an
        # example, under which nothing is issued): no notice is past its deadline
        # (tests/letters/test_served_deadlines.py follows served notices).
        # 20-1-1 failed on 2026-06-30 (its 2024-01-01 inspection was incomplete, not a
        # failure). Under Gorham's law the failure's section (system_in_failure).
        {**gorham, "matter": "failure found; no later inspection has found it corrected",
         "since": "2026-06-30"},
        # 20-1-3 failed on 2025-09-15 and again on 2026-02-10: failed since the first
        {**gorham, "sbl": "20-1-3", "inspection": "2026-02-10",
         "matter": "failure found; no later inspection has found it corrected",
         "since": "2025-09-15"},
        # not 10-1-2 (corrected 2024-09-12), 10-1-3 (a late ETU report but no notice),
        # 10-1-5 (failed after the period), 30-1-1 (not judged)
    ]
    # the latest inspection of the period of each parcel: 10-1-1 and 10-1-3 (its second)
    # at their parcels' points, 10-1-2 at its absorption area's centre; the others have
    # neither
    assert [(p["sbl"], p["outcome"], p["date"], p["longitude"], round(p["latitude"], 6))
            for p in figures["map"]] == [
        ("10-1-1", "substandard", "2024-04-15", -77.31, 42.81),
        ("10-1-2", "acceptable", "2024-09-12", -77.3, 42.8001),
        ("10-1-3", "substandard", "2025-07-08", -77.32, 42.82)]
    assert figures["map_without_location"] == ["10-1-4", "20-1-1", "20-1-2", "20-1-3",
                                               "30-1-1"]


def test_a_report_on_one_municipality_counts_its_parcels_alone(program: Program) -> None:
    figures = program_report(program.ws, START, END, municipalities=[" town of GORHAM"]).figures
    assert figures["municipalities"] == [GORHAM]
    assert figures["by_municipality"] == {GORHAM: GORHAM_FIGURES}
    assert figures["totals"] == GORHAM_FIGURES
    assert [m["sbl"] for m in figures["open_matters"]] == ["20-1-1", "20-1-3"]
    assert figures["charts"]["failure_rate"] == {
        "within_200ft": {"inspections": 0, "failures": 0, "percent": None},
        # 20-1-1 twice (failed on 2026-06-30), 20-1-3 twice (failed both times)
        "beyond_200ft": {"inspections": 4, "failures": 3, "percent": 75.0}}
    # 10-1-6 is Canandaigua's: nothing overdue in Gorham
    assert {m["overdue"] for m in figures["charts"]["overdue_five_year"]} == {0}


def test_a_shorter_period_counts_its_own_days(program: Program) -> None:
    # 2024-01-02..2024-09-11: the day after 20-1-1's incomplete inspection to the day
    # before 10-1-2's correction
    figures = program_report(program.ws, date(2024, 1, 2), date(2024, 9, 11)).figures
    totals = figures["totals"]
    assert totals["inspections"] == 3  # 10-1-3, 10-1-1, 30-1-1
    assert totals["by_outcome"] == _zeros(OUTCOMES, acceptable=1, substandard=1,
                                          not_judged=1)
    # 10-1-2's 2021 failure is its latest inspection by 2024-09-11
    assert totals["failures"] == {"found": 0, "corrected": 0, "systems_in_failure_at_end": 1}
    # due in it: 10-1-1 (2024-02-12) alone, inspected late on 2024-04-15; 10-1-5 never
    # inspected; and outside the cycle's counts, Gorham's 20-1-2 (zone undetermined), first
    # inspected 2025-03-03, never inspected by 2024-09-11
    assert totals["five_year"] == dict(zip(FIVE_YEAR, (5, 1, 0, 1, 0, 0, 1, 1), strict=True))
    # the same count on record, with 20-1-3 (beyond, first inspected 2025-09-15)
    assert totals["systems_on_record"]["never_inspected_at_end"] == {
        "parcels": 3, "within_200ft": 1, "beyond_200ft": 1, "undetermined": 1,
        "not_judged": 0}
    # on 2024-09-11 10-1-2's 2021 failure stands, with no notice; 10-1-4's latest by then
    # (2022) found nothing standing, so its notice (recorded 2025) is no open matter
    assert [(m["sbl"], m["since"]) for m in figures["open_matters"]] == [
        ("10-1-2", "2021-03-01")]
    # ETUs and holding tanks of the latest inspections by 2024-09-11, judged on what is
    # dated up to it: 10-1-3's ETU inspections are 2024-01-10 alone, due again 2024-07-10
    # (overdue); 20-1-2 was first inspected 2025-03-03. 10-1-4's holding tank (its 2022
    # inspection) has the 2024-05-01 pump-out's record and nothing later yet; 30-1-1's is
    # not judged.
    assert totals["etu"] == {"units": 1, "compliant": 0, "not_judged": 0}
    assert totals["holding_tanks"] == {"units": 2, "compliant": 1, "not_judged": 1}
    # the last month ends with the period
    assert figures["charts"]["overdue_five_year"][-1] == {
        "month": "2024-09", "month_end": "2024-09-11", "overdue": 0}
    assert len(figures["charts"]["inspections_per_month"]) == 9
    # a letter dated the period's first or last day counts: 10-1-2's of 2021-03-05 and
    # 10-1-4's of 2025-06-15 (not 10-1-5's of 2026-07-02)
    letters = program_report(program.ws, date(2021, 3, 5), date(2025, 6, 15)).figures[
        "totals"]["letters_issued"]
    # (10-1-4's 2025-06-15 letter is in force at the period's end: its correction is dated
    # 2025-06-20)
    assert letters == _zeros((*LETTER_KINDS, "corrections", "replaced"), report_of_findings=1,
                             pump_out_request=1)


def test_a_failure_is_corrected_by_the_next_inspection_with_a_finding_that_finds_none(
        tmp_path: Path) -> None:
    clock = TickingClock(datetime(2023, 1, 1, tzinfo=UTC))
    with Workspace(tmp_path / "data", user="k.olmsted", clock=clock) as ws:
        for n, (sbl, day, found) in enumerate(sorted((
                # failed; then incomplete (passed over); then acceptable: corrected
                ("70-1-1", "2023-05-01", "failed"), ("70-1-1", "2024-03-01", "not_located"),
                ("70-1-1", "2024-06-01", "acceptable"),
                # failed; then substandard (no failure): corrected
                ("70-1-2", "2023-06-01", "failed"), ("70-1-2", "2024-04-01", "substandard"),
                # failed twice in the year: found twice, not corrected, in failure at the end
                ("70-1-3", "2024-02-01", "failed"), ("70-1-3", "2024-08-01", "failed")),
                key=lambda x: x[1])):
            clock.day(date.fromisoformat(day))
            path = tmp_path / f"case-{n}.json"
            path.write_text(json.dumps(case_doc(sbl, CANANDAIGUA, day, "complaint",
                                                [("septic_tank", "acceptable"),
                                                 ("distribution_box", found)],
                                                distance_ft=250)), "utf-8")
            ws.import_case_file(path)
        clock.day(TODAY)
        totals = program_report(ws, date(2024, 1, 1), date(2024, 12, 31)).figures["totals"]
    assert totals["failures"] == {"found": 2, "corrected": 2, "systems_in_failure_at_end": 1}
    assert totals["by_outcome"] == _zeros(OUTCOMES, acceptable=1, substandard=1, failure=2,
                                          incomplete=1)


def test_never_inspected_is_one_count_shown_alike_in_the_five_year_table_and_on_record(
        tmp_path: Path) -> None:
    """Four Canandaigua parcels, the period 2024-01-01..2026-06-30:
      40-1-1  tape 150 ft (within), no inspection on record     -> never inspected, within
      40-1-2  no distance (undetermined), no inspection          -> never inspected, undet.
      40-1-3  no distance (undetermined), inspected 2025-03-01   -> inspected
      40-1-4  tape 120 ft (within), inspected 2024-01-10         -> inspected, due 2029
    The five-year table counts the systems within 200 ft: two, none due, none overdue, one
    never inspected (40-1-1); the undetermined one never inspected (40-1-2) is outside its
    counts and named beside them; the systems on record count the same two."""
    from inspector_app.services.lists.program_report import program_report_pdf
    from tests.letters.test_notice_content import text_of

    clock = TickingClock(datetime(2023, 1, 1, tzinfo=UTC))
    parts = [("septic_tank", "acceptable"), ("absorption_area", "acceptable")]
    with Workspace(tmp_path / "data", user="k.olmsted", clock=clock) as ws:
        for n, (sbl, day, distance) in enumerate((
                ("40-1-1", None, 150), ("40-1-2", None, None),
                ("40-1-4", "2024-01-10", 120), ("40-1-3", "2025-03-01", None))):
            doc = case_doc(sbl, CANANDAIGUA, day or "2023-06-01", "complaint", parts,
                           distance_ft=distance)
            if day is None:
                del doc["inspection"]
            else:
                clock.day(date.fromisoformat(day))
            path = tmp_path / f"case-{n}.json"
            path.write_text(json.dumps(doc), "utf-8")
            ws.import_case_file(path)
        clock.day(TODAY)
        report = program_report(ws, START, END)
        pdf = text_of(program_report_pdf(ws, report))
    totals = report.figures["totals"]
    assert totals["five_year"] == dict(zip(FIVE_YEAR, (2, 0, 0, 0, 0, 0, 1, 1), strict=True))
    assert totals["systems_on_record"] == {
        "parcels": 4, "within_200ft": 2, "beyond_200ft": 0, "undetermined": 2, "not_judged": 0,
        "never_inspected_at_end": {"parcels": 2, "within_200ft": 1, "beyond_200ft": 0,
                                   "undetermined": 1, "not_judged": 0}}
    assert "Systems within 200 ft never inspected by the period's end 1" in pdf
    assert ("Not in these counts: lake zone undetermined, never inspected (see Systems on "
            "record) 1") in pdf
    assert "Of these, never inspected" not in pdf


# --- the same figures by a simple path of their own ----------------------------------------

def _found(doc: dict[str, Any]) -> str:
    """The contract's rule for the outcome, from a case file's components and evidence."""
    if doc["parcel"]["municipality"] == SOUTH_BRISTOL:
        return "not_judged"
    conditions = {c["condition"] for c in doc["components"]}
    if "failed" in conditions or doc["inspection"]["failure_evidence"]:
        return "failure"
    if "substandard" in conditions:
        return "substandard"
    if "not_located" in conditions:
        return "incomplete"
    return "acceptable"


def test_the_counts_equal_plain_sql_and_the_case_files_written(
        program: Program, figures: dict[str, Any]) -> None:
    period = (START.isoformat(), END.isoformat())
    rows = program.ws.store.query(
        "SELECT p.municipality, i.reason, count(*) AS n FROM inspections i JOIN parcels p ON "
        "p.id = i.parcel_id WHERE i.deleted_at IS NULL AND p.deleted_at IS NULL AND i.date "
        "BETWEEN ? AND ? GROUP BY p.municipality, i.reason", period)
    towns = [CANANDAIGUA, GORHAM, SOUTH_BRISTOL]
    by_reason = {t: Counter({r["reason"]: r["n"] for r in rows if r["municipality"] == t})
                 for t in towns}
    by_reason[TOTAL] = sum(by_reason.values(), Counter())
    # by kind, each letter of the period not replaced by a correction dated by its end
    replaced_by_end = ("EXISTS (SELECT 1 FROM letters c WHERE c.replaces_letter_id = l.id AND "
                       "c.status = 'issued' AND c.letter_date <= ?2)")
    letters = {r["kind"]: r["n"] for r in program.ws.store.query(
        "SELECT kind, count(*) AS n FROM letters l WHERE status = 'issued' AND deleted_at IS "
        f"NULL AND letter_date BETWEEN ?1 AND ?2 AND NOT {replaced_by_end} GROUP BY kind",
        period)}
    corrections = program.ws.store.query(
        "SELECT count(*) AS n FROM letters l WHERE status = 'issued' AND deleted_at IS NULL "
        "AND replaces_letter_id IS NOT NULL AND letter_date BETWEEN ?1 AND ?2 AND NOT "
        f"{replaced_by_end}", period)[0]["n"]
    replaced = program.ws.store.query(
        "SELECT count(*) AS n FROM letters l WHERE status = 'issued' AND deleted_at IS NULL "
        f"AND letter_date BETWEEN ?1 AND ?2 AND {replaced_by_end}", period)[0]["n"]
    # each inspection found what the last file imported for it says (a file for the same
    # parcel and day edits that inspection's record)
    last_file: dict[tuple[str, str], dict[str, Any]] = {}
    for doc in program.files:
        last_file[(doc["parcel"]["sbl"], doc["inspection"]["date"])] = doc
    outcomes: dict[str, Counter[str]] = {t: Counter() for t in [*towns, TOTAL]}
    for (_, day), doc in last_file.items():
        if period[0] <= day <= period[1]:
            outcomes[doc["parcel"]["municipality"]][_found(doc)] += 1
            outcomes[TOTAL][_found(doc)] += 1
    groups = {**figures["by_municipality"], TOTAL: figures["totals"]}
    for name, group in groups.items():
        assert group["by_reason"] == {k: by_reason[name][k] for k in REASONS}, name
        assert group["inspections"] == sum(by_reason[name].values()), name
        assert group["by_outcome"] == {k: outcomes[name][k] for k in OUTCOMES}, name
    assert figures["totals"]["letters_issued"] == {
        **{k: letters.get(k, 0) for k in LETTER_KINDS}, "corrections": corrections,
        "replaced": replaced}
    assert (sum(letters.values()), corrections, replaced, len(program.letters)) == (1, 1, 1, 4)


# --- bad input --------------------------------------------------------------------------------

def _state(ws: Workspace) -> tuple[str, int]:
    digest = hashlib.sha256()
    for path in (ws.folder.database, ws.folder.database.with_name(
            ws.folder.database.name + "-wal")):
        if path.exists():
            digest.update(path.read_bytes())
    seq = ws.store.query("SELECT max(seq) AS seq FROM change_log")[0]["seq"]
    return digest.hexdigest(), int(seq)


@pytest.mark.parametrize(("start", "end", "towns", "message"), [
    (date(2026, 7, 1), END, None,
     "--from 2026-07-01 is after --to 2026-06-30; give the period's first day first."),
    (START, date(2026, 11, 26), None,
     "--to 2026-11-26 is after today (2026-11-25)"),
    (START, END, [GORHAM, "Town of Nowhere"],
     "--municipality 'Town of Nowhere' has no parcel on record; the municipalities on record "
     "are: Town of Canandaigua, Town of Gorham, Town of South Bristol."),
])
def test_bad_input_is_refused_naming_the_option_and_writes_nothing(
        program: Program, start: date, end: date, towns: list[str] | None,
        message: str) -> None:
    before = _state(program.ws)
    with pytest.raises(InputError) as refused:
        program_report(program.ws, start, end, municipalities=towns)
    assert message in str(refused.value)
    assert _state(program.ws) == before
    # the last day the report can cover is today
    assert program.ws.today() == TODAY


# --- the parcel's own row, as it stood -------------------------------------------------------

def test_an_inspection_is_judged_under_the_municipality_on_record_when_it_was_made(
        tmp_path: Path) -> None:
    """An inspection counts with the record as it stood just before the parcel's next
    inspection was recorded, the parcel's own row (municipality, address, point) included:
    a parcel on record in the Town of South Bristol (no law on file) inspected on 2024-05-01
    and found failed, whose next file (2025-05-01) places it in the Town of Canandaigua,
    counts in 2024 as not judged, at its 2024 point; not as a failure under Canandaigua's
    law (so it counted while `save_case` wrote the parcel's row before the new inspection's).
    """
    clock = TickingClock(datetime(2024, 1, 1, tzinfo=UTC))
    with Workspace(tmp_path / "data", user="k.olmsted", clock=clock) as ws:
        for n, (town, day, condition, point) in enumerate((
                (SOUTH_BRISTOL, "2024-05-01", "failed", (-77.31, 42.81)),
                (CANANDAIGUA, "2025-05-01", "acceptable", (-77.35, 42.75)))):
            clock.day(date.fromisoformat(day))
            path = tmp_path / f"case-{n}.json"
            path.write_text(json.dumps(case_doc("40-1-1", town, day, "complaint",
                                                [("septic_tank", condition)],
                                                distance_ft=150, point=point)), "utf-8")
            ws.import_case_file(path)
        clock.day(TODAY)
        figures = program_report(ws, date(2024, 1, 1), date(2024, 12, 31)).figures
    assert figures["totals"]["by_outcome"] == _zeros(OUTCOMES, not_judged=1)
    assert [(p["longitude"], p["latitude"]) for p in figures["map"]] == [(-77.31, 42.81)]


def test_a_five_year_due_date_on_a_weekend_moves_to_the_next_business_day(
        program: Program) -> None:
    # 10-1-1's last inspection, 2024-04-15, falls due again five years on: Sunday,
    # 2029-04-15, so Monday, 2029-04-16 (GCL § 25-a), worked out by hand. On the 16th it is
    # due that day, not yet overdue; on the 17th it is. 10-1-6 (due 2025-08-01) is overdue
    # throughout; 10-1-2 (2029-09-12), 10-1-4 (2030-06-10) and 10-1-5 (2031-07-01) are not
    # yet due.
    def overdue(end: date) -> int:
        figures = program_report(program.ws, date(2029, 4, 1), end,
                                 municipalities=[CANANDAIGUA], as_of=date(2029, 4, 20)).figures
        assert figures["totals"]["five_year"]["due_in_period"] == 1  # 10-1-1
        return int(figures["totals"]["five_year"]["overdue_at_end"])

    assert overdue(date(2029, 4, 16)) == 1
    assert overdue(date(2029, 4, 17)) == 2
