"""Opening the desktop app from the command line: the checks that come before Qt.

Qt itself aborts the process when it finds no display or misses a system library, with a
message about a library that is rarely the real cause. These checks run first and say in
one sentence what is wrong and what to do, with exit status 2.
"""

from __future__ import annotations

import ctypes.util
import os
import sys
from pathlib import Path

from .errors import InputError

NO_DISPLAY = ("no display found: set DISPLAY or run on a desktop; for scripted use try "
              "`inspector-app --help`.")
SETUP_HINT = "install the system libraries with `sh scripts/setup.sh` (see README.md)"


def display_problem(environ: dict[str, str] | os._Environ[str] = os.environ,
                    platform: str = sys.platform) -> str | None:
    """Why the desktop app cannot open a window here, or None."""
    if not platform.startswith("linux"):
        return None
    qpa = environ.get("QT_QPA_PLATFORM", "").split(":")[0].strip()
    if qpa and qpa not in ("xcb", "wayland", "wayland-egl"):
        return None  # offscreen, vnc, eglfs...: Qt needs no display server
    if qpa.startswith("wayland"):
        return None if environ.get("WAYLAND_DISPLAY") else NO_DISPLAY
    if not environ.get("DISPLAY"):
        if environ.get("WAYLAND_DISPLAY") and not qpa:
            return None
        return NO_DISPLAY
    if ctypes.util.find_library("xcb-cursor") is None:
        return (f"The desktop app needs the system library libxcb-cursor0 to open a window; "
                f"{SETUP_HINT}, or `apt-get install libxcb-cursor0`.")
    return None


def open_app(data_dir: Path, *, user: str | None, database: str | None = None) -> int:
    problem = display_problem()
    if problem:
        raise InputError(problem)
    try:
        from .ui.app import run_gui
    except ImportError as exc:
        raise InputError(f"The desktop app could not load Qt ({exc}); {SETUP_HINT}.") from None
    return run_gui(data_dir, user=user, database=database)
