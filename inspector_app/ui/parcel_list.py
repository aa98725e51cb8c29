"""The parcel list: the work lists, the search and the table of parcels, on the window's
left. Choosing a row opens the parcel in the workbench; the work lists are worked out on
the worker once the window shows, in chunks, so opening a parcel meanwhile never waits
for all of them."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import (
    QComboBox,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from ..domain.sbl import sbl_key, sbl_sort_key
from .context import AppContext
from .ops import Op
from .parcel_table import ParcelTable

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
    "requests": "Inspection requested (earliest due first)",
    "etu_not_functional": "ETU not certified functional",
    "etu_contracts": "ETU service contracts expiring",
}
# Work lists shown in an order of their own until a header is clicked: the row's key.
WORK_LIST_ORDER = {"requests": "request_due"}
# The work lists read from the ETU service reports on record rather than from the
# parcels' summaries: the list of the same name in `worklists`, and what a row says in the
# column "Listed for".
RECORD_LISTS = {"etu_not_functional": "etu-not-functional",
                "etu_contracts": "etu-contracts-expiring"}


def listed_words(work_list: str, item: dict[str, Any]) -> str:
    """Why a parcel is on a list read from the reports, in a few words."""
    by = f" by {item['provider']} ({item['certification_number']})" if item.get(
        "provider") else ""
    if work_list == "etu_not_functional":
        return (f"NOT functional in the report of {item['service_date']}{by}, "
                f"{item['days_since']} days ago")
    return (f"contract through {item['contract_through']} ({item['days_left']} days left)"
            f"; last report {item['service_date']}{by}")

def lot_estimate_tip(estimate: dict[str, Any]) -> str:
    """What a lot estimate rests on, and what it is not."""
    return (f"{estimate['words'].capitalize()}: the lot line is {estimate['distance_ft']:,.1f} "
            f"ft (±{estimate['accuracy_ft']:,.0f} ft) from the lake line on {estimate['layer']}. "
            "A first estimate for the work lists, not the distance of the absorption area or "
            "holding tank: locate the system or measure it in the field.")


COLUMNS = (("sbl", "SBL"), ("site_address", "Site address"), ("owner_name", "Owner"),
           ("municipality", "Municipality"), ("outcome", "Outcome"), ("zone", "Lake"),
           ("listed", "Listed for"))
# shown beside the SBL, only while a list read from the reports is chosen
LISTED = len(COLUMNS) - 1
# The columns the work lists fill in (the others come with the parcel list).
OVERVIEW_COLUMNS = ("outcome", "zone")
_Index = QModelIndex | QPersistentModelIndex
SORT_ROLE = Qt.ItemDataRole.UserRole + 1
ROW_ROLE = Qt.ItemDataRole.UserRole + 2


class ParcelTableModel(QAbstractTableModel):
    def __init__(self, rows: list[dict[str, Any]]) -> None:
        super().__init__()
        self.rows: list[dict[str, Any]] = []
        self.work_list = "all"  # the one whose "Listed for" the column shows
        self.searched: list[str] = []
        self.keys: list[tuple[str, ...] | None] = []
        self.replace(rows)

    def replace(self, rows: list[dict[str, Any]]) -> None:
        # What the search looks in, worked out once, not on every keystroke, and kept in
        # a list of its own (a keystroke reads one string a row, no row's dictionary).
        searched = [f"{r['sbl']}|{r['site_address']}|{r['owner_name']}".casefold()
                    for r in rows]
        keys = [sbl_key(r["sbl"]) for r in rows]  # a tax map number typed in any spelling
        self.beginResetModel()
        self.rows, self.searched, self.keys = rows, searched, keys
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
        value = self.value(row, key)
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

    def value(self, row: dict[str, Any], key: str) -> Any:
        if key == "listed":
            return row.get("listed", {}).get(self.work_list, "")
        return row.get(key) or ""


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
        self.work_list = self._source.work_list = name
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
        if needle:
            # the text anywhere, or the same tax map number in another spelling
            # ("503689-13.-3-1" or the 26-digit SBL finds 13.00-3-1)
            wanted, keys = sbl_key(needle), self._source.keys
            rows = [i for i, text in enumerate(self._source.searched)
                    if needle in text or (wanted is not None and keys[i] == wanted)]
        else:
            rows = list(range(len(source)))
        if work_list != "all":
            rows = [i for i in rows if source[i].get("flags", {}).get(work_list)]
        column, order = self._order
        own = WORK_LIST_ORDER.get(work_list)
        if column < 0 and own is not None:
            rows.sort(key=lambda i: (source[i].get(own) or "", sbl_sort_key(source[i]["sbl"])))
        if column >= 0:
            key = COLUMNS[column][0]
            value = self._source.value
            rows.sort(key=(lambda i: sbl_sort_key(source[i]["sbl"])) if column == 0 else (
                lambda i: str(value(source[i], key)).casefold()),
                reverse=order == Qt.SortOrder.DescendingOrder)
        return rows

    def _show(self, rows: list[int]) -> None:
        """Show other rows: the old ones go and the new ones come, in two signals (a view
        keeps its column widths; the caller selects the open parcel again, see
        `ParcelList._filter`). Nothing happens when the same rows stay."""
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


class ParcelList(QWidget):
    """The window's left pane: what the data folder is (demo data, a coarse shoreline
    layer), the work list, the search, the parcels and how many are shown.

    `open_parcel(sbl)` opens the parcel chosen; `wanted()` names the parcel open or being
    opened, which stays selected whatever the list shows."""

    # Each chunk of the work lists is sized to take about this long on the worker (from
    # the time the last one took), so that whatever the user asks for meanwhile waits no
    # longer: a few hundred parcels whose summaries are worked out, a few thousand read.
    OVERVIEW_CHUNK_S = 0.03
    OVERVIEW_CHUNK = (100, 2000)  # fewest and most parcels in a chunk

    def __init__(self, ctx: AppContext, *, open_parcel: Callable[[str], None],
                 wanted: Callable[[], str | None], install_demo: Callable[[], None]) -> None:
        super().__init__()
        self.ctx = ctx
        self._open_parcel = open_parcel
        self._wanted = wanted
        self._filtering = False
        self._overview_round = 0
        self._row_of: dict[str, int] = {}  # SBL -> row of the model, as the lists began
        self.demo_banner = QLabel("Demo data: the parcels marked (demo) are invented "
                                  "examples, not town records.")
        self.demo_banner.setWordWrap(True)
        self.demo_banner.setProperty("tone", "notice")  # colours: ui/theme.py
        self.layer_warning = QLabel()
        self.layer_warning.setWordWrap(True)
        self.layer_warning.setProperty("tone", "warning")
        self.work_list = QComboBox()
        for key, label in WORK_LISTS.items():
            self.work_list.addItem(label, key)
        self.work_list.currentIndexChanged.connect(lambda: self._work_list_chosen())
        self.search = QLineEdit(placeholderText="Search by SBL, address or owner (Ctrl+F); "
                                                "Enter opens")
        self.search.setClearButtonEnabled(True)
        self.model = ParcelTableModel([])
        self.proxy = ParcelFilter()
        self.proxy.setSourceModel(self.model)
        self.search.textChanged.connect(lambda t: self._filter(lambda: self.proxy.set_text(t)))
        self.search.returnPressed.connect(self.open_found)
        self.table = self._table()
        self.count = QLabel()
        self.load_demo = QPushButton("Load the demo parcels")
        self.load_demo.clicked.connect(install_demo)
        self.lists_state = QLabel()  # shown in the status bar
        layout = QVBoxLayout(self)
        layout.addWidget(self.demo_banner)
        layout.addWidget(self.layer_warning)
        layout.addWidget(QLabel("Work list"))
        layout.addWidget(self.work_list)
        layout.addWidget(self.search)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.count)
        layout.addWidget(self.load_demo)

    def _table(self) -> ParcelTable:
        table = ParcelTable(key=0, main=(1, 2))  # SBL; address and owner share the rest
        table.setModel(self.proxy)
        # Rows arrive in tax-map order; the proxy sorts only when a header is clicked, so
        # filtering 20,000 parcels never re-sorts them.
        table.setSortingEnabled(True)
        table.horizontalHeader().setSortIndicatorShown(False)
        self.proxy.sort(-1)
        table.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        table.setSelectionMode(QTableView.SelectionMode.SingleSelection)
        table.setTabKeyNavigation(False)  # Tab leaves the list; arrows move in it
        table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        table.horizontalHeader().setStretchLastSection(True)
        table.verticalHeader().hide()
        table.setWordWrap(False)
        table.verticalHeader().setDefaultSectionSize(24)
        table.selectionModel().currentRowChanged.connect(self._row_selected)
        table.horizontalHeader().moveSection(LISTED, 1)
        table.setColumnHidden(LISTED, True)
        return table

    def _work_list_chosen(self) -> None:
        key = self.work_list.currentData()
        self._filter(lambda: self.proxy.set_work_list(key))
        shown = key in RECORD_LISTS
        self.table.setColumnHidden(LISTED, not shown)
        self.table.main = (LISTED, 1, 2) if shown else (1, 2)
        self.table.remeasure()

    # --- what the data folder holds ---------------------------------------------------

    def opening(self, folder: str) -> None:
        """The worker is opening a data folder: nothing of any folder is listed yet."""
        self.demo_banner.hide()
        self.layer_warning.hide()
        self.load_demo.hide()
        self.count.setText(f"Opening {folder}...")

    def show_parcels(self, rows: list[dict[str, Any]], *, has_demo: bool) -> None:
        for r in rows:
            r.setdefault("flags", {})
        self.model.replace(rows)
        self.demo_banner.setVisible(has_demo)
        self.load_demo.setVisible(not rows)
        self._count()

    def warn_about_layer(self, layer: dict[str, Any] | None) -> None:
        """Say when the active shoreline layer cannot settle the 200-ft question, or was
        imported although it lies far from the lake or the parcels."""
        from ..services.reference.shorelines import far_confirmed_text

        far = None if layer is None else far_confirmed_text(layer)
        coarse = layer is None or layer["accuracy_ft"] >= 1000
        self.layer_warning.setVisible(coarse or far is not None)
        if layer is not None and far is not None:
            self.layer_warning.setText(f"The shoreline layer {layer['label']} was {far}. "
                                       "Every lake distance is measured to it.")
        elif layer is None:
            self.layer_warning.setText("No shoreline layer is active: import one (File > "
                                       "Import shoreline layer).")
        elif coarse:
            self.layer_warning.setText(
                f"The shoreline layer is {layer['name']}, accurate only to "
                f"±{layer['accuracy_ft']:,.0f} ft: map distances cannot settle the 200-ft "
                "question. Import the office's layer (File > Import shoreline layer) or "
                "measure in the field.")

    def clear(self) -> None:
        """Another data folder is coming: nothing of this one stays listed."""
        self.search.clear()
        self.model.replace([])

    # --- the work lists ---------------------------------------------------------------

    def stop_overview(self) -> None:
        """The work lists' chunks still to come are not asked for (another folder)."""
        self._overview_round += 1
        self.lists_state.setText("")  # no longer being worked out

    def refresh_overview(self) -> None:
        """Work-list flags for every parcel, as of today, worked out on the worker in small
        chunks: whatever the user asks for meanwhile runs between two chunks."""
        from ..services.lists.overview import overview

        ws = self.ctx.ws
        day = self.ctx.today()
        sbls = [r["sbl"] for r in self.model.rows]
        self._row_of = {sbl: i for i, sbl in enumerate(sbls)}
        total = len(sbls)
        self._overview_round += 1
        round_ = self._overview_round
        fewest, most = self.OVERVIEW_CHUNK

        def chunk(start: int, size: int) -> None:
            if round_ != self._overview_round:
                return  # a newer refresh has started
            part = sbls[start:start + size]
            if not part:
                self.lists_state.setText("Work lists up to date")
                self._filter(lambda: self.proxy.set_work_list(self.work_list.currentData()))
                self._count()
                self._show_list_counts(done=True)
                self.table.remeasure()  # outcomes and zones are in now
                return
            if ws is None:
                return  # no data folder open: no parcels to work out
            if start == 0:
                self.refresh_record_lists()
            self.lists_state.setText(f"Work lists: {start} of {total} parcels")

            def work() -> tuple[list[dict[str, Any]], float]:
                began = time.perf_counter()
                rows = overview(ws, as_of=day, sbls=part)
                return rows, time.perf_counter() - began

            def done(result: tuple[list[dict[str, Any]], float]) -> None:
                rows, took = result
                self._merge_overview(rows)
                chunk(start + len(part), max(fewest, min(most, int(
                    len(part) * self.OVERVIEW_CHUNK_S / max(took, 0.001)))))

            def failed(exc: BaseException) -> None:
                if round_ == self._overview_round:
                    self.lists_state.setText(f"Work lists stopped at {start} of {total} "
                                             "parcels")
                self.ctx.error(exc)

            Op(self.ctx.runner, work).success(done).failure(failed).run()

        self._show_list_counts(done=False)
        chunk(0, fewest)

    def refresh_record_lists(self) -> None:
        """The lists read from the ETU service reports, as of today, into the rows' flags
        and their "Listed for" (one read on the worker)."""
        from ..services.lists.worklists import worklists

        ws, day = self.ctx.ws, self.ctx.today()
        if ws is None:
            return

        def shown(found: dict[str, list[dict[str, Any]]]) -> None:
            by_sbl: dict[str, dict[str, str]] = {}
            for key, name in RECORD_LISTS.items():
                for item in found.get(name, []):
                    by_sbl.setdefault(item["sbl"], {})[key] = listed_words(key, item)
            for row in self.model.rows:
                listed = by_sbl.get(row["sbl"], {})
                row["listed"] = listed
                row.setdefault("flags", {}).update({k: k in listed for k in RECORD_LISTS})
            if self.model.rows:
                self.model.dataChanged.emit(self.model.index(0, LISTED),
                                            self.model.index(len(self.model.rows) - 1,
                                                             LISTED))
            if self.work_list.currentData() in RECORD_LISTS:
                self._filter(lambda: self.proxy.set_work_list(self.work_list.currentData()))
            if self.lists_state.text() == "Work lists up to date":
                self._show_list_counts(done=True)

        Op(self.ctx.runner, lambda: worklists(ws, as_of=day, names=tuple(
            RECORD_LISTS.values()))).success(shown).failure(self.ctx.error).run()

    def _show_list_counts(self, *, done: bool) -> None:
        """Each work list with its number of parcels, once the work lists are worked out;
        the list chosen stays chosen."""
        counts: Counter[str] = Counter()
        if done:
            counts.update(key for r in self.model.rows
                          for key, on in r.get("flags", {}).items() if on)
        for index in range(self.work_list.count()):
            key = self.work_list.itemData(index)
            label = WORK_LISTS.get(key, str(key))
            if done:
                n = len(self.model.rows) if key == "all" else counts[key]
                label = f"{label} ({n:,})"
            self.work_list.setItemText(index, label)

    def row_changed(self, rows: list[dict[str, Any]]) -> None:
        """A parcel's outcome and flags as now stored, into its row of the list and the
        work lists' counts (once the work lists are worked out; until then the chunk that
        holds it brings them)."""
        if self.lists_state.text() != "Work lists up to date":
            return
        self._merge_overview(rows)
        self._show_list_counts(done=True)
        self.refresh_record_lists()

    def _merge_overview(self, rows: list[dict[str, Any]]) -> None:
        changed = []
        for new in rows:
            index = self._row_of.get(new["sbl"])
            if index is None or index >= len(self.model.rows) or (
                    self.model.rows[index]["sbl"] != new["sbl"]):
                continue  # the list changed since: never one parcel's row on another
            row = self.model.rows[index]
            # the flags of the lists read from the reports are theirs (refresh_record_lists)
            kept = {k: v for k, v in row.get("flags", {}).items() if k in RECORD_LISTS}
            row.update(new)
            row["flags"] = {**new.get("flags", {}), **kept}
            changed.append(index)
        if changed:
            # One signal for the chunk, naming only the columns the work lists fill (the
            # rows shown change when the work list or the search does).
            first = min(c for c, (key, _) in enumerate(COLUMNS) if key in OVERVIEW_COLUMNS)
            last = max(c for c, (key, _) in enumerate(COLUMNS) if key in OVERVIEW_COLUMNS)
            self.model.dataChanged.emit(self.model.index(min(changed), first),
                                        self.model.index(max(changed), last))

    # --- choosing a parcel ------------------------------------------------------------

    def _count(self) -> None:
        total, shown = self.model.rowCount(), self.proxy.rowCount()
        if not total:
            self.count.setText("No parcels yet: load the demo parcels, import a case file, or "
                               "join the office with a field kit.")
        else:
            self.count.setText(f"{shown} of {total} parcels shown")

    def open_found(self) -> None:
        """Enter in the search: the first parcel found opens (the user guide's promise),
        whichever was open before; the list takes the keys (arrows move, Tab goes on)."""
        if not self.proxy.rowCount():
            return
        self.table.selectRow(0)
        self.table.setFocus()

    def select(self, sbl: str, *, load: bool = True) -> None:
        """Select a parcel's row (which opens it); one not listed is opened all the same
        unless `load` is False."""
        row = self.proxy.row_of(sbl)
        if row is not None:
            self.table.selectRow(row)
            return
        if load:
            self._open_parcel(sbl)

    def _filter(self, change: Callable[[], None]) -> None:
        """Change what the list shows without opening another parcel: the open parcel
        stays open (and selected, when it is still in the list)."""
        self._filtering = True
        try:
            change()
            self.table.clearSelection()
            wanted = self._wanted()
            if wanted is not None:
                self.select(wanted, load=False)
        finally:
            self._filtering = False
        self._count()

    def _row_selected(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if current.isValid() and not self._filtering:
            sbl = current.data(ROW_ROLE)["sbl"]
            if sbl != self._wanted():
                self._open_parcel(sbl)
