"""The inspection form: a parcel's case, edited field by field.

Every edit is checked as a case file would be (same messages, naming the field) and
saved through the normal edit path as soon as the field is finished: there is no Save
button to forget. Each save is one step on the undo stack.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import date
from typing import Any

from PySide6.QtCore import QDate, Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDateEdit,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ..domain.case import (
    AhjDetermination,
    Case,
    Component,
    Dwelling,
    EtuInspection,
    EtuService,
    FieldTest,
    HoldingTankService,
    Inspection,
    Observations,
    PumpOut,
    Renter,
    Site,
)
from ..domain.fields import DetailField, FieldType, details_for
from ..domain.labels import field_label, words
from ..domain.vocabulary import (
    ComponentKind,
    Condition,
    InspectionReason,
    LakeDistanceMethod,
    Occupancy,
    TestKind,
    TestResult,
)
from .date_field import DateField

NOT_RECORDED = "(not recorded)"


def _combo(values: list[str], *, blank: bool = False) -> QComboBox:
    combo = QComboBox()
    if blank:
        combo.addItem(NOT_RECORDED, None)
    for v in values:
        combo.addItem(words(v), v)
    return combo


def _set_combo(combo: QComboBox, value: Any) -> None:
    index = max(combo.findData(value), 0)
    if combo.currentIndex() != index:
        combo.setCurrentIndex(index)


# Setters used while loading: a widget whose value is already right is left alone, so a
# reload after a save never disturbs the field the user is in.
def _set_text(widget: QLineEdit, text: str) -> None:
    if widget.text() != text:
        widget.setText(text)


def _set_plain(widget: FinishedTextEdit, text: str) -> None:
    if widget.toPlainText() != text:
        widget.setPlainText(text)
    widget.mark_saved()


def _set_value(widget: QSpinBox | QDoubleSpinBox, value: float) -> None:
    if widget.value() != value:
        widget.setValue(value)  # type: ignore[arg-type]


def _set_checked(widget: QCheckBox, on: bool) -> None:
    if widget.isChecked() != on:
        widget.setChecked(on)


def _g(value: float | None) -> str:
    return "" if value is None else f"{value:g}"


def _iso(value: date | None) -> str:
    return "" if value is None else value.isoformat()


def _lines(text: str) -> tuple[str, ...]:
    return tuple(line.strip() for line in text.splitlines() if line.strip())


class _Editors:
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


def _form_layout(box: QWidget) -> QFormLayout:
    """Labels beside their fields, or above them when the form is narrow (a small
    screen, or the larger font of high contrast): nothing is cut off at the right."""
    form = QFormLayout(box)
    form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
    form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
    return form


def _spin(maximum: int) -> QSpinBox:
    box = QSpinBox()
    box.setRange(0, maximum)
    return box


def _number(maximum: float, suffix: str) -> QDoubleSpinBox:
    box = QDoubleSpinBox()
    box.setRange(-1, maximum)  # -1 shows as "not recorded"
    box.setDecimals(1)
    box.setSuffix(f" {suffix}")
    box.setSpecialValueText(NOT_RECORDED)
    box.setValue(-1)
    return box


def _opt(box: QDoubleSpinBox) -> float | None:
    return None if box.value() < 0 else box.value()


def _set_opt(box: QDoubleSpinBox, value: float | None) -> None:
    _set_value(box, -1 if value is None else value)


class CaseForm(QWidget):
    """Owner, dwelling, system, inspection and maintenance records of one parcel."""

    edited = Signal(object)  # the form
    problem = Signal(str)    # something the user must do before the form can save
    components_edited = Signal(object)  # the form's case with components added/removed
    inspection_requested = Signal(object)  # the form's case, to get a new inspection

    def __init__(self) -> None:
        super().__init__()
        # The case as loaded, and the form's own reading of it straight after loading: a
        # save sends only what differs from that reading (see current_edit).
        self.case: Case | None = None
        self.baseline: Case | None = None
        self.detail_key: tuple[int, ComponentKind] | None = None
        self.pending_select: int | None = None  # the row to select after add/remove
        self.ed = _Editors(self._emit)
        layout = QVBoxLayout(self)
        layout.addWidget(self._owner_box())
        layout.addWidget(self._dwelling_box())
        layout.addWidget(self._system_box())
        layout.addWidget(self._inspection_box())
        layout.addWidget(self._ahj_box())
        layout.addWidget(self._maintenance_box())
        layout.addStretch()

    # --- building the form ---------------------------------------------------------

    def _owner_box(self) -> QGroupBox:
        box = QGroupBox("Parcel and owner")
        form = _form_layout(box)
        self.sbl = QLabel()
        self.sbl.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.municipality = self.ed.watch(QLineEdit())
        self.site_address = self.ed.watch(QLineEdit())
        self.owner_name = self.ed.watch(QLineEdit())
        self.mailing = self.ed.watch(FinishedTextEdit("street\ncity, state ZIP"))
        self.phone = self.ed.watch(QLineEdit())
        self.email = self.ed.watch(QLineEdit())
        self.renters = self.ed.watch(FinishedTextEdit(
            "one renter per line: name | address line | address line", 2))
        form.addRow("SBL (tax map)", self.sbl)
        form.addRow("&Municipality", self.municipality)
        form.addRow("Site &address", self.site_address)
        form.addRow("&Owner", self.owner_name)
        form.addRow("Owner's mailing address", self.mailing)
        form.addRow("Phone", self.phone)
        form.addRow("E-mail", self.email)
        form.addRow("Renters to notify", self.renters)
        return box

    def _dwelling_box(self) -> QGroupBox:
        box = QGroupBox("Dwelling")
        form = _form_layout(box)
        self.bedrooms = self.ed.watch(_spin(50))
        self.living = self.ed.watch(_number(100_000, "sq ft"))
        self.building = self.ed.watch(_number(100_000, "sq ft"))
        self.grinder = self.ed.watch(QCheckBox("Garbage grinder"))
        form.addRow("&Bedrooms and equivalents", self.bedrooms)
        form.addRow("&Living area", self.living)
        form.addRow("Building area", self.building)
        form.addRow("", self.grinder)
        return box

    def _system_box(self) -> QGroupBox:
        box = QGroupBox("System components")
        layout = QVBoxLayout(box)
        self.components = QTableWidget(0, 3)
        self.components.setHorizontalHeaderLabels(["Component", "Condition", "Defects"])
        self.components.horizontalHeader().setSectionResizeMode(
            2, QHeaderView.ResizeMode.Stretch)
        self.components.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.components.setSelectionMode(QTableWidget.SelectionMode.SingleSelection)
        self.components.itemSelectionChanged.connect(self._show_component)
        self.components.setMinimumHeight(130)
        self.components.setColumnWidth(0, 150)
        self.components.setTabKeyNavigation(False)  # Tab leaves the table
        layout.addWidget(self.components)
        buttons = QHBoxLayout()
        self.new_kind = _combo([k.value for k in ComponentKind])
        self.new_kind.setAccessibleName("Kind of component to add")
        # A new component's condition is what the inspector found: it starts unset.
        self.new_condition = _combo([x.value for x in Condition], blank=True)
        self.new_condition.setItemText(0, "(condition found)")
        self.new_condition.setAccessibleName("Condition of the component to add")
        add = QPushButton("&Add component")
        add.clicked.connect(self._add_component)
        remove = QPushButton("&Remove selected")
        remove.clicked.connect(self._remove_component)
        for combo in (self.new_kind, self.new_condition):
            combo.setSizeAdjustPolicy(
                QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(12)
        buttons.addWidget(self.new_kind, 1)
        buttons.addWidget(self.new_condition, 1)
        layout.addLayout(buttons)
        buttons = QHBoxLayout()
        buttons.addWidget(add)
        buttons.addWidget(remove)
        buttons.addStretch()
        layout.addLayout(buttons)
        self.detail_box = QGroupBox("Selected component")
        self.detail_form = _form_layout(self.detail_box)
        layout.addWidget(self.detail_box)
        self.detail_widgets: dict[str, QWidget] = {}
        return box

    def _inspection_box(self) -> QGroupBox:
        box = QGroupBox("Inspection")
        self.inspection_box = box
        form = _form_layout(box)
        # Editing changes the inspection named in the title; a visit today is a new one.
        self.new_inspection = QPushButton("Start a &new inspection today...")
        self.new_inspection.setToolTip("Record today's visit as a new inspection; the "
                                       "inspection shown now stays on record as it is")
        self.new_inspection.clicked.connect(self._start_inspection)
        form.addRow(self.new_inspection)
        self.inspection_date = self.ed.watch(DateField())
        self.inspector = self.ed.watch(QLineEdit())
        self.certification = self.ed.watch(QLineEdit())
        self.reason = self.ed.watch(_combo([r.value for r in InspectionReason]))
        self.weather = self.ed.watch(QLineEdit())
        self.occupancy = self.ed.watch(_combo([o.value for o in Occupancy], blank=True))
        self.evidence = self.ed.watch(FinishedTextEdit("one piece of evidence of failure per "
                                                       "line"))
        self.tests = self.ed.watch(FinishedTextEdit(
            "one test per line: dye|hydraulic_load, pass|fail|inconclusive, gallons, minutes"))
        self.lake_ft = self.ed.watch(_number(100_000, "ft"))
        self.lake_method = self.ed.watch(_combo([m.value for m in LakeDistanceMethod],
                                                blank=True))
        self.encroachments = self.ed.watch(FinishedTextEdit("anything on the absorption area, "
                                                            "one per line", 2))
        self.clear_water = self.ed.watch(FinishedTextEdit("roof drains, sump pump...", 2))
        form.addRow("&Date", self.inspection_date)
        form.addRow("&Inspector", self.inspector)
        form.addRow("Certification", self.certification)
        form.addRow("Reason", self.reason)
        form.addRow("Weather", self.weather)
        form.addRow("Occupancy", self.occupancy)
        form.addRow("Failure evidence", self.evidence)
        form.addRow("Tests", self.tests)
        form.addRow("Measured distance to lake line", self.lake_ft)
        form.addRow("Measured by", self.lake_method)
        form.addRow("On the absorption area (§ 202-5 E)", self.encroachments)
        form.addRow("Clear-water connections (§ 202-5 F)", self.clear_water)
        return box

    def _ahj_box(self) -> QGroupBox:
        box = QGroupBox("AHJ determination (§ 202-7 B(3))")
        form = _form_layout(box)
        self.permit_number = self.ed.watch(QLineEdit())
        self.permit_issued_on = self.ed.watch(QLineEdit())
        self.permit_issued_on.setPlaceholderText("YYYY-MM-DD")
        self.permit_number.setToolTip("The building permit provided with the letter of "
                                      "acknowledgement")
        form.addRow(field_label("ahj.permit_number"), self.permit_number)
        form.addRow(field_label("ahj.permit_issued_on"), self.permit_issued_on)
        return box

    def _maintenance_box(self) -> QGroupBox:
        box = QGroupBox("Maintenance records")
        form = _form_layout(box)
        self.etu_contract = self.ed.watch(QCheckBox("ETU service contract on file"))
        self.etu_interval = self.ed.watch(_spin(60))
        self.etu_interval.setSpecialValueText(NOT_RECORDED)
        self.etu_interval.setSuffix(" months")
        self.etu_inspections = self.ed.watch(FinishedTextEdit(
            "one ETU inspection per line: inspection date, report received date (blank if "
            "none)"))
        self.hauler = self.ed.watch(QCheckBox("Holding-tank hauler contract on file"))
        self.pump_outs = self.ed.watch(FinishedTextEdit(
            "one pump-out per line: date, record received yes/no"))
        form.addRow("", self.etu_contract)
        form.addRow("Manufacturer's interval", self.etu_interval)
        form.addRow("ETU inspections", self.etu_inspections)
        form.addRow("", self.hauler)
        form.addRow("Pump-outs", self.pump_outs)
        return box

    # --- case -> form ---------------------------------------------------------------

    def load(self, case: Case) -> None:
        """Show a case: all or nothing. If any field cannot be shown the form is cleared,
        disabled and cannot save (the error is raised to the caller)."""
        self.case = None
        self.baseline = None
        self.ed.loading = True
        try:
            self._fill(case)
            self.case = case
            self.baseline = self._read(case)
        except Exception:
            self.case = None
            self.baseline = None
            self.setEnabled(False)
            raise
        finally:
            self.ed.loading = False
        self.setEnabled(True)

    def clear(self) -> None:
        """Nothing loaded: nothing to show and nothing that could be saved."""
        self.case = None
        self.baseline = None
        self._drop_details()
        self.components.setRowCount(0)
        self.setEnabled(False)

    @property
    def loaded(self) -> bool:
        return self.case is not None and self.baseline is not None

    def _fill(self, case: Case) -> None:
        p = case.parcel
        self.sbl.setText(p.sbl)
        _set_text(self.municipality, p.municipality)
        _set_text(self.site_address, p.site_address)
        _set_text(self.owner_name, p.owner_name)
        _set_plain(self.mailing, "\n".join(p.owner_mailing_address))
        _set_text(self.phone, p.owner_phone or "")
        _set_text(self.email, p.owner_email or "")
        _set_plain(self.renters, "\n".join(" | ".join((r.name, *r.mailing_address))
                                           for r in p.renters))
        d = case.dwelling
        _set_value(self.bedrooms, d.bedrooms if d else 0)
        _set_opt(self.living, d.living_area_sqft if d else None)
        _set_opt(self.building, d.building_area_sqft if d else None)
        _set_checked(self.grinder, bool(d and d.garbage_grinder))
        self._load_components(case)
        i = case.inspection
        self.inspection_box.setTitle(
            f"Inspection of {i.date.isoformat()} by {i.inspector}" if i else
            "Inspection: none on record")
        day = QDate.fromString((i.date if i else date.today()).isoformat(), "yyyy-MM-dd")
        if self.inspection_date.date() != day:
            self.inspection_date.setDate(day)
        _set_text(self.inspector, i.inspector if i else "")
        _set_text(self.certification, (i.inspector_certification or "") if i else "")
        _set_combo(self.reason, i.reason.value if i else InspectionReason.OTHER.value)
        _set_text(self.weather, (i.weather or "") if i else "")
        _set_combo(self.occupancy, i.occupancy.value if i and i.occupancy else None)
        _set_plain(self.evidence, "\n".join(i.failure_evidence) if i else "")
        _set_plain(self.tests, "\n".join(
            f"{t.kind.value}, {t.result.value}, {_g(t.volume_gal)}, {_g(t.duration_min)}"
            for t in (i.tests if i else ())))
        s = case.site
        _set_opt(self.lake_ft, s.lake_distance_ft if s else None)
        _set_combo(self.lake_method, s.lake_distance_method.value
                   if s and s.lake_distance_method else None)
        o = case.observations
        _set_plain(self.encroachments, "\n".join(o.absorption_area_encroachments) if o else "")
        _set_plain(self.clear_water, "\n".join(o.clear_water_connections) if o else "")
        a = case.ahj
        _set_text(self.permit_number, (a.permit_number or "") if a else "")
        _set_text(self.permit_issued_on, _iso(a.permit_issued_on) if a else "")
        e = case.etu
        _set_checked(self.etu_contract, bool(e and e.service_contract))
        _set_value(self.etu_interval, (e.manufacturer_interval_months or 0) if e else 0)
        _set_plain(self.etu_inspections, "\n".join(
            f"{x.date.isoformat()}, {_iso(x.report_received)}"
            for x in (e.inspections if e else ())))
        h = case.holding_tank_service
        _set_checked(self.hauler, bool(h and h.hauler_contract))
        _set_plain(self.pump_outs, "\n".join(
            f"{x.date.isoformat()}, {'yes' if x.record_received else 'no'}"
            for x in (h.pump_outs if h else ())))

    def _load_components(self, case: Case) -> None:
        components = case.components
        selected = self.components.currentRow()
        if self.pending_select is not None:
            selected, self.pending_select = self.pending_select, None
        blocker = self.components.blockSignals(True)
        try:
            self.components.setRowCount(len(components))
            for row, c in enumerate(components):
                for col, text in enumerate((words(c.kind.value), words(c.condition.value),
                                            "; ".join(c.defects))):
                    item = self.components.item(row, col)
                    if item is None:
                        item = QTableWidgetItem(text)
                        item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
                        self.components.setItem(row, col, item)
                    elif item.text() != text:
                        item.setText(text)
            if components:
                self.components.selectRow(min(max(selected, 0), len(components) - 1))
            else:
                self.components.clearSelection()
        finally:
            self.components.blockSignals(blocker)
        self._show_component_of(case)

    def _show_component(self) -> None:
        """The user picked another component in the table."""
        if self.case is not None:
            was_loading = self.ed.loading
            self.ed.loading = True
            try:
                self._show_component_of(self.case)
            finally:
                self.ed.loading = was_loading

    def _show_component_of(self, case: Case) -> None:
        row = self.components.currentRow()
        if not 0 <= row < len(case.components):
            self._drop_details()
            self.detail_box.setTitle("Selected component: none")
            return
        c = case.components[row]
        key = (row, c.kind)
        if key != self.detail_key:
            self._build_details(c.kind)
            self.detail_key = key
        self.detail_box.setTitle(f"Selected component: {words(c.kind.value)}")
        w = self.detail_widgets
        _set_combo(w["condition"], c.condition.value)  # type: ignore[arg-type]
        _set_plain(w["defects"], "\n".join(c.defects))  # type: ignore[arg-type]
        for spec in details_for(c.kind):
            self._set_detail(spec, w[spec.name], c.details.get(spec.name))

    def _drop_details(self) -> None:
        """Take the detail rows out; the widgets are deleted once control is back in the
        event loop, never inside a signal one of them is emitting."""
        while self.detail_form.rowCount():
            taken = self.detail_form.takeRow(0)
            for item in (taken.labelItem, taken.fieldItem):
                widget = item.widget() if item is not None else None
                if widget is not None:
                    widget.hide()
                    widget.setParent(None)  # type: ignore[call-overload]
                    widget.deleteLater()
        self.detail_widgets = {}
        self.detail_key = None

    def _build_details(self, kind: ComponentKind) -> None:
        self._drop_details()
        condition = self.ed.watch(_combo([x.value for x in Condition]))
        defects = self.ed.watch(FinishedTextEdit("one defect per line", 2))
        self.detail_widgets = {"condition": condition, "defects": defects}
        self.detail_form.addRow("Condition", condition)
        self.detail_form.addRow("Defects", defects)
        for spec in details_for(kind):
            widget = self.ed.watch(self._detail_widget(spec))
            self.detail_widgets[spec.name] = widget
            self.detail_form.addRow(spec.label + (f" ({spec.unit})" if spec.unit else ""),
                                    widget)

    def _detail_widget(self, spec: DetailField) -> QWidget:
        if spec.type is FieldType.CHOICE:
            return _combo(list(spec.choices), blank=True)
        if spec.type is FieldType.BOOLEAN:
            return _combo(["yes", "no"], blank=True)
        if spec.type in (FieldType.NUMBER, FieldType.INTEGER):
            box = _number(spec.maximum or 1e6, spec.unit or "")
            if spec.type is FieldType.INTEGER:
                box.setDecimals(0)
            return box
        line = QLineEdit()
        line.setPlaceholderText("YYYY-MM-DD" if spec.type is FieldType.DATE else "")
        return line

    @staticmethod
    def _set_detail(spec: DetailField, widget: QWidget, value: Any) -> None:
        if spec.type is FieldType.BOOLEAN:
            _set_combo(widget, None if value is None else ("yes" if value else "no"))  # type: ignore[arg-type]
        elif isinstance(widget, QComboBox):
            _set_combo(widget, value)
        elif isinstance(widget, QDoubleSpinBox):
            _set_opt(widget, value)
        elif isinstance(widget, QLineEdit):
            _set_text(widget, "" if value is None else str(value))

    # --- form -> case ---------------------------------------------------------------

    def _component_from_widgets(self, c: Component) -> Component:
        w = self.detail_widgets
        details: dict[str, Any] = {}
        for spec in details_for(c.kind):
            widget = w.get(spec.name)
            if isinstance(widget, QComboBox):
                data = widget.currentData()
                if data is not None:
                    details[spec.name] = (data == "yes") if spec.type is FieldType.BOOLEAN \
                        else data
            elif isinstance(widget, QDoubleSpinBox):
                value = _opt(widget)
                if value is not None:
                    details[spec.name] = int(value) if spec.type is FieldType.INTEGER else value
            elif isinstance(widget, QLineEdit) and widget.text().strip():
                text = widget.text().strip()
                try:
                    details[spec.name] = (date.fromisoformat(text)
                                          if spec.type is FieldType.DATE else text)
                except ValueError:
                    raise ValueError(f"{spec.label}: {text!r} is not a date; type it as "
                                     "YYYY-MM-DD") from None
        condition = w["condition"].currentData()  # type: ignore[attr-defined]
        return replace(c, condition=Condition(condition),
                       defects=_lines(w["defects"].toPlainText()),  # type: ignore[attr-defined]
                       details=details)

    def current_edit(self) -> tuple[Case, Case]:
        """(case as loaded, case with only the user's changes applied to it).

        Raises ValueError naming a field it cannot read, or when nothing is loaded."""
        if not self.loaded:
            raise ValueError("the form did not load completely; open the parcel again")
        assert self.case is not None and self.baseline is not None
        from ..domain.edits import overlay

        return self.case, overlay(self.case, self.baseline, self._read(self.case))

    def is_dirty(self) -> bool:
        """The form shows something that is not saved yet (or cannot be read)."""
        if not self.loaded:
            return False
        try:
            before, after = self.current_edit()
        except ValueError:
            return True
        return before != after

    def revert(self) -> None:
        """Put every field back to the values saved."""
        if self.case is not None:
            self.load(self.case)

    def _read(self, case: Case) -> Case:
        """The case as the form shows it, on top of `case`."""
        parcel = replace(case.parcel, municipality=self.municipality.text().strip(),
                         site_address=self.site_address.text().strip(),
                         owner_name=self.owner_name.text().strip(),
                         owner_mailing_address=_lines(self.mailing.toPlainText()),
                         owner_phone=self.phone.text().strip() or None,
                         owner_email=self.email.text().strip() or None,
                         renters=tuple(
                             Renter(name=parts[0], mailing_address=tuple(parts[1:]))
                             for parts in ([x.strip() for x in line.split("|") if x.strip()]
                                           for line in _lines(self.renters.toPlainText()))
                             if parts))
        dwelling = Dwelling(bedrooms=self.bedrooms.value(),
                            living_area_sqft=_opt(self.living) or 0,
                            building_area_sqft=_opt(self.building),
                            garbage_grinder=self.grinder.isChecked() or None,
                            ahj_design_bedrooms=case.dwelling.ahj_design_bedrooms
                            if case.dwelling else None,
                            ahj_design_by=case.dwelling.ahj_design_by if case.dwelling else None,
                            ahj_design_date=case.dwelling.ahj_design_date
                            if case.dwelling else None,
                            ahj_design_reason=case.dwelling.ahj_design_reason
                            if case.dwelling else None)
        components = list(case.components)
        # The detail fields belong to the component they were built for, whatever row is
        # selected in the table by now.
        if self.detail_widgets and self.detail_key is not None:
            row, kind = self.detail_key
            if 0 <= row < len(components) and components[row].kind is kind:
                try:
                    components[row] = self._component_from_widgets(components[row])
                except ValueError as exc:
                    raise ValueError(f"{words(kind.value)} (component {row + 1}): {exc}"
                                     ) from None
        tests = []
        for n, line in enumerate(_lines(self.tests.toPlainText()), start=1):
            parts = [x.strip() for x in line.split(",")] + ["", "", "", ""]
            try:
                tests.append(FieldTest(kind=TestKind(parts[0]), result=TestResult(parts[1]),
                                       volume_gal=float(parts[2]) if parts[2] else None,
                                       duration_min=float(parts[3]) if parts[3] else None))
            except ValueError:
                raise ValueError(f"Tests, line {n} ({line!r}) must read: dye or "
                                 "hydraulic_load, pass/fail/inconclusive, gallons, minutes"
                                 ) from None
        inspector = self.inspector.text().strip()
        inspection = None if not inspector else Inspection(
            date=date.fromisoformat(self.inspection_date.date().toString("yyyy-MM-dd")),
            inspector=inspector, reason=InspectionReason(self.reason.currentData()),
            failure_evidence=_lines(self.evidence.toPlainText()),
            inspector_certification=self.certification.text().strip() or None,
            weather=self.weather.text().strip() or None,
            occupancy=None if self.occupancy.currentData() is None
            else Occupancy(self.occupancy.currentData()),
            tests=tuple(tests), note=case.inspection.note if case.inspection else None)
        site = case.site or Site()
        site = replace(site, lake_distance_ft=_opt(self.lake_ft),
                       lake_distance_method=None if self.lake_method.currentData() is None
                       else LakeDistanceMethod(self.lake_method.currentData()))
        if site == Site():
            site = None  # type: ignore[assignment]
        encroach, clear = (_lines(self.encroachments.toPlainText()),
                           _lines(self.clear_water.toPlainText()))
        observations = (Observations(absorption_area_encroachments=encroach,
                                     clear_water_connections=clear)
                        if encroach or clear or case.observations else None)
        ahj = self._read_ahj(case)
        etu_rows = []
        for n, line in enumerate(_lines(self.etu_inspections.toPlainText()), start=1):
            parts = [x.strip() for x in line.split(",")] + [""]
            try:
                etu_rows.append(EtuInspection(date=date.fromisoformat(parts[0]),
                                              report_received=date.fromisoformat(parts[1])
                                              if parts[1] else None))
            except ValueError:
                raise ValueError(f"ETU inspections, line {n} ({line!r}) must read: "
                                 "YYYY-MM-DD, YYYY-MM-DD (or blank)") from None
        has_etu = (etu_rows or self.etu_contract.isChecked() or case.etu is not None)
        etu = EtuService(service_contract=self.etu_contract.isChecked(),
                         manufacturer_interval_months=self.etu_interval.value() or None,
                         provider=case.etu.provider if case.etu else None,
                         inspections=tuple(etu_rows)) if has_etu else None
        pump_rows = []
        for n, line in enumerate(_lines(self.pump_outs.toPlainText()), start=1):
            parts = [x.strip() for x in line.split(",")] + [""]
            try:
                pump_rows.append(PumpOut(date=date.fromisoformat(parts[0]),
                                         record_received=parts[1].lower() in ("yes", "y", "true")))
            except ValueError:
                raise ValueError(f"Pump-outs, line {n} ({line!r}) must read: YYYY-MM-DD, "
                                 "yes/no") from None
        has_tank = pump_rows or self.hauler.isChecked() or case.holding_tank_service is not None
        holding = HoldingTankService(
            hauler_contract=self.hauler.isChecked(),
            hauler_name=case.holding_tank_service.hauler_name
            if case.holding_tank_service else None,
            pump_outs=tuple(pump_rows)) if has_tank else None
        return replace(case, parcel=parcel, dwelling=dwelling, components=tuple(components),
                       inspection=inspection or case.inspection, site=site,
                       observations=observations, ahj=ahj, etu=etu,
                       holding_tank_service=holding)

    def _read_ahj(self, case: Case) -> AhjDetermination | None:
        """The AHJ determination with the permit as the form shows it; the rest as loaded."""
        text = self.permit_issued_on.text().strip()
        try:
            issued = date.fromisoformat(text) if text else None
        except ValueError:
            raise ValueError(f"{field_label('ahj.permit_issued_on')}: {text!r} is not a date; "
                             "type it as YYYY-MM-DD") from None
        ahj = replace(case.ahj or AhjDetermination(),
                      permit_number=self.permit_number.text().strip() or None,
                      permit_issued_on=issued)
        return None if case.ahj is None and ahj == AhjDetermination() else ahj

    def _emit(self) -> None:
        if self.loaded:
            self.edited.emit(self)

    def _add_component(self) -> None:
        if not self.loaded:
            return
        condition = self.new_condition.currentData()
        kind = ComponentKind(self.new_kind.currentData())
        if condition is None:
            self.problem.emit(f"Not added: choose the condition you found for the new "
                              f"{words(kind.value)} first (beside Add component).")
            return
        new = Component(kind=kind, condition=Condition(condition))
        current = self._edit_or_say("Not added")
        if current is None:
            return
        self.pending_select = len(current.components)
        self.new_condition.setCurrentIndex(0)
        self.components_edited.emit(replace(current, components=(*current.components, new)))

    def _edit_or_say(self, refused: str) -> Case | None:
        """The case with the user's changes, or None after saying why it cannot be read."""
        try:
            return self.current_edit()[1]
        except ValueError as exc:
            self.problem.emit(f"{refused}: {exc}")
            return None

    def _start_inspection(self) -> None:
        """Ask the window for a new inspection (it knows today and the user)."""
        current = self._edit_or_say("No new inspection yet") if self.loaded else None
        if current is not None:
            self.inspection_requested.emit(current)

    def _remove_component(self) -> None:
        row = self.components.currentRow()
        if not self.loaded or self.case is None or not 0 <= row < len(self.case.components):
            return
        current = self._edit_or_say("Not removed")
        if current is None:
            return
        components = list(current.components)
        del components[row]
        self.pending_select = max(row - 1, 0)
        self.components_edited.emit(replace(current, components=tuple(components)))
