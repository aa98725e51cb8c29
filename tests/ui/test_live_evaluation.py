"""Leaving a field saves it and the evaluation panel shows the evaluation of what was saved,
for the parcel that is open: an evaluation worked out for a parcel the user has just left
never shows on the next one. Run with the real worker thread, as users run it."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from inspector_app.domain.case import Case
from inspector_app.domain.vocabulary import Condition
from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.workspace import Workspace
from inspector_app.ui.form_fields import NumberField
from inspector_app.ui.main_window import MainWindow

from .live import threaded_window

TODAY = date(2026, 11, 25)
UNDERSIZED, NEVER_INSPECTED = "900.01-1-5", "900.01-1-1"


def _shown(qtbot: QtBot, tmp_path: Path) -> tuple[Workspace, MainWindow]:
    """The demo folder in the window with its real worker, the work lists worked out."""
    ws = Workspace(tmp_path / "data", user="k.olmsted")
    install_demo(ws, today=TODAY)
    w = threaded_window(ws, tmp_path, TODAY)
    w.show()  # closed by the test, not by qtbot: see `window`
    qtbot.waitUntil(lambda: w.lists_state.text() == "Work lists up to date", timeout=20_000)
    return ws, w


@pytest.fixture
def window(qtbot: QtBot, tmp_path: Path) -> Iterator[MainWindow]:
    ws, w = _shown(qtbot, tmp_path)
    yield w
    # A failed test may leave a field in hand: it is left while the worker still runs
    # (closing the window stops the worker, and a save after that would never end).
    focused = QApplication.focusWidget()
    if focused is not None:
        focused.clearFocus()
    qtbot.waitUntil(lambda: not w.runner.pending, timeout=10_000)
    w.close()
    w.deleteLater()
    ws.close()


def _open(window: MainWindow, qtbot: QtBot, sbl: str) -> None:
    window.select(sbl)
    qtbot.waitUntil(lambda: window.sbl == sbl and window.evaluation.evaluation is not None
                    and not window.runner.pending, timeout=10_000)


def _assessed(window: MainWindow, sbl: str) -> Any:
    return window.runner.wait(lambda: window.workspace.assess_parcel(sbl, as_of=TODAY))


def _bedrooms(window: MainWindow, sbl: str) -> int:
    """The bedrooms stored for the parcel."""
    case: Case = window.runner.wait(lambda: window.workspace.load_case(sbl))
    dwelling = case.dwelling
    assert dwelling is not None
    return dwelling.bedrooms


def _type_bedrooms(window: MainWindow, bedrooms: int) -> None:
    """Type the number into the bedrooms field; the field is still being edited."""
    field = window.form.bedrooms
    assert isinstance(field, NumberField)
    field.setFocus()
    QTest.keyClick(field, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClicks(field, str(bedrooms))
    assert field.value() == bedrooms


def _record_panel(window: MainWindow) -> list[tuple[str | None, Any]]:
    """Every evaluation the panel shows from now on, with the parcel open at the time."""
    seen: list[tuple[str | None, Any]] = []
    panel = window.evaluation
    panel.textChanged.connect(lambda: seen.append((window.sbl, panel.evaluation
                                                   or panel.no_law)))
    return seen


def test_leaving_a_field_shows_the_evaluation_of_the_saved_edit(window: MainWindow,
                                                                qtbot: QtBot) -> None:
    _open(window, qtbot, UNDERSIZED)
    before = window.evaluation.evaluation
    assert before is not None and before.design is not None
    bedrooms = _bedrooms(window, UNDERSIZED) + 3
    seen = _record_panel(window)
    _type_bedrooms(window, bedrooms)
    assert not seen  # typing alone saves nothing and evaluates nothing
    QTest.keyClick(window.form.bedrooms, Qt.Key.Key_Tab)  # leave the field
    qtbot.waitUntil(lambda: bool(seen), timeout=10_000)
    qtbot.waitUntil(lambda: not window.runner.pending, timeout=10_000)

    assert _bedrooms(window, UNDERSIZED) == bedrooms
    expected = _assessed(window, UNDERSIZED)
    assert expected != before  # the edit changes what the law makes of the parcel
    assert seen[-1] == (UNDERSIZED, expected)
    assert window.evaluation.evaluation == expected
    assert f"{expected.design.design_bedrooms} design bedrooms" in (
        window.evaluation.toPlainText())
    assert window.evaluation.toPlainText() != ""
    assert window.message.text() == f"Saved {UNDERSIZED}"


def test_switching_parcel_right_after_an_edit_never_shows_the_edited_one(
        window: MainWindow, qtbot: QtBot) -> None:
    _open(window, qtbot, UNDERSIZED)
    bedrooms = _bedrooms(window, UNDERSIZED) + 3
    other = _assessed(window, NEVER_INSPECTED)
    seen = _record_panel(window)
    _type_bedrooms(window, bedrooms)
    # Leave the field and open another parcel at once: the save is still on the worker
    # when the other parcel is asked for.
    QTest.keyClick(window.form.bedrooms, Qt.Key.Key_Tab)
    assert window.runner.pending  # the save is on its way
    window.select(NEVER_INSPECTED)  # opened on the worker, after the save
    qtbot.waitUntil(lambda: window.sbl == NEVER_INSPECTED, timeout=10_000)
    qtbot.waitUntil(lambda: not window.runner.pending and window.evaluation.evaluation
                    is not None, timeout=10_000)

    edited = _assessed(window, UNDERSIZED)
    assert _bedrooms(window, UNDERSIZED) == bedrooms
    assert edited != other
    shown_on_other = [e for sbl, e in seen if sbl == NEVER_INSPECTED and e is not None]
    assert shown_on_other and all(e == other for e in shown_on_other), (
        "the parcel left was evaluated onto the parcel opened")
    assert edited not in [e for _sbl, e in seen]  # never shown anywhere: the user moved on
    assert window.evaluation.evaluation == other
    assert window.heading.text().startswith(NEVER_INSPECTED)


def test_closing_the_window_with_a_field_in_hand_saves_it(qtbot: QtBot, tmp_path: Path
                                                          ) -> None:
    """The field being typed in is left, and saved, before the worker stops: closing never
    waits forever on a save the stopped worker would not run."""
    ws, w = _shown(qtbot, tmp_path)
    _open(w, qtbot, UNDERSIZED)
    before = _bedrooms(w, UNDERSIZED)
    _type_bedrooms(w, before + 2)
    w.close()  # returns: the save ran before the worker stopped
    assert not w.runner.worker_thread.isRunning()
    with pytest.raises(RuntimeError, match="closed"):
        w.runner.wait(lambda: None)
    w.deleteLater()
    assert ws.load_case(UNDERSIZED).dwelling.bedrooms == before + 2  # type: ignore[union-attr]
    ws.close()


def test_a_saved_change_reaches_the_parcels_row_and_the_work_list_counts(
        window: MainWindow, qtbot: QtBot) -> None:
    _open(window, qtbot, UNDERSIZED)
    row = window.model.rows[window.parcel_list._row_of[UNDERSIZED]]
    assert row["outcome"] != "failure"
    failures = sum(bool(r["flags"].get("failure")) for r in window.model.rows)
    label = next(window.work_list.itemText(i) for i in range(window.work_list.count())
                 if window.work_list.itemData(i) == "failure")
    assert label.endswith(f"({failures:,})")
    before = window.case
    assert before is not None and window.parcel_id is not None
    after = replace(before, components=tuple(replace(c, condition=Condition.FAILED)
                                             for c in before.components))
    window.workbench.edits.save_edit(window.parcel_id, before, after)  # queued on the worker
    qtbot.waitUntil(lambda: row["outcome"] == "failure", timeout=10_000)
    assert row["flags"]["failure"] is True
    label = next(window.work_list.itemText(i) for i in range(window.work_list.count())
                 if window.work_list.itemData(i) == "failure")
    assert label.endswith(f"({failures + 1:,})")
