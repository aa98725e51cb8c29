"""A breakout recorded on the absorption area shows in the evaluation panel as a suggested
failure (§ 202-5 C) for the inspector to accept; accepting it fails the absorption area.
Run with the real worker thread, as users run it."""

from __future__ import annotations

import copy
import json
import os
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QUrl
from PySide6.QtWidgets import QInputDialog
from pytestqt.qtbot import QtBot

from inspector_app.casefile import parse_document
from inspector_app.domain.vocabulary import Condition
from inspector_app.services.workspace import Workspace
from inspector_app.ui.main_window import MainWindow

from .live import threaded_window

TODAY = date(2026, 11, 25)
SBL = "112.09-1-7.2"
KEY = "failure/breakout/absorption_area#1"
FIXTURE = Path(__file__).parents[1] / "fixtures" / "contract_example_case.json"


@pytest.fixture
def window(qtbot: QtBot, tmp_path: Path) -> Iterator[MainWindow]:
    ws = Workspace(tmp_path / "data", user="k.olmsted")
    doc: dict[str, Any] = copy.deepcopy(json.loads(FIXTURE.read_text("utf-8")))
    doc["components"] = [
        {"kind": "septic_tank", "condition": "acceptable", "defects": []},
        {"kind": "absorption_area", "condition": "acceptable", "defects": [],
         "breakout": True}]
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


def _hrefs(window: MainWindow) -> list[str]:
    out = []
    block = window.evaluation.document().begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            f = it.fragment()
            if f.charFormat().isAnchor():
                out.append(f.charFormat().anchorHref())
            it += 1
        block = block.next()
    return out


def test_a_breakout_is_offered_as_a_failure_and_accepting_it_fails_the_area(
        window: MainWindow, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    window.select(SBL)
    _settled(window, qtbot)
    text = window.evaluation.toPlainText()
    assert "Suggested findings" in text
    assert "surface breakout of effluent observed on the absorption area" in text
    assert "(accepting marks it failed)" in text
    assert "§ 202-5 C" in text
    assert "Rate decided by the absorption area, 185.0 ft from the lake line (field)" in text
    shot = Path(os.environ.get("INSPECTOR_APP_SCREENSHOTS", tmp_path)) / (
        "suggested-failure.png")
    assert window.evaluation.grab().save(str(shot))

    (accept,) = [h for h in _hrefs(window) if h.startswith("accept:") and "breakout" in h]
    monkeypatch.setattr(QInputDialog, "getText",
                        lambda *a, **k: ("effluent at the surface over lateral 2", True))
    window.evaluation.anchorClicked.emit(QUrl(accept))
    qtbot.waitUntil(lambda: "Undo decision" in window.evaluation.toPlainText(),
                    timeout=10_000)
    _settled(window, qtbot)
    area = window.workspace.load_case(SBL).components[1]
    assert area.condition is Condition.FAILED
    assert area.defects[0].endswith("(§ 202-5 C)")
    assert "Outcome: FAILURE" in window.evaluation.toPlainText()


def test_a_cured_lapse_is_offered_as_the_office_s_decision_in_words(
        qtbot: QtBot, tmp_path: Path) -> None:
    from inspector_app.services.demo.parcels import install_demo

    cured = "900.01-1-8"  # an ETU report received late, since: does a notice report it?
    ws = Workspace(tmp_path / "data", user="k.olmsted")
    install_demo(ws, today=TODAY)
    w = threaded_window(ws, tmp_path, TODAY)
    qtbot.addWidget(w)
    w.show()
    try:
        w.select(cured)
        qtbot.waitUntil(lambda: w.sbl == cured and w.evaluation.evaluation is not None
                        and not w.runner.pending, timeout=10_000)
        lines = w.evaluation.toPlainText().splitlines()
        (offered,) = [line for line in lines if "report of the" in line and "Accept" in line]
        assert offered.lstrip().startswith("a lapse cured since: ")
        assert "(accepting reports it in the notice as cured)" in offered
        assert not [line for line in lines if line.lstrip().startswith(":")]
    finally:
        w.close()
        ws.close()
