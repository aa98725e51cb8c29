from __future__ import annotations

from datetime import date
from pathlib import Path

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.workspace import Workspace
from inspector_app.ui.main_window import MainWindow


def test_parcel_list_shows_and_filters_demo_parcels(qtbot: QtBot, workspace: Workspace,
                                                   tmp_path: Path) -> None:
    install_demo(workspace, today=date(2026, 11, 25))
    window = MainWindow(workspace)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    assert window.proxy.rowCount() == 40
    assert window.count.text() == "40 of 40 parcels shown"
    assert window.demo_banner.isVisible()
    first_sbls = [window.proxy.index(r, 0).data() for r in range(3)]
    assert first_sbls == ["900.01-1-1", "900.01-1-2", "900.01-1-3"]  # numeric, not text, order

    sample = window.model.rows[5]
    qtbot.keyClicks(window.search, sample["owner_name"].split()[1])
    shown = [window.proxy.index(r, 2).data() for r in range(window.proxy.rowCount())]
    assert sample["owner_name"] in shown
    assert all(sample["owner_name"].split()[1] in name for name in shown)
    assert window.count.text() == f"{len(shown)} of 40 parcels shown"

    window.search.clear()
    qtbot.keyClicks(window.search, "900.01-1-1")
    assert window.proxy.index(0, 0).data().startswith("900.01-1-1")
    window.grab().save(str(tmp_path / "main-window.png"))
    assert (tmp_path / "main-window.png").stat().st_size > 0


def test_empty_data_folder_says_how_to_start(qtbot: QtBot, workspace: Workspace) -> None:
    window = MainWindow(workspace)
    qtbot.addWidget(window)
    assert "load the demo parcels" in window.count.text()
    assert window.load_demo.isVisibleTo(window)
    assert not window.demo_banner.isVisibleTo(window)
    qtbot.keyClick(window, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
