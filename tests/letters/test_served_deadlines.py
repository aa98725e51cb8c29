"""Follow-up reads what was served: each issued notice keeps the dates it set, a
correction's replace the corrected letter's, and nothing never served is past due.
Hand-worked on the demo parcels."""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Iterator
from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest

from inspector_app.documents.content import LetterRefused
from inspector_app.domain.case import NoticeDeadlines
from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.letters import register as letters
from inspector_app.services.lists.program_report import program_report
from inspector_app.services.lists.worklists import worklists
from inspector_app.services.workspace import Workspace
from tests.letters.test_letter_statements import text_of
from tests.suggestions import decide_pending
from tests.templates import Templates

DEMO_DAY = date(2026, 12, 4)  # the demo types deadlines 45 and 165 days on
UNSERVED = "900.01-1-20"   # a failure with deadlines typed into the case, no letter
ENCROACHED = "900.01-1-10"  # driveway and shed on the absorption area, clear water: NOV
FAILED = "900.01-1-7"       # a failure; deadlines typed in: January 18 and May 18, 2027
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def _build(folder: Path) -> None:
    ws = Workspace(folder, user="k.olmsted")
    install_demo(ws, today=DEMO_DAY)
    ws.close()


@pytest.fixture
def demo(templates: Templates, tmp_path: Path) -> Iterator[Workspace]:
    ws = Workspace(templates.copy("served-demo", _build, tmp_path / "data"), user="k.olmsted")
    yield ws
    ws.close()


def _past(ws: Workspace, day: date) -> dict[str, list[dict[str, str]]]:
    items = worklists(ws, as_of=day, names=("notices-past-deadline",))["notices-past-deadline"]
    return {i["sbl"]: i["deadlines_passed"] for i in items}


def _set_notice(ws: Workspace, sbl: str, notice: NoticeDeadlines | None) -> None:
    parcel_id, before, _ = ws.open_for_edit(sbl)
    ws.save_edit(parcel_id, before, replace(before, notice=notice), today=DEMO_DAY)


def test_nothing_is_past_due_that_was_never_served(demo: Workspace) -> None:
    assert demo.load_case(UNSERVED).notice is not None  # deadlines typed into the case
    assert letters.register(demo, UNSERVED) == []
    assert UNSERVED not in _past(demo, date(2027, 6, 1))
    report = program_report(demo, date(2027, 1, 1), date(2027, 6, 1),
                            as_of=date(2027, 6, 2)).figures
    assert not [m for m in report["open_matters"]
                if m["sbl"] == UNSERVED and "service" in m]


def test_a_notice_issued_then_corrected_to_a_later_date_is_followed(demo: Workspace) -> None:
    decide_pending(demo, ENCROACHED, as_of=DEMO_DAY)
    (first,) = letters.issue(demo, ENCROACHED, as_of=date(2026, 12, 4))
    # 120 days from December 4, 2026: Saturday April 3, 2027, so Monday April 5
    assert [(r["complete_by"], r["permit_by"]) for r in letters.register(demo, ENCROACHED)] \
        == [("2027-04-05", None)]
    assert "by April 5, 2027" in text_of(letters.stored_pdf(demo, first.id))
    assert ENCROACHED not in _past(demo, date(2027, 4, 5))
    assert _past(demo, date(2027, 4, 6))[ENCROACHED] == [
        {"deadline": "complete_by", "date": "2027-04-05", "letter_id": first.id,
         "letter_date": "2026-12-04", "service": "not_served"}]
    # the office gives until April 19 and corrects the notice
    _set_notice(demo, ENCROACHED, NoticeDeadlines(permit_by=None,
                                                  complete_by=date(2027, 4, 19)))
    (fix,) = letters.issue(demo, ENCROACHED, as_of=date(2026, 12, 20), replaces=first.id)
    listed = {r["id"]: r for r in letters.register(demo, ENCROACHED)}
    assert (listed[first.id]["in_force"], listed[first.id]["replaced_by"]) == (False, fix.id)
    assert (listed[fix.id]["complete_by"], listed[fix.id]["in_force"]) == ("2027-04-19", True)
    assert ENCROACHED not in _past(demo, date(2027, 4, 19))  # the replaced April 5 is gone
    assert _past(demo, date(2027, 6, 1))[ENCROACHED] == [
        {"deadline": "complete_by", "date": "2027-04-19", "letter_id": fix.id,
         "letter_date": "2026-12-20", "service": "not_served"}]
    report = program_report(demo, date(2027, 1, 1), date(2027, 6, 1),
                            as_of=date(2027, 6, 2)).figures
    assert [(m["since"], m["matter"], m["service"]) for m in report["open_matters"]
            if m["sbl"] == ENCROACHED and "service" in m] == [
        ("2027-04-19", "deadline passed; service not shown (work complete by 2027-04-19; the "
         "notice of 2026-12-20: no service recorded)", "not_served")]
    # at the end of March the first notice was the one in force (the correction is dated
    # December 20 too: both were issued by then, so only the correction counts)
    march = program_report(demo, date(2027, 1, 1), date(2027, 3, 31),
                           as_of=date(2027, 6, 2)).figures
    assert not [m for m in march["open_matters"] if m["sbl"] == ENCROACHED
                and "service" in m]


