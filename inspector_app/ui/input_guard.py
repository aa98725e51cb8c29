"""Input that must not edit records by accident.

- The mouse wheel over a combo box, spin box or date field that the user has not clicked
  into scrolls the page instead of changing the value (a scroll must never turn a
  compliant system into a failure). Such fields take focus by click or Tab only.
- The window's own shortcuts (undo, redo, export...) are not swallowed by text fields,
  which otherwise claim Ctrl+Z, Ctrl+Y and, on Linux, Ctrl+E for themselves.
- When a question or dialog over the window closes, the window has the keys again (its
  shortcuts work without a click first), also where no window manager gives them back.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QDialog,
    QWidget,
)

_VALUE_WIDGETS = (QComboBox, QAbstractSpinBox)


class InputGuard(QObject):
    """An application-wide event filter (install once, on the QApplication)."""

    def __init__(self, shortcuts: Callable[[], list[QKeySequence]],
                 window: Callable[[], QWidget | None], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.shortcuts = shortcuts
        self.window = window
        # The window's fields made before the filter was installed; later ones are caught
        # as they are polished or shown. (Not QApplication.allWidgets(): that also lists
        # widgets of closed windows waiting to be deleted, whose wrappers may be dangling.)
        shown = window()
        if shown is not None:
            for kind in _VALUE_WIDGETS:
                for widget in shown.findChildren(kind):
                    self._no_wheel_focus(widget)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind == QEvent.Type.Wheel and isinstance(obj, _VALUE_WIDGETS):
            return self._wheel(obj, event)
        if kind == QEvent.Type.ShortcutOverride and isinstance(event, QKeyEvent):
            return self._shortcut_override(obj, event)
        if kind in (QEvent.Type.Polish, QEvent.Type.Show) and isinstance(obj, _VALUE_WIDGETS):
            self._no_wheel_focus(obj)
        if kind == QEvent.Type.Hide and isinstance(obj, QDialog) and obj.isModal():
            QTimer.singleShot(0, self._keys_back)
        return False

    def _keys_back(self) -> None:
        window = self.window()
        if (window is not None and window.isVisible() and QApplication.activeWindow() is None
                and QApplication.activeModalWidget() is None):
            window.activateWindow()

    @staticmethod
    def _no_wheel_focus(widget: QWidget) -> None:
        """Focus by click or Tab only: Qt would otherwise focus the field on a wheel
        event and then let the wheel change it."""
        if widget.focusPolicy() == Qt.FocusPolicy.WheelFocus:
            widget.setFocusPolicy(Qt.FocusPolicy.StrongFocus)

    @staticmethod
    def _wheel(widget: QWidget, event: QEvent) -> bool:
        if widget.hasFocus():
            return False
        # Scroll whatever scrolls around the field; the field itself keeps its value.
        parent = widget.parentWidget()
        while parent is not None and not isinstance(parent, QAbstractScrollArea):
            parent = parent.parentWidget()
        if parent is not None:
            QApplication.sendEvent(parent.verticalScrollBar(), event)
        return True

    def _shortcut_override(self, obj: QObject, event: QKeyEvent) -> bool:
        window = self.window()
        if window is None or not isinstance(obj, QWidget) or obj.window() is not window:
            return False
        pressed = QKeySequence(event.keyCombination())
        for sequence in self.shortcuts():
            if sequence.matches(pressed) == QKeySequence.SequenceMatch.ExactMatch:
                event.ignore()  # the field does not claim it: the window's shortcut runs
                return True
        return False
