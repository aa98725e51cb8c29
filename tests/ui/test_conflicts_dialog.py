"""Sync > Conflicts..., driven through its buttons, with the real worker thread and with the
synchronous one: a value a case file could not hold is refused in words and changes
nothing; typed text is read as the field's type. The import summary counts only the
conflicts that need a decision, and the app's messages name menu items, not commands."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QFileDialog, QInputDialog, QMessageBox, QPushButton, QWidget
from pytestqt.qtbot import QtBot

from inspector_app.errors import InspectorError
from inspector_app.services import exchange as sync
from inspector_app.services.letters import register as letters
from inspector_app.services.parcel import measure_all
from inspector_app.services.workspace import Workspace
from inspector_app.storage.records import new_id
from inspector_app.ui.context import AppContext
from inspector_app.ui.dialogs import ConflictsDialog
from inspector_app.ui.main_window import MainWindow
from inspector_app.ui.tasks import TaskRunner
from tests.sync.conftest import TODAY, Pair, copied_pair, state
from tests.templates import Templates

SBL = "900.01-1-2"  # a demo parcel with a dwelling and an inspection


@pytest.fixture
def pair(tmp_path: Path, templates: Templates) -> Iterator[Pair]:
    made = copied_pair(templates, tmp_path, parcels=4)
    yield made
    made.office.close()
    made.field.close()


@pytest.fixture(params=["threaded", "synchronous"])
def runner(request: pytest.FixtureRequest) -> Iterator[TaskRunner]:
    r = TaskRunner(synchronous=request.param == "synchronous")
    yield r
    r.stop()


def write(ws: Workspace, table: str, column: str, value: Any) -> None:
    """A change through the record writer with its value checks off, as an older or careless
    laptop might send (this version's writer refuses such a value as it is made)."""
    key = "id" if table == "parcels" else "parcel_id"
    row = ws.store.query(f"SELECT id FROM {table} WHERE {key} = ? AND deleted_at IS NULL",
                         (ws.parcel_id(SBL),))[0]
    with ws.store.transaction() as w:
        w.values_check = None
        w.update(table, row["id"], {column: value})


def bedrooms_conflict(pair: Pair, *, field_value: Any) -> None:
    write(pair.field, "dwellings", "bedrooms", field_value)
    write(pair.office, "dwellings", "bedrooms", 2)
    assert pair.up()["conflicts"] == 1


def bedrooms(ws: Workspace, runner: TaskRunner) -> dict[str, Any]:
    return runner.wait(lambda: ws.store.query(
        "SELECT bedrooms AS v, typeof(bedrooms) AS t FROM dwellings WHERE parcel_id = ? AND "
        "deleted_at IS NULL", (ws.parcel_id(SBL),))[0])


@dataclass
class Typing:
    """QInputDialog.getText as the user answers it."""

    answer: str = ""
    prompts: list[tuple[str, str]] | None = None

    def get_text(self, _parent: Any, _title: str, label: str, _mode: Any = None,
                 text: str = "", *_a: Any, **_k: Any) -> tuple[str, bool]:
        assert self.prompts is not None
        self.prompts.append((label, text))
        return self.answer, True


@pytest.fixture
def typing(monkeypatch: pytest.MonkeyPatch) -> Typing:
    t = Typing(prompts=[])
    monkeypatch.setattr(QInputDialog, "getText", t.get_text)
    return t


def open_dialog(qtbot: QtBot, pair: Pair, runner: TaskRunner) -> ConflictsDialog:
    ctx = AppContext(pair.office, runner)
    dialog = ConflictsDialog(ctx)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitUntil(lambda: dialog.table.rowCount() == 1 and runner.pending == 0,
                    timeout=10000)
    return dialog


def click(qtbot: QtBot, dialog: ConflictsDialog, runner: TaskRunner, text: str) -> None:
    """Press the dialog's button and wait until the worker is done with it."""
    (button,) = [b for b in dialog.findChildren(QPushButton) if b.text() == text]
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: runner.pending == 0 and not dialog.busy, timeout=10000)
    qtbot.wait(10)


