"""What a correction says changed: the letter's sentences compared whole, each change
told as the owner reads it. Hand-worked."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from pathlib import Path

from inspector_app.documents.compare import changes, letter_sentences, sentences
from inspector_app.domain.case import NoticeDeadlines
from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.letters import register as letters
from inspector_app.services.workspace import Workspace
from tests.suggestions import decide_pending
from tests.templates import Templates

Q, E = "\u201c", "\u201d"


def test_sentences_end_at_a_full_stop_before_a_capital_but_not_after_an_initial() -> None:
    assert sentences("An inspection on July 11, 2026 by K. Olmsted (OTN 2217) found it. "
                     "Send it to 12 Main St. Suite 4 by May 3. (§ 202-5 E) applies. "
                     "No. 7 is fine! Is it? yes, it is.") == [
        "An inspection on July 11, 2026 by K. Olmsted (OTN 2217) found it.",
        "Send it to 12 Main St. Suite 4 by May 3.",
        "(§ 202-5 E) applies.",
        "No. 7 is fine!",
        "Is it? yes, it is."]


def test_a_changed_sentence_is_quoted_whole_before_and_after() -> None:
    before = ["Dear Ann Roe:", "Remove the shed (§ 202-5 E).",
              "This office asks that it be done by April 5, 2027.", "Sincerely,"]
    after = ["Dear Ann Roe:", "Remove the shed (§ 202-5 E).",
             "This office asks that it be done by April 19, 2027.", "Sincerely,"]
    assert changes(before, after) == [
        f"{Q}This office asks that it be done by April 5, 2027.{E} became "
        f"{Q}This office asks that it be done by April 19, 2027.{E}"]


def test_sentences_added_and_removed_are_said_so_and_a_repeated_change_once() -> None:
    before = ["What you must do.", "Remove the shed.", "It is due by April 5, 2027.",
              "Disconnect the roof drains.", "It is due by April 5, 2027.", "Thank you."]
    after = ["What you must do.", "Remove the shed.", "It is due by April 19, 2027.",
             "Disconnect the roof drains.", "It is due by April 19, 2027.",
             "Have the tank pumped at once.", "Thank you."]
    assert changes(before, after) == [
        f"in 2 places, {Q}It is due by April 5, 2027.{E} became "
        f"{Q}It is due by April 19, 2027.{E}",
        f"added: {Q}Have the tank pumped at once.{E}"]
    assert changes(after, before)[-1] == f"removed: {Q}Have the tank pumped at once.{E}"
    # a sentence replaced by one unlike it: removed, then added
    assert changes(["A septic tank was found."], ["The holding tank overflows daily."]) == [
        f"removed: {Q}A septic tank was found.{E}",
        f"added: {Q}The holding tank overflows daily.{E}"]


def test_more_than_six_changes_end_with_how_many_more() -> None:
    before = [f"Item {n} is due." for n in range(9)]
    after = [f"Item {n} is late." for n in range(9)]
    found = changes(before, after)
    assert len(found) == 7 and found[-1] == "and 3 more changes"


def _build(folder: Path) -> None:
    ws = Workspace(folder, user="k.olmsted")
    install_demo(ws, today=date(2026, 12, 4))
    ws.close()


def test_a_correction_giving_more_time_says_which_sentences_changed(
        templates: Templates, tmp_path: Path) -> None:
    sbl = "900.01-1-10"  # driveway and shed on the absorption area, roof drains
    ws = Workspace(templates.copy("served-demo", _build, tmp_path / "data"), user="k.olmsted")
    try:
        day = date(2026, 12, 4)
        decide_pending(ws, sbl, as_of=day)
        (first,) = letters.issue(ws, sbl, as_of=day)
        said = letter_sentences(letters.stored_pdf(ws, first.id))
        # the letterhead, the date line and the footer are not what the letter says
        assert said[0] == ("Address: Susan Whitaker (demo), 4063 County Road 16 (West Lake "
                           "Road), Canandaigua, NY 14424")
        assert not [s for s in said if "Page 1" in s or "394-1120" in s
                    or "December 4, 2026" in s]
        parcel_id, before, _ = ws.open_for_edit(sbl)
        ws.save_edit(parcel_id, before, replace(before, notice=NoticeDeadlines(
            permit_by=None, complete_by=date(2027, 4, 19))), today=day)
        (fix,) = letters.issue(ws, sbl, as_of=day, replaces=first.id)
        # the typed date is asked as the office's request, as the first letter asked its
        # default: the one sentence asking it, in both places, is what changed
        assert fix.changes == (
            f"in 2 places, {Q}This office asks that it be done by April 5, 2027.{E} became "
            f"{Q}This office asks that it be done by April 19, 2027.{E}",)
    finally:
        ws.close()
