"""The worker thread's queue as the window closes."""

from __future__ import annotations

from typing import Any

from pytestqt.qtbot import QtBot

from inspector_app.ui.tasks import TaskRunner


def test_a_job_queued_after_the_runner_stopped_is_neither_run_nor_counted(
        qtbot: QtBot) -> None:
    runner = TaskRunner()
    ran: list[str] = []
    runner.run(lambda: ran.append("before"))
    qtbot.waitUntil(lambda: runner.pending == 0)
    runner.stop()  # the window closing
    assert not runner.worker_thread.isRunning()
    # a field left as the window closes saves, and its refreshes are asked after the stop
    job = runner.run(lambda: ran.append("after"), lambda _: ran.append("done"))
    assert job.cancel.is_set()
    assert runner.pending == 0  # nothing waits for it: the window can close
    assert ran == ["before"]



def test_a_finished_job_s_callbacks_are_let_go_on_the_gui_thread(qtbot: QtBot) -> None:
    """The worker holds a job until it takes the next one; a finished job's work and
    callbacks (which may hold the last reference to a dialog, as the attestation's did)
    are let go on the GUI thread as its result arrives, never later on the worker, where a
    Qt object let go is destroyed on the wrong thread (the app crashed: attest, then
    preview a draft)."""
    import gc
    import weakref

    runner = TaskRunner()

    def job_holding_a_dialog() -> tuple[weakref.ref[Any], weakref.ref[Any]]:
        def work() -> str:
            return "done"

        def shown(_: object) -> None:
            return None

        runner.run(work, shown)
        return weakref.ref(work), weakref.ref(shown)

    work, shown = job_holding_a_dialog()
    qtbot.waitUntil(lambda: runner.pending == 0)
    gc.collect()
    # the worker still holds that job (it waits for the next), but nothing of its work
    assert work() is None and shown() is None
    runner.stop()
