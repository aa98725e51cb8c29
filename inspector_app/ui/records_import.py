"""Records > Import service reports...: a provider's file (ETU service reports or pump-out
records, CSV or .xlsx from the office's template) previewed before anything is stored: the
rows matched to parcels, those refused and why, the late ones. Import stores the file whole,
or, when the clerk ticks it, the good rows alone (`skip_bad`); the same file again stores
nothing. The preview and the import run on the worker, through the service the command line
uses (`services/records/intake.py`)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from pathlib import Path
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

from ..errors import InspectorError
from ..services.records import intake
from ..services.records.documents import named
from ..services.records.provider_files import SHEETS, kind_of
from . import theme as themes
from .context import AppContext
from .date_field import DateField
from .maintenance_box import cell_text
from .red_bar import RedBar, RefusingDialog
from .screen_size import resize_within_screen

# the kinds of file, in the words of the workbook template's sheet
KINDS = SHEETS
MATCHED_COLUMNS = ("Line", "Parcel", "Date", "Provider", "Late", "What it says")
REFUSED_COLUMNS = ("Line", "SBL as written", "Why refused")
SKIP_BAD = "Import the &good rows and leave the refused ones"


def _table(columns: tuple[str, ...], name: str) -> QTableWidget:
    table = QTableWidget(0, len(columns))
    table.setHorizontalHeaderLabels(list(columns))
    table.setAccessibleName(name)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setWordWrap(True)
    table.verticalHeader().hide()
    header = table.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    # the last column (what a row says, why it is refused) takes the rest and wraps
    header.setSectionResizeMode(len(columns) - 1, QHeaderView.ResizeMode.Stretch)
    return table


def _fill(table: QTableWidget, rows: list[tuple[list[str], bool]],
          tips: dict[tuple[int, int], str] | None = None) -> None:
    """Each row's texts, marked rows in the problem colour; a cell's tooltip is its text,
    or what `tips` gives it (by row and column)."""
    mark = QBrush(QColor(themes.active().problem.border))
    table.setRowCount(len(rows))
    for r, (texts, marked) in enumerate(rows):
        for c, text in enumerate(texts):
            item = QTableWidgetItem(text)
            item.setToolTip((tips or {}).get((r, c), text))
            if marked:
                item.setForeground(mark)
                font = QFont(item.font())
                font.setBold(True)
                item.setFont(font)
            table.setItem(r, c, item)
    table.resizeRowsToContents()


def late_words(late: dict[str, Any]) -> str:
    return f"LATE: {late['days']} days (allowed {late['allowed_days']})"


def late_tip(late: dict[str, Any]) -> str:
    return (f"Received {late['received']}, {late['days']} days after {late['date']}; "
            f"{late['citation']} allows {late['allowed_days']} days")


class ImportRecordsDialog(RefusingDialog):
    """The file, its kind and the day it arrived; the preview; Import. `imported(result)`
    is called once the rows are stored (the window shows them)."""

    def __init__(self, ctx: AppContext, parent: QWidget | None = None, *,
                 imported: Callable[[intake.IntakeResult], None] = lambda _r: None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self._imported = imported
        self.path: Path | None = None
        self.preview: intake.IntakeResult | None = None
        self.result_: intake.IntakeResult | None = None
        self._round = 0
        self.setWindowTitle("Import service reports")
        self.file = QLineEdit()
        self.file.setReadOnly(True)
        self.file.setPlaceholderText("a CSV or Excel (.xlsx) file made from the template")
        choose = QPushButton("&Choose...")
        choose.clicked.connect(self.choose_file)
        where = QHBoxLayout()
        where.addWidget(self.file, 1)
        where.addWidget(choose)
        self.kind = QComboBox()
        for key, words in KINDS.items():
            self.kind.addItem(words, key)
        today = ctx.today()
        self.received = DateField(QDate(today.year, today.month, today.day))
        self.received.setToolTip("The day the file reached the office; a row's own report "
                                 "or record date wins")
        form = QFormLayout()
        form.addRow("File", where)
        form.addRow("&Kind", self.kind)
        form.addRow("&Received on", self.received)
        self.summary = QLabel("Choose the file a provider sent.")
        self.summary.setWordWrap(True)
        self.matched = _table(MATCHED_COLUMNS, "Rows to store")
        self.refused = _table(REFUSED_COLUMNS, "Rows refused")
        self.matched_label = QLabel("Rows to store")
        self.refused_label = QLabel("Rows refused")
        self.skip_bad = QCheckBox(SKIP_BAD)
        self.skip_bad.setEnabled(False)
        self.skip_bad.toggled.connect(self._buttons)
        self.problem = RedBar()
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.import_button = self.buttons.addButton(
            "&Import", QDialogButtonBox.ButtonRole.AcceptRole)
        self.import_button.setEnabled(False)
        self.buttons.accepted.connect(self.store)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.summary)
        layout.addWidget(self.matched_label)
        layout.addWidget(self.matched, 3)
        layout.addWidget(self.refused_label)
        layout.addWidget(self.refused, 2)
        layout.addWidget(self.skip_bad)
        layout.addWidget(self.problem)
        layout.addWidget(self.buttons)
        self.kind.currentIndexChanged.connect(lambda _i: self.show_preview())
        self.received.editingFinished.connect(self.show_preview)
        resize_within_screen(self, 1000, 640)

    # --- choosing -----------------------------------------------------------------------

    def choose_file(self) -> None:
        path = self.ctx.files.open_file(self, "provider files", "A provider's file",
                                        tell=self.refuse)
        if path is not None:
            self.set_file(path)

    def set_file(self, path: Path) -> None:
        self.path = path
        self.file.setText(str(path))
        self.show_preview(guess=True)

    def _received(self) -> date | None:
        return self.typed_day(self.received)

    # --- the preview --------------------------------------------------------------------

    def show_preview(self, *, guess: bool = False) -> None:
        """What the file would store, worked out on the worker; nothing stored. A file just
        chosen (`guess`) is read as the kind whose template's columns it has, if any; the
        clerk may choose the other."""
        ws, path, kind = self.ctx.ws, self.path, self.kind.currentData()
        if ws is None or path is None or self.result_ is not None:
            return
        received = self._received()
        if received is None:
            return
        self._round += 1
        round_ = self._round
        self.preview = None
        self.problem.hide()
        self._buttons()
        self.summary.setText(f"Reading {path.name}...")

        def work() -> tuple[intake.IntakeResult, dict[str, Any], str]:
            read_as = (kind_of(path) or kind) if guess else kind
            result = intake.preview_records(ws, path, read_as, received=received)
            return result, named(ws, [result.document]), read_as

        def shown(found: tuple[intake.IntakeResult, dict[str, Any], str]) -> None:
            if round_ != self._round:
                return
            result, documents, read_as = found
            blocker = self.kind.blockSignals(True)
            self.kind.setCurrentIndex(self.kind.findData(read_as))
            self.kind.blockSignals(blocker)
            self._show(result, documents)

        def failed(exc: BaseException) -> None:
            if round_ != self._round:
                return
            self._fill_tables(None)
            self.summary.setText("Nothing can be imported from this file.")
            self.refuse_or_report(exc)

        self.ctx.op(work).success(shown).failure(failed).run()

    def _show(self, result: intake.IntakeResult, documents: dict[str, Any]) -> None:
        self.preview = result
        self._fill_tables(result)
        if result.already_imported:
            kept = documents.get(result.document, {})
            self.summary.setText(
                f"This file was already imported (as {kept.get('filename', 'a file')}, "
                f"received {kept.get('received_on', '')}); importing it again stores "
                "nothing.")
        else:
            self.summary.setText(self.preview_words(result))
        self._buttons()

    @staticmethod
    def preview_words(result: intake.IntakeResult) -> str:
        parts = [f"{len(result.matched)} row{'s' if len(result.matched) != 1 else ''} "
                 "to store"]
        if result.refused:
            parts.append(f"{len(result.refused)} refused")
        if result.late:
            parts.append(f"{len(result.late)} late")
        if result.already_on_record:
            parts.append(f"{len(result.already_on_record)} already on record")
        said = ", ".join(parts) + "."
        if result.refused:
            said += (" Nothing is imported while rows are refused, unless you tick the box "
                     "below to import the good rows alone.")
        return said

    def _fill_tables(self, result: intake.IntakeResult | None) -> None:
        late = {x["line"]: x for x in (result.late if result else [])}
        matched = result.matched if result else []
        _fill(self.matched, [([str(m["line"]), m["sbl"], m["date"], m["provider"],
                               late_words(late[m["line"]]) if m["line"] in late else "",
                               m["says"]], m["line"] in late) for m in matched],
              {(r, 4): late_tip(late[m["line"]]) for r, m in enumerate(matched)
               if m["line"] in late})
        _fill(self.refused, [([str(r.line), r.sbl, r.reason], True)
                             for r in (result.refused if result else [])])
        self.matched_label.setText(f"Rows to store ({self.matched.rowCount()})")
        self.refused_label.setText(f"Rows refused ({self.refused.rowCount()})")

    def _buttons(self) -> None:
        p = self.preview
        done = self.result_ is not None
        self.skip_bad.setEnabled(bool(p and p.refused and not p.already_imported
                                      and not done))
        self.import_button.setEnabled(bool(
            p is not None and not done and not p.already_imported
            and (p.matched or p.already_on_record)
            and (not p.refused or self.skip_bad.isChecked())))

    # --- importing ----------------------------------------------------------------------

    def store(self) -> None:
        ws, path, kind, p = self.ctx.ws, self.path, self.kind.currentData(), self.preview
        received = self._received()
        if ws is None or path is None or p is None or received is None or \
                not self.import_button.isEnabled():
            return
        skip_bad = self.skip_bad.isChecked()
        self.import_button.setEnabled(False)
        self.problem.hide()

        def stored(result: intake.IntakeResult) -> None:
            self.result_ = result
            self._fill_tables(result)
            self.summary.setText(self.done_words(result, path))
            self.buttons.button(QDialogButtonBox.StandardButton.Cancel).setText("Close")
            self._buttons()
            self.ctx.say(self.done_words(result, path))
            self._imported(result)

        def failed(exc: BaseException) -> None:
            report = getattr(exc, "report", None)
            if isinstance(exc, InspectorError) and isinstance(report, dict):
                self.show_preview()  # the file as it is now, and why it is refused
            self._buttons()
            self.refuse_or_report(exc)

        self.ctx.op(lambda: intake.import_records(ws, path, kind, received=received,
                                                  skip_bad=skip_bad)
                    ).success(stored).failure(failed).run()

    @staticmethod
    def done_words(result: intake.IntakeResult, path: Path) -> str:
        if result.already_imported:
            return f"{path.name} was already imported; nothing was stored."
        words = (f"Imported {path.name}: {result.imported} "
                 f"record{'s' if result.imported != 1 else ''} stored")
        if result.refused:
            words += f", {len(result.refused)} refused rows left out"
        if result.late:
            words += f", {len(result.late)} late"
        return words + "."

    def table_texts(self, table: QTableWidget) -> list[list[str]]:
        return [[cell_text(table, r, c)
                 for c in range(table.columnCount())] for r in range(table.rowCount())]
