"""The inspection form's editors: how each kind of field is made, filled and read, and
how the form hears that the user has finished one."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDateEdit,
    QDoubleSpinBox,
    QFormLayout,
    QLineEdit,
    QPlainTextEdit,
    QSpinBox,
    QWidget,
)

from ..domain.labels import words

NOT_RECORDED = "(not recorded)"


def combo(values: list[str], *, blank: bool = False) -> QComboBox:
    box = QComboBox()
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


def set_plain(widget: FinishedTextEdit, text: str) -> None:
    if widget.toPlainText() != text:
        widget.setPlainText(text)
    widget.mark_saved()


def set_value(widget: QSpinBox | QDoubleSpinBox, value: float) -> None:
    if widget.value() != value:
        widget.setValue(value)  # type: ignore[arg-type]


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

    def watch(self, widget: QWidget) -> QWidget:
        if isinstance(widget, QLineEdit | QSpinBox | QDoubleSpinBox | QDateEdit):
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


def spin(maximum: int) -> QSpinBox:
    box = QSpinBox()
    box.setRange(0, maximum)
    return box


def number(maximum: float, suffix: str) -> QDoubleSpinBox:
    box = QDoubleSpinBox()
    box.setRange(-1, maximum)  # -1 shows as "not recorded"
    box.setDecimals(1)
    box.setSuffix(f" {suffix}")
    box.setSpecialValueText(NOT_RECORDED)
    box.setValue(-1)
    return box


def optional(box: QDoubleSpinBox) -> float | None:
    return None if box.value() < 0 else box.value()


def set_optional(box: QDoubleSpinBox, value: float | None) -> None:
    set_value(box, -1 if value is None else value)
