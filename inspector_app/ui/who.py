"""Who is working: the person every change, decision and letter made in the window is
recorded as.

The app asks once per data folder (the computer's login is only offered as the answer),
remembers the name for that folder, and shows it in the window's title and status bar at
all times; File > Who is working... changes it. The name is remembered in this computer's
settings, one per folder (beside where the user left off in it), not in the data folder:
the folder's database holds records and the office's settings, and a folder copied to
another laptop, or handed to another inspector, must not bring a name along with it. A
name given with `--user` or $INSPECTOR_APP_USER is used as given and nothing is asked.
At an office database nothing is asked either: the login is the person, recorded as the
name the office gave it (`office user add --full-name`); nor on a laptop enrolled for a
private certified inspector, whose person is that inspector with their certification number,
as enrolled (`sync enroll --inspector --certification`), shown and never changed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QInputDialog, QLineEdit, QMessageBox, QWidget

from .context import AppContext

if TYPE_CHECKING:
    from ..services.workspace import Workspace
    from .data_folders import DataFolders

KEY = "who_is_working"
# (the input dialog's label does not wrap: the lines are broken here)
QUESTION = ("Who is working in this data folder?\n\n"
            "Every change, decision and letter made here is recorded\n"
            "with this name. It is asked once for this folder and shown\n"
            "in the title and the status bar; File > Who is working...\n"
            "changes it.")


class WhoIsWorking:
    """`asks`: the name comes from the person (remembered per folder), not from `--user`.
    `shown(name)` puts the name on show."""

    def __init__(self, ctx: AppContext, folders: DataFolders, parent: QWidget, *,
                 asks: bool, shown: Callable[[str], None]) -> None:
        self.ctx, self.folders, self.parent = ctx, folders, parent
        self.asks, self._shown = asks, shown

    def attached(self, ws: Workspace) -> None:
        """A data folder is open: record as the name remembered for it, or ask."""
        self._shown(ws.user)
        if not self.asks or ws.store.database is not None or ws.store.fixed_person:
            return
        remembered = str(self.folders.recalled(KEY) or "").strip()
        if remembered:
            self._set(ws, remembered, remember=False)
        else:
            # once the window has shown the folder (not at all if it is gone by then)
            QTimer.singleShot(0, self.parent, lambda: self.change(first=True))

    def change(self, *, first: bool = False) -> None:
        """Ask who is working (File > Who is working...)."""
        ws = self.ctx.ws
        if ws is None:
            return
        if ws.store.database is not None:
            QMessageBox.information(
                self.parent, "Who is working",
                f"At the office database the login is the person working: changes are "
                f"recorded as {ws.user}. To work as someone else, "
                "connect with their login (File > Connect to office database...).")
            return
        if ws.store.fixed_person:
            QMessageBox.information(
                self.parent, "Who is working",
                f"This laptop was enrolled for the certified inspector {ws.user}: every "
                "change made on it is recorded as that person, with that certification "
                "number, and no one else can work on it.")
            return
        name, ok = QInputDialog.getText(self.parent, "Who is working", QUESTION,
                                        QLineEdit.EchoMode.Normal, ws.user)
        if ok:
            self._set(ws, name, remember=True, again_if_refused=first)
        elif first:
            self.ctx.say(f"Changes are recorded as {ws.user} (this computer's login) until "
                         "a name is given with File > Who is working...")

    def _set(self, ws: Workspace, name: str, *, remember: bool,
             again_if_refused: bool = False) -> None:
        def done(who: str) -> None:
            if ws is not self.ctx.ws:
                return  # the window has moved to another folder meanwhile
            if remember:
                self.folders.remember(KEY, who)
                self.ctx.say(f"Recording as {who} in this folder.")
            self._shown(who)

        def refused(exc: BaseException) -> None:
            self.ctx.error(exc)
            if again_if_refused:
                self.change(first=True)

        self.ctx.op(lambda: ws.set_user(name)).success(done).failure(refused).run()
