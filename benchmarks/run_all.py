"""Every benchmark, one after the other, then one table of figures against their goals.

Run by hand (not in CI): .venv/bin/python -m benchmarks.run_all   (about 40 minutes on
the 2-core machine, most of it building data folders of up to 100,000 demo parcels and the
two engines' offices; the aerial image, 2 GB of pixels, takes under half a minute;
bench_engines needs PostgreSQL and PostGIS, `sh scripts/setup.sh --test`)
"""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path

from benchmarks.common import Goal

# Every benchmarks/bench_*.py, in the order they run; `unlisted` (and a test) hold it to the
# files, so that a new benchmark is never left out.
BENCHMARKS = ("bench_distance", "bench_letters", "bench_sync", "bench_worklists", "bench_gui",
              "bench_live_eval", "bench_measure", "bench_program_report", "bench_basemap",
              "bench_basemap_gui", "bench_scale", "bench_engines", "bench_records")


def unlisted() -> list[str]:
    """The benchmark modules beside this file that BENCHMARKS does not name, and the names
    in it that are no module here."""
    found = {path.stem for path in Path(__file__).parent.glob("bench_*.py")}
    return sorted(found.symmetric_difference(BENCHMARKS))


def main() -> int:
    wrong = unlisted()
    if wrong:
        print(f"run_all: BENCHMARKS does not match benchmarks/bench_*.py: {', '.join(wrong)}",
              file=sys.stderr)
        return 2
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    goals: list[Goal] = []
    for name in BENCHMARKS:
        goals += importlib.import_module(f"benchmarks.{name}").main()
    print("\n== summary")
    width = max(len(f"{g.benchmark}: {g.measure}") for g in goals)
    for g in goals:
        print(f"  {f'{g.benchmark}: {g.measure}':<{width}}  {g.value:>10}  goal {g.goal:<10}"
              f"  {'met' if g.met else 'NOT MET'}")
    return 0 if all(g.met for g in goals) else 1


if __name__ == "__main__":
    sys.exit(main())
