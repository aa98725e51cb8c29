"""The main window: parcel work lists on the left, the parcel's workbench on the right."""

from __future__ import annotations

import hashlib
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import (
    QModelIndex,
    QSettings,
    QSize,
    Qt,
    QTimer,
)
from PySide6.QtGui import QAction, QIcon, QKeySequence, QPixmap, QUndoCommand, QUndoStack
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
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from .. import __version__
from ..errors import InputError
from ..paths import DATABASE_NAME
from .context import AppContext
from .elided_label import ElidedLabel
from .parcel_list import (
    COLUMNS,
    OVERVIEW_COLUMNS,
    ROW_ROLE,
    WORK_LISTS,
    ParcelFilter,
    ParcelTableModel,
)
from .parcel_table import ParcelTable
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

    from ..services.letters import register as letters
    from ..services.parcel import site

    return SimpleNamespace(letters=letters, site=site)


def _dialogs() -> Any:
    from . import dialogs

    return dialogs


def _site_imagery(ws: Workspace, sbl: str) -> Any:
    """The imagery for a parcel's site map (on the worker): the active basemap, every
    basemap for the chooser, and how the render thread opens the file."""
    from .site_map import SiteImagery

    try:
        from ..services.reference.lot_lines import active_lot_layer_info

        lots = active_lot_layer_info(ws)
    except ImportError:
        lots = None
    lots_label = lots["label"] if lots else None
    try:
        from ..services.reference import basemaps
    except ImportError:  # an installation without imagery support
        return SiteImagery(sbl, lots=lots_label)
    ref = basemaps.active_basemap(ws)
    listed = tuple(basemaps.list_basemaps(ws))

    def opener() -> tuple[Callable[..., Any], Callable[[], None]]:
        reader = basemaps.open_reader(ref)
        return (lambda bbox, w, h: reader.render(bbox, w, h)), reader.close

    return SiteImagery(sbl, ref, listed, opener if ref is not None else None, lots_label)


def _call_with_progress(fn: Callable[..., Any], *args: Any, progress: Any, cancelled: Any,
                        **kwargs: Any) -> Any:
    """`fn(*args, **kwargs)`, passing progress and cancelled when it takes them."""
    import inspect

    params = inspect.signature(fn).parameters
    if "progress" in params:
        kwargs["progress"] = progress
    if "cancelled" in params:
        kwargs["cancelled"] = cancelled
    return fn(*args, **kwargs)


# Files an operating system leaves in any folder it shows; they do not make it "not empty".
_OS_LITTER = frozenset({".DS_Store", "Thumbs.db", "desktop.ini"})


def _not_empty(root: Path) -> str | None:
    """Why `root` cannot become a new data folder, or None if it is empty."""
    try:
        held = sorted(p.name for p in root.iterdir() if p.name not in _OS_LITTER)
    except OSError as exc:
        return f"{root} cannot be read ({exc.strerror}); choose another folder."
    if not held:
        return None
    return (f"{root} is not empty (it holds {len(held)} item(s), such as {held[0]!r}); a new "
            "data folder must start empty. Create an empty folder in the dialog and choose "
            "it, or open an existing data folder with File > Open data folder...")


