"""The main window: a searchable parcel list. The full workbench comes later."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QHeaderView,
    QLabel,
    QLineEdit,
    QMainWindow,
    QMessageBox,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from .. import __version__
from ..domain.sbl import sbl_sort_key
from ..services.workspace import Workspace

COLUMNS = (("sbl", "SBL"), ("site_address", "Site address"), ("owner_name", "Owner"),
           ("municipality", "Municipality"))
_Index = QModelIndex | QPersistentModelIndex
SORT_ROLE = Qt.ItemDataRole.UserRole + 1


class ParcelTableModel(QAbstractTableModel):
    def __init__(self, rows: list[dict[str, Any]]) -> None:
        super().__init__()
        self.rows = rows

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        value = self.rows[index.row()][COLUMNS[index.column()][0]]
        if role == Qt.ItemDataRole.DisplayRole:
            return value
        if role == SORT_ROLE:
            return sbl_sort_key(str(value))
        return None

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return COLUMNS[section][1]
        return None


class MainWindow(QMainWindow):
    def __init__(self, workspace: Workspace) -> None:
        super().__init__()
        self.workspace = workspace
        self.setWindowTitle(f"Watershed Inspector — {workspace.folder.root}")
        self.resize(1000, 640)

        self.search = QLineEdit(placeholderText="Search by SBL, address or owner  (Ctrl+F)")
        self.search.setClearButtonEnabled(True)
        self.model = ParcelTableModel(workspace.parcels())
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.proxy.setFilterKeyColumn(-1)
        self.proxy.setSortRole(SORT_ROLE)
        self.search.textChanged.connect(self.proxy.setFilterFixedString)
        self.search.textChanged.connect(self._update_count)

        self.table = QTableView()
        self.table.setModel(self.proxy)
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(0, Qt.SortOrder.AscendingOrder)
        self.table.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().hide()

        self.count = QLabel()
        self.demo_banner = QLabel(
            "Demo data: the parcels marked (demo) are invented examples, not town records.")
        self.demo_banner.setStyleSheet(
            "background: #fff4ce; color: #4a3b00; padding: 6px; border: 1px solid #e0c870;")
        self.demo_banner.setVisible(workspace.has_demo_parcels())
        layout = QVBoxLayout()
        layout.addWidget(self.demo_banner)
        layout.addWidget(self.search)
        layout.addWidget(self.table)
        layout.addWidget(self.count)
        central = QWidget()
        central.setLayout(layout)
        self.setCentralWidget(central)
        self.statusBar().showMessage(
            f"Data folder: {workspace.folder.root}   ·   Working as {workspace.store.actor.user} "
            f"on {workspace.store.device_name}")

        find = QAction("Find parcel", self, shortcut=QKeySequence.StandardKey.Find)
        find.triggered.connect(lambda: self.search.setFocus())
        self.addAction(find)
        about = QAction("About Watershed Inspector", self)
        about.triggered.connect(self.show_about)
        self.menuBar().addMenu("&Help").addAction(about)
        self._update_count()

    def _update_count(self) -> None:
        shown, total = self.proxy.rowCount(), self.model.rowCount()
        if total == 0:
            self.count.setText("No parcels yet. Run `inspector-app demo` for demo data, or "
                               "`inspector-app parcels import ROLL.csv` for the office's roll.")
        else:
            self.count.setText(f"{shown} of {total} parcels shown")

    def show_about(self) -> None:
        QMessageBox.about(self, "About Watershed Inspector",
                          f"Watershed Inspector {__version__}\n\nOn-site wastewater inspections "
                          "under Chapter 202 (Canandaigua Lake watershed).\n\nData folder: "
                          f"{self.workspace.folder.root}")
