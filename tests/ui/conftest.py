from __future__ import annotations

from pathlib import Path

import pytest

HERE = Path(__file__).parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """With pytest-xdist (`-n`, `--dist loadgroup`), the desktop tests run in one worker, in
    the order of a run without it: they share that process's QApplication and whatever
    windows the earlier ones left, and in another order a window opened while widgets of
    earlier tests linger has crashed the worker (MainWindow's input guard walking
    QApplication.allWidgets()). The long loops here (marked slow: the 2,000 parcel opens,
    the soak) run the app in a child process of their own and need no such company; they
    go first, the 2,000 opens being the longest test of all."""
    long_loops = []
    for item in items:
        if not item.path.is_relative_to(HERE):
            continue
        if item.get_closest_marker("slow") is None:
            item.add_marker(pytest.mark.xdist_group("qt"))
        else:
            long_loops.append(item)
    items[:] = long_loops + [item for item in items if item not in long_loops]
