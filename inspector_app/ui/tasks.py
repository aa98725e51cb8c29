"""Running work off the GUI thread.

One worker thread runs every job that touches the data folder, one at a time, so all
SQLite work goes through a single writer and the window never freezes. A job may report
progress and check for cancellation; its result (or error) comes back to the GUI thread
through a signal. Tests use `synchronous=True`, which runs jobs at once in the caller.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QObject, QThread, Signal


@dataclass
class Job:
    fn: Callable[..., Any]
    on_done: Callable[[Any], None] | None = None
    on_error: Callable[[BaseException], None] | None = None
    on_progress: Callable[[int, int], None] | None = None
    cancel: threading.Event = field(default_factory=threading.Event)
    wants_progress: bool = False
    counted: bool = True  # False for wait(): it never raised `pending`
    # A long job that only reads, and holds no transaction open when it reports progress:
    # at each progress point the jobs queued meanwhile run (so opening a parcel does not
    # wait for a whole report).
    lets_others_through: bool = False


def _nothing(*_: Any) -> None:
    return None


def _let_go(job: Job) -> None:
    """Drop a finished job's work and callbacks here, on the GUI thread. They may hold the
    last reference to a window or dialog; the worker still holds the job until it takes
    the next one, and a Qt object let go there would be destroyed on the worker thread
    (a crash: a dialog closed by its job's callback, then any other job)."""
    job.fn = _nothing
    job.on_done = job.on_error = job.on_progress = None


class _Worker(QObject):
    finished = Signal(object, object)      # job, result
    failed = Signal(object, object)        # job, exception
    progressed = Signal(object, int, int)  # job, done, total

    def __init__(self, jobs: queue.Queue[Job | None]) -> None:
        super().__init__()
        self.jobs = jobs

    def run(self) -> None:
        while True:
            job = self.jobs.get()
            if job is None:
                return
            self._run_one(job)

    def _run_one(self, job: Job) -> None:
        try:
            if job.wants_progress:
                def progress(done: int, total: int, j: Job = job) -> None:
                    self.progressed.emit(j, done, total)
                    if j.lets_others_through and not j.cancel.is_set():
                        self._let_through()
                result = job.fn(progress, job.cancel.is_set)
            else:
                result = job.fn()
        except BaseException as exc:
            self.failed.emit(job, exc)
        else:
            self.finished.emit(job, result)

    def _let_through(self) -> None:
        """Run the jobs queued so far, in order; the end-of-work mark and other jobs that
        let others through wait, in their order, for the job running to finish."""
        held: list[Job | None] = []
        while True:
            try:
                job = self.jobs.get_nowait()
            except queue.Empty:
                break
            if job is None or job.lets_others_through:
                held.append(job)
            else:
                self._run_one(job)
        for job in held:
            self.jobs.put(job)


class TaskRunner(QObject):
    busy_changed = Signal(bool)

    def __init__(self, *, synchronous: bool = False) -> None:
        super().__init__()
        self.synchronous = synchronous
        self.pending = 0
        self._stopped = False  # stopped: a job waited for would never be run
        self._jobs_by_id: dict[int, Job] = {}
        if not synchronous:
            self.jobs: queue.Queue[Job | None] = queue.Queue()
            self.worker_thread = QThread()
            self.worker = _Worker(self.jobs)
            self.worker.moveToThread(self.worker_thread)
            self.worker_thread.started.connect(self.worker.run)
            self.worker.finished.connect(self._finished)
            self.worker.failed.connect(self._failed)
            self.worker.progressed.connect(self._progressed)
            self.worker_thread.start()

    def run(self, fn: Callable[..., Any], on_done: Callable[[Any], None] | None = None, *,
            on_error: Callable[[BaseException], None] | None = None,
            on_progress: Callable[[int, int], None] | None = None,
            lets_others_through: bool = False) -> Job:
        """Queue `fn()` (or `fn(progress, cancelled)` when on_progress is given).
        `lets_others_through`: see `Job`; only for a job that reads and reports progress
        outside any transaction."""
        job = Job(fn, on_done, on_error, on_progress, wants_progress=on_progress is not None,
                  lets_others_through=lets_others_through)
        if self._stopped:
            # The window is closing (a field left as it closes saves, and its refreshes
            # follow): no worker would run the job, so it is not queued nor counted.
            job.cancel.set()
            return job
        self._jobs_by_id[id(job)] = job
        self.pending += 1
        self.busy_changed.emit(True)
        if self.synchronous:
            try:
                result = (fn(lambda d, t: self._progressed(job, d, t), job.cancel.is_set)
                          if job.wants_progress else fn())
            except BaseException as exc:
                self._failed(job, exc)
            else:
                self._finished(job, result)
        else:
            self.jobs.put(job)
        return job

    def wait(self, fn: Callable[[], Any]) -> Any:
        """Run a short job and wait for its result: for tests and scripts, and for the
        window's first view before it is shown. A window on screen never waits on the
        worker: it queues an `Op` (ui/ops.py) and carries on in its callback."""
        if self.synchronous:
            return fn()
        box: dict[str, Any] = {}
        done = threading.Event()

        def job() -> None:
            try:
                box["result"] = fn()
            except BaseException as exc:
                box["error"] = exc
            finally:
                done.set()

        if self._stopped:
            raise RuntimeError("the data folder is closed: the window is closing")
        self.jobs.put(Job(job, counted=False))
        done.wait()
        if "error" in box:
            raise box["error"]
        return box.get("result")

    def _finished(self, job: Job, result: Any) -> None:
        if not job.counted:
            _let_go(job)
            return
        self._forget(job)
        self._settle()
        on_done = job.on_done
        _let_go(job)
        if on_done is not None:
            on_done(result)

    def _failed(self, job: Job, exc: BaseException) -> None:
        if not job.counted:
            _let_go(job)
            return
        self._forget(job)
        self._settle()
        on_error = job.on_error
        _let_go(job)
        if on_error is not None:
            on_error(exc)
        else:
            raise exc

    def _progressed(self, job: Job, done: int, total: int) -> None:
        if job.on_progress is not None:
            job.on_progress(done, total)

    def _forget(self, job: Job) -> None:
        self._jobs_by_id.pop(id(job), None)

    def _settle(self) -> None:
        self.pending = max(self.pending - 1, 0)
        if not self.pending:
            self.busy_changed.emit(False)

    def stop(self) -> None:
        """Cancel what is still queued or running, then let the worker finish cleanly.

        A cancelled job rolls back whatever it had not committed."""
        if self.synchronous or not self.worker_thread.isRunning():
            return
        self._stopped = True
        for job in list(self._jobs_by_id.values()):
            job.cancel.set()
        self.jobs.put(None)
        self.worker_thread.quit()
        self.worker_thread.wait()
