"""Shared timing for the benchmarks: best of several runs, printed as a table row."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
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
