"""Sync > Import a package with a hostile package, as users run it (the real worker
thread): refused with its sentence at once, the worker free again, nothing applied."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest
from PySide6.QtWidgets import QFileDialog, QMessageBox
from pytestqt.qtbot import QtBot

from inspector_app.services import exchange as sync
from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.workspace import Workspace
from inspector_app.ui.main_window import MainWindow
from tests import hostile_settings as hostile
from tests.ui.live import settle, threaded_window

TODAY = date(2026, 11, 25)
DEEP = ("[" * 100_000 + "]" * 100_000).encode()


@pytest.fixture
def window(qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
           ) -> Iterator[tuple[MainWindow, list[str]]]:
    ws = Workspace(tmp_path / "data", user="k.olmsted")
    install_demo(ws, today=TODAY)
    warnings: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", staticmethod(
        lambda _parent, _title, text, *a, **k: warnings.append(text)))
    w = threaded_window(ws, tmp_path, TODAY)
    qtbot.addWidget(w)
    w.show()
    settle(w, qtbot)
    yield w, warnings
    w.close()
    ws.close()


@pytest.mark.parametrize("make, words", [
    (hostile.unsigned_package, "it is unsigned"),
    (hostile.signed_looking_package, "nests 100,000 levels deep"),
])
def test_a_hostile_package_is_refused_in_the_app(
        qtbot: QtBot, window: tuple[MainWindow, list[str]], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, make: object, words: str) -> None:
    w, warnings = window
    package = make(tmp_path / "hostile.zip", DEEP)  # type: ignore[operator]
    before = w.runner.wait(lambda: sync.status(w.ctx.ws))
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(package), ""))
    w.menus.sync.import_package()
    qtbot.waitUntil(lambda: bool(warnings), timeout=30_000)
    settle(w, qtbot)
    assert len(warnings) == 1 and words in warnings[0], warnings
    assert "RecursionError" not in warnings[0]
    assert w.runner.pending == 0
    assert w.runner.wait(lambda: sync.status(w.ctx.ws)) == before
