"""The Photos tab: the open parcel's photographs, and adding more (dropped or chosen)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QIcon, QPixmap
from PySide6.QtWidgets import (
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from .context import AppContext


class PhotoList(QListWidget):
    """Thumbnails; drop image files here to attach them."""

    def __init__(self, add: Callable[[list[Path]], None]) -> None:
        super().__init__()
        self.add = add
        self.setViewMode(QListWidget.ViewMode.IconMode)
        self.setIconSize(QSize(140, 105))
        self.setResizeMode(QListWidget.ResizeMode.Adjust)
        self.setAcceptDrops(True)

    def dragEnterEvent(self, event: Any) -> None:
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    dragMoveEvent = dragEnterEvent

    def dropEvent(self, event: Any) -> None:
        paths = [Path(u.toLocalFile()) for u in event.mimeData().urls() if u.isLocalFile()]
        if paths:
            self.add(paths)
            event.acceptProposedAction()


class PhotosPage(QWidget):
    """The photos of the parcel `open_sbl()` names. A photo added is attached on the
    worker; `refresh(sbl)` then shows the parcel again if it is still the open one."""

    def __init__(self, ctx: AppContext, *, open_sbl: Callable[[], str | None],
                 refresh: Callable[[str], None]) -> None:
        super().__init__()
        self.ctx = ctx
        self._open_sbl = open_sbl
        self._refresh = refresh
        self.photos = PhotoList(self.add_photos)
        add_photo = QPushButton("&Add photos...")
        add_photo.clicked.connect(self._pick_photos)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("Drop photos here, or add them from a folder."))
        layout.addWidget(self.photos, 1)
        layout.addWidget(add_photo)

    def show_photos(self, rows: list[dict[str, Any]]) -> None:
        self.photos.clear()
        ws = self.ctx.ws
        assert ws is not None
        for r in rows:
            item = QListWidgetItem(r["caption"] or r["filename"])
            pixmap = QPixmap(str(ws.attachment_path(r["sha256"])))
            if not pixmap.isNull():
                item.setIcon(QIcon(pixmap.scaled(140, 105, Qt.AspectRatioMode.KeepAspectRatio)))
            self.photos.addItem(item)

    def clear(self) -> None:
        self.photos.clear()

    def _pick_photos(self) -> None:
        files = self.ctx.files.open_files(self, "photos", "Photos")
        if files:
            self.add_photos(files)

    def add_photos(self, paths: list[Path]) -> None:
        sbl = self._open_sbl()
        ws = self.ctx.ws
        if sbl is None or ws is None:
            return

        def added(rows: list[dict[str, Any]]) -> None:
            self.ctx.say(f"Added {len(rows)} photo(s)")
            self._refresh(sbl)

        self.ctx.op(lambda: [ws.add_attachment(sbl, p) for p in paths]).success(added).run()
