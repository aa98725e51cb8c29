"""A date field that takes a whole date typed after one click, or a pick from a calendar.

A plain QDateEdit edits one section at a time: a click puts the cursor inside the year,
typed digits are refused, and a typed "-" jumps a section too far after the year fills
up. Here focus selects the whole date, the first digit starts over at the year, and a
separator right after a section filled itself up is taken as already typed.
"""

from __future__ import annotations

import re
from datetime import date

from PySide6.QtCore import QDate, Qt, QTimer
from PySide6.QtGui import QFocusEvent, QKeyEvent
from PySide6.QtWidgets import QDateEdit, QWidget

DATE_FORMAT = "yyyy-MM-dd"
_SEPARATORS = frozenset("-/.")
_NO_SELECT = (Qt.FocusReason.PopupFocusReason, Qt.FocusReason.ActiveWindowFocusReason)


class DateField(QDateEdit):
    """YYYY-MM-DD: click or tab in and type "2026-11-25", or pick from the calendar.

    Emits editingFinished on Enter, on leaving the field and on a pick from the calendar.
    """

    def __init__(self, day: QDate | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setDisplayFormat(DATE_FORMAT)
        self.setCalendarPopup(True)
        if day is not None:
            self.setDate(day)
        self._section_filled = False
        # What the user typed over the whole date, key by key: the field itself only ever
        # holds a real date (it would make "2026-13-45" into some other day), so a typed
        # date that is not one is told from this (`typed_problem`).
        self._typed: str | None = None
        calendar = self.calendarWidget()
        calendar.clicked.connect(self._picked)
        calendar.activated.connect(self._picked)

    def _picked(self, _day: QDate) -> None:
        self._typed = None
        self.editingFinished.emit()

    def setDate(self, day: QDate) -> None:
        self._typed = None
        super().setDate(day)

    def typed_problem(self) -> str | None:
        """Why the date typed last is not one, in words, or None (nothing typed, or a real
        date: the one the field shows)."""
        typed = self._typed
        if not typed:
            return None
        digits = re.split(r"[-/.]", typed)
        if len(digits) == 1 and len(typed) == 8:
            digits = [typed[:4], typed[4:6], typed[6:]]
        try:
            year, month, day = (int(d) for d in digits)
            date(year, month, day)
        except ValueError:
            return (f"{typed!r} is not a real calendar date; type it as YYYY-MM-DD (or pick "
                    "it from the calendar)")
        return None

    def _all_selected(self) -> bool:
        edit = self.lineEdit()
        return bool(edit.text()) and edit.selectedText() == edit.text()

    def focusInEvent(self, event: QFocusEvent) -> None:
        super().focusInEvent(event)
        self._section_filled = False
        if event.reason() not in _NO_SELECT:
            # After the click that gave focus has placed the cursor.
            QTimer.singleShot(0, self, self.selectAll)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        text = event.text()
        if text.isdigit() and self._all_selected():
            self._typed = ""
        if self._typed is not None and text and (text.isdigit() or text in _SEPARATORS):
            self._typed += text
        elif event.key() in (Qt.Key.Key_Backspace, Qt.Key.Key_Delete) or (
                text and not text.isspace() and text.isprintable()):
            self._typed = None  # edited section by section: the field's own date counts
        if text.isdigit() and self._all_selected():
            # Typing over the whole date starts at its first section (the year).
            self.setCurrentSectionIndex(0)
            first = self.sectionText(self.sectionAt(0))
            self.lineEdit().setSelection(0, len(first))
            self._section_filled = False
        elif text in _SEPARATORS and text and self._section_filled:
            self._section_filled = False
            event.accept()
            return
        if text in _SEPARATORS and text and text != "-":
            event = QKeyEvent(event.type(), Qt.Key.Key_Minus, event.modifiers(), "-")
        before = self.currentSectionIndex()
        super().keyPressEvent(event)
        self._section_filled = text.isdigit() and self.currentSectionIndex() != before
