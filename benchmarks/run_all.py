"""Every benchmark, one after the other, then one table of figures against their goals.

Run by hand (not in CI): .venv/bin/python -m benchmarks.run_all   (about ten minutes)
"""

from __future__ import annotations

import os
import sys

from benchmarks import (
    bench_distance,
    bench_gui,
    bench_letters,
    bench_live_eval,
    bench_measure,
    bench_program_report,
    bench_scale,
    bench_sync,
    bench_worklists,
)
from benchmarks.common import Goal


def main() -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    goals: list[Goal] = []
    for bench in (bench_distance, bench_letters, bench_sync, bench_worklists, bench_gui,
                  bench_live_eval, bench_measure, bench_program_report, bench_scale):
        goals += bench.main()
    print("\n== summary")
    width = max(len(f"{g.benchmark}: {g.measure}") for g in goals)
    for g in goals:
        print(f"  {f'{g.benchmark}: {g.measure}':<{width}}  {g.value:>10}  goal {g.goal:<10}"
              f"  {'met' if g.met else 'NOT MET'}")
    return 0 if all(g.met for g in goals) else 1


if __name__ == "__main__":
    sys.exit(main())
