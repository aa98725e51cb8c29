"""The History tab: every change to the parcel's records, newest first, in words."""

from __future__ import annotations

from datetime import datetime, tzinfo
from typing import Any

from PySide6.QtCore import QEvent, Qt, QTimer
from PySide6.QtWidgets import (
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ..domain.labels import HistoryLine, history_lines, zone_name

COLUMNS = ("When", "Who, on device", "Change")
WHEN, WHO, CHANGE = range(3)
SHOWN_AT_MOST = 500


class HistoryView(QWidget):
    """When, who on which device, and what changed ("Bedrooms: 3 -> 4"), newest first.

    The change column takes the width left and wraps, so a change is read whole."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tz: tzinfo | None = None  # the computer's own zone
        self.lines: list[HistoryLine] = []
        self.documents: dict[str, str] = {}  # the file names of documents, by SHA-256
        self.caption = QLabel()
        self.caption.setWordWrap(True)
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(list(COLUMNS))
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.table.setWordWrap(True)
        self.table.setVerticalScrollMode(QTableWidget.ScrollMode.ScrollPerPixel)
        self.table.setAlternatingRowColors(True)
        self.table.verticalHeader().hide()
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        header.setMinimumSectionSize(60)
        # Rows as tall as their change needs at the width the change column has; measured
        # when the tab is in sight (opening parcels with the tab hidden costs nothing).
        self._rows_measured = True
        self._measure = QTimer(self, singleShot=True, interval=0)
        self._measure.timeout.connect(self._fit_rows)
        header.sectionResized.connect(self._section_resized)
        for column, tip in ((WHO, "Who made the change, and on which laptop or office "
                                  "computer"),
                            (WHEN, "Local time; the stored time (UTC) is in each time's "
                                   "tooltip")):
            item = QTableWidgetItem(COLUMNS[column])
            item.setToolTip(tip)
            self.table.setHorizontalHeaderItem(column, item)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.caption)
        layout.addWidget(self.table, 1)
        self._fit_columns()

    # Date over time, person over device: the change column gets the room.
    @staticmethod
    def when(line: HistoryLine) -> str:
        return line.when.replace(" ", "\n", 1)

    @staticmethod
    def who(line: HistoryLine) -> str:
        return f"{line.who}\non {line.device}" if line.device else line.who

    def _fit_columns(self) -> None:
        """When and who as wide as their texts (within reason); the change gets the rest."""
        metrics = self.table.fontMetrics()
        header = self.table.horizontalHeader().fontMetrics()
        pad = 2 * metrics.horizontalAdvance("M")
        samples = (("2026-12-31", "23:59 EST"),
                   tuple(part for x in self.lines[:200] for part in self.who(x).split("\n")))
        for column, texts in enumerate(samples):
            widest = max([header.horizontalAdvance(COLUMNS[column]),
                          *(metrics.horizontalAdvance(t) for t in texts)])
            self.table.setColumnWidth(column, min(widest + pad, 200))

    def changeEvent(self, event: Any) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self._fit_columns()
            self._rows_changed()

    def _section_resized(self, column: int, _old: int, _new: int) -> None:
        if column == CHANGE:
            self._rows_changed()

    def _rows_changed(self) -> None:
        self._rows_measured = False
        if self.isVisible():
            self._measure.start()

    def _fit_rows(self) -> None:
        if self.isVisible() and not self._rows_measured:
            self.table.resizeRowsToContents()
            self._rows_measured = True

    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        if not self._rows_measured:
            self._fit_rows()

    def show_history(self, rows: list[dict[str, Any]],
                     documents: dict[str, str] | None = None) -> None:
        """Show a parcel's change log (oldest first, as the workspace gives it); a document
        taken in is named by its file name (`documents`, by SHA-256)."""
        self.documents = documents or {}
        self.lines = history_lines(rows, tz=self.tz, documents=self.documents)
        shown = self.lines[:SHOWN_AT_MOST]
        self.table.setRowCount(len(shown))
        for r, line in enumerate(shown):
            stored = f"Stored as {line.at}" if line.at else ""
            for c, (text, tip) in enumerate(((self.when(line), stored), (self.who(line), ""),
                                             (line.change, ""))):
                item = QTableWidgetItem(text)
                item.setTextAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
                if tip:
                    item.setToolTip(tip)
                self.table.setItem(r, c, item)
        self._fit_columns()
        self._rows_changed()
        if not self.lines:
            self.caption.setText("No changes recorded for this parcel yet.")
            return
        zone = zone_name(datetime.now().astimezone(self.tz))
        count = (f"The newest {len(shown):,} of {len(self.lines):,} changes"
                 if len(shown) < len(self.lines) else
                 f"{len(self.lines):,} change{'s' if len(self.lines) != 1 else ''}")
        self.caption.setText(f"{count}, newest first. Times are local time ({zone}).")

    def change_text(self, row: int) -> str:
        item = self.table.item(row, CHANGE)
        return item.text() if item is not None else ""
