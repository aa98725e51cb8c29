"""A parcel whose municipality has no law on file: the panel and the letters tab say so,
and nothing is judged or drafted under another town's law. Run with the real worker
thread, as users run it."""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.workspace import Workspace
from inspector_app.ui.main_window import MainWindow

from .live import threaded_window

TODAY = date(2026, 11, 25)
GORHAM = "900.01-1-36"  # a driveway and a shed on the absorption area, roof drains into it
HOME = "900.01-1-7"  # a failed system


@pytest.fixture
def window(qtbot: QtBot, tmp_path: Path) -> Iterator[MainWindow]:
    ws = Workspace(tmp_path / "data", user="k.olmsted")
    install_demo(ws, today=TODAY)
    w = threaded_window(ws, tmp_path, TODAY)
    qtbot.addWidget(w)
    w.show()
    yield w
    w.close()
    ws.close()


def _open(window: MainWindow, qtbot: QtBot, sbl: str) -> None:
    window.select(sbl)
    qtbot.waitUntil(lambda: window.sbl == sbl and not window.runner.pending and (
        window.evaluation.evaluation is not None or window.evaluation.no_law is not None),
        timeout=10_000)


def test_a_parcel_without_a_law_says_so_and_gets_no_letter(window: MainWindow,
                                                           qtbot: QtBot) -> None:
    assert window.workspace.load_case(GORHAM).parcel.municipality == "Town of Gorham"
    _open(window, qtbot, GORHAM)
    text = window.evaluation.toPlainText()
    assert "No law on file for Town of Gorham:" in text
    assert "Outcome" not in text and "§" not in text and "within 200 ft" not in text
    assert "On the absorption area (observed): driveway, shed" in text  # recorded, unjudged
    letters = window.letters
    assert not letters.preview_button.isEnabled() and not letters.issue_button.isEnabled()
    assert "No law on file for Town of Gorham" in letters.caption.text()
    assert not any("(called for)" in letters.kind.itemText(i)
                   for i in range(letters.kind.count()))
    if os.environ.get("INSPECTOR_SCREENSHOTS"):
        window.grab().save(os.path.join(os.environ["INSPECTOR_SCREENSHOTS"], "no-law.png"))
        window.tabs.setCurrentWidget(letters)
        window.grab().save(os.path.join(os.environ["INSPECTOR_SCREENSHOTS"],
                                        "no-law-letters.png"))

    # a parcel of the Town of Canandaigua is judged under its law, and can have letters
    _open(window, qtbot, HOME)
    assert "Outcome: FAILURE" in window.evaluation.toPlainText()
    assert letters.preview_button.isEnabled() and letters.issue_button.isEnabled()
    assert "(called for)" in letters.kind.currentText()


def test_the_work_lists_have_the_parcels_without_a_law(window: MainWindow,
                                                       qtbot: QtBot) -> None:
    qtbot.waitUntil(lambda: window.lists_state.text() == "Work lists up to date",
                    timeout=20_000)
    window.work_list.setCurrentIndex(window.work_list.findData("no_law"))
    assert window.work_list.currentText() == "No law on file for the municipality (2)"
    shown = {window.proxy.index(r, 0).data() for r in range(window.proxy.rowCount())}
    assert shown == {"900.01-1-17", GORHAM}
    outcome = [window.proxy.index(r, 4).data() for r in range(window.proxy.rowCount())]
    assert outcome == ["no law on file", "no law on file"]
