"""The window's work lists have the parcels with an open inspection request, earliest due
first; a request answered or cancelled leaves the list. Run with the real worker thread."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.parcel.requests import add_request, cancel_request
from inspector_app.services.workspace import Workspace
from inspector_app.ui.main_window import MainWindow

from .live import threaded_window

TODAY = date(2026, 11, 25)
SOON, LATER, WITHDRAWN = "900.01-1-7", "900.01-1-2", "900.01-1-3"


@pytest.fixture
def window(qtbot: QtBot, tmp_path: Path) -> Iterator[MainWindow]:
    ws = Workspace(tmp_path / "data", user="m.ortiz",
                   clock=lambda: datetime(2026, 11, 25, 15, 0, tzinfo=UTC))
    install_demo(ws, today=TODAY)
    add_request(ws, LATER, reason="conveyance", due=TODAY + timedelta(days=30))
    add_request(ws, SOON, reason="complaint", due=TODAY + timedelta(days=4))
    gone = add_request(ws, WITHDRAWN, reason="conveyance", due=TODAY + timedelta(days=1))
    cancel_request(ws, gone["id"], reason="closing fell through")
    w = threaded_window(ws, tmp_path, TODAY)
    qtbot.addWidget(w)
    w.show()
    yield w
    w.close()
    ws.close()


def test_the_requests_work_list_shows_open_requests_earliest_due_first(
        window: MainWindow, qtbot: QtBot) -> None:
    qtbot.waitUntil(lambda: window.lists_state.text() == "Work lists up to date",
                    timeout=20_000)
    window.work_list.setCurrentIndex(window.work_list.findData("requests"))
    assert window.work_list.currentText() == "Inspection requested (earliest due first) (2)"
    shown = [window.proxy.index(r, 0).data() for r in range(window.proxy.rowCount())]
    assert shown == [SOON, LATER]
