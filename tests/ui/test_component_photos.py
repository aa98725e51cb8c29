"""Photos in the app: dropped onto a component's row in the form they attach to that
component; the Photos tab shows them upright (EXIF Orientation 6) with their marks, when
and where they were taken; the marks kept apart from the photo's file."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication, QDialog
from pytestqt.qtbot import QtBot

from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.workspace import Workspace
from inspector_app.ui.component_photos import component_name
from inspector_app.ui.main_window import MainWindow
from inspector_app.ui.photos import MarkPhoto
from inspector_app.ui.tasks import TaskRunner
from tests.exif_photos import exif_photo

TODAY = date(2026, 11, 25)
SBL = "900.01-1-2"  # septic tank, distribution box, absorption area


@pytest.fixture
def window(qtbot: QtBot, tmp_path: Path) -> Iterator[MainWindow]:
    from PySide6.QtCore import QSettings

    ws = Workspace(tmp_path / "data", user="k.olmsted")
    install_demo(ws, count=3, today=TODAY)
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    w = MainWindow(ws, runner=TaskRunner(synchronous=True), settings=settings)
    w.ctx.as_of = TODAY
    w.refresh_overview()
    qtbot.addWidget(w)
    w.show()
    yield w
    ws.close()


def _drop_on_row(window: MainWindow, row: int, path: Path) -> None:
    table = window.form.components
    rect = table.visualItemRect(table.item(row, 0))
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path))])
    # as a drag does: it enters the table, then drops on the row
    enter = QDragEnterEvent(rect.center(), Qt.DropAction.CopyAction, mime,
                            Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier)
    assert QApplication.sendEvent(table.viewport(), enter)
    event = QDropEvent(QPointF(rect.center()), Qt.DropAction.CopyAction, mime,
                       Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier)
    assert QApplication.sendEvent(table.viewport(), event)


def test_a_photo_dropped_on_a_components_row_is_attached_to_it(window: MainWindow,
                                                               qtbot: QtBot,
                                                               tmp_path: Path) -> None:
    window.select(SBL)
    case = window.form.case
    assert case is not None
    names = [component_name(case, r) for r in range(len(case.components))]
    assert names == ["septic_tank#1", "distribution_box#1", "absorption_area#1"]
    photo = exif_photo(tmp_path / "baffle.jpg")
    _drop_on_row(window, 2, photo)
    qtbot.waitUntil(lambda: len(window.workspace.attachments(SBL)) == 1)
    (row,) = window.workspace.attachments(SBL)
    assert (row["component"], row["taken_at"]) == ("absorption_area#1",
                                                   "2026-11-20T10:42:07-05:00")
    # the Photos tab: upright (portrait), with its component and when it was taken
    page = window.workbench.photos_page
    qtbot.waitUntil(lambda: page.photos.count() == 1
                    and not page.photos.item(0).icon().isNull())
    item = page.photos.item(0)
    icon = item.icon().pixmap(140, 105)
    assert icon.height() > icon.width()
    assert "[absorption_area#1]" in item.text() and "taken 2026-11-20" in item.toolTip()
    assert "42.80990° N, 77.31020° W" in item.toolTip()


def test_marks_drawn_in_the_app_are_kept_apart_from_the_file(window: MainWindow,
                                                            qtbot: QtBot,
                                                            tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    window.select(SBL)
    photo = exif_photo(tmp_path / "crack.jpg")
    info = window.workspace.add_attachment(SBL, photo)
    window.workbench.refresh_parcel(SBL)
    page = window.workbench.photos_page
    qtbot.waitUntil(lambda: page.photos.count() == 1)

    def draw(dialog: MarkPhoto) -> QDialog.DialogCode:
        # the dialog shows the photo upright at its own size: its pixels are the photo's
        assert (dialog.pixmap.width(), dialog.pixmap.height()) == (300, 400)
        dialog.add("circle 150 200 60")
        return QDialog.DialogCode.Accepted
    monkeypatch.setattr(MarkPhoto, "exec", draw)
    page._mark(page.photos.item(0))
    qtbot.waitUntil(lambda: window.workspace.attachments(SBL)[0]["annotations"]
                    == ["circle 150 200 60"])
    stored = window.workspace.attachment_path(info["sha256"])
    assert hashlib.sha256(stored.read_bytes()).hexdigest() == info["sha256"]
    assert stored.read_bytes() == photo.read_bytes()
