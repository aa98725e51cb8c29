"""Background operations in one line, in the manner of Anki's `CollectionOp`:

    Op(runner, lambda: ws.save_edit(...)).success(show).failure(refuse).run()

`run()` queues the work on the one worker thread and returns at once; `success` or
`failure` is called later, on the GUI thread, with the result or the exception. The GUI
thread never waits for the worker. The worker runs jobs in the order they were queued, so
an operation queued after another sees what the first one wrote (a save, then the parcel
opened again).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QProgressDialog, QWidget

if TYPE_CHECKING:
    from .tasks import Job, TaskRunner

T = TypeVar("T")

# A progress bar for work that ends sooner than this would only flicker.
PROGRESS_SHOWN_AFTER_MS = 300


class Op(Generic[T]):
    """One operation on the data folder: `fn()` on the worker, its result on the GUI
    thread. Without `failure`, an error reaches the application's error hook."""

    def __init__(self, runner: TaskRunner, fn: Callable[..., T]) -> None:
        self._runner = runner
        self._fn = fn
        self._success: Callable[[T], None] | None = None
        self._failure: Callable[[BaseException], None] | None = None
        self._dialog: tuple[str, QWidget] | None = None
        self.progress_dialog: QProgressDialog | None = None  # with_progress's, once run

    def success(self, callback: Callable[[T], None]) -> Op[T]:
        self._success = callback
        return self

    def failure(self, callback: Callable[[BaseException], None]) -> Op[T]:
        self._failure = callback
        return self

    def with_progress(self, label: str, parent: QWidget) -> Op[T]:
        """A progress bar with Cancel over `parent` while the work runs; `fn` is called as
        `fn(progress, cancelled)`. Cancel asks the job to stop: a cancelled job raises
        before it commits, so nothing of it is kept."""
        self._dialog = (label, parent)
        return self

    def run(self) -> Job:
        """Queue the operation and return at once."""
        if self._dialog is not None:
            return self._run_with_dialog(*self._dialog)
        return self._runner.run(self._fn, self._success, on_error=self._failure)

    def _run_with_dialog(self, label: str, parent: QWidget) -> Job:
        dialog = QProgressDialog(label, "Cancel", 0, 0, parent)
        dialog.setWindowModality(Qt.WindowModality.WindowModal)
        dialog.setMinimumDuration(PROGRESS_SHOWN_AFTER_MS)
        success, failure = self._success, self._failure

        def progressed(done: int, total: int) -> None:
            dialog.setMaximum(total)
            dialog.setValue(done)

        def finished(result: Any) -> None:
            dialog.reset()
            if success is not None:
                success(result)

        def failed(exc: BaseException) -> None:
            dialog.reset()
            if failure is None:
                raise exc
            failure(exc)

        job = self._runner.run(self._fn, finished, on_error=failed, on_progress=progressed)
        dialog.canceled.connect(job.cancel.set)
        self.progress_dialog = dialog
        return job
