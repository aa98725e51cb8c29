"""How an issued letter was served, delivered or returned: recorded beside the letter,
never over it; the work list of notices whose service is unconfirmed; the short id."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import replace
from datetime import date
from typing import Any

import pytest

from inspector_app.__main__ import main
from inspector_app.casefile import parse_document
from inspector_app.errors import InputError
from inspector_app.services.letters import register as letters
from inspector_app.services.letters import service
from inspector_app.services.lists.worklists import worklists
from inspector_app.services.workspace import Workspace
from tests.suggestions import decide_pending

SBL = "98.00-1-23.100"
TODAY = date(2026, 11, 25)
ARTICLE = "7019 0700 0000 1234 5678"


@pytest.fixture
def issued(workspace: Workspace, full_case: dict[str, Any]) -> tuple[Workspace, str]:
    workspace.save_case(parse_document(full_case, source="case.json", today=TODAY),
                        today=TODAY)
    decide_pending(workspace, SBL, as_of=TODAY)
    (letter,) = letters.issue(workspace, SBL, as_of=TODAY)
    return workspace, letter.id


def _cli(ws: Workspace, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, Any]:
    status = main(["--user", "clerk", "--data-dir", str(ws.folder.root), *args])
    out, err = capsys.readouterr()
    return status, json.loads(out) if status == 0 else err.strip()


def _service_rows(ws: Workspace) -> int:
    return int(ws.store.conn.execute("SELECT count(*) FROM letter_service").fetchone()[0])


def test_service_is_recorded_beside_the_letter_through_the_cli(
        issued: tuple[Workspace, str], capsys: pytest.CaptureFixture[str]) -> None:
    ws, letter_id = issued
    status, out = _cli(ws, capsys, "register", "serve", letter_id[:8], "--method",
                       "certified_mail", "--article", ARTICLE, "--on", "2026-11-26")
    assert status == 0, out
    assert out["article_number"] == "70190700000012345678"
    assert out["service"]["state"] == "served" and out["recorded_by"] == "clerk"
    status, out = _cli(ws, capsys, "register", "delivered", letter_id, "--on", "2026-11-30",
                       "--signed-by", "R. Whitaker")
    assert status == 0, out
    status, listed = _cli(ws, capsys, "register", "list", SBL)
    assert listed[0]["service"]["state"] == "delivered"
    assert listed[0]["service"]["delivered"]["signed_by"] == "R. Whitaker"
    assert [e["method"] for e in listed[0]["service"]["served"]] == ["certified_mail"]
    # attributable: in the change log, by whom and from which device
    log = ws.store.conn.execute("SELECT user, device_id FROM change_log WHERE table_name = "
                                "'letter_service'").fetchall()
    assert [r[0] for r in log] == ["clerk", "clerk"] and all(r[1] for r in log)
    # the events never change, and the letter itself is untouched
    with pytest.raises(sqlite3.IntegrityError), ws.store.transaction() as w:
        w.update("letter_service", ws.store.conn.execute(
            "SELECT id FROM letter_service").fetchone()[0], {"signed_by": "someone else"})
    assert letters.stored_pdf(ws, letter_id)[:4] == b"%PDF"


@pytest.mark.parametrize(("args", "sentence"), [
    (("serve", "{id}", "--method", "certified_mail", "--on", "2026-11-26"),
     "Serving by certified mail needs its article number (--article)."),
    (("serve", "{id}", "--method", "first_class_mail", "--on", "2026-11-24"),
     "is before letter"),
    (("serve", "{id}", "--method", "first_class_mail", "--on", "2099-01-01"),
     "is after today"),
    (("serve", "{id}", "--method", "posting", "--on", "2026-11-26"),
     "needs where it was posted (--where)"),
    (("serve", "{id}", "--method", "first_class_mail", "--on", "2026-11-26", "--to", "X"),
     "--to does not go with serving by first class mail"),
    (("serve", "00000000", "--method", "first_class_mail", "--on", "2026-11-26"),
     "No letter '00000000' in the register."),
    (("delivered", "{id}", "--on", "2026-11-26"), "has no service recorded"),
    (("returned", "{id}", "--on", "2026-11-26", "--reason", "unclaimed"),
     "has no service by mail recorded"),
])
def test_bad_service_is_one_sentence_exit_2_and_nothing_changes(
        issued: tuple[Workspace, str], capsys: pytest.CaptureFixture[str],
        args: tuple[str, ...], sentence: str) -> None:
    ws, letter_id = issued
    status, err = _cli(ws, capsys, "register", *(a.format(id=letter_id) for a in args))
    assert status == 2 and sentence in err and err.count("\n") == 0
    assert _service_rows(ws) == 0


def test_a_replaced_letter_is_not_served_and_a_short_id_must_be_unambiguous(
        issued: tuple[Workspace, str], capsys: pytest.CaptureFixture[str]) -> None:
    ws, letter_id = issued
    case = ws.load_case(SBL)
    ws.save_case(replace(case, parcel=replace(case.parcel, owner_name="Ruth Whitaker")),
                 today=TODAY)
    (fixed,) = letters.issue(ws, SBL, as_of=TODAY, replaces=letter_id[:8])
    status, err = _cli(ws, capsys, "register", "serve", letter_id, "--method",
                       "first_class_mail", "--on", "2026-11-26")
    assert status == 2 and f"was replaced by letter {fixed.id[:8]}" in err
    status, out = _cli(ws, capsys, "register", "show", fixed.id[:8], "--out",
                       str(ws.folder.root / "copy.pdf"))
    assert status == 0 and out["id"] == fixed.id
    assert _service_rows(ws) == 0


def test_an_ambiguous_short_id_is_refused(issued: tuple[Workspace, str],
                                          capsys: pytest.CaptureFixture[str]) -> None:
    ws, _ = issued
    with ws.store.transaction() as w:
        for tail in ("0000", "1111"):
            w.insert("letters", {"kind": "notice_of_violation", "status": "draft",
                                 "letter_date": TODAY, "recipient": ["A", "B 14424"],
                                 "case_version": 1}, parcel_id=ws.parcel_id(SBL),
                     record_id=f"abcdef12-{tail}-4000-8000-000000000000")
    status, err = _cli(ws, capsys, "register", "show", "abcdef12", "--out",
                       str(ws.folder.root / "x.pdf"))
    assert status == 2 and "is the beginning of more than one letter's id" in err
    assert service.letter_id_for(ws, "abcdef12-1") == "abcdef12-1111-4000-8000-000000000000"


def test_a_draft_is_not_served(issued: tuple[Workspace, str]) -> None:
    ws, _ = issued
    with ws.store.transaction() as w:
        draft = w.insert("letters", {"kind": "notice_of_violation", "status": "draft",
                                     "letter_date": TODAY, "recipient": ["A", "B 14424"],
                                     "case_version": 1}, parcel_id=ws.parcel_id(SBL))
    with pytest.raises(InputError, match="is a draft, not an issued letter"):
        service.serve(ws, draft, method="first_class_mail", on=TODAY)


def test_the_unconfirmed_list_follows_service_and_the_days_setting(
        issued: tuple[Workspace, str], clock: Any) -> None:
    ws, letter_id = issued
    law = ws.laws.for_municipality(ws.load_case(SBL).parcel.municipality)
    assert law is not None and law.service_unconfirmed_days == 14

    def listed(day: date) -> list[dict[str, Any]]:
        return worklists(ws, as_of=day, names=("notices-service-unconfirmed",))[
            "notices-service-unconfirmed"]

    assert listed(date(2026, 12, 9)) == []  # 14 days after it was issued
    (item,) = listed(date(2026, 12, 10))
    assert (item["letter_id"], item["status"], item["days"]) == (letter_id, "not_served", 15)
    clock.advance(days=5)
    service.serve(ws, letter_id, method="first_class_mail", on=date(2026, 11, 30))
    assert listed(date(2026, 12, 14)) == []  # counted from the service now
    (item,) = listed(date(2026, 12, 15))
    assert item["status"] == "served" and "served 2026-11-30 by first class mail" in \
        item["detail"]
    service.returned(ws, letter_id, on=date(2026, 11, 30), reason="unclaimed")
    (item,) = listed(date(2026, 12, 1))  # back undelivered: listed at once
    assert item["status"] == "returned" and "unclaimed" in item["detail"]
    service.serve(ws, letter_id, method="hand_delivery", on=date(2026, 11, 30),
                  to="Robert Whitaker")
    assert listed(date(2027, 3, 1)) == []  # handed over: delivered
    # the program report counts the notice as served and confirmed
    from inspector_app.services.lists.program_report import TOTAL
    from inspector_app.services.lists.served import served_between

    counts = served_between(ws, {ws.parcel_id(SBL)}, TODAY, date(2026, 11, 30), total=TOTAL)
    assert counts[TOTAL] == {"notices": 1, "served": 1, "confirmed": 1, "unconfirmed": 0,
                             "returned": 0, "not_served": 0}
    counts = served_between(ws, {ws.parcel_id(SBL)}, TODAY, date(2026, 11, 29), total=TOTAL)
    assert counts[TOTAL]["not_served"] == 1


def test_serving_a_letter_changes_none_of_the_records_it_was_made_from(
        issued: tuple[Workspace, str]) -> None:
    """The service is the register's, not the parcel's findings: the report stays attested
    and the same letter is not issued again as if the records had changed."""
    from inspector_app.services.letters.attestation import attestations
    from tests.attesting import attest_report

    ws, _ = issued
    attest_report(ws, SBL, on=TODAY)
    (report,) = letters.issue(ws, SBL, ["report_of_findings"], as_of=TODAY)
    service.serve(ws, report.id, method="hand_delivery", to="R. Whitaker", on=TODAY)
    assert [a["in_force"] for a in attestations(ws, SBL)] == [True]
    with pytest.raises(InputError, match="--replaces"):
        letters.issue(ws, SBL, ["report_of_findings"], as_of=TODAY)
