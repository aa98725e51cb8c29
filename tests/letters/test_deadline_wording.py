"""A notice's dates are worded as the law's only where the provision empowering the notice to
set them is confirmed, whether typed into the case, counted by default or carried by a
correction; an issued letter never prints an inferred section number unmarked. Hand-worked
on the demo parcels, read from the issued PDFs."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest

from inspector_app.documents.content import LETTER_KINDS, LetterRefused
from inspector_app.domain.jurisdiction import JurisdictionError, parse_jurisdiction
from inspector_app.errors import InputError
from inspector_app.paths import resource
from inspector_app.services.letters import citations
from inspector_app.services.letters import register as letters
from inspector_app.services.session.laws import install_jurisdiction
from inspector_app.services.workspace import Workspace
from tests.attesting import attest_report
from tests.letters.issued_citations import NOTICE, A, C, D, E
from tests.letters.test_letter_statements import text_of
from tests.letters.test_served_deadlines import DEMO_DAY, ENCROACHED, FAILED, _build
from tests.suggestions import decide_pending
from tests.templates import Templates

BUNDLED = resource("jurisdictions", "town-of-canandaigua-ch202.toml")
TYPED = "900.01-1-33"  # a failure beyond 200 ft; deadlines typed in like 900.01-1-7's
ASKED_7 = (f"Obtain a building permit ({A}) and repair the system, "
           f"which is in failure ({C}). This office asks that the "
           "permit be obtained by January 19, 2027 and the repair completed by May 18, 2027.")
ASKED_CLOSING = ("This notice states the action necessary to correct each violation and the "
                 "date by which this office asks that it be done.")


@pytest.fixture
def demo(templates: Templates, tmp_path: Path) -> Iterator[Workspace]:
    ws = Workspace(templates.copy("served-demo", _build, tmp_path / "data"), user="k.olmsted")
    yield ws
    ws.close()


def _law(tmp_path: Path, *, on: str = "2026-12-10", complete_days_confirmed: bool = True
         ) -> Path:
    """The bundled law with Article IV (the notice's contents) confirmed on `on`, and its
    default time frames (the completion one only with `complete_days_confirmed`)."""
    text = BUNDLED.read_text("utf-8")
    edits = [('"septic_tank_capacity", "setbacks", "notice_of_violation"]',
              '"septic_tank_capacity", "setbacks"]'),
             ('"notice.permit_within_days", ', ""),
             ("[lake]\n", "notice_of_violation = { source = \"Chapter 202, Article IV "
                          "(notice of violation)\", by = \"Town attorney\", on = "
                          f"{on} }}\n\n[lake]\n")]
    if complete_days_confirmed:
        edits.append(('"notice.complete_within_days",', ""))
    for old, new in edits:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path = tmp_path / "law.toml"
    path.write_text(text, "utf-8")
    return path


def _issue(ws: Workspace, sbl: str, on: date, replaces: str | None = None) -> tuple[str, str]:
    (issued,) = letters.issue(ws, sbl, ["notice_of_violation"], as_of=on, replaces=replaces)
    return issued.id, text_of(letters.stored_pdf(ws, issued.id))


# --- item 1: typed deadlines, Article IV unconfirmed -----------------------------------------

def test_deadlines_typed_into_the_case_are_asked_while_the_notice_provision_is_unconfirmed(
        demo: Workspace) -> None:
    decide_pending(demo, FAILED, as_of=DEMO_DAY)
    assert demo.load_case(FAILED).notice is not None  # typed in: January 18 and May 18
    draft = text_of(letters.draft_pdf(demo, FAILED, "notice_of_violation", as_of=DEMO_DAY))
    assert ("Obtain a building permit by January 19, 2027 (unconfirmed) (§ 202-5 A "
            "(unconfirmed))") in draft
    _, text = _issue(demo, FAILED, DEMO_DAY)
    assert ASKED_7 in text
    assert (f"Under {D}, bring the septic "
            "tank up to the design standards of § 202-6 (§ 202-7, Requirements for substandard "
            "systems). This office asks that it be done by May 18, 2027.") in text
    assert ASKED_CLOSING in text
    assert "by January 19, 2027 (" not in text and "must be done" not in text
    assert "§ 202-5 A (" not in text and "Article IV" not in text


def test_a_failure_beyond_200_ft_with_typed_deadlines_is_asked_alike(demo: Workspace) -> None:
    decide_pending(demo, TYPED, as_of=DEMO_DAY)
    assert demo.load_case(TYPED).notice is not None
    _, text = _issue(demo, TYPED, DEMO_DAY)
    assert ("This office asks that the permit be obtained by January 19, 2027 and the repair "
            "completed by May 18, 2027.") in text
    assert (f"Repair or replace the septic tank with the repair of the system ({C}). "
            "This office asks that it be done by May 18, 2027.") in text
    assert ASKED_CLOSING in text


# --- the same rule once the notice provision and its time frames are confirmed ---------------

def test_with_the_notice_provision_confirmed_typed_and_default_dates_are_the_law_s(
        demo: Workspace, tmp_path: Path) -> None:
    install_jurisdiction(demo.folder.root, _law(tmp_path))
    with Workspace(demo.folder.root, user="k.olmsted") as ws:
        decide_pending(ws, FAILED, as_of=DEMO_DAY)
        _, typed = _issue(ws, FAILED, DEMO_DAY)  # typed into the case
        decide_pending(ws, ENCROACHED, as_of=DEMO_DAY)
        _, default = _issue(ws, ENCROACHED, DEMO_DAY)  # counted: 120 days, to Monday
    assert (f"Obtain a building permit by January 19, 2027 ({A}) and "
            f"complete the repair of the system by May 18, 2027 ({C}).") in typed
    for text in (typed, default):
        assert ("This notice states the action necessary to correct each violation and the "
                f"dates by which it must be done ({NOTICE}).") in text
        assert "This office asks that" not in text.split("What you must do.")[1].split(
            "This notice states")[0]
    assert ("Remove the driveway and shed from the absorption area by April 5, 2027 "
            f"({E}).") in default


def test_a_time_frame_still_unconfirmed_keeps_the_dates_asked(demo: Workspace,
                                                              tmp_path: Path) -> None:
    install_jurisdiction(demo.folder.root, _law(tmp_path, complete_days_confirmed=False))
    with Workspace(demo.folder.root, user="k.olmsted") as ws:
        decide_pending(ws, FAILED, as_of=DEMO_DAY)
        _, text = _issue(ws, FAILED, DEMO_DAY)
    # the completion date's time frame is not confirmed: the line asks both dates, and so
    # does the closing; the provision, now confirmed, is not asked
    assert ASKED_7 in text and ASKED_CLOSING in text
    assert ("It is your responsibility to forward this notice to any other owners of the "
            f"parcel and to its renters ({NOTICE}).") in text


# --- item 2: a correction words each date as the corrected letter did ------------------------

def _rename(ws: Workspace, sbl: str, name: str, on: date) -> None:
    case = ws.load_case(sbl)
    ws.save_case(replace(case, parcel=replace(case.parcel, owner_name=name)), today=on)


def test_a_correction_asks_what_the_corrected_letter_asked(demo: Workspace) -> None:
    sbl = "900.01-1-23"
    decide_pending(demo, sbl, as_of=date(2026, 11, 30))
    first, text = _issue(demo, sbl, date(2026, 11, 30))
    asked = (f"Remove the driveway and shed from the absorption area ({E}). "
             "This office asks that it be done by March 30, 2027.")
    assert asked in text
    _rename(demo, sbl, "Jane Okafor-Reyes", date(2026, 12, 4))
    _, fix = _issue(demo, sbl, date(2026, 12, 4), replaces=first)
    assert "Dear Jane Okafor-Reyes" in fix
    assert asked in fix and "from the absorption area by March 30" not in fix
    assert "(§ 202-5 E)" not in fix and ASKED_CLOSING in fix
    assert demo.load_case(sbl).notice is None  # the served dates were not typed in


def test_a_date_asked_before_the_provision_was_confirmed_stays_asked(
        demo: Workspace, tmp_path: Path) -> None:
    decide_pending(demo, ENCROACHED, as_of=DEMO_DAY)
    first, text = _issue(demo, ENCROACHED, DEMO_DAY)
    asked = (f"Remove the driveway and shed from the absorption area ({E}). "
             "This office asks that it be done by April 5, 2027.")
    assert asked in text
    # Article IV confirmed on December 10, after the notice was served on December 4
    install_jurisdiction(demo.folder.root, _law(tmp_path, on="2026-12-10"))
    with Workspace(demo.folder.root, user="k.olmsted") as ws:
        _rename(ws, ENCROACHED, "Ruth Whitaker", date(2026, 12, 20))
        _, fix = _issue(ws, ENCROACHED, date(2026, 12, 20), replaces=first)
    assert asked in fix  # carried from the corrected letter, worded as it was
    assert "from the absorption area by April 5" not in fix and ASKED_CLOSING in fix


# --- item 3: no inferred section number in an issued letter ----------------------------------

def _inferred(ws: Workspace) -> re.Pattern[str]:
    law = ws.law_for("Town of Canandaigua")
    return re.compile("|".join(re.escape(law.citations[k]) + r"(?![\w.(])"
                               + r"(?! \[[^\]]*; section number unconfirmed\])"
                               for k in sorted(law.unconfirmed_citations)))


def test_no_issued_demo_letter_prints_an_inferred_section_number_unmarked(demo: Workspace
                                                                         ) -> None:
    inferred = _inferred(demo)
    checked: dict[str, int] = {}
    for row in demo.parcels():
        if row["municipality"] != "Town of Canandaigua":  # no law on file: no letter
            continue
        sbl = row["sbl"]
        decide_pending(demo, sbl, as_of=DEMO_DAY)
        if demo.load_case(sbl).inspection is not None:
            attest_report(demo, sbl, on=DEMO_DAY)
        for kind in LETTER_KINDS:  # each the records call for (the others are refused)
            try:
                plan = letters.check_issue(demo, sbl, [kind], as_of=DEMO_DAY)
            except (LetterRefused, InputError):
                continue
            (letter, _, _, _), = plan.letters
            found = inferred.findall(" ".join(citations.letter_texts(letter)))
            assert not found, (sbl, kind, found)
            checked[kind] = checked.get(kind, 0) + 1
    assert checked.get("notice_of_violation", 0) >= 5, checked
    assert checked.get("report_of_findings", 0) >= 5, checked
    # drafts keep the number, marked
    draft = text_of(letters.draft_pdf(demo, FAILED, "notice_of_violation", as_of=DEMO_DAY))
    assert "§ 202-5 C (unconfirmed): The system is in failure" in draft


def test_cited_as_must_leave_the_number_out_and_name_only_inferred_numbers() -> None:
    text = BUNDLED.read_text("utf-8")
    with pytest.raises(JurisdictionError, match=r"\[cited_as\] system_in_failure is "
                                                r"'§ 202-5 C, failure', which prints the "
                                                r"section number"):
        parse_jurisdiction(text.replace('system_in_failure = "Chapter 202, systems in failure"',
                                        'system_in_failure = "§ 202-5 C, failure"'),
                           source="t.toml")
    with pytest.raises(JurisdictionError, match=r"\[cited_as\] 'penalties' is not listed"):
        parse_jurisdiction(text.replace("[cited_as]\n", '[cited_as]\npenalties = "Chapter '
                                                        '202, penalties"\n'), source="t.toml")
    law = parse_jurisdiction(text, source="t.toml")
    assert law.letter_cite("system_in_failure") == C
    assert law.letter_cite("substandard_beyond_200ft") == "§ 202-7 C(1)"  # confirmed number
    without = parse_jurisdiction(text.replace(
        'etu_service = "Chapter 202, enhanced treatment units"\n', ""), source="t.toml")
    assert without.letter_cite("etu_service") == "§ 202-8 A [section number unconfirmed]"