def test_a_correction_keeps_the_corrected_letter_s_default_deadlines(demo: Workspace) -> None:
    decide_pending(demo, ENCROACHED, as_of=DEMO_DAY)
    (first,) = letters.issue(demo, ENCROACHED, as_of=date(2026, 12, 4))
    case = demo.load_case(ENCROACHED)  # the owner's name, corrected
    demo.save_case(replace(case, parcel=replace(case.parcel, owner_name="Ruth Whitaker")),
                   today=date(2026, 12, 20))
    (fix,) = letters.issue(demo, ENCROACHED, as_of=date(2026, 12, 20), replaces=first.id)
    assert fix.changes                                   # what it changes, in words
    listed = {r["id"]: r for r in letters.register(demo, ENCROACHED)}
    # counted afresh from December 20 it would be April 19: it stays April 5
    assert listed[fix.id]["complete_by"] == "2027-04-05"
    text = text_of(letters.stored_pdf(demo, fix.id))
    assert "by April 5, 2027" in text and "April 19, 2027" not in text
    assert demo.load_case(ENCROACHED).notice is None  # nothing was typed into the case


def test_recorded_deadlines_move_off_a_holiday_and_are_kept(demo: Workspace) -> None:
    decide_pending(demo, FAILED, as_of=DEMO_DAY)
    (nov,) = letters.issue(demo, FAILED, ["notice_of_violation"], as_of=DEMO_DAY)
    (row,) = [r for r in letters.register(demo, FAILED) if r["id"] == nov.id]
    # January 18, 2027 is Martin Luther King Jr. Day: Tuesday the 19th; May 18 stands
    assert (row["permit_by"], row["complete_by"], row["dates_from"]) == (
        "2027-01-19", "2027-05-18", "letter")
    text = text_of(letters.stored_pdf(demo, nov.id))
    assert "the permit be obtained by January 19, 2027" in text
    # typing other deadlines into the case (for the next notice) moves no served date
    _set_notice(demo, FAILED, NoticeDeadlines(permit_by=date(2027, 9, 1),
                                              complete_by=date(2027, 12, 1)))
    assert _past(demo, date(2027, 1, 20))[FAILED] == [
        {"deadline": "permit_by", "date": "2027-01-19", "letter_id": nov.id,
         "letter_date": "2026-12-04", "service": "not_served"}]
    assert FAILED not in _past(demo, date(2027, 1, 19))


def _schema_12_with_a_letter(tmp_path: Path) -> Path:
    """The office folder version 0.1.0 wrote (schema 12), with notices of violation issued
    as that version's register wrote them: no dates kept with the letter."""
    folder = tmp_path / "office"
    shutil.copytree(FIXTURES / "written_by_v0_1_0_schema_12" / "office", folder)
    conn = sqlite3.connect(folder / "inspector.sqlite")
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 12
        version = conn.execute("SELECT max(seq) FROM change_log").fetchone()[0]
        for n, (sbl, day) in enumerate((("900.01-1-7", "2025-06-02"),
                                        ("900.01-1-10", "2025-06-06"))):
            parcel = conn.execute("SELECT id FROM parcels WHERE sbl = ?", (sbl,)).fetchone()[0]
            conn.execute(
                "INSERT INTO letters (id, parcel_id, created_at, updated_at, device_id, kind, "
                "status, letter_date, recipient, case_version, issued_by, issued_at, sha256, "
                "pdf) VALUES (?, ?, ?, ?, (SELECT device_id FROM change_log LIMIT 1), "
                "'notice_of_violation', 'issued', ?, '[\"Owner\"]', ?, 'office.clerk', ?, ?, ?)",
                (f"00000000-0000-4000-8000-00000000000{n}", parcel, f"{day}T12:00:00+00:00",
                 f"{day}T12:00:00+00:00", day, version, f"{day}T12:00:00+00:00", "0" * 64,
                 b"%PDF"))
        conn.commit()
    finally:
        conn.close()
    return folder


