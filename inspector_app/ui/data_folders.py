"""Data folders: open, new and recent ones, switching the window to another, setting up
this laptop from a field kit; and the settings kept for each folder (where the user left
off in it)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QSettings, QTimer
from PySide6.QtWidgets import QInputDialog, QLineEdit, QMenu, QMessageBox, QWidget

from ..errors import InputError
from ..paths import DATABASE_NAME
from .context import AppContext

if TYPE_CHECKING:
    from ..services.workspace import Workspace
    from .fingerprint import FingerprintDialog

# Files an operating system leaves in any folder it shows; they do not make it "not empty".
_OS_LITTER = frozenset({".DS_Store", "Thumbs.db", "desktop.ini"})


def not_empty(root: Path) -> str | None:
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


def where(ws: Workspace) -> str:
    """What the window has open, in words: the office database, or the folder's path."""
    return ws.store.described or str(ws.folder.root)


def _address(database: str | None) -> str | None:
    """An office database's address as the user sees it (None: a data folder's own file)."""
    if database is None:
        return None
    from ..storage.postgres import shown

    return shown(database)


class DataFolders:
    """The data folders this window can show, and switching between them.

    The window says how: `leave()` before the worker opens another folder (nothing more
    is asked of the one open), `attach(workspace)` once it is open, `stay()` when it could
    not be opened and the folder before is still the one shown."""

    RECENT_KEY = "recent_data_folders"
    RECENT_KEPT = 8

    def __init__(self, ctx: AppContext, settings: QSettings, parent: QWidget, *,
                 leave: Callable[[], None], attach: Callable[[Workspace], None],
                 stay: Callable[[], None],
                 user_for: Callable[[Workspace | None], str | None]) -> None:
        self.ctx = ctx
        self._user_for = user_for
        self.fingerprint: FingerprintDialog | None = None  # shown after joining a kit
        self.settings = settings
        self.parent = parent
        self._leave, self._attach, self._stay = leave, attach, stay
        self.switching = False
        self.recent_menu = QMenu("&Recent data folders", parent)
        self.recent_menu.aboutToShow.connect(self.fill_recent)
        self.fill_recent()

    # --- the settings of the open folder ----------------------------------------------

    def _folder_key(self, name: str) -> str:
        """A setting of the open data folder, in a group named after its resolved path
        (hashed: a path's slashes would nest groups)."""
        assert self.ctx.ws is not None
        path = str(self.ctx.ws.folder.root.resolve())
        return f"data_folders/{hashlib.sha256(path.encode()).hexdigest()[:20]}/{name}"

    def remember(self, name: str, value: Any) -> None:
        if self.ctx.ws is None:
            return  # no folder open yet
        self.settings.setValue(self._folder_key("path"), str(self.ctx.ws.folder.root.resolve()))
        self.settings.setValue(self._folder_key(name), value)

    def recalled(self, name: str, default: Any = None) -> Any:
        return self.settings.value(self._folder_key(name), default)

    # --- File menu --------------------------------------------------------------------

    def open_folder(self) -> None:
        path = self.ctx.files.folder(self.parent, "data folders", "Open a data folder (the "
                                     f"folder that holds {DATABASE_NAME})")
        if path:
            self.switch_folder(path)

    def new_folder(self) -> None:
        root = self.ctx.files.folder(self.parent, "data folders", "New data folder: choose an "
                                     "empty folder, or create one here")
        if root is None:
            return
        problem = not_empty(root)
        if problem:
            self.ctx.error(InputError(problem))
            return
        self.switch_folder(root, create=True,
                           done_text=lambda _: f"New data folder {root} is open; it holds "
                                               "no records yet.")

    def join_kit(self) -> None:
        """Set up this laptop from a field kit, in the folder open now if it holds nothing
        yet or in another empty folder, and open that folder in this window."""
        kit = self.ctx.files.open_file(self.parent, "field kits", "Field kit from the office")
        ws = self.ctx.ws
        if kit is None or ws is None:
            return
        from ..services import exchange as sync

        self.ctx.op(lambda: sync.holds_nothing_yet(ws.store)).success(
            lambda empty: self._join_kit(ws, kit, here_is_empty=empty)).run()

    def _join_kit(self, ws: Workspace, kit: Path, *, here_is_empty: bool) -> None:
        from ..services import exchange as sync

        here = ws.folder.root
        folder: Path | None = None
        if here_is_empty:
            buttons = (QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No
                       | QMessageBox.StandardButton.Cancel)
            answer = QMessageBox.question(
                self.parent, "Set up this laptop", f"The data folder open now holds no "
                f"records yet:\n{here}\n\nSet up this laptop in it? (No: choose another "
                "empty folder.)", buttons, QMessageBox.StandardButton.Yes)
            if answer == QMessageBox.StandardButton.Cancel:
                return
            if answer == QMessageBox.StandardButton.Yes:
                folder = here
        if folder is None:
            folder = self.ctx.files.folder(self.parent, "data folders", "An empty folder for "
                                           "this laptop's records")
            if folder is None:
                return
            problem = None if (folder / DATABASE_NAME).is_file() else not_empty(folder)
            if problem:
                self.ctx.error(InputError(problem))
                return
        passphrase, ok = QInputDialog.getText(
            self.parent, "Set up this laptop", "Passphrase of the field kit (the office chose "
            "it at enrolment):", QLineEdit.EchoMode.Password)
        if not ok:
            return
        user, target = ws.store.actor.user, folder
        self.switch_folder(
            target, prepare=lambda: sync.join(target, kit, user=user, passphrase=passphrase),
            done_text=lambda r: f"This laptop is set up as {r['device']} with "
                                f"{r['parcels']} parcel(s); {target} is open. Check that "
                                f"the office key fingerprint {r['office_fingerprint']} is the "
                                "one the office showed.",
            then=lambda r: self._show_fingerprint(r, target))

    def _show_fingerprint(self, joined: dict[str, Any], folder: Path) -> None:
        from .fingerprint import show_fingerprint

        self.fingerprint = show_fingerprint(
            self.parent, fingerprint=joined["office_fingerprint"], enrolled=False,
            done=f"This laptop is set up as {joined['device']} with {joined['parcels']} "
                 f"parcel(s); {folder} is open.")

    # --- switching --------------------------------------------------------------------

    def switch_folder(self, root: Path, *, create: bool = False,
                      prepare: Callable[[], Any] | None = None,
                      done_text: Callable[[Any], str] | None = None,
                      then: Callable[[Any], None] | None = None,
                      database: str | None = None) -> None:
        """Open another data folder in this window (with `database`, the office database
        at that address, `root` being this desk's folder for it).

        The worker first finishes what it was given, then (after `prepare`, e.g. joining a
        field kit) opens `root`, and only once that worked closes the folder that was
        open: a folder that cannot be opened is reported and the window stays where it
        was. Without `create`, only a folder that already holds a database is opened."""
        if self.switching:
            return
        root = root.expanduser().resolve()
        old = self.ctx.ws
        if database is None:
            shown = str(root)
        else:
            from ..storage.postgres import described

            shown = described(database)
        if prepare is None and old is not None and old.folder.root.resolve() == root and (
                _address(old.store.database) == _address(database)):
            self.ctx.say(f"{shown} is already open.")
            return
        user = self._user_for(old)
        self.switching = True
        self._leave()
        self.ctx.say(f"Opening {shown}...")

        def work() -> tuple[Workspace, Any]:
            from ..services.workspace import Workspace

            prepared = prepare() if prepare is not None else None
            if database is None and not create and not (root / DATABASE_NAME).is_file():
                raise InputError(
                    f"{root} is not a Watershed Inspector data folder: it holds no "
                    f"{DATABASE_NAME}, and nothing was written there. Choose the folder "
                    "that holds it, or start one with File > New data folder...")
            new = Workspace(root, user=user, database=database)
            if old is not None:
                old.close()
            return new, prepared

        def done(result: tuple[Workspace, Any]) -> None:
            self.switching = False
            new, prepared = result
            self._attach(new)
            self.ctx.say(done_text(prepared) if done_text else f"Opened {shown}")
            if then is not None:
                then(prepared)

        def failed(exc: BaseException) -> None:
            self.switching = False
            self.ctx.error(exc)
            if old is not None:
                self.ctx.say(f"{shown} was not opened; {where(old)} is still open.")
            self._stay()

        self._when_idle(lambda: self.ctx.op(work).success(done).failure(failed).run())

    def _when_idle(self, then: Callable[[], object]) -> None:
        """Call `then` once every job given to the worker so far is done and shown."""
        if self.ctx.runner.pending:
            QTimer.singleShot(10, lambda: self._when_idle(then))
        else:
            then()

    # --- recent folders ---------------------------------------------------------------

    def _recent_folders(self) -> list[str]:
        value = self.settings.value(self.RECENT_KEY) or []
        return [str(v) for v in ([value] if isinstance(value, str) else value)]

    def add_recent(self, root: Path) -> None:
        path = str(root.resolve())
        folders = [path, *(f for f in self._recent_folders() if f != path)]
        self.settings.setValue(self.RECENT_KEY, folders[:self.RECENT_KEPT])
        self.fill_recent()

    def fill_recent(self) -> None:
        """The last folders opened, newest first; one that is not there now (a USB drive
        that is out) stays in the list, disabled."""
        menu = self.recent_menu
        # The entry that switched folders may be the one emitting `triggered` still: the
        # entries go once control is back in the event loop.
        for old in menu.actions():
            menu.removeAction(old)
            old.deleteLater()
        current = (str(self.ctx.ws.folder.root.resolve()) if self.ctx.ws is not None
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
