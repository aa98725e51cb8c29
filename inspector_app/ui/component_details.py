"""The form's "Selected component" box: the condition, defects and detail fields of the
component chosen in the components table, the fields by its kind (`domain/fields.py`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import date
from typing import Any

from PySide6.QtWidgets import QComboBox, QFormLayout, QGroupBox, QLabel, QLineEdit, QWidget

from ..domain import registry
from ..domain.case import Component
from ..domain.fields import DetailField, FieldType, details_for
from ..domain.labels import words
from ..domain.tank import SOLIDS_KINDS, TankSolids
from ..domain.vocabulary import ComponentKind, Condition
from .form_fields import (
    FinishedTextEdit,
    NumberField,
    combo,
    form_layout,
    lines,
    set_combo,
    set_plain,
    set_text,
)


class ComponentDetails(QGroupBox):
    """`watch(widget)` makes the form hear when the user finishes a field."""

    def __init__(self, watch: Callable[[QWidget], QWidget],
                 findings: Callable[[FinishedTextEdit], None] = lambda _: None) -> None:
        """`findings(editor)`: the defects field is one to offer recorded phrases in."""
        super().__init__("Selected component")
        self._watch = watch
        self._findings = findings
        self.form = form_layout(self)
        self.widgets: dict[str, QWidget] = {}
        # The component (row, kind) the fields were built for: they stay while the same
        # one is shown again, so a reload after a save never rebuilds the field in hand.
        self.key: tuple[int, ComponentKind] | None = None
        # A septic tank's solids share, worked out from its depths as shown, with its
        # arithmetic (None: the component is no such tank).
        self.solids: QLabel | None = None

    def show_component(self, row: int, component: Component | None) -> None:
        if component is None:
            self.drop()
            self.setTitle("Selected component: none")
            return
        key = (row, component.kind)
        if key != self.key:
            self._build(component.kind)
            self.key = key
        self.setTitle(f"Selected component: {words(component.kind.value)}")
        w = self.widgets
        condition, defects = self._condition_and_defects()
        set_combo(condition, component.condition.value)
        set_plain(defects, "\n".join(component.defects))
        for spec in details_for(component.kind):
            self._set(spec, w[spec.name], component.details.get(spec.name))
        self._show_solids(component.details)

    def _show_solids(self, details: dict[str, Any]) -> None:
        if self.solids is not None:
            self.solids.setText(TankSolids.of(details).arithmetic)

    def drop(self) -> None:
        """Take the detail rows out; the widgets are deleted once control is back in the
        event loop, never inside a signal one of them is emitting."""
        while self.form.rowCount():
            taken = self.form.takeRow(0)
            for item in (taken.labelItem, taken.fieldItem):
                widget = item.widget() if item is not None else None
                if widget is not None:
                    widget.hide()
                    widget.setParent(None)
                    widget.deleteLater()
        self.widgets = {}
        self.key = None
        self.solids = None

    def _build(self, kind: ComponentKind) -> None:
        self.drop()
        condition = self._watch(combo([x.value for x in Condition]))
        defects = FinishedTextEdit("one defect per line", 2)
        self._watch(defects)
        self._findings(defects)
        self.widgets = {"condition": condition, "defects": defects}
        self.form.addRow("Condition", condition)
        self.form.addRow("Defects", defects)
        for spec in details_for(kind):
            widget = self._watch(self._widget(spec))
            self.widgets[spec.name] = widget
            self.form.addRow(spec.label + (f" ({spec.unit})" if spec.unit else ""), widget)
        if kind in SOLIDS_KINDS:
            self.solids = QLabel()
            self.solids.setObjectName("solids_share")
            self.solids.setWordWrap(True)
            self.form.addRow("Solids share", self.solids)
        if self.isVisible():
            # shown now, not when the event loop comes round: a Tab typed straight after
            # choosing the component lands in them, not past them
            for row in range(self.form.rowCount()):
                for role in (QFormLayout.ItemRole.LabelRole, QFormLayout.ItemRole.FieldRole):
                    item = self.form.itemAt(row, role)
                    shown = item.widget() if item is not None else None
                    if shown is not None:
                        shown.show()

    @staticmethod
    def _widget(spec: DetailField) -> QWidget:
        if spec.type is FieldType.CHOICE:
            return combo(list(spec.choices), blank=True)
        if spec.type is FieldType.BOOLEAN:
            return combo(["yes", "no"], blank=True)
        if spec.type in (FieldType.NUMBER, FieldType.INTEGER):
            field = registry.column("components", spec.name)
            assert field is not None
            return NumberField(field)
        line = QLineEdit()
        line.setPlaceholderText("YYYY-MM-DD" if spec.type is FieldType.DATE else "")
        return line

    @staticmethod
    def _set(spec: DetailField, widget: QWidget, value: Any) -> None:
        if isinstance(widget, QComboBox):  # a choice, or yes and no for a boolean
            if spec.type is FieldType.BOOLEAN and value is not None:
                value = "yes" if value else "no"
            set_combo(widget, value)
        elif isinstance(widget, NumberField):
            widget.set_value(value)
        elif isinstance(widget, QLineEdit):
            set_text(widget, "" if value is None else str(value))

    def read_into(self, components: list[Component]) -> None:
        """Put the component the fields were built for, as they show it, into its row of
        `components` (whatever row is selected in the table by now)."""
        if not self.widgets or self.key is None:
            return
        row, kind = self.key
        if 0 <= row < len(components) and components[row].kind is kind:
            try:
                components[row] = self._read(components[row])
            except ValueError as exc:
                raise ValueError(f"{words(kind.value)} (component {row + 1}): {exc}"
                                 ) from None

    def _read(self, c: Component) -> Component:
        w = self.widgets
        details: dict[str, Any] = {}
        for spec in details_for(c.kind):
            widget = w.get(spec.name)
            if isinstance(widget, QComboBox):
                data = widget.currentData()
                if data is not None:
                    details[spec.name] = (data == "yes") if spec.type is FieldType.BOOLEAN \
                        else data
            elif isinstance(widget, NumberField):
                value = widget.value()
                if value is not None:
                    details[spec.name] = value
            elif isinstance(widget, QLineEdit) and widget.text().strip():
                text = widget.text().strip()
                try:
                    details[spec.name] = (date.fromisoformat(text)
                                          if spec.type is FieldType.DATE else text)
                except ValueError:
                    raise ValueError(f"{spec.label}: {text!r} is not a date; type it as "
                                     "YYYY-MM-DD") from None
        self._show_solids(details)
        condition, defects = self._condition_and_defects()
        return replace(c, condition=Condition(condition.currentData()),
                       defects=lines(defects.toPlainText()), details=details)

    def _condition_and_defects(self) -> tuple[QComboBox, FinishedTextEdit]:
        """The two fields every component has, as `_build` made them."""
        condition, defects = self.widgets["condition"], self.widgets["defects"]
        assert isinstance(condition, QComboBox) and isinstance(defects, FinishedTextEdit)
        return condition, defects
