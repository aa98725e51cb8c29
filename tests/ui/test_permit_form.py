"""The building permit of the AHJ determination (§ 202-7 B(3)), typed into the form."""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QLineEdit, QMessageBox
from pytestqt.qtbot import QtBot

from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.workspace import Workspace
from inspector_app.ui.main_window import MainWindow

from .live import settle, threaded_window

TODAY = date(2026, 11, 25)


@pytest.fixture
def live(qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[MainWindow]:
    """The window on the demo parcels, with the real threaded worker."""
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: None)
    data = tmp_path / "data"
    with Workspace(data, user="k.olmsted") as ws:
        install_demo(ws, today=TODAY)
    ws = Workspace(data, user="k.olmsted")
    w = threaded_window(ws, tmp_path, TODAY)
    qtbot.addWidget(w)
    w.resize(1280, 800)
    w.show()
    settle(w, qtbot)
    yield w
    w.close()
    ws.close()


def _acknowledged(ws: Workspace) -> str:
    """A demo parcel the AHJ has found meets the standards to the greatest extent possible."""
    for p in ws.parcels():
        ahj = ws.load_case(p["sbl"]).ahj
        if ahj is not None and ahj.greatest_extent_possible:
            return str(p["sbl"])
    raise AssertionError("the demo has no acknowledged parcel")


def _type(w: MainWindow, qtbot: QtBot, field: QLineEdit, text: str) -> None:
    w.form.parentWidget().parentWidget().ensureWidgetVisible(field)  # type: ignore[attr-defined]
    field.setFocus()
    QApplication.processEvents()
    field.selectAll()
    QTest.keyClicks(field, text)
    QTest.keyClick(field, Qt.Key.Key_Tab)
    settle(w, qtbot)


def test_the_permit_is_typed_into_the_ahj_determination_and_saved(
        live: MainWindow, qtbot: QtBot, tmp_path: Path) -> None:
    sbl = _acknowledged(live.workspace)
    live.select(sbl)
    settle(live, qtbot)
    assert live.sbl == sbl and live.form.loaded
    form = live.form
    assert (form.permit_number.text(), form.permit_issued_on.text()) == ("", "")
    _type(live, qtbot, form.permit_number, "BP-2026-0147")
    _type(live, qtbot, form.permit_issued_on, "2026-11-24")
    ahj = live.workspace.load_case(sbl).ahj
    assert ahj is not None
    assert (ahj.permit_number, ahj.permit_issued_on) == ("BP-2026-0147", date(2026, 11, 24))
    assert ahj.greatest_extent_possible is True  # the rest of the determination as it was
    assert not live.problem.isVisible()
    saved = [(h["field"], h["new_value"], h["user"]) for h in live.workspace.history(sbl)
             if h["table_name"] == "ahj_determinations" and h["op"] == "update"]
    assert saved == [("permit_number", "BP-2026-0147", "k.olmsted"),
                     ("permit_issued_on", "2026-11-24", "k.olmsted")]
    box = form.permit_number.parentWidget()
    shots = Path(os.environ.get("INSPECTOR_APP_SCREENSHOTS", "") or tmp_path)
    assert box.grab().save(str(shots / "ahj-permit.png"))

    # A permit cannot be recorded as issued after today, nor with a date in another form.
    _type(live, qtbot, form.permit_issued_on, "2026-12-01")
    assert live.workspace.load_case(sbl).ahj.permit_issued_on == date(2026, 11, 24)
    assert "Not saved" in live.problem.text() and "Permit issued on" in live.problem.text()
    assert "after today" in live.problem.text()
    _type(live, qtbot, form.permit_issued_on, "24/11/2026")
    assert live.workspace.load_case(sbl).ahj.permit_issued_on == date(2026, 11, 24)
    assert live.problem.text() == ("Not saved: Permit issued on: '24/11/2026' is not a date; "
                                   "type it as YYYY-MM-DD")
