"""A person's hands on the window, counted: every key pressed, every click and every notch of
the mouse wheel, and which of them were spent hunting (scrolling to find a field, opening
the wrong tab). A click lands only on a widget the person can see: one scrolled out of
its scroll area is first brought into view with the wheel, notch by notch, as a person
would, and those notches are counted as hunting."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QPoint, QPointF, QRect, Qt, QTimer
from PySide6.QtGui import QWheelEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractScrollArea, QApplication, QWidget

KINDS = ("keys", "clicks", "wheel")


class Hands:
    """`window`: the main window, which the window manager makes active again when a
    dialog or a drop-down list over it closes (the offscreen platform leaves none, or the
    closed one, active)."""

    def __init__(self, window: QWidget) -> None:
        self.window = window
        self.count: Counter[str] = Counter()
        self.hunting: Counter[str] = Counter()
        self.steps: list[str] = []

    def _spend(self, kind: str, n: int, what: str, *, hunting: bool) -> None:
        self.count[kind] += n
        if hunting:
            self.hunting[kind] += n
        self.steps.append(f"{kind} {n}{' (hunting)' if hunting else ''}: {what}")

    # --- the keyboard -----------------------------------------------------------------

    def type(self, widget: QWidget, text: str, *, hunting: bool = False) -> None:
        """Type `text` into `widget`: one key a character."""
        QApplication.processEvents()  # a person's keys come after the window has drawn
        QTest.keyClicks(widget, text)
        self._spend("keys", len(text), f"type {text!r}", hunting=hunting)

    def key(self, widget: QWidget | None, key: Qt.Key,
            modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier, *,
            hunting: bool = False) -> None:
        """One key (with its modifier held: a chord is one keystroke) sent where the focus
        is (`widget` None) or to `widget`."""
        QApplication.processEvents()  # a person's keys come after the window has drawn
        active = QApplication.activeWindow()
        if active is None or not active.isVisible():  # a dialog or a list just closed
            self.window.activateWindow()
            QApplication.processEvents()
        target = widget or QApplication.focusWidget() or QApplication.activeWindow()
        assert target is not None, "no widget has the focus"
        chord = "" if modifier == Qt.KeyboardModifier.NoModifier else f"{modifier.name}+"
        self._spend("keys", 1, f"key {chord}{key.name}", hunting=hunting)
        QTest.keyClick(target, key, modifier)

    # --- the mouse --------------------------------------------------------------------

    def click(self, widget: QWidget, pos: QPoint | None = None, *, hunting: bool = False) -> None:
        """Click `widget` (at `pos`), scrolling it into view with the wheel first."""
        self.wheel_into_view(widget, pos)
        assert visible_rect(widget).contains(pos or widget.rect().center()), (
            f"{type(widget).__name__} {widget.accessibleName() or widget.objectName()} "
            "cannot be seen, so it cannot be clicked")
        top = widget.window()
        if not top.isActiveWindow():  # a click on a window makes it the active one
            top.activateWindow()
            QApplication.processEvents()
        # counted first: a click that opens a dialog returns once the dialog is answered
        self._spend("clicks", 1, f"click {type(widget).__name__} "
                    f"{getattr(widget, 'text', lambda: '')()!r}", hunting=hunting)
        QTest.mouseClick(widget, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                         pos or widget.rect().center())

    def wheel_into_view(self, widget: QWidget, pos: QPoint | None = None) -> None:
        """Turn the wheel over each scroll area holding `widget`, the innermost first,
        until the point is in view (counted as hunting)."""
        point = pos or widget.rect().center()
        area = _scroll_area(widget)
        while area is not None:
            for _ in range(200):
                QApplication.processEvents()
                where = widget.mapTo(area.viewport(), point)
                if area.viewport().rect().adjusted(0, 2, 0, -2).contains(where):
                    break
                inside = area.viewport().rect().adjusted(0, 2, 0, -2)
                sideways = inside.top() <= where.y() <= inside.bottom()
                _wheel(area.viewport(), 1 if (where.x() if sideways else where.y()) < 0
                       else -1, sideways=sideways)
                self._spend("wheel", 1, f"wheel over {type(area).__name__} to find "
                            f"{type(widget).__name__}", hunting=True)
            else:
                bar = area.verticalScrollBar()
                raise AssertionError(
                    f"the wheel never brought the widget into view: at {where} of "
                    f"{area.viewport().rect()}, scrolled {bar.value()} of {bar.maximum()}")
            area = _scroll_area(area)

    def click_found(self, viewport: QWidget, locate: Callable[[], QPoint]) -> None:
        """Click a place in a scrolled view (a link in a text, a row) where `locate` finds
        it, turning the wheel over the view until it is in sight (counted as hunting)."""
        for _ in range(200):
            QApplication.processEvents()
            point = locate()
            inside = viewport.rect().adjusted(0, 2, 0, -2)
            if inside.contains(point):
                self.click(viewport, point)
                return
            _wheel(viewport, 1 if point.y() < inside.top() else -1)
            self._spend("wheel", 1, "wheel to find a place in a view", hunting=True)
        raise AssertionError("the wheel never brought the place into view")

    # --- dialogs ----------------------------------------------------------------------

    def in_next_dialog(self, answer: Callable[[QWidget], None]) -> None:
        """Once the next modal dialog shows, `answer(dialog)` (with counted keys/clicks)."""
        def poll() -> None:
            dialog = QApplication.activeModalWidget()
            if dialog is None or not dialog.isVisible():
                QTimer.singleShot(10, poll)
                return
            answer(dialog)

        QTimer.singleShot(0, poll)

    def totals(self) -> dict[str, Any]:
        return {**{k: self.count[k] for k in KINDS},
                "hunting": {k: self.hunting[k] for k in KINDS}}


def _scroll_area(widget: QWidget) -> QAbstractScrollArea | None:
    if widget.isWindow():
        return None  # a popup or dialog: no scroll area of the window below holds it
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, QAbstractScrollArea) and (
                parent.viewport() is widget or parent.viewport().isAncestorOf(widget)):
            return parent
        if parent.isWindow():
            return None
        parent = parent.parentWidget()
    return None


def visible_rect(widget: QWidget) -> QRect:
    """The part of `widget` not clipped by any scroll area around it, in its coordinates."""
    rect = widget.rect()
    area = _scroll_area(widget)
    while area is not None:
        port = area.viewport()
        top_left = widget.mapTo(port, QPoint(0, 0))
        shown = port.rect().translated(-top_left)
        rect = rect.intersected(shown)
        area = _scroll_area(area)
    return rect


def _wheel(widget: QWidget, notches: int, *, sideways: bool = False) -> None:
    """A notch of the wheel (sideways: a tilt, or Shift with the wheel)."""
    pos = QPointF(widget.rect().center())
    delta = QPoint(120 * notches, 0) if sideways else QPoint(0, 120 * notches)
    event = QWheelEvent(pos, QPointF(widget.mapToGlobal(pos.toPoint())), QPoint(0, 0), delta, Qt.MouseButton.NoButton,
                        Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(widget, event)
