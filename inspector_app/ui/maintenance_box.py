"""The form's maintenance records (§ 202-8): the ETU service contract and inspections, the
holding tank's hauler contract and pump-outs. Each list is typed one item per line (its
date and whether the report or record came in), and shown beside in a read-only table with
what the provider's report or record says: the representative or hauler, the unit, the
dates, and the document it came in, which opens on a click."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any, TypeVar

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QGroupBox,
    QHeaderView,
    QTableWidget,
    QTableWidgetItem,
    QWidget,
)

from ..domain import registry
from ..domain.case import Case, EtuInspection, PumpOut
from . import theme as themes
from .form_fields import FinishedTextEdit, NumberField, form_layout

W = TypeVar("W", bound=QWidget)
DOCUMENT_ROLE = Qt.ItemDataRole.UserRole + 1

ETU_COLUMNS = ("Date", "Report received", "Representative", "Unit", "Functional",
               "Contract through", "Document")
PUMP_OUT_COLUMNS = ("Date", "Gallons", "Hauler", "Record received", "Document")
HEADER_TIPS = {"Functional": "Whether the report certifies the unit fully functional and "
                             "operating properly",
               "Representative": "The certified manufacturer's representative (certification)",
               "Hauler": "The NYSDEC-permitted septage hauler (permit)",
               "Document": "The provider's file the record came in; click to open it"}


@dataclass(frozen=True)
class Cell:
    """One cell of a table: its text, its tooltip, whether it is marked (a late report, a
    unit not certified functional, a lapsed contract) and the document it opens."""

    text: str
    tip: str = ""
    marked: bool = False
    document: str | None = None


def _received(day: date, received: date | None, within: int | None, what: str) -> Cell:
    if received is None:
        return Cell("not received", f"No {what} on record", marked=True)
    days = (received - day).days
    if within is not None and days > within:
        return Cell(f"{received.isoformat()}\n{days} days, LATE",
                    f"Received {days} days after the date; the law allows {within}",
                    marked=True)
    return Cell(received.isoformat(), f"Received {days} days after the date")


def _document(sha: str | None, documents: dict[str, dict[str, Any]]) -> Cell:
    if not sha:
        return Cell("")
    found = documents.get(sha)
    if found is None:
        return Cell(f"SHA-256 {sha[:12]}...", f"SHA-256 {sha}", document=sha)
    return Cell(str(found["filename"]), f"Received {found['received_on']}; SHA-256 {sha}. "
                                        "Click to open it.", document=sha)


def etu_rows(inspections: Sequence[EtuInspection], facts: dict[str, Any], today: date
             ) -> list[list[Cell]]:
    """The ETU inspections as the table shows them."""
    within, documents = facts.get("etu_report_within_days"), facts.get("documents", {})
    out = []
    for x in inspections:
        who = "\n".join(t for t in (x.provider_name, x.provider_number) if t)
        functional = (Cell("") if x.fully_functional is None else
                      Cell("yes") if x.fully_functional else
                      Cell("NO", "The report does not certify the unit fully functional",
                           marked=True))
        through = x.service_contract_through
        contract = (Cell("") if through is None else
                    Cell(f"{through.isoformat()}\nlapsed", "The service contract has "
                         "ended", marked=True) if through < today else
                    Cell(through.isoformat()))
        out.append([Cell(x.date.isoformat()),
                    _received(x.date, x.report_received, within, "report"),
                    Cell(who, "Certified manufacturer's representative (certification)"),
                    Cell(x.unit or ""), functional, contract,
                    _document(x.document, documents)])
    return out


def pump_out_rows(pump_outs: Sequence[PumpOut], facts: dict[str, Any]) -> list[list[Cell]]:
    """The pump-outs as the table shows them."""
    within, documents = facts.get("record_within_days"), facts.get("documents", {})
    out = []
    for x in pump_outs:
        who = "\n".join(t for t in (x.hauler_name, x.hauler_permit) if t)
        if not x.record_received:
            received = Cell("not received", "No copy of the pump-out record on file",
                            marked=True)
        elif x.record_received_on is None:
            received = Cell("received", "Received; the day it came in is not recorded")
        else:
            received = _received(x.date, x.record_received_on, within, "record")
        out.append([Cell(x.date.isoformat()),
                    Cell("" if x.volume_gal is None else f"{x.volume_gal:,g}"),
                    Cell(who, "NYSDEC-permitted septage hauler (permit)"), received,
                    _document(x.document, documents)])
    return out


def cell_text(table: QTableWidget, row: int, column: int) -> str:
    """A table's cell as shown ("" for none)."""
    item = table.item(row, column)
    return item.text() if item is not None else ""


