"""A window opened beside the main one takes the keyboard when shown (Escape closes a
dialog at once, without a click first), and gives it back to the window it came from when
it closes, so that the main window's shortcuts (Ctrl+F) work straight away."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QWidget


def show_with_keys(dialog: QDialog, back_to: QWidget | None = None) -> None:
    """Show `dialog` raised and active; when it closes, `back_to` (its parent's window
    when not given) is active again."""
    parent = dialog.parentWidget()
    window = back_to or (parent.window() if parent is not None else None)
    if window is not None and not dialog.property("gives_keys_back"):
        dialog.setProperty("gives_keys_back", True)
        dialog.finished.connect(lambda _result: _activate(window))
    dialog.show()
    dialog.raise_()
    dialog.activateWindow()


def _activate(window: QWidget) -> None:
    if window.isVisible():
        window.raise_()
        window.activateWindow()
