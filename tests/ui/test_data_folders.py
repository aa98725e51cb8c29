"""Data folders in the desktop app: open, new, recent, joining a field kit, window state
per folder, the user guide. Driven with the real worker thread, as users run it."""

from __future__ import annotations

import hashlib
import sqlite3
import tomllib
from collections.abc import Callable, Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QDialog, QFileDialog, QInputDialog, QMessageBox
from pytestqt.qtbot import QtBot

from inspector_app import casefile
from inspector_app.paths import DATABASE_NAME
from inspector_app.services import exchange as sync
from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.workspace import Workspace
from inspector_app.ui.main_window import MainWindow
from inspector_app.ui.tasks import TaskRunner
from tests.network_shares import on_a_share, sentence

from .live import settle

TODAY = date(2026, 11, 25)
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def said(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What the app told the user in message boxes (a modal box would stop the test)."""
    texts: list[str] = []

    def box(_parent: Any, _title: str, text: str, *_a: Any, **_k: Any) -> Any:
        texts.append(text)
        return QMessageBox.StandardButton.Ok

    monkeypatch.setattr(QMessageBox, "warning", staticmethod(box))
    monkeypatch.setattr(QMessageBox, "information", staticmethod(box))
    monkeypatch.setattr(QMessageBox, "critical", staticmethod(box))
    return texts


@pytest.fixture
def settings(tmp_path: Path) -> QSettings:
    return QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)


@pytest.fixture
def open_window(qtbot: QtBot, settings: QSettings, said: list[str]
                ) -> Iterator[Callable[[Path], MainWindow]]:
    windows: list[MainWindow] = []

    def make(root: Path) -> MainWindow:
        w = MainWindow(Workspace(root, user="k.olmsted"), runner=TaskRunner(),
                       settings=settings)
        w.ctx.as_of = TODAY
        qtbot.addWidget(w)
        w.show()
        settle(w, qtbot)
        windows.append(w)
        return w

    yield make
    for w in windows:
        w.close()  # stops the worker first
        w.workspace.close()


def demo_folder(root: Path, count: int) -> Path:
    with Workspace(root, user="clerk") as ws:
        install_demo(ws, count=count, today=TODAY)
    return root


def exports(root: Path) -> dict[str, Any]:
    """Every case of a folder as its case file, and its change log: what "untouched" means."""
    with Workspace(root, user="reader") as ws:
        return {"cases": {p["sbl"]: casefile.dumps(ws.load_case(p["sbl"]))
                          for p in ws.parcels()},
                "changes": ws.store.query("SELECT change_id FROM change_log ORDER BY seq")}


def files(root: Path) -> dict[str, str]:
    """The folder's files and their contents; SQLite's shared-memory index (-shm), which
    any reader of a WAL database touches, is not content."""
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file() and not p.name.endswith("-shm")}


def choose_folder(monkeypatch: pytest.MonkeyPatch, folder: Path) -> None:
    monkeypatch.setattr(QFileDialog, "getExistingDirectory",
                        staticmethod(lambda *a, **k: str(folder)))


def switched_to(w: MainWindow, qtbot: QtBot, root: Path, parcels: int) -> None:
    qtbot.waitUntil(lambda: w.workspace.folder.root.resolve() == root.resolve()
                    and w.model.rowCount() == parcels and w.menuBar().isEnabled(),
                    timeout=15_000)
    settle(w, qtbot)


def rename_owner(w: MainWindow, qtbot: QtBot, sbl: str, name: str) -> None:
    w.select(sbl)
    qtbot.waitUntil(lambda: w.form.case is not None and w.form.case.parcel.sbl == sbl)
    w.form.owner_name.setText(name)
    w.form.owner_name.editingFinished.emit()
    settle(w, qtbot)


def owner(root: Path, sbl: str) -> str:
    with Workspace(root, user="reader") as ws:
        return ws.load_case(sbl).parcel.owner_name


KIT_PASSPHRASE = "kit passphrase 1"


# --- joining a field kit ----------------------------------------------------------------

@pytest.fixture
def kit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    with Workspace(tmp_path / "office", user="clerk") as office:
        install_demo(office, count=4, today=TODAY)
        sbls = [p["sbl"] for p in office.parcels()][:2]
        sync.enroll(office, "laptop-1", tmp_path / "kit.zip", sbls, passphrase=KIT_PASSPHRASE)
    # the passphrase the person types when the app asks for it
    monkeypatch.setattr(QInputDialog, "getText", staticmethod(
        lambda *a, **k: (KIT_PASSPHRASE, True)))
    return tmp_path / "kit.zip"


def test_joining_a_kit_into_the_folder_the_app_has_open_opens_it(
        open_window: Callable[[Path], MainWindow], qtbot: QtBot, tmp_path: Path, kit: Path,
        said: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    w = open_window(tmp_path / "laptop")  # a new laptop: the app opened a new folder
    opened = w.workspace
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (str(kit),
                                                                                      "")))
    monkeypatch.setattr(QMessageBox, "question", staticmethod(
        lambda *a, **k: QMessageBox.StandardButton.Yes))
    choose_folder(monkeypatch, tmp_path / "laptop")  # the same folder, if asked for one
    w.folders.join_kit()
    switched_to(w, qtbot, tmp_path / "laptop", 2)
    assert said == []
    assert w.runner.wait(lambda: w.workspace.role) == "field"
    assert w.windowTitle().endswith(str((tmp_path / "laptop").resolve()))
    assert "set up as laptop-1 with 2 parcel(s)" in w.message.text()
    assert "--data-dir" not in w.message.text()
    with pytest.raises(sqlite3.ProgrammingError):  # the folder was opened afresh
        opened.store.conn.execute("SELECT 1")
    rename_owner(w, qtbot, "900.01-1-1", "Recorded on the laptop")
    assert owner(tmp_path / "laptop", "900.01-1-1") == "Recorded on the laptop"


def test_joining_into_another_empty_folder_opens_it_and_leaves_the_old_one_alone(
        open_window: Callable[[Path], MainWindow], qtbot: QtBot, tmp_path: Path, kit: Path,
        said: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    old = demo_folder(tmp_path / "old", 3)
    w = open_window(old)
    before = exports(old)
    (tmp_path / "laptop").mkdir()
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (str(kit),
                                                                                      "")))
    choose_folder(monkeypatch, tmp_path / "laptop")
    w.folders.join_kit()
    switched_to(w, qtbot, tmp_path / "laptop", 2)
    assert said == []
    rename_owner(w, qtbot, "900.01-1-2", "Recorded on the laptop")
    assert owner(tmp_path / "laptop", "900.01-1-2") == "Recorded on the laptop"
    assert exports(old) == before


def test_joining_over_records_is_refused_and_the_window_stays(
        open_window: Callable[[Path], MainWindow], qtbot: QtBot, tmp_path: Path, kit: Path,
        said: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    old = demo_folder(tmp_path / "old", 3)
    w = open_window(old)
    before = exports(old)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (str(kit),
                                                                                      "")))
    choose_folder(monkeypatch, old)
    w.folders.join_kit()
    qtbot.waitUntil(lambda: bool(said), timeout=15_000)
    settle(w, qtbot)
    assert "already holds records" in said[0] and "File > New data folder" in said[0]
    assert w.workspace.folder.root == old and w.menuBar().isEnabled()
    assert w.model.rowCount() == 3
    assert exports(old) == before


def test_a_wrong_kit_passphrase_is_refused_and_the_window_stays(
        open_window: Callable[[Path], MainWindow], qtbot: QtBot, tmp_path: Path, kit: Path,
        said: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    old = demo_folder(tmp_path / "old", 3)
    w = open_window(old)
    before = exports(old)
    (tmp_path / "laptop").mkdir()
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (str(kit),
                                                                                      "")))
    asked: list[Any] = []

    def type_passphrase(*a: Any, **k: Any) -> tuple[str, bool]:
        asked.append(a)
        return "not the passphrase", True

    monkeypatch.setattr(QInputDialog, "getText", staticmethod(type_passphrase))
    choose_folder(monkeypatch, tmp_path / "laptop")
    w.folders.join_kit()
    qtbot.waitUntil(lambda: bool(said), timeout=15_000)
    settle(w, qtbot)
    assert len(asked) == 1 and "Passphrase" in asked[0][2]
    assert "passphrase is wrong" in said[0]
    assert w.workspace.folder.root == old and w.menuBar().isEnabled()
    assert exports(old) == before
    assert not (tmp_path / "laptop" / DATABASE_NAME).exists()


def test_joining_shows_the_office_key_fingerprint(
        open_window: Callable[[Path], MainWindow], qtbot: QtBot, tmp_path: Path, kit: Path,
        said: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    with Workspace(tmp_path / "office", user="clerk") as office:
        shown = sync.office_fingerprint(office)
    w = open_window(tmp_path / "laptop")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (str(kit),
                                                                                      "")))
    monkeypatch.setattr(QMessageBox, "question", staticmethod(
        lambda *a, **k: QMessageBox.StandardButton.Yes))
    w.folders.join_kit()
    switched_to(w, qtbot, tmp_path / "laptop", 2)
    assert f"office key fingerprint {shown}" in w.message.text()
    # and in a dialog that stays until closed, selectable, saying what to compare with whom
    dialog = w.folders.fingerprint
    assert dialog is not None and dialog.isVisible()
    assert dialog.fingerprint.text() == shown and dialog.fingerprint.isReadOnly()
    assert dialog.fingerprint.selectedText() == shown
    assert dialog.compare.text().startswith("Compare this fingerprint with the one the office "
                                            "showed when it wrote the kit")
    assert "telephone" in dialog.compare.text() and "new kit" in dialog.compare.text()
    assert dialog.compare.textInteractionFlags() & Qt.TextInteractionFlag.TextSelectableByMouse
    qtbot.wait(200)
    assert dialog.isVisible()  # nothing closes it but the person
    dialog.close()


def test_enrolling_shows_the_office_key_fingerprint_until_closed(
        open_window: Callable[[Path], MainWindow], qtbot: QtBot, tmp_path: Path,
        said: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from inspector_app.ui.dialogs import EnrollDialog

    office = demo_folder(tmp_path / "office", 3)
    w = open_window(office)
    sbl = w.model.rows[0]["sbl"]
    monkeypatch.setattr(EnrollDialog, "exec", lambda self: QDialog.DialogCode.Accepted)
    offered: list[tuple[str, str]] = []

    def save_as(_parent: Any, _title: str, name: str, filters: str) -> tuple[str, str]:
        offered.append((name, filters))
        return str(tmp_path / "laptop-2"), filters  # typed without a suffix

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(save_as))
    kit_path = tmp_path / "laptop-2.wikit"
    form = w.menus.sync.enroll()
    fill_enrolment(form, "laptop-2", sbl, KIT_PASSPHRASE, KIT_PASSPHRASE)
    form.buttons.accepted.emit()
    qtbot.waitUntil(lambda: w.menus.sync.fingerprint is not None, timeout=15_000)
    settle(w, qtbot)
    assert said == [] and kit_path.is_file()
    assert offered == [(str(Path.home() / "laptop-2.wikit"), "Field kits (*.wikit)")]
    shown = w.runner.wait(lambda: sync.office_fingerprint(w.workspace))
    dialog = w.menus.sync.fingerprint
    assert dialog.isVisible() and dialog.fingerprint.text() == shown
    assert dialog.done_text.text() == f"Field kit for laptop-2 written to {kit_path}."
    assert dialog.compare.text().startswith("Read this fingerprint to the inspector who sets "
                                            "the laptop up")
    assert shown in w.message.text()
    dialog.close()


def fill_enrolment(form: Any, name: str, parcels: str, passphrase: str, again: str) -> None:
    form.name.setText(name)
    form.parcels.setText(parcels)
    form.passphrase.setText(passphrase)
    form.again.setText(again)


def test_an_enrolment_refused_is_said_in_the_form_with_everything_typed_kept(
        open_window: Callable[[Path], MainWindow], qtbot: QtBot, tmp_path: Path,
        said: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from inspector_app.ui.dialogs import EnrollDialog

    w = open_window(demo_folder(tmp_path / "office", 3))
    monkeypatch.setattr(EnrollDialog, "exec", lambda self: QDialog.DialogCode.Rejected)
    asked: list[str] = []

    def save_as(_parent: Any, _title: str, name: str, filters: str) -> tuple[str, str]:
        asked.append(name)
        return str(tmp_path / "laptop-3.wikit"), filters

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(save_as))
    form = w.menus.sync.enroll()
    qtbot.addWidget(form)
    form.show()
    typed = ("laptop-3", "900.01-1-2, 900.01-1-99", KIT_PASSPHRASE, KIT_PASSPHRASE + "x")
    fill_enrolment(form, *typed)
    form.buttons.accepted.emit()
    assert form.problem.isVisible() and form.isVisible()
    assert form.problem.text() == ("The two passphrases differ; type the same kit "
                                   "passphrase twice.")
    assert (form.name.text(), form.parcels.text(), form.passphrase.text(),
            form.again.text()) == typed
    # the passphrases made the same, the parcel that is not there refused before the
    # kit's file is asked for, in words for this form
    form.again.setText(KIT_PASSPHRASE)
    form.buttons.accepted.emit()
    qtbot.waitUntil(lambda: "900.01-1-99" in form.problem.text() and form.problem.isVisible())
    assert form.problem.text().startswith("No parcel with SBL '900.01-1-99' in this data "
                                          "folder; correct the Parcels field")
    assert "search box" not in form.problem.text()
    assert form.isVisible() and asked == [] and said == []
    assert form.parcels.text() == "900.01-1-2, 900.01-1-99"
    assert form.buttons.button(form.buttons.StandardButton.Ok).isEnabled()
    assert not (tmp_path / "laptop-3.wikit").exists()
    # another spelling of a parcel that is there passes, and the kit is written
    form.parcels.setText("900.01-001-002")
    form.buttons.accepted.emit()
    qtbot.waitUntil(lambda: w.menus.sync.fingerprint is not None, timeout=15_000)
    assert len(asked) == 1 and asked[0].endswith("laptop-3.wikit")
    assert (tmp_path / "laptop-3.wikit").is_file() and not form.isVisible()
    w.menus.sync.fingerprint.close()


# --- open, new, recent ------------------------------------------------------------------

def test_opening_another_folder_clears_the_window_and_edits_go_to_it(
        open_window: Callable[[Path], MainWindow], qtbot: QtBot, tmp_path: Path,
        said: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    a, b = demo_folder(tmp_path / "a", 3), demo_folder(tmp_path / "b", 5)
    w = open_window(a)
    rename_owner(w, qtbot, "900.01-1-2", "Edited in A")
    w.tabs.setCurrentIndex(3)
    assert w.undo_stack.count() == 1
    a_before = exports(a)

    choose_folder(monkeypatch, b)
    w.folders.open_folder()
    switched_to(w, qtbot, b, 5)
    assert said == []
    assert w.windowTitle().endswith(str(b.resolve()))
    # Nothing of folder A is left: not its last parcel (B has the same SBL), not its undo.
    assert (w.sbl, w.parcel_id, w.case, w.form.case) == (None, None, None, None)
    assert w.undo_stack.count() == 0
    assert w.evaluation.toPlainText() == "" and not w.tabs.isEnabled()
    assert w.heading.text() == "Select a parcel"

    rename_owner(w, qtbot, "900.01-1-4", "Edited in B")
    assert owner(b, "900.01-1-4") == "Edited in B"
    assert exports(a) == a_before
    b_after = exports(b)

    # Back to A from File > Recent data folders: where the user left off in A.
    entry = next(x for x in w.folders.recent_menu.actions() if x.text() == str(a.resolve()))
    assert entry.isEnabled()
    entry.trigger()
    switched_to(w, qtbot, a, 3)
    qtbot.waitUntil(lambda: w.sbl == "900.01-1-2")
    assert w.tabs.currentIndex() == 3
    assert w.form.owner_name.text() == "Edited in A"
    assert exports(b) == b_after and exports(a) == a_before


@pytest.mark.parametrize("kind", ["plain folder", "other application", "newer schema"])
def test_a_folder_that_cannot_be_opened_is_reported_and_the_window_stays(
        open_window: Callable[[Path], MainWindow], qtbot: QtBot, tmp_path: Path,
        said: list[str], monkeypatch: pytest.MonkeyPatch, kind: str) -> None:
    a = demo_folder(tmp_path / "a", 3)
    bad = tmp_path / "bad"
    if kind == "plain folder":
        bad.mkdir()
        (bad / "notes.txt").write_text("a letter draft")
        expected = "is not a Watershed Inspector data folder"
    elif kind == "other application":
        bad.mkdir()
        with sqlite3.connect(bad / "inspector.sqlite") as conn:
            conn.execute("CREATE TABLE songs (title TEXT)")
        expected = "another application"
    else:
        Workspace(bad, user="clerk").close()
        with sqlite3.connect(bad / "inspector.sqlite") as conn:
            conn.execute("PRAGMA user_version = 99")
        expected = "newer version of Watershed Inspector"
    bad_files = files(bad)
    w = open_window(a)
    w.select("900.01-1-3")
    qtbot.waitUntil(lambda: w.sbl == "900.01-1-3")
    choose_folder(monkeypatch, bad)
    w.folders.open_folder()
    qtbot.waitUntil(lambda: bool(said), timeout=15_000)
    settle(w, qtbot)
    assert expected in said[0]
    assert w.workspace.folder.root == a
    assert w.centralWidget().isEnabled() and w.menuBar().isEnabled()
    assert w.model.rowCount() == 3 and w.sbl == "900.01-1-3"
    assert files(bad) == bad_files  # nothing written there
    rename_owner(w, qtbot, "900.01-1-1", "Still working in A")
    assert owner(a, "900.01-1-1") == "Still working in A"


def test_a_data_folder_on_a_network_share_is_refused_and_the_window_stays(
        open_window: Callable[[Path], MainWindow], qtbot: QtBot, tmp_path: Path,
        said: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    a = demo_folder(tmp_path / "a", 3)
    share = tmp_path / "share"
    there = demo_folder(share / "wi", 2)
    fresh = share / "season-2027"
    fresh.mkdir()
    before = files(share)
    w = open_window(a)
    on_a_share(monkeypatch, share)
    choose_folder(monkeypatch, there)
    w.folders.open_folder()
    qtbot.waitUntil(lambda: bool(said), timeout=15_000)
    settle(w, qtbot)
    assert said == [sentence(there)]
    choose_folder(monkeypatch, fresh)
    w.folders.new_folder()
    qtbot.waitUntil(lambda: len(said) == 2, timeout=15_000)
    settle(w, qtbot)
    assert said[1] == sentence(fresh)
    assert files(share) == before and list(fresh.iterdir()) == []
    assert w.workspace.folder.root == a
    assert w.centralWidget().isEnabled() and w.menuBar().isEnabled()
    assert w.model.rowCount() == 3


def test_new_data_folder_needs_an_empty_folder(
        open_window: Callable[[Path], MainWindow], qtbot: QtBot, tmp_path: Path,
        said: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    a = demo_folder(tmp_path / "a", 3)
    w = open_window(a)
    busy = tmp_path / "documents"
    busy.mkdir()
    (busy / "report.pdf").write_bytes(b"%PDF-1.4")
    choose_folder(monkeypatch, busy)
    w.folders.new_folder()
    settle(w, qtbot)
    assert said and "is not empty" in said[0] and "File > Open data folder" in said[0]
    assert files(busy) == {"report.pdf": hashlib.sha256(b"%PDF-1.4").hexdigest()}
    assert w.workspace.folder.root == a

    fresh = tmp_path / "season-2027"
    fresh.mkdir()
    choose_folder(monkeypatch, fresh)
    w.folders.new_folder()
    switched_to(w, qtbot, fresh, 0)
    assert (fresh / "inspector.sqlite").is_file()
    assert w.load_demo.isVisibleTo(w) and "No parcels yet" in w.count.text()
    assert w.windowTitle().endswith(str(fresh.resolve()))


def test_recent_data_folders_lists_the_last_eight_and_marks_missing_ones(
        open_window: Callable[[Path], MainWindow], qtbot: QtBot, tmp_path: Path,
        settings: QSettings) -> None:
    kept = [demo_folder(tmp_path / f"f{i}", 1).resolve() for i in range(8)]
    gone = tmp_path / "usb-stick"  # unplugged: kept in the list, shown disabled
    settings.setValue("recent_data_folders", [str(p) for p in [kept[0], gone, *kept[1:]]])
    w = open_window(kept[5])
    entries = [a for a in w.folders.recent_menu.actions() if not a.isSeparator()]
    texts = [a.text() for a in entries]
    assert len(entries) == 8
    assert texts[0] == str(kept[5])  # the folder open now comes first, checked
    assert entries[0].isChecked() and not entries[0].isEnabled()
    assert texts[1] == str(kept[0])
    assert texts[2] == f"{gone.resolve()}  (not found)" and not entries[2].isEnabled()
    assert str(kept[7]) not in texts  # the ninth is dropped
    assert all(e.isEnabled() for e in entries[3:])


# --- window state, help -----------------------------------------------------------------

def test_window_state_is_kept_per_data_folder(
        open_window: Callable[[Path], MainWindow], qtbot: QtBot, tmp_path: Path,
        settings: QSettings) -> None:
    a, b = demo_folder(tmp_path / "a", 4), demo_folder(tmp_path / "b", 4)
    first = open_window(a)
    first.select("900.01-1-4")
    qtbot.waitUntil(lambda: first.sbl == "900.01-1-4")
    first.tabs.setCurrentIndex(2)
    first.close()
    other = open_window(b)  # B has a parcel 900.01-1-4 too, but B was never left there
    assert other.sbl is None and other.tabs.currentIndex() == 0
    other.select("900.01-1-1")
    qtbot.waitUntil(lambda: other.sbl == "900.01-1-1")
    other.close()
    again = open_window(a)
    assert again.sbl == "900.01-1-4" and again.tabs.currentIndex() == 2


def test_help_opens_the_user_guide_shipped_with_the_app(
        open_window: Callable[[Path], MainWindow], qtbot: QtBot, tmp_path: Path) -> None:
    from PySide6.QtCore import QUrl
    from PySide6.QtGui import QTextDocument

    w = open_window(tmp_path / "data")
    help_menu = next(m.menu() for m in w.menuBar().actions() if m.text() == "&Help")
    guide = next(a for a in help_menu.actions() if a.text() == "&User guide")
    guide.trigger()
    qtbot.waitUntil(lambda: w.menus.help.guide is not None and w.menus.help.guide.isVisible())
    text = w.menus.help.guide.browser.toPlainText()
    assert "Finding a parcel" in text and "Sync" in text
    picture = w.menus.help.guide.browser.document().resource(
        QTextDocument.ResourceType.ImageResource, QUrl("screenshots/inspection-form.png"))
    assert picture is not None and not picture.isNull()
    assert picture.width() <= w.menus.help.guide.browser.viewport().width()


def test_the_wheel_and_the_one_folder_app_ship_the_user_guide() -> None:
    from inspector_app.ui.guide import PACKAGED_GUIDE, guide_path

    assert guide_path() == ROOT / "docs" / "user-guide.md"  # in a checkout
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    included = project["tool"]["hatch"]["build"]["targets"]["wheel"]["force-include"]
    assert included["docs/user-guide.md"] == f"inspector_app/{PACKAGED_GUIDE}/user-guide.md"
    assert included["docs/screenshots"] == f"inspector_app/{PACKAGED_GUIDE}/screenshots"
    spec = (ROOT / "packaging" / "inspector-app.spec").read_text("utf-8")
    assert f'"inspector_app/{PACKAGED_GUIDE}"' in spec
    assert f'"inspector_app/{PACKAGED_GUIDE}/screenshots"' in spec


def test_about_says_only_what_the_folder_says(
        open_window: Callable[[Path], MainWindow], qtbot: QtBot, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    from inspector_app.paths import resource

    folder = tmp_path / "bristol"
    folder.mkdir()
    text = resource("jurisdictions", "town-of-canandaigua-ch202.toml").read_text("utf-8")
    text = (text.replace('name = "Town of Canandaigua"', 'name = "Town of South Bristol"')
            .replace('law = "Town Code Chapter 202, Wastewater Treatment Systems, On-Site"',
                     'law = "Town Code Chapter 120, Sewage Disposal"'))
    (folder / "jurisdiction.toml").write_text(text, "utf-8")
    w = open_window(folder)
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "about", staticmethod(lambda _p, _t, t: shown.append(t)))
    w.menus.help.show_about()  # the folder's laws are read on the worker first
    qtbot.waitUntil(lambda: bool(shown))
    (about,) = shown
    assert "Town of South Bristol" in about and "Chapter 120" in about
    assert "Chapter 202" not in about and "Canandaigua Lake watershed" not in about
    assert str(folder.resolve()) in about or str(folder) in about
    assert "k.olmsted" in about


def test_a_certified_inspector_s_laptop_is_enrolled_from_the_form(
        open_window: Callable[[Path], MainWindow], qtbot: QtBot, tmp_path: Path,
        said: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from inspector_app.services.reference.providers import add_provider
    from inspector_app.ui.dialogs import EnrollDialog

    w = open_window(demo_folder(tmp_path / "office", 3))
    w.runner.wait(lambda: add_provider(w.workspace, kind="inspector", name="R. Private",
                                       number="12345", valid_through=date(2030, 1, 1)))
    monkeypatch.setattr(EnrollDialog, "exec", lambda self: QDialog.DialogCode.Rejected)
    asked: list[str] = []

    def save_as(_parent: Any, _title: str, name: str, filters: str) -> tuple[str, str]:
        asked.append(name)
        return str(tmp_path / "private.wikit"), filters

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(save_as))
    form = w.menus.sync.enroll()
    qtbot.addWidget(form)
    form.show()
    fill_enrolment(form, "private", w.model.rows[0]["sbl"], KIT_PASSPHRASE, KIT_PASSPHRASE)
    # the number alone, then one the office has not registered: refused before the kit's
    # file is asked for, in the form's words, everything typed kept
    form.certification.setText("12345")
    form.buttons.accepted.emit()
    qtbot.waitUntil(lambda: form.problem.isVisible())
    assert form.problem.text().startswith("Give both the inspector's name and their "
                                          "certification number")
    form.inspector.setText("R. Private")
    form.certification.setText("99999")
    form.buttons.accepted.emit()
    qtbot.waitUntil(lambda: "99999" in form.problem.text())
    assert asked == [] and not (tmp_path / "private.wikit").exists()
    form.certification.setText("12345")
    form.buttons.accepted.emit()
    qtbot.waitUntil(lambda: (tmp_path / "private.wikit").is_file(), timeout=15_000)
    settle(w, qtbot)
    listed = w.runner.wait(lambda: sync.status(w.workspace))
    laptop = next(d for d in listed["devices"] if d["device"] == "private")
    assert (laptop["inspector"], laptop["certification"]) == ("R. Private", "12345")
    assert said == []
