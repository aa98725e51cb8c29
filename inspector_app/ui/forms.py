"""The inspection form: a parcel's case, edited field by field.

Every edit is checked as a case file would be (same messages, naming the field) and
saved through the normal edit path as soon as the field is finished: there is no Save
button to forget. Each save is one step on the undo stack.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date

from PySide6.QtCore import QDate, Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ..domain import registry
from ..domain.case import (
    AhjDetermination,
    Case,
    Component,
    Dwelling,
    EtuService,
    HoldingTankService,
    Inspection,
    Observations,
    Site,
)
from ..domain.labels import field_label, words
from ..domain.vocabulary import (
    ComponentKind,
    Condition,
    InspectionReason,
    LakeDistanceMethod,
    Occupancy,
)
from . import maintenance_records as records
from .component_details import ComponentDetails
from .component_photos import attach_photos_controls
from .date_field import DateField
from .field_test_panel import FieldTestPanel
from .form_fields import (
    Editors,
    FinishedTextEdit,
    NumberField,
    combo,
    form_layout,
    iso,
    lines,
    set_checked,
    set_combo,
    set_plain,
    set_text,
)
from .maintenance_box import MaintenanceBox
from .phrase_completer import PhraseCompleter


class CaseForm(QWidget):
    """Owner, dwelling, system, inspection and maintenance records of one parcel."""

    edited = Signal(object)  # the form
    problem = Signal(str)    # something the user must do before the form can save
    components_edited = Signal(object)  # the form's case with components added/removed
    inspection_requested = Signal(object)  # the form's case, to get a new inspection
    # the inspection shown, to be marked entered in error
    entered_in_error_requested = Signal(object)
    document_requested = Signal(str)  # the SHA-256 of a provider's document to open
    # photos for a component: its name as `attach` takes it, the files (None: choose them)
    component_photos = Signal(str, object)

    def __init__(self) -> None:
        super().__init__()
        # The case as loaded, and the form's own reading of it straight after loading: a
        # save sends only what differs from that reading (see current_edit).
        self.case: Case | None = None
        self.baseline: Case | None = None
        self.pending_select: int | None = None  # the row to select after add/remove
        self.ed = Editors(self._emit)
        self.findings = PhraseCompleter()  # the phrases offered in the findings fields
        layout = QVBoxLayout(self)
        # What a visit records comes first, in the order it is recorded (the inspection,
        # then the components found): on a small screen it is there without scrolling, and
        # Tab walks the form in the order it shows. The parcel and owner follow.
        layout.addWidget(self._inspection_box())
        layout.addWidget(self._system_box())
        layout.addWidget(self._owner_box())
        layout.addWidget(self._dwelling_box())
        layout.addWidget(self._ahj_box())
        layout.addWidget(self._maintenance_box())
        layout.addStretch()
        # the measured distance follows the tests in the keys' walk; the test's timer after it
        self.field_tests.after_in_tab_order(self.tests, self.lake_ft, self.lake_method)

    # --- building the form ---------------------------------------------------------

    def _owner_box(self) -> QGroupBox:
        box = QGroupBox("Parcel and owner")
        form = form_layout(box)
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
        form = form_layout(box)
        self.bedrooms = self.ed.watch(NumberField(registry.at("dwelling.bedrooms")))
        self.living = self.ed.watch(NumberField(registry.at("dwelling.living_area_sqft"),
                                                blank=0))
        self.building = self.ed.watch(NumberField(registry.at("dwelling.building_area_sqft")))
        self.grinder = self.ed.watch(QCheckBox("Garbage grinder"))
        form.addRow("&Bedrooms and equivalents", self.bedrooms)
        form.addRow(self.living.title("&Living area"), self.living)
        form.addRow(self.building.title("Building area"), self.building)
        form.addRow("", self.grinder)
        return box

    def _system_box(self) -> QGroupBox:
        box = QGroupBox("System &components")  # Alt+C: to the table
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
        # the selected component's fields straight below its row (Tab goes there from the
        # table); adding and removing components comes after
        self.detail_box = ComponentDetails(self.ed.watch, self.findings.attach)
        layout.addWidget(self.detail_box)
        buttons = QHBoxLayout()
        self.new_kind = combo([k.value for k in ComponentKind])
        self.new_kind.setAccessibleName("Kind of component to add")
        # A new component's condition is what the inspector found: it starts unset.
        self.new_condition = combo([x.value for x in Condition], blank=True)
        self.new_condition.setItemText(0, "(condition found)")
        self.new_condition.setAccessibleName("Condition of the component to add")
        add = QPushButton("&Add component")
        add.clicked.connect(self._add_component)
        remove = QPushButton("&Remove selected")
        remove.clicked.connect(self._remove_component)
        for chooser in (self.new_kind, self.new_condition):
            chooser.setSizeAdjustPolicy(
                QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            chooser.setMinimumContentsLength(12)
        buttons.addWidget(self.new_kind, 1)
        buttons.addWidget(self.new_condition, 1)
        layout.addLayout(buttons)
        buttons = QHBoxLayout()
        buttons.addWidget(add)
        buttons.addWidget(remove)
        buttons.addStretch()
        layout.addLayout(buttons)
        # photos of the selected component, or dropped on its row, on a row of their own
        layout.addWidget(attach_photos_controls(self.components, lambda: self.case,
                                                self.component_photos.emit),
                         alignment=Qt.AlignmentFlag.AlignLeft)
        return box

    def _inspection_box(self) -> QGroupBox:
        box = QGroupBox("Inspection")
        self.inspection_box = box
        form = form_layout(box)
        # Editing changes the inspection named in the title; a visit today is a new one.
        self.new_inspection = QPushButton("Start a &new inspection today...")
        self.new_inspection.setToolTip("Record today's visit as a new inspection; the "
                                       "inspection shown now stays on record as it is")
        self.new_inspection.clicked.connect(self._start_inspection)
        form.addRow(self.new_inspection)
        self.in_error = QPushButton("This inspection was &entered in error...")
        self.in_error.setToolTip("Mark the inspection shown as entered in error (a duplicate, "
                                 "the wrong parcel): it stays on record, with the reason, and "
                                 "counts no more. Ctrl+Z undoes it.")
        self.in_error.clicked.connect(self._mark_in_error)
        form.addRow(self.in_error)
        self.inspection_date = self.ed.watch(DateField())
        self.inspector = self.ed.watch(QLineEdit())
        self.certification = self.ed.watch(QLineEdit())
        self.reason = self.ed.watch(combo([r.value for r in InspectionReason]))
        self.weather = self.ed.watch(QLineEdit())
        self.occupancy = self.ed.watch(combo([o.value for o in Occupancy], blank=True))
        self.evidence = self.ed.watch(FinishedTextEdit("one piece of evidence per line"))
        self.findings.attach(self.evidence)
        self.tests = self.ed.watch(FinishedTextEdit(
            "one test per line: dye|hydraulic_load, pass|fail|inconclusive, gallons, minutes"))
        self.lake_ft = self.ed.watch(NumberField(registry.at("site.lake_distance_ft")))
        self.lake_method = self.ed.watch(combo([m.value for m in LakeDistanceMethod],
                                                blank=True))
        self.encroachments = self.ed.watch(FinishedTextEdit("anything on the absorption area, "
                                                            "one per line", 2))
        self.clear_water = self.ed.watch(FinishedTextEdit("roof drains, sump pump...", 2))
        self.tank_discharges = self.ed.watch(FinishedTextEdit(
            "where sewage leaves the holding tank, one per line: to the ground at the lid", 2))
        form.addRow("&Date", self.inspection_date)
        form.addRow("&Inspector", self.inspector)
        form.addRow("Certification", self.certification)
        form.addRow("Reason", self.reason)
        form.addRow("Weather", self.weather)
        form.addRow("Occupancy", self.occupancy)
        form.addRow("Failure evidence", self.evidence)
        form.addRow("Tests", self.tests)
        self.field_tests = FieldTestPanel()  # the timer, preset and observations of a test
        form.addRow("", self.field_tests)
        form.addRow(self.lake_ft.title("Measured distance to lake line"), self.lake_ft)
        form.addRow("Measured by", self.lake_method)
        form.addRow("On the absorption area (§ 202-5 E)", self.encroachments)
        form.addRow("Clear-water connections (§ 202-5 F)", self.clear_water)
        form.addRow(field_label("observations.holding_tank_discharges") + " (§ 202-8 B)",
                    self.tank_discharges)
        return box

    def _ahj_box(self) -> QGroupBox:
        box = QGroupBox("AHJ determination (§ 202-7 B(3))")
        form = form_layout(box)
        self.permit_number = self.ed.watch(QLineEdit())
        self.permit_issued_on = self.ed.watch(QLineEdit())
        self.permit_issued_on.setPlaceholderText("YYYY-MM-DD")
        self.permit_number.setToolTip("The building permit provided with the letter of "
                                      "acknowledgement")
        form.addRow(field_label("ahj.permit_number"), self.permit_number)
        form.addRow(field_label("ahj.permit_issued_on"), self.permit_issued_on)
        return box

    def _maintenance_box(self) -> QGroupBox:
        box = MaintenanceBox(self.ed.watch)
        box.document_requested.connect(self.document_requested)
        self.maintenance = box
        self.etu_contract, self.etu_interval = box.etu_contract, box.etu_interval
        self.etu_inspections, self.hauler = box.etu_inspections, box.hauler
        self.pump_outs = box.pump_outs
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

    def rebase(self, case: Case) -> None:
        """Make `case` what the next edit is made on without touching a field: the user
        is typing in one. What the user changed since the form was loaded stays theirs
        (see current_edit); a field's other values show once the form is loaded again."""
        if self.loaded:
            self.case = case

    def show_unsaved(self, before: Case, after: Case) -> None:
        """Show the edit from `before` to `after` over the case loaded, unsaved (the form is
        dirty, and leaving a field tries to save it again); nothing when it no longer
        applies to what is loaded."""
        from ..domain.edits import EditConflict, apply_edit

        if not self.loaded:
            return
        assert self.case is not None
        try:
            shown: Case = apply_edit(self.case, before, after)
        except EditConflict:
            return
        self.ed.loading = True
        try:
            self._fill(shown)
        finally:
            self.ed.loading = False

    def clear(self) -> None:
        """Nothing loaded: nothing to show and nothing that could be saved."""
        self.case = None
        self.baseline = None
        self.detail_box.drop()
        self.components.setRowCount(0)
        self.maintenance.show_records(None)
        self.setEnabled(False)

    @property
    def loaded(self) -> bool:
        return self.case is not None and self.baseline is not None

    def _fill(self, case: Case) -> None:
        p = case.parcel
        self.sbl.setText(p.sbl)
        set_text(self.municipality, p.municipality)
        set_text(self.site_address, p.site_address)
        set_text(self.owner_name, p.owner_name)
        set_plain(self.mailing, "\n".join(p.owner_mailing_address))
        set_text(self.phone, p.owner_phone or "")
        set_text(self.email, p.owner_email or "")
        set_plain(self.renters, records.renters_text(p.renters))
        d = case.dwelling
        self.bedrooms.set_value(d.bedrooms if d else 0)
        self.living.set_value(d.living_area_sqft if d else None)
        self.building.set_value(d.building_area_sqft if d else None)
        set_checked(self.grinder, bool(d and d.garbage_grinder))
        self._load_components(case)
        i = case.inspection
        self.inspection_box.setTitle(
            f"Inspection of {i.date.isoformat()} by {i.inspector}" if i else
            "Inspection: none on record")
        self.in_error.setEnabled(i is not None and i.id is not None)
        day = QDate.fromString((i.date if i else date.today()).isoformat(), "yyyy-MM-dd")
        if self.inspection_date.date() != day:
            self.inspection_date.setDate(day)
        set_text(self.inspector, i.inspector if i else "")
        set_text(self.certification, (i.inspector_certification or "") if i else "")
        set_combo(self.reason, i.reason.value if i else InspectionReason.OTHER.value)
        set_text(self.weather, (i.weather or "") if i else "")
        set_combo(self.occupancy, i.occupancy.value if i and i.occupancy else None)
        set_plain(self.evidence, "\n".join(i.failure_evidence) if i else "")
        set_plain(self.tests, records.tests_text(i.tests if i else ()))
        self.field_tests.show_tests(i.tests if i else (), inspected=i is not None)
        s = case.site
        self.lake_ft.set_value(s.lake_distance_ft if s else None)
        set_combo(self.lake_method, s.lake_distance_method.value
                   if s and s.lake_distance_method else None)
        o = case.observations
        set_plain(self.encroachments, "\n".join(o.absorption_area_encroachments) if o else "")
        set_plain(self.clear_water, "\n".join(o.clear_water_connections) if o else "")
        set_plain(self.tank_discharges, "\n".join(o.holding_tank_discharges) if o else "")
        a = case.ahj
        set_text(self.permit_number, (a.permit_number or "") if a else "")
        set_text(self.permit_issued_on, iso(a.permit_issued_on) if a else "")
        e = case.etu
        set_checked(self.etu_contract, bool(e and e.service_contract))
        self.etu_interval.set_value(e.manufacturer_interval_months if e else None)
        set_plain(self.etu_inspections, records.etu_inspections_text(e.inspections if e else ()))
        h = case.holding_tank_service
        set_checked(self.hauler, bool(h and h.hauler_contract))
        set_plain(self.pump_outs, records.pump_outs_text(h.pump_outs if h else ()))
        self.maintenance.show_records(case)

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
        self.detail_box.show_component(
            row, case.components[row] if 0 <= row < len(case.components) else None)
        # fields made for another component come last in the window's Tab order: put them
        # back where they show, right after the table
        previous: QWidget = self.components
        for widget in self.detail_box.widgets.values():
            QWidget.setTabOrder(previous, widget)
            previous = widget

    @property
    def detail_widgets(self) -> dict[str, QWidget]:
        """The selected component's fields by name ("condition", "defects", its details)."""
        return self.detail_box.widgets

    # --- form -> case ---------------------------------------------------------------

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
                         owner_mailing_address=lines(self.mailing.toPlainText()),
                         owner_phone=self.phone.text().strip() or None,
                         owner_email=self.email.text().strip() or None,
                         renters=records.read_renters(self.renters.toPlainText()))
        dwelling = Dwelling(bedrooms=self.bedrooms.value(),
                            living_area_sqft=self.living.value(),
                            building_area_sqft=self.building.value(),
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
        self.detail_box.read_into(components)
        tests = records.read_tests(self.tests.toPlainText(),
                                   case.inspection.tests if case.inspection else ())
        inspector = self.inspector.text().strip()
        problem = self.inspection_date.typed_problem()
        if problem is not None:
            # the field holds some real date by now: show the inspection's own again
            on_record = case.inspection.date if case.inspection else date.today()
            self.inspection_date.setDate(QDate(on_record.year, on_record.month,
                                               on_record.day))
            raise ValueError(f"{field_label('inspection.date')}: {problem}")
        inspection = None if not inspector else Inspection(
            date=date.fromisoformat(self.inspection_date.date().toString("yyyy-MM-dd")),
            inspector=inspector, reason=InspectionReason(self.reason.currentData()),
            failure_evidence=lines(self.evidence.toPlainText()),
            inspector_certification=self.certification.text().strip() or None,
            weather=self.weather.text().strip() or None,
            occupancy=None if self.occupancy.currentData() is None
            else Occupancy(self.occupancy.currentData()),
            tests=tests, note=case.inspection.note if case.inspection else None,
            # the inspection the form shows: an edit changes that one (its date too)
            id=case.inspection.id if case.inspection else None)
        shown = replace(case.site or Site(), lake_distance_ft=self.lake_ft.value(),
                        lake_distance_method=None if self.lake_method.currentData() is None
                        else LakeDistanceMethod(self.lake_method.currentData()))
        site = None if shown == Site() else shown
        encroach, clear, discharges = (lines(self.encroachments.toPlainText()),
                                       lines(self.clear_water.toPlainText()),
                                       lines(self.tank_discharges.toPlainText()))
        observations = (Observations(absorption_area_encroachments=encroach,
                                     clear_water_connections=clear,
                                     holding_tank_discharges=discharges)
                        if encroach or clear or discharges or case.observations else None)
        ahj = self._read_ahj(case)
        etu_rows = records.read_etu_inspections(self.etu_inspections.toPlainText(),
                                                case.etu.inspections if case.etu else ())
        interval = self.etu_interval.value()
        has_etu = (etu_rows or self.etu_contract.isChecked() or interval is not None
                   or case.etu is not None)
        etu = EtuService(service_contract=self.etu_contract.isChecked(),
                         manufacturer_interval_months=interval,
                         provider=case.etu.provider if case.etu else None,
                         inspections=etu_rows) if has_etu else None
        pump_rows = records.read_pump_outs(
            self.pump_outs.toPlainText(),
            case.holding_tank_service.pump_outs if case.holding_tank_service else ())
        has_tank = pump_rows or self.hauler.isChecked() or case.holding_tank_service is not None
        holding = HoldingTankService(
            hauler_contract=self.hauler.isChecked(),
            hauler_name=case.holding_tank_service.hauler_name
            if case.holding_tank_service else None,
            pump_outs=pump_rows) if has_tank else None
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

    def _mark_in_error(self) -> None:
        if self.loaded and self.case is not None and self.case.inspection is not None:
            self.entered_in_error_requested.emit(self.case)

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
