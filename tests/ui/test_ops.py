"""An operation queues its work on the worker and returns at once; its answer comes back
on the GUI thread."""

from __future__ import annotations

import threading
from typing import Any

from pytestqt.qtbot import QtBot

from inspector_app.ui.ops import Op
from inspector_app.ui.tasks import TaskRunner

from .live import Gate


def test_an_operation_returns_at_once_and_answers_on_the_gui_thread(qtbot: QtBot) -> None:
    runner = TaskRunner()
    try:
        gate = Gate(runner)
        answers: list[tuple[str, Any, bool]] = []

        def on_gui(kind: str) -> Any:
            return lambda value: answers.append(
                (kind, value, threading.current_thread() is threading.main_thread()))

        Op(runner, lambda: 6 * 7).success(on_gui("done")).failure(on_gui("failed")).run()
        Op(runner, lambda: 1 / 0).success(on_gui("done")).failure(on_gui("failed")).run()
        assert answers == [] and runner.pending == 3  # the gate, and the two behind it
        gate.open()
        qtbot.waitUntil(lambda: len(answers) == 2, timeout=10_000)
        (done, result, on_main), (failed, exc, failed_on_main) = answers
        assert (done, result, on_main) == ("done", 42, True)
        assert failed == "failed" and isinstance(exc, ZeroDivisionError) and failed_on_main
    finally:
        runner.stop()


