"""The date field takes a whole date typed after one click (or Tab), or a calendar pick."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QDate, QPoint, Qt
from PySide6.QtWidgets import QLineEdit, QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from inspector_app.ui.date_field import DateField

START = QDate(2021, 4, 20)


@pytest.fixture
def form(qtbot: QtBot) -> Iterator[tuple[DateField, QLineEdit, list[str]]]:
    """A date field after another field, as on the inspection form."""
    page = QWidget()
    layout = QVBoxLayout(page)
    before = QLineEdit()
    field = DateField(START)
    layout.addWidget(before)
    layout.addWidget(field)
    finished: list[str] = []
    field.editingFinished.connect(lambda: finished.append(field.date().toString("yyyy-MM-dd")))
    qtbot.addWidget(page)
    page.show()
    qtbot.waitExposed(page)
    before.setFocus()
    qtbot.waitUntil(before.hasFocus)
    yield field, before, finished


def _click(qtbot: QtBot, field: DateField, x: int) -> None:
    """One click inside the text (not on the arrows), as a person clicks."""
    edit = field.lineEdit()
    qtbot.mouseClick(edit, Qt.MouseButton.LeftButton, pos=QPoint(x, edit.height() // 2))
    qtbot.waitUntil(lambda: edit.selectedText() == edit.text())  # the whole date, selected


@pytest.mark.parametrize("typed, expected", [
    ("2026-11-25", "2026-11-25"),
    ("20261125", "2026-11-25"),
    ("2026-4-5", "2026-04-05"),
    ("2026/01/02", "2026-01-02"),
    ("1999-2-28", "1999-02-28"),
])
@pytest.mark.parametrize("x", [4, 30, 60])  # in the year, the month or the day
def test_one_click_then_typing_a_whole_date(form: tuple[DateField, QLineEdit, list[str]],
                                            qtbot: QtBot, typed: str, expected: str,
                                            x: int) -> None:
    field, _before, finished = form
    _click(qtbot, field, x)
    qtbot.keyClicks(field, typed)
    qtbot.keyClick(field, Qt.Key.Key_Return)
    assert field.date().toString("yyyy-MM-dd") == expected
    assert finished and finished[-1] == expected


def test_tab_into_the_field_then_type(form: tuple[DateField, QLineEdit, list[str]],
                                      qtbot: QtBot) -> None:
    field, before, finished = form
    qtbot.keyClick(before, Qt.Key.Key_Tab)
    qtbot.waitUntil(field.hasFocus)
    qtbot.waitUntil(lambda: field.lineEdit().selectedText() == field.text())
    qtbot.keyClicks(field, "2026-11-25")
    before.setFocus()  # leaving the field finishes the edit
    qtbot.waitUntil(lambda: bool(finished))
    assert finished[-1] == "2026-11-25"


def test_clicking_again_places_the_cursor_as_usual(
        form: tuple[DateField, QLineEdit, list[str]], qtbot: QtBot) -> None:
    field, _before, _finished = form
    _click(qtbot, field, 4)
    edit = field.lineEdit()
    qtbot.mouseClick(edit, Qt.MouseButton.LeftButton, pos=QPoint(60, edit.height() // 2))
    qtbot.wait(20)
    assert edit.selectedText() != edit.text()  # only the click that gave focus selects all
    qtbot.keyClick(field, Qt.Key.Key_Up)
    assert field.date() == START.addDays(1)  # the arrow keys still step the day


def test_a_pick_from_the_calendar_finishes_the_edit(
        form: tuple[DateField, QLineEdit, list[str]]) -> None:
    field, _before, finished = form
    assert field.calendarPopup()
    calendar = field.calendarWidget()
    calendar.setSelectedDate(QDate(2026, 11, 25))
    calendar.clicked.emit(QDate(2026, 11, 25))
    assert field.date() == QDate(2026, 11, 25)
    assert finished == ["2026-11-25"]
