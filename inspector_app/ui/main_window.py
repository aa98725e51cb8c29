"""The main window: a shell that builds the window from its parts and owns what they share
(the data folder, the worker, the status bar, switching to another folder).

- `parcel_list.py`: the work lists, the search and the parcels, on the left;
- `workbench.py`: the open parcel's form, site map, letters, photos, history and
  evaluation, on the right (its edits saved by `case_edits.py` and `site_edits.py`);
- `data_folders.py`: open, new and recent folders, switching, joining a field kit;
- `actions/`: one module per menu.

Each part is given what it needs (the context, a callback), never the window.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QApplication, QLabel, QMainWindow, QSplitter, QTabWidget

from .actions import Menus
from .actions.edit import EditActions
from .actions.file import FileActions
from .actions.help import HelpActions
from .actions.letters import LettersActions
from .actions.records import RecordsActions
from .actions.reports import ReportsActions
from .actions.sync import SyncActions
from .actions.view import ViewActions
from .context import AppContext
from .data_folders import DataFolders, where
from .elided_label import ElidedLabel
from .file_dialogs import FileDialogs
from .office_databases import OfficeDatabases, desk_words
from .ops import Op
from .parcel_list import ParcelList
from .tasks import TaskRunner
from .who import WhoIsWorking
from .workbench import Workbench

# The window is built and shown before the parcel workbench (form, site map, letters)
# and the services behind it are imported: those load just after, while the worker is
# still opening the data folder.
if TYPE_CHECKING:
    from ..domain.case import Case
    from ..services.workspace import Workspace
    from .evaluation_panel import EvaluationPanel
    from .forms import CaseForm
    from .history_view import HistoryView
    from .letters_tab import LettersTab
    from .photos import PhotoList
    from .site_map import SiteMap

FolderView = tuple[list[dict[str, Any]], bool, dict[str, Any] | None]


def folder_view(ws: Workspace) -> FolderView:
    """What the window shows of a data folder before any parcel is open (on the worker):
    its parcels, whether they are demo data, the active shoreline layer."""
    from ..services.reference.shorelines import active_layer_info

    return ws.parcels(), ws.has_demo_parcels(), active_layer_info(ws)


class MainWindow(QMainWindow):
    def __init__(self, workspace: Workspace | None = None, *, root: Path | None = None,
                 user: str | None = None, runner: TaskRunner | None = None,
                 settings: QSettings | None = None, ask_who: bool = False,
                 database: str | None = None) -> None:
        """Open on a workspace, or on a data folder (`root`) that the worker opens while
        the window is already showing. With `ask_who` (the app started with no `--user`),
        who is working is asked once per data folder (`who.py`); else the changes are
        recorded as `user` (or as the workspace's)."""
        super().__init__()
        self.workspace: Workspace | None = workspace  # None until a data folder is attached
        self.runner = runner or TaskRunner()
        self.ctx = AppContext(workspace, self.runner)
        self.ctx.window = self
        self.settings = settings or QSettings("Watershed Inspector", "inspector-app")
        self.ctx.files = FileDialogs(self.settings)
        self.exit_status = 0
        self._attached = False
        if workspace is not None:
            opening = where(workspace)
        elif database is not None:
            from ..storage.postgres import described

            opening = described(database)
        else:
            opening = str(root)
        self.setWindowTitle(f"Watershed Inspector - {opening}")
        self.given_user = user
        screen = QApplication.primaryScreen().availableGeometry()
        self.resize(min(1400, screen.width()), min(860, screen.height()))
        self.folders = DataFolders(self.ctx, self.settings, self, leave=self._leaving_folder,
                                   attach=self.attach, stay=self._folder_kept,
                                   user_for=self._user_for)
        self.who = WhoIsWorking(self.ctx, self.folders, self, asks=ask_who,
                                shown=self._show_who)
        self.offices = OfficeDatabases(self.ctx, self.settings, self, folders=self.folders)
        self.workbench = Workbench(self.ctx, self.settings, remember=self.folders.remember,
                                   row_changed=lambda rows: self.parcel_list.row_changed(rows))
        self.parcel_list = ParcelList(self.ctx, open_parcel=self.open_parcel,
                                      wanted=lambda: self.workbench.wanted,
                                      install_demo=self.install_demo)
        self._build()
        self.menus = self._menus()
        self._install_input_guard()
        # (through lambdas: a queued call to a method of a window deleted meanwhile, as
        # in a test's teardown, would reach freed memory)
        self.ctx.status.connect(lambda text: self.say(text))
        self.ctx.changed.connect(self.workbench.refresh_parcel)  # an SBL whose records changed
        self.runner.busy_changed.connect(lambda busy: self._busy_changed(busy))
        self.menus.view.toggle_contrast()  # the theme the user chose last time
        if workspace is not None:
            self.attach(workspace, first_view=True)
        else:
            # Let the first frame paint, then build the workbench while the worker opens
            # the data folder.
            QTimer.singleShot(30, self.workbench.build)
            assert root is not None
            self.panes.setEnabled(False)
            self.menuBar().setEnabled(False)
            self.parcel_list.opening(opening)

            def open_folder() -> Workspace:
                from ..services.lists.summaries import prepare
                from ..services.workspace import Workspace

                workspace = Workspace(root, user=user, database=database)
                prepare(workspace)
                return workspace

            Op(self.runner, open_folder).success(self.attach).failure(self._open_failed).run()

    # --- the parts ------------------------------------------------------------------

    def _build(self) -> None:
        pl = self.parcel_list
        # The parcel list's widgets, by the names scripts and tests use.
        self.model, self.proxy, self.table = pl.model, pl.proxy, pl.table
        self.work_list, self.search, self.count = pl.work_list, pl.search, pl.count
        self.load_demo, self.demo_banner, self.layer_warning = (pl.load_demo, pl.demo_banner,
                                                                pl.layer_warning)
        self.lists_state = pl.lists_state
        self.heading, self.undo_stack = self.workbench.heading, self.workbench.undo_stack
        split = QSplitter()
        split.addWidget(pl)
        split.addWidget(self.workbench)
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 3)
        split.setChildrenCollapsible(False)
        pl.setMinimumWidth(280)
        width = self.width()
        split.setSizes([int(width * 0.3), int(width * 0.7)])
        self.setCentralWidget(split)
        self.panes = split  # the central widget: the parcel list beside the workbench

        # A long message is shortened with "…" (all of it in the tooltip); it never pushes
        # the permanent widgets off the status bar. It goes when it may no longer be true
        # (`say`).
        self.message = ElidedLabel(takes_the_rest=True)
        self.message_timer = QTimer(self)
        self.message_timer.setSingleShot(True)
        self.message_timer.timeout.connect(lambda: self.message.setText(""))
        # the layer's name asks for little, so that the messages fit beside it; shortened
        # in the middle, its start and its accuracy (at the end) stay in sight
        self.layer_label = ElidedLabel(maximum_chars=40, elide=Qt.TextElideMode.ElideMiddle)
        self.busy = QLabel()
        self.who_label = QLabel()
        self.who_label.setToolTip("Who is working: every change, decision and letter made "
                                  "here is recorded with this name (File > Who is "
                                  "working... changes it).")
        self.statusBar().addWidget(self.message, 1)
        self.statusBar().addPermanentWidget(self.busy)
        self.statusBar().addPermanentWidget(self.who_label)
        self.statusBar().addPermanentWidget(self.lists_state)
        self.statusBar().addPermanentWidget(self.layer_label)

    def _menus(self) -> Menus:
        bar = self.menuBar()
        file, edit = bar.addMenu("&File"), bar.addMenu("&Edit")
        # Records has no Alt letter: each of its letters opens a field of the form.
        letters, records = bar.addMenu("&Letters"), bar.addMenu("Records")
        reports, sync = bar.addMenu("&Reports"), bar.addMenu("&Sync")
        view, help_menu = bar.addMenu("&View"), bar.addMenu("&Help")
        view.addActions(self.workbench.tab_actions)
        view.addSeparator()
        return Menus(
            file=FileActions(self.ctx, file, self, folders=self.folders, offices=self.offices,
                             workbench=self.workbench,
                             reload=self.load_parcels,
                             select=self.select, show_layer=self.show_layer,
                             refresh_overview=self.refresh_overview,
                             who_is_working=self.who.change),
            edit=EditActions(self.ctx, edit, workbench=self.workbench,
                             find=lambda: self.search.setFocus()),
            letters=LettersActions(self.ctx, letters, self,
                                   issue_called_for=lambda: self.workbench.issue_letter()),
            records=RecordsActions(self.ctx, records, self, imported=self._records_changed,
                                   open_document=self.workbench.open_document),
            reports=ReportsActions(self.ctx, reports, self),
            sync=SyncActions(self.ctx, sync, self, reload=lambda: self.load_parcels()),
            view=ViewActions(view, self.settings, restyle=self.workbench.restyle,
                             window=self),
            help=HelpActions(self.ctx, help_menu, self,
                             switching=lambda: self.folders.switching,
                             layer_text=lambda: self.layer_label.text()))

    def _install_input_guard(self) -> None:
        from .input_guard import InputGuard

        def shortcuts() -> list[QKeySequence]:
            return [k for a in self.findChildren(QAction) if a.isEnabled()
                    for k in a.shortcuts()]

        self.input_guard = InputGuard(shortcuts, lambda: self, self)
        app = QApplication.instance()
        assert app is not None
        app.installEventFilter(self.input_guard)  # removed by Qt with the window

    # The workbench's widgets and the open parcel, by the names scripts and tests use
    # (the workbench is built just after the window first shows).

    @property
    def workbench_built(self) -> bool:
        return self.workbench.built

    @property
    def form(self) -> CaseForm:
        return self.workbench.form

    @property
    def problem(self) -> QLabel:
        return self.workbench.problem

    @property
    def tabs(self) -> QTabWidget:
        return self.workbench.tabs

    @property
    def site(self) -> SiteMap:
        return self.workbench.site

    @property
    def letters(self) -> LettersTab:
        return self.workbench.letters

    @property
    def photos(self) -> PhotoList:
        return self.workbench.photos

    @property
    def history(self) -> HistoryView:
        return self.workbench.history

    @property
    def evaluation(self) -> EvaluationPanel:
        return self.workbench.evaluation

    @property
    def inner_split(self) -> QSplitter:
        return self.workbench.inner_split

    @property
    def sbl(self) -> str | None:
        return self.workbench.sbl

    @property
    def parcel_id(self) -> str | None:
        return self.workbench.parcel_id

    @property
    def case(self) -> Case | None:
        return self.workbench.case

    def open_parcel(self, sbl: str) -> None:
        self.workbench.open_parcel(sbl)

    def _records_changed(self, sbls: list[str]) -> None:
        """Records taken in from outside changed these parcels: the open one shows them,
        and the work lists are worked out again."""
        for sbl in sbls:
            self.ctx.changed.emit(sbl)
        self.refresh_overview()

    def select(self, sbl: str) -> None:
        self.parcel_list.select(sbl)

    def refresh_overview(self) -> None:
        self.parcel_list.refresh_overview()

    # --- the data folder ------------------------------------------------------------

    def attach(self, workspace: Workspace, *, first_view: bool = False) -> None:
        """The data folder is open: fill the window. Called again when the window switches
        to another folder: nothing of the folder before stays on show or on the undo stack."""
        self.workbench.build()
        if self._attached:
            self.workbench.clear()
            self.parcel_list.clear()
        self._attached = True
        self.workspace = workspace
        self.ctx.ws = workspace
        if workspace.store.database is None:
            self.folders.add_recent(workspace.folder.root)
        else:
            self.offices.add_recent(workspace.store.database)
        self.panes.setEnabled(True)
        self.menuBar().setEnabled(True)
        self.message.setText("")
        self.who.attached(workspace)
        self.load_parcels(first_view=first_view)

    # How long a message says what just happened ("Saved 13.-3-1", "Exported ...") before
    # it goes: after that it may no longer be true (another edit, another parcel).
    MESSAGE_LASTS_MS = 12_000

    def say(self, text: str) -> None:
        """A message in the status bar. One of work under way ("Importing ...") stays
        until the worker has nothing left to do; any other goes after MESSAGE_LASTS_MS."""
        self.message.setText(text)
        if text and not self._under_way(text):
            self.message_timer.start(self.MESSAGE_LASTS_MS)
        else:
            self.message_timer.stop()

    @staticmethod
    def _under_way(text: str) -> bool:
        return text.rstrip().endswith(("...", "\u2026"))

    def _busy_changed(self, busy: bool) -> None:
        self.busy.setText("Working..." if busy else "")
        if not busy and self._under_way(self.message.text()):
            self.message.setText("")  # the work it told of is over

    def _show_who(self, who: str) -> None:
        """The name every change is recorded as, in the title and the status bar; at an
        office database, the database and the login instead of a folder's path."""
        if self.workspace is None:
            return
        desk = desk_words(self.workspace)
        if desk is None:
            self.setWindowTitle(f"Watershed Inspector - {who} working - "
                                f"{self.workspace.folder.root}")
            self.who_label.setText(f"Working: {who}")
        else:
            self.setWindowTitle(f"Watershed Inspector - {desk}")
            self.who_label.setText(desk)

    def _user_for(self, old: Workspace | None) -> str | None:
        """Who a folder the window switches to opens with: the `--user` name, else (once
        open) the one remembered for it or asked (`who.py`); without asking, the name of
        the folder before."""
        if self.who.asks or old is None:
            return self.given_user
        return old.user

    def load_parcels(self, then: Callable[[], None] | None = None, *,
                     first_view: bool = False) -> None:
        """List the folder's parcels, say whether they are demo data and which shoreline
        layer is active, and reopen the parcel and tab where the user left off in this
        folder; then call `then`."""
        ws = self.workspace
        if ws is None:
            return  # no data folder attached: no parcels to list
        if first_view:
            # The window is being built on a folder already open and is not on screen yet:
            # no event can arrive, and the worker, just started, has nothing else to do,
            # so this waits only as long as the read. The window then shows its parcels
            # in its first frame, and a script that built it finds them listed.
            self._show_folder(self.runner.wait(lambda: folder_view(ws)), then)
            return
        Op(self.runner, lambda: folder_view(ws)).success(
            lambda view: self._show_folder(view, then)).failure(self.ctx.error).run()

    def _show_folder(self, view: FolderView, then: Callable[[], None] | None) -> None:
        rows, has_demo, layer = view
        self.parcel_list.show_parcels(rows, has_demo=has_demo)
        self._show_layer_info(layer)
        last = self.folders.recalled("sbl")  # this folder's, never another folder's
        if last:
            self.parcel_list.select(str(last))
        self.workbench.show_tab(int(self.folders.recalled("tab", 0)))
        self.search.setFocus()  # type to find a parcel, Enter to open it
        # The work lists are worked out once the window is up, not before it shows.
        QTimer.singleShot(0, self.refresh_overview)
        if then is not None:
            then()

    def show_layer(self) -> None:
        """Say again which shoreline layer is active (read on the worker)."""
        from ..services.reference.shorelines import active_layer_info

        ws = self.workspace
        if ws is None:
            return
        self.ctx.op(lambda: active_layer_info(ws)).success(self._show_layer_info).run()

    def _show_layer_info(self, layer: dict[str, Any] | None) -> None:
        from ..services.reference.shorelines import far_confirmed_text

        far = None if layer is None else far_confirmed_text(layer)
        self.layer_label.setText("No shoreline layer" if layer is None
                                 else f"Shoreline: {layer['label']}"
                                 + (" (imported although far)" if far else ""))
        if layer and far:
            self.layer_label.setToolTip(f"{layer['label']}: {far}")
        self.parcel_list.warn_about_layer(layer)

    def install_demo(self) -> None:
        from ..services.demo.parcels import install_demo

        ws, day = self.workspace, self.ctx.today()
        if ws is None:
            return
        self.ctx.op(lambda progress, cancelled: install_demo(ws, today=day, progress=progress)
                    ).success(lambda _: self.load_parcels()).with_progress(
            "Loading the demo parcels...", self).run()

    def _leaving_folder(self) -> None:
        """The worker is about to open another folder: nothing more is asked of this one."""
        self.parcel_list.stop_overview()
        self.menus.reports.close_report()
        self.panes.setEnabled(False)
        self.menuBar().setEnabled(False)

    def _folder_kept(self) -> None:
        """Another folder could not be opened: this one is shown as before."""
        self.panes.setEnabled(True)
        self.menuBar().setEnabled(True)
        self.refresh_overview()

    # The app started on this folder quits if it cannot be opened (run_gui sets this);
    # elsewhere (tests, a folder switch) the window stays.
    quit_if_folder_fails = False

    def _open_failed(self, exc: BaseException) -> None:
        from ..errors import InspectorError

        self.exit_status = exc.exit_status if isinstance(exc, InspectorError) else 1
        self.ctx.error(exc)
        if self.quit_if_folder_fails:
            QApplication.exit(self.exit_status)

    def closeEvent(self, event: Any) -> None:
        # A field still being typed in is left (and so saved) while the worker still runs;
        # after `stop` nothing could be saved.
        focused = QApplication.focusWidget()
        if focused is not None and self.isAncestorOf(focused):
            focused.clearFocus()
        self.runner.stop()
        self.workbench.stop()
        super().closeEvent(event)
