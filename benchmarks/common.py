"""Shared timing for the benchmarks: best of several runs, printed as a table row."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Goal:
    """One figure a benchmark measured against the goal set for it."""

    benchmark: str
    measure: str
    value: str
    goal: str
    met: bool


def best_of(fn: Callable[[], Any], repeat: int = 5) -> tuple[float, Any]:
    """The fastest of `repeat` runs (seconds), and the last result."""
    best = float("inf")
    result = None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result


def report(name: str, rows: list[tuple[str, str]]) -> None:
    print(f"\n== {name}")
    width = max(len(k) for k, _ in rows)
    for key, value in rows:
        print(f"  {key:<{width}}  {value}")


def run_app(folder: Path, *args: str) -> float:
    """Seconds `inspector-app --data-dir FOLDER ARGS...` takes as a whole process."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "inspector_app", "--data-dir", str(folder), *args],
                   check=True, capture_output=True)
    return time.perf_counter() - start


def build_demo(folder: Path, parcels: int) -> float:
    """Seconds `demo --parcels N` takes to build a data folder."""
    return run_app(folder, "demo", "--parcels", str(parcels))
