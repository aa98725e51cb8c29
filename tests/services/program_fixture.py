"""A small inspection program, recorded as an office records it: case files imported one
after another on the days they came in (the clock moves on to each day and ticks with every
write), letters issued on their days, and a second town whose law is on file besides the
Town of Canandaigua (the Town of Gorham, under the test-only example law of
`tests/services/test_laws.py`) and one without (the Town of South Bristol).

The parcels, their inspections and what each found (the law's setback is 200 ft):

  10-1-1  Canandaigua, tape 150 ft (within), the parcel's point on record
          2019-02-10 five_year_cycle  acceptable
          2024-04-15 five_year_cycle  substandard (septic tank)
  10-1-2  Canandaigua, tape 120 ft (within), an absorption area drawn
          2021-03-01 complaint        failure (absorption area failed, breakout)
                                      letter report_of_findings 2021-03-05
          2024-09-12 ahj_order        acceptable (the failure corrected)
  10-1-3  Canandaigua, an ETU, the parcel's point on record
          2024-02-20 conveyance       acceptable, tape 190 ft (within); no service
                                      contract (a violation)
          2025-07-08 etu_follow_up    substandard (ETU), measured again: tape 250 ft
                                      (beyond); contract now, the 2025-07-01
                                      report late (received 2025-07-30)
  10-1-4  Canandaigua, tape 90 ft (within), a holding tank
          2019-06-01 five_year_cycle  acceptable
          2022-05-01 five_year_cycle  acceptable (early: the 2019 cycle renewed)
          2025-06-10 five_year_cycle  acceptable; the 2025-05-01 pump-out's record missing;
                                      notice: permit by 2025-09-01, complete by 2025-12-01
                                      letter pump_out_request 2025-06-15, corrected
                                      by another 2025-06-20
  10-1-5  Canandaigua, tape 180 ft (within)
          2026-07-01 complaint        failure (septic tank failed)
                                      letter report_of_findings 2026-07-02
  10-1-6  Canandaigua, tape 200 ft (exactly the setback: within)
          2020-08-01 five_year_cycle  acceptable
  20-1-1  Gorham, tape 300 ft (beyond)
          2023-11-30 five_year_cycle  acceptable
          2024-01-01 complaint        incomplete (distribution box not located)
          2026-06-30 other            failure (septic tank failed); notice: permit by
                                      2026-05-01, complete by 2026-06-30
  20-1-2  Gorham, no distance (undetermined), an ETU
          2025-03-03 expansion        acceptable; contract, reports on time; two later ETU
                                      inspections recorded on 2026-08-10 (2026-02-15 and
                                      2026-08-01) without a new inspection
  20-1-3  Gorham, tape 350 ft (beyond)
          2025-09-15 complaint        failure (on the evidence alone: effluent on the lawn)
          2026-02-10 ahj_order        failure (absorption area failed)
  30-1-1  South Bristol (no law on file), tape 100 ft, a holding tank
          2024-08-08 five_year_cycle  not judged (septic tank recorded failed)
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

from inspector_app.services.letters import register as letters
from inspector_app.services.session.laws import install_jurisdiction
from inspector_app.services.workspace import Workspace
from tests.attesting import attest_report
from tests.services.test_laws import example_law

CANANDAIGUA, GORHAM, SOUTH_BRISTOL = "Town of Canandaigua", "Town of Gorham", \
    "Town of South Bristol"
TODAY = date(2026, 11, 25)
ABSORPTION_AREA = {"type": "Polygon", "coordinates": [
    [[-77.3001, 42.8], [-77.2999, 42.8], [-77.2999, 42.8002], [-77.3001, 42.8002],
     [-77.3001, 42.8]]]}


class TickingClock:
    """The office's clock: set to the day a file comes in (never back), and a second later
    at every reading, so every transaction has its own time."""

    def __init__(self, start: datetime) -> None:
        self.now = start

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=1)
        return self.now

    def day(self, day: date) -> None:
        moment = datetime(day.year, day.month, day.day, 14, 0, tzinfo=UTC)
        assert moment >= self.now, "the office's clock only moves on"
        self.now = moment


def case_doc(sbl: str, town: str, day: str, reason: str,
             components: list[tuple[str, str]], *, distance_ft: float | None = None,
             evidence: tuple[str, ...] = (), etu: dict[str, Any] | None = None,
             tank: dict[str, Any] | None = None, notice: dict[str, Any] | None = None,
             absorption_area: dict[str, Any] | None = None,
             point: tuple[float, float] | None = None) -> dict[str, Any]:
    parcel: dict[str, Any] = {
        "sbl": sbl, "municipality": town, "site_address": f"{sbl.split('-')[0]} Lake Road",
        "owner_name": f"Owner of {sbl}", "owner_mailing_address": ["1 Main Street",
                                                                   "Canandaigua, NY 14424"]}
    if point is not None:
        parcel["longitude"], parcel["latitude"] = point
    doc: dict[str, Any] = {
        "format": "watershed-inspector/case/1", "parcel": parcel,
        "dwelling": {"bedrooms": 3, "living_area_sqft": 1800, "ahj_design_bedrooms": None},
        "components": [{"kind": kind, "condition": condition,
                        "defects": ["worn through"] if condition in ("substandard", "failed")
                        else []} for kind, condition in components],
        "inspection": {"date": day, "inspector": "A. Inspector", "reason": reason,
                       "failure_evidence": list(evidence)}}
    if distance_ft is not None or absorption_area is not None:
        doc["site"] = {"absorption_area": absorption_area, "holding_tank": None,
                       "lake_distance_ft": distance_ft,
                       "lake_distance_method": None if distance_ft is None else "tape"}
    for key, value in (("etu", etu), ("holding_tank_service", tank), ("notice", notice)):
        if value is not None:
            doc[key] = value
    return doc


@dataclass
class Program:
    ws: Workspace
    clock: TickingClock
    # every case file imported, in the order imported
    files: list[dict[str, Any]] = field(default_factory=list)
    letters: list[letters.IssuedLetter] = field(default_factory=list)


def _etu(contract: bool, months: int, *reports: tuple[str, str]) -> dict[str, Any]:
    return {"service_contract": contract, "manufacturer_interval_months": months,
            "inspections": [{"date": d, "report_received": r} for d, r in reports]}


def build_program(root: Path) -> Program:
    data = root / "data"
    install_jurisdiction(data, example_law(root / "gorham.toml"))
    clock = TickingClock(datetime(2019, 1, 1, tzinfo=UTC))
    ws = Workspace(data, user="k.olmsted", clock=clock)
    program = Program(ws, clock)

    def bring(doc: dict[str, Any], on: str | None = None) -> None:
        clock.day(date.fromisoformat(on or doc["inspection"]["date"]))
        path = root / f"case-{len(program.files) + 1}.json"
        path.write_text(json.dumps(doc), "utf-8")
        ws.import_case_file(path)
        program.files.append(doc)

    def issue(sbl: str, kind: str, on: str) -> None:
        day = date.fromisoformat(on)
        clock.day(day)
        if kind == "report_of_findings":
            attest_report(ws, sbl, on=day)
        program.letters.extend(letters.issue(ws, sbl, [kind], as_of=day))

    c, g, s = CANANDAIGUA, GORHAM, SOUTH_BRISTOL
    tank_ok = [("septic_tank", "acceptable"), ("absorption_area", "acceptable")]
    bring(case_doc("10-1-1", c, "2019-02-10", "five_year_cycle", tank_ok, distance_ft=150,
                   point=(-77.31, 42.81)))
    bring(case_doc("10-1-4", c, "2019-06-01", "five_year_cycle", [("holding_tank", "acceptable")],
                   distance_ft=90, tank={"hauler_contract": True, "pump_outs": []}))
    bring(case_doc("10-1-6", c, "2020-08-01", "five_year_cycle",
                   [("septic_tank", "acceptable"), ("distribution_box", "acceptable")],
                   distance_ft=200))
    bring(case_doc("10-1-2", c, "2021-03-01", "complaint",
                   [("septic_tank", "acceptable"), ("absorption_area", "failed")],
                   distance_ft=120, evidence=("surface breakout",),
                   absorption_area=ABSORPTION_AREA))
    issue("10-1-2", "report_of_findings", "2021-03-05")
    bring(case_doc("10-1-4", c, "2022-05-01", "five_year_cycle", [("holding_tank", "acceptable")],
                   distance_ft=90, tank={"hauler_contract": True, "pump_outs": []}))
    bring(case_doc("20-1-1", g, "2023-11-30", "five_year_cycle",
                   [("septic_tank", "acceptable"), ("distribution_box", "acceptable")],
                   distance_ft=300))
    bring(case_doc("20-1-1", g, "2024-01-01", "complaint",
                   [("septic_tank", "acceptable"), ("distribution_box", "not_located")],
                   distance_ft=300))
    etu_parts = [("septic_tank", "acceptable"), ("enhanced_treatment_unit", "acceptable")]
    bring(case_doc("10-1-3", c, "2024-02-20", "conveyance", etu_parts, distance_ft=190,
                   etu=_etu(False, 6, ("2024-01-10", "2024-01-15")), point=(-77.32, 42.82)))
    bring(case_doc("10-1-1", c, "2024-04-15", "five_year_cycle",
                   [("septic_tank", "substandard"), ("absorption_area", "acceptable")],
                   distance_ft=150, point=(-77.31, 42.81)))
    bring(case_doc("30-1-1", s, "2024-08-08", "five_year_cycle",
                   [("septic_tank", "failed"), ("holding_tank", "acceptable")],
                   distance_ft=100, tank={"hauler_contract": True, "pump_outs": []}))
    bring(case_doc("10-1-2", c, "2024-09-12", "ahj_order",
                   [("septic_tank", "acceptable"), ("absorption_area", "acceptable")],
                   distance_ft=120, absorption_area=ABSORPTION_AREA))
    g_etu = etu_parts
    bring(case_doc("20-1-2", g, "2025-03-03", "expansion", g_etu,
                   etu=_etu(True, 12, ("2025-02-01", "2025-02-05"))))
    bring(case_doc("10-1-4", c, "2025-06-10", "five_year_cycle", [("holding_tank", "acceptable")],
                   distance_ft=90, tank={"hauler_contract": True, "pump_outs": [
                       {"date": "2024-05-01", "record_received": True},
                       {"date": "2025-05-01", "record_received": False}]},
                   notice={"permit_by": "2025-09-01", "complete_by": "2025-12-01"}))
    issue("10-1-4", "pump_out_request", "2025-06-15")
    # the letter corrected (its recipient's address, say): a letter of the same kind
    clock.day(date(2025, 6, 20))
    program.letters.extend(letters.issue(ws, "10-1-4", ["pump_out_request"],
                                         as_of=date(2025, 6, 20),
                                         replaces=program.letters[-1].id))
    # the ETU's report came in late: the inspector records the follow-up once it is in
    bring(case_doc("10-1-3", c, "2025-07-08", "etu_follow_up",
                   [("septic_tank", "acceptable"), ("enhanced_treatment_unit", "substandard")],
                   distance_ft=250, etu=_etu(True, 6, ("2024-01-10", "2024-01-15"),
                                             ("2025-07-01", "2025-07-30")),
                   point=(-77.32, 42.82)),
          on="2025-07-31")
    bring(case_doc("20-1-3", g, "2025-09-15", "complaint", tank_ok, distance_ft=350,
                   evidence=("effluent on the lawn",)))
    bring(case_doc("20-1-3", g, "2026-02-10", "ahj_order",
                   [("septic_tank", "acceptable"), ("absorption_area", "failed")],
                   distance_ft=350))
    bring(case_doc("20-1-1", g, "2026-06-30", "other",
                   [("septic_tank", "failed"), ("distribution_box", "acceptable")],
                   distance_ft=300, notice={"permit_by": "2026-05-01", "complete_by": "2026-06-30"}))
    bring(case_doc("10-1-5", c, "2026-07-01", "complaint", [("septic_tank", "failed")],
                   distance_ft=180))
    issue("10-1-5", "report_of_findings", "2026-07-02")
    # the same inspection's file again, with the ETU inspections since: an edit of the
    # record, no new inspection
    bring(case_doc("20-1-2", g, "2025-03-03", "expansion", g_etu,
                   etu=_etu(True, 12, ("2025-02-01", "2025-02-05"), ("2026-02-15", "2026-02-20"),
                            ("2026-08-01", "2026-08-05"))), on="2026-08-10")
    clock.day(TODAY)
    return program
