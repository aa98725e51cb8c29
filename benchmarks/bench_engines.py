"""The same office on both engines, side by side: a SQLite data folder and an office
database on PostgreSQL (a throwaway cluster of its own, `tests/pg_cluster.py`).

Both offices are built the same way, at the same time (`demo --parcels 20000`, then
`office init` first for the office database), and their parcels' summaries worked out once
(the first `worklist`, as after any build). Then, on each, in process:
- (a) every work list for the 20,000 parcels, as `worklist` computes them;
- (b) a sync import of a package of 10,000 changes: a laptop enrolled at that office for a
  stretch of 1,000 neighbouring parcels, 10 changes to each; each import into a fresh copy
  of the office (a copy of the folder, or a database made from the office's as template);
- (c) the program report for the demo's six years, figures and PDF, as `report program`.
Each measure is taken 3 times, the two engines in turn (so that both meet the same load
on the machine and this process in the same state), its median kept. The table gives the
median on SQLite and on PostgreSQL, their ratio and its target: PostgreSQL within 2 times
SQLite for (a) and (b), 1.5 times for (c).

Run: python -m benchmarks.bench_engines   (needs PostgreSQL and PostGIS installed:
`sh scripts/setup.sh --test`)
"""

from __future__ import annotations

import contextlib
import gc
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from benchmarks.common import Goal, report
from inspector_app.services import exchange as sync
from inspector_app.services.lists.program_report import program_report, program_report_pdf
from inspector_app.services.lists.worklists import worklists
from inspector_app.services.workspace import Workspace
from tests import pg_cluster

PARCELS = 20_000
LAPTOP_PARCELS, CHANGES_EACH = 1_000, 10  # a package of 10,000 changes
REPEAT = 3
AS_OF = date(2026, 11, 25)
START, END = date(2021, 1, 1), date(2026, 11, 24)  # the demo's inspections
PASSPHRASE = "benchmark kit passphrase"
TARGETS = {"work lists, 20,000 parcels": 2.0,
           "sync import, 10,000 changes": 2.0,
           "program report, six years": 1.5}


@dataclass(frozen=True)
class Office:
    """One of the two offices: its data folder and, for PostgreSQL, its database."""

    engine: str
    folder: Path
    database: str | None = None

    def open(self, user: str = "clerk") -> Workspace:
        return Workspace(self.folder, user=user, database=self.database)

    def app(self, *args: str) -> list[str]:
        database = [] if self.database is None else ["--database", self.database]
        return [sys.executable, "-m", "inspector_app", "--data-dir", str(self.folder),
                *database, *args]


def _build(offices: list[Office]) -> float:
    """Both offices built at the same time, each by its own chain of commands; seconds."""

    def chain(office: Office) -> None:
        steps = [office.app("office", "init")] if office.database else []
        steps += [office.app("demo", "--parcels", str(PARCELS)),
                  office.app("worklist", "--as-of", AS_OF.isoformat())]
        for step in steps:
            done = subprocess.run(step, capture_output=True, text=True, check=False)
            if done.returncode != 0:
                raise RuntimeError(f"building the {office.engine} office failed at "
                                   f"{step[3:]}:\n{done.stderr[-2000:]}")

    start = time.perf_counter()
    with ThreadPoolExecutor(len(offices)) as pool:
        for built in [pool.submit(chain, office) for office in offices]:
            built.result()
    return time.perf_counter() - start


def _in_turn(task: str, runs: dict[str, Callable[[], float]]) -> dict[str, float]:
    """Each engine's run of a task REPEAT times, the engines in turn (so that both meet
    the same load on the machine and the same state of this process), its median."""
    times: dict[str, list[float]] = {engine: [] for engine in runs}
    for _ in range(REPEAT):
        for engine, run in runs.items():
            gc.collect()
            times[engine].append(run())
    medians = {engine: statistics.median(found) for engine, found in times.items()}
    for engine, median in medians.items():
        print(f"engines: {task}, {engine}: {median:.2f} s "
              f"({', '.join(f'{t:.2f}' for t in times[engine])})", flush=True)
    return medians


