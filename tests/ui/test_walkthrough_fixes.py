"""What an inspector met using the app, each put right and driven as a user drives it:
the History tab in words, Sync > Conflicts... buttons that need a conflict, printing an
issued letter records it printed, and a double-click that finishes a drawing adds no
extra corner."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPoint, QSettings, Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication, QDialog, QMessageBox, QWidget
from pytestqt.qtbot import QtBot

from inspector_app.casefile import parse_document, to_document
from inspector_app.domain.labels import BY_TABLE, history_lines, show_value
from inspector_app.errors import InputError
from inspector_app.services import exchange as sync
from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.letters import register as letter_service
from inspector_app.services.parcel.history import parcel_history
from inspector_app.services.workspace import Workspace
from inspector_app.storage.records import BOOKKEEPING
from inspector_app.ui import letters_tab
from inspector_app.ui.context import AppContext
from inspector_app.ui.dialogs import ConflictsDialog
from inspector_app.ui.history_view import HistoryView
from inspector_app.ui.main_window import MainWindow
from inspector_app.ui.tasks import TaskRunner
from tests.suggestions import decide_pending
from tests.sync.conftest import Pair, copied_pair
from tests.templates import Templates

TODAY = date(2026, 11, 25)
CAPACITY = "900.01-1-2"   # the demo's small septic tank: a capacity suggestion
SETBACK = "900.01-1-3"    # the demo's absorption area too near the lake: a setback one
NOTICE = "900.01-1-4"     # the demo's parcel whose records call for a substandard notice
VIOLATION = "900.01-1-7"  # the demo's failed system: a notice of violation
UNMEASURED = "900.01-1-13"

RAW_JSON = re.compile(r'[\[{]\s*"|"\s*[\]}]|^\s*[\[{]|[\[{]\s*$')
SNAKE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
INTERNAL = re.compile(r"version of the records|case.version|record version|suggestion.key",
                      re.IGNORECASE)


def internal_text(text: str) -> list[str]:
    """Whatever a clerk should not have to read: JSON, snake_case, record versions."""
    return [*RAW_JSON.findall(text), *SNAKE.findall(text), *INTERNAL.findall(text)]


# --- 1. the History tab in words ----------------------------------------------------------

def _edit(ws: Workspace, sbl: str, change: Any) -> None:
    doc = to_document(ws.load_case(sbl))
    change(doc)
    ws.save_case(parse_document(json.loads(json.dumps(doc)), source="edit", today=TODAY),
                 today=TODAY)


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Workspace]:
    """Demo parcels with a record in every table a parcel's change log can hold: decisions
    taken and revised, a letter issued and printed, a renter, a field test, a photo."""
    tmp = tmp_path_factory.mktemp("history")
    ws = Workspace(tmp / "data", user="clerk")
    install_demo(ws, count=4, today=TODAY)
    for sbl in (CAPACITY, SETBACK):
        (suggestion,) = ws.evaluate_parcel(sbl, as_of=TODAY).suggestions
        ws.decide_suggestion(sbl, suggestion.key, accept=False, as_of=TODAY)
        ws.decide_suggestion(sbl, suggestion.key, accept=True, note="seen on site",
                             as_of=TODAY)
    decide_pending(ws, NOTICE, as_of=TODAY)
    (letter,) = letter_service.issue(ws, NOTICE, as_of=TODAY)
    letter_service.mark_printed(ws, letter.id)

    def more(doc: dict[str, Any]) -> None:
        doc["parcel"]["renters"] = [{"name": "Pat Renter", "mailing_address": [
            "12 Shore Lane", "Naples, NY 14512"], "phone": "585-555-0101"}]
        doc["inspection"]["tests"] = [{"kind": "hydraulic_load", "result": "inconclusive",
                                       "volume_gal": 250, "duration_min": 90}]
        doc["inspection"]["failure_evidence"] = ["ponding over the trenches",
                                                 "odor near the tank"]

    _edit(ws, CAPACITY, more)
    photo = tmp / "photo.png"
    image = QImage(4, 4, QImage.Format.Format_RGB32)
    image.fill(0x336699)
    image.save(str(photo))
    ws.add_attachment(CAPACITY, photo, caption="Outlet baffle")
    yield ws
    ws.close()


def _changes(ws: Workspace) -> dict[str, list[str]]:
    return {sbl: [line.change for line in history_lines(parcel_history(ws, sbl))]
            for sbl in (p["sbl"] for p in ws.parcels())}


def test_the_history_names_suggestions_lists_and_letters_in_words(
        recorded: Workspace) -> None:
    changes = _changes(recorded)
    capacity = "\n".join(changes[CAPACITY])
    assert "Suggestion: Septic tank capacity (septic tank 1)" in capacity
    assert "septic_tank_capacity" not in capacity and "#1" not in capacity
    assert "Suggestion: Setback from the lake (absorption area 1)" in "\n".join(
        changes[SETBACK])
    notice = "\n".join(changes[NOTICE])
    (row,) = letter_service.register(recorded, NOTICE)
    assert f"Recipient: {'; '.join(row['recipient'])};" in notice
    assert "Version of the records" not in notice and f": {row['case_version']};" not in notice
    assert "Letter: substandard notice, printed at: (blank) -> " in notice
    assert "Renters to notify" not in capacity or "[" not in capacity
    assert "Mailing address: 12 Shore Lane; Naples, NY 14512" in capacity
    assert "Failure evidence: (none) -> ponding over the trenches; odor near the tank" in capacity


def test_no_line_of_any_history_shows_json_snake_case_or_record_versions(
        recorded: Workspace) -> None:
    changes = _changes(recorded)
    tables = {r["table_name"] for sbl in changes for r in parcel_history(recorded, sbl)}
    # the tables a parcel's records are kept in, all of them seen here
    assert {"renters", "inspection_tests", "attachments", "letters", "finding_decisions",
            "lake_measurements", "components", "site_features", "inspections"} <= tables
    odd = {line: internal_text(line) for lines in changes.values() for line in lines
           if internal_text(line)}
    assert odd == {}


def test_every_stored_value_of_every_column_reads_in_words(recorded: Workspace) -> None:
    """Each column of each record table, as the History tab would show the value it holds
    (the change log keeps the values the records do): the records of a parcel's history."""
    odd: dict[str, Any] = {}
    for table, section in BY_TABLE.items():
        columns = [r["name"] for r in recorded.store.query(f"PRAGMA table_info({table})")]
        if table != "parcels" and "parcel_id" not in columns:
            continue  # the office's layers and settings are in no parcel's history
        missing = [c for c in columns if c not in BOOKKEEPING and c != "parcel_id"
                   and c not in section.labels]
        if missing:
            odd[f"{table} (no words)"] = missing
        for row in recorded.store.query(f"SELECT * FROM {table}"):
            for column, value in row.items():
                if column in BOOKKEEPING or column == "parcel_id" or value is None:
                    continue
                label = section.label(column)
                for text in (label.label, show_value(label, value)):
                    if internal_text(text):
                        odd[f"{table}.{column}"] = text
    assert odd == {}


