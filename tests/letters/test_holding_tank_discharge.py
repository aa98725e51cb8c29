"""A holding tank discharging sewage (§ 202-8 B: "At no time will sewage discharge from the
tank to the surface, ground, or surface water be allowed"): a violation the notice asks to
be stopped at once, the tank pumped, and the pump-out record sent by a date of its own;
no building permit and no repair date unless a failure calls for them. Hand-worked on the
demo's holding tank parcel 900.01-1-9 (a 2000-gal tank, acceptable, inspected 2026-04-29,
the record of its 2026-09-22 pump-out missing), with letters dated Friday, December 4,
2026."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest

from inspector_app.documents.content import pump_out_by
from inspector_app.domain.case import Case, Observations
from inspector_app.domain.jurisdiction import JurisdictionError, parse_jurisdiction
from inspector_app.domain.vocabulary import Condition
from inspector_app.paths import resource
from inspector_app.services.letters import register as letters
from inspector_app.services.letters.service import serve
from inspector_app.services.lists.program_report import program_report
from inspector_app.services.lists.worklists import worklists
from inspector_app.services.workspace import Workspace
from tests.domain.builders import case
from tests.letters.test_letter_statements import text_of
from tests.letters.test_served_deadlines import _build
from tests.templates import Templates

DEMO_DAY = date(2026, 12, 4)  # a Friday
TANK = "900.01-1-9"
WHERE = "to the ground from the overflow pipe"
BUNDLED = resource("jurisdictions", "town-of-canandaigua-ch202.toml")


@pytest.fixture
def demo(templates: Templates, tmp_path: Path) -> Iterator[Workspace]:
    # the same folder test_served_deadlines builds (the same demo, the same day)
    ws = Workspace(templates.copy("served-demo", _build, tmp_path / "data"), user="k.olmsted")
    yield ws
    ws.close()


def _edit(ws: Workspace, sbl: str, change: object) -> Case:
    parcel_id, before, _ = ws.open_for_edit(sbl)
    after = change(before)  # type: ignore[operator]
    ws.save_edit(parcel_id, before, after, today=DEMO_DAY)
    return after


def _discharging(case: Case, *where: str) -> Case:
    return replace(case, observations=Observations(holding_tank_discharges=where or (WHERE,)))


def _past(ws: Workspace, day: date) -> dict[str, list[dict[str, str]]]:
    items = worklists(ws, as_of=day, names=("notices-past-deadline",))["notices-past-deadline"]
    return {i["sbl"]: i["deadlines_passed"] for i in items}


def test_the_evaluation_gives_the_violation_with_its_section(demo: Workspace) -> None:
    before = demo.evaluate_parcel(TANK, as_of=DEMO_DAY)
    assert "holding_tank_discharging" not in {f.code for f in before.violations}
    _edit(demo, TANK, _discharging)
    e = demo.evaluate_parcel(TANK, as_of=DEMO_DAY)
    (found,) = [f for f in e.violations if f.code == "holding_tank_discharging"]
    assert found.citation == "§ 202-8 B (unconfirmed)"  # the section number is inferred
    assert found.detail == f"sewage discharging from the holding tank: {WHERE}"
    assert found.since == date(2026, 4, 29)  # seen at the inspection
    # the tank itself was recorded acceptable: no failure, a notice all the same
    assert e.outcome.value == "acceptable"
    assert [k.value for k in e.letters] == ["notice_of_violation"]


def test_the_notice_asks_for_immediate_action_and_no_permit_or_repair(
        demo: Workspace) -> None:
    _edit(demo, TANK, _discharging)
    draft = text_of(letters.draft_pdf(demo, TANK, "notice_of_violation", as_of=DEMO_DAY))
    # 2 days from Friday, December 4, 2026 is Sunday the 6th: Monday, December 7 (§ 25-a)
    assert ("within 2 days of the date of this notice, by December 7, 2026 (unconfirmed)"
            in draft)
    (nov,) = letters.issue(demo, TANK, ["notice_of_violation"], as_of=DEMO_DAY)
    text = text_of(letters.stored_pdf(demo, nov.id))
    # the section number is inferred: an issued letter cites it marked so, with the subject
    cited = "§ 202-8 B [Chapter 202, holding tanks; section number unconfirmed]"
    assert "§ 202-8 B (" not in text
    assert f"{cited}: Sewage is discharging from the holding tank: {WHERE}" in text
    assert ("at no time will sewage discharge from the tank to the surface, ground, or "
            f"surface water be allowed ({cited}). Immediately stop the discharge: have the "
            "tank pumped at once by a NYSDEC-permitted septage waste transporter") in text
    # the days are the office's practice, not the law's: asked as its request when issued
    assert ("This office asks that the transporter send it the record of that pump-out "
            "within 2 days of the date of this notice, by December 7, 2026.") in text
    assert "(unconfirmed)" not in text
    # the first action is the discharge, before the missing record of September 22
    actions = text.split("What you must do.", 1)[1]
    assert actions.index("Immediately stop") < actions.index("2026-09-22 pump-out")
    assert "building permit" not in text and "repair" not in text
    # no 120-day repair (it would be Monday, April 5, 2027) and no 30-day permit date
    assert "April 5, 2027" not in text and "permit by" not in text
    (row,) = letters.register(demo, TANK)
    # the missing record's reply: 30 days from December 4 is Sunday, January 3: the 4th
    assert (row["permit_by"], row["complete_by"], row["pump_out_by"], row["reply_by"]) == (
        None, None, "2026-12-07", "2027-01-04")
    assert row["dates_from"] == "letter"
    assert any("discharge_pump_within_days" in w for w in nov.warnings)


def test_a_failed_tank_that_discharges_gets_the_repair_dates_too(demo: Workspace) -> None:
    def failed(case: Case) -> Case:
        (tank,) = case.components
        return _discharging(replace(case, components=(
            replace(tank, condition=Condition.FAILED, defects=("tank cracked",)),)))

    _edit(demo, TANK, failed)
    (nov,) = letters.issue(demo, TANK, ["notice_of_violation"], as_of=DEMO_DAY)
    text = text_of(letters.stored_pdf(demo, nov.id))
    (row,) = letters.register(demo, TANK)
    # the failure calls for the permit and the repair: 30 days from December 4 is Sunday,
    # January 3, 2027 (the 4th); 120 days is Saturday, April 3 (Monday the 5th)
    assert (row["permit_by"], row["complete_by"], row["pump_out_by"]) == (
        "2027-01-04", "2027-04-05", "2026-12-07")
    assert "by January 4, 2027" in text and "by April 5, 2027" in text
    # one immediate line (the discharge's, naming where), not also the failed tank's
    assert text.count("Immediately stop") == 1 and "The holding tank is in failure" not in text
    actions = text.split("What you must do.", 1)[1]
    assert actions.index("Immediately stop") < actions.index("Obtain a building permit")


def test_follow_up_reads_the_pump_out_date_served(demo: Workspace) -> None:
    _edit(demo, TANK, _discharging)
    (nov,) = letters.issue(demo, TANK, ["notice_of_violation"], as_of=DEMO_DAY)
    serve(demo, nov.id, method="hand_delivery", on=DEMO_DAY, to="Daniel Okafor")
    assert TANK not in _past(demo, date(2026, 12, 7))  # past the day after it
    assert _past(demo, date(2026, 12, 8))[TANK] == [
        {"deadline": "pump_out_by", "date": "2026-12-07", "letter_id": nov.id,
         "letter_date": "2026-12-04", "service": "delivered"}]
    report = program_report(demo, date(2026, 12, 1), date(2026, 12, 31),
                            as_of=date(2027, 1, 2)).figures
    assert [(m["matter"], m["section"]) for m in report["open_matters"]
            if m["sbl"] == TANK] == [
        ("notice past its deadline (pump-out record by 2026-12-07)", "§ 202-8 B (unconfirmed)")]
    # the discharge no longer recorded (the tank pumped, seen dry): the date is moot, though
    # the missing record of September 22 still stands
    _edit(demo, TANK, lambda c: replace(c, observations=None))
    assert demo.evaluate_parcel(TANK, as_of=date(2026, 12, 8)).violations
    assert TANK not in _past(demo, date(2026, 12, 8))


def test_a_file_without_the_days_asks_for_the_record_by_the_notice_s_date() -> None:
    text = BUNDLED.read_text("utf-8")
    assert "discharge_pump_within_days = 2\n" in text
    law = parse_jurisdiction(text.replace("discharge_pump_within_days = 2\n", ""),
                                 source="older.toml")
    assert law.holding_tank_discharge_pump_within_days == 0
    seen = replace(case(), observations=Observations(holding_tank_discharges=(WHERE,)))
    # a notice dated Saturday, April 3, 2027: the record by Monday, April 5
    assert pump_out_by(seen, law, date(2027, 4, 3)) == date(2027, 4, 5)
    assert pump_out_by(replace(seen, observations=Observations()), law,
                       date(2027, 4, 3)) is None
    with pytest.raises(JurisdictionError, match=r"discharge_pump_within_days is 31"):
        parse_jurisdiction(text.replace("discharge_pump_within_days = 2",
                                            "discharge_pump_within_days = 31"),
                               source="bad.toml")


def test_the_case_file_carries_the_discharge_only_where_one_is_recorded(
        full_case: dict) -> None:
    from inspector_app.casefile import CaseFileError, parse_document, to_document

    assert "holding_tank_discharges" not in full_case["observations"]
    plain = parse_document(full_case, source="case.json", today=DEMO_DAY)
    assert plain.observations is not None and plain.observations.holding_tank_discharges == ()
    # none recorded: the file written is the plain version-1 file it was read from
    assert "holding_tank_discharges" not in to_document(plain)["observations"]
    full_case["observations"]["holding_tank_discharges"] = [WHERE]
    seen = parse_document(full_case, source="case.json", today=DEMO_DAY)
    assert seen.observations is not None
    assert seen.observations.holding_tank_discharges == (WHERE,)
    assert to_document(seen)["observations"]["holding_tank_discharges"] == [WHERE]
    full_case["observations"]["holding_tank_discharges"] = ["  "]
    with pytest.raises(CaseFileError, match=r"observations\.holding_tank_discharges"):
        parse_document(full_case, source="case.json", today=DEMO_DAY)
