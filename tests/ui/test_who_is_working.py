"""Who is working: asked once per data folder, shown at all times, and recorded on every
change, decision and letter made in the window."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QInputDialog, QMessageBox
from pytestqt.qtbot import QtBot

from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.letters import register as letter_service
from inspector_app.services.workspace import Workspace, login_name
from inspector_app.ui.main_window import MainWindow
from inspector_app.ui.tasks import TaskRunner
from tests.suggestions import decide_pending

TODAY = date(2026, 11, 25)
FAILED = "900.01-1-7"  # the demo's failed system: a notice of violation is due
UNDERSIZED, KEY = "900.01-1-5", "septic_tank_capacity/septic_tank#1"


class Asked:
    """QInputDialog.getText as a person answers it, with what it offered."""

    def __init__(self, *answers: tuple[str, bool]) -> None:
        self.answers = list(answers)
        self.offered: list[str] = []

    def __call__(self, _parent: Any, title: str, _label: str, _echo: Any = None,
                 text: str = "", *_a: Any, **_k: Any) -> tuple[str, bool]:
        assert title == "Who is working"
        self.offered.append(text)
        return self.answers.pop(0)


@pytest.fixture
def warnings(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning",
                        lambda _p, _t, text, *a, **k: shown.append(text))
    monkeypatch.setattr(QMessageBox, "question",
                        lambda *a, **k: QMessageBox.StandardButton.Yes)
    return shown


def _window(qtbot: QtBot, ws: Workspace, settings: QSettings) -> MainWindow:
    w = MainWindow(ws, runner=TaskRunner(), settings=settings, ask_who=True)
    w.ctx.as_of = TODAY
    qtbot.addWidget(w)
    w.show()
    return w


def _idle(w: MainWindow, qtbot: QtBot) -> None:
    qtbot.waitUntil(lambda: w.runner.pending == 0, timeout=15000)
    qtbot.wait(30)


@pytest.fixture
def folder(tmp_path: Path) -> Iterator[Workspace]:
    ws = Workspace(tmp_path / "data")  # opened as the command line does: the login
    install_demo(ws, today=TODAY)
    decide_pending(ws, FAILED, as_of=TODAY)
    yield ws
    ws.close()


def test_the_person_named_is_recorded_on_changes_decisions_and_letters(
        qtbot: QtBot, tmp_path: Path, folder: Workspace, warnings: list[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    asked = Asked(("  J. Haldane ", True))
    monkeypatch.setattr(QInputDialog, "getText", asked)
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    w = _window(qtbot, folder, settings)
    qtbot.waitUntil(lambda: w.who_label.text() == "Working: J. Haldane", timeout=15000)
    assert asked.offered == [login_name()]  # the login only offered
    assert "J. Haldane working" in w.windowTitle()
    assert folder.user == "J. Haldane"

    # a field edited in the form
    w.select(FAILED)
    qtbot.waitUntil(lambda: w.sbl == FAILED and not w.runner.pending, timeout=15000)
    w.form.owner_name.setText("Renamed Owner")
    w.form.owner_name.editingFinished.emit()
    _idle(w, qtbot)
    last = w.runner.wait(lambda: folder.history(FAILED))[-1]
    assert (last["field"], last["new_value"], last["user"]) == ("owner_name", "Renamed Owner",
                                                                "J. Haldane")

    # a decision on a suggested finding, from the evaluation panel
    w.select(UNDERSIZED)
    qtbot.waitUntil(lambda: w.sbl == UNDERSIZED and w.evaluation.evaluation is not None
                    and not w.runner.pending, timeout=15000)
    w.evaluation.decided.emit(KEY, False, "replaced in 2024")
    qtbot.waitUntil(lambda: "Rejected by J. Haldane" in w.evaluation.toPlainText(),
                    timeout=15000)
    decisions = [(h["op"], h["user"]) for h in w.runner.wait(lambda: folder.history(UNDERSIZED))
                 if h["table_name"] == "finding_decisions"]
    assert decisions == [("insert", "J. Haldane")]

    # a letter issued from the Letters tab
    w.select(FAILED)
    qtbot.waitUntil(lambda: w.letters.sbl == FAILED, timeout=15000)
    _idle(w, qtbot)
    w.tabs.setCurrentWidget(w.letters)
    _idle(w, qtbot)
    qtbot.mouseClick(w.letters.issue_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: w.letters.register.count() == 1, timeout=15000)
    _idle(w, qtbot)
    (letter,) = w.runner.wait(lambda: letter_service.register(folder, FAILED))
    assert letter["issued_by"] == "J. Haldane"
    assert not warnings
    w.close()


def test_asked_once_per_folder_and_never_carried_to_another(
        qtbot: QtBot, tmp_path: Path, folder: Workspace, warnings: list[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    monkeypatch.setattr(QInputDialog, "getText", Asked(("J. Haldane", True)))
    first = _window(qtbot, folder, settings)
    qtbot.waitUntil(lambda: first.who_label.text() == "Working: J. Haldane", timeout=15000)
    _idle(first, qtbot)
    first.close()

    # the same folder again: remembered, nothing asked
    folder.set_user(login_name())
    monkeypatch.setattr(QInputDialog, "getText", Asked())  # any question fails the test
    again = _window(qtbot, folder, settings)
    qtbot.waitUntil(lambda: folder.user == "J. Haldane", timeout=15000)
    _idle(again, qtbot)
    assert again.who_label.text() == "Working: J. Haldane"

    # another folder opened in the same window: asked, with the login offered, not the
    # name of the folder before
    other = tmp_path / "other"
    Workspace(other).close()
    asked = Asked(("K. Olmsted", True))
    monkeypatch.setattr(QInputDialog, "getText", asked)
    again.folders.switch_folder(other)
    qtbot.waitUntil(lambda: again.who_label.text() == "Working: K. Olmsted", timeout=15000)
    assert asked.offered == [login_name()]
    assert "K. Olmsted working" in again.windowTitle() and str(other.resolve()) in (
        again.windowTitle().replace(str(other), str(other.resolve())))
    _idle(again, qtbot)
    again.workspace.close()
    again.close()


def test_a_name_that_is_no_name_is_refused_and_asked_again(
        qtbot: QtBot, tmp_path: Path, folder: Workspace, warnings: list[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    asked = Asked(("   ", True), ("J. Haldane", True))
    monkeypatch.setattr(QInputDialog, "getText", asked)
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    w = _window(qtbot, folder, settings)
    qtbot.waitUntil(lambda: w.who_label.text() == "Working: J. Haldane", timeout=15000)
    assert warnings == ["Who is working must be a name of 1 to 80 characters, and no name "
                        "was given; type the name of the person working."]
    assert len(asked.offered) == 2

    # changed later from the File menu, and recorded from then on
    monkeypatch.setattr(QInputDialog, "getText", Asked(("K. Olmsted", True)))
    (action,) = [a for a in w.menuBar().actions()[0].menu().actions()
                 if a.text() == "Who is &working..."]
    action.trigger()
    qtbot.waitUntil(lambda: w.who_label.text() == "Working: K. Olmsted", timeout=15000)
    assert folder.user == "K. Olmsted"
    _idle(w, qtbot)
    w.close()


def test_a_name_given_on_the_command_line_is_used_and_nothing_asked(
        qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(QInputDialog, "getText", Asked())  # any question fails the test
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    w = MainWindow(root=tmp_path / "data", user="k.olmsted", runner=TaskRunner(),
                   settings=settings)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitUntil(lambda: w.who_label.text() == "Working: k.olmsted", timeout=15000)
    _idle(w, qtbot)
    assert w.workspace.user == "k.olmsted"
    w.close()
    w.workspace.close()


def test_a_certified_inspectors_laptop_shows_its_person_and_never_asks(
        qtbot: QtBot, tmp_path: Path, folder: Workspace, warnings: list[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    from inspector_app.services import exchange as sync
    from inspector_app.services.reference.providers import add_provider

    add_provider(folder, kind="inspector", name="R. Private", number="12345")
    kit, secret = tmp_path / "private.wikit", "kit passphrase 1"
    sync.enroll(folder, "private-1", kit, [FAILED], passphrase=secret,
                inspector="R. Private", certification="12345")
    sync.join(tmp_path / "laptop", kit, user=login_name(), passphrase=secret)
    told: list[str] = []
    monkeypatch.setattr(QMessageBox, "information", lambda _p, _t, text, *a, **k:
                        told.append(text))
    monkeypatch.setattr(QInputDialog, "getText", Asked())  # any question fails the test
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    with Workspace(tmp_path / "laptop", user="Someone Else") as laptop:
        w = _window(qtbot, laptop, settings)
        person = "R. Private (NYS OWTTN cert 12345)"
        qtbot.waitUntil(lambda: w.who_label.text() == f"Working: {person}", timeout=15000)
        _idle(w, qtbot)
        w.who.change()  # File > Who is working...: told, not asked
        assert len(told) == 1 and "enrolled for the certified inspector" in told[0]
        assert laptop.user == person
        assert not warnings
        w.close()