def _timed(fn: Callable[[], Any]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def _worklists(ws: Workspace) -> Callable[[], float]:
    counts = {name: len(rows) for name, rows in worklists(ws, as_of=AS_OF).items()}
    assert counts, "no work lists"
    return lambda: _timed(lambda: worklists(ws, as_of=AS_OF))


def _report(ws: Workspace) -> Callable[[], float]:
    def whole() -> None:
        r = program_report(ws, START, END, as_of=AS_OF)
        assert r.figures["totals"]["inspections"] > 0
        program_report_pdf(ws, r)

    return lambda: _timed(whole)


def _package(office: Office, root: Path) -> Path:
    """A package of LAPTOP_PARCELS * CHANGES_EACH changes from a laptop enrolled at
    `office` for a stretch of neighbouring parcels (the demo lays them along the shore in
    the roll's order, so the kit carries few lots of others)."""
    kit, field, package = (root / f"{office.engine}-{name}" for name in
                           ("kit.zip", "field", "package.zip"))
    with office.open() as ws:
        sbls = [p["sbl"] for p in ws.parcels()][:LAPTOP_PARCELS]
        sync.enroll(ws, "laptop", kit, sbls, passphrase=PASSPHRASE)
    sync.join(field, kit, user="k.olmsted", passphrase=PASSPHRASE)
    with Workspace(field, user="k.olmsted") as laptop:
        ids = [laptop.parcel_id(s) for s in sbls]
        with laptop.store.transaction() as w:
            for n in range(CHANGES_EACH * len(ids)):
                w.update("parcels", ids[n % len(ids)], {"owner_mailing_address": [
                    f"{n} Main St", "Naples, NY 14512"]})
        sync.export(laptop, package)
    return package


class _Copies:
    """Fresh copies of an office, one for each import."""

    def __init__(self, office: Office, root: Path, cluster: pg_cluster.Cluster) -> None:
        self.office, self.root, self.cluster = office, root, cluster
        self.made = 0

    def new(self) -> Office:
        self.made += 1
        folder = self.root / f"{self.office.engine}-copy-{self.made}"
        shutil.copytree(self.office.folder, folder)
        if self.office.database is None:
            return Office(self.office.engine, folder)
        name = f"office_copy_{self.made}"
        with self.cluster.connect() as conn:
            conn.execute(f"CREATE DATABASE {name} TEMPLATE office")
        return Office(self.office.engine, folder, self.cluster.url(name))


def _sync_import(office: Office, root: Path, cluster: pg_cluster.Cluster
                 ) -> Callable[[], float]:
    """One import of the laptop's package into a fresh copy of the office, timed."""
    package = _package(office, root)
    copies = _Copies(office, root, cluster)

    def once() -> float:
        with copies.new().open() as ws:
            start = time.perf_counter()
            result = sync.import_package(ws, package)
            took = time.perf_counter() - start
        assert result["applied"] == LAPTOP_PARCELS * CHANGES_EACH, result
        return took

    return once


def main() -> list[Goal]:
    began = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        cluster = pg_cluster.start(root / "postgresql")
        try:
            cluster.create_database("office")
            offices = [Office("sqlite", root / "sqlite"),
                       Office("postgresql", root / "desk", cluster.url("office"))]
            built = _build(offices)
            print(f"engines: both offices built in {built:.1f} s", flush=True)
            figures: dict[str, dict[str, float]] = {}
            with contextlib.ExitStack() as opened:
                desks = {o.engine: opened.enter_context(o.open()) for o in offices}
                figures["work lists, 20,000 parcels"] = _in_turn(
                    "work lists", {e: _worklists(ws) for e, ws in desks.items()})
                figures["program report, six years"] = _in_turn(
                    "program report", {e: _report(ws) for e, ws in desks.items()})
            figures["sync import, 10,000 changes"] = _in_turn(
                "sync import", {o.engine: _sync_import(o, root, cluster) for o in offices})
        finally:
            cluster.stop()
    rows = [("both offices built at once (demo, summaries)", f"{built:.1f} s"),
            ("task", f"{'SQLite s':>10}  {'PostgreSQL s':>12}  {'ratio':>6}  "
                     f"{'target':>6}  within")]
    goals = []
    for task, target in TARGETS.items():
        lite, pg = figures[task]["sqlite"], figures[task]["postgresql"]
        ratio = pg / lite
        rows.append((task, f"{lite:10.2f}  {pg:12.2f}  {ratio:6.2f}  {target:5.1f}x  "
                           f"{'yes' if ratio <= target else 'NO'}"))
        goals.append(Goal("engines", f"{task}: PostgreSQL / SQLite", f"{ratio:.2f}",
                          f"<= {target:g}", ratio <= target))
    rows.append(("whole benchmark", f"{time.perf_counter() - began:.0f} s"))
    report(f"engines: SQLite and PostgreSQL, median of {REPEAT}", rows)
    return goals


if __name__ == "__main__":
    main()