def test_the_history_tab_shows_the_words(qtbot: QtBot, recorded: Workspace) -> None:
    view = HistoryView()
    qtbot.addWidget(view)
    view.show_history(parcel_history(recorded, NOTICE))
    shown = [view.change_text(r) for r in range(view.table.rowCount())]
    letter = next(t for t in shown if t.startswith("Letter: substandard notice added"))
    assert "Recipient: " in letter and '["' not in letter
    assert "Version" not in letter and "Records it was written from" not in letter
    assert [t for t in shown if internal_text(t)] == []


# --- 2. Sync > Conflicts... buttons need a conflict -------------------------------------

@pytest.fixture
def pair(tmp_path: Path, templates: Templates) -> Iterator[Pair]:
    made = copied_pair(templates, tmp_path, parcels=4, laptop=[CAPACITY])
    yield made
    made.office.close()
    made.field.close()


@pytest.fixture
def runner() -> Iterator[TaskRunner]:
    r = TaskRunner()
    assert not r.synchronous
    yield r
    r.stop()


def _dialog(qtbot: QtBot, ws: Workspace, runner: TaskRunner, rows: int) -> ConflictsDialog:
    dialog = ConflictsDialog(AppContext(ws, runner))
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitUntil(lambda: runner.pending == 0 and not dialog.busy
                    and dialog.table.rowCount() == rows, timeout=10000)
    return dialog


def _buttons(dialog: ConflictsDialog) -> list[bool]:
    return [b.isEnabled() for b in (dialog.keep, dialog.take, dialog.enter)]


def test_with_no_conflicts_the_decision_buttons_are_off(qtbot: QtBot, pair: Pair,
                                                       runner: TaskRunner) -> None:
    dialog = _dialog(qtbot, pair.office, runner, 0)
    assert _buttons(dialog) == [False, False, False]


def test_the_decision_buttons_follow_the_picked_conflict(qtbot: QtBot, pair: Pair,
                                                        runner: TaskRunner) -> None:
    pair.edit(pair.field, CAPACITY, lambda d: d["parcel"].__setitem__("owner_name", "Field"))
    pair.edit(pair.office, CAPACITY,
              lambda d: d["parcel"].__setitem__("owner_name", "Office"))
    assert pair.up()["conflicts"] == 1
    dialog = _dialog(qtbot, pair.office, runner, 1)
    assert _buttons(dialog) == [True, True, True]  # the first conflict is picked
    dialog.table.clearSelection()
    assert _buttons(dialog) == [False, False, False]
    dialog.keep.click()  # nothing picked: nothing happens
    assert runner.pending == 0 and len(sync.conflicts(pair.office)) == 1
    dialog.table.selectRow(0)
    assert _buttons(dialog) == [True, True, True]
    qtbot.mouseClick(dialog.keep, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: runner.pending == 0 and not dialog.busy
                    and dialog.table.rowCount() == 0, timeout=10000)
    assert sync.conflicts(pair.office) == []
    assert _buttons(dialog) == [False, False, False]


