"""Helpers for tests that run the desktop app as a user does: the real worker thread."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
from collections.abc import Callable
from datetime import date
from pathlib import Path

from PySide6.QtCore import QPoint, QPointF, QSettings, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication, QWidget

from inspector_app.services.workspace import Workspace
from inspector_app.ui.main_window import MainWindow
from inspector_app.ui.tasks import TaskRunner

ROOT = Path(__file__).resolve().parents[2]


def threaded_window(ws: Workspace, folder: Path, today: date) -> MainWindow:
    """The main window on `ws`, as users run it: the real worker thread, its settings in
    `folder`, its date `today`."""
    settings = QSettings(str(folder / "settings.ini"), QSettings.Format.IniFormat)
    w = MainWindow(ws, runner=TaskRunner(), settings=settings)
    w.ctx.as_of = today
    return w


def settle(window: MainWindow, qtbot: object, timeout: int = 10_000) -> None:
    """Wait until the worker has nothing left to do and its results are shown."""
    qtbot.waitUntil(lambda: window.runner.pending == 0, timeout=timeout)  # type: ignore[attr-defined]
    QApplication.processEvents()


class Gate:
    """A job that holds the worker until the test opens the gate: whatever the window
    queues meanwhile waits behind it, in order."""

    def __init__(self, runner: TaskRunner) -> None:
        self.opened = threading.Event()
        self.holding = threading.Event()

        def hold() -> None:
            self.holding.set()
            self.opened.wait(20)

        runner.run(hold)
        assert self.holding.wait(10)

    def open(self) -> None:
        self.opened.set()


def wheel(widget: QWidget, notches: int = -1) -> None:
    """A mouse-wheel turn over `widget`, as the mouse sends it (no click first)."""
    pos = QPointF(5, 5)
    event = QWheelEvent(pos, QPointF(widget.mapToGlobal(QPoint(5, 5))), QPoint(0, 0),
                        QPoint(0, 120 * notches), Qt.MouseButton.NoButton,
                        Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(widget, event)


def run_app_script(body: str, data: Path, *, timeout: float = 90) -> subprocess.CompletedProcess[str]:
    """Run `body` in a fresh Python with the real window `w` on the data folder `data`,
    so that a crash (segfault) fails the calling test instead of ending pytest.

    `body` can use: w (MainWindow), app, settle(), QTest, Qt, ws (its Workspace)."""
    script = textwrap.dedent('''
        import os, sys, time
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        from pathlib import Path
        from PySide6.QtCore import QSettings, Qt
        from PySide6.QtTest import QTest
        from PySide6.QtWidgets import QApplication, QMessageBox
        app = QApplication([])
        QMessageBox.warning = staticmethod(lambda *a, **k: print("WARNING BOX:", a[2:3]))
        from inspector_app.services.workspace import Workspace
        from inspector_app.ui.main_window import MainWindow
        ws = Workspace(Path(sys.argv[1]), user="k.olmsted")
        w = MainWindow(ws, settings=QSettings(sys.argv[1] + "/../settings.ini",
                                             QSettings.Format.IniFormat))
        w.resize(1280, 800)
        w.show()

        def settle(limit=15.0):
            end = time.monotonic() + limit
            while time.monotonic() < end:
                app.processEvents()
                if w.runner.pending == 0:
                    for _ in range(5):
                        app.processEvents()
                        time.sleep(0.005)
                    if w.runner.pending == 0:
                        return
                time.sleep(0.005)
            raise SystemExit("the worker did not finish")

        settle()
    ''') + textwrap.dedent(body) + textwrap.dedent('''
        w.close()
        ws.close()
        print("SCRIPT DONE")
    ''')
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-X", "faulthandler", "-c", script, str(data)],
                          capture_output=True, text=True, timeout=timeout, env=env, cwd=ROOT)


def assert_ran(result: subprocess.CompletedProcess[str], check: Callable[[str], bool]
               | None = None) -> None:
    assert result.returncode == 0 and "SCRIPT DONE" in result.stdout, (
        f"the app died (exit {result.returncode}):\n{result.stdout[-3000:]}\n"
        f"{result.stderr[-3000:]}")
    assert "Traceback" not in result.stderr, result.stderr[-3000:]
    if check is not None:
        assert check(result.stdout), result.stdout[-3000:]
