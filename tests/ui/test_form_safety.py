"""The inspection form never crashes, never edits by accident, never saves onto another parcel.

These run the window with the real worker thread, as a user runs it. Scenarios that used to
crash the process run in a subprocess, so a segfault fails the test instead of pytest.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMessageBox
from pytestqt.qtbot import QtBot

from inspector_app import casefile
from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.workspace import Workspace
from inspector_app.ui.main_window import MainWindow

from .live import assert_ran, run_app_script, settle, threaded_window, wheel

TODAY = date(2026, 11, 25)
TANK = "900.01-1-2"       # septic tank, distribution box, absorption area; inspected
OTHER = "900.01-1-14"     # no components, never inspected


@pytest.fixture(scope="module")
def demo_master(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("demo") / "data"
    with Workspace(root, user="k.olmsted") as ws:
        install_demo(ws, today=TODAY)
    return root


@pytest.fixture
def data(demo_master: Path, tmp_path: Path) -> Path:
    import shutil

    target = tmp_path / "data"
    shutil.copytree(demo_master, target)
    return target


@pytest.fixture
def live(qtbot: QtBot, data: Path, tmp_path: Path,
         monkeypatch: pytest.MonkeyPatch) -> Iterator[MainWindow]:
    """The window with the real threaded worker."""
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


def exported(data: Path, sbl: str) -> str:
    with Workspace(data, user="reader") as ws:
        return casefile.dumps(ws.load_case(sbl))


def open_parcel(w: MainWindow, qtbot: QtBot, sbl: str) -> None:
    w.select(sbl)
    settle(w, qtbot)
    assert w.sbl == sbl and w.form.loaded


def type_into(qtbot: QtBot, widget: Any, text: str, then: Qt.Key = Qt.Key.Key_Tab) -> None:
    widget.setFocus()
    QApplication.processEvents()
    if hasattr(widget, "selectAll"):
        widget.selectAll()
    elif hasattr(widget, "lineEdit"):
        widget.lineEdit().selectAll()
    if text:
        QTest.keyClicks(widget, text)
    else:
        QTest.keyClick(widget, Qt.Key.Key_Delete)
    QTest.keyClick(widget, then)


# --- 1 and 14: editing a component's details in the real app -------------------------

def test_typing_component_details_and_picking_their_choices_does_not_crash(data: Path
                                                                          ) -> None:
    result = run_app_script(f'''
        w.select("{TANK}"); settle()
        w.tabs.setCurrentIndex(0)
        w.form.components.selectRow(0); settle()
        for name, text in (("capacity_gal", "1000"), ("compartments", "2"),
                           ("material", "concrete"), ("sludge_depth_in", "9")):
            widget = w.form.detail_widgets[name]
            widget.setFocus(); app.processEvents()
            (widget.lineEdit() if hasattr(widget, "lineEdit") else widget).selectAll()
            QTest.keyClicks(widget, text)
            QTest.keyClick(widget, Qt.Key.Key_Tab)
            settle()
        combo = w.form.detail_widgets["outlet_baffle"]
        combo.setFocus(); app.processEvents()
        index = combo.findData("damaged")
        while combo.currentIndex() != index:
            QTest.keyClick(combo, Qt.Key.Key_Down if combo.currentIndex() < index
                           else Qt.Key.Key_Up)
            settle()
        QTest.keyClick(w.form.detail_widgets["condition"], Qt.Key.Key_Down); settle()
        tank = ws.load_case("{TANK}").components[0]
        print("SAVED", tank.details.get("capacity_gal"), tank.details.get("compartments"),
              tank.details.get("material"), tank.details.get("sludge_depth_in"),
              tank.details.get("outlet_baffle"), tank.condition.value)
    ''', data)
    assert_ran(result, lambda out: "SAVED 1000.0 2 concrete 9.0 damaged" in out)


def test_a_component_keeps_its_detail_fields_while_its_values_are_saved(
        live: MainWindow, qtbot: QtBot) -> None:
    open_parcel(live, qtbot, TANK)
    live.form.components.selectRow(0)
    capacity = live.form.detail_widgets["capacity_gal"]
    type_into(qtbot, capacity, "1250")
    settle(live, qtbot)
    # Saved, and the very same editor is still in the form (it was not rebuilt under the
    # user's hands).
    assert live.workspace.load_case(TANK).components[0].details["capacity_gal"] == 1250
    assert live.form.detail_widgets["capacity_gal"] is capacity
    assert capacity.isVisible()


# --- numbers: what does not fit is refused in the field's own words, never cut to fit --

@pytest.mark.parametrize(("editor", "typed", "shown_as", "fixed"), [
    ("bedrooms", "999", "999", "3"), ("bedrooms", "4.5", "4.5", "3"),
    ("bedrooms", "four", "four", "3"), ("bedrooms", "", "blank", "3"),
    ("living", "1e9", "1000000000", "1500"), ("living", "-20", "-20", "1500"),
    ("building", "nan", "nan", "3210"), ("lake_ft", "1e400", "1e400", "151.5"),
    ("etu_interval", "0", "0", "12"), ("etu_interval", "61", "61", "12"),
])
def test_a_number_that_does_not_fit_is_refused_in_the_red_bar_and_nothing_is_saved(
        live: MainWindow, qtbot: QtBot, data: Path, editor: str, typed: str, shown_as: str,
        fixed: str) -> None:
    open_parcel(live, qtbot, TANK)
    before = exported(data, TANK)
    field = getattr(live.form, editor)
    type_into(qtbot, field, typed)
    settle(live, qtbot)
    assert live.problem.isVisible()
    shown = live.problem.text()
    assert field.field.with_unit in shown      # the field's own words, with its unit
    assert shown_as in shown                   # and what was read from what was typed
    assert exported(data, TANK) == before      # nothing saved, nothing cut to fit
    assert field.text() == typed                # what was typed stays, to be corrected
    # Corrected, it saves, and the red bar goes.
    type_into(qtbot, field, fixed)
    settle(live, qtbot)
    assert not live.problem.isVisible(), live.problem.text()
    assert exported(data, TANK) != before


def test_numbers_are_read_as_people_type_them(live: MainWindow, qtbot: QtBot) -> None:
    open_parcel(live, qtbot, TANK)
    type_into(qtbot, live.form.living, "1,850")
    type_into(qtbot, live.form.building, " 2400.5 ")
    type_into(qtbot, live.form.bedrooms, "5.0")
    settle(live, qtbot)
    dwelling = live.workspace.load_case(TANK).dwelling
    assert dwelling is not None
    assert (dwelling.living_area_sqft, dwelling.building_area_sqft, dwelling.bedrooms) == (
        1850, 2400.5, 5)
    assert not live.problem.isVisible()
    # Cleared, a field that may be unrecorded is: nothing is put in its place.
    type_into(qtbot, live.form.building, "")
    settle(live, qtbot)
    dwelling = live.workspace.load_case(TANK).dwelling
    assert dwelling is not None and dwelling.building_area_sqft is None
    assert live.form.building.placeholderText() == "(not recorded)"


def test_a_component_detail_that_does_not_fit_names_the_component(
        live: MainWindow, qtbot: QtBot, data: Path) -> None:
    open_parcel(live, qtbot, TANK)
    before = exported(data, TANK)
    live.form.components.selectRow(0)
    settle(live, qtbot)
    capacity = live.form.detail_widgets["capacity_gal"]
    type_into(qtbot, capacity, "250000")
    settle(live, qtbot)
    assert live.problem.isVisible()
    assert "(component 1)" in live.problem.text() and "250000" in live.problem.text()
    assert exported(data, TANK) == before


# --- 2: the wheel scrolls, it never edits --------------------------------------------

def test_the_wheel_over_unfocused_fields_scrolls_the_form_and_changes_nothing(
        live: MainWindow, qtbot: QtBot, data: Path) -> None:
    open_parcel(live, qtbot, TANK)
    live.form.components.selectRow(0)
    settle(live, qtbot)
    before = exported(data, TANK)
    f = live.form
    fields = [f.inspection_date, f.lake_method, f.reason, f.occupancy, f.bedrooms,
              f.detail_widgets["condition"], f.detail_widgets["capacity_gal"], f.new_kind,
              live.work_list]
    values = [w.property("currentIndex") if hasattr(w, "currentIndex") else w.text()
              for w in fields]
    live.search.setFocus()
    scroll = live.form.parentWidget().parentWidget().verticalScrollBar()
    scroll.setValue(scroll.maximum() // 2)
    start = scroll.value()
    for widget in fields:
        assert not widget.hasFocus()
        wheel(widget, -2)
        wheel(widget, +1)
        settle(live, qtbot)
    assert [w.property("currentIndex") if hasattr(w, "currentIndex") else w.text()
            for w in fields] == values
    assert exported(data, TANK) == before
    assert scroll.value() != start  # the page scrolled instead
    # A field the user is in still takes the wheel.
    f.reason.setFocus()
    QApplication.processEvents()
    wheel(f.reason, -1)
    assert f.reason.currentIndex() != values[2]


# --- 4: loading is all or nothing; saves go to the parcel they were made on ---------

def _break_bedrooms(data: Path, sbl: str) -> None:
    """A stored value the form cannot show (text where a number belongs)."""
    conn = sqlite3.connect(data / "inspector.sqlite")
    with conn:
        conn.execute("UPDATE dwellings SET bedrooms = 'five' WHERE parcel_id = "
                     "(SELECT id FROM parcels WHERE sbl = ?)", (sbl,))
    conn.close()


def test_a_parcel_that_cannot_load_leaves_nothing_that_could_save(
        live: MainWindow, qtbot: QtBot, data: Path) -> None:
    open_parcel(live, qtbot, TANK)
    _break_bedrooms(data, OTHER)
    tank_before = exported(data, TANK)
    live.select(OTHER)
    settle(live, qtbot)
    assert not live.form.loaded and not live.form.isEnabled()
    assert live.sbl is None and live.case is None
    assert "could not be opened" in live.problem.text() and OTHER in live.problem.text()
    # Whatever reaches the form now saves nothing, anywhere.
    live.form.bedrooms.setText("5")
    live.form.bedrooms.editingFinished.emit()
    live.form.owner_name.setText("Somebody Else")
    live.form.owner_name.editingFinished.emit()
    settle(live, qtbot)
    assert exported(data, TANK) == tank_before
    conn = sqlite3.connect(data / "inspector.sqlite")
    stored = conn.execute("SELECT d.bedrooms, p.owner_name FROM dwellings d JOIN parcels p "
                          "ON p.id = d.parcel_id WHERE p.sbl = ?", (OTHER,)).fetchone()
    conn.close()
    assert stored[0] == "five" and stored[1] != "Somebody Else"
    # The next parcel opens normally.
    open_parcel(live, qtbot, TANK)
    assert live.form.isEnabled()


def test_a_save_writes_only_the_field_the_user_changed(live: MainWindow, qtbot: QtBot,
                                                       data: Path) -> None:
    open_parcel(live, qtbot, TANK)
    # Meanwhile another writer (a sync import, the office) changes the owner's phone.
    other = Workspace(data, user="office")
    case = other.load_case(TANK)
    from dataclasses import replace

    other.save_case(replace(case, parcel=replace(case.parcel, owner_phone="585-555-0199")),
                    today=TODAY)
    other.close()
    type_into(qtbot, live.form.bedrooms, "6")
    settle(live, qtbot)
    stored = live.workspace.load_case(TANK)
    assert stored.dwelling is not None and stored.dwelling.bedrooms == 6
    assert stored.parcel.owner_phone == "585-555-0199"  # not put back by the form
    assert live.form.phone.text() == "585-555-0199"     # and the form shows it now


def test_an_edit_of_a_value_changed_elsewhere_is_refused_not_overwritten(
        live: MainWindow, qtbot: QtBot, data: Path) -> None:
    open_parcel(live, qtbot, TANK)
    from dataclasses import replace

    other = Workspace(data, user="office")
    case = other.load_case(TANK)
    other.save_case(replace(case, parcel=replace(case.parcel, owner_name="Office Name")),
                    today=TODAY)
    other.close()
    type_into(qtbot, live.form.owner_name, "Laptop Name")
    settle(live, qtbot)
    assert live.workspace.load_case(TANK).parcel.owner_name == "Office Name"
    assert "changed elsewhere" in live.problem.text()
    assert live.form.owner_name.text() == "Office Name"


def test_work_that_finishes_after_the_user_moved_on_never_reopens_its_parcel(
        live: MainWindow, qtbot: QtBot, tmp_path: Path) -> None:
    from PySide6.QtGui import QColor, QImage

    photo = tmp_path / "tank-lid.png"
    image = QImage(64, 48, QImage.Format.Format_RGB32)
    image.fill(QColor("#806040"))
    image.save(str(photo))
    open_parcel(live, qtbot, TANK)
    live.workbench.photos_page.add_photos([photo])  # runs on the worker ...
    live.select(OTHER)        # ... while the user opens the next parcel
    settle(live, qtbot)
    assert live.sbl == OTHER
    assert live.form.sbl.text() == OTHER and OTHER in live.heading.text()
    assert live.letters.sbl == OTHER
    assert live.photos.count() == 0  # the photo went to the first parcel only
    assert [a["filename"] for a in live.workspace.attachments(TANK)] == ["tank-lid.png"]


def test_undo_and_redo_write_the_same_field_back(live: MainWindow, qtbot: QtBot,
                                                 data: Path) -> None:
    open_parcel(live, qtbot, TANK)
    before = exported(data, TANK)
    type_into(qtbot, live.form.bedrooms, "7")
    settle(live, qtbot)
    assert live.workspace.load_case(TANK).dwelling.bedrooms == 7  # type: ignore[union-attr]
    live.menus.edit.undo_action.trigger()
    settle(live, qtbot)
    assert exported(data, TANK) == before
    assert live.form.bedrooms.value() == 4
    live.menus.edit.redo_action.trigger()
    settle(live, qtbot)
    assert live.workspace.load_case(TANK).dwelling.bedrooms == 7  # type: ignore[union-attr]
    history = [(h["field"], h["old_value"], h["new_value"])
               for h in live.workspace.history(TANK) if h["field"] == "bedrooms"]
    assert history[-3:] == [("bedrooms", 4, 7), ("bedrooms", 7, 4), ("bedrooms", 4, 7)]


# --- 9: the keyboard ---------------------------------------------------------------

def test_window_shortcuts_work_from_inside_text_fields(live: MainWindow, qtbot: QtBot,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    open_parcel(live, qtbot, TANK)
    saved_name = live.form.owner_name.text()
    type_into(qtbot, live.form.owner_name, "Typed Owner")
    settle(live, qtbot)
    assert live.workspace.load_case(TANK).parcel.owner_name == "Typed Owner"
    # In another text field, Ctrl+Z undoes the saved edit (the field does not eat it) ...
    live.form.email.setFocus()
    QApplication.processEvents()
    QTest.keyClick(live.form.email, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    settle(live, qtbot)
    assert live.workspace.load_case(TANK).parcel.owner_name == saved_name
    # ... and Ctrl+Y redoes it, on every platform.
    QTest.keyClick(live.form.email, Qt.Key.Key_Y, Qt.KeyboardModifier.ControlModifier)
    settle(live, qtbot)
    assert live.workspace.load_case(TANK).parcel.owner_name == "Typed Owner"
    # Ctrl+E is the sync export, not "end of line" in the e-mail field.
    asked: list[str] = []
    monkeypatch.setattr("PySide6.QtWidgets.QFileDialog.getSaveFileName",
                        lambda *a, **k: (asked.append(a[1]), ("", ""))[1])
    live.form.email.setFocus()
    QTest.keyClick(live.form.email, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier)
    assert asked and "sync package" in asked[0]
    assert live.form.email.text() == ""


def test_undo_takes_back_typing_that_is_not_saved_yet(live: MainWindow, qtbot: QtBot,
                                                      data: Path) -> None:
    open_parcel(live, qtbot, TANK)
    before = exported(data, TANK)
    live.form.weather.setFocus()
    QTest.keyClicks(live.form.weather, " and windy")
    QTest.keyClick(live.form.weather, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    settle(live, qtbot)
    assert "windy" not in live.form.weather.text()
    assert exported(data, TANK) == before


def test_tab_leaves_the_lists_and_typing_a_search_never_switches_parcels(
        live: MainWindow, qtbot: QtBot) -> None:
    open_parcel(live, qtbot, TANK)
    live.table.setFocus()
    QTest.keyClick(live.table, Qt.Key.Key_Tab)
    assert not live.table.hasFocus()
    assert live.sbl == TANK
    live.form.components.setFocus()
    QTest.keyClick(live.form.components, Qt.Key.Key_Tab)
    assert not live.form.components.hasFocus()
    for text in ("9", "900.01-1-1", "Lake", "zzz no such"):
        live.search.clear()
        live.search.setFocus()
        QTest.keyClicks(live.search, text)
        settle(live, qtbot)
        assert live.sbl == TANK
    live.search.clear()
    settle(live, qtbot)
    assert live.sbl == TANK


def test_ctrl_s_confirms_that_everything_is_saved(live: MainWindow, qtbot: QtBot) -> None:
    open_parcel(live, qtbot, TANK)
    live.form.weather.setFocus()
    live.form.weather.end(False)  # a field shows its value's start: add at its end
    QTest.keyClicks(live.form.weather, " (overcast)")
    QTest.keyClick(live.form.weather, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    settle(live, qtbot)
    assert "All changes are saved" in live.message.text()
    stored = live.workspace.load_case(TANK).inspection
    assert stored is not None and stored.weather is not None
    assert stored.weather.endswith("(overcast)")


# --- 11: a new component's condition is what the inspector found --------------------

def test_a_new_component_needs_its_condition_before_it_is_added(live: MainWindow,
                                                                qtbot: QtBot) -> None:
    open_parcel(live, qtbot, OTHER)
    f = live.form
    assert f.new_condition.currentData() is None
    f.new_kind.setCurrentIndex(f.new_kind.findData("septic_tank"))
    add = next(b for b in f.findChildren(type(live.load_demo)) if b.text() == "&Add component")
    add.click()
    settle(live, qtbot)
    assert live.workspace.load_case(OTHER).components == ()
    assert "choose the condition" in live.problem.text()
    f.new_condition.setCurrentIndex(f.new_condition.findData("substandard"))
    add.click()
    settle(live, qtbot)
    added = live.workspace.load_case(OTHER).components
    assert [(c.kind.value, c.condition.value) for c in added] == [("septic_tank",
                                                                   "substandard")]
    assert f.new_condition.currentData() is None  # the next one starts unset again
    assert f.detail_box.title() == "Selected component: septic tank"
    live.menus.edit.undo_action.trigger()
    settle(live, qtbot)
    assert live.workspace.load_case(OTHER).components == ()


def test_history_of_the_edits_names_who_and_the_values(live: MainWindow, qtbot: QtBot
                                                       ) -> None:
    open_parcel(live, qtbot, TANK)
    type_into(qtbot, live.form.bedrooms, "5")
    settle(live, qtbot)
    last = live.workspace.history(TANK)[-1]
    assert (last["field"], last["old_value"], last["new_value"], last["user"]) == (
        "bedrooms", 4, 5, "k.olmsted")
    assert json.dumps(last["new_value"]) == "5"


def test_map_edits_are_undone_like_form_edits_and_keep_the_undo_stack(
        live: MainWindow, qtbot: QtBot, data: Path) -> None:
    sbl = "900.01-1-1"  # never inspected
    open_parcel(live, qtbot, sbl)
    before = exported(data, sbl)
    type_into(qtbot, live.form.bedrooms, "6")
    settle(live, qtbot)
    edited = live.workspace.load_case(sbl)
    live.tabs.setCurrentIndex(1)
    settle(live, qtbot)
    x0, y0, x1, y1 = live.site.scene.sceneRect().getCoords()
    cx, cy = (x0 + x1) / 2, -(y0 + y1) / 2
    live.site.area_drawn.emit([(cx - 20, cy - 30), (cx + 20, cy - 30), (cx + 20, cy + 30),
                               (cx - 20, cy + 30)])
    settle(live, qtbot)
    drawn = live.workspace.load_case(sbl)
    assert drawn.site is not None and drawn.site.absorption_area is not None
    assert live.undo_stack.count() == 2  # the form edit is still there
    live.menus.edit.undo_action.trigger()
    settle(live, qtbot)
    assert drawn.site != edited.site
    assert live.workspace.load_case(sbl) == edited  # the area as it was, bedrooms still 6
    live.menus.edit.undo_action.trigger()
    settle(live, qtbot)
    assert exported(data, sbl) == before
    live.menus.edit.redo_action.trigger()
    live.menus.edit.redo_action.trigger()
    settle(live, qtbot)
    assert live.workspace.load_case(sbl).site.absorption_area == drawn.site.absorption_area  # type: ignore[union-attr]


def test_the_inspection_date_takes_a_typed_date_after_one_click(live: MainWindow,
                                                                 qtbot: QtBot) -> None:
    open_parcel(live, qtbot, TANK)
    field = live.form.inspection_date
    live.form.parentWidget().parentWidget().ensureWidgetVisible(field)
    QTest.mouseClick(field, Qt.MouseButton.LeftButton)  # one click, in the middle
    qtbot.wait(20)
    QTest.keyClicks(field, "2026-11-20")
    assert field.date().toString("yyyy-MM-dd") == "2026-11-20"
    QTest.keyClick(field, Qt.Key.Key_Tab)
    settle(live, qtbot)
    stored = live.workspace.load_case(TANK).inspection
    assert stored is not None and stored.date == date(2026, 11, 20)


@pytest.mark.parametrize("high_contrast", [False, True])
def test_the_form_fits_its_pane_at_1280_by_800_in_both_themes(
        live: MainWindow, qtbot: QtBot, high_contrast: bool) -> None:
    if high_contrast:
        live.menus.view.contrast.trigger()
    try:
        for sbl in (TANK, "900.01-1-7", OTHER):
            open_parcel(live, qtbot, sbl)
            live.form.components.selectRow(0)
            QApplication.processEvents()
            viewport = live.form.parentWidget()
            assert live.form.minimumSizeHint().width() <= viewport.width(), sbl
    finally:
        if high_contrast:
            live.menus.view.contrast.trigger()


def test_a_new_inspection_starts_today_and_leaves_the_last_one_as_recorded(
        live: MainWindow, qtbot: QtBot, data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from PySide6.QtWidgets import QInputDialog

    open_parcel(live, qtbot, TANK)
    last = live.workspace.load_case(TANK).inspection
    assert last is not None and last.date < TODAY
    assert live.form.inspection_box.title() == (f"Inspection of {last.date.isoformat()} by "
                                                f"{last.inspector}")
    monkeypatch.setattr(QInputDialog, "getItem", lambda *a, **k: ("conveyance", True))
    live.form.new_inspection.click()
    settle(live, qtbot)
    new = live.workspace.load_case(TANK).inspection
    assert new is not None
    assert (new.date, new.inspector, new.reason.value) == (TODAY, "k.olmsted", "conveyance")
    # Nothing of the earlier visit is copied into the new one ...
    assert (new.inspector_certification, new.weather, new.occupancy, new.failure_evidence,
            new.tests) == (None, None, None, (), ())
    # ... and the earlier visit is still on record exactly as it was.
    conn = sqlite3.connect(data / "inspector.sqlite")
    rows = conn.execute(
        "SELECT date, reason, inspector_certification FROM inspections WHERE deleted_at IS NULL "
        "AND parcel_id = (SELECT id FROM parcels WHERE sbl = ?) ORDER BY date", (TANK,)).fetchall()
    conn.close()
    assert rows[-2] == (last.date.isoformat(), last.reason.value, last.inspector_certification)
    assert rows[-1][:2] == (TODAY.isoformat(), "conveyance")
    assert live.form.inspection_box.title() == f"Inspection of {TODAY.isoformat()} by k.olmsted"
    assert live.form.certification.text() == ""


def test_a_parcel_from_the_roll_without_a_dwelling_can_be_edited(live: MainWindow,
                                                                  qtbot: QtBot) -> None:
    from inspector_app.domain.case import Case, Parcel
    from inspector_app.storage.cases import save_case

    sbl = "900.01-1-99"

    def from_the_roll() -> None:  # as the parcel-roll import stores it
        with live.workspace.store.transaction() as w:
            save_case(w, Case(parcel=Parcel(
                sbl=sbl, municipality="Town of Canandaigua", site_address="1 Roll Road",
                owner_name="Roll Owner", owner_mailing_address=("1 Roll Road",
                                                                "Canandaigua, NY 14424"))),
                today=TODAY)

    # through the window's worker, as every write of the app goes
    live.runner.wait(from_the_roll)
    live.load_parcels()
    open_parcel(live, qtbot, sbl)
    type_into(qtbot, live.form.phone, "585-555-0100")
    settle(live, qtbot)
    stored = live.workspace.load_case(sbl)
    assert stored.parcel.owner_phone == "585-555-0100"
    assert stored.dwelling is None  # nothing invented for what nobody entered
    assert not live.problem.isVisible()
    # A value the law's checks refuse is still refused.
    type_into(qtbot, live.form.email, "not an e-mail")
    settle(live, qtbot)
    assert live.workspace.load_case(sbl).parcel.owner_email is None
    assert "Not saved" in live.problem.text()