class SaveCase(QUndoCommand):
    """One edit of a parcel, already saved when it is pushed: undo writes the reverse of
    the same change (only those fields) to the same parcel, redo writes it again. A step
    that cannot be made any more (the values changed elsewhere) is dropped from the stack."""

    def __init__(self, window: MainWindow, parcel_id: str, before: Case, after: Case,
                 text: str) -> None:
        super().__init__(text)
        self.window, self.parcel_id, self.before, self.after = window, parcel_id, before, after
        self.saved = True

    def redo(self) -> None:
        if self.saved:
            self.saved = False  # pushed after the save itself
            return
        if not self.window.save_edit(self.parcel_id, self.before, self.after):
            self.setObsolete(True)

    def undo(self) -> None:
        if not self.window.save_edit(self.parcel_id, self.after, self.before):
            self.setObsolete(True)


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
        self.parcel_id: str | None = None  # the record the form was loaded from
        self.exit_status = 0
        self.undo_stack = QUndoStack(self)
        folder = workspace.folder.root if workspace is not None else root
        self.setWindowTitle(f"Watershed Inspector - {folder}")
        screen = QApplication.primaryScreen().availableGeometry()
        self.resize(min(1400, screen.width()), min(860, screen.height()))
        self._build()
        self._install_input_guard()
        self.ctx.status.connect(self.message.setText)
        self.ctx.changed.connect(self._record_changed)
        self.runner.busy_changed.connect(lambda busy: self.busy.setText(
            "Working..." if busy else ""))
        self.contrast.setChecked(self.settings.value("high_contrast", False, type=bool))
        self.toggle_contrast()  # the theme the user chose last time
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
                from ..services.lists.summaries import prepare
                from ..services.workspace import Workspace

                workspace = Workspace(root, user=user)
                prepare(workspace)
                return workspace

            self.runner.run(open_folder, self.attach, on_error=self._open_failed)

    def _install_input_guard(self) -> None:
        from .input_guard import InputGuard

        def shortcuts() -> list[QKeySequence]:
            return [k for a in self.findChildren(QAction) if a.isEnabled()
                    for k in a.shortcuts()]

        self.input_guard = InputGuard(shortcuts, lambda: self, self)
        app = QApplication.instance()
        assert app is not None
        app.installEventFilter(self.input_guard)  # removed by Qt with the window

    def attach(self, workspace: Workspace) -> None:
        """The data folder is open: fill the window. Called again when the window switches
        to another folder: nothing of the folder before stays on show or on the undo stack."""
        self._build_workbench()
        if getattr(self, "_attached", False):
            self._clear_folder_view()
        self._attached = True
        self.workspace = workspace
        self.ctx.ws = workspace
        self.setWindowTitle(f"Watershed Inspector - {workspace.folder.root}")
        self._add_recent(workspace.folder.root)
        self.centralWidget().setEnabled(True)
        self.menuBar().setEnabled(True)
        self.message.setText("")
        self.load_parcels()

    def _clear_folder_view(self) -> None:
        """Forget the open parcel, its form, its evaluation and its undo steps."""
        self._forget_parcel()
        self.problem.hide()
        self.site.show_site(None, "")
        self.letters.sbl = None
        self.letters.register.clear()
        self.history.show_history([])
        self.photos.clear()
        self.heading.setText("Select a parcel")
        self.search.clear()
        self.model.replace([])

    # The app started on this folder quits if it cannot be opened (run_gui sets this);
    # elsewhere (tests, a folder switch) the window stays.
    quit_if_folder_fails = False

    def _open_failed(self, exc: BaseException) -> None:
        from ..errors import InspectorError

        self.exit_status = exc.exit_status if isinstance(exc, InspectorError) else 1
        self.ctx.error(exc)
        if self.quit_if_folder_fails:
            QApplication.exit(self.exit_status)

    # --- layout ---------------------------------------------------------------------

    def _build(self) -> None:
        self.demo_banner = QLabel("Demo data: the parcels marked (demo) are invented examples, "
                                  "not town records.")
        self.demo_banner.setWordWrap(True)
        self.demo_banner.setProperty("tone", "notice")  # colours: ui/theme.py
        self.layer_warning = QLabel()
        self.layer_warning.setWordWrap(True)
        self.layer_warning.setProperty("tone", "warning")
        self.work_list = QComboBox()
        for key, label in WORK_LISTS.items():
            self.work_list.addItem(label, key)
        self.work_list.currentIndexChanged.connect(
            lambda: self._filter(lambda: self.proxy.set_work_list(self.work_list.currentData())))
        self.search = QLineEdit(placeholderText="Search by SBL, address or owner  (Ctrl+F)")
        self.search.setClearButtonEnabled(True)
        self.model = ParcelTableModel([])
        self.proxy = ParcelFilter()
        self.proxy.setSourceModel(self.model)
        self.search.textChanged.connect(lambda t: self._filter(lambda: self.proxy.set_text(t)))
        self.table = ParcelTable(key=0, main=(1, 2))  # SBL; address and owner share the rest
        self.table.setModel(self.proxy)
        # Rows arrive in tax-map order; the proxy sorts only when a header is clicked, so
        # filtering 20,000 parcels never re-sorts them.
        self.table.setSortingEnabled(True)
        self.table.horizontalHeader().setSortIndicatorShown(False)
        self.proxy.sort(-1)
        self.table.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QTableView.SelectionMode.SingleSelection)
        self.table.setTabKeyNavigation(False)  # Tab leaves the list; arrows move in it
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.verticalHeader().hide()
        self.table.setWordWrap(False)
        self.table.verticalHeader().setDefaultSectionSize(24)
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
        self.heading.setProperty("role", "heading")
        right = QWidget()
        self.right_layout = QVBoxLayout(right)
        self.right_layout.addWidget(self.heading)
        self.workbench_built = False
        split = QSplitter()
        split.addWidget(left)
        split.addWidget(right)
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 3)
        split.setChildrenCollapsible(False)
        left.setMinimumWidth(280)
        width = self.width()
        split.setSizes([int(width * 0.3), int(width * 0.7)])
        self.setCentralWidget(split)

        # A long message is shortened with "…" (all of it in the tooltip); it never pushes
        # the permanent widgets off the status bar.
        self.message = ElidedLabel(takes_the_rest=True)
        self.layer_label = ElidedLabel()
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
        from .history_view import HistoryView
        from .letters_tab import LettersTab
        from .site_map import SiteMap

        self.form = CaseForm()
        self.form.edited.connect(self._form_edited)
        self.form.components_edited.connect(self._components_edited)
        self.form.inspection_requested.connect(self._new_inspection)
        self.form.problem.connect(self._show_problem)
        self.problem = QLabel()
        self.problem.setWordWrap(True)
        self.problem.setProperty("tone", "problem")
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
        self.site.set_opacity(int(self.settings.value("imagery_opacity", 100, type=int)))
        self.site.opacity_changed.connect(
            lambda v: self.settings.setValue("imagery_opacity", v))
        self.site.basemap_chosen.connect(self._choose_basemap)
        self.letters = LettersTab(self.ctx)
        self.photos = PhotoList(self.add_photos)
        photo_page = QWidget()
        photo_layout = QVBoxLayout(photo_page)
        add_photo = QPushButton("&Add photos...")
        add_photo.clicked.connect(self._pick_photos)
        photo_layout.addWidget(QLabel("Drop photos here, or add them from a folder."))
        photo_layout.addWidget(self.photos, 1)
        photo_layout.addWidget(add_photo)
        self.history = HistoryView()
        self.tabs = QTabWidget()
        self.tabs.addTab(form_page, "&Inspection form")
        self.tabs.addTab(self.site, "Site &map")
        self.tabs.addTab(self.letters, "&Letters")
        self.tabs.addTab(photo_page, "&Photos")
        self.tabs.addTab(self.history, "&History")
        self.tabs.currentChanged.connect(lambda i: self._remember("tab", i))
        self.evaluation = EvaluationPanel()
        self.evaluation.decided.connect(self._decide)
        self.evaluation.undone.connect(self._undo_decision)
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
        self._action(file, "&Open data folder...", self.open_folder)
        self._action(file, "&New data folder...", self.new_folder)
        self.recent_menu = file.addMenu("&Recent data folders")
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        self._fill_recent()
        file.addSeparator()
        self._action(file, "&Import case file...", self.import_case, "Ctrl+O")
        self._action(file, "&Export case file...", self.export_case)
        self._action(file, "Save (automatic)", self.confirm_saved, QKeySequence.StandardKey.Save)
        self._action(file, "Import shoreline &layer...", self.import_layer)
        self._action(file, "Import aerial &imagery...", self.import_imagery)
        self._action(file, "Import &tax-parcel lines...", self.import_lot_lines)
        self._action(file, "&Measure all parcels on the active layer", self.measure_all)
        self._action(file, "Set up this laptop from a field &kit...", self.join_kit)
        self._action(file, "Back up the database now", self.backup)
        file.addSeparator()
        self._action(file, "&Quit", self.close, QKeySequence.StandardKey.Quit)
        edit = bar.addMenu("&Edit")
        # Undo first takes back typing not yet saved, then saved edits one by one.
        self.undo_action = self._action(edit, "&Undo", self.undo, QKeySequence.StandardKey.Undo)
        self.redo_action = self._action(edit, "&Redo", self.redo)
        self.redo_action.setShortcuts(list(dict.fromkeys(
            [*QKeySequence.keyBindings(QKeySequence.StandardKey.Redo), QKeySequence("Ctrl+Y")])))
        self.undo_stack.undoTextChanged.connect(
            lambda t: self.undo_action.setText(f"&Undo {t}" if t else "&Undo"))
        self.undo_stack.redoTextChanged.connect(
            lambda t: self.redo_action.setText(f"&Redo {t}" if t else "&Redo"))
        self._action(edit, "&Find parcel", lambda: self.search.setFocus(),
                     QKeySequence.StandardKey.Find)
        letters = bar.addMenu("&Letters")
        self._action(letters, "&Print all pending letters...", self.print_pending, "Ctrl+P")
        reports = bar.addMenu("&Reports")
        self._action(reports, "Program report...", self.show_program_report)
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
        self._action(help_menu, "&User guide", self.show_guide,
                     QKeySequence.StandardKey.HelpContents)
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
        last = self._recalled("sbl")  # this folder's, never another folder's
        if last:
            self.select(str(last))
        self.tabs.setCurrentIndex(int(self._recalled("tab", 0)))
        # The work lists are worked out once the window is up, not before it shows.
        QTimer.singleShot(0, self.refresh_overview)

    def _warn_about_layer(self) -> None:
        from ..services.reference.shorelines import active_layer_info

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
        from ..services.reference.shorelines import active_layer_info

        layer = active_layer_info(self.workspace)
        return "No shoreline layer" if layer is None else f"Shoreline: {layer['label']}"

    # Each chunk of the work lists is sized to take about this long on the worker (from
    # the time the last one took), so that whatever the user asks for meanwhile waits no
    # longer: a few hundred parcels whose summaries are worked out, a few thousand read.
    OVERVIEW_CHUNK_S = 0.03
    OVERVIEW_CHUNK = (100, 2000)  # fewest and most parcels in a chunk

    def refresh_overview(self) -> None:
        """Work-list flags for every parcel, as of today, worked out on the worker in small
        chunks: whatever the user asks for meanwhile runs between two chunks."""
        from ..services.lists.overview import overview

        day = self.ctx.today()
        sbls = [r["sbl"] for r in self.model.rows]
        self._row_of = {sbl: i for i, sbl in enumerate(sbls)}
        total = len(sbls)
        self._overview_round = getattr(self, "_overview_round", 0) + 1
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
            self.lists_state.setText(f"Work lists: {start} of {total} parcels")

            def work() -> tuple[list[dict[str, Any]], float]:
                began = time.perf_counter()
                rows = overview(self.workspace, as_of=day, sbls=part)
                return rows, time.perf_counter() - began

            def done(result: tuple[list[dict[str, Any]], float]) -> None:
                rows, took = result
                self._merge_overview(rows)
                chunk(start + len(part), max(fewest, min(most, int(
                    len(part) * self.OVERVIEW_CHUNK_S / max(took, 0.001)))))

            self.runner.run(work, done, on_error=self.ctx.error)

        self._show_list_counts(done=False)
        chunk(0, fewest)

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

    def _list_row_changed(self, rows: list[dict[str, Any]]) -> None:
        """A parcel's outcome and flags as now stored, into its row of the list and the
        work lists' counts (once the work lists are worked out; until then the chunk that
        holds it brings them)."""
        if self.lists_state.text() != "Work lists up to date":
            return
        self._merge_overview(rows)
        self._show_list_counts(done=True)

    def _merge_overview(self, rows: list[dict[str, Any]]) -> None:
        changed = []
        for new in rows:
            index = getattr(self, "_row_of", {}).get(new["sbl"])
            if index is None or index >= len(self.model.rows) or (
                    self.model.rows[index]["sbl"] != new["sbl"]):
                continue  # the list changed since: never one parcel's row on another
            self.model.rows[index].update(new)
            changed.append(index)
        if changed:
            # One signal for the chunk, naming only the columns the work lists fill (the
            # rows shown change when the work list or the search does).
            first = min(c for c, (key, _) in enumerate(COLUMNS) if key in OVERVIEW_COLUMNS)
            last = max(c for c, (key, _) in enumerate(COLUMNS) if key in OVERVIEW_COLUMNS)
            self.model.dataChanged.emit(self.model.index(min(changed), first),
                                        self.model.index(max(changed), last))

    def _count(self) -> None:
        total, shown = self.model.rowCount(), self.proxy.rowCount()
        if not total:
            self.count.setText("No parcels yet: load the demo parcels, import a case file, or "
                               "join the office with a field kit.")
        else:
            self.count.setText(f"{shown} of {total} parcels shown")

    def select(self, sbl: str, *, load: bool = True) -> None:
        row = self.proxy.row_of(sbl)
        if row is not None:
            self.table.selectRow(row)
            return
        if load:
            self.open_parcel(sbl)

    def _filter(self, change: Any) -> None:
        """Change what the list shows without opening another parcel: the open parcel
        stays open (and selected, when it is still in the list)."""
        self._filtering = True
        try:
            change()
            self.table.clearSelection()
            if self.sbl is not None:
                self.select(self.sbl, load=False)
        finally:
            self._filtering = False
        self._count()

    def _row_selected(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if current.isValid() and not getattr(self, "_filtering", False):
            sbl = current.data(ROW_ROLE)["sbl"]
            if sbl != self.sbl:
                self.open_parcel(sbl)

    def open_parcel(self, sbl: str) -> None:
        """Open a parcel: its id, case and version are read together; nothing else of the
        window changes unless all of it loads."""
        try:
            parcel_id, case, _version = self.runner.wait(
                lambda: self.workspace.open_for_edit(sbl))
        except InputError as exc:
            if sbl == self.sbl:  # the open parcel is gone (e.g. deleted by a sync import)
                self._load_failed(sbl, exc)
            return
        except Exception as exc:
            self._load_failed(sbl, exc)
            return
        if sbl != self.sbl:
            self.undo_stack.clear()  # undo never reaches into another parcel
        self.sbl = sbl
        self.parcel_id = parcel_id
        self._remember("sbl", sbl)
        self.show_case(case)

    def refresh_parcel(self, sbl: str) -> None:
        """Show the stored state of `sbl` again, if it is still the open parcel (work that
        finishes after the user moved on never reopens the parcel it was for)."""
        if sbl == self.sbl:
            self.open_parcel(sbl)

    def _forget_parcel(self) -> None:
        """No parcel open: nothing shown that could be saved, no undo step, and details
        still on their way are dropped when they arrive."""
        self._shown_round = getattr(self, "_shown_round", 0) + 1
        self.undo_stack.clear()
        self.sbl = None
        self.parcel_id = None
        self.case = None
        self.form.clear()
        self.tabs.setEnabled(False)
        self.evaluation.show_evaluation(None)

    def _load_failed(self, sbl: str, exc: BaseException) -> None:
        """A parcel that cannot be shown completely is not shown at all, and the form
        cannot save anything until a parcel loads."""
        self._forget_parcel()
        reason = str(exc) if isinstance(exc, InputError) else f"{type(exc).__name__}: {exc}"
        self.heading.setText(f"{sbl} could not be opened")
        self._show_problem(f"Parcel {sbl} could not be opened, so nothing can be edited: "
                           f"{reason}")
        self.message.setText(f"{sbl} could not be opened")

    def show_case(self, case: Case) -> None:
        try:
            self.form.load(case)
        except Exception as exc:
            self._load_failed(case.parcel.sbl, exc)
            return
        self.case = case
        self.tabs.setEnabled(True)
        self.problem.hide()
        p = case.parcel
        self.heading.setText(f"{p.sbl}  ·  {p.site_address}  ·  {p.owner_name}")
        sbl = p.sbl
        day = self.ctx.today()
        self._shown_round = round_ = getattr(self, "_shown_round", 0) + 1

        from ..services.lists.overview import overview
        from ..services.parcel.sketch import site_map

        def details() -> tuple[Any, ...]:
            ws = self.workspace
            return (ws.assess_parcel(sbl, as_of=day), site_map(ws, case), ws.history(sbl),
                    ws.attachments(sbl), overview(ws, as_of=day, sbls=[sbl]),
                    _site_imagery(ws, sbl))

        def shown(result: tuple[Any, ...]) -> None:
            evaluation, site_map_data, history, photos, row, imagery = result
            self._list_row_changed(row)  # the parcel's own row, wherever the user is now
            if round_ != self._shown_round or sbl != self.sbl:
                return  # the user has moved on: never show one parcel's details on another
            from ..services.session.laws import NoLawFacts

            self.evaluation.show_evaluation(evaluation)
            if isinstance(evaluation, NoLawFacts):  # measured, never judged: no zone shown
                self.site.show_site(*site_map_data, lake=None, imagery=imagery)
                self.letters.load(sbl, [], no_law=evaluation.sentence)
            else:
                self.site.show_site(*site_map_data, lake=evaluation.lake, imagery=imagery)
                self.letters.load(sbl, [k.value for k in evaluation.letters])
            self._show_history(history)
            self._show_photos(photos)

        self.ctx.run(details, shown)

    def _show_history(self, rows: list[dict[str, Any]]) -> None:
        """The change log in words, with the sync-conflict decisions made on the parcel."""
        from ..services.parcel.history import with_decisions

        sbl, round_ = self.sbl, getattr(self, "_shown_round", 0)
        if sbl is None:
            return

        def shown(full: list[dict[str, Any]]) -> None:
            if sbl == self.sbl and round_ == getattr(self, "_shown_round", 0):
                self.history.show_history(full)

        self.ctx.run(lambda: with_decisions(self.workspace, sbl, rows), shown)

    def _show_photos(self, rows: list[dict[str, Any]]) -> None:
        self.photos.clear()
        for r in rows:
            item = QListWidgetItem(r["caption"] or r["filename"])
            pixmap = QPixmap(str(self.workspace.attachment_path(r["sha256"])))
            if not pixmap.isNull():
                item.setIcon(QIcon(pixmap.scaled(140, 105, Qt.AspectRatioMode.KeepAspectRatio)))
            self.photos.addItem(item)

    # --- editing --------------------------------------------------------------------

    def _show_problem(self, text: str) -> None:
        from ..domain.labels import for_people

        # Case-file messages name fields by path (the public contract); people read words.
        self.problem.setText(for_people(text, getattr(self.form, "case", None) or self.case))
        self.problem.show()

    def _form_edited(self, form: CaseForm) -> None:
        try:
            before, after = form.current_edit()
        except ValueError as exc:
            self._show_problem(f"Not saved: {exc}")
            return
        self._commit(before, after)

    def _components_edited(self, after: Case) -> None:
        if self.form.case is not None:
            self._commit(self.form.case, after)

    def _new_inspection(self, current: Case) -> None:
        """Today's visit as a new inspection by the user, nothing copied from the last
        one (its certification, weather and findings were someone else's, another day)."""
        from dataclasses import replace

        from ..domain.case import Inspection
        from ..domain.labels import words
        from ..domain.vocabulary import InspectionReason

        if self.form.case is None:
            return
        day = self.ctx.today()
        if current.inspection is not None and current.inspection.date == day:
            self._show_problem(f"An inspection dated {day.isoformat()} is already on record "
                               "for this parcel: the form shows it.")
            return
        reasons = [r.value for r in InspectionReason]
        choice, ok = QInputDialog.getItem(
            self, "New inspection", f"Reason for the inspection of {day.isoformat()} by "
            f"{self.workspace.store.actor.user}:", [words(r) for r in reasons], 0, False)
        if not ok:
            return
        reason = InspectionReason(reasons[[words(r) for r in reasons].index(choice)])
        self._commit(self.form.case, replace(current, inspection=Inspection(
            date=day, inspector=self.workspace.store.actor.user, reason=reason)))

    def _commit(self, before: Case, after: Case) -> None:
        """Check an edit as a case file is checked, save it, and put it on the undo stack."""
        from .. import casefile
        from ..domain.edits import changed_paths
        from ..domain.labels import field_label

        parcel_id = getattr(self, "parcel_id", None)
        if parcel_id is None or before.parcel.sbl != self.sbl:
            return  # the form is not showing the open parcel: never save it anywhere
        found = casefile.new_problem(before, after, source="The form", today=self.ctx.today())
        if found is not None:
            self._show_problem(f"Not saved: {found.removeprefix('The form: ')}")
            return
        self.problem.hide()
        if after == before:
            return
        paths = changed_paths(before, after)
        text = field_label(paths[0], before) if len(paths) == 1 else f"{len(paths)} fields"
        if self.save_edit(parcel_id, before, after):
            self.undo_stack.push(SaveCase(self, parcel_id, before, after, text))

    def save_edit(self, parcel_id: str, before: Case, after: Case) -> bool:
        """Write the change from `before` to `after` onto the parcel `parcel_id` as stored
        now; show the result if it is the open parcel. False if nothing was saved."""
        day = self.ctx.today()
        try:
            case, _version = self.runner.wait(
                lambda: self.workspace.save_edit(parcel_id, before, after, today=day))
        except InputError as exc:
            self._show_problem(str(exc).removeprefix("The form: "))
            if self.sbl is not None:
                self.open_parcel(self.sbl)  # show what is stored
                self._show_problem(str(exc).removeprefix("The form: "))
            return False
        if parcel_id == getattr(self, "parcel_id", None):
            self.show_case(case)
        self.message.setText(f"Saved {case.parcel.sbl}")
        return True

    def undo(self) -> None:
        if self.workbench_built and self.form.is_dirty():
            self.form.revert()
            self.problem.hide()
            self.message.setText("Typing not yet saved was taken back.")
        elif self.undo_stack.canUndo():
            self.undo_stack.undo()
        else:
            self.message.setText("Nothing to undo for this parcel.")

    def redo(self) -> None:
        if self.workbench_built and self.form.is_dirty():
            self.form.revert()
        if self.undo_stack.canRedo():
            self.undo_stack.redo()
        else:
            self.message.setText("Nothing to redo.")

    def confirm_saved(self) -> None:
        """Ctrl+S: every finished field is saved at once; this finishes the one in hand."""
        if self.workbench_built and self.form.is_dirty():
            self._form_edited(self.form)
        if self.problem.isVisible():
            return
        self.message.setText("All changes are saved: every field is saved as you leave it.")

    def _record_changed(self, sbl: str) -> None:
        self.refresh_parcel(sbl)

    def _decide(self, key: str, accept: bool, note: str = "") -> None:
        sbl = self.sbl
        if sbl is None:
            return
        self.ctx.run(lambda: self.workspace.decide_suggestion(sbl, key, accept=accept,
                                                              note=note or None,
                                                              as_of=self.ctx.today()),
                     lambda _: self.refresh_parcel(sbl))

    def _undo_decision(self, key: str) -> None:
        sbl = self.sbl
        if sbl is None:
            return
        self.ctx.run(lambda: self.workspace.reopen_suggestion(sbl, key),
                     lambda undone: (self.message.setText(undone.summary()),
                                     self.refresh_parcel(sbl)))

    def _area_drawn(self, points: list[tuple[float, float]]) -> None:
        sbl = self.sbl
        if sbl is None:
            return
        target = self.site.target.currentData()
        self.ctx.run(lambda: _services().site.set_from_state_plane(self.workspace, sbl, target,
                                                               points),
                     self._after_site_edit(sbl))

    def _area_edited(self, corners: list[tuple[float, float]]) -> None:
        sbl = self.sbl
        if sbl is None:
            return
        self.ctx.run(lambda: _services().site.set_from_state_plane(self.workspace, sbl,
                                                               "absorption_area", corners),
                     self._after_site_edit(sbl))

    def _after_site_edit(self, sbl: str) -> Any:
        """The callback for a map edit of `sbl` that starts now: it remembers the case as it
        is before the edit, so that the edit can be undone like any other."""
        before, parcel_id = self.case, self.parcel_id

        def done(result: dict[str, Any]) -> None:
            self._site_saved(sbl, result)
            after = self.case
            if (before is not None and after is not None and parcel_id is not None
                    and parcel_id == self.parcel_id and before != after):
                label = _services().site.target_label(result["target"])
                self.undo_stack.push(SaveCase(self, parcel_id, before, after,
                                              f"map: {label.lower()}"))

        return done

    def _site_saved(self, sbl: str, result: dict[str, Any]) -> None:
        """Say what was saved and what the lake distance now goes by, then show the parcel
        as stored (if it is still the open one)."""
        text = f"{_services().site.target_label(result['target'])} saved for {sbl}."
        lake = result.get("lake") or {}
        if lake.get("distance_ft") is not None:
            by = (f"the {lake['method']}" if lake["source"] == "field" and lake.get("method")
                  else "the measured distance" if lake["source"] == "field" else "the map")
            accuracy = (f", ±{lake['accuracy_ft']:,.0f} ft" if lake["source"] == "map"
                        and lake.get("accuracy_ft") is not None else "")
            zone = lake["zone"].replace("_", " ").replace("200ft", "200 ft")
            text += (f" The lake distance goes by {by} ({lake['distance_ft']:,.1f} ft"
                     f"{accuracy}): {zone}.")
        self.message.setText(text)
        if sbl == self.sbl:
            self.open_parcel(sbl)

    def _type_coordinates(self) -> None:
        sbl = self.sbl
        if sbl is None:
            return
        from .coordinates import CoordinatesDialog

        target, label = self.site.target.currentData(), self.site.target.currentText()
        answer = CoordinatesDialog.ask(self, label, target,
                                       str(self.settings.value("coordinate_system", "lonlat")))
        if answer is None:
            return
        system, text = answer
        self.settings.setValue("coordinate_system", system)
        self.message.setText(f"Saving the {label.lower()}...")
        self.ctx.run(lambda: _services().site.set_from_typed(self.workspace, sbl, target, text,
                                                             system),
                     self._after_site_edit(sbl))

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
                self._after_site_edit(sbl))

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
                     self._after_site_edit(sbl))

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
                                    self.refresh_parcel(sbl)))

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
        from ..services.reference.shorelines import import_layer

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

    def import_imagery(self) -> None:
        """File > Import aerial imagery: a file, then its name, copy or reference, source and
        date; the import runs on the worker with a progress bar and Cancel."""
        from .imports import IMAGERY_FILTER, ImageryImportDialog

        path, _ = QFileDialog.getOpenFileName(self, "Aerial imagery", "", IMAGERY_FILTER)
        if not path:
            return
        dialog = ImageryImportDialog(Path(path), self, today=self.ctx.today())
        if dialog.exec() != ImageryImportDialog.DialogCode.Accepted:
            return
        self.run_imagery_import(Path(path), **dialog.values())

    def run_imagery_import(self, path: Path, *, name: str, copy: bool,
                           source: str | None = None, captured_on: Any = None) -> Any:
        from ..services.reference import basemaps

        def work(progress: Callable[[int, int], None], cancelled: Callable[[], bool]) -> Any:
            if cancelled():
                raise InputError(f"The import of {path.name} was cancelled; nothing was "
                                 "imported.")
            return _call_with_progress(basemaps.import_basemap, self.workspace, path,
                                       progress=progress, cancelled=cancelled, name=name,
                                       copy=copy, source=source, captured_on=captured_on)

        def done(result: dict[str, Any]) -> None:
            how = "copied into the data folder" if copy else f"referred to at {path}"
            label = result.get("label") or result.get("name") or name
            self.message.setText(f"Imagery {label} imported ({how}) and shown on the site "
                                 "maps.")
            if self.sbl:
                self.open_parcel(self.sbl)

        return _dialogs().run_with_progress(self.ctx, self, f"Importing {path.name}...",
                                            work, done)

    def import_lot_lines(self) -> None:
        """File > Import tax-parcel lines: a file, then its name and SBL field; the report
        says how many lots matched parcels, and which did not and why."""
        from .imports import LOTS_FILTER, LotsImportDialog

        path, _ = QFileDialog.getOpenFileName(self, "Tax-parcel lines", "", LOTS_FILTER)
        if not path:
            return
        dialog = LotsImportDialog(Path(path), self)
        if dialog.exec() != LotsImportDialog.DialogCode.Accepted:
            return
        self.run_lots_import(Path(path), **dialog.values())

    def run_lots_import(self, path: Path, *, name: str | None = None,
                        sbl_field: str | None = None, source: str | None = None) -> Any:
        from ..services.reference import lot_lines as lots

        def work(progress: Callable[[int, int], None], cancelled: Callable[[], bool]) -> Any:
            return lots.import_lot_lines(self.workspace, path, name=name, sbl_field=sbl_field,
                                         source=source, progress=progress,
                                         cancelled=cancelled)

        def done(report: dict[str, Any]) -> None:
            from .imports import LotReportDialog

            unmatched = len(report.get("unmatched") or [])
            self.message.setText(f"Tax-parcel lines: {report.get('matched', 0):,} of "
                                 f"{report.get('features', 0):,} lot(s) matched a parcel; "
                                 f"{unmatched:,} did not (see the report).")
            self.lot_report = LotReportDialog(report, self)
            self.lot_report.show()
            if self.sbl:
                self.open_parcel(self.sbl)

        return _dialogs().run_with_progress(self.ctx, self, f"Importing {path.name}...",
                                            work, done)

    def _choose_basemap(self, basemap_id: str) -> None:
        """The site map's chooser: make a basemap the active one (a record, so on the
        worker), or none; then draw the open parcel again."""
        from ..services.reference import basemaps

        def work() -> None:
            if basemap_id:
                basemaps.activate_basemap(self.workspace, basemap_id)
            else:
                basemaps.deactivate_basemap(self.workspace)

        def done(_: Any) -> None:
            if self.sbl:
                self.open_parcel(self.sbl)

        self.runner.run(work, done, on_error=self._basemap_failed)

    def _basemap_failed(self, exc: BaseException) -> None:
        self.ctx.error(exc)
        if self.sbl:
            self.open_parcel(self.sbl)  # the chooser shows the basemap still active

    def measure_all(self) -> None:
        from ..services.parcel.measure_all import measure_parcels

        _dialogs().run_with_progress(self.ctx, self, "Measuring every parcel on the layer...",
                          lambda progress, cancelled: measure_parcels(
                              self.workspace, None, today=self.ctx.today(), progress=progress,
                              cancelled=cancelled),
                          lambda r: self.message.setText(
                              f"Measured {r['parcels']} parcel(s) on {r['layer']}: "
                              f"{r['new_measurements']} new distance(s) kept"))

    def join_kit(self) -> None:
        """Set up this laptop from a field kit, in the folder open now if it holds nothing
        yet or in another empty folder, and open that folder in this window."""
        kit, _ = QFileDialog.getOpenFileName(self, "Field kit from the office", "",
                                             "Field kits (*.zip)")
        if not kit:
            return
        from ..services import exchange as sync

        here = self.workspace.folder.root
        folder: Path | None = None
        if self.runner.wait(lambda: sync.holds_nothing_yet(self.workspace.store)):
            buttons = (QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No
                       | QMessageBox.StandardButton.Cancel)
            answer = QMessageBox.question(
                self, "Set up this laptop", f"The data folder open now holds no records "
                f"yet:\n{here}\n\nSet up this laptop in it? (No: choose another empty "
                "folder.)", buttons, QMessageBox.StandardButton.Yes)
            if answer == QMessageBox.StandardButton.Cancel:
                return
            if answer == QMessageBox.StandardButton.Yes:
                folder = here
        if folder is None:
            chosen = QFileDialog.getExistingDirectory(self, "An empty folder for this "
                                                      "laptop's records")
            if not chosen:
                return
            folder = Path(chosen)
            problem = None if (folder / DATABASE_NAME).is_file() else _not_empty(folder)
            if problem:
                self.ctx.error(InputError(problem))
                return
        passphrase, ok = QInputDialog.getText(
            self, "Set up this laptop", "Passphrase of the field kit (the office chose it at "
            "enrolment):", QLineEdit.EchoMode.Password)
        if not ok:
            return
        user, kit_path, target = self.workspace.store.actor.user, Path(kit), folder
        self.switch_folder(
            target, prepare=lambda: sync.join(target, kit_path, user=user,
                                              passphrase=passphrase),
            done_text=lambda r: f"This laptop is set up as {r['device']} with "
                                f"{r['parcels']} parcel(s); {target} is open. Check that "
                                f"the office key fingerprint {r['office_fingerprint']} is the "
                                "one the office showed.")

    # --- data folders ---------------------------------------------------------------

    RECENT_KEY = "recent_data_folders"
    RECENT_KEPT = 8

    def open_folder(self) -> None:
        path = QFileDialog.getExistingDirectory(self, "Open a data folder (the folder that "
                                                f"holds {DATABASE_NAME})")
        if path:
            self.switch_folder(Path(path))

    def new_folder(self) -> None:
        path = QFileDialog.getExistingDirectory(self, "New data folder: choose an empty "
                                                "folder, or create one here")
        if not path:
            return
        root = Path(path)
        problem = _not_empty(root)
        if problem:
            self.ctx.error(InputError(problem))
            return
        self.switch_folder(root, create=True,
                           done_text=lambda _: f"New data folder {root} is open; it holds "
                                               "no records yet.")

    def switch_folder(self, root: Path, *, create: bool = False,
                      prepare: Callable[[], Any] | None = None,
                      done_text: Callable[[Any], str] | None = None) -> None:
        """Open another data folder in this window.

        The worker first finishes what it was given, then (after `prepare`, e.g. joining a
        field kit) opens `root`, and only once that worked closes the folder that was
        open: a folder that cannot be opened is reported and the window stays where it
        was. Without `create`, only a folder that already holds a database is opened."""
        if getattr(self, "_switching", False):
            return
        root = root.expanduser().resolve()
        old = self.workspace
        if prepare is None and old is not None and old.folder.root.resolve() == root:
            self.message.setText(f"{root} is already open.")
            return
        user = old.store.actor.user if old is not None else None
        self._switching = True
        self._overview_round = getattr(self, "_overview_round", 0) + 1  # stop the work lists
        report = getattr(self, "program_report_dialog", None)
        if report is not None and not report.closed:
            report.reject()  # its job, cancelled, lets nothing through to the switch
        self.centralWidget().setEnabled(False)
        self.menuBar().setEnabled(False)
        self.message.setText(f"Opening {root}...")

        def work() -> tuple[Workspace, Any]:
            from ..services.workspace import Workspace

            prepared = prepare() if prepare is not None else None
            if not create and not (root / DATABASE_NAME).is_file():
                raise InputError(
                    f"{root} is not a Watershed Inspector data folder: it holds no "
                    f"{DATABASE_NAME}, and nothing was written there. Choose the folder "
                    "that holds it, or start one with File > New data folder...")
            new = Workspace(root, user=user)
            if old is not None:
                old.close()
            return new, prepared

        def done(result: tuple[Workspace, Any]) -> None:
            self._switching = False
            new, prepared = result
            self.attach(new)
            self.message.setText(done_text(prepared) if done_text else f"Opened {root}")

        def failed(exc: BaseException) -> None:
            self._switching = False
            self.centralWidget().setEnabled(True)
            self.menuBar().setEnabled(True)
            self.ctx.error(exc)
            if old is not None:
                self.message.setText(f"{root} was not opened; {old.folder.root} is still "
                                     "open.")
            self.refresh_overview()

        self._when_idle(lambda: self.runner.run(work, done, on_error=failed))

    def _when_idle(self, then: Callable[[], None]) -> None:
        """Call `then` once every job given to the worker so far is done and shown."""
        if self.runner.pending:
            QTimer.singleShot(10, lambda: self._when_idle(then))
        else:
            then()

    def _folder_key(self, name: str) -> str:
        """A setting of the open data folder, in a group named after its resolved path
        (hashed: a path's slashes would nest groups)."""
        path = str(self.workspace.folder.root.resolve())
        return f"data_folders/{hashlib.sha256(path.encode()).hexdigest()[:20]}/{name}"

    def _remember(self, name: str, value: Any) -> None:
        if self.workspace is None:
            return  # no folder open yet
        self.settings.setValue(self._folder_key("path"),
                               str(self.workspace.folder.root.resolve()))
        self.settings.setValue(self._folder_key(name), value)

    def _recalled(self, name: str, default: Any = None) -> Any:
        return self.settings.value(self._folder_key(name), default)

    def _recent_folders(self) -> list[str]:
        value = self.settings.value(self.RECENT_KEY) or []
        return [str(v) for v in ([value] if isinstance(value, str) else value)]

    def _add_recent(self, root: Path) -> None:
        path = str(root.resolve())
        folders = [path, *(f for f in self._recent_folders() if f != path)]
        self.settings.setValue(self.RECENT_KEY, folders[:self.RECENT_KEPT])
        self._fill_recent()

    def _fill_recent(self) -> None:
        """The last folders opened, newest first; one that is not there now (a USB drive
        that is out) stays in the list, disabled."""
        menu = self.recent_menu
        # The entry that switched folders may be the one emitting `triggered` still: the
        # entries go once control is back in the event loop.
        for old in menu.actions():
            menu.removeAction(old)
            old.deleteLater()
        current = (str(self.workspace.folder.root.resolve()) if self.workspace is not None
                   else None)
        folders = self._recent_folders()[:self.RECENT_KEPT]
        if not folders:
            menu.addAction("No data folders opened yet").setEnabled(False)
        for path in folders:
            there = (Path(path) / DATABASE_NAME).is_file()
            action = menu.addAction(path if there else f"{path}  (not found)")
            if path == current:
                action.setCheckable(True)
                action.setChecked(True)
            action.setEnabled(there and path != current)
            action.triggered.connect(lambda _=False, p=path: self.switch_folder(Path(p)))

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

    def show_program_report(self) -> Any:
        """Reports > Program report: the report to the Watershed Commission for a period,
        previewed, saved as a PDF, its inspections exported."""
        from .reports import ProgramReportDialog

        shown = getattr(self, "program_report_dialog", None)
        if shown is not None and not shown.closed:
            shown.raise_()
            shown.activateWindow()
            return shown
        if shown is not None:
            shown.deleteLater()
        self.program_report_dialog = ProgramReportDialog(self.ctx, self)
        self.program_report_dialog.show()
        return self.program_report_dialog

    def export_package(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Export a sync package (USB drive or "
                                              "shared folder)", "inspector-package.zip",
                                              "Sync packages (*.zip)")
        if path:
            from ..services import exchange as sync

            # an office package is for one laptop: with several, the person names it
            status = self.runner.wait(lambda: sync.status(self.workspace))
            laptops = [d["device"] for d in status.get("devices", []) if not d.get("revoked")]
            device = None
            if status["role"] == "office" and len(laptops) > 1:
                device, ok = QInputDialog.getItem(
                    self, "Export a sync package", "The package is for the laptop "
                    "(it carries that laptop's parcels only):", laptops, 0, False)
                if not ok:
                    return
            self.ctx.run(lambda: sync.export(self.workspace, Path(path), device=device),
                         lambda r: self.message.setText(f"Exported {r['changes']} change(s) "
                                                        f"to {r['path']}"))

    def import_package(self) -> None:
        from ..services import exchange as sync

        path, _ = QFileDialog.getOpenFileName(self, "Import a sync package", "",
                                              "Sync packages (*.zip)")
        if path:
            _dialogs().run_with_progress(self.ctx, self, "Checking and applying the package...",
                              lambda progress, cancelled: sync.import_package(self.workspace,
                                                                              Path(path)),
                              self._imported)

    def _imported(self, result: dict[str, Any]) -> None:
        # Only conflicts still open once the whole package is in need a decision: one that
        # a later change in the same package settled (the other side's resolution, or its
        # coming round to the value here) does not.
        waiting = 0 if result["already_imported"] else int(result.get("open_conflicts", 0))
        if result["already_imported"]:
            text = "This package was imported before; nothing was applied again."
        else:
            text = (f"Applied {result['applied']} change(s); {waiting} conflict(s) need a "
                    "decision (Sync > Conflicts...)." if waiting else
                    f"Applied {result['applied']} change(s); no conflicts need a decision.")
        self.load_parcels()
        self.message.setText(text)
        if not self.runner.synchronous:
            QMessageBox.information(self, "Sync package imported", text)
        if waiting:
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
        from ..services import exchange as sync

        name, parcels, passphrase, same = dialog.values()
        if not same:
            self.ctx.error(InputError("The two passphrases differ; type the same kit "
                                      "passphrase twice."))
            return
        path, _ = QFileDialog.getSaveFileName(self, "Save the field kit", f"{name}-kit.zip",
                                              "Field kits (*.zip)")
        if path:
            self.ctx.run(lambda: sync.enroll(self.workspace, name, Path(path), parcels,
                                             passphrase=passphrase),
                         lambda r: self.message.setText(
                             f"Field kit for {r['device']} written to {r['path']}. Office key "
                             f"fingerprint: {r['office_fingerprint']} (the laptop shows it "
                             "when it is set up)."))

    def install_demo(self) -> None:
        from ..services.demo.parcels import install_demo

        _dialogs().run_with_progress(self.ctx, self, "Loading the demo parcels...",
                          lambda progress, cancelled: install_demo(
                              self.workspace, today=self.ctx.today(), progress=progress),
                          lambda _: self.load_parcels())

    # --- view -----------------------------------------------------------------------

    def toggle_contrast(self) -> None:
        """Apply the normal or the high-contrast theme (ui/theme.py), as the View menu has
        it, and show the evaluation and the site map again in its colours."""
        from . import theme

        on = self.contrast.isChecked()
        self.settings.setValue("high_contrast", on)
        app = QApplication.instance()
        assert isinstance(app, QApplication)
        theme.apply(app, theme.HIGH_CONTRAST if on else theme.NORMAL)
        if self.workbench_built:
            self.evaluation.restyle()
            self.site.restyle()

    def show_guide(self) -> None:
        from .guide import GuideWindow, guide_candidates, guide_path

        path = guide_path()
        if path is None:
            QMessageBox.warning(self, "Watershed Inspector", "The user guide is missing from "
                                "this installation (looked for "
                                f"{', '.join(map(str, guide_candidates()))}); reinstall "
                                "the app.")
            return
        if getattr(self, "guide", None) is None:
            self.guide = GuideWindow(path, self)
        self.guide.show()
        self.guide.raise_()

    def show_about(self) -> None:
        """The app's version, and what the open data folder says about itself."""
        import html
        import platform

        from PySide6 import __version__ as pyside_version

        ws = None if getattr(self, "_switching", False) else self.workspace
        parts = [f"<b>Watershed Inspector {__version__}</b>",
                 "<p>Field inspections of on-site wastewater treatment systems.</p>"]
        if ws is not None:
            try:
                laws = self.runner.wait(lambda: ws.laws)
                rules_text = "; ".join(
                    f"{j.title} for {', '.join(j.municipalities)}"
                    + (" (an example, not adopted law)" if j.example else "")
                    for j in laws.files)
            except InputError as exc:
                rules_text = f"the rules file cannot be read: {exc}"
            facts = [f"Data folder: {ws.folder.root}",
                     f"Changes are recorded as: {ws.store.actor.user}",
                     f"This folder's device name: {ws.store.device_name}",
                     f"Rules: {rules_text}", self.layer_label.text()]
            parts.append("<p>" + "<br>".join(html.escape(f) for f in facts if f) + "</p>")
        parts.append(f"<p>Python {platform.python_version()}, PySide6 {pyside_version}</p>")
        QMessageBox.about(self, "About Watershed Inspector", "".join(parts))

    def closeEvent(self, event: Any) -> None:
        # A field still being typed in is left (and so saved) while the worker still runs;
        # after `stop` nothing could be saved.
        focused = QApplication.focusWidget()
        if focused is not None and self.isAncestorOf(focused):
            focused.clearFocus()
        self.runner.stop()
        if self.workbench_built:
            self.site.stop()
        super().closeEvent(event)
