"""Letters for one parcel: preview, issue, print, open; the parcel's register."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QRectF, Qt, QUrl
from PySide6.QtGui import QDesktopServices, QImage, QPainter, QPixmap
from PySide6.QtPrintSupport import QPrintDialog, QPrinter
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QScrollArea,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from ..letters.content import LETTER_KINDS
from ..services import letters as letter_service
from .context import AppContext


def to_images(pages: list[Any]) -> list[QImage]:
    return [QImage(p.rgb, p.width, p.height, p.width * 3, QImage.Format.Format_RGB888).copy()
            for p in pages]


def print_images(images: list[QImage], printer: QPrinter) -> None:
    painter = QPainter(printer)
    try:
        for n, image in enumerate(images):
            if n:
                printer.newPage()
            page = printer.pageRect(QPrinter.Unit.DevicePixel)
            target = QRectF(0, 0, page.width(), page.height())
            painter.drawImage(target, image)
    finally:
        painter.end()


class LettersTab(QWidget):
    # The system's PDF viewer: a boundary that tests replace.
    opener = staticmethod(QDesktopServices.openUrl)

    def __init__(self, ctx: AppContext) -> None:
        super().__init__()
        self.ctx = ctx
        self.sbl: str | None = None
        self.current_pdf: bytes | None = None
        self.current_letter_id: str | None = None
        self.images: list[QImage] = []
        self.kind = QComboBox()
        self.kind.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        for kind in LETTER_KINDS:
            self.kind.addItem(kind.replace("_", " "), kind)
        self.preview_button = QPushButton("&Preview draft")
        self.preview_button.clicked.connect(self.preview_draft)
        self.issue_button = QPushButton("&Issue")
        self.issue_button.clicked.connect(self.issue)
        self.print_button = QPushButton("Print...")
        self.print_button.clicked.connect(self.print_current)
        self.open_button = QPushButton("Open in viewer")
        self.open_button.clicked.connect(self.open_current)
        top = QHBoxLayout()
        for w in (QLabel("Letter:"), self.kind, self.preview_button, self.issue_button,
                  self.print_button, self.open_button):
            top.addWidget(w)
        top.addStretch()
        self.register = QListWidget()
        self.register.itemSelectionChanged.connect(self.show_issued)
        self.pages = QVBoxLayout()
        holder = QWidget()
        holder.setLayout(self.pages)
        self.scroll = QScrollArea()
        self.scroll.setWidget(holder)
        self.scroll.setWidgetResizable(True)
        self.caption = QLabel("Preview a draft, or pick an issued letter.")
        split = QSplitter()
        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.addWidget(QLabel("Issued letters"))
        left_layout.addWidget(self.register)
        split.addWidget(left)
        split.addWidget(self.scroll)
        split.setStretchFactor(1, 3)
        split.setSizes([220, 700])
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.caption)
        layout.addWidget(split, 1)

    def load(self, sbl: str, called_for: list[str]) -> None:
        self.sbl = sbl
        for i in range(self.kind.count()):
            kind = self.kind.itemData(i)
            self.kind.setItemText(i, kind.replace("_", " ") + (
                "  (called for)" if kind in called_for else ""))
        if called_for:
            self.kind.setCurrentIndex(self.kind.findData(called_for[0]))
        self.refresh_register()
        self._show([], None, "Preview a draft, or pick an issued letter.")

    def refresh_register(self) -> None:
        sbl = self.sbl

        def done(rows: list[dict[str, Any]]) -> None:
            self.register.clear()
            for r in rows:
                text = (f"{r['letter_date']}  {r['kind'].replace('_', ' ')}  "
                        f"({r['issued_by']}{', printed' if r['printed_at'] else ''})")
                item = QListWidgetItem(text)
                item.setData(Qt.ItemDataRole.UserRole, r["id"])
                self.register.addItem(item)

        if sbl is not None:
            self.ctx.run(lambda: letter_service.register(self.ctx.ws, sbl), done)

    def _show(self, images: list[QImage], pdf: bytes | None, caption: str) -> None:
        while self.pages.count():
            widget = self.pages.takeAt(0).widget()
            if widget is not None:
                widget.deleteLater()
        self.images = images
        self.current_pdf = pdf
        width = max(self.scroll.viewport().width() - 24, 360)
        for image in images:
            label = QLabel()
            label.setPixmap(QPixmap.fromImage(image).scaledToWidth(
                width, Qt.TransformationMode.SmoothTransformation))
            label.setStyleSheet("border: 1px solid #aaa; margin: 6px; background: white;")
            self.pages.addWidget(label)
        self.caption.setText(caption)

    def preview_draft(self) -> None:
        sbl, kind = self.sbl, self.kind.currentData()
        if sbl is None:
            return
        day = self.ctx.today()

        def work() -> tuple[bytes, list[Any]]:
            pdf = letter_service.draft_pdf(self.ctx.ws, sbl, kind, as_of=day)
            return pdf, letter_service.preview_pages(pdf)

        def done(result: tuple[bytes, list[Any]]) -> None:
            self.current_letter_id = None
            self._show(to_images(result[1]), result[0],
                       f"DRAFT {kind.replace('_', ' ')}: {len(result[1])} page(s), not issued")

        self.ctx.run(work, done)

    def show_issued(self) -> None:
        items = self.register.selectedItems()
        if not items:
            return
        letter_id = items[0].data(Qt.ItemDataRole.UserRole)

        def work() -> tuple[bytes, list[Any]]:
            pdf = letter_service.stored_pdf(self.ctx.ws, letter_id)
            return pdf, letter_service.preview_pages(pdf)

        def done(result: tuple[bytes, list[Any]]) -> None:
            self.current_letter_id = letter_id
            self._show(to_images(result[1]), result[0],
                       f"Issued letter {letter_id[:8]}: {len(result[1])} page(s), as issued")

        self.ctx.run(work, done)

    def issue(self) -> None:
        sbl, kind = self.sbl, self.kind.currentData()
        if sbl is None:
            return
        day = self.ctx.today()

        def done(issued: list[Any]) -> None:
            warnings = [w for x in issued for w in x.warnings]
            self.ctx.status.emit(f"Issued {kind.replace('_', ' ')} for {sbl}"
                                 + (f"; note: {warnings[0]}" if warnings else ""))
            self.refresh_register()
            self.ctx.changed.emit(sbl)

        self.ctx.run(lambda: letter_service.issue(self.ctx.ws, sbl, [kind], as_of=day), done)

    def print_current(self, printer: QPrinter | None = None) -> bool:
        if not self.images:
            self.ctx.status.emit("Preview a letter first; then print it.")
            return False
        if printer is None:
            printer = QPrinter(QPrinter.PrinterMode.HighResolution)
            dialog = QPrintDialog(printer, self)
            if dialog.exec() != QPrintDialog.DialogCode.Accepted:
                return False
        pdf = self.current_pdf
        assert pdf is not None
        dpi = max(printer.resolution(), 150)
        images = to_images(letter_service.preview_pages(pdf, dpi=min(dpi, 300)))
        print_images(images, printer)
        self.ctx.status.emit(f"Printed {len(images)} page(s).")
        return True

    def open_current(self) -> None:
        letter_id = self.current_letter_id
        if letter_id is None:
            self.ctx.status.emit("Pick an issued letter to open it in the PDF viewer.")
            return

        def done(path: Any) -> None:
            self.opener(QUrl.fromLocalFile(str(path)))
            self.ctx.status.emit(f"Opened {path}")

        self.ctx.run(lambda: letter_service.issued_copy(self.ctx.ws, letter_id), done)