# --- 3. printing an issued letter records it printed -------------------------------------

class Prompts:
    def __init__(self) -> None:
        self.warnings: list[str] = []

    def warning(self, _parent: Any, _title: str, text: str, *_a: Any, **_k: Any) -> Any:
        self.warnings.append(text)
        return QMessageBox.StandardButton.Ok


@pytest.fixture
def window(qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
           ) -> Iterator[MainWindow]:
    prompts = Prompts()
    monkeypatch.setattr(QMessageBox, "warning", prompts.warning)
    ws = Workspace(tmp_path / "data", user="k.olmsted")
    install_demo(ws, today=TODAY)
    decide_pending(ws, VIOLATION, as_of=TODAY)
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    w = MainWindow(ws, runner=TaskRunner(), settings=settings)
    assert not w.runner.synchronous
    w.ctx.as_of = TODAY
    w.resize(1280, 800)
    w.show()
    qtbot.waitExposed(w)
    yield w
    _idle(w, qtbot)
    w.close()
    w.deleteLater()
    ws.close()
    assert not prompts.warnings, prompts.warnings


def _idle(window: MainWindow, qtbot: QtBot) -> None:
    qtbot.waitUntil(lambda: window.runner.pending == 0, timeout=20000)
    qtbot.wait(30)


def _print_to(monkeypatch: pytest.MonkeyPatch, path: Path) -> None:
    class Dialog:
        def __init__(self, printer: Any, _parent: QWidget | None = None) -> None:
            printer.setOutputFormat(printer.OutputFormat.PdfFormat)
            printer.setOutputFileName(str(path))

        def exec(self) -> int:
            return int(QDialog.DialogCode.Accepted.value)

    monkeypatch.setattr(letters_tab, "QPrintDialog", Dialog)


def _letters(window: MainWindow, qtbot: QtBot, sbl: str) -> letters_tab.LettersTab:
    window.select(sbl)
    qtbot.waitUntil(lambda: window.letters.sbl == sbl, timeout=20000)
    _idle(window, qtbot)
    window.tabs.setCurrentWidget(window.letters)
    _idle(window, qtbot)
    return window.letters


def _printed(ws: Workspace, letter_id: str) -> Any:
    return ws.store.query("SELECT printed_at FROM letters WHERE id = ?",
                          (letter_id,))[0]["printed_at"]


