"""The evaluation panel tells the truth: a parcel nobody inspected is not called acceptable,
and a suggested finding is decided with a note and can be undone, with its history. Run
with the real worker thread, as users run it."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QUrl
from PySide6.QtWidgets import QInputDialog
from pytestqt.qtbot import QtBot

from inspector_app.domain.vocabulary import Condition
from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.workspace import Workspace
from inspector_app.ui import theme as themes
from inspector_app.ui.main_window import MainWindow
from inspector_app.ui.parcel_list import ROW_ROLE

from .live import threaded_window

TODAY = date(2026, 11, 25)
NEVER_INSPECTED, UNDERSIZED = "900.01-1-1", "900.01-1-5"
KEY = "septic_tank_capacity/septic_tank#1"


@pytest.fixture
def window(qtbot: QtBot, tmp_path: Path) -> Iterator[MainWindow]:
    ws = Workspace(tmp_path / "data", user="k.olmsted")
    install_demo(ws, today=TODAY)
    w = threaded_window(ws, tmp_path, TODAY)
    qtbot.addWidget(w)
    w.show()
    yield w
    w.close()
    ws.close()


def _open(window: MainWindow, qtbot: QtBot, sbl: str) -> None:
    window.select(sbl)
    _settled(window, qtbot, sbl)


def _settled(window: MainWindow, qtbot: QtBot, sbl: str) -> None:
    qtbot.waitUntil(lambda: window.sbl == sbl and window.evaluation.evaluation is not None
                    and not window.runner.pending, timeout=10_000)


def _links(window: MainWindow) -> dict[str, str]:
    """The panel's links: href -> the words shown."""
    out: dict[str, str] = {}
    block = window.evaluation.document().begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            f = it.fragment()
            if f.charFormat().isAnchor():
                out[f.charFormat().anchorHref()] = f.text()
            it += 1
        block = block.next()
    return out


def _click(window: MainWindow, action: str) -> None:
    (href,) = [h for h in _links(window) if h.startswith(f"{action}:")
               and "septic_tank_capacity" in h]
    window.evaluation.anchorClicked.emit(QUrl(href))


def _tank(window: MainWindow) -> Any:
    return window.runner.wait(lambda: window.workspace.load_case(UNDERSIZED).components[0])


def test_a_parcel_nobody_inspected_is_not_called_acceptable(window: MainWindow,
                                                            qtbot: QtBot) -> None:
    qtbot.waitUntil(lambda: window.lists_state.text() == "Work lists up to date",
                    timeout=20_000)
    rows = {window.proxy.index(r, 0).data(ROW_ROLE)["sbl"]: r
            for r in range(window.proxy.rowCount())}
    column = 4  # Outcome
    assert window.proxy.index(rows[NEVER_INSPECTED], column).data() == "not inspected"
    assert window.proxy.index(rows["900.01-1-3"], column).data() == "acceptable"
    _open(window, qtbot, NEVER_INSPECTED)
    text = window.evaluation.toPlainText()
    assert "Outcome: NOT INSPECTED" in text and "ACCEPTABLE" not in text
    assert "No inspection is on record" in text
    html = window.evaluation.toHtml()
    assert themes.NORMAL.neutral in html and themes.NORMAL.acceptable not in html


