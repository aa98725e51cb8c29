"""The parcel list's models: the parcels with their work-list flags, and the rows shown
(search, work list, order)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

from ..domain.sbl import sbl_sort_key

WORK_LISTS = {
    "all": "All parcels",
    "five_year": "Five-year inspection due or overdue",
    "within": "Within 200 ft of the lake",
    "undetermined": "Lake distance undetermined",
    "failure": "Failures",
    "substandard": "Substandard",
    "etu": "ETU records missing or late",
    "holding": "Holding-tank records missing",
    "conflicts": "Sync conflicts",
    "letters": "Letters pending",
    "no_law": "No law on file for the municipality",
}

def lot_estimate_tip(estimate: dict[str, Any]) -> str:
    """What a lot estimate rests on, and what it is not."""
    return (f"{estimate['words'].capitalize()}: the lot line is {estimate['distance_ft']:,.1f} "
            f"ft (±{estimate['accuracy_ft']:,.0f} ft) from the lake line on {estimate['layer']}. "
            "A first estimate for the work lists, not the distance of the absorption area or "
            "holding tank: locate the system or measure it in the field.")


COLUMNS = (("sbl", "SBL"), ("site_address", "Site address"), ("owner_name", "Owner"),
           ("municipality", "Municipality"), ("outcome", "Outcome"), ("zone", "Lake"))
# The columns the work lists fill in (the others come with the parcel list).
OVERVIEW_COLUMNS = ("outcome", "zone")
_Index = QModelIndex | QPersistentModelIndex
SORT_ROLE = Qt.ItemDataRole.UserRole + 1
ROW_ROLE = Qt.ItemDataRole.UserRole + 2


class ParcelTableModel(QAbstractTableModel):
    def __init__(self, rows: list[dict[str, Any]]) -> None:
        super().__init__()
        self.rows: list[dict[str, Any]] = []
        self.searched: list[str] = []
        self.replace(rows)

    def replace(self, rows: list[dict[str, Any]]) -> None:
        # What the search looks in, worked out once, not on every keystroke, and kept in
        # a list of its own (a keystroke reads one string a row, no row's dictionary).
        searched = [f"{r['sbl']}|{r['site_address']}|{r['owner_name']}".casefold()
                    for r in rows]
        self.beginResetModel()
        self.rows, self.searched = rows, searched
        self.endResetModel()

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        row = self.rows[index.row()]
        key = COLUMNS[index.column()][0]
        value = row.get(key) or ""
        estimate = row.get("lot_estimate") if key == "zone" else None
        if role == Qt.ItemDataRole.DisplayRole:
            shown = str(value).replace("_", " ")
            # never the system's distance: the lot's, said as an estimate beside the zone
            return f"{shown} · {estimate['words']} (estimate)" if estimate else shown
        if role == Qt.ItemDataRole.ToolTipRole and estimate:
            return lot_estimate_tip(estimate)
        if role == SORT_ROLE:
            return sbl_sort_key(row["sbl"]) if index.column() == 0 else str(value).casefold()
        if role == ROW_ROLE:
            return row
        return None

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return COLUMNS[section][1]
        return None


class ParcelFilter(QAbstractTableModel):
    """The parcel list as shown: a text search over SBL, address and owner, a work list,
    and the order of a clicked header, over the rows of a `ParcelTableModel`.

    The rows shown are worked out in one pass in Python, not asked of Python row by row
    from Qt as a QSortFilterProxyModel would: with 20,000 parcels each such call costs more
    than the search, and far more while the worker thread is busy."""

    def __init__(self) -> None:
        super().__init__()
        self.work_list = "all"
        self.text = ""
        self._source = ParcelTableModel([])
        self._shown: list[int] = []  # source rows, in the order shown
        self._positions: dict[int, int] | None = {}  # source row -> row shown, when asked
        self._order: tuple[int, Qt.SortOrder] = (-1, Qt.SortOrder.AscendingOrder)

    def setSourceModel(self, model: ParcelTableModel) -> None:
        self._source = model
        model.modelReset.connect(self._source_reset)
        model.dataChanged.connect(self._source_changed)
        self._source_reset()

    def sourceModel(self) -> ParcelTableModel:
        return self._source

    @property
    def _position(self) -> dict[int, int]:
        """Source row -> row shown, worked out when first asked after the rows changed
        (a keystroke in the search needs only the rows)."""
        if self._positions is None:
            self._positions = {source: i for i, source in enumerate(self._shown)}
        return self._positions

    def set_work_list(self, name: str) -> None:
        self.work_list = name
        self._show(self._wanted())

    def set_text(self, text: str) -> None:
        self.text = text.casefold().strip()
        self._show(self._wanted())

    def row_of(self, sbl: str) -> int | None:
        """The row a parcel is shown at, or None when it is not shown."""
        for source_row, r in enumerate(self._source.rows):  # C speed: no Qt call per row
            if r["sbl"] == sbl:
                return self._position.get(source_row)
        return None

    def _wanted(self) -> list[int]:
        needle, work_list = self.text, self.work_list
        source = self._source.rows
        rows = ([i for i, text in enumerate(self._source.searched) if needle in text]
                if needle else list(range(len(source))))
        if work_list != "all":
            rows = [i for i in rows if source[i].get("flags", {}).get(work_list)]
        column, order = self._order
        if column >= 0:
            key = COLUMNS[column][0]
            rows.sort(key=(lambda i: sbl_sort_key(source[i]["sbl"])) if column == 0 else (
                lambda i: str(source[i].get(key) or "").casefold()),
                reverse=order == Qt.SortOrder.DescendingOrder)
        return rows

    def _show(self, rows: list[int]) -> None:
        """Show other rows: the old ones go and the new ones come, in two signals (a view
        keeps its column widths; the caller selects the open parcel again, see
        `MainWindow._filter`). Nothing happens when the same rows stay."""
        if rows == self._shown:
            return
        if self._shown:
            self.beginRemoveRows(QModelIndex(), 0, len(self._shown) - 1)
            self._shown, self._positions = [], {}
            self.endRemoveRows()
        if rows:
            self.beginInsertRows(QModelIndex(), 0, len(rows) - 1)
            self._shown, self._positions = rows, None
            self.endInsertRows()

    def _source_reset(self) -> None:
        self.beginResetModel()
        self._shown, self._positions = self._wanted(), None
        self.endResetModel()

    def _source_changed(self, top_left: QModelIndex, bottom_right: QModelIndex,
                        roles: Any = ()) -> None:
        """New values in the rows shown. Which rows are shown changes when the work list
        or the text does (the work lists set their list again once worked out)."""
        shown = [self._position[r] for r in range(top_left.row(), bottom_right.row() + 1)
                 if r in self._position]
        if shown:
            self.dataChanged.emit(self.index(min(shown), top_left.column()),
                                  self.index(max(shown), bottom_right.column()))

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Order by a column (-1: tax-map order, as listed); the selection stays."""
        self.layoutAboutToBeChanged.emit()
        before = self.persistentIndexList()
        sources = [self._shown[i.row()] if 0 <= i.row() < len(self._shown) else None
                   for i in before]
        self._order = (column, order)
        self._shown, self._positions = self._wanted(), None
        self.changePersistentIndexList(before, [
            QModelIndex() if s is None or s not in self._position
            else self.index(self._position[s], i.column())
            for s, i in zip(sources, before, strict=True)])
        self.layoutChanged.emit()

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._shown)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or index.row() >= len(self._shown):
            return None
        return self._source.data(self._source.index(self._shown[index.row()],
                                                    index.column()), role)

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        return self._source.headerData(section, orientation, role)