def test_letters_issued_before_their_dates_were_kept_read_them_from_their_records(
        tmp_path: Path) -> None:
    ws = Workspace(_schema_12_with_a_letter(tmp_path), user="office.clerk")
    try:
        rows = {r["sbl"]: r for r in letters.register(ws)}
        # 900.01-1-7: the deadlines typed into the case when the notice was made
        assert (rows["900.01-1-7"]["permit_by"], rows["900.01-1-7"]["complete_by"]) == (
            "2025-07-16", "2025-11-13")
        # 900.01-1-10: none typed in, so the law's 120 days from June 6, 2025: Saturday
        # October 4, 2025, so Monday October 6; no permit date (no failure)
        assert (rows["900.01-1-10"]["permit_by"], rows["900.01-1-10"]["complete_by"]) == (
            None, "2025-10-06")
        assert {r["dates_from"] for r in rows.values()} == {"derived from its records"}
        assert set(_past(ws, date(2025, 12, 1))) >= {"900.01-1-7", "900.01-1-10"}
        assert "900.01-1-20" not in _past(ws, date(2025, 12, 1))
    finally:
        ws.close()


HOLDING = "900.01-1-22"  # a holding tank whose pump-out record is missing: § 202-8 B


def test_a_notice_whose_only_date_is_a_reply_date_is_followed_up(demo: Workspace) -> None:
    from inspector_app.services.letters import service

    (nov,) = letters.issue(demo, HOLDING, as_of=DEMO_DAY)
    # 30 days from December 4, 2026: Sunday January 3, 2027, so Monday January 4
    (row,) = letters.register(demo, HOLDING)
    assert (row["permit_by"], row["complete_by"], row["reply_by"]) == (None, None, "2027-01-04")
    assert "by January 4, 2027" in text_of(letters.stored_pdf(demo, nov.id))
    assert HOLDING not in _past(demo, date(2027, 1, 4))
    entry = {"deadline": "reply_by", "date": "2027-01-04", "letter_id": nov.id,
             "letter_date": "2026-12-04"}
    # issued, never served: listed apart, never as past due
    items = {i["sbl"]: i for i in worklists(demo, as_of=date(2027, 2, 1),
                                            names=("notices-past-deadline",))
             ["notices-past-deadline"]}
    assert (items[HOLDING]["status"], items[HOLDING]["service"]) == (
        "service_not_shown", "not_served")
    assert items[HOLDING]["deadlines_passed"] == [{**entry, "service": "not_served"}]
    assert items[HOLDING]["detail"] == ("deadline passed; service not shown: reply by "
                                        "2027-01-04 (notice of 2026-12-04: no service "
                                        "recorded)")
    # served by certified mail, no return receipt yet: past due
    service.serve(demo, nov.id, method="certified_mail", on=DEMO_DAY,
                  article="9407 1118 9956 0000 0000 01")
    items = {i["sbl"]: i for i in worklists(demo, as_of=date(2027, 2, 1),
                                            names=("notices-past-deadline",))
             ["notices-past-deadline"]}
    assert (items[HOLDING]["status"], items[HOLDING]["service"]) == ("past_due", "served")
    report = program_report(demo, date(2026, 12, 1), date(2027, 2, 1),
                            as_of=date(2027, 2, 2)).figures
    assert [(m["matter"], m["since"], m["section"], m["service"])
            for m in report["open_matters"] if m["sbl"] == HOLDING] == [
        ("notice past its deadline (reply by 2027-01-04)", "2027-01-04", "§ 202-8 B (unconfirmed)",
         "served")]
    # it came back unclaimed: service is no longer shown
    service.returned(demo, nov.id, on=DEMO_DAY, reason="unclaimed")
    items = {i["sbl"]: i for i in worklists(demo, as_of=date(2027, 2, 1),
                                            names=("notices-past-deadline",))
             ["notices-past-deadline"]}
    assert (items[HOLDING]["status"], items[HOLDING]["deadlines_passed"]) == (
        "service_not_shown", [{**entry, "service": "returned"}])
    report = program_report(demo, date(2026, 12, 1), date(2027, 2, 1),
                            as_of=date(2027, 2, 2)).figures
    assert [(m["matter"], m["service"]) for m in report["open_matters"]
            if m["sbl"] == HOLDING] == [
        ("deadline passed; service not shown (reply by 2027-01-04; the notice of 2026-12-04: "
         "came back undelivered)", "returned")]


def test_the_register_keeps_only_the_dates_a_letter_prints(demo: Workspace) -> None:
    decide_pending(demo, ENCROACHED, as_of=DEMO_DAY)
    (nov,) = letters.issue(demo, ENCROACHED, as_of=DEMO_DAY)
    (row,) = letters.register(demo, ENCROACHED)
    # the notice asks the work done by April 5, 2027 and sets no reply date
    assert (row["permit_by"], row["complete_by"], row["reply_by"]) == (None, "2027-04-05", None)
    text = text_of(letters.stored_pdf(demo, nov.id))
    assert "January 4, 2027" not in text and "April 5, 2027" in text


