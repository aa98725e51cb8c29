"""The four work lists (and `no-law-on-file`) for 20,000 demo parcels, whole process.

Prints the time `demo --parcels 20000` takes to build the data folder (goal: at most
10 s), the time of the first `inspector-app worklist` after it (every list, as of one
date; it works out and keeps each parcel's summary), the median time of the next ones (as
on any morning) and its ratio to a process in the same run that only reads the same rows
from SQLite (goal: at most 1.5 s and at most 10 times the baseline), then the work lists
in process, read from the summaries against every parcel loaded and evaluated on its own
(on 2,000 parcels).

Run: python -m benchmarks.bench_worklists   (the growth with size: bench_scale)
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

from benchmarks.common import Goal, build_demo, report
from inspector_app.paths import DATABASE_NAME
from inspector_app.services.lists.worklists import worklists, worklists_one_by_one
from inspector_app.services.workspace import Workspace
from inspector_app.storage.cases import _CASE_TABLES

PARCELS = 20_000
AS_OF = "2026-11-25"
GOAL_S, GOAL_RATIO = 1.5, 10.0
DEMO_GOAL_S = 10.0  # building the 20,000-parcel data folder (`demo --parcels 20000`)

# Reads every row the work lists read: the parcels, each table a case is built from and
# the inspections' tests.
READ_ONLY = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1])
tables = ["parcels", "inspection_tests", *sys.argv[2:]]
rows = sum(len(conn.execute(f"SELECT * FROM {t} WHERE deleted_at IS NULL").fetchall())
           for t in tables)
print(rows)
"""


def _median_s(args: list[str], repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(args, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _whole_process(folder: Path, repeat: int = 5) -> tuple[float, float, float]:
    """The first run after the build (it works out and keeps every parcel's summary), the
    median of the next ones (as on any morning: only parcels changed since are worked out
    again) and the baseline's median."""
    args = [sys.executable, "-m", "inspector_app", "--data-dir", str(folder), "worklist",
            "--as-of", AS_OF]
    first = _median_s(args, 1)
    ours = _median_s(args, repeat)
    base = _median_s([sys.executable, "-c", READ_ONLY, str(folder / DATABASE_NAME),
                      *_CASE_TABLES], repeat)
    return first, ours, base


def main() -> list[Goal]:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        built = build_demo(root / "office", PARCELS)
        first, ours, base = _whole_process(root / "office")
        build_demo(root / "small", 2_000)
        with Workspace(root / "small", user="clerk") as ws:
            day = date.fromisoformat(AS_OF)
            t0 = time.perf_counter()
            fast = worklists(ws, as_of=day)
            t_fast = time.perf_counter() - t0
            t0 = time.perf_counter()
            slow = worklists_one_by_one(ws, as_of=day)
            t_slow = time.perf_counter() - t0
            assert fast == slow
        rows = [
            ("demo --parcels 20000 (data folder built)", f"{built:8.2f} s  "
             f"(goal <= {DEMO_GOAL_S:g} s)"),
            ("worklist, first run after the build (summaries worked out)",
             f"{first:8.2f} s"),
            ("worklist, all lists, whole process (median of 5)", f"{ours:8.2f} s  "
             f"(goal <= {GOAL_S} s)"),
            ("baseline: read the same rows from SQLite", f"{base:8.2f} s"),
            ("ratio ours / baseline", f"{ours / base:8.2f}   (goal <= {GOAL_RATIO:g})"),
            ("2,000 parcels in process: one pass", f"{t_fast:8.2f} s"),
            ("2,000 parcels in process: one by one", f"{t_slow:8.2f} s"),
            ("ratio one by one / one pass", f"{t_slow / t_fast:8.2f}"),
        ]
        report(f"work lists: {PARCELS:,} demo parcels", rows)
        return [Goal("demo", "demo --parcels 20000, whole process", f"{built:.1f} s",
                     f"<= {DEMO_GOAL_S:g} s", built <= DEMO_GOAL_S),
                Goal("work lists", "20,000 parcels, whole process", f"{ours:.2f} s",
                     f"<= {GOAL_S} s", ours <= GOAL_S),
                Goal("work lists", "ratio to reading the rows", f"{ours / base:.1f}",
                     f"<= {GOAL_RATIO:g}", ours / base <= GOAL_RATIO)]


if __name__ == "__main__":
    main()
