"""The field test's timer in the window, on a clock the test moves by hand (no sleeps): Start
saves the start at once, the time running is counted by a QTimer from the saved start and
survives switching parcels, Stop saves the end and the minutes; the preset fills the
volume; an observation is saved with the moment it was made; a test soon after a pump-out
is warned of in the evaluation."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, date, datetime
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from inspector_app.domain.case import PumpOut
from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.workspace import Workspace
from inspector_app.ui.field_test_panel import running_text, site_time
from inspector_app.ui.main_window import MainWindow
from tests.conftest import Clock

from .live import settle, threaded_window

TODAY = date(2026, 11, 25)
SBL, OTHER = "900.01-1-9", "900.01-1-1"


@pytest.fixture
def clock() -> Clock:
    return Clock(datetime(2026, 11, 25, 14, 0, tzinfo=UTC))


@pytest.fixture
def live(qtbot: QtBot, tmp_path: Path, clock: Clock,
         monkeypatch: pytest.MonkeyPatch) -> Iterator[MainWindow]:
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: None)
    data = tmp_path / "data"
    with Workspace(data, user="k.olmsted") as ws:
        install_demo(ws, count=12, today=TODAY)
        case = ws.load_case(SBL)
        assert case.holding_tank_service is not None and case.inspection is not None
        # pumped eight days before the test made below
        ws.save_case(replace(case, holding_tank_service=replace(
            case.holding_tank_service, pump_outs=(
                *case.holding_tank_service.pump_outs,
                PumpOut(date=date(2026, 11, 17), record_received=True)))), today=TODAY)
    ws = Workspace(data, user="k.olmsted", clock=clock)
    w = threaded_window(ws, tmp_path, TODAY)
    qtbot.addWidget(w)
    w.resize(1280, 800)
    w.show()
    settle(w, qtbot)
    yield w
    w.close()
    ws.close()


def _open(w: MainWindow, qtbot: QtBot, sbl: str) -> None:
    w.select(sbl)
    settle(w, qtbot)
    assert w.sbl == sbl and w.form.loaded


def _stored_test(w: MainWindow) -> object:
    inspection = w.workspace.load_case(SBL).inspection
    assert inspection is not None
    return inspection.tests[-1]


def test_running_text() -> None:
    assert [running_text(s) for s in (0, 5, 725, 3725)] == ["0:00", "0:05", "12:05",
                                                            "1:02:05"]


def test_the_timer_saves_the_start_counts_survives_a_switch_and_stops(
        live: MainWindow, qtbot: QtBot, clock: Clock) -> None:
    _open(live, qtbot, SBL)
    panel = live.form.field_tests
    assert not panel.timer.isActive()
    panel.which.setCurrentIndex(panel.which.findData("hydraulic_load"))
    started = site_time(clock())
    qtbot.mouseClick(panel.start_stop, Qt.MouseButton.LeftButton)
    settle(live, qtbot)
    test = _stored_test(live)
    assert (test.kind.value, test.started_at, test.ended_at) == (  # type: ignore[attr-defined]
        "hydraulic_load", started, None)
    assert panel.timer.isActive() and panel.timer.interval() == 1000
    assert panel.start_stop.text() == "Stop the test"

    clock.advance(minutes=12, seconds=5)
    panel.timer.timeout.emit()  # one tick of the QTimer, as the event loop would send it
    assert panel.running.text() == "Running 12:05"

    # another parcel: nothing runs there; back again, the test still runs from its start
    _open(live, qtbot, OTHER)
    assert not panel.timer.isActive() and panel.running.text() == ""
    clock.advance(minutes=3)
    _open(live, qtbot, SBL)
    assert panel.timer.isActive()
    assert panel.running.text() == "Running 15:05"

    clock.advance(minutes=35)
    qtbot.mouseClick(panel.start_stop, Qt.MouseButton.LeftButton)
    settle(live, qtbot)
    test = _stored_test(live)
    assert (test.started_at, test.ended_at, test.duration_min) == (  # type: ignore[attr-defined]
        started, site_time(clock()), 50.1)
    assert not panel.timer.isActive() and panel.running.text() == "Ran 50:05"
    assert not panel.start_stop.isEnabled()  # a test ended is not started again

    # the preset: 3 bedrooms x 50 gal = 150 gal; at 3 gpm, 50 min
    dwelling = live.workspace.load_case(SBL).dwelling
    assert dwelling is not None and dwelling.bedrooms == 3
    assert "3 bedrooms × 50 gal = 150 gal; at 3 gpm, 150 gal takes 50 min" in (
        panel.preset.text())
    assert "(unconfirmed)" in panel.preset.text()
    qtbot.mouseClick(panel.use_preset, Qt.MouseButton.LeftButton)
    settle(live, qtbot)
    test = _stored_test(live)
    assert (test.volume_gal, test.duration_min) == (150, 50)  # type: ignore[attr-defined]
    assert test.started_at == started  # type: ignore[attr-defined]

    # an observation at a later moment, dye seen, at a place
    clock.advance(hours=2)
    panel.dye_seen.setChecked(True)
    panel.note.setText("dye at the shore")
    panel.place.setText("42.8071, -77.2803")
    qtbot.mouseClick(panel.observe, Qt.MouseButton.LeftButton)
    settle(live, qtbot)
    (seen,) = _stored_test(live).observations  # type: ignore[attr-defined]
    assert (seen.at, seen.dye_seen, seen.note, seen.place) == (
        site_time(clock()), True, "dye at the shore",
        {"type": "Point", "coordinates": [-77.2803, 42.8071]})
    assert "dye seen; dye at the shore" in panel.seen.text()

    # the evaluation warns: pumped 2026-11-17, the test 8 days later
    text = live.evaluation.toPlainText()
    assert ("a hydraulic test within 30 days after a pump-out proves little: the holding "
            "tank was pumped 2026-11-17, 8 days before") in text


def test_a_test_line_retyped_keeps_its_times_and_observations() -> None:
    from inspector_app.domain.case import FieldTest, TestObservation
    from inspector_app.domain.vocabulary import TestKind as Kind
    from inspector_app.domain.vocabulary import TestResult as Result
    from inspector_app.ui.maintenance_records import read_tests

    seen = TestObservation(at="2026-11-24", dye_seen=True)
    shown = (FieldTest(kind=Kind.DYE, result=Result.INCONCLUSIVE, note="lateral 3",
                       started_at="2026-11-18T09:30", ended_at="2026-11-18T09:46",
                       observations=(seen,)),)
    (kept,) = read_tests("dye, fail, 80, 16", shown)
    assert (kept.result, kept.volume_gal, kept.duration_min) == (Result.FAIL, 80, 16)
    assert (kept.note, kept.started_at, kept.observations) == ("lateral 3",
                                                               "2026-11-18T09:30", (seen,))
    # another kind in that place is another test: nothing kept
    (other,) = read_tests("hydraulic_load, pass, 150, 50", shown)
    assert (other.started_at, other.observations) == (None, ())


def test_the_panel_is_in_the_keys_walk_after_the_measured_distance(live: MainWindow,
                                                                    qtbot: QtBot) -> None:
    """A visit without a timed test goes from the tests to the measured distance with one
    Tab; the timer is reached from the distance's method, still by keys alone."""
    _open(live, qtbot, SBL)
    f = live.form
    f.tests.setFocus()
    assert f.focusNextChild() and f.lake_ft.hasFocus()
    assert f.focusNextChild() and f.lake_method.hasFocus()
    assert f.focusNextChild()
    focused = live.focusWidget()
    assert focused is not None and f.field_tests.isAncestorOf(focused), focused
