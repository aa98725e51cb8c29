"""What the window says is read by people: fields in words, the history in words and local
time, work lists with their counts, and nothing cut off on a 1280x800 screen.

These run with the real worker thread, as the app runs for its users.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from datetime import date, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from inspector_app.casefile import parse_document, to_document
from inspector_app.services import exchange as sync
from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.workspace import Workspace
from inspector_app.ui.main_window import MainWindow
from inspector_app.ui.parcel_list import WORK_LISTS

from .live import threaded_window

TODAY = date(2026, 11, 25)
EASTERN = ZoneInfo("America/New_York")
SHOTS_ENV = "INSPECTOR_APP_SCREENSHOTS"
LONG_MESSAGE = ("Absorption area saved: 1,234.5 ft to the lake line (map, ±1,500 ft); the "
                "distance is beyond 200 ft but the shoreline layer is coarse, so measure it "
                "in the field before the letter goes out")


def settle(window: MainWindow, qtbot: QtBot) -> None:
    """Wait until the worker has answered everything asked and the answers are shown.

    The jobs still waiting for their answer are the runner's own list: its `pending`
    count also drops for each `wait()` call, which never raised it."""
    runner = window.runner
    qtbot.waitUntil(lambda: runner.pending == 0 and not runner._jobs_by_id, timeout=20_000)
    QApplication.processEvents()


@pytest.fixture
def live(qtbot: QtBot, tmp_path: Path) -> Iterator[MainWindow]:
    ws = Workspace(tmp_path / "data", user="k.olmsted")
    install_demo(ws, today=TODAY)
    w = threaded_window(ws, tmp_path, TODAY)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitUntil(lambda: w.lists_state.text() == "Work lists up to date", timeout=30_000)
    settle(w, qtbot)
    yield w
    w.close()
    ws.close()


def _open(window: MainWindow, qtbot: QtBot, sbl: str) -> None:
    window.select(sbl)
    settle(window, qtbot)
    assert window.sbl == sbl


# --- 1. fields in words -------------------------------------------------------------------

def test_a_refused_entry_names_the_field_in_words(live: MainWindow, qtbot: QtBot) -> None:
    sbl = "900.01-1-1"  # never inspected: no field measurement of the lake distance
    _open(live, qtbot, sbl)
    version = live.runner.wait(lambda: live.workspace.case_version(sbl))
    live.form.lake_ft.setText("120")
    live.form.lake_ft.editingFinished.emit()  # the distance without how it was measured
    settle(live, qtbot)
    assert live.problem.isVisibleTo(live)
    text = live.problem.text()
    assert text.startswith("Not saved: Lake distance measured by: missing; a field "
                           "measurement of the lake distance needs both"), text
    assert "site." not in text and "lake_distance" not in text
    assert live.runner.wait(lambda: live.workspace.case_version(sbl)) == version


def test_the_undo_step_names_the_field_in_words(live: MainWindow, qtbot: QtBot) -> None:
    _open(live, qtbot, "900.01-1-3")
    live.form.owner_name.setText("Renamed Owner")
    live.form.owner_name.editingFinished.emit()
    settle(live, qtbot)
    assert live.undo_stack.undoText() == "Owner"


# --- 2. the History tab -------------------------------------------------------------------

def test_history_in_words_and_local_time_newest_first(live: MainWindow, qtbot: QtBot) -> None:
    sbl = "900.01-1-3"
    live.history.tz = EASTERN
    _open(live, qtbot, sbl)
    before = live.workspace.load_case(sbl).parcel.owner_name
    live.form.owner_name.setText("Renamed Owner")
    live.form.owner_name.editingFinished.emit()
    settle(live, qtbot)
    live.tabs.setCurrentWidget(live.history)
    table = live.history.table

    def rows_fit() -> bool:  # each change on as many lines as it needs, once laid out
        return all(table.rowHeight(row) >= table.sizeHintForRow(row)
                   for row in range(table.rowCount()))

    qtbot.waitUntil(rows_fit, timeout=10_000)
    assert [table.horizontalHeaderItem(c).text() for c in range(table.columnCount())] == [
        "When", "Who, on device", "Change"]
    assert live.history.change_text(0) == f"Owner: {before} -> Renamed Owner"
    last = live.runner.wait(lambda: live.workspace.history(sbl))[-1]
    local = datetime.fromisoformat(last["at"]).astimezone(EASTERN)
    assert table.item(0, 0).text() == f"{local:%Y-%m-%d}\n{local:%H:%M} {local.tzname()}"
    assert table.item(0, 0).toolTip() == f"Stored as {last['at']}"
    device = live.workspace.store.device_name
    assert table.item(0, 1).text() == f"k.olmsted\non {device}"
    assert f"local time ({local.tzname()})" in live.history.caption.text()
    assert live.history.change_text(table.rowCount() - 1).startswith(
        "Parcel added (SBL (tax map number): 900.01-1-3;")
    changes = [live.history.change_text(r) for r in range(table.rowCount())]
    # the demo parcel's tank, found substandard at its earlier inspection, then acceptable
    assert "Septic tank added (Condition: substandard;" in " | ".join(changes)
    assert any(text.startswith("Septic tank, condition: substandard -> acceptable")
               for text in changes), changes
    for text in changes:  # no table or column names, no JSON
        assert "_" not in text and "[\"" not in text and "{" not in text, text


def test_a_sync_conflict_decision_reads_clearly_in_the_history(
        live: MainWindow, qtbot: QtBot, tmp_path: Path) -> None:
    office, sbl = live.workspace, "900.01-1-2"

    def edit(ws: Workspace, owner: str) -> None:
        doc = to_document(ws.load_case(sbl))
        doc["parcel"]["owner_name"] = owner
        ws.save_case(parse_document(json.loads(json.dumps(doc)), source="edit", today=TODAY),
                     today=TODAY)

    live.runner.wait(lambda: sync.enroll(office, "laptop", tmp_path / "kit.zip", [sbl],
                                         passphrase="kit passphrase 1"))
    sync.join(tmp_path / "field", tmp_path / "kit.zip", user="r.vance",
              passphrase="kit passphrase 1")
    field = Workspace(tmp_path / "field", user="r.vance")
    try:
        edit(field, "From the field")
        sync.export(field, tmp_path / "up.zip")
    finally:
        field.close()
    live.runner.wait(lambda: edit(office, "From the office"))
    live.runner.wait(lambda: sync.import_package(office, tmp_path / "up.zip"))
    (conflict,) = live.runner.wait(lambda: sync.conflicts(office))
    live.runner.wait(lambda: sync.resolve(office, conflict["id"], choice="keep_local"))
    _open(live, qtbot, sbl)
    table = live.history.table
    assert live.history.change_text(0) == (
        "Sync conflict resolved, Owner: kept the value here (From the office); not taken "
        "from r.vance on laptop: From the field")
    assert table.item(0, 1).text() == f"k.olmsted\non {office.store.device_name}"


# --- 3. work lists with counts ------------------------------------------------------------

def _expected_counts(window: MainWindow) -> dict[str, int]:
    rows = window.model.rows
    return {key: len(rows) if key == "all" else sum(bool(r["flags"].get(key)) for r in rows)
            for key in WORK_LISTS}


def test_work_lists_show_their_counts_and_the_chosen_list_stays(
        live: MainWindow, qtbot: QtBot) -> None:
    counts = _expected_counts(live)
    assert counts["failure"] == 3 and counts["all"] == 40
    for index in range(live.work_list.count()):
        key = live.work_list.itemData(index)
        assert live.work_list.itemText(index) == f"{WORK_LISTS[key]} ({counts[key]})"
    failures = live.work_list.findData("failure")
    live.work_list.setCurrentIndex(failures)
    live.refresh_overview()  # worked out again, in chunks, while the list stays chosen
    assert live.work_list.itemText(failures) == "Failures"  # no stale count meanwhile
    qtbot.waitUntil(lambda: live.lists_state.text() == "Work lists up to date", timeout=30_000)
    settle(live, qtbot)
    assert live.work_list.currentData() == "failure"
    assert live.work_list.currentText() == "Failures (3)"
    assert live.proxy.rowCount() == 3


# --- 4. nothing cut off at 1280x800 -------------------------------------------------------

def _check_parcel_list(window: MainWindow) -> None:
    table = window.table
    room = table.viewport().width()
    for column in (0, 1, 2):  # SBL, site address, owner: all in sight, none a sliver
        left = table.columnViewportPosition(column)
        assert left >= 0 and left + table.columnWidth(column) <= room, (column, left, room)
        assert table.columnWidth(column) >= table.fontMetrics().horizontalAdvance("x" * 10)
    assert not table.is_cut(0, 0)  # the SBL is shown whole
    cut = 0
    for row in range(window.proxy.rowCount()):
        for column in (1, 2):
            full = str(window.proxy.index(row, column).data())
            center = table.visualRect(window.proxy.index(row, column)).center()
            if table.is_cut(row, column):
                cut += 1
                if table.viewport().rect().contains(center):
                    assert table.tooltip_at(center) == full  # all of it, on hover
    assert cut  # the demo has addresses too long for the list: they are shortened


def _check_whole_or_accuracy_shown(window: MainWindow) -> None:
    """The work lists' state is shown whole; the shoreline layer's name may be shortened
    (so that messages fit at 1024 px), in the middle: "Shoreline:" and the layer's
    accuracy at its end stay in sight, and the whole text is on hover."""
    state = window.lists_state
    assert state.width() >= state.fontMetrics().horizontalAdvance(state.text())
    layer = window.layer_label
    shown, whole = layer.shown_text(), layer.text()
    name = whole.removeprefix("Shoreline: ").removesuffix(" (imported although far)")
    assert name in layer.toolTip()
    assert shown.startswith("Shoreline:")
    accuracy = whole[whole.rindex("(±"):]
    assert shown.endswith(accuracy), (shown, whole)


def _check_status_bar(window: MainWindow) -> None:
    bar = window.statusBar()
    for widget in (window.lists_state, window.layer_label):
        assert widget.isVisible() and widget.text()
        assert widget.geometry().right() <= bar.width(), widget.text()
    _check_whole_or_accuracy_shown(window)
    assert window.message.text() == LONG_MESSAGE  # kept whole, shown shortened
    assert window.message.is_elided() and window.message.shown_text().endswith("…")
    assert window.message.toolTip() == LONG_MESSAGE


def test_nothing_is_cut_off_at_1280x800_in_either_theme(live: MainWindow, qtbot: QtBot,
                                                       tmp_path: Path) -> None:
    shots = Path(os.environ.get(SHOTS_ENV) or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    live.resize(1280, 800)
    _open(live, qtbot, "900.01-1-7")
    live.message.setText(LONG_MESSAGE)
    try:
        for theme in ("normal", "high-contrast"):
            if theme == "high-contrast":
                live.menus.view.contrast.trigger()
            qtbot.wait(100)  # let the layouts settle, as a person's eye would
            settle(live, qtbot)
            assert live.grab().save(str(shots / f"main-1280x800-{theme}.png"))
            _check_parcel_list(live)
            _check_status_bar(live)
    finally:
        if live.menus.view.contrast.isChecked():
            live.menus.view.contrast.trigger()


@pytest.mark.parametrize("theme", ["normal", "high-contrast"])
def test_a_status_message_never_hides_the_permanent_widgets(live: MainWindow, qtbot: QtBot,
                                                            theme: str) -> None:
    live.resize(1280, 800)
    if theme == "high-contrast":
        live.menus.view.contrast.trigger()
    try:
        live.ctx.status.emit(LONG_MESSAGE * 3)  # as the worker's messages arrive
        qtbot.wait(50)
        assert live.width() == 1280
        assert live.message.text() == LONG_MESSAGE * 3  # kept whole, in the tooltip too
        assert live.message.toolTip() == LONG_MESSAGE * 3
        assert live.message.geometry().right() < live.lists_state.geometry().left()
        for widget in (live.lists_state, live.layer_label):
            assert widget.geometry().right() <= live.statusBar().width()
        _check_whole_or_accuracy_shown(live)
    finally:
        if live.menus.view.contrast.isChecked():
            live.menus.view.contrast.trigger()
