"""The form's selected septic tank shows its solids share with the arithmetic, worked from
the depths as the form shows them; the measurements have their fields; the evaluation panel
offers "pump the tank" as a finding that leaves the tank's condition. Run with the real
worker thread, as users run it."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from inspector_app.casefile import parse_document
from inspector_app.services.workspace import Workspace
from inspector_app.ui.main_window import MainWindow

from .live import threaded_window

TODAY = date(2026, 11, 25)
SBL = "112.09-1-7.2"
FIXTURE = Path(__file__).parents[1] / "fixtures" / "contract_example_case.json"


@pytest.fixture
def window(qtbot: QtBot, tmp_path: Path) -> Iterator[MainWindow]:
    ws = Workspace(tmp_path / "data", user="k.olmsted")
    doc: dict[str, Any] = copy.deepcopy(json.loads(FIXTURE.read_text("utf-8")))
    doc["components"] = [
        {"kind": "septic_tank", "condition": "acceptable", "defects": [],
         "sludge_depth_in": 14, "scum_depth_in": 4, "liquid_depth_in": 48,
         "scum_clearance_in": 6, "sludge_clearance_in": 12, "effluent_filter": True,
         "effluent_filter_cleaned": False},
        {"kind": "pump_chamber", "condition": "acceptable", "defects": [],
         "liquid_depth_in": 30}]
    for key in ("observations", "etu", "holding_tank_service"):
        doc.pop(key)
    ws.save_case(parse_document(doc, source="case.json", today=TODAY), today=TODAY)
    w = threaded_window(ws, tmp_path, TODAY)
    qtbot.addWidget(w)
    w.resize(1400, 900)
    w.show()
    yield w
    w.close()
    ws.close()


def _settled(window: MainWindow, qtbot: QtBot) -> None:
    qtbot.waitUntil(lambda: window.sbl == SBL and window.evaluation.evaluation is not None
                    and not window.runner.pending, timeout=10_000)


def _labels(window: MainWindow) -> list[str]:
    form = window.form.detail_box.form
    out = []
    for row in range(form.rowCount()):
        item = form.itemAt(row, form.ItemRole.LabelRole)
        label = item.widget() if item is not None else None
        if isinstance(label, QLabel):
            out.append(label.text())
    return out


def test_the_tank_shows_its_solids_share_with_the_arithmetic(window: MainWindow,
                                                             qtbot: QtBot) -> None:
    window.select(SBL)
    _settled(window, qtbot)
    window.form.components.selectRow(0)
    qtbot.waitUntil(lambda: window.form.detail_box.solids is not None)
    solids = window.form.detail_box.solids
    assert solids is not None
    assert solids.text() == "sludge 14 in + scum 4 in = 18 in of 48 in liquid depth = 38 %"
    labels = _labels(window)
    for label in ("Liquid depth, bottom to surface (in)",
                  "Scum clearance to outlet tee (in)",
                  "Sludge clearance to outlet tee (in)",
                  "Effluent filter present", "Effluent filter cleaned", "Solids share"):
        assert label in labels
    # the share follows the depths as typed
    liquid = window.form.detail_widgets["liquid_depth_in"]
    liquid.setFocus()
    liquid.selectAll()  # type: ignore[attr-defined]
    QTest.keyClicks(liquid, "72")
    QTest.keyClick(liquid, Qt.Key.Key_Tab)
    window.form.current_edit()
    assert solids.text() == "sludge 14 in + scum 4 in = 18 in of 72 in liquid depth = 25 %"
    liquid.selectAll()  # type: ignore[attr-defined]
    QTest.keyClick(liquid, Qt.Key.Key_Delete)
    window.form.current_edit()
    assert solids.text() == "no solids share: the liquid depth is not recorded"


def test_a_pump_chamber_shows_its_liquid_depth_and_no_share(window: MainWindow,
                                                            qtbot: QtBot) -> None:
    window.select(SBL)
    _settled(window, qtbot)
    window.form.components.selectRow(1)
    qtbot.waitUntil(lambda: "liquid_depth_in" in window.form.detail_widgets
                    and window.form.detail_box.key is not None
                    and window.form.detail_box.key[0] == 1)
    assert window.form.detail_box.solids is None
    assert "scum_clearance_in" not in window.form.detail_widgets
    assert "Solids share" not in _labels(window)


def test_the_panel_offers_pumping_as_a_finding_that_keeps_the_condition(
        window: MainWindow, qtbot: QtBot) -> None:
    window.select(SBL)
    _settled(window, qtbot)
    text = window.evaluation.toPlainText()
    assert ("pump the tank: sludge 14 in + scum 4 in = 18 in of 48 in liquid depth = 38 %, "
            "at or above one third (33 %)") in text
    assert "accepting records it; the condition stays" in text
    assert "NH Env-Wq 1023.01" in text