def test_printing_an_issued_letter_records_it_printed(
        window: MainWindow, qtbot: QtBot, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    ws = window.workspace
    (issued,) = window.runner.wait(lambda: letter_service.issue(
        ws, VIOLATION, ["notice_of_violation"], as_of=TODAY))
    before = window.runner.wait(lambda: ws.store.query(
        "SELECT kind, status, letter_date, recipient, case_version, issued_by, issued_at, "
        "sha256, pdf FROM letters WHERE id = ?", (issued.id,)))
    tab = _letters(window, qtbot, VIOLATION)
    tab.register.setCurrentRow(0)  # picked in the register
    qtbot.waitUntil(lambda: tab.current_letter_id == issued.id and bool(tab.images),
                    timeout=20000)
    _idle(window, qtbot)
    out = tmp_path / "printed.pdf"
    _print_to(monkeypatch, out)
    qtbot.mouseClick(tab.print_button, Qt.MouseButton.LeftButton)
    assert out.exists()
    qtbot.waitUntil(lambda: "Recorded as printed" in window.message.text(), timeout=20000)
    _idle(window, qtbot)
    assert window.message.text() == (
        f"Sent 2 page(s) of issued notice of violation {issued.id[:8]} to {out}. Recorded "
        "as printed; Print all pending letters leaves it out.")
    assert window.runner.wait(lambda: _printed(ws, issued.id)) is not None
    # the stamp alone, by the user, in the change log; the letter itself as issued
    logged = window.runner.wait(lambda: ws.store.query(
        "SELECT user, op, field FROM change_log WHERE record_id = ? AND op = 'update'",
        (issued.id,)))
    assert logged == [{"user": "k.olmsted", "op": "update", "field": "printed_at"}]
    assert window.runner.wait(lambda: ws.store.query(
        "SELECT kind, status, letter_date, recipient, case_version, issued_by, issued_at, "
        "sha256, pdf FROM letters WHERE id = ?", (issued.id,))) == before
    assert "printed;" in tab.register.item(0).text() or "printed)" in tab.register.item(0).text()
    assert tab.register.item(0).isSelected()
    # Letters > Print all pending letters leaves it out
    batch = window.runner.wait(lambda: letter_service.print_batch(ws, tmp_path / "all.pdf"))
    assert batch["letters"] == 0
    # printed again: the first time printed stays
    first = window.runner.wait(lambda: _printed(ws, issued.id))
    qtbot.mouseClick(tab.print_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "already recorded as printed" in window.message.text(),
                    timeout=20000)
    _idle(window, qtbot)
    assert window.runner.wait(lambda: _printed(ws, issued.id)) == first


def test_printing_a_draft_marks_nothing(window: MainWindow, qtbot: QtBot, tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    ws = window.workspace
    (issued,) = window.runner.wait(lambda: letter_service.issue(
        ws, VIOLATION, ["notice_of_violation"], as_of=TODAY))
    tab = _letters(window, qtbot, VIOLATION)
    qtbot.mouseClick(tab.preview_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(tab.images) and tab.current_letter_id is None,
                    timeout=20000)
    _idle(window, qtbot)
    out = tmp_path / "draft.pdf"
    _print_to(monkeypatch, out)
    qtbot.mouseClick(tab.print_button, Qt.MouseButton.LeftButton)
    _idle(window, qtbot)
    assert out.exists()
    assert window.message.text() == (
        f"Sent 2 page(s) of the DRAFT notice of violation to {out}; a draft is not an "
        "issued letter.")
    assert window.runner.wait(lambda: _printed(ws, issued.id)) is None
    assert window.runner.wait(lambda: ws.store.query(
        "SELECT count(*) AS n FROM change_log WHERE record_id = ? AND op = 'update'",
        (issued.id,)))[0]["n"] == 0


def test_mark_printed_refuses_a_draft(tmp_path: Path) -> None:
    ws = Workspace(tmp_path / "data", user="clerk")
    try:
        install_demo(ws, count=4, today=TODAY)
        with ws.store.transaction() as w:
            draft = w.insert("letters", {"kind": "substandard_notice", "status": "draft",
                                         "letter_date": TODAY, "recipient": ["Someone"],
                                         "case_version": 1},
                             parcel_id=ws.parcel_id(NOTICE))
        before = ws.store.query("SELECT * FROM letters WHERE id = ?", (draft,))
        with pytest.raises(InputError, match="is a draft, not an issued letter"):
            letter_service.mark_printed(ws, draft)
        assert ws.store.query("SELECT * FROM letters WHERE id = ?", (draft,)) == before
    finally:
        ws.close()


# --- 4. a double-click that finishes a drawing adds no extra corner ----------------------

def test_four_clicks_and_a_double_click_on_the_last_make_four_corners(
        window: MainWindow, qtbot: QtBot) -> None:
    ws = window.workspace
    window.open_parcel(UNMEASURED)
    window.tabs.setCurrentIndex(window.tabs.indexOf(window.site))
    qtbot.waitUntil(lambda: window.runner.pending == 0
                    and "Decides:" in window.site.distances.text(), timeout=20000)
    _idle(window, qtbot)
    site = window.site
    site.target.setCurrentIndex(site.target.findData("absorption_area"))
    qtbot.mouseClick(site.draw, Qt.MouseButton.LeftButton)
    assert site.view.drawing
    viewport = site.view.viewport()
    middle = viewport.rect().center()
    corners = [middle + QPoint(dx, dy) for dx, dy in ((-40, -30), (40, -30), (40, 30),
                                                      (-40, 30))]
    drawn: list[list[tuple[float, float]]] = []
    site.area_drawn.connect(drawn.append)
    for corner in corners:
        qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=corner)
        qtbot.wait(QApplication.doubleClickInterval() + 50)  # clicks, not a double-click
    # A double-click on the last corner, as the window system delivers it: a press (and
    # release), then the double-click.
    qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=corners[-1])
    qtbot.mouseDClick(viewport, Qt.MouseButton.LeftButton, pos=corners[-1])
    qtbot.waitUntil(lambda: bool(drawn), timeout=5000)
    (points,) = drawn
    assert len(points) == 4
    qtbot.waitUntil(lambda: "Absorption area saved" in window.message.text(), timeout=20000)
    _idle(window, qtbot)
    stored = window.runner.wait(lambda: ws.load_case(UNMEASURED).site)
    assert stored is not None and stored.absorption_area is not None
    (ring,) = stored.absorption_area["coordinates"]
    assert len(ring) == 5 and ring[0] == ring[-1]  # four corners, closed
    assert len({tuple(p) for p in ring}) == 4
