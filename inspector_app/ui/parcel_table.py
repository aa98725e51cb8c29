"""The parcel list's table: the columns a person looks for first fit the width it has.

The list is narrow beside the workbench (about 400 px on a 1280-px screen), so fixed
widths cut the site address off at the edge and left the owner out of sight. Here the
key column (SBL) gets the width of its text, the main columns (address, owner) share what
is left, and the others follow (scroll right). A long text is shortened with "…" and
shown whole in its tooltip. Once the user drags a column's edge, the widths are theirs.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import QApplication, QTableView, QToolTip, QWidget

SAMPLE_ROWS = 400      # rows measured for the widths; a roll has parcels of every length
MOST = 340             # no column wider than this, however long its longest text


class ParcelTable(QTableView):
    def __init__(self, parent: QWidget | None = None, *, key: int = 0,
                 main: tuple[int, ...] = (1, 2)) -> None:
        super().__init__(parent)
        self.key, self.main = key, main
        self.sized_by_user = False
        self._fitting = False
        self._wanted: dict[int, int] = {}  # measured once per change of rows or font
        self.setWordWrap(False)
        self.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.horizontalHeader().sectionResized.connect(self._section_resized)

    def setModel(self, model: Any) -> None:
        super().setModel(model)
        model.modelReset.connect(self.remeasure)
        model.layoutChanged.connect(self.remeasure)
        model.dataChanged.connect(lambda *_: self._wanted.clear())

    def remeasure(self) -> None:
        """Measure the texts again and fit the columns to them."""
        self._wanted.clear()
        self.fit_columns()

    def _section_resized(self, *_args: Any) -> None:
        if not self._fitting and QApplication.mouseButtons() & Qt.MouseButton.LeftButton:
            self.sized_by_user = True

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        self.fit_columns()

    def changeEvent(self, event: Any) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self.remeasure()

    def is_cut(self, row: int, column: int) -> bool:
        """Whether the text of a cell is wider than its column (shown shortened)."""
        text = self.model().index(row, column).data()
        room = self.columnWidth(column) - self.fontMetrics().horizontalAdvance("M")
        return bool(text) and self.fontMetrics().horizontalAdvance(str(text)) > room

    def tooltip_at(self, pos: Any) -> str:
        """A cell's own tooltip (what a shown estimate rests on), else all of a shortened
        cell's text; nothing for a cell shown whole."""
        index = self.indexAt(pos)
        if not index.isValid():
            return ""
        own = index.data(Qt.ItemDataRole.ToolTipRole)
        if own:
            return str(own)
        if not self.is_cut(index.row(), index.column()):
            return ""
        return str(index.data())

    def viewportEvent(self, event: Any) -> bool:
        if event.type() == QEvent.Type.ToolTip:
            text = self.tooltip_at(event.pos())
            if text:
                QToolTip.showText(event.globalPos(), text, self.viewport())
            else:
                QToolTip.hideText()
                event.ignore()
            return True
        return super().viewportEvent(event)

    def wanted_width(self, column: int) -> int:
        """The width of a column's header and of the longest text of the first rows."""
        if column not in self._wanted:
            self._wanted[column] = self._measure(column)
        return self._wanted[column]

    def _measure(self, column: int) -> int:
        model = self.model()
        metrics = self.fontMetrics()
        pad = metrics.horizontalAdvance("MM")
        header = model.headerData(column, Qt.Orientation.Horizontal) if model else ""
        widest = self.horizontalHeader().fontMetrics().horizontalAdvance(str(header or ""))
        rows = model.rowCount() if model is not None else 0
        for row in range(min(rows, SAMPLE_ROWS)):
            text = model.index(row, column).data()
            if text:
                widest = max(widest, metrics.horizontalAdvance(str(text)))
        return min(widest + pad, MOST)

    def fit_columns(self) -> None:
        model = self.model()
        if model is None or self.sized_by_user:
            return
        self._fitting = True
        try:
            metrics = self.fontMetrics()
            least = metrics.horizontalAdvance("x" * 10)
            room = self.viewport().width()
            key = self.wanted_width(self.key)
            wanted = {c: self.wanted_width(c) for c in self.main}
            self.setColumnWidth(self.key, key)
            left = room - key
            if sum(wanted.values()) > left:  # share what is left, by how much each wants
                total = sum(wanted.values()) or 1
                wanted = {c: max(least, left * w // total) for c, w in wanted.items()}
            for column, width in wanted.items():
                self.setColumnWidth(column, width)
            for column in range(model.columnCount()):
                if column != self.key and column not in self.main:
                    self.setColumnWidth(column, self.wanted_width(column))
        finally:
            self._fitting = False
