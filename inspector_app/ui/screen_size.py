"""Windows no larger than the screen they open on: a dialog sized for a desktop monitor
opens whole on a small laptop's screen (1024x700), its buttons in sight."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication, QWidget


def resize_within_screen(widget: QWidget, width: int, height: int) -> None:
    """`width` x `height`, or the screen's free area where it is smaller."""
    parent = widget.parentWidget()
    screen = (parent.screen() if parent is not None else None) or QApplication.primaryScreen()
    free = screen.availableGeometry()
    widget.resize(min(width, free.width()), min(height, free.height()))