def test_text_for_bedrooms_is_refused_in_the_dialog_then_a_number_is_taken(
        qtbot: QtBot, pair: Pair, runner: TaskRunner, typing: Typing) -> None:
    bedrooms_conflict(pair, field_value=6)
    dialog = open_dialog(qtbot, pair, runner)
    before = runner.wait(lambda: state(pair.office))
    typing.answer = "five"
    click(qtbot, dialog, runner, "&Enter a value...")
    assert runner.wait(lambda: state(pair.office)) == before
    assert dialog.table.rowCount() == 1
    # the field in words, both values as a person types them
    assert [dialog.table.item(0, c).text() for c in (1, 2, 3)] == ["Bedrooms", "2", "6"]
    assert typing.prompts == [("Bedrooms:", "2")]  # the value here, as a person types it
    assert dialog.problem.isVisibleTo(dialog)
    text = dialog.problem.text()
    assert 'Bedrooms must be a whole number, not the text "five"' in text
    assert "nothing was changed and the conflict stays open" in text
    typing.answer = "5"
    click(qtbot, dialog, runner, "&Enter a value...")
    assert dialog.table.rowCount() == 0
    assert not dialog.problem.isVisibleTo(dialog)
    assert bedrooms(pair.office, runner) == {"v": 5, "t": "integer"}
    assert runner.wait(lambda: pair.office.load_case(SBL)).dwelling.bedrooms == 5


def recorded_conflict(pair: Pair, *, incoming: Any) -> None:
    """A bedrooms conflict with a value the import now refuses, as an earlier version of
    the app recorded it."""
    write(pair.field, "dwellings", "bedrooms", incoming)
    write(pair.office, "dwellings", "bedrooms", 2)
    with pytest.raises(InspectorError, match="Bedrooms must be a whole number"):
        pair.up()
    dwelling = pair.office.store.query("SELECT id, parcel_id FROM dwellings WHERE parcel_id = ? "
                                       "AND deleted_at IS NULL", (pair.office.parcel_id(SBL),))[0]
    laptop = pair.office.store.query("SELECT id FROM devices WHERE role = 'field'")[0]["id"]
    with pair.office.store.transaction() as w:
        w.conn.execute(
            "INSERT INTO sync_conflicts (id, parcel_id, table_name, record_id, field, "
            "base_value, local_value, incoming_value, change_id, device_id, incoming_user, "
            "incoming_at, received_at) VALUES (?, ?, 'dwellings', ?, 'bedrooms', '3', '2', ?, "
            "?, ?, 'k.olmsted', ?, ?)",
            (new_id(), dwelling["parcel_id"], dwelling["id"], json.dumps(incoming), new_id(),
             laptop, w.now, w.now))


def test_a_bad_value_from_the_laptop_is_not_taken(qtbot: QtBot, pair: Pair,
                                                  runner: TaskRunner) -> None:
    recorded_conflict(pair, incoming="five")
    dialog = open_dialog(qtbot, pair, runner)
    before = runner.wait(lambda: state(pair.office))
    click(qtbot, dialog, runner, "&Take the other value")
    assert runner.wait(lambda: state(pair.office)) == before
    runner.wait(lambda: pair.office.evaluate_parcel(SBL, as_of=TODAY))  # still opens
    assert dialog.table.rowCount() == 1
    assert dialog.problem.isVisibleTo(dialog)
    assert "Bedrooms must be a whole number" in dialog.problem.text()
    click(qtbot, dialog, runner, "&Keep the value here")
    assert dialog.table.rowCount() == 0
    assert bedrooms(pair.office, runner) == {"v": 2, "t": "integer"}


@pytest.fixture
def field_window(qtbot: QtBot, pair: Pair, monkeypatch: pytest.MonkeyPatch
                 ) -> Iterator[tuple[MainWindow, list[str], list[Any]]]:
    shown: list[str] = []
    opened: list[Any] = []
    monkeypatch.setattr(QMessageBox, "information",
                        lambda _p, _t, text, *a, **k: shown.append(text))
    monkeypatch.setattr(ConflictsDialog, "exec", lambda self: opened.append(self) or 0)
    settings = QSettings(str(pair.tmp / "settings.ini"), QSettings.Format.IniFormat)
    w = MainWindow(pair.field, runner=TaskRunner(), settings=settings)
    qtbot.addWidget(w)
    w.show()
    yield w, shown, opened
    w.close()  # stops the worker


