"""The window at 1024x700, a small laptop's screen: the lists keep usable heights, no button
is cut, choice lists open whole and a long value shows its start. Measured on the window
as laid out, not guessed."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication, QComboBox, QPushButton, QScrollArea
from pytestqt.qtbot import QtBot

from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.letters import register as letters
from inspector_app.services.workspace import Workspace
from inspector_app.ui.form_fields import COMBO_ROWS
from inspector_app.ui.letters_tab import REGISTER_ROWS
from inspector_app.ui.main_window import MainWindow
from inspector_app.ui.tasks import TaskRunner
from tests.ui.hands import visible_rect

TODAY = date(2026, 12, 5)
VIOLATION = "900.01-1-7"  # the demo's failed system: a notice of violation
LETTERS = 6


@pytest.fixture
def window(qtbot: QtBot, tmp_path: Path) -> Iterator[MainWindow]:
    ws = Workspace(tmp_path / "data", user="J. Haldane")
    install_demo(ws, today=TODAY)
    for key in [s.key for s in ws.evaluate_parcel(VIOLATION, as_of=TODAY).suggestions]:
        ws.decide_suggestion(VIOLATION, key, accept=True, as_of=TODAY)
    (letter,) = letters.issue(ws, VIOLATION, as_of=TODAY)
    for n in range(LETTERS - 1):  # corrections: the owner's name put right each time
        parcel_id, before, _ = ws.open_for_edit(VIOLATION)
        ws.save_edit(parcel_id, before, replace(before, parcel=replace(
            before.parcel, owner_name=f"Nancy Iverson {n}")), today=TODAY)
        (letter,) = letters.issue(ws, VIOLATION, as_of=TODAY, replaces=letter.id)
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    w = MainWindow(ws, runner=TaskRunner(synchronous=True), settings=settings)
    w.ctx.as_of = TODAY
    qtbot.addWidget(w)
    w.resize(1024, 700)
    w.show()
    qtbot.waitExposed(w)
    w.select(VIOLATION)
    qtbot.waitUntil(lambda: w.sbl == VIOLATION and w.letters.register.count() == LETTERS)
    yield w
    ws.close()


def test_issued_letters_show_five_rows_at_1024x700(window: MainWindow, qtbot: QtBot) -> None:
    w = window
    assert w.size().width() == 1024 and w.size().height() == 700
    w.workbench.show_tab(2)
    register = w.letters.register
    qtbot.waitUntil(register.isVisible)
    QApplication.processEvents()
    row = register.sizeHintForRow(0)
    shown = register.viewport().height() // row
    assert shown >= REGISTER_ROWS, (register.viewport().height(), row)
    assert w.letters.page_view.viewport().height() >= 150  # the page still shows beside it
    # every button of the tab is as wide as its words need
    for button in w.letters.findChildren(QPushButton):
        if button.isVisible():
            assert button.width() >= button.sizeHint().width(), button.text()


def test_the_form_at_1024x700(window: MainWindow, qtbot: QtBot) -> None:
    w, f = window, window.form
    w.workbench.show_tab(0)
    QApplication.processEvents()
    # a visit is recorded without scrolling: the inspection's fields are in sight
    for field in (f.new_inspection, f.inspection_date, f.inspector, f.reason, f.evidence):
        assert visible_rect(field) == field.rect(), field
    # nothing is cut at the right: the form fits its scroll area's width
    area = next(a for a in w.workbench.findChildren(QScrollArea) if a.widget() is f)
    assert area.horizontalScrollBar().maximum() == 0
    assert f.width() <= area.viewport().width()
    # a long address shows its start
    assert len(f.site_address.text()) > 30 and f.site_address.cursorPosition() == 0
    # every choice list of the form opens whole, as a list that drops down (or up)
    for box in f.findChildren(QComboBox):
        assert box.maxVisibleItems() >= min(box.count(), COMBO_ROWS)
    assert "combobox-popup: 0" in QApplication.instance().styleSheet().replace(" ;", ";")
    # the parcel list keeps rows to choose from, the evaluation its width
    assert w.table.viewport().height() >= 8 * w.table.verticalHeader().defaultSectionSize()
    assert w.evaluation.width() >= 240


def test_dialogs_open_whole_on_a_small_screen(window: MainWindow, qtbot: QtBot) -> None:
    """The program report and the user guide, sized for a desktop monitor, open no larger
    than the screen: their Close button and notes in sight."""
    free = QApplication.primaryScreen().availableGeometry()
    assert free.width() < 1100 or free.height() < 780  # a screen smaller than they'd like
    report = window.menus.reports.show_program_report()
    window.menus.help.show_guide()
    guide = window.menus.help.guide
    assert guide is not None
    for dialog in (report, guide):
        qtbot.waitExposed(dialog)
        assert dialog.width() <= free.width() and dialog.height() <= free.height(), dialog
    close = next(b for b in report.findChildren(QPushButton) if b.text() == "C&lose")
    assert visible_rect(close) == close.rect() and close.geometry().bottom() < report.height()
    report.close()
    guide.close()