def test_decide_with_a_note_then_undo_with_history(window: MainWindow, qtbot: QtBot,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    _open(window, qtbot, UNDERSIZED)
    defects_before = _tank(window).defects
    links = _links(window)
    assert "Accept" in links.values() and "Reject" in links.values()

    # Cancelling the note dialog decides nothing.
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("", False))
    _click(window, "accept")
    _settled(window, qtbot, UNDERSIZED)
    assert not window.workspace.decision_records(UNDERSIZED)

    monkeypatch.setattr(QInputDialog, "getText",
                        lambda *a, **k: ("  tank measured at the outlet ", True))
    _click(window, "accept")
    qtbot.waitUntil(lambda: "Undo decision" in window.evaluation.toPlainText(),
                    timeout=10_000)
    text = window.evaluation.toPlainText()
    assert "Accepted by k.olmsted on 2026-11-25: \u201ctank measured at the outlet\u201d" in text
    tank = _tank(window)
    (added,) = set(tank.defects) - set(defects_before)
    assert "(unconfirmed)" not in added and added.endswith("(10 NYCRR Appendix 75-A.6)")
    last = window.workspace.history(UNDERSIZED)[-1]
    assert (last["table_name"], last["field"], last["user"]) == ("components", "defects",
                                                                 "k.olmsted")

    _click(window, "undo")
    qtbot.waitUntil(lambda: "Undo decision" not in window.evaluation.toPlainText(),
                    timeout=10_000)
    _settled(window, qtbot, UNDERSIZED)
    assert _tank(window).defects == defects_before
    assert _tank(window).condition is Condition.SUBSTANDARD  # it was before, and stays
    assert "pending again" in window.message.text()
    assert {"Accept", "Reject"} <= set(_links(window).values())
    ops = [(h["table_name"], h["op"], h["user"]) for h in window.workspace.history(UNDERSIZED)
           if h["table_name"] == "finding_decisions"]
    assert ops == [("finding_decisions", "insert", "k.olmsted"),
                   ("finding_decisions", "delete", "k.olmsted")]

    # Rejecting through the panel's signal takes the note the same way.
    window.evaluation.decided.emit(KEY, False, "replaced in 2024")
    qtbot.waitUntil(lambda: "Rejected by" in window.evaluation.toPlainText(), timeout=10_000)
    assert "\u201creplaced in 2024\u201d" in window.evaluation.toPlainText()
    assert _tank(window).defects == defects_before


def test_an_accepted_finding_in_older_wording_can_take_the_current_one(
        window: MainWindow, qtbot: QtBot) -> None:
    """A finding accepted before its measurement changed (a new shoreline layer, say)
    shows how the record states it, and one click records the current wording."""
    ws = window.workspace
    # Written through the window's worker, as the app writes: the worker may be working
    # out the work lists on the same connection meanwhile.
    window.runner.wait(lambda: ws.decide_suggestion(UNDERSIZED, KEY, accept=True,
                                                    note="pumper's figure", as_of=TODAY))
    parcel_id = window.runner.wait(lambda: ws.parcel_id(UNDERSIZED))
    (current,) = [s for s in window.runner.wait(
        lambda: ws.evaluate_parcel(UNDERSIZED, as_of=TODAY)).suggestions if s.key == KEY]
    older = current.defect.replace("750 gal", "700 gal")
    tank = _tank(window)

    def reworded() -> None:
        with ws.store.transaction() as w:
            (decision_id,) = [r["id"] for r in ws.store.query(
                "SELECT id FROM finding_decisions WHERE deleted_at IS NULL")]
            w.update("finding_decisions", decision_id, {"defect": older})
            (component_id,) = [r["id"] for r in ws.store.query(
                "SELECT id FROM components WHERE parcel_id = ? AND kind = 'septic_tank'",
                (parcel_id,))]
            w.update("components", component_id, {"defects": [
                older + f" ({current.section})" if d == current.record_text else d
                for d in tank.defects]})

    window.runner.wait(reworded)
    _open(window, qtbot, UNDERSIZED)
    assert f"The record states it as \u201c{older}\u201d" in window.evaluation.toPlainText()
    _click(window, "reword")
    qtbot.waitUntil(lambda: "The record states it" not in window.evaluation.toPlainText(),
                    timeout=10_000)
    _settled(window, qtbot, UNDERSIZED)
    defects = _tank(window).defects
    assert current.record_text in defects and not any(older in d for d in defects)
    assert "\u201cpumper's figure\u201d" in window.evaluation.toPlainText()  # note kept