class RecordTable(QTableWidget):
    """A read-only table of records; a document cell clicked (or Enter on it) asks for
    the document (`document_requested`, its SHA-256)."""

    document_requested = Signal(str)

    def __init__(self, columns: Sequence[str], name: str) -> None:
        super().__init__(0, len(columns))
        self.setHorizontalHeaderLabels(list(columns))
        for c, column in enumerate(columns):
            header_item = self.horizontalHeaderItem(c)
            if column in HEADER_TIPS and header_item is not None:
                header_item.setToolTip(HEADER_TIPS[column])
        self.setAccessibleName(name)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setTabKeyNavigation(False)  # Tab leaves the table
        self.verticalHeader().hide()
        self.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.horizontalHeader().setStretchLastSection(True)
        self.cellClicked.connect(self._clicked)
        self.itemActivated.connect(lambda item: self._clicked(item.row(), item.column()))
        self.hide()

    def show_rows(self, rows: list[list[Cell]]) -> None:
        self.setRowCount(len(rows))
        mark = QBrush(QColor(themes.active().problem.border))
        for r, cells in enumerate(rows):
            for c, cell in enumerate(cells):
                item = QTableWidgetItem(cell.text)
                item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
                if cell.tip:
                    item.setToolTip(cell.tip)
                if cell.marked:
                    item.setForeground(mark)
                    font = QFont(item.font())
                    font.setBold(True)
                    item.setFont(font)
                if cell.document is not None:
                    item.setData(DOCUMENT_ROLE, cell.document)
                    font = QFont(item.font())
                    font.setUnderline(True)
                    item.setFont(font)
                self.setItem(r, c, item)
        self.resizeRowsToContents()
        self.setVisible(bool(rows))
        # as tall as its rows (up to eight): the form scrolls, not the table
        height = self.horizontalHeader().height() + 2 * self.frameWidth()
        height += sum(self.rowHeight(r) for r in range(min(len(rows), 8)))
        self.setFixedHeight(height + (self.horizontalScrollBar().sizeHint().height()
                                      if rows else 0))

    def text(self, row: int, column: int) -> str:
        return cell_text(self, row, column)

    def _clicked(self, row: int, column: int) -> None:
        item = self.item(row, column)
        sha = item.data(DOCUMENT_ROLE) if item is not None else None
        if sha:
            self.document_requested.emit(str(sha))


class MaintenanceBox(QGroupBox):
    """The maintenance records' fields (`watch` makes each one save when finished) and
    their tables; `show_records(case, today)` fills the tables, `set_facts(facts)` adds
    what the data folder knows beside them (documents, the law's days)."""

    document_requested = Signal(str)

    def __init__(self, watch: Callable[[Any], Any]) -> None:
        super().__init__("Maintenance records")
        form = form_layout(self)
        self.etu_contract: QCheckBox = watch(QCheckBox("ETU service contract on file"))
        self.etu_interval: NumberField = watch(NumberField(
            registry.at("etu.manufacturer_interval_months")))
        self.etu_inspections: FinishedTextEdit = watch(FinishedTextEdit(
            "one ETU inspection per line: inspection date, report received date (blank if "
            "none)"))
        self.hauler: QCheckBox = watch(QCheckBox("Holding-tank hauler contract on file"))
        self.pump_outs: FinishedTextEdit = watch(FinishedTextEdit(
            "one pump-out per line: date, record received yes/no"))
        self.etu_table = RecordTable(ETU_COLUMNS, "ETU inspections as reported")
        self.pump_out_table = RecordTable(PUMP_OUT_COLUMNS, "Pump-outs as recorded")
        for table in (self.etu_table, self.pump_out_table):
            table.document_requested.connect(self.document_requested)
        form.addRow("", self.etu_contract)
        form.addRow(self.etu_interval.title("Manufacturer's interval"), self.etu_interval)
        form.addRow("ETU inspections", self.etu_inspections)
        form.addRow(self.etu_table)
        form.addRow("", self.hauler)
        form.addRow("Pump-outs", self.pump_outs)
        form.addRow(self.pump_out_table)
        self._case: Case | None = None
        self._today = date.today()
        self.facts: dict[str, Any] = {}

    def show_records(self, case: Case | None, today: date | None = None) -> None:
        self._case = case
        if today is not None:
            self._today = today
        inspections = case.etu.inspections if case is not None and case.etu else ()
        pump_outs = (case.holding_tank_service.pump_outs
                     if case is not None and case.holding_tank_service else ())
        self.etu_table.show_rows(etu_rows(inspections, self.facts, self._today))
        self.pump_out_table.show_rows(pump_out_rows(pump_outs, self.facts))

    def set_facts(self, facts: dict[str, Any], today: date | None = None) -> None:
        self.facts = facts
        self.show_records(self._case, today)
