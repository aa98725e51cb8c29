"""Saves and opens run on the worker; the window never waits for them.

The window runs with the real worker thread. A gate (a job that waits on an event) holds
the worker, so that what the user does while a save is still on its way is done at a known
moment: the edits made meanwhile are made on the case as it will be stored, land in the
order they were made, and undo takes back the edit the user made last.
"""

from __future__ import annotations

import shutil
import threading
from collections.abc import Iterator
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QFileDialog, QInputDialog, QMessageBox
from pytestqt.qtbot import QtBot

from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.workspace import Workspace
from inspector_app.ui.main_window import MainWindow
from inspector_app.ui.tasks import TaskRunner

from .live import Gate, settle, threaded_window

TODAY = date(2026, 11, 25)
TANK = "900.01-1-2"   # four bedrooms; septic tank, distribution box, absorption area
OTHER = "900.01-1-14"


@pytest.fixture(scope="module")
def demo_master(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("demo") / "data"
    with Workspace(root, user="k.olmsted") as ws:
        install_demo(ws, today=TODAY)
    return root


@pytest.fixture
def data(demo_master: Path, tmp_path: Path) -> Path:
    target = tmp_path / "data"
    shutil.copytree(demo_master, target)
    return target


@pytest.fixture
def live(qtbot: QtBot, data: Path, tmp_path: Path,
         monkeypatch: pytest.MonkeyPatch) -> Iterator[MainWindow]:
    boxes: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: boxes.append(str(a[2])))
    ws = Workspace(data, user="k.olmsted")
    w = threaded_window(ws, tmp_path, TODAY)
    w.boxes = boxes  # type: ignore[attr-defined]
    qtbot.addWidget(w)
    w.resize(1280, 800)
    w.show()
    settle(w, qtbot)
    yield w
    w.close()
    ws.close()


def stored(data: Path, sbl: str) -> Any:
    """The case as stored, read on a connection of its own (the window's is the worker's)."""
    with Workspace(data, user="reader") as ws:
        return ws.load_case(sbl)


def open_parcel(w: MainWindow, qtbot: QtBot, sbl: str) -> None:
    w.select(sbl)
    settle(w, qtbot)
    assert w.sbl == sbl and w.form.loaded


def type_into(widget: Any, text: str) -> None:
    """Type `text` over the field's value and leave it with Tab."""
    widget.setFocus()
    QApplication.processEvents()
    (widget.lineEdit() if hasattr(widget, "lineEdit") else widget).selectAll()
    QTest.keyClicks(widget, text)
    QTest.keyClick(widget, Qt.Key.Key_Tab)


def bedrooms_history(data: Path, sbl: str) -> list[tuple[Any, Any]]:
    with Workspace(data, user="reader") as ws:
        return [(h["old_value"], h["new_value"]) for h in ws.history(sbl)
                if h["field"] == "bedrooms"]


def test_edits_made_while_a_save_is_on_its_way_are_made_on_it(
        live: MainWindow, qtbot: QtBot, data: Path) -> None:
    open_parcel(live, qtbot, TANK)
    f = live.form
    assert f.bedrooms.value() == 4
    gate = Gate(live.runner)
    type_into(f.bedrooms, "6")
    # Not stored yet, but the form shows the edit as it will be, and the next edit is
    # made on it: the same field again, then another.
    assert stored(data, TANK).dwelling.bedrooms == 4
    assert live.case is not None and live.case.dwelling.bedrooms == 6
    assert f.bedrooms.value() == 6 and not f.is_dirty()
    assert not live.message.text().startswith("Saved")
    type_into(f.bedrooms, "7")
    type_into(f.owner_name, "Gated Owner")
    assert live.case.dwelling.bedrooms == 7 and live.case.parcel.owner_name == "Gated Owner"
    gate.open()
    settle(live, qtbot)
    case = stored(data, TANK)
    assert (case.dwelling.bedrooms, case.parcel.owner_name) == (7, "Gated Owner")
    assert not live.problem.isVisible()
    assert bedrooms_history(data, TANK)[-2:] == [(4, 6), (6, 7)]  # in order, none refused
    assert live.message.text() == f"Saved {TANK}"
    assert live.undo_stack.count() == 3
    assert f.bedrooms.value() == 7 and f.owner_name.text() == "Gated Owner"
    # Undone step by step, each the edit it names.
    assert live.undo_stack.undoText() == "Owner"
    for bedrooms, owner in ((7, case.parcel.owner_name), (6, None), (4, None)):
        live.menus.edit.undo_action.trigger()
        settle(live, qtbot)
        now = stored(data, TANK)
        assert now.dwelling.bedrooms == bedrooms and f.bedrooms.value() == bedrooms
        if owner is None:
            assert now.parcel.owner_name != "Gated Owner"


