"""Taking in providers' files (`records import`) on 2,000 demo parcels.

A hauler's file with four pump-outs of every holding tank and a representative's file with
four services of every ETU (about 600 rows each) are taken in; the baseline, in the same run
on a copy of the same data folder, stores the same records as each parcel's case saved
through the case-file door (`store_case`), with none of the file's reading and row checks.
Prints both times and their ratio (goal: at most 3 times the baseline: every row is checked
by the case gate on its own, so that a refused row is named).

Run: python -m benchmarks.bench_records
"""

from __future__ import annotations

import csv
import shutil
import tempfile
import time
from dataclasses import replace
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from benchmarks.common import Goal, build_demo, report
from inspector_app.domain.vocabulary import ComponentKind
from inspector_app.services.parcel.cases import store_case
from inspector_app.services.records.intake import COLUMNS, import_records
from inspector_app.services.reference.providers import add_provider
from inspector_app.services.workspace import Workspace

PARCELS = 2_000
GOAL_RATIO = 3.0
TODAY = date(2026, 12, 5)
REP, HAULER = "NW-4471", "8-3230-00114"


def _clock() -> datetime:
    return datetime(2026, 12, 5, 15, 0, tzinfo=UTC)


def _files(ws: Workspace, root: Path) -> tuple[Path, Path, int]:
    etu, tanks = [], []
    for p in ws.parcels():
        kinds = {c.kind for c in ws.load_case(p["sbl"]).components}
        if ComponentKind.ENHANCED_TREATMENT_UNIT in kinds:
            etu.append(p["sbl"])
        if ComponentKind.HOLDING_TANK in kinds:
            tanks.append(p["sbl"])
    days = [TODAY - timedelta(days=40 + 60 * n) for n in range(4)]
    rows = {
        "etu-service": [[s, d.isoformat(), REP, "Norweco Singulair 960", "yes",
                         "2027-10-01", (d + timedelta(days=5)).isoformat()]
                        for s in etu for d in days],
        "pump-out": [[s, d.isoformat(), "1500", HAULER, (d + timedelta(days=7)).isoformat()]
                     for s in tanks for d in days]}
    paths = []
    for kind, body in rows.items():
        path = root / f"{kind}.csv"
        with path.open("w", newline="", encoding="utf-8") as f:
            writer = csv.writer(f)
            writer.writerow([c.name for c in COLUMNS[kind]])
            writer.writerows(body)
        paths.append(path)
    return paths[0], paths[1], sum(len(b) for b in rows.values())


def _providers(ws: Workspace) -> None:
    add_provider(ws, kind="etu-representative", name="Dale Weaver", number=REP)
    add_provider(ws, kind="hauler", name="Bristol Septic Pumping", number=HAULER)


def main() -> list[Goal]:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        build_demo(root / "office", PARCELS)
        shutil.copytree(root / "office", root / "baseline")
        with Workspace(root / "office", user="clerk", clock=_clock) as ws:
            _providers(ws)
            etu_file, pump_file, rows = _files(ws, root)
            start = time.perf_counter()
            for path, kind in ((etu_file, "etu-service"), (pump_file, "pump-out")):
                done = import_records(ws, path, kind)
                assert not done.refused, done.refused[:3]
            ours = time.perf_counter() - start
            made = {p["sbl"]: ws.load_case(p["sbl"]) for p in ws.parcels()}
        with Workspace(root / "baseline", user="clerk", clock=_clock) as ws:
            _providers(ws)
            changed = []
            for sbl, case in made.items():
                stored = ws.load_case(sbl)
                if (stored.etu, stored.holding_tank_service) != (case.etu,
                                                                  case.holding_tank_service):
                    changed.append(replace(stored, etu=case.etu,
                                           holding_tank_service=case.holding_tank_service))
            start = time.perf_counter()
            for case in changed:
                store_case(ws, case, today=TODAY)
            base = time.perf_counter() - start
            assert all(ws.load_case(c.parcel.sbl).etu == made[c.parcel.sbl].etu
                       for c in changed)
    ratio = ours / base
    report("records import", [
        ("rows taken in (two files)", f"{rows:,}"),
        ("parcels changed", f"{len(changed):,}"),
        ("records import, both files", f"{ours:.2f} s"),
        ("baseline: the same cases stored one by one", f"{base:.2f} s"),
        ("ratio", f"{ratio:.2f} (goal at most {GOAL_RATIO:g})"),
    ])
    return [Goal("bench_records", "records import vs the same cases stored",
                 f"{ratio:.2f}x", f"<= {GOAL_RATIO:g}x", ratio <= GOAL_RATIO)]


if __name__ == "__main__":
    main()
