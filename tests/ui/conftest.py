from __future__ import annotations

from pathlib import Path

import pytest

HERE = Path(__file__).parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """With pytest-xdist (`-n`, `--dist loadgroup`), the desktop tests run in one worker, in
    the order of a run without it: they share that process's QApplication and whatever
    windows the earlier ones left, and in another order a window opened while widgets of
    earlier tests linger has crashed the worker (MainWindow's input guard walking
    QApplication.allWidgets())."""
    for item in items:
        if item.path.is_relative_to(HERE):
            item.add_marker(pytest.mark.xdist_group("qt"))
