"""A one-line label that shortens its text with "…" instead of pushing its neighbours away.

A QLabel asks for the width of its whole text, so a long status message pushed the
permanent status-bar widgets off the window. This one asks for little, shows what fits,
and keeps the whole text in `text()` and in its tooltip.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget


class ElidedLabel(QLabel):
    def __init__(self, text: str = "", parent: QWidget | None = None, *,
                 minimum_chars: int = 12, maximum_chars: int | None = None,
                 takes_the_rest: bool = False,
                 elide: Qt.TextElideMode = Qt.TextElideMode.ElideRight) -> None:
        """`takes_the_rest`: width left over by its neighbours, none of its own asked;
        `maximum_chars`: the most it asks for, leaving the rest to its neighbours;
        `elide`: where the "…" goes (in the middle, a text's start and end stay)."""
        super().__init__(text, parent)
        self.minimum_chars, self.maximum_chars = minimum_chars, maximum_chars
        self.elide = elide
        self.setWordWrap(False)
        self.setSizePolicy(QSizePolicy.Policy.Ignored if takes_the_rest
                           else QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        self.setToolTip(text)

    def setText(self, text: str) -> None:
        super().setText(text)
        self.setToolTip(text)

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()
        width = self.fontMetrics().horizontalAdvance("x" * self.minimum_chars)
        return QSize(min(hint.width(), width), hint.height())

    def sizeHint(self) -> QSize:
        hint = super().sizeHint()
        if self.maximum_chars is None:
            return hint
        width = self.fontMetrics().horizontalAdvance("x" * self.maximum_chars)
        return QSize(min(hint.width(), width), hint.height())

    def shown_text(self) -> str:
        """What fits: the text, or it shortened with "…"."""
        return self.fontMetrics().elidedText(self.text(), self.elide,
                                             self.contentsRect().width())

    def is_elided(self) -> bool:
        return self.shown_text() != self.text()

    def paintEvent(self, _event: Any) -> None:
        painter = QPainter(self)
        painter.setPen(self.palette().color(self.foregroundRole()))
        painter.drawText(self.contentsRect(), int(self.alignment()), self.shown_text())
        painter.end()
