"""The inspection form's editors: how each kind of field is made, filled and read, and
how the form hears that the user has finished one."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any, TypeVar

from PySide6.QtCore import Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDateEdit,
    QFormLayout,
    QLineEdit,
    QPlainTextEdit,
    QWidget,
)

from ..casefile.values import typed
from ..domain.labels import words
from ..domain.registry import Field
from ..domain.units import plain_number

NOT_RECORDED = "(not recorded)"
W = TypeVar("W", bound=QWidget)


# A choice list shows this many rows when it opens, wherever the box is on the form.
COMBO_ROWS = 12


def combo(values: list[str], *, blank: bool = False) -> QComboBox:
    box = QComboBox()
    box.setMaxVisibleItems(COMBO_ROWS)
    if blank:
        box.addItem(NOT_RECORDED, None)
    for v in values:
        box.addItem(words(v), v)
    return box


def set_combo(box: QComboBox, value: Any) -> None:
    index = max(box.findData(value), 0)
    if box.currentIndex() != index:
        box.setCurrentIndex(index)


# Setters used while loading: a widget whose value is already right is left alone, so a
# reload after a save never disturbs the field the user is in.
def set_text(widget: QLineEdit, text: str) -> None:
    if widget.text() != text:
        widget.setText(text)
        widget.setCursorPosition(0)  # a long value shows its start, not its end


def set_plain(widget: FinishedTextEdit, text: str) -> None:
    if widget.toPlainText() != text:
        widget.setPlainText(text)
    widget.mark_saved()


def set_checked(widget: QCheckBox, on: bool) -> None:
    if widget.isChecked() != on:
        widget.setChecked(on)


def iso(value: date | None) -> str:
    return "" if value is None else value.isoformat()


def lines(text: str) -> tuple[str, ...]:
    """The lines of a multi-line field that hold something, trimmed."""
    return tuple(line.strip() for line in text.splitlines() if line.strip())


class Editors:
    """Connect every editor's "finished" signal to one callback."""

    def __init__(self, finished: Callable[[], None]) -> None:
        self.finished = finished
        self.loading = False

    def _fire(self, *_: Any) -> None:
        if not self.loading:
            self.finished()

    def watch(self, widget: W) -> W:
        if isinstance(widget, QLineEdit | QDateEdit):
            widget.editingFinished.connect(self._fire)
        elif isinstance(widget, QComboBox):
            widget.activated.connect(self._fire)
        elif isinstance(widget, QCheckBox):
            widget.toggled.connect(self._fire)
        elif isinstance(widget, FinishedTextEdit):
            widget.finished.connect(self._fire)
        return widget


class FinishedTextEdit(QPlainTextEdit):
    """A multi-line editor that reports when the user leaves it."""

    finished = Signal()

    def __init__(self, placeholder: str = "", rows: int = 3) -> None:
        super().__init__()
        self.setPlaceholderText(placeholder)
        self.setTabChangesFocus(True)
        self.setFixedHeight(22 + 18 * rows)
        self._before = ""

    # Set by a helper that acts on some keys when the field leaves them
    # (`phrase_completer`): True for a key the field is not to act on.
    key_hook: Callable[[QKeyEvent], bool] | None = None

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if self.key_hook is not None and self.key_hook(event):
            event.ignore()
            return
        super().keyPressEvent(event)

    def mark_saved(self) -> None:
        self._before = self.toPlainText()

    def focusInEvent(self, event: Any) -> None:
        self._before = self.toPlainText()
        super().focusInEvent(event)

    def focusOutEvent(self, event: Any) -> None:
        super().focusOutEvent(event)
        if self.toPlainText() != self._before:
            self.finished.emit()


def form_layout(box: QWidget) -> QFormLayout:
    """Labels beside their fields, or above them when the form is narrow (a small
    screen, or the larger font of high contrast): nothing is cut off at the right."""
    form = QFormLayout(box)
    form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
    form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
    return form


class NumberField(QLineEdit):
    """A number typed as text and read as its field's declaration says: what does not fit
    ("999" bedrooms, "1e9" sq ft, "4.5" of a whole number) is refused with the field's own
    sentence, never cut to fit. Blank is "not recorded" where the field may be, and
    `blank` (the field's value when nothing is typed) where it may not."""

    def __init__(self, field: Field, *, blank: float | None = None) -> None:
        super().__init__()
        self.field = field
        self.blank = blank
        if field.nullable:
            self.setPlaceholderText(NOT_RECORDED)
        low, high = field.spec.minimum, field.spec.maximum
        if low is not None and high is not None:
            self.setToolTip(f"{field.with_unit}: from {plain_number(low):,} to "
                            f"{plain_number(high):,}")

    def title(self, words: str) -> str:
        """The form's words for the field, with its unit."""
        unit = self.field.spec.unit
        return f"{words} ({unit})" if unit else words

    def value(self) -> Any:
        """The number typed (None when blank and the field may be); raises ValueError with
        the field's sentence."""
        if not self.text().strip():
            if self.field.nullable:
                return None
            if self.blank is not None:
                return self.blank
            raise ValueError(f"{self.field.with_unit} is blank; type a number")
        return typed(self.field, self.text(), self.field.with_unit)

    def set_value(self, value: float | None) -> None:
        set_text(self, "" if value is None else as_text(value))


def as_text(value: float) -> str:
    return str(plain_number(value))
