"""The Photos tab: the open parcel's photographs, upright and with their marks, when and
where each was taken and the component it shows; adding more (dropped or chosen, to the
parcel or, from the form, to a component); and marking one (arrows, circles, words) in
a window of its own, the photo's file never changed."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QPoint, QSize, Qt
from PySide6.QtGui import QIcon, QMouseEvent, QPixmap
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from ..errors import InputError
from ..services.parcel.attachments import taken_words
from .context import AppContext

THUMB = QSize(140, 105)
PHOTO_TYPES = ("image/jpeg", "image/png")


class PhotoList(QListWidget):
    """Thumbnails; drop image files here to attach them."""

    def __init__(self, add: Callable[[list[Path]], None]) -> None:
        super().__init__()
        self.add = add
        self.setViewMode(QListWidget.ViewMode.IconMode)
        self.setIconSize(THUMB)
        self.setResizeMode(QListWidget.ResizeMode.Adjust)
        self.setWordWrap(True)
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


def item_words(row: dict[str, Any]) -> tuple[str, str]:
    """A photo's words under its thumbnail, and its tooltip: its caption, the component
    it shows, when and where it was taken."""
    own = str(row.get("caption") or row["filename"])
    taken = taken_words(row)
    short = " ".join(x for x in (own, f"[{row['component']}]" if row.get("component") else "",
                                 f"\n{taken[:22]}" if row.get("taken_at") else "") if x)
    tip = "\n".join(x for x in (own, f"Component: {row['component']}"
                                if row.get("component") else "", taken,
                                f"{len(row.get('annotations') or [])} mark(s)") if x)
    return short, tip


class PhotosPage(QWidget):
    """The photos of the parcel `open_sbl()` names. A photo added is attached on the
    worker; `refresh(sbl)` then shows the parcel again if it is still the open one."""

    def __init__(self, ctx: AppContext, *, open_sbl: Callable[[], str | None],
                 refresh: Callable[[str], None]) -> None:
        super().__init__()
        self.ctx = ctx
        self._open_sbl = open_sbl
        self._refresh = refresh
        self.rows: list[dict[str, Any]] = []
        self.photos = PhotoList(self.add_photos)
        self.photos.itemActivated.connect(self._mark)
        add_photo = QPushButton("&Add photos...")
        add_photo.clicked.connect(self._pick_photos)
        mark = QPushButton("&Mark the photo...")
        mark.setToolTip("Draw arrows, circles and words over the selected photo; the photo's "
                        "file is never changed")
        mark.clicked.connect(lambda: self._mark(self.photos.currentItem()))
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("Drop photos here, or add them from a folder; to attach one "
                                "to a component, drop it on the component's row in the "
                                "form. Double-click a photo to mark it."))
        layout.addWidget(self.photos, 1)
        buttons = QHBoxLayout()
        buttons.addWidget(add_photo)
        buttons.addWidget(mark)
        buttons.addStretch()
        layout.addLayout(buttons)

    def show_photos(self, rows: list[dict[str, Any]]) -> None:
        """List the photos at once, then draw their thumbnails (upright, marked) on the
        worker."""
        self.photos.clear()
        sbl, ws = self._open_sbl(), self.ctx.ws
        self.rows = [r for r in rows if r["media_type"] in PHOTO_TYPES]
        for r in self.rows:
            short, tip = item_words(r)
            item = QListWidgetItem(short)
            item.setToolTip(tip)
            item.setData(Qt.ItemDataRole.UserRole, r["id"])
            self.photos.addItem(item)
        if sbl is None or ws is None or not self.rows:
            return
        wanted = [str(r["id"]) for r in self.rows]

        def thumbnails() -> dict[str, bytes]:
            out = {}
            for attachment_id in wanted:
                try:
                    out[attachment_id] = ws.shown_photo(sbl, attachment_id, side_px=280)
                except InputError:  # a damaged photo shows without a picture
                    continue
            return out
        self.ctx.op(thumbnails).success(self._show_thumbnails).run()

    def _show_thumbnails(self, images: dict[str, bytes]) -> None:
        for i in range(self.photos.count()):
            item = self.photos.item(i)
            data = images.get(item.data(Qt.ItemDataRole.UserRole))
            pixmap = QPixmap()
            if data is not None and pixmap.loadFromData(data):
                item.setIcon(QIcon(pixmap.scaled(THUMB, Qt.AspectRatioMode.KeepAspectRatio)))

    def clear(self) -> None:
        self.photos.clear()
        self.rows = []

    def _pick_photos(self) -> None:
        files = self.ctx.files.open_files(self, "photos", "Photos")
        if files:
            self.add_photos(files)

    def add_photos(self, paths: list[Path], component: str | None = None) -> None:
        """Attach the files to the open parcel (to its component `component`, named as
        `attach` names it, when given)."""
        sbl = self._open_sbl()
        ws = self.ctx.ws
        if sbl is None or ws is None:
            return

        def added(rows: list[dict[str, Any]]) -> None:
            self.ctx.say(f"Added {len(rows)} photo(s)"
                         + (f" to {component}" if component else ""))
            self._refresh(sbl)

        self.ctx.op(lambda: [ws.add_attachment(sbl, p, component=component)
                             for p in paths]).success(added).run()

    def for_component(self, component: str, paths: list[Path] | None) -> None:
        """Photos for a component of the form: dropped on its row, or chosen now."""
        if paths is None:
            paths = self.ctx.files.open_files(self, "photos", f"Photos of {component}")
        if paths:
            self.add_photos(paths, component)

    def _mark(self, item: QListWidgetItem | None) -> None:
        sbl, ws = self._open_sbl(), self.ctx.ws
        if item is None or sbl is None or ws is None:
            return
        attachment_id = str(item.data(Qt.ItemDataRole.UserRole))
        self.ctx.op(lambda: (ws.shown_photo(sbl, attachment_id, side_px=900),
                             ws.photo_size(sbl, attachment_id))).success(
            lambda got: self._open_marks(sbl, attachment_id, *got)).run()

    def _open_marks(self, sbl: str, attachment_id: str, image: bytes,
                    size: tuple[int, int]) -> None:
        dialog = MarkPhoto(self, image, size)
        if dialog.exec() != QDialog.DialogCode.Accepted or not (dialog.marks or dialog.clear):
            return
        ws = self.ctx.ws
        assert ws is not None
        marks, clear = list(dialog.marks), dialog.clear

        def kept(_: object) -> None:
            self.ctx.say("Marks kept")
            self._refresh(sbl)
        self.ctx.op(lambda: ws.annotate_photo(sbl, attachment_id, marks, clear=clear)) \
            .success(kept).run()


class MarkPhoto(QDialog):
    """The photo, upright with its marks; press and release on it to draw an arrow (from
    the press to the release) or a circle (about the press, through the release), or
    click to place words. The marks are kept in the photo's pixels as it stands."""

    def __init__(self, parent: QWidget, image: bytes, size: tuple[int, int]) -> None:
        super().__init__(parent)
        self.setWindowTitle("Mark the photo")
        self.marks: list[str] = []
        self.clear = False
        self.pixmap = QPixmap()
        self.pixmap.loadFromData(image)
        self.scale = size[0] / max(1, self.pixmap.width())  # photo px per shown px
        self.picture = QLabel()
        self.picture.setPixmap(self.pixmap)
        self.picture.mousePressEvent = self._press  # type: ignore[method-assign]
        self.picture.mouseReleaseEvent = self._release  # type: ignore[method-assign]
        self.start: QPoint | None = None
        self.arrow, self.circle, self.words = (QRadioButton("&Arrow"), QRadioButton("&Circle"),
                                               QRadioButton("&Words"))
        self.arrow.setChecked(True)
        self.said = QLabel("No new marks.")
        clear = QPushButton("Remove all &marks")
        clear.clicked.connect(self._clear)
        done = QPushButton("&Keep")
        done.clicked.connect(self.accept)
        cancel = QPushButton("Cancel")
        cancel.clicked.connect(self.reject)
        tools = QHBoxLayout()
        for w in (self.arrow, self.circle, self.words, clear):
            tools.addWidget(w)
        tools.addStretch()
        tools.addWidget(done)
        tools.addWidget(cancel)
        layout = QVBoxLayout(self)
        layout.addWidget(self.picture)
        layout.addWidget(self.said)
        layout.addLayout(tools)

    def _at(self, point: QPoint) -> tuple[int, int]:
        return (max(0, round(point.x() * self.scale)), max(0, round(point.y() * self.scale)))

    def _press(self, event: QMouseEvent) -> None:
        self.start = event.position().toPoint()

    def _release(self, event: QMouseEvent) -> None:
        if self.start is None:
            return
        (x1, y1), (x2, y2) = self._at(self.start), self._at(event.position().toPoint())
        self.start = None
        if self.words.isChecked():
            text, ok = QInputDialog.getText(self, "Words on the photo", "Words:")
            if ok and text.strip():
                self.add(f"text {x1} {y1} {' '.join(text.split())[:180]}")
        elif self.circle.isChecked():
            r = round(((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5)
            if r >= 1:
                self.add(f"circle {x1} {y1} {r}")
        elif (x1, y1) != (x2, y2):
            self.add(f"arrow {x1} {y1} {x2} {y2}")

    def add(self, mark: str) -> None:
        self.marks.append(mark)
        self.said.setText(f"{len(self.marks)} new mark(s): " + "; ".join(self.marks[-3:]))

    def _clear(self) -> None:
        self.clear = True
        self.marks = []
        self.said.setText("All marks will be removed.")
