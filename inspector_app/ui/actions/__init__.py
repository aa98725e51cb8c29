"""The window's menus, one module per menu (as napari's `qactions/_file.py`): each builds
its menu's entries and holds what they do, given only the parts of the window it needs."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu

if TYPE_CHECKING:
    from .edit import EditActions
    from .file import FileActions
    from .help import HelpActions
    from .letters import LettersActions
    from .reports import ReportsActions
    from .sync import SyncActions
    from .view import ViewActions


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


@dataclass(frozen=True)
class Menus:
    """What each menu does, in the order of the menu bar."""

    file: FileActions
    edit: EditActions
    letters: LettersActions
    reports: ReportsActions
    sync: SyncActions
    view: ViewActions
    help: HelpActions
