"""The user guide, shown in a window of the app from the copy that ships with it.

The guide is docs/user-guide.md. The wheel and the one-folder app carry it (with its
pictures) in the app's resources, under PACKAGED_GUIDE; a checkout reads it from docs/.
Nothing is fetched from the network.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QUrl
from PySide6.QtGui import QImage, QTextDocument
from PySide6.QtWidgets import QDialog, QTextBrowser, QVBoxLayout, QWidget

from .screen_size import resize_within_screen

GUIDE_FILE = "user-guide.md"
PACKAGED_GUIDE = "resources/guide"  # inside the installed inspector_app package


def guide_candidates() -> list[Path]:
    package = Path(__file__).resolve().parent.parent
    return [package / PACKAGED_GUIDE / GUIDE_FILE, package.parent / "docs" / GUIDE_FILE]


def guide_path() -> Path | None:
    """The guide shipped with this copy of the app, or None if it is missing."""
    return next((p for p in guide_candidates() if p.is_file()), None)


class GuideBrowser(QTextBrowser):
    """The guide's text; pictures are scaled down to the width of the window."""

    def loadResource(self, kind: int, url: QUrl | str) -> Any:
        if kind == QTextDocument.ResourceType.ImageResource.value:
            resolved = self.source().resolved(QUrl(url))
            image = QImage(resolved.toLocalFile())
            if not image.isNull():
                width = max(self.viewport().width() - 40, 200)
                return image if image.width() <= width else image.scaledToWidth(width)
        return super().loadResource(kind, url)


class GuideWindow(QDialog):
    def __init__(self, path: Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Watershed Inspector - User guide")
        resize_within_screen(self, 900, 760)
        self.path = path
        self.browser = GuideBrowser()
        self.browser.setOpenExternalLinks(True)  # only a click on a web link leaves the app
        layout = QVBoxLayout(self)
        layout.addWidget(self.browser)

    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        if self.browser.source().isEmpty():  # laid out now: pictures fit the width shown
            self.browser.setSource(QUrl.fromLocalFile(str(self.path)),
                                   QTextDocument.ResourceType.MarkdownResource)
