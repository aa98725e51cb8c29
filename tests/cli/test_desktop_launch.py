"""Opening the desktop app where it cannot open: one sentence and exit 2, before Qt."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from inspector_app.desktop import NO_DISPLAY, display_problem


def test_no_display_is_named_in_one_sentence_and_nothing_is_created(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    data = tmp_path / "data"
    done = subprocess.run([sys.executable, "-m", "inspector_app", "--data-dir", str(data)],
                          env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip() == NO_DISPLAY
    assert "xcb-cursor0" not in done.stderr and "Traceback" not in done.stderr
    assert not data.exists()


def test_which_environments_have_a_display() -> None:
    linux = "linux"
    assert display_problem({}, linux) == NO_DISPLAY
    assert display_problem({"QT_QPA_PLATFORM": "xcb"}, linux) == NO_DISPLAY
    assert display_problem({"QT_QPA_PLATFORM": "wayland"}, linux) == NO_DISPLAY
    assert display_problem({"QT_QPA_PLATFORM": "wayland", "WAYLAND_DISPLAY": "wayland-0"},
                           linux) is None
    assert display_problem({"WAYLAND_DISPLAY": "wayland-0"}, linux) is None
    assert display_problem({"QT_QPA_PLATFORM": "offscreen"}, linux) is None
    assert display_problem({}, "win32") is None
    assert display_problem({}, "darwin") is None
