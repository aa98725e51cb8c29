"""Findings typed once, offered again: as an inspector types a line of a findings field
(defects, evidence of failure), the phrases already recorded in the data folder that
start with it drop down; Enter takes the first (the arrows choose another), Escape or
Tab leaves what is typed."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QStringListModel, Qt
from PySide6.QtGui import QKeyEvent, QTextCursor
from PySide6.QtWidgets import QAbstractItemView, QApplication, QCompleter, QPlainTextEdit

from .form_fields import FinishedTextEdit

SHORTEST = 3  # the letters typed before anything is offered


class PhraseCompleter(QCompleter):
    """One list of phrases for every findings field of the form (`attach` each)."""

    def __init__(self) -> None:
        self.phrases = QStringListModel()
        super().__init__(self.phrases)
        self.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.setCompletionMode(QCompleter.CompletionMode.PopupCompletion)
        self.setMaxVisibleItems(8)
        # Where the list has the keys (a real screen), it hands them to the field first
        # and acts on those the field leaves (`_key_in_field`): Enter takes the phrase
        # chosen, Escape closes the list.
        self.activated.connect(self._take)
        self._editor: QPlainTextEdit | None = None
        # Asks for the phrases as now recorded (they arrive by `set_phrases`); called when
        # a findings field is entered, so that opening a parcel reads none of them.
        self.wanted: Callable[[], None] | None = None

    def _list(self) -> QAbstractItemView:
        popup = self.popup()
        assert popup is not None  # QCompleter makes its list when it is made
        return popup

    def set_phrases(self, phrases: list[str]) -> None:
        if phrases != self.phrases.stringList():
            self.phrases.setStringList(phrases)

    def attach(self, editor: FinishedTextEdit) -> None:
        editor.textChanged.connect(lambda: self._typed(editor))
        editor.installEventFilter(self)
        editor.key_hook = self._key_in_field

    def _key_in_field(self, event: QKeyEvent) -> bool:
        """True for a key the field leaves to the list while it shows."""
        return self._list().isVisible() and event.key() in (
            Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Escape)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        """The list's keys where they arrive at the field while it shows: Enter takes the
        phrase chosen, Escape closes the list, Tab closes it and goes on, the arrows
        choose."""
        if (event.type() == QEvent.Type.FocusIn and self.wanted is not None
                and isinstance(obj, FinishedTextEdit) and obj.key_hook == self._key_in_field):
            self.wanted()
        popup = self._list()
        if (obj is not self._editor or event.type() != QEvent.Type.KeyPress
                or not isinstance(event, QKeyEvent) or not popup.isVisible()):
            return super().eventFilter(obj, event)
        key = event.key()
        if key in (Qt.Key.Key_Up, Qt.Key.Key_Down, Qt.Key.Key_PageUp, Qt.Key.Key_PageDown):
            QApplication.sendEvent(popup, QKeyEvent(event.type(), key, event.modifiers()))
            return True
        if key in (Qt.Key.Key_Escape, Qt.Key.Key_Tab, Qt.Key.Key_Backtab):
            popup.hide()
            return key == Qt.Key.Key_Escape  # Tab goes on to the next field
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            chosen = popup.currentIndex()
            popup.hide()
            if chosen.isValid():
                self._take(str(chosen.data()))
            return True
        return super().eventFilter(obj, event)

    def _line_typed(self, editor: QPlainTextEdit) -> str:
        cursor = editor.textCursor()
        return cursor.block().text()[:cursor.positionInBlock()]

    def _typed(self, editor: QPlainTextEdit) -> None:
        if not editor.hasFocus():
            return  # the form filling the field, not a person typing
        typed = self._line_typed(editor)
        popup = self._list()
        if len(typed.strip()) < SHORTEST:
            popup.hide()
            return
        if self._editor is not editor:
            self._editor = editor
            self.setWidget(editor)
        self.setCompletionPrefix(typed.lstrip())
        if not self.completionCount() or self.currentCompletion() == typed.strip():
            popup.hide()
            return
        rect = editor.cursorRect()
        rect.setWidth(max(editor.viewport().width() - rect.left(), 200))
        self.complete(rect)
        popup.setCurrentIndex(self.completionModel().index(0, 0))  # Enter takes the first

    def _take(self, phrase: str) -> None:
        """Put the phrase chosen in place of the line typed so far."""
        editor = self._editor
        if editor is None:
            return
        cursor = editor.textCursor()
        cursor.movePosition(QTextCursor.MoveOperation.StartOfBlock,
                            QTextCursor.MoveMode.KeepAnchor)
        cursor.insertText(phrase)
        editor.setTextCursor(cursor)
