"""The worker thread's queue as the window closes."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from inspector_app.ui.tasks import TaskRunner


def test_a_job_queued_after_the_runner_stopped_is_neither_run_nor_counted(
        qtbot: QtBot) -> None:
    runner = TaskRunner()
    ran: list[str] = []
    runner.run(lambda: ran.append("before"))
    qtbot.waitUntil(lambda: runner.pending == 0)
    runner.stop()  # the window closing
    assert not runner.thread.isRunning()
    # a field left as the window closes saves, and its refreshes are asked after the stop
    job = runner.run(lambda: ran.append("after"), lambda _: ran.append("done"))
    assert job.cancel.is_set()
    assert runner.pending == 0  # nothing waits for it: the window can close
    assert ran == ["before"]