def test_undo_while_a_save_is_on_its_way_takes_back_that_save(
        live: MainWindow, qtbot: QtBot, data: Path) -> None:
    open_parcel(live, qtbot, TANK)
    before = stored(data, TANK)
    gate = Gate(live.runner)
    type_into(live.form.bedrooms, "5")
    live.menus.edit.undo_action.trigger()  # waits for the save, then takes it back
    assert live.form.bedrooms.value() == 5
    gate.open()
    settle(live, qtbot)
    assert stored(data, TANK) == before
    assert live.form.bedrooms.value() == 4
    assert bedrooms_history(data, TANK)[-2:] == [(4, 5), (5, 4)]
    assert live.undo_stack.canRedo() and not live.undo_stack.canUndo()
    live.menus.edit.redo_action.trigger()
    settle(live, qtbot)
    assert stored(data, TANK).dwelling.bedrooms == 5 and live.form.bedrooms.value() == 5


def test_a_save_refused_while_another_is_on_its_way_shows_what_is_stored_and_why(
        live: MainWindow, qtbot: QtBot, data: Path) -> None:
    open_parcel(live, qtbot, TANK)
    gate = Gate(live.runner)
    # Meanwhile the office changes the owner's name (a connection of its own).
    with Workspace(data, user="office") as office:
        case = office.load_case(TANK)
        office.save_case(replace(case, parcel=replace(case.parcel, owner_name="Office Name")),
                         today=TODAY)
    type_into(live.form.owner_name, "Laptop Name")  # refused: changed elsewhere
    type_into(live.form.bedrooms, "6")              # saved: nobody else changed it
    gate.open()
    settle(live, qtbot)
    case = stored(data, TANK)
    assert (case.parcel.owner_name, case.dwelling.bedrooms) == ("Office Name", 6)
    assert "changed elsewhere" in live.problem.text() and live.problem.isVisible()
    assert live.form.owner_name.text() == "Office Name" and live.form.bedrooms.value() == 6
    assert live.undo_stack.count() == 1 and live.undo_stack.undoText() == "Bedrooms"


def test_what_the_user_types_while_a_save_lands_stays_in_the_field(
        live: MainWindow, qtbot: QtBot, data: Path) -> None:
    open_parcel(live, qtbot, TANK)
    f = live.form
    gate = Gate(live.runner)
    type_into(f.bedrooms, "6")
    f.weather.setFocus()
    QApplication.processEvents()
    f.weather.selectAll()
    QTest.keyClicks(f.weather, "light rain")  # still in the field when the save lands
    gate.open()
    settle(live, qtbot)
    assert stored(data, TANK).dwelling.bedrooms == 6
    assert f.weather.text() == "light rain" and f.weather.hasFocus()
    assert f.is_dirty()
    QTest.keyClick(f.weather, Qt.Key.Key_Tab)
    settle(live, qtbot)
    case = stored(data, TANK)
    assert case.inspection.weather == "light rain" and case.dwelling.bedrooms == 6


def test_the_gui_thread_never_waits_on_the_worker_once_the_window_shows(
        live: MainWindow, qtbot: QtBot, data: Path, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    waited: list[str] = []
    real_wait = TaskRunner.wait

    def wait(runner: TaskRunner, fn: Any) -> Any:
        if threading.current_thread() is threading.main_thread():
            import traceback

            waited.append("".join(traceback.format_stack(limit=6)))
        return real_wait(runner, fn)

    monkeypatch.setattr(TaskRunner, "wait", wait)
    # Opening, saving, undoing and redoing; a component added; the map.
    open_parcel(live, qtbot, TANK)
    type_into(live.form.owner_name, "Someone Else")
    settle(live, qtbot)
    live.menus.edit.undo_action.trigger()
    live.menus.edit.redo_action.trigger()
    settle(live, qtbot)
    open_parcel(live, qtbot, OTHER)
    f = live.form
    f.new_condition.setCurrentIndex(f.new_condition.findData("acceptable"))
    next(b for b in f.findChildren(type(live.load_demo)) if b.text() == "&Add component"
         ).click()
    settle(live, qtbot)
    x0, y0, x1, y1 = live.site.scene.sceneRect().getCoords()
    cx, cy = (x0 + x1) / 2, -(y0 + y1) / 2
    live.site.area_drawn.emit([(cx - 20, cy - 30), (cx + 20, cy - 30), (cx + 20, cy + 30),
                               (cx - 20, cy + 30)])
    settle(live, qtbot)
    # The menus that asked the worker and waited: a sync package out, About, a field kit.
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda *a, **k: (str(tmp_path / "out.zip"), "")))
    monkeypatch.setattr(QInputDialog, "getItem", staticmethod(lambda *a, **k: ("", False)))
    live.menus.sync.export_package()
    about: list[str] = []
    monkeypatch.setattr(QMessageBox, "about", staticmethod(lambda _p, _t, t: about.append(t)))
    live.menus.help.show_about()
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        staticmethod(lambda *a, **k: (str(tmp_path / "kit.zip"), "")))
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", staticmethod(lambda *a, **k: ""))
    monkeypatch.setattr(QMessageBox, "question",
                        staticmethod(lambda *a, **k: QMessageBox.StandardButton.Cancel))
    live.folders.join_kit()
    # The letters tab asks before it issues, naming the parcel's address.
    live.tabs.setCurrentWidget(live.letters)
    live.letters.issue()
    settle(live, qtbot)
    assert about and "Data folder" in about[0]
    assert (tmp_path / "out.zip").is_file()
    assert waited == [], waited[0]
