"""Records > Providers...: the ETU representatives, septage haulers and private certified
inspectors the office knows by certification or permit number; one added, or the name,
company or validity of the one selected changed. Everything goes through the providers
service the command line uses (`services/reference/providers.py`); a refusal is said in the
dialog's red bar and nothing is recorded."""

from __future__ import annotations

from datetime import date
from typing import Any

from PySide6.QtCore import QDate
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDialogButtonBox,
    QFormLayout,
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

from ..domain.records import PROVIDER_KINDS
from ..services.reference import providers as service
from . import theme as themes
from .context import AppContext
from .date_field import DateField
from .maintenance_box import cell_text
from .red_bar import RedBar, RefusingDialog
from .screen_size import resize_within_screen

KIND_WORDS = {"etu-representative": "ETU representative", "hauler": "Septage hauler",
              "inspector": "Certified inspector"}
COLUMNS = ("Kind", "Name", "Number", "Company", "Valid through", "Valid")
KIND, NAME, NUMBER, COMPANY, THROUGH, VALID = range(len(COLUMNS))


class ProvidersDialog(RefusingDialog):
    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.rows: list[dict[str, Any]] = []
        self.setWindowTitle("Providers")
        about = QLabel("The providers whose reports and records the office takes in, by "
                       "certification or NYSDEC permit number. A record naming a number not "
                       "listed here, or one no longer valid on the record's date, is "
                       "refused. Select one to change its name, company or validity.")
        about.setWordWrap(True)
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(list(COLUMNS))
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().hide()
        self.table.setAccessibleName("Providers")
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        self.table.itemSelectionChanged.connect(self._selected)
        self.kind = QComboBox()
        for kind in PROVIDER_KINDS:
            self.kind.addItem(KIND_WORDS.get(kind, kind), kind)
        self.name = QLineEdit()
        self.number = QLineEdit()
        self.number.setPlaceholderText("as on the certificate or permit, e.g. NW-4471")
        self.company = QLineEdit()
        self.company.setPlaceholderText("optional")
        self.dated = QCheckBox("Valid through")
        self.dated.setChecked(True)
        today = ctx.today()
        self.through = DateField(QDate(today.year + 1, today.month, min(today.day, 28)))
        self.dated.toggled.connect(self.through.setEnabled)
        when = QHBoxLayout()
        when.addWidget(self.dated)
        when.addWidget(self.through)
        when.addStretch()
        form = QFormLayout()
        form.addRow("&Kind", self.kind)
        form.addRow("N&ame", self.name)
        form.addRow("N&umber", self.number)
        form.addRow("&Company", self.company)
        form.addRow("", when)
        self.add_button = QPushButton("&Add")
        self.add_button.setToolTip("Register a new provider with the kind, name, number, "
                                   "company and validity above")
        self.add_button.clicked.connect(self.add)
        self.change_button = QPushButton("C&hange selected")
        self.change_button.setToolTip("Give the provider selected in the list the name, "
                                      "company and validity above (its kind and number stay)")
        self.change_button.clicked.connect(self.change)
        self.change_button.setEnabled(False)
        actions = QHBoxLayout()
        actions.addWidget(self.add_button)
        actions.addWidget(self.change_button)
        actions.addStretch()
        self.problem = RedBar()
        self.said = QLabel()
        self.said.setWordWrap(True)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        close.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(about)
        layout.addWidget(self.table, 1)
        layout.addLayout(form)
        layout.addLayout(actions)
        layout.addWidget(self.problem)
        layout.addWidget(self.said)
        layout.addWidget(close)
        resize_within_screen(self, 820, 560)
        self.load()

    # --- the list ---------------------------------------------------------------------

    def load(self, then_select: tuple[str, str] | None = None) -> None:
        ws = self.ctx.ws
        if ws is None:
            return
        self.ctx.op(lambda: service.list_providers(ws)).success(
            lambda rows: self.show_rows(rows, then_select)).failure(
            self.refuse_or_report).run()

    def show_rows(self, rows: list[dict[str, Any]],
                  select: tuple[str, str] | None = None) -> None:
        self.rows = rows
        mark = QBrush(QColor(themes.active().problem.border))
        blocker = self.table.blockSignals(True)
        try:
            self.table.setRowCount(len(rows))
            for r, p in enumerate(rows):
                valid = "yes" if p["valid"] else "EXPIRED"
                for c, text in enumerate((KIND_WORDS.get(p["kind"], p["kind"]), p["name"],
                                          p["number"], p["company"] or "",
                                          p["valid_through"] or "(no end date)", valid)):
                    item = QTableWidgetItem(text)
                    if not p["valid"]:
                        item.setForeground(mark)
                        item.setToolTip(f"Valid through {p['valid_through']}: records dated "
                                        "after that day naming this number are refused")
                        if c == VALID:
                            font = QFont(item.font())
                            font.setBold(True)
                            item.setFont(font)
                    self.table.setItem(r, c, item)
        finally:
            self.table.blockSignals(blocker)
        self.table.clearSelection()
        if select is not None:
            for r, p in enumerate(rows):
                if (p["kind"], p["number"]) == select:
                    self.table.selectRow(r)
        self._selected()

    def selected(self) -> dict[str, Any] | None:
        rows = {i.row() for i in self.table.selectedIndexes()}
        return self.rows[min(rows)] if len(rows) == 1 and min(rows) < len(self.rows) else None

    def _selected(self) -> None:
        """The provider selected, in the fields below, to be changed."""
        p = self.selected()
        self.change_button.setEnabled(p is not None)
        if p is None:
            return
        self.kind.setCurrentIndex(max(self.kind.findData(p["kind"]), 0))
        self.name.setText(p["name"])
        self.number.setText(p["number"])
        self.company.setText(p["company"] or "")
        self.dated.setChecked(p["valid_through"] is not None)
        if p["valid_through"]:
            day = date.fromisoformat(p["valid_through"])
            self.through.setDate(QDate(day.year, day.month, day.day))

    # --- recording --------------------------------------------------------------------

    def _through(self) -> tuple[bool, date | None]:
        """(the date field could be read, the day it holds if one is given)."""
        if not self.dated.isChecked():
            return True, None
        day = self.typed_day(self.through)
        return day is not None, day

    def add(self) -> None:
        ws = self.ctx.ws
        read, through = self._through()
        if ws is None or not read:
            return
        kind, name, number = self.kind.currentData(), self.name.text(), self.number.text()
        company = self.company.text()
        self._record(lambda: service.add_provider(ws, kind=kind, name=name, number=number,
                                                  company=company, valid_through=through),
                     "Added")

    def change(self) -> None:
        ws, p = self.ctx.ws, self.selected()
        read, through = self._through()
        if ws is None or p is None or not read:
            return
        kind, number, name, company = p["kind"], p["number"], self.name.text(), \
            self.company.text()
        self._record(lambda: service.set_provider(
            ws, kind=kind, number=number, name=name if name.strip() != p["name"] else None,
            company=company if company.strip() != (p["company"] or "") else None,
            valid_through=through if through is not None and through.isoformat() !=
            p["valid_through"] else None), "Changed")

    def _record(self, work: Any, done_words: str) -> None:
        self.problem.hide()
        for button in (self.add_button, self.change_button):
            button.setEnabled(False)

        def recorded(p: dict[str, Any]) -> None:
            self.add_button.setEnabled(True)
            text = (f"{done_words} {KIND_WORDS.get(p['kind'], p['kind']).lower()} "
                    f"{p['name']} ({p['number']})"
                    + (f", valid through {p['valid_through']}" if p["valid_through"] else "")
                    + ("" if p["valid"] else " (expired)") + ".")
            self.said.setText(text)
            self.ctx.say(text)
            self.load((p["kind"], p["number"]))

        def failed(exc: BaseException) -> None:
            self.add_button.setEnabled(True)
            self.change_button.setEnabled(self.selected() is not None)
            self.refuse_or_report(exc)

        self.ctx.op(work).success(recorded).failure(failed).run()

    def row_texts(self) -> list[list[str]]:
        """The list as shown, cell by cell."""
        return [[cell_text(self.table, r, c)
                 for c in range(len(COLUMNS))] for r in range(self.table.rowCount())]

    def marked(self, row: int) -> bool:
        """Whether a row is shown marked (an expired certification or permit)."""
        item = self.table.item(row, VALID)
        return item is not None and item.font().bold()

