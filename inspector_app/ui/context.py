"""What every screen of the app shares: the data folder, the worker, messages."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QMessageBox, QWidget

from ..errors import InspectorError
from .file_dialogs import FileDialogs
from .ops import Op
from .tasks import TaskRunner

if TYPE_CHECKING:
    from ..services.workspace import Workspace


class AppContext(QObject):
    status = Signal(str)
    changed = Signal(str)  # an SBL whose records changed

    def __init__(self, workspace: Workspace | None, runner: TaskRunner) -> None:
        super().__init__()
        self.ws = workspace
        self.runner = runner
        self.window: QWidget | None = None
        self.as_of: date | None = None
        self._files: FileDialogs | None = None

    @property
    def files(self) -> FileDialogs:
        """File dialogs that remember their folder per kind of file (the window gives its
        settings; alone, the app's)."""
        if self._files is None:
            from PySide6.QtCore import QSettings

            self._files = FileDialogs(QSettings("Watershed Inspector", "inspector-app"))
        return self._files

    @files.setter
    def files(self, files: FileDialogs) -> None:
        self._files = files

    def today(self) -> date:
        from datetime import date as _date

        return self.as_of or (self.ws.today() if self.ws is not None else _date.today())

    def error(self, exc: BaseException) -> None:
        """Tell the user what went wrong in plain words; nothing was committed. A message
        that names a command on the command line is shown as the app says it (the menu
        item instead)."""
        text = exc.in_app if isinstance(exc, InspectorError) else (
            f"{type(exc).__name__}: {exc}\n\nNothing was saved by the step that failed.")
        self.status.emit(text.splitlines()[0])
        # A modal box needs a running event loop; with the synchronous runner (tests,
        # scripted use) the status bar carries the message alone.
        if self.window is not None and not self.runner.synchronous:
            QMessageBox.warning(self.window, "Watershed Inspector", text)

    def say(self, text: str) -> None:
        """A message in the status bar."""
        self.status.emit(text)

    def op(self, fn: Callable[..., Any]) -> Op[Any]:
        """An operation whose failure is told to the user (`error`)."""
        return Op(self.runner, fn).failure(self.error)

    def run(self, fn: Callable[[], Any], done: Callable[[Any], None] | None = None) -> None:
        op = self.op(fn)
        if done is not None:
            op.success(done)
        op.run()
