"""Every file the app opens passes the rule the command line's file arguments pass
(`paths.readable_file`): a folder, a missing file or one that may not be read, chosen in a
file dialog, is told in that rule's one sentence and nothing is read or changed."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QFileDialog, QMessageBox
from pytestqt.qtbot import QtBot

from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.workspace import Workspace
from inspector_app.ui.main_window import MainWindow
from inspector_app.ui.tasks import TaskRunner

TODAY = date(2026, 11, 25)
UI = Path(__file__).resolve().parents[2] / "inspector_app" / "ui"


def test_no_screen_asks_for_a_file_to_read_but_through_the_one_check() -> None:
    asking = re.compile(r"QFileDialog\.getOpenFileNames?\(")
    found = sorted(str(p.relative_to(UI)) for p in UI.rglob("*.py")
                   if asking.search(p.read_text("utf-8")))
    assert found == ["file_dialogs.py"]


@pytest.fixture
def window(qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
           ) -> Iterator[MainWindow]:
    ws = Workspace(tmp_path / "data", user="k.olmsted")
    install_demo(ws, today=TODAY)
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    w = MainWindow(ws, runner=TaskRunner(synchronous=True), settings=settings)
    w.ctx.as_of = TODAY
    told: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning",
                        staticmethod(lambda _parent, _title, text, *a, **k: told.append(text)))
    w.told = told  # type: ignore[attr-defined]
    qtbot.addWidget(w)
    w.show()
    yield w
    ws.close()


def _choose(monkeypatch: pytest.MonkeyPatch, path: Path) -> None:
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        staticmethod(lambda *a, **k: (str(path), "")))
    monkeypatch.setattr(QFileDialog, "getOpenFileNames",
                        staticmethod(lambda *a, **k: ([str(path)], "")))


# Each opener: what it reads, in the command line's words, and how to run it.
OPENERS: dict[str, tuple[str, Callable[[MainWindow], Any]]] = {
    "File > Import a case file": ("case file", lambda w: w.menus.file.import_case()),
    "File > Shoreline layer": ("shoreline layer", lambda w: w.menus.file.import_layer()),
    "File > Import aerial imagery": ("basemap image",
                                     lambda w: w.menus.file.import_imagery()),
    "File > Import tax-parcel lines": ("lot-line layer",
                                       lambda w: w.menus.file.import_lot_lines()),
    "Sync > Import a sync package": ("sync package",
                                     lambda w: w.menus.sync.import_package()),
    "File > Set up this laptop from a field kit": ("field kit",
                                                   lambda w: w.folders.join_kit()),
    "Photos > Add": ("attachment", lambda w: w.workbench.photos_page._pick_photos()),
    "Site > GPS log": ("NMEA log", lambda w: w.workbench.site_edits.gps_log()),
}


def _state(ws: Workspace) -> Any:
    conn = ws.store.conn
    return (conn.execute("SELECT max(seq) FROM change_log").fetchone()[0],
            sorted(p.name for p in ws.folder.root.rglob("*") if p.suffix != ".sqlite-wal"
                   and "backups" not in p.parts and not p.name.endswith("-shm")))


@pytest.mark.parametrize("opener", OPENERS)
def test_a_folder_chosen_for_a_file_is_told_and_nothing_is_read(
        window: MainWindow, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        opener: str) -> None:
    what, run = OPENERS[opener]
    window.open_parcel("900.01-1-13")
    folder = tmp_path / "a folder.json"
    folder.mkdir()
    _choose(monkeypatch, folder)
    before = _state(window.ctx.ws)
    run(window)
    assert window.told == [f"{folder}: is a folder, not a file; give the path of the {what} "
                           "itself, inside that folder."]
    assert _state(window.ctx.ws) == before


def test_a_file_gone_before_it_is_read_is_told(window: MainWindow, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    gone = tmp_path / "gone.json"
    _choose(monkeypatch, gone)
    window.menus.file.import_case()
    assert window.told == [f"{gone}: no such case file; check its name and the folder it is "
                           "in."]


def test_the_signature_dialog_says_it_in_its_red_bar(window: MainWindow, qtbot: QtBot,
                                                     tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from inspector_app.ui.attestation import AttestDialog

    dialog = AttestDialog(window.ctx, "900.01-1-13")
    qtbot.addWidget(dialog)
    used: list[Path] = []
    dialog.use_scan = used.append  # type: ignore[method-assign]
    folder = tmp_path / "signature.png"
    folder.mkdir()
    _choose(monkeypatch, folder)
    dialog._choose()
    assert dialog.problem.text() == (f"{folder}: is a folder, not a file; give the path of "
                                     "the signature image itself, inside that folder.")
    assert used == [] and window.told == []  # told in the dialog, not in a box
