"""PDF pages on screen: one under another in a scroll area, fitted to its width or at
their paper size. The letters tab and the program report show their previews in it."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QImage, QPixmap
from PySide6.QtWidgets import QLabel, QScrollArea, QVBoxLayout, QWidget

PAGE_MARGIN = 6  # around each page, in pixels


def to_images(pages: list[Any]) -> list[QImage]:
    """Rendered pages (`letters.preview.PageImage`) as images Qt draws."""
    return [QImage(p.rgb, p.width, p.height, p.width * 3, QImage.Format.Format_RGB888).copy()
            for p in pages]


class PageView(QScrollArea):
    """The pages of one document, rendered at `dpi`; `images` are the pages shown."""

    def __init__(self, dpi: float, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.dpi = dpi
        self.images: list[QImage] = []
        self.paper_size = False  # False: each page as wide as the view
        self.pages = QVBoxLayout()
        self.pages.setContentsMargins(PAGE_MARGIN, PAGE_MARGIN, PAGE_MARGIN, PAGE_MARGIN)
        self.pages.setSpacing(2 * PAGE_MARGIN)
        self.pages.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignHCenter)
        holder = QWidget()
        holder.setLayout(self.pages)
        self.setWidget(holder)
        self.setWidgetResizable(True)
        # Always there, so fitting the page to the width never makes the bar come and go.
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        self.relayout = QTimer(self)
        self.relayout.setSingleShot(True)
        self.relayout.setInterval(40)
        self.relayout.timeout.connect(self.layout_pages)
        self.viewport().installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.viewport() and event.type() == QEvent.Type.Resize:
            self.relayout.start()
        return super().eventFilter(watched, event)

    def set_paper_size(self, paper_size: bool) -> None:
        """Pages at their paper size (True) or as wide as the view (False)."""
        self.paper_size = paper_size
        self.layout_pages()

    def show_images(self, images: list[QImage]) -> None:
        """Show these pages instead of those shown (none: an empty view)."""
        while self.pages.count():
            item = self.pages.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        self.images = images
        for _image in images:
            label = QLabel()
            label.setStyleSheet("border: 1px solid #aaa; background: white;")
            self.pages.addWidget(label)
        self.layout_pages()

    def page_labels(self) -> list[QLabel]:
        items = (self.pages.itemAt(n) for n in range(self.pages.count()))
        return [w for w in (i.widget() for i in items if i is not None)
                if isinstance(w, QLabel)]

    def _page_width(self, image: QImage) -> int:
        if self.paper_size:
            return round(image.width() * self.logicalDpiX() / self.dpi)
        return max(self.viewport().width() - 2 * PAGE_MARGIN - 2, 200)

    def layout_pages(self) -> None:
        """Scale the pages to the view's width (or to their paper size)."""
        dpr = self.devicePixelRatioF()
        for image, label in zip(self.images, self.page_labels(), strict=False):
            pixmap = QPixmap.fromImage(image).scaledToWidth(
                round(self._page_width(image) * dpr), Qt.TransformationMode.SmoothTransformation)
            pixmap.setDevicePixelRatio(dpr)
            label.setPixmap(pixmap)
