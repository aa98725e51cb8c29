"""The main window: parcel work lists on the left, the parcel's workbench on the right."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    QSettings,
    QSize,
    QSortFilterProxyModel,
    Qt,
    QTimer,
)
from PySide6.QtGui import QAction, QIcon, QKeySequence, QPalette, QPixmap, QUndoCommand, QUndoStack
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QFileDialog,
    QHeaderView,
    QInputDialog,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QSplitter,
    QTableView,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from .. import __version__
from ..domain.sbl import sbl_sort_key
from ..errors import InputError
from .context import AppContext
from .tasks import TaskRunner

# The window is built and shown before the parcel workbench (form, site map, letters)
# and the services behind it are imported: those load just after, while the worker is
# still opening the data folder.
if TYPE_CHECKING:
    from ..domain.case import Case
    from ..services.workspace import Workspace
    from .dialogs import ConflictsDialog
    from .forms import CaseForm

def _services() -> Any:
    """The services, imported on first use (see above)."""
    from types import SimpleNamespace

    from ..services import letters, site

    return SimpleNamespace(letters=letters, site=site)


def _dialogs() -> Any:
    from . import dialogs

    return dialogs


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
}

COLUMNS = (("sbl", "SBL"), ("site_address", "Site address"), ("owner_name", "Owner"),
           ("municipality", "Municipality"), ("outcome", "Outcome"), ("zone", "Lake"))
_Index = QModelIndex | QPersistentModelIndex
SORT_ROLE = Qt.ItemDataRole.UserRole + 1
ROW_ROLE = Qt.ItemDataRole.UserRole + 2


class ParcelTableModel(QAbstractTableModel):
    def __init__(self, rows: list[dict[str, Any]]) -> None:
        super().__init__()
        self.rows = rows

    def replace(self, rows: list[dict[str, Any]]) -> None:
        for r in rows:  # worked out once, not on every keystroke or comparison
            r["_search"] = f"{r['sbl']}|{r['site_address']}|{r['owner_name']}".casefold()
            r["_key"] = sbl_sort_key(r["sbl"])
        self.beginResetModel()
        self.rows = rows
        self.endResetModel()

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        row = self.rows[index.row()]
        value = row.get(COLUMNS[index.column()][0]) or ""
        if role == Qt.ItemDataRole.DisplayRole:
            return str(value).replace("_", " ")
        if role == SORT_ROLE:
            return row["_key"] if index.column() == 0 else str(value).casefold()
        if role == ROW_ROLE:
            return row
        return None

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return COLUMNS[section][1]
        return None


class ParcelFilter(QSortFilterProxyModel):
    """Text search over SBL, address and owner, and a work-list filter."""

    def __init__(self) -> None:
        super().__init__()
        self.work_list = "all"
        self.text = ""

    def set_work_list(self, name: str) -> None:
        self.beginFilterChange()
        self.work_list = name
        self.endFilterChange()

    def set_text(self, text: str) -> None:
        self.beginFilterChange()
        self.text = text.casefold().strip()
        self.endFilterChange()

    def filterAcceptsRow(self, row: int, parent: _Index) -> bool:
        model = self.sourceModel()
        assert isinstance(model, ParcelTableModel)
        r = model.rows[row]
        if self.work_list != "all" and not r.get("flags", {}).get(self.work_list):
            return False
        return not self.text or self.text in r["_search"]


class SaveCase(QUndoCommand):
    """One edit of a parcel: undo puts the case back as it was, through the same path."""

    def __init__(self, window: MainWindow, before: Case, after: Case, text: str) -> None:
        super().__init__(text)
        self.window, self.before, self.after = window, before, after

    def redo(self) -> None:
        self.window.save(self.after)

    def undo(self) -> None:
        self.window.save(self.before)


class PhotoList(QListWidget):
    """Thumbnails; drop image files here to attach them."""

    def __init__(self, add: Any) -> None:
        super().__init__()
        self.add = add
        self.setViewMode(QListWidget.ViewMode.IconMode)
        self.setIconSize(QSize(140, 105))
        self.setResizeMode(QListWidget.ResizeMode.Adjust)
        self.setAcceptDrops(True)

    def dragEnterEvent(self, event: Any) -> None:
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    dragMoveEvent = dragEnterEvent

    def dropEvent(self, event: Any) -> None:
        paths = [Path(u.toLocalFile()) for u in event.mimeData().urls() if u.isLocalFile()]
        if paths:
            self.add(paths)
            event.acceptProposedAction()


class MainWindow(QMainWindow):
    def __init__(self, workspace: Workspace | None = None, *, root: Path | None = None,
                 user: str | None = None, runner: TaskRunner | None = None,
                 settings: QSettings | None = None) -> None:
        """Open on a workspace, or on a data folder (`root`) that the worker opens while
        the window is already showing."""
        super().__init__()
        self.workspace: Workspace = workspace  # type: ignore[assignment]  # set on attach
        self.runner = runner or TaskRunner()
        self.ctx = AppContext(workspace, self.runner)
        self.ctx.window = self
        self.settings = settings or QSettings("Watershed Inspector", "inspector-app")
        self.case: Case | None = None
        self.sbl: str | None = None
        self.exit_status = 0
        self.undo_stack = QUndoStack(self)
        folder = workspace.folder.root if workspace is not None else root
        self.setWindowTitle(f"Watershed Inspector - {folder}")
        screen = QApplication.primaryScreen().availableGeometry()
        self.resize(min(1400, screen.width()), min(860, screen.height()))
        self._build()
        self.ctx.status.connect(self.message.setText)
        self.ctx.changed.connect(self._record_changed)
        self.runner.busy_changed.connect(lambda busy: self.busy.setText(
            "Working..." if busy else ""))
        if self.settings.value("high_contrast", False, type=bool):
            self.contrast.setChecked(True)
        if workspace is not None:
            self._build_workbench()
            self.attach(workspace)
        else:
            # Let the first frame paint, then build the workbench while the worker opens
            # the data folder.
            QTimer.singleShot(30, self._build_workbench)
            assert root is not None
            self.centralWidget().setEnabled(False)
            self.menuBar().setEnabled(False)
            self.demo_banner.hide()
            self.layer_warning.hide()
            self.load_demo.hide()
            self.count.setText(f"Opening {root}...")

            def open_folder() -> Workspace:
                from ..services.workspace import Workspace

                return Workspace(root, user=user)

            self.runner.run(open_folder, self.attach, on_error=self._open_failed)

    def attach(self, workspace: Workspace) -> None:
        """The data folder is open: fill the window."""
        self._build_workbench()
        self.workspace = workspace
        self.ctx.ws = workspace
        self.centralWidget().setEnabled(True)
        self.menuBar().setEnabled(True)
        self.message.setText("")
        self.load_parcels()

    def _open_failed(self, exc: BaseException) -> None:
        from ..errors import InspectorError

        self.exit_status = exc.exit_status if isinstance(exc, InspectorError) else 1
        self.ctx.error(exc)
        QApplication.exit(self.exit_status)

    # --- layout ---------------------------------------------------------------------

    def _build(self) -> None:
        self.demo_banner = QLabel("Demo data: the parcels marked (demo) are invented examples, "
                                  "not town records.")
        self.demo_banner.setWordWrap(True)
        self.demo_banner.setStyleSheet("background: #fff4ce; color: #4a3b00; padding: 6px; "
                                       "border: 1px solid #e0c870;")
        self.layer_warning = QLabel()
        self.layer_warning.setWordWrap(True)
        self.layer_warning.setStyleSheet("background: #ffe3c2; color: #5a2d00; padding: 6px; "
                                         "border: 1px solid #e0a060;")
        self.work_list = QComboBox()
        for key, label in WORK_LISTS.items():
            self.work_list.addItem(label, key)
        self.work_list.currentIndexChanged.connect(
            lambda: self.proxy.set_work_list(self.work_list.currentData()) or self._count())
        self.search = QLineEdit(placeholderText="Search by SBL, address or owner  (Ctrl+F)")
        self.search.setClearButtonEnabled(True)
        self.model = ParcelTableModel([])
        self.proxy = ParcelFilter()
        self.proxy.setSourceModel(self.model)
        self.proxy.setSortRole(SORT_ROLE)
        self.search.textChanged.connect(lambda t: self.proxy.set_text(t) or self._count())
        self.table = QTableView()
        self.table.setModel(self.proxy)
        # Rows arrive in tax-map order; the proxy sorts only when a header is clicked, so
        # filtering 20,000 parcels never re-sorts them.
        self.table.setSortingEnabled(True)
        self.table.horizontalHeader().setSortIndicatorShown(False)
        self.proxy.sort(-1)
        self.table.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QTableView.SelectionMode.SingleSelection)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.verticalHeader().hide()
        self.table.setWordWrap(False)
        self.table.verticalHeader().setDefaultSectionSize(24)
        for column, width in enumerate((96, 170, 150, 140, 90)):
            self.table.setColumnWidth(column, width)
        self.table.selectionModel().currentRowChanged.connect(self._row_selected)
        self.count = QLabel()
        self.load_demo = QPushButton("Load the demo parcels")
        self.load_demo.clicked.connect(self.install_demo)
        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.addWidget(self.demo_banner)
        left_layout.addWidget(self.layer_warning)
        left_layout.addWidget(QLabel("Work list"))
        left_layout.addWidget(self.work_list)
        left_layout.addWidget(self.search)
        left_layout.addWidget(self.table, 1)
        left_layout.addWidget(self.count)
        left_layout.addWidget(self.load_demo)

        self.heading = QLabel("Select a parcel")
        self.heading.setStyleSheet("font-size: 15px; font-weight: bold; padding: 4px;")
        right = QWidget()
        self.right_layout = QVBoxLayout(right)
        self.right_layout.addWidget(self.heading)
        self.workbench_built = False
        split = QSplitter()
        split.addWidget(left)
        split.addWidget(right)
        split.setStretchFactor(1, 3)
        split.setChildrenCollapsible(False)
        left.setMinimumWidth(280)
        width = self.width()
        split.setSizes([int(width * 0.3), int(width * 0.7)])
        self.setCentralWidget(split)

        self.message = QLabel()
        self.layer_label = QLabel()
        self.busy = QLabel()
        self.lists_state = QLabel()
        self.statusBar().addWidget(self.message, 1)
        self.statusBar().addPermanentWidget(self.busy)
        self.statusBar().addPermanentWidget(self.lists_state)
        self.statusBar().addPermanentWidget(self.layer_label)
        self._menus()

    def _build_workbench(self) -> None:
        """The parcel's form, site map, letters, photos, history and evaluation."""
        if self.workbench_built:
            return
        self.workbench_built = True
        from .evaluation_panel import EvaluationPanel
        from .forms import CaseForm
        from .letters_tab import LettersTab
        from .site_map import SiteMap

        self.form = CaseForm()
        self.form.edited.connect(self._form_edited)
        self.problem = QLabel()
        self.problem.setWordWrap(True)
        self.problem.setStyleSheet("background: #fde2e2; color: #7a0010; padding: 6px;")
        self.problem.hide()
        form_scroll = QScrollArea()
        form_scroll.setWidget(self.form)
        form_scroll.setWidgetResizable(True)
        form_page = QWidget()
        form_layout = QVBoxLayout(form_page)
        form_layout.addWidget(self.problem)
        form_layout.addWidget(form_scroll)
        self.site = SiteMap()
        self.site.area_drawn.connect(self._area_drawn)
        self.site.area_edited.connect(self._area_edited)
        self.site.type_coordinates.connect(self._type_coordinates)
        self.site.gps_requested.connect(self._gps_log)
        self.site.gps_device_requested.connect(self._gps_device)
        self.letters = LettersTab(self.ctx)
        self.photos = PhotoList(self.add_photos)
        photo_page = QWidget()
        photo_layout = QVBoxLayout(photo_page)
        add_photo = QPushButton("&Add photos...")
        add_photo.clicked.connect(self._pick_photos)
        photo_layout.addWidget(QLabel("Drop photos here, or add them from a folder."))
        photo_layout.addWidget(self.photos, 1)
        photo_layout.addWidget(add_photo)
        self.history = QTableWidget(0, 6)
        self.history.setHorizontalHeaderLabels(["When (UTC)", "Who", "Device", "Record",
                                                "Field", "Old -> new"])
        self.history.horizontalHeader().setStretchLastSection(True)
        self.history.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.tabs = QTabWidget()
        self.tabs.addTab(form_page, "&Inspection form")
        self.tabs.addTab(self.site, "Site &map")
        self.tabs.addTab(self.letters, "&Letters")
        self.tabs.addTab(photo_page, "&Photos")
        self.tabs.addTab(self.history, "&History")
        self.tabs.currentChanged.connect(lambda i: self.settings.setValue("tab", i))
        self.evaluation = EvaluationPanel()
        self.evaluation.decided.connect(self._decide)
        inner = QSplitter()
        inner.addWidget(self.tabs)
        inner.addWidget(self.evaluation)
        inner.setStretchFactor(0, 3)
        inner.setStretchFactor(1, 2)
        inner.setChildrenCollapsible(False)
        self.inner_split = inner
        self.right_layout.addWidget(inner, 1)
        self.tabs.setMinimumWidth(420)
        self.tabs.setEnabled(False)  # until a parcel is chosen
        width = self.width()
        inner.setSizes([int(width * 0.42), int(width * 0.28)])

    def _action(self, menu: Any, text: str, slot: Any, shortcut: Any = None) -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        action.triggered.connect(slot)
        menu.addAction(action)
        return action

    def _menus(self) -> None:
        bar = self.menuBar()
        file = bar.addMenu("&File")
        self._action(file, "&Import case file...", self.import_case, "Ctrl+O")
        self._action(file, "&Export case file...", self.export_case, "Ctrl+S")
        self._action(file, "Import shoreline &layer...", self.import_layer)
        self._action(file, "&Measure all parcels on the active layer", self.measure_all)
        self._action(file, "Set up this laptop from a field &kit...", self.join_kit)
        self._action(file, "Back up the database now", self.backup)
        file.addSeparator()
        self._action(file, "&Quit", self.close, QKeySequence.StandardKey.Quit)
        edit = bar.addMenu("&Edit")
        undo = self.undo_stack.createUndoAction(self, "&Undo")
        undo.setShortcut(QKeySequence.StandardKey.Undo)
        redo = self.undo_stack.createRedoAction(self, "&Redo")
        redo.setShortcut(QKeySequence.StandardKey.Redo)
        edit.addAction(undo)
        edit.addAction(redo)
        self._action(edit, "&Find parcel", lambda: self.search.setFocus(),
                     QKeySequence.StandardKey.Find)
        letters = bar.addMenu("&Letters")
        self._action(letters, "&Print all pending letters...", self.print_pending, "Ctrl+P")
        sync_menu = bar.addMenu("&Sync")
        self._action(sync_menu, "&Export a package...", self.export_package, "Ctrl+E")
        self._action(sync_menu, "&Import a package...", self.import_package, "Ctrl+I")
        self._action(sync_menu, "&Conflicts...", self.show_conflicts)
        self._action(sync_menu, "E&nrol a laptop (field kit)...", self.enroll)
        view = bar.addMenu("&View")
        self.contrast = self._action(view, "&High contrast (sunlight)", self.toggle_contrast,
                                     "Ctrl+Shift+H")
        self.contrast.setCheckable(True)
        help_menu = bar.addMenu("&Help")
        self._action(help_menu, "&About Watershed Inspector", self.show_about)

    # --- parcels --------------------------------------------------------------------

    def load_parcels(self) -> None:
        rows = self.runner.wait(self.workspace.parcels)
        for r in rows:
            r.setdefault("flags", {})
        self.model.replace(rows)
        self.demo_banner.setVisible(self.runner.wait(self.workspace.has_demo_parcels))
        self.load_demo.setVisible(not rows)
        self._count()
        self.layer_label.setText(self.runner.wait(self._layer_text))
        self._warn_about_layer()
        last = self.settings.value("sbl")
        if last:
            self.select(str(last))
        self.tabs.setCurrentIndex(int(self.settings.value("tab", 0)))
        # The work lists are worked out once the window is up, not before it shows.
        QTimer.singleShot(0, self.refresh_overview)

    def _warn_about_layer(self) -> None:
        from ..services.shorelines import active_layer_info

        layer = self.runner.wait(lambda: active_layer_info(self.workspace))
        coarse = layer is None or layer["accuracy_ft"] >= 1000
        self.layer_warning.setVisible(coarse)
        if layer is None:
            self.layer_warning.setText("No shoreline layer is active: import one (File > "
                                       "Import shoreline layer).")
        elif coarse:
            self.layer_warning.setText(
                f"The shoreline layer is {layer['name']}, accurate only to "
                f"±{layer['accuracy_ft']:,.0f} ft: map distances cannot settle the 200-ft "
                "question. Import the office's layer (File > Import shoreline layer) or "
                "measure in the field.")

    def _layer_text(self) -> str:
        from ..services.shorelines import active_layer_info

        layer = active_layer_info(self.workspace)
        return "No shoreline layer" if layer is None else f"Shoreline: {layer['label']}"

    OVERVIEW_CHUNK = 100

    def refresh_overview(self) -> None:
        """Work-list flags for every parcel, as of today, worked out on the worker in small
        chunks: whatever the user asks for meanwhile runs between two chunks."""
        from ..services.overview import overview

        day = self.ctx.today()
        sbls = [r["sbl"] for r in self.model.rows]
        self._row_of = {sbl: i for i, sbl in enumerate(sbls)}
        total = len(sbls)
        self._overview_round = getattr(self, "_overview_round", 0) + 1
        round_ = self._overview_round

        def chunk(start: int) -> None:
            if round_ != self._overview_round:
                return  # a newer refresh has started
            part = sbls[start:start + self.OVERVIEW_CHUNK]
            if not part:
                self.lists_state.setText("Work lists up to date")
                self.proxy.set_work_list(self.work_list.currentData())
                self._count()
                return
            self.lists_state.setText(f"Work lists: {start} of {total} parcels")

            def done(rows: list[dict[str, Any]]) -> None:
                self._merge_overview(rows)
                chunk(start + len(part))

            self.runner.run(lambda: overview(self.workspace, as_of=day, sbls=part), done,
                            on_error=self.ctx.error)

        chunk(0)

    def _merge_overview(self, rows: list[dict[str, Any]]) -> None:
        for new in rows:
            index = self._row_of.get(new["sbl"])
            if index is None or index >= len(self.model.rows):
                continue
            self.model.rows[index].update(new)
            self.model.dataChanged.emit(self.model.index(index, 0),
                                        self.model.index(index, len(COLUMNS) - 1))

    def _count(self) -> None:
        total, shown = self.model.rowCount(), self.proxy.rowCount()
        if not total:
            self.count.setText("No parcels yet: load the demo parcels, import a case file, or "
                               "join the office with a field kit.")
        else:
            self.count.setText(f"{shown} of {total} parcels shown")

    def select(self, sbl: str, *, load: bool = True) -> None:
        for row in range(self.proxy.rowCount()):
            if self.proxy.index(row, 0).data(ROW_ROLE)["sbl"] == sbl:
                self.table.selectRow(row)
                return
        if load:
            self.open_parcel(sbl)

    def _row_selected(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if current.isValid():
            sbl = current.data(ROW_ROLE)["sbl"]
            if sbl != self.sbl:
                self.open_parcel(sbl)

    def open_parcel(self, sbl: str) -> None:
        try:
            case = self.runner.wait(lambda: self.workspace.load_case(sbl))
        except InputError:
            return
        self.sbl = sbl
        self.settings.setValue("sbl", sbl)
        self.undo_stack.clear()
        self.show_case(case)

    def show_case(self, case: Case) -> None:
        self.case = case
        self.tabs.setEnabled(True)
        self.problem.hide()
        p = case.parcel
        self.heading.setText(f"{p.sbl}  ·  {p.site_address}  ·  {p.owner_name}")
        self.form.load(case)
        sbl = p.sbl
        day = self.ctx.today()

        from ..services.sketch import site_map

        def details() -> tuple[Any, ...]:
            ws = self.workspace
            return (ws.evaluate_parcel(sbl, as_of=day), site_map(ws, case), ws.history(sbl),
                    ws.attachments(sbl))

        def shown(result: tuple[Any, ...]) -> None:
            evaluation, (geometry, layer, accuracy), history, photos = result
            self.evaluation.show_evaluation(evaluation)
            self.site.show_site(geometry, layer, accuracy)
            self.letters.load(sbl, [k.value for k in evaluation.letters])
            self._show_history(history)
            self._show_photos(photos)

        self.ctx.run(details, shown)

    def _show_history(self, rows: list[dict[str, Any]]) -> None:
        rows = list(reversed(rows))[:500]
        self.history.setRowCount(len(rows))
        for r, h in enumerate(rows):
            if h["op"] == "update":
                change = f"{h['old_value']} -> {h['new_value']}"
            elif h["op"] == "insert":
                change = "created"
            else:
                change = "deleted"
            for c, text in enumerate((h["at"][:19].replace("T", " "), h["user"], h["device"] or "",
                                      h["table_name"].replace("_", " "), h["field"] or "",
                                      change)):
                self.history.setItem(r, c, QTableWidgetItem(str(text)))

    def _show_photos(self, rows: list[dict[str, Any]]) -> None:
        self.photos.clear()
        for r in rows:
            item = QListWidgetItem(r["caption"] or r["filename"])
            pixmap = QPixmap(str(self.workspace.attachment_path(r["sha256"])))
            if not pixmap.isNull():
                item.setIcon(QIcon(pixmap.scaled(140, 105, Qt.AspectRatioMode.KeepAspectRatio)))
            self.photos.addItem(item)

    # --- editing --------------------------------------------------------------------

    def _form_edited(self, form: CaseForm) -> None:
        if self.case is None:
            return
        from .. import casefile

        try:
            after = form.current_case()
            after = casefile.parse_document(casefile.to_document(after), source="The form",
                                            today=self.ctx.today())
        except (ValueError, InputError) as exc:
            text = str(exc)
            self.problem.setText(f"Not saved: {text.removeprefix('The form: ')}")
            self.problem.show()
            return
        self.problem.hide()
        if after != self.case:
            self.undo_stack.push(SaveCase(self, self.case, after, "edit"))

    def save(self, case: Case) -> None:
        """Save through the normal edit path, then show the law's view of the result."""
        self.runner.wait(lambda: self.workspace.save_case(case, today=self.ctx.today()))
        self.case = case
        if self.form.case != case:
            self.form.load(case)
        self.message.setText(f"Saved {case.parcel.sbl}")
        self.show_case(case)

    def _record_changed(self, sbl: str) -> None:
        if sbl == self.sbl:
            self.open_parcel(sbl)

    def _decide(self, key: str, accept: bool) -> None:
        sbl = self.sbl
        if sbl is None:
            return
        self.ctx.run(lambda: self.workspace.decide_suggestion(sbl, key, accept=accept,
                                                              as_of=self.ctx.today()),
                     lambda _: self.open_parcel(sbl))

    def _area_drawn(self, points: list[tuple[float, float]]) -> None:
        sbl = self.sbl
        if sbl is None:
            return
        target = self.site.target.currentData()
        self.ctx.run(lambda: _services().site.set_from_state_plane(self.workspace, sbl, target,
                                                               points),
                     lambda result: self._site_saved(sbl, result))

    def _area_edited(self, corners: list[tuple[float, float]]) -> None:
        sbl = self.sbl
        if sbl is None:
            return
        self.ctx.run(lambda: _services().site.set_from_state_plane(self.workspace, sbl,
                                                               "absorption_area", corners),
                     lambda result: self._site_saved(sbl, result))

    def _site_saved(self, sbl: str, result: dict[str, Any]) -> None:
        lake = result.get("lake") or {}
        if lake.get("distance_ft") is not None:
            self.message.setText(f"Absorption area saved: {lake['distance_ft']:,.1f} ft to the "
                                 f"lake line ({lake['source']}, {lake['zone'].replace('_', ' ')})")
        self.open_parcel(sbl)

    def _type_coordinates(self) -> None:
        sbl = self.sbl
        if sbl is None:
            return
        target, label = self.site.target.currentData(), self.site.target.currentText()
        text, ok = QInputDialog.getMultiLineText(
            self, f"{label}: coordinates", "Longitude,latitude of each point, one per line "
            "(e.g. -77.3001,42.8001):")
        if ok and text.strip():
            self.ctx.run(lambda: _services().site.set_from_lonlat(self.workspace, sbl, target,
                                                                  text),
                         lambda result: self._site_saved(sbl, result))

    def _gps_log(self) -> None:
        sbl = self.sbl
        if sbl is None:
            return
        target = self.site.target.currentData()
        files, _ = QFileDialog.getOpenFileNames(self, "NMEA logs, one per point", "",
                                                "NMEA logs (*.nmea *.txt *.log);;All files (*)")
        if files:
            self.ctx.run(lambda: _services().site.set_from_gps_logs(
                self.workspace, sbl, target, [Path(f) for f in files]),
                lambda result: self._site_saved(sbl, result))

    def _gps_device(self) -> None:
        sbl = self.sbl
        if sbl is None:
            return
        target, label = self.site.target.currentData(), self.site.target.currentText()
        port, ok = QInputDialog.getText(self, "GPS device", f"Serial port of the GPS (stand at "
                                        f"the {label.lower()}):", QLineEdit.EchoMode.Normal,
                                        str(self.settings.value("gps_port", "/dev/ttyUSB0")))
        if not ok or not port.strip():
            return
        self.settings.setValue("gps_port", port.strip())
        self.message.setText(f"Averaging GPS fixes from {port} for 10 seconds...")
        self.ctx.run(lambda: _services().site.set_from_gps_device(self.workspace, sbl, target,
                                                              port.strip()),
                     lambda result: self._site_saved(sbl, result))

    def _pick_photos(self) -> None:
        files, _ = QFileDialog.getOpenFileNames(self, "Photos", "",
                                                "Images (*.jpg *.jpeg *.png);;All files (*)")
        if files:
            self.add_photos([Path(f) for f in files])

    def add_photos(self, paths: list[Path]) -> None:
        sbl = self.sbl
        if sbl is None:
            return
        self.ctx.run(lambda: [self.workspace.add_attachment(sbl, p) for p in paths],
                     lambda added: (self.message.setText(f"Added {len(added)} photo(s)"),
                                    self.open_parcel(sbl)))

    # --- files, letters, sync -------------------------------------------------------

    def import_case(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Import a case file", "",
                                              "Case files (*.json)")
        if not path:
            return
        day = self.ctx.today()

        def done(result: Any) -> None:
            self.message.setText(f"Imported {result.sbl}")
            self.load_parcels()
            self.select(result.sbl)

        self.ctx.run(lambda: self.workspace.import_case_file(Path(path), today=day), done)

    def export_case(self) -> None:
        if self.case is None:
            return
        path, _ = QFileDialog.getSaveFileName(self, "Export the case file",
                                              f"{self.case.parcel.sbl}.json", "Case files (*.json)")
        if path:
            from .. import casefile

            Path(path).write_text(casefile.dumps(self.case), "utf-8")
            self.message.setText(f"Exported {path}")

    def import_layer(self) -> None:
        from ..services.shorelines import import_layer

        path, _ = QFileDialog.getOpenFileName(
            self, "Shoreline layer", "", "Shoreline layers (*.geojson *.json *.shp *.gpkg)")
        if not path:
            return
        name, ok = QInputDialog.getText(self, "Shoreline layer", "Name of the layer:",
                                        QLineEdit.EchoMode.Normal, Path(path).stem)
        if not ok or not name.strip():
            return
        accuracy, ok = QInputDialog.getDouble(self, "Shoreline layer",
                                              "Declared horizontal accuracy (feet):", 5, 0,
                                              100_000, 1)
        if not ok:
            return

        def done(layer: dict[str, Any]) -> None:
            self.message.setText(f"{layer['name']} v{layer['version']} (±{layer['accuracy_ft']}"
                                 " ft) is now the active shoreline layer; earlier layers and "
                                 "their measurements are kept.")
            self.layer_label.setText(self.runner.wait(self._layer_text))
            self._warn_about_layer()
            if self.sbl:
                self.open_parcel(self.sbl)
            self.refresh_overview()

        self.ctx.run(lambda: import_layer(self.workspace, Path(path), name=name,
                                          accuracy_ft=accuracy), done)

    def measure_all(self) -> None:
        from ..services.shorelines import measure_parcels

        _dialogs().run_with_progress(self.ctx, self, "Measuring every parcel on the layer...",
                          lambda progress, cancelled: measure_parcels(
                              self.workspace, None, today=self.ctx.today(), progress=progress,
                              cancelled=cancelled),
                          lambda r: self.message.setText(
                              f"Measured {r['parcels']} parcel(s) on {r['layer']}: "
                              f"{r['new_measurements']} new distance(s) kept"))

    def join_kit(self) -> None:
        kit, _ = QFileDialog.getOpenFileName(self, "Field kit from the office", "",
                                             "Field kits (*.zip)")
        if not kit:
            return
        folder = QFileDialog.getExistingDirectory(self, "An empty folder for this laptop's "
                                                  "records")
        if not folder:
            return
        from ..services import sync

        try:
            result = sync.join(Path(folder), Path(kit), user=self.workspace.store.actor.user)
        except InputError as exc:
            self.ctx.error(exc)
            return
        self.message.setText(f"This laptop is set up as {result['device']} with "
                             f"{result['parcels']} parcel(s) in {folder}; open it with "
                             f"inspector-app --data-dir \"{folder}\".")

    def backup(self) -> None:
        self.ctx.run(lambda: self.workspace.store.backup_now(),
                     lambda path: self.message.setText(f"Backed up to {path}"))

    def print_pending(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "All pending letters in one PDF",
                                              "letters-to-print.pdf", "PDF (*.pdf)")
        if not path:
            return
        labels = str(Path(path).with_name(Path(path).stem + "-labels.pdf"))
        _dialogs().run_with_progress(self.ctx, self, "Putting the pending letters together...",
                          lambda progress, cancelled: _services().letters.print_batch(
                              self.workspace, Path(path), labels=Path(labels),
                              progress=progress, cancelled=cancelled),
                          lambda r: self.message.setText(
                              f"{r['letters']} letter(s) in {r['path']}; labels in "
                              f"{r['labels']}" if r["letters"] else "No letters are waiting "
                              "to be printed."))

    def export_package(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Export a sync package (USB drive or "
                                              "shared folder)", "inspector-package.zip",
                                              "Sync packages (*.zip)")
        if path:
            from ..services import sync

            self.ctx.run(lambda: sync.export(self.workspace, Path(path)),
                         lambda r: self.message.setText(f"Exported {r['changes']} change(s) "
                                                        f"to {r['path']}"))

    def import_package(self) -> None:
        from ..services import sync

        path, _ = QFileDialog.getOpenFileName(self, "Import a sync package", "",
                                              "Sync packages (*.zip)")
        if path:
            _dialogs().run_with_progress(self.ctx, self, "Checking and applying the package...",
                              lambda progress, cancelled: sync.import_package(self.workspace,
                                                                              Path(path)),
                              self._imported)

    def _imported(self, result: dict[str, Any]) -> None:
        if result["already_imported"]:
            text = "This package was imported before; nothing was applied again."
        else:
            text = (f"Applied {result['applied']} change(s); {result['conflicts']} conflict(s) "
                    "need a decision." if result["conflicts"] else
                    f"Applied {result['applied']} change(s); no conflicts.")
        self.load_parcels()
        self.message.setText(text)
        if not self.runner.synchronous:
            QMessageBox.information(self, "Sync package imported", text)
        if result.get("conflicts"):
            self.show_conflicts()

    def show_conflicts(self) -> ConflictsDialog:
        dialog = _dialogs().ConflictsDialog(self.ctx, self)
        if not self.runner.synchronous:
            dialog.exec()
        return dialog

    def enroll(self) -> None:
        dialog = _dialogs().EnrollDialog(self)
        if dialog.exec() != dialog.DialogCode.Accepted:
            return
        from ..services import sync

        name, parcels = dialog.values()
        path, _ = QFileDialog.getSaveFileName(self, "Save the field kit", f"{name}-kit.zip",
                                              "Field kits (*.zip)")
        if path:
            self.ctx.run(lambda: sync.enroll(self.workspace, name, Path(path), parcels),
                         lambda r: self.message.setText(f"Field kit for {r['device']} written "
                                                        f"to {r['path']}"))

    def install_demo(self) -> None:
        from ..services.demo import install_demo

        _dialogs().run_with_progress(self.ctx, self, "Loading the demo parcels...",
                          lambda progress, cancelled: install_demo(
                              self.workspace, today=self.ctx.today(), progress=progress),
                          lambda _: self.load_parcels())

    # --- view -----------------------------------------------------------------------

    def toggle_contrast(self) -> None:
        on = self.contrast.isChecked()
        self.settings.setValue("high_contrast", on)
        app = QApplication.instance()
        assert isinstance(app, QApplication)
        if on:
            palette = QPalette()
            for role, color in ((QPalette.ColorRole.Window, "#000000"),
                                (QPalette.ColorRole.WindowText, "#ffffff"),
                                (QPalette.ColorRole.Base, "#000000"),
                                (QPalette.ColorRole.AlternateBase, "#1a1a1a"),
                                (QPalette.ColorRole.Text, "#ffffff"),
                                (QPalette.ColorRole.Button, "#000000"),
                                (QPalette.ColorRole.ButtonText, "#ffff00"),
                                (QPalette.ColorRole.Highlight, "#ffff00"),
                                (QPalette.ColorRole.HighlightedText, "#000000")):
                palette.setColor(role, color)
            app.setPalette(palette)
            font = app.font()
            font.setPointSizeF(font.pointSizeF() * 1.15)
            app.setFont(font)
        else:
            app.setPalette(app.style().standardPalette())
            font = app.font()
            font.setPointSizeF(font.pointSizeF() / 1.15)
            app.setFont(font)

    def show_about(self) -> None:
        QMessageBox.about(self, "About Watershed Inspector",
                          f"<b>Watershed Inspector {__version__}</b><p>On-site wastewater "
                          "inspections under Chapter 202 (Canandaigua Lake watershed).</p>"
                          f"<p>Data folder: {self.workspace.folder.root}<br>"
                          f"Working as {self.workspace.store.actor.user} on "
                          f"{self.workspace.store.device_name}<br>"
                          f"Rules: {self.workspace.jurisdiction.name}, "
                          f"{self.workspace.jurisdiction.law}<br>{self._layer_text()}</p>")

    def closeEvent(self, event: Any) -> None:
        self.runner.stop()
        super().closeEvent(event)
