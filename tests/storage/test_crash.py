"""A writer killed with SIGKILL at random points of its writes never loses a committed
change."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from inspector_app.services.workspace import Workspace
from tests.kill_points import kill_at, plan, points_of

WRITER = r"""
import sys
from tests import kill_points
kill_points.install()
from datetime import date
from pathlib import Path
from inspector_app.casefile import parse_document
from inspector_app.services.workspace import Workspace

root, start = Path(sys.argv[1]), int(sys.argv[2])
ws = Workspace(root, user="crash-test")
kill_points.start()
n = start
while True:
    doc = {
        "format": "watershed-inspector/case/1",
        "parcel": {"sbl": f"1-1-{n}", "municipality": "Town of Italy",
                   "site_address": f"{n} Main St", "owner_name": f"Owner {n}",
                   "owner_mailing_address": [f"{n} Main St", "Naples, NY 14512"]},
        "dwelling": {"bedrooms": 3, "living_area_sqft": 1500},
        "components": [{"kind": "septic_tank", "condition": "acceptable", "defects": []},
                       {"kind": "absorption_area", "condition": "acceptable", "defects": []}],
        "inspection": {"date": "2026-11-20", "inspector": "A. Inspector",
                       "reason": "conveyance", "failure_evidence": []},
    }
    ws.save_case(parse_document(doc, source="gen", today=date(2026, 11, 25)))
    print(n, flush=True)
    kill_points.unit_done()
    n += 1
"""

KILLS = 25


@pytest.mark.slow
def test_sigkill_during_writes_loses_nothing_committed(tmp_path: Path) -> None:
    rng = random.Random(7)
    root = tmp_path / "data"
    committed: set[int] = set()
    next_n = 0
    mid_save = 0
    # the write points of a save (its statements, the commit), from a run not killed
    counts = points_of(["-c", WRITER, str(tmp_path / "counted"), "0"], units=3)
    for point, pause in plan(counts, KILLS, rng, units=6):
        killed = kill_at(["-c", WRITER, str(root), str(next_n)], point, pause=pause)
        assert killed.point is not None, killed.stderr  # it writes until killed
        mid_save += pause and killed.in_transaction
        reported = {int(line) for line in killed.lines}
        committed |= reported
        next_n = max(reported | {next_n - 1}) + 2  # skip the one that may be half-way

        with Workspace(root, user="checker") as ws:
            assert ws.store.integrity_ok()
            present = {int(r["sbl"].rsplit("-", 1)[1]) for r in ws.parcels()}
            assert committed <= present, f"lost: {sorted(committed - present)}"
            # every parcel that exists is whole: none half-written
            counts = ws.store.query(
                "SELECT (SELECT count(*) FROM parcels) AS parcels,"
                " (SELECT count(*) FROM dwellings) AS dwellings,"
                " (SELECT count(*) FROM components) AS components,"
                " (SELECT count(*) FROM inspections) AS inspections,"
                " (SELECT count(DISTINCT parcel_id) FROM change_log) AS logged")[0]
            n = counts["parcels"]
            assert counts == {"parcels": n, "dwellings": n, "components": 2 * n,
                              "inspections": n, "logged": n}
    assert len(committed) > KILLS  # the writer really wrote between kills
    assert mid_save >= KILLS // 4, f"only {mid_save} kills fell inside a save's transaction"
