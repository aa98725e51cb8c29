"""Several desks on one office database at once: edits made side by side are all kept,
and the same value changed on two desks is refused on the second, never overwritten."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import psycopg
import pytest

from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.office.database import init_office
from inspector_app.services.workspace import Workspace
from tests.pg_cluster import Cluster

EDITS = 200

# One desk: opens the office, says it is ready, waits for the word, then makes its edits,
# each saved as the form saves it (one transaction each), and says how many it saved.
DESK = r"""
import json, sys
from dataclasses import replace
from pathlib import Path
from inspector_app.services.workspace import Workspace

url, folder, first, count, edits = sys.argv[1], Path(sys.argv[2]), int(sys.argv[3]), \
    int(sys.argv[4]), int(sys.argv[5])
with Workspace(folder, database=url) as ws:
    sbls = [p["sbl"] for p in ws.parcels()][first:first + count]
    print("ready", flush=True)
    assert sys.stdin.readline().strip() == "go"
    saved = 0
    for n in range(edits):
        sbl = sbls[n % len(sbls)]
        parcel_id, before, _ = ws.open_for_edit(sbl)
        after = replace(before, parcel=replace(before.parcel,
                                               owner_phone=f"585-555-{first:02d}{n:02d}"[:12]))
        ws.save_edit(parcel_id, before, after)
        saved += 1
    print(json.dumps({"saved": saved}), flush=True)
"""


@pytest.fixture
def office(pg_cluster: Cluster, tmp_path: Path) -> Iterator[str]:
    name = f"desks_{os.getpid()}"
    url = pg_cluster.create_database(name, postgis=False)
    init_office(url, tmp_path / "admin", user="admin")
    with Workspace(tmp_path / "admin", user="admin", database=url) as ws:
        install_demo(ws)
    yield url
    pg_cluster.drop_database(name)


def _phones(url: str) -> dict[str, str | None]:
    with psycopg.connect(url) as conn:
        return dict(conn.execute("SELECT sbl, owner_phone FROM parcels").fetchall())


def _log_rows(url: str) -> int:
    with psycopg.connect(url) as conn:
        return int(conn.execute("SELECT count(*) FROM change_log WHERE field = 'owner_phone'"
                                ).fetchone()[0])  # type: ignore[index]


@pytest.mark.slow
def test_two_desks_making_edits_at_the_same_moment_lose_nothing(
        office: str, tmp_path: Path) -> None:
    before = _log_rows(office)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    desks = [subprocess.Popen([sys.executable, "-c", DESK, office, str(tmp_path / f"desk{i}"),
                               str(first), "20", str(EDITS)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                              env=env)
             for i, first in enumerate((0, 20))]
    for desk in desks:  # each has opened the office and waits for the word
        assert desk.stdout is not None and desk.stdout.readline().strip() == "ready"
    for desk in desks:
        assert desk.stdin is not None
        desk.stdin.write("go\n")
        desk.stdin.flush()
    results = []
    for desk in desks:
        out, _ = desk.communicate(timeout=600)
        assert desk.returncode == 0
        results.append(json.loads(out.strip().splitlines()[-1]))
    assert [r["saved"] for r in results] == [EDITS, EDITS]
    # every edit is in the change log, and each parcel holds its desk's last value
    assert _log_rows(office) - before == 2 * EDITS
    phones = _phones(office)
    with Workspace(tmp_path / "check", database=office) as ws:
        sbls = [p["sbl"] for p in ws.parcels()]
    for first in (0, 20):
        for k, sbl in enumerate(sbls[first:first + 20]):
            last = max(n for n in range(EDITS) if n % 20 == k)
            assert phones[sbl] == f"585-555-{first:02d}{last:02d}"[:12]


def test_the_same_value_changed_on_two_desks_is_refused_on_the_second(
        office: str, tmp_path: Path) -> None:
    with Workspace(tmp_path / "desk-a", database=office) as a, \
            Workspace(tmp_path / "desk-b", database=office) as b:
        sbl = a.parcels()[3]["sbl"]
        parcel_id, form_a, _ = a.open_for_edit(sbl)
        _, form_b, _ = b.open_for_edit(sbl)
        a.save_edit(parcel_id, form_a, replace(
            form_a, parcel=replace(form_a.parcel, owner_name="Ann Desk-A")))
        with pytest.raises(Exception) as refused:
            b.save_edit(parcel_id, form_b, replace(
                form_b, parcel=replace(form_b.parcel, owner_name="Bob Desk-B")))
        assert "changed elsewhere since the form was opened" in str(refused.value)
        assert a.load_case(sbl).parcel.owner_name == "Ann Desk-A"
        # a different value of the same parcel, changed on the second desk, is kept
        b.save_edit(parcel_id, form_b, replace(
            form_b, parcel=replace(form_b.parcel, owner_phone="585-555-0199")))
        case = a.load_case(sbl)
        assert (case.parcel.owner_name, case.parcel.owner_phone) == ("Ann Desk-A",
                                                                     "585-555-0199")
