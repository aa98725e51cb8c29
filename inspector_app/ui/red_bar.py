"""The red bar: a refusal said where the person is (a dialog, the workbench), in one
sentence, with nothing recorded; coloured by the theme's "problem" tone (ui/theme.py), in
either theme."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QWidget


class RedBar(QLabel):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWordWrap(True)
        self.setProperty("tone", "problem")
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.hide()

    def say(self, text: str) -> None:
        self.setText(text)
        self.show()
