"""In the window, with the real worker: a corrected inspection date changes that inspection
(no second one appears, Ctrl+Z takes it back); a date typed that is not one is refused in
the red bar and nothing is saved; the inspection shown can be marked entered in error, and
Ctrl+Z undoes that; the parcels laptops found in the field wait in Sync > Waiting for a
person, where the office accepts one."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QInputDialog, QMessageBox
from pytestqt.qtbot import QtBot

from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.parcel import inspections
from inspector_app.services.workspace import Workspace
from inspector_app.ui.main_window import MainWindow

from .live import settle, threaded_window

TODAY = date(2026, 11, 25)


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
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: None)
    ws = Workspace(data, user="k.olmsted")
    w = threaded_window(ws, tmp_path, TODAY)
    qtbot.addWidget(w)
    w.resize(1280, 800)
    w.show()
    settle(w, qtbot)
    yield w
    w.close()
    ws.close()


def _listed(data: Path, sbl: str) -> list[dict[str, object]]:
    with Workspace(data, user="reader") as ws:
        return inspections.listed(ws, sbl)


def _inspected_twice(data: Path) -> str:
    with Workspace(data, user="reader") as ws:
        return next(str(r["sbl"]) for r in ws.parcels()
                    if len(inspections.listed(ws, r["sbl"])) >= 2)


def _open(w: MainWindow, qtbot: QtBot, sbl: str) -> None:
    w.select(sbl)
    settle(w, qtbot)
    assert w.sbl == sbl and w.form.loaded


def _type_date(w: MainWindow, qtbot: QtBot, typed: str) -> None:
    field = w.form.inspection_date
    field.setFocus()
    qtbot.waitUntil(field.hasFocus)
    field.selectAll()
    QTest.keyClicks(field, typed)
    QTest.keyClick(field, Qt.Key.Key_Tab)
    settle(w, qtbot)


def test_a_corrected_date_changes_that_inspection_and_undo_takes_it_back(
        live: MainWindow, qtbot: QtBot, data: Path) -> None:
    sbl = _inspected_twice(data)
    _open(live, qtbot, sbl)
    before = _listed(data, sbl)
    latest = before[-1]
    corrected = "2026-11-24" if latest["date"] != "2026-11-24" else "2026-11-23"
    _type_date(live, qtbot, corrected)
    after = _listed(data, sbl)
    assert len(after) == len(before)
    assert after[-1]["id"] == latest["id"] and after[-1]["date"] == corrected
    assert live.form.inspection_box.title().startswith(f"Inspection of {corrected}")
    live.workbench.edits.undo()
    settle(live, qtbot)
    assert _listed(data, sbl) == before


def test_a_date_that_is_not_one_is_refused_in_the_red_bar(
        live: MainWindow, qtbot: QtBot, data: Path) -> None:
    sbl = _inspected_twice(data)
    _open(live, qtbot, sbl)
    before = _listed(data, sbl)
    _type_date(live, qtbot, "2026-13-45")
    assert live.problem.isVisible()
    assert "'2026-13-45' is not a real calendar date" in live.problem.text()
    assert _listed(data, sbl) == before
    shown = live.form.inspection_date.date().toString("yyyy-MM-dd")
    assert shown == before[-1]["date"]  # the inspection's own date, shown again


def test_the_inspection_shown_is_marked_entered_in_error_and_undone(
        live: MainWindow, qtbot: QtBot, data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    sbl = _inspected_twice(data)
    _open(live, qtbot, sbl)
    latest, earlier = _listed(data, sbl)[-1], _listed(data, sbl)[-2]
    monkeypatch.setattr(QInputDialog, "getText",
                        lambda *a, **k: ("entered on the wrong parcel", True))
    assert live.form.in_error.isEnabled()
    live.form.in_error.click()
    settle(live, qtbot)
    marked = next(i for i in _listed(data, sbl) if i["id"] == latest["id"])
    assert marked["entered_in_error"] and marked["why"] == "entered on the wrong parcel"
    assert live.form.inspection_box.title().startswith(f"Inspection of {earlier['date']}")
    live.workbench.edits.undo()
    settle(live, qtbot)
    assert not next(i for i in _listed(data, sbl)
                    if i["id"] == latest["id"])["entered_in_error"]
    assert live.form.inspection_box.title().startswith(f"Inspection of {latest['date']}")


def test_a_parcel_found_in_the_field_is_accepted_in_the_waiting_dialog(
        qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import json

    from inspector_app.casefile import to_document
    from inspector_app.services import exchange as sync
    from inspector_app.ui.proposals import WaitingDialog

    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: None)
    office = Workspace(tmp_path / "office", user="clerk")
    install_demo(office, count=4, today=TODAY)
    sbl = office.parcels()[0]["sbl"]
    sync.enroll(office, "laptop", tmp_path / "kit.zip", [sbl], passphrase="kit passphrase 1")
    sync.join(tmp_path / "field", tmp_path / "kit.zip", user="k.olmsted",
              passphrase="kit passphrase 1")
    with Workspace(tmp_path / "field", user="k.olmsted") as field:
        doc = to_document(field.load_case(sbl))
        doc["parcel"]["sbl"] = "9.99-9-9"
        doc.get("inspection", {}).pop("id", None)
        (tmp_path / "new.json").write_text(json.dumps(doc))
        assert field.import_case_file(tmp_path / "new.json", today=TODAY).proposed
        sync.export(field, tmp_path / "up.zip")
    sync.import_package(office, tmp_path / "up.zip")
    w = threaded_window(office, tmp_path, TODAY)
    qtbot.addWidget(w)
    w.show()
    settle(w, qtbot)
    dialog = WaitingDialog(w.ctx, w)
    qtbot.addWidget(dialog)
    settle(w, qtbot)
    assert dialog.proposals.rowCount() == 1 and dialog.held.rowCount() > 0
    assert dialog.proposals.item(0, 0).text() == "9.99-9-9"
    assert not dialog.accept_button.isEnabled()  # nothing chosen yet
    dialog.proposals.selectRow(0)
    assert dialog.accept_button.isEnabled()
    dialog.accept_button.click()
    settle(w, qtbot)
    assert "9.99-9-9 is on the roll, assigned to laptop" in dialog.message.text()
    assert dialog.held.rowCount() == 0 and dialog.proposals.item(0, 4).text().startswith(
        "accepted")
    w.close()
    office.close()
