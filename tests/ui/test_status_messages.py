"""Status-bar messages go once they may no longer be true."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.workspace import Workspace
from inspector_app.ui.main_window import MainWindow

from .live import settle, threaded_window

TODAY = date(2026, 11, 25)


@pytest.fixture
def window(qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
           ) -> Iterator[MainWindow]:
    monkeypatch.setattr(MainWindow, "MESSAGE_LASTS_MS", 300)
    ws = Workspace(tmp_path / "data", user="k.olmsted")
    install_demo(ws, count=4, today=TODAY)
    w = threaded_window(ws, tmp_path, TODAY)
    qtbot.addWidget(w)
    w.show()
    settle(w, qtbot)
    yield w
    settle(w, qtbot)
    w.close()
    ws.close()


def test_a_message_of_what_was_done_goes_after_a_while(window: MainWindow,
                                                       qtbot: QtBot) -> None:
    sbl = window.model.rows[0]["sbl"]
    window.select(sbl)
    qtbot.waitUntil(lambda: window.sbl == sbl, timeout=10_000)
    settle(window, qtbot)
    window.form.owner_name.setText("Renamed Owner")
    window.form.owner_name.editingFinished.emit()
    qtbot.waitUntil(lambda: window.message.text() == f"Saved {sbl}", timeout=10_000)
    qtbot.waitUntil(lambda: window.message.text() == "", timeout=3_000)
    # a newer message restarts the time: the older one's timer does not take it away
    window.ctx.say("Exported /tmp/a.json")
    qtbot.wait(200)
    window.ctx.say("Exported /tmp/b.json")
    qtbot.wait(200)
    assert window.message.text() == "Exported /tmp/b.json"
    qtbot.waitUntil(lambda: window.message.text() == "", timeout=3_000)


def test_a_message_of_work_under_way_stays_while_it_lasts_and_goes_when_it_ends(
        window: MainWindow, qtbot: QtBot) -> None:
    release = threading.Event()
    window.ctx.say("Importing the shoreline layer...")
    window.ctx.op(lambda: release.wait(10)).run()
    qtbot.wait(700)  # longer than a message of what was done lasts
    assert window.message.text() == "Importing the shoreline layer..."
    assert window.busy.text() == "Working..."
    release.set()
    qtbot.waitUntil(lambda: window.message.text() == "" and window.busy.text() == "",
                    timeout=10_000)


def test_the_work_lists_state_goes_when_they_are_no_longer_worked_out(
        window: MainWindow, qtbot: QtBot) -> None:
    qtbot.waitUntil(lambda: window.lists_state.text() == "Work lists up to date",
                    timeout=10_000)
    settle(window, qtbot)
    window.parcel_list.refresh_overview()
    assert window.lists_state.text().startswith("Work lists: 0 of 4")
    window.parcel_list.stop_overview()  # another folder is being opened
    assert window.lists_state.text() == ""
    settle(window, qtbot)
    assert window.lists_state.text() == ""  # the chunk asked for before does not bring it back