def test_the_program_report_counts_a_corrected_notice_once(demo: Workspace) -> None:
    decide_pending(demo, ENCROACHED, as_of=DEMO_DAY)
    (first,) = letters.issue(demo, ENCROACHED, as_of=DEMO_DAY)
    _set_notice(demo, ENCROACHED, NoticeDeadlines(permit_by=None,
                                                  complete_by=date(2027, 4, 19)))
    letters.issue(demo, ENCROACHED, as_of=date(2026, 12, 20), replaces=first.id)

    def counted(end: date) -> tuple[dict[str, int], dict[str, int]]:
        totals = program_report(demo, date(2026, 12, 1), end,
                                as_of=date(2027, 1, 2)).figures["totals"]
        nov = {k: totals["letters_issued"][k]
               for k in ("notice_of_violation", "corrections", "replaced")}
        return nov, totals["notices_served"]

    # both in December: the correction is the notice in force, counted once; the original
    # is counted as replaced; one notice, not served
    assert counted(date(2026, 12, 31)) == (
        {"notice_of_violation": 1, "corrections": 1, "replaced": 1},
        {"notices": 1, "served": 0, "confirmed": 0, "unconfirmed": 0, "returned": 0,
         "not_served": 1})
    # to December 19 the original was in force: counted, nothing replaced yet
    nov, served = counted(date(2026, 12, 19))
    assert (nov, served["notices"]) == (
        {"notice_of_violation": 1, "corrections": 0, "replaced": 0}, 1)


def test_a_second_notice_beside_the_one_in_force_is_refused_on_the_command_line(
        demo: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    from inspector_app.__main__ import main

    def cli(*args: str) -> tuple[int, str]:
        status = main(["--user", "clerk", "--data-dir", str(demo.folder.root), *args])
        out, err = capsys.readouterr()
        return status, out if status == 0 else err.strip()

    decide_pending(demo, FAILED, as_of=DEMO_DAY)
    assert cli("register", "issue", FAILED, "--kind", "notice_of_violation",
               "--as-of", "2026-12-04")[0] == 0
    (nov,) = letters.register(demo, FAILED)
    case = demo.load_case(FAILED)  # the records change after the notice
    demo.save_case(replace(case, parcel=replace(case.parcel, owner_name="Ruth Mercer")),
                   today=DEMO_DAY)
    assert cli("register", "issue", FAILED, "--kind", "notice_of_violation",
               "--as-of", "2026-12-04") == (
        2, f"Parcel {FAILED}: notice_of_violation {nov['id'][:8]} of 2026-12-04 is already in "
           "force for this inspection, so nothing was issued; to change it, issue a "
           f"correction with --replaces {nov['id']}.")
    assert [r["id"] for r in letters.register(demo, FAILED)] == [nov["id"]]
    # the correction it names is issued, and replaces it
    status, _ = cli("register", "issue", FAILED, "--kind", "notice_of_violation",
                    "--as-of", "2026-12-04", "--replaces", nov["id"])
    assert status == 0
    assert [(r["in_force"], r["replaces"]) for r in letters.register(demo, FAILED)] == [
        (False, None), (True, nov["id"])]


def test_a_reminder_follows_up_only_once_the_date_it_asked_by_has_passed(
        demo: Workspace) -> None:
    (first,) = letters.issue(demo, HOLDING, ["pump_out_request"], as_of=DEMO_DAY)
    (row,) = letters.register(demo, HOLDING)
    assert row["reply_by"] == "2027-01-04"
    refused = (f"pump_out_request {first.id[:8]} of 2026-12-04 is in force and asks the owner "
               "to act by 2027-01-04, after which a reminder may follow it up, so nothing "
               f"was issued; to change it, issue a correction with --replaces {first.id}.")
    for day in (DEMO_DAY, date(2027, 1, 4)):
        with pytest.raises(LetterRefused) as caught:
            letters.issue(demo, HOLDING, ["pump_out_request"], as_of=day)
        assert str(caught.value) == f"Parcel {HOLDING}: {refused}"
    # no answer by January 4: the follow-up goes out (30 days from January 5: Thursday
    # February 4), and both stay in force
    (second,) = letters.issue(demo, HOLDING, ["pump_out_request"], as_of=date(2027, 1, 5))
    assert [(r["id"], r["in_force"], r["reply_by"]) for r in letters.register(demo, HOLDING)
            ] == [(first.id, True, "2027-01-04"), (second.id, True, "2027-02-04")]
