from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).parent
# How much longer than written a desktop test waits for what it waits for (a window's job
# done, a signal): a condition that comes is taken at once, so passing tests are no slower;
# on a busy machine the worker thread may be many times slower than on an idle one.
WAIT_SCALE = float(os.environ.get("INSPECTOR_TEST_WAIT_SCALE", "6"))


def _patient(wait: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(wait)
    def patient(self: Any, *args: Any, timeout: int = 5000, **kwargs: Any) -> Any:
        return wait(self, *args, timeout=int(timeout * WAIT_SCALE), **kwargs)
    return patient


@pytest.fixture(autouse=True, scope="session")
def _patient_waits() -> Iterator[None]:
    from pytestqt.qtbot import QtBot

    names = ("waitUntil", "waitSignal", "waitSignals", "waitCallback")
    kept = {name: getattr(QtBot, name) for name in names}
    for name, wait in kept.items():
        setattr(QtBot, name, _patient(wait))
    yield
    for name, wait in kept.items():
        setattr(QtBot, name, wait)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """With pytest-xdist (`-n`, `--dist loadgroup`), the desktop tests run in one worker, in
    the order of a run without it: they share that process's QApplication and whatever
    windows the earlier ones left. The long loops here (marked slow: the 2,000 parcel opens,
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
