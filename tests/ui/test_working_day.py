"""A working day at 1024x700 without surprises: what an inspector met walking the app, each
put right and driven as a user drives it."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QApplication, QLabel, QMessageBox, QWidget
from pytestqt.qtbot import QtBot

from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.letters import register as letter_service
from inspector_app.services.workspace import Workspace
from inspector_app.ui.main_window import MainWindow
from inspector_app.ui.tasks import TaskRunner
from tests.suggestions import decide_pending

TODAY = date(2026, 11, 25)
VIOLATION = "900.01-1-7"  # the demo's failed system: a notice of violation


@pytest.fixture
def window(qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
           ) -> Iterator[MainWindow]:
    warned: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning",
                        lambda _p, _t, text, *a, **k: warned.append(text))
    ws = Workspace(tmp_path / "data", user="k.olmsted")
    install_demo(ws, today=TODAY)
    decide_pending(ws, VIOLATION, as_of=TODAY)
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    w = MainWindow(ws, runner=TaskRunner(), settings=settings)
    w.ctx.as_of = TODAY
    w.resize(1024, 700)
    w.show()
    qtbot.waitExposed(w)
    yield w
    idle(w, qtbot)
    w.close()
    w.deleteLater()
    ws.close()
    assert not warned, warned


def idle(window: MainWindow, qtbot: QtBot) -> None:
    qtbot.waitUntil(lambda: window.runner.pending == 0, timeout=20000)
    qtbot.wait(30)


def opened(window: MainWindow, qtbot: QtBot, sbl: str) -> None:
    window.select(sbl)
    qtbot.waitUntil(lambda: window.letters.sbl == sbl, timeout=20000)
    idle(window, qtbot)


# --- the evaluation offers a letter only when one is due ----------------------------------

def test_the_evaluation_says_a_letter_is_issued_and_offers_only_one_due(
        window: MainWindow, qtbot: QtBot) -> None:
    opened(window, qtbot, VIOLATION)
    pane = window.evaluation
    assert "Issue it... (Ctrl+L)" in pane.toHtml()
    ws = window.workspace
    (issued,) = window.runner.wait(lambda: letter_service.issue(
        ws, VIOLATION, ["notice_of_violation"], as_of=TODAY))
    opened(window, qtbot, "900.01-1-2")
    opened(window, qtbot, VIOLATION)
    text = pane.toPlainText()
    assert (f"notice of violation issued {TODAY.isoformat()} (letter {issued.id[:8]})"
            in text)
    assert "Issue it" not in text and "correction" not in text
    # Ctrl+L says so, instead of a refusal
    window.workbench.issue_letter()
    assert window.message.text() == (f"No letter due: notice of violation issued "
                                     f"{TODAY.isoformat()} (letter {issued.id[:8]}).")
    # the records changed so that the letter would say something else: its correction is due
    window.form.owner_name.setText("Someone Else Entirely")
    window.form.owner_name.editingFinished.emit()
    idle(window, qtbot)
    opened(window, qtbot, "900.01-1-2")
    opened(window, qtbot, VIOLATION)
    assert "Issue its correction... (Ctrl+L)" in pane.toPlainText()


# --- high contrast never widens the window past a 1024 px screen --------------------------

def test_high_contrast_keeps_the_window_within_a_small_screen(
        window: MainWindow, qtbot: QtBot) -> None:
    opened(window, qtbot, VIOLATION)
    contrast = window.menus.view.contrast
    assert not contrast.isChecked()
    try:
        contrast.trigger()
        assert contrast.isChecked()
        idle(window, qtbot)
        # the larger font asks for no more than the screen has; the heading is elided
        assert window.minimumSizeHint().width() <= 1024
        qtbot.waitUntil(lambda: window.width() <= 1024)
        heading = window.workbench.heading
        assert heading.text().startswith(VIOLATION) and heading.toolTip() == heading.text()
    finally:
        contrast.trigger()
    idle(window, qtbot)
    assert not contrast.isChecked()
    assert window.width() <= 1024 and window.minimumSizeHint().width() <= 1024


# --- Enter in the search opens the first parcel found -------------------------------------

def test_enter_in_the_search_opens_the_first_found_even_with_another_open(
        window: MainWindow, qtbot: QtBot) -> None:
    opened(window, qtbot, "900.01-1-12")
    window.search.setFocus()
    qtbot.keyClicks(window.search, "900.01-1-1")
    qtbot.waitUntil(lambda: 1 < window.proxy.rowCount() < window.model.rowCount())
    found = [window.proxy.index(r, 0).data() for r in range(window.proxy.rowCount())]
    first = found[0]
    assert "900.01-1-12" in found
    assert first != "900.01-1-12" and window.sbl == "900.01-1-12"
    qtbot.keyClick(window.search, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.sbl == first and window.case is not None)
    assert window.table.hasFocus()
    idle(window, qtbot)


# --- the day's messages fit the status bar of a 1024 px window ----------------------------

def test_status_messages_fit_beside_the_layer_name_at_1024_px(
        window: MainWindow, qtbot: QtBot) -> None:
    opened(window, qtbot, VIOLATION)
    assert window.width() == 1024
    layer = window.layer_label
    assert layer.text().startswith("Shoreline: ") and layer.is_elided()
    assert layer.toolTip() == layer.text()  # all of it where the pointer rests
    for said in ("All changes are saved: every field is saved as you leave it.",
                 f"Issued notice of violation for {VIOLATION} (letter 1a2b3c4d)"):
        window.say(said)
        qtbot.waitUntil(lambda s=said: window.message.text() == s)
        assert not window.message.is_elided(), window.message.contentsRect().width()


# --- windows opened beside the main one take the keyboard and give it back ----------------

def _escape_closes_and_gives_the_keys_back(window: MainWindow, qtbot: QtBot,
                                           dialog: QWidget) -> None:
    qtbot.waitUntil(lambda: dialog.isActiveWindow())
    focused = QApplication.focusWidget()
    assert focused is not None and focused.window() is dialog
    qtbot.keyClick(focused, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not dialog.isVisible())
    qtbot.waitUntil(lambda: window.isActiveWindow())


def test_the_fingerprint_the_guide_and_the_report_take_and_give_back_the_keys(
        window: MainWindow, qtbot: QtBot) -> None:
    from inspector_app.ui.fingerprint import show_fingerprint

    opened(window, qtbot, VIOLATION)
    window.table.setFocus()
    shown = show_fingerprint(window, done="Field kit written.", fingerprint="AB12 CD34",
                             enrolled=True)
    _escape_closes_and_gives_the_keys_back(window, qtbot, shown)

    window.menus.help.show_guide()
    guide = window.menus.help.guide
    assert guide is not None
    _escape_closes_and_gives_the_keys_back(window, qtbot, guide)

    report = window.menus.reports.show_program_report()
    idle(window, qtbot)
    _escape_closes_and_gives_the_keys_back(window, qtbot, report)
    # the main window's shortcuts work at once: Ctrl+F finds
    focused = QApplication.focusWidget()
    assert focused is not None and focused.window() is window
    qtbot.keyClick(focused, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: window.search.hasFocus())


# --- a shoreline layer's accuracy is typed, never filled in -------------------------------

def test_the_shoreline_layers_accuracy_must_be_typed(qtbot: QtBot, tmp_path: Path) -> None:
    from inspector_app.ui.imports import ACCURACY_MEANS, ShorelineLayerDialog

    dialog = ShorelineLayerDialog(tmp_path / "county-contour.geojson")
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.name.text() == "county-contour" and dialog.accuracy.text() == ""
    labels = [w.text() for w in dialog.findChildren(QLabel)]
    assert ACCURACY_MEANS in labels
    # Enter with nothing typed declares nothing: refused in the dialog, which stays
    qtbot.keyClick(dialog.accuracy, Qt.Key.Key_Return)
    assert dialog.isVisible() and dialog.chosen is None
    assert dialog.problem.text() == ("Type the layer's declared accuracy in feet, as its "
                                     "source states it.")
    dialog.accuracy.setText("about five")
    qtbot.keyClick(dialog.accuracy, Qt.Key.Key_Return)
    assert dialog.isVisible() and "'about five' is not a number of feet" in dialog.problem.text()
    dialog.accuracy.setText("2.5")
    qtbot.keyClick(dialog.accuracy, Qt.Key.Key_Return)
    assert not dialog.isVisible() and dialog.chosen == ("county-contour", 2.5)


# --- a measure's total a reader can add up -------------------------------------------------

def test_a_measures_total_says_when_its_legs_were_added_before_rounding(qtbot: QtBot) -> None:
    from PySide6.QtWidgets import QGraphicsScene

    from inspector_app.ui.map_measure import MeasureTool

    scene = QGraphicsScene()
    tool = MeasureTool(scene, lambda: 0.5)
    said: list[str] = []
    tool.said.connect(said.append)
    tool.start()
    for x in (0.0, 161.84, 283.98):  # legs of 161.84 and 122.14 ft
        tool.add(x, 0.0)
    assert tool.legs == pytest.approx([161.84, 122.14], abs=0.005)
    assert said[-1].startswith("Measured: last leg 122.1 ft; total 284.0 ft (161.8 ft + "
                               "122.1 ft, added before rounding).")
    tool.clear()
    tool.start()
    for x in (0.0, 161.84, 283.91):  # 161.8 + 122.1 = 283.9: nothing to explain
        tool.add(x, 0.0)
    assert "total 283.9 ft (161.8 ft + 122.1 ft). Click on" in said[-1]


# --- accepting a suggested finding is the top undo step ------------------------------------

CAPACITY = "900.01-1-2"  # the demo's small septic tank: a capacity suggestion
CAPACITY_KEY = "septic_tank_capacity/septic_tank#1"


def test_undo_after_accepting_a_suggestion_undoes_the_acceptance_first(
        window: MainWindow, qtbot: QtBot) -> None:
    ws = window.workspace
    opened(window, qtbot, CAPACITY)
    tank_before = window.runner.wait(lambda: ws.load_case(CAPACITY).components[0])
    window.form.owner_name.setText("Owner Typed Today")
    window.form.owner_name.editingFinished.emit()
    idle(window, qtbot)
    assert window.undo_stack.count() == 1
    window.evaluation.decided.emit(CAPACITY_KEY, True, "")
    qtbot.waitUntil(lambda: "Undo decision" in window.evaluation.toPlainText())
    idle(window, qtbot)
    assert window.undo_stack.count() == 2
    assert window.menus.edit.undo_action.text() == "&Undo accepting the suggested finding"
    accepted = window.runner.wait(lambda: ws.load_case(CAPACITY).components[0])
    assert accepted.defects != tank_before.defects

    window.menus.edit.undo()  # the acceptance, not the owner's name
    qtbot.waitUntil(lambda: "pending again" in window.message.text())
    idle(window, qtbot)
    assert not window.workbench.problem.isVisible()
    case = window.runner.wait(lambda: ws.load_case(CAPACITY))
    assert case.components[0].defects == tank_before.defects
    assert case.parcel.owner_name == "Owner Typed Today"

    window.menus.edit.undo()  # then the owner's name, without a false conflict
    qtbot.waitUntil(lambda: window.runner.wait(
        lambda: ws.load_case(CAPACITY).parcel.owner_name) != "Owner Typed Today")
    idle(window, qtbot)
    assert not window.workbench.problem.isVisible()
    assert "Not saved" not in window.message.text() and "()" not in window.message.text()


def test_a_refused_edit_names_an_empty_value_in_words() -> None:
    from inspector_app.domain.edits import EditConflict

    said = str(EditConflict("components[0].defects", ("cracked baffle",), ()))
    assert said == ("components[0].defects: changed elsewhere since the form was opened "
                    "(now 'cracked baffle'; your value blank)")
    assert "()" not in said
