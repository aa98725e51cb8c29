"""The red bar: a refusal said where the person is (a dialog, the workbench), in one
sentence, with nothing recorded; coloured by the theme's "problem" tone (ui/theme.py), in
either theme."""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QLabel, QWidget

from ..errors import InspectorError
from .date_field import DateField

if TYPE_CHECKING:
    from .context import AppContext


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


class RefusingDialog(QDialog):
    """A dialog that records something: its refusals in its red bar (`problem`), before
    anything is recorded, and its date field read as a day."""

    problem: RedBar
    ctx: AppContext

    def refuse_or_report(self, exc: BaseException) -> None:
        """A recording that failed on the worker: the user's fault said in the red bar,
        anything else reported as the app's own fault."""
        if isinstance(exc, InspectorError):
            self.refuse(exc.in_app)
        else:
            self.ctx.error(exc)

    def refuse(self, text: str) -> None:
        """A refusal in the dialog's red bar: nothing was recorded. The dialog grows to
        show it whole, its fields unsqueezed."""
        self.problem.say(text)
        self.adjustSize()

    def typed_day(self, field: DateField) -> date | None:
        """The day the field holds, or None after refusing a typed date that is not one."""
        problem = field.typed_problem()
        if problem is not None:
            self.refuse(problem)
            return None
        q = field.date()
        return date(q.year(), q.month(), q.day())
