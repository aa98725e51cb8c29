"""Issuing a notice whose recorded deadlines have passed, through the real buttons."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from inspector_app.domain.case import NoticeDeadlines
from inspector_app.services.letters import register as letter_service
from inspector_app.ui.main_window import MainWindow
from tests.ui.test_letters_tab import SBL, Prompts, idle, open_letters, prompts, window

__all__ = ["prompts", "window"]  # the fixtures, used by name


def test_past_deadlines_are_offered_anew_then_the_notice_is_issued(
        window: MainWindow, qtbot: QtBot, prompts: Prompts) -> None:
    ws = window.workspace
    # Written through the window's worker, as the app writes: the worker may be working
    # out the work lists on the same connection meanwhile.
    parcel_id, before, _ = window.runner.wait(lambda: ws.open_for_edit(SBL))
    window.runner.wait(lambda: ws.save_edit(parcel_id, before, replace(
        before, notice=NoticeDeadlines(permit_by=date(2026, 11, 1),
                                       complete_by=date(2027, 2, 1)))))
    tab = open_letters(window, qtbot)
    prompts.answer = QMessageBox.StandardButton.Yes
    qtbot.mouseClick(tab.issue_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: len(letter_service.register(ws, SBL)) == 1, timeout=15000)
    idle(window, qtbot)
    # the refusal comes before the question that cannot be undone
    offer, issue = prompts.questions
    assert "Issue this letter?" in issue
    assert "Permit by, November 1, 2026" in offer and "Set new deadlines?" in offer
    notice = ws.load_case(SBL).notice
    assert notice is not None and notice.permit_by is not None
    assert notice.permit_by > date(2026, 11, 25)
    (row,) = letter_service.register(ws, SBL)
    text = letter_service.stored_pdf(ws, row["id"])
    assert b"%PDF" in text[:8]