def test_the_import_summary_counts_only_conflicts_that_need_a_decision(
        qtbot: QtBot, pair: Pair, field_window: tuple[MainWindow, list[str], list[Any]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    window, shown, opened = field_window
    qtbot.waitUntil(lambda: window.runner.pending == 0, timeout=10000)
    write(pair.field, "parcels", "owner_name", "Field Name")
    write(pair.office, "parcels", "owner_name", "Office Name")
    window.runner.wait(lambda: sync.export(pair.field, pair.tmp / "up.zip"))
    sync.import_package(pair.office, pair.tmp / "up.zip")
    (conflict,) = sync.conflicts(pair.office)
    sync.resolve(pair.office, conflict["id"], choice="keep_local")
    sync.export(pair.office, pair.tmp / "down.zip")
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        lambda *a, **k: (str(pair.tmp / "down.zip"), ""))
    window.menus.sync.import_package()
    qtbot.waitUntil(lambda: bool(shown), timeout=10000)
    # the office's edit met the laptop's, and the office's decision in the same package
    # settled it: nothing waits for a person
    assert shown == ["Applied 1 change(s); no conflicts need a decision."]
    assert opened == []
    assert window.runner.wait(lambda: sync.conflicts(pair.field)) == []


def test_an_open_conflict_is_counted_and_shown(
        qtbot: QtBot, pair: Pair, field_window: tuple[MainWindow, list[str], list[Any]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    window, shown, opened = field_window
    qtbot.waitUntil(lambda: window.runner.pending == 0, timeout=10000)
    write(pair.field, "parcels", "owner_name", "Field Name")
    write(pair.office, "parcels", "owner_name", "Office Name")
    sync.export(pair.office, pair.tmp / "down.zip")
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        lambda *a, **k: (str(pair.tmp / "down.zip"), ""))
    window.menus.sync.import_package()
    qtbot.waitUntil(lambda: bool(shown) and bool(opened), timeout=10000)
    assert shown == ["Applied 0 change(s); 1 conflict(s) need a decision (Sync > "
                     "Conflicts...)."]


# --- messages name menu items -----------------------------------------------------------

def _menu_items(window: MainWindow) -> set[str]:
    items = set()
    for top in window.menuBar().actions():
        menu = top.menu()
        if menu is None:
            continue
        for action in menu.actions():
            if action.text():
                items.add(f"{top.text().replace('&', '')} > {action.text().replace('&', '')}")
    return items


def _errors(pair: Pair) -> list[tuple[InspectorError, str]]:
    """Every message of the core that sends the user to a command, and what the app names."""
    out: list[tuple[InspectorError, str]] = []

    def catch(fn: Any, where: str) -> None:
        with pytest.raises(InspectorError) as caught:
            fn()
        out.append((caught.value, where))

    catch(lambda: sync.export(pair.office, pair.tmp / "x.zip", device="nobody"),
          "Sync > Enrol a laptop (field kit)...")
    catch(lambda: sync.import_package(pair.field, pair.tmp / "kit.zip"),
          "File > Set up this laptop from a field kit...")
    catch(lambda: sync.resolve(pair.office, "no-such-conflict", choice="keep_local"),
          "Sync > Conflicts...")
    catch(lambda: pair.office.parcel_id("999.99-9-9"), "Edit > Find parcel")
    write(pair.field, "parcels", "owner_name", "Field Name")
    write(pair.office, "parcels", "owner_name", "Office Name")
    pair.up()
    catch(lambda: letters.issue(pair.office, SBL, ["report_of_findings"], as_of=TODAY),
          "Sync > Conflicts...")
    with pair.office.store.transaction() as w:
        w.conn.execute("UPDATE shoreline_layers SET active = 0")
    catch(lambda: measure_all.measure_parcels(pair.office, None, today=TODAY),
          "File > Import shoreline layer...")
    return out


def test_messages_in_the_app_name_menu_items_not_commands(qtbot: QtBot, pair: Pair,
                                                          tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    window = MainWindow(pair.office, runner=TaskRunner(synchronous=True), settings=settings)
    qtbot.addWidget(window)
    menus = _menu_items(window)
    errors = _errors(pair)
    assert len(errors) == 6
    boxes: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda _p, _t, text, *a, **k: boxes.append(text))
    runner = TaskRunner()  # the real one: the message box is shown too
    try:
        ctx = AppContext(pair.office, runner)
        ctx.window = QWidget()
        status: list[str] = []
        ctx.status.connect(status.append)
        for exc, where in errors:
            assert "`inspector-app " in str(exc)  # the command line's message is unchanged
            ctx.error(exc)
            assert "inspector-app" not in boxes[-1] and "inspector-app" not in status[-1]
            assert where in boxes[-1] and where in status[-1], boxes[-1]
            assert where in menus, (where, sorted(menus))  # the app has that menu item
    finally:
        runner.stop()
