"""The program report over 20,000 demo parcels (about 21,000 inspections).

Prints the time of `report program` for six years (whole process, PDF written), the time
of working out its figures in process, and the ratio of the figures' time to a baseline
measured in the same run: each inspected parcel's stored case loaded and judged once (what
the report does per inspection, less replaying the change log). Goals: the whole report
within 60 s; at most 3 times the baseline.

Run: python -m benchmarks.bench_program_report [--folder DIR]  (DIR: a folder already
filled with `demo --parcels 20000`, else one is built)
"""

from __future__ import annotations

import argparse
import tempfile
import time
from datetime import date
from pathlib import Path

from benchmarks.common import Goal, build_demo, report, run_app
from inspector_app.services.lists.program_report import program_report
from inspector_app.services.workspace import Workspace
from inspector_app.storage.cases import load_cases

PARCELS = 20_000
START, END, AS_OF = "2021-01-01", "2026-11-24", "2026-11-25"
GOAL_S, GOAL_RATIO = 60.0, 3.0


def _baseline(folder: Path) -> tuple[float, int]:
    """Each inspected parcel's stored case loaded and judged once."""
    with Workspace(folder) as ws:
        start = time.perf_counter()
        cases = load_cases(ws.store.conn)
        judged = 0
        for case in cases.values():
            if case.inspection is not None:
                ws.assess_case(case, as_of=case.inspection.date)
                judged += 1
        return time.perf_counter() - start, judged


def _figures(folder: Path) -> tuple[float, int]:
    with Workspace(folder) as ws:
        start = time.perf_counter()
        r = program_report(ws, date.fromisoformat(START), date.fromisoformat(END),
                           as_of=date.fromisoformat(AS_OF))
        return time.perf_counter() - start, r.figures["totals"]["inspections"]


def main(folder: Path | None = None) -> list[Goal]:
    with tempfile.TemporaryDirectory() as tmp:
        if folder is None:
            folder = Path(tmp) / "data"
            build_demo(folder, PARCELS)
        whole = run_app(folder, "report", "program", "--from", START, "--to", END, "--as-of",
                        AS_OF, "--out", str(Path(tmp) / "report.pdf"))
        base, judged = _baseline(folder)
        figures, inspections = _figures(folder)
    ratio = figures / base
    report("program report", [
        ("inspections in the period", f"{inspections:,}"),
        ("report program, whole process (PDF written)", f"{whole:.1f} s (goal <= {GOAL_S:g} s)"),
        ("figures in process", f"{figures:.1f} s"),
        (f"baseline: {judged:,} stored cases loaded and judged", f"{base:.1f} s"),
        ("ratio", f"{ratio:.2f} (goal <= {GOAL_RATIO:g})"),
    ])
    return [Goal("program report", "20,000 parcels, six years, whole process",
                 f"{whole:.1f} s", f"<= {GOAL_S:g} s", whole <= GOAL_S),
            Goal("program report", "ratio to judging each stored case once", f"{ratio:.2f}",
                 f"<= {GOAL_RATIO:g}", ratio <= GOAL_RATIO)]


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--folder", type=Path)
    main(parser.parse_args().folder)
