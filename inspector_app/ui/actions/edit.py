"""The Edit menu: undo and redo (typing not yet saved first, then saved edits one by one),
and finding a parcel."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QMenu

from ..context import AppContext
from .common import add_action

if TYPE_CHECKING:
    from ..workbench import Workbench


class EditActions:
    """`find()` puts the cursor in the parcel search."""

    def __init__(self, ctx: AppContext, menu: QMenu, *, workbench: Workbench,
                 find: Callable[[], None]) -> None:
        self.ctx, self.wb = ctx, workbench
        # Undo first takes back typing not yet saved, then saved edits one by one.
        self.undo_action = add_action(menu, "&Undo", self.undo, QKeySequence.StandardKey.Undo)
        self.redo_action = add_action(menu, "&Redo", self.redo)
        self.redo_action.setShortcuts(list(dict.fromkeys(
            [*QKeySequence.keyBindings(QKeySequence.StandardKey.Redo), QKeySequence("Ctrl+Y")])))
        stack = workbench.undo_stack
        stack.undoTextChanged.connect(
            lambda t: self.undo_action.setText(f"&Undo {t}" if t else "&Undo"))
        stack.redoTextChanged.connect(
            lambda t: self.redo_action.setText(f"&Redo {t}" if t else "&Redo"))
        add_action(menu, "&Find parcel", find, QKeySequence.StandardKey.Find)

    def undo(self) -> None:
        if self.wb.built:
            self.wb.edits.undo()
        else:
            self.ctx.say("Nothing to undo for this parcel.")

    def redo(self) -> None:
        if self.wb.built:
            self.wb.edits.redo()
        else:
            self.ctx.say("Nothing to redo.")
