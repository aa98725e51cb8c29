"""One entry of a menu, as every menu module adds it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu


def add_action(menu: QMenu, text: str, slot: Callable[[], Any],
               shortcut: QKeySequence | QKeySequence.StandardKey | str | None = None
               ) -> QAction:
    """An entry of `menu` (owned by it, so the window finds its shortcut)."""
    action = QAction(text, menu)
    if shortcut is not None:
        action.setShortcut(QKeySequence(shortcut))
    action.triggered.connect(lambda _checked=False: slot())
    menu.addAction(action)
    return action
