"""Starting the desktop app."""

from __future__ import annotations

import sys
import traceback
from pathlib import Path
from types import TracebackType

from PySide6.QtWidgets import QApplication, QMessageBox

from .. import __version__
from ..errors import InspectorError
from ..paths import given_user
from .main_window import MainWindow


def _install_error_hook() -> None:
    def hook(kind: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
        traceback.print_exception(kind, exc, tb)
        text = exc.in_app if isinstance(exc, InspectorError) else (
            f"Something went wrong: {kind.__name__}: {exc}\n\nYour saved work is safe; the "
            "step that failed was not committed.")
        QMessageBox.critical(None, "Watershed Inspector", text)

    sys.excepthook = hook


def run_gui(data_dir: Path, *, user: str | None = None, database: str | None = None) -> int:
    app = QApplication.instance() or QApplication(sys.argv)
    app.setApplicationName("Watershed Inspector")
    app.setApplicationVersion(__version__)
    _install_error_hook()
    # The window shows at once; the worker opens the data folder behind it (a refused
    # folder is reported there and the app exits with its status).
    # Who is working is asked once per data folder unless the command line named them (and
    # never at an office database, where the login is the person: `who.py`).
    window = MainWindow(root=data_dir, user=user, database=database,
                        ask_who=user is None and given_user() is None)
    window.quit_if_folder_fails = True
    window.show()
    # The keys go to the window from the start (the search has them), also where no
    # window manager makes a new window the active one.
    window.activateWindow()
    app.aboutToQuit.connect(window.runner.stop)
    try:
        status = int(app.exec())
        return window.exit_status or status
    finally:
        if window.workspace is not None:
            window.workspace.close()
