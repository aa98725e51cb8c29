"""SIGKILL during letter issuing and during migrations, at random points of their writes:
exactly before or after."""

from __future__ import annotations

import contextlib
import hashlib
import random
import shutil
import sqlite3
from datetime import date
from pathlib import Path

import pytest

from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.session.laws import NoLawOnFile
from inspector_app.services.workspace import Workspace
from inspector_app.storage.database import SCHEMA_VERSION
from tests.kill_points import kill_at, plan, points_of
from tests.suggestions import decide_pending

ROOT = Path(__file__).parents[2]
KILLS = 6
# twice the write points of an issue (its statements, the commit, the file's fsync and
# rename): every one of them is a stop once, and as many kills let the issuer run on
ISSUE_KILLS = 14

ISSUER = r"""
import sys
from tests import kill_points
kill_points.install()
from dataclasses import replace
from datetime import date
from pathlib import Path
from inspector_app.errors import InputError
from inspector_app.services.letters import register as letters
from inspector_app.services.workspace import Workspace
ws = Workspace(Path(sys.argv[1]), user="clerk")
day = date(2026, 11, 25)
kill_points.start()
while True:
    for p in ws.parcels():
        try:  # the letters the records call for
            done = letters.issue(ws, p["sbl"], as_of=day)
        except InputError:  # none (no law on file, a fact missing), or issued already:
            held = letters.register(ws, p["sbl"])  # then a correction of one in force
            replaced = {r["replaces"] for r in held}
            in_force = [r for r in held if r["id"] not in replaced]
            if not in_force:
                continue
            # a correction must change something: the owner's name, corrected once more
            case = ws.load_case(p["sbl"])
            ws.save_case(replace(case, parcel=replace(
                case.parcel, owner_name=f"Owner No. {len(held)}")), today=day)
            try:
                done = letters.issue(ws, p["sbl"], [in_force[-1]["kind"]], as_of=day,
                                     replaces=in_force[-1]["id"])
            except InputError:
                continue
        for issued in done:
            print(issued.id, issued.sha256, flush=True)
        kill_points.unit_done()
"""

MIGRATOR = r"""
import sys
from tests import kill_points
kill_points.install()
kill_points.start()
from pathlib import Path
from inspector_app.services.workspace import Workspace
Workspace(Path(sys.argv[1]), user="clerk").close()
print("done", flush=True)
"""


@pytest.mark.slow
def test_sigkill_while_issuing_letters(tmp_path: Path) -> None:
    folder = tmp_path / "office"
    ws = Workspace(folder, user="clerk")
    install_demo(ws, today=date(2026, 11, 25))
    for p in ws.parcels():  # the inspector's decisions, without which nothing is issued
        with contextlib.suppress(NoLawOnFile):
            decide_pending(ws, p["sbl"], as_of=date(2026, 11, 25))
    ws.close()
    rng = random.Random(3)
    reported: dict[str, str] = {}
    shutil.copytree(folder, tmp_path / "counted")
    counts = points_of(["-c", ISSUER, str(tmp_path / "counted")], units=3)
    for point, pause in plan(counts, ISSUE_KILLS, rng):
        killed = kill_at(["-c", ISSUER, str(folder)], point, pause=pause)
        assert killed.point is not None, killed.stderr  # it issues until killed
        reported.update(line.split() for line in killed.lines)  # type: ignore[misc]
        with Workspace(folder, user="checker") as check:
            assert check.store.integrity_ok()
            rows = {r["id"]: r for r in check.store.query(
                "SELECT id, sha256, pdf, status FROM letters")}
            for letter_id, digest in reported.items():
                assert rows[letter_id]["sha256"] == digest  # every reported letter is there
            for r in rows.values():  # and none is half-written
                assert r["status"] == "issued" and hashlib.sha256(r["pdf"]).hexdigest() == (
                    r["sha256"])
            logged = {r["record_id"] for r in check.store.query(
                "SELECT record_id FROM change_log WHERE table_name = 'letters'")}
            assert set(rows) <= logged, "a letter in the register without its change log"
    # not vacuous: the issuer issued letters between kills, each found whole above (how
    # many depends on where the kills fell: some fall in the owner's-name edits that let
    # each correction change something)
    assert reported, "no letter was issued between the kills"


def _schema(path: Path) -> tuple[int, set[str], set[str], set[str]]:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = "
                                             "'table'")}
        components = {r[1] for r in conn.execute("PRAGMA table_info(components)")}
        ahj = {r[1] for r in conn.execute("PRAGMA table_info(ahj_determinations)")}
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        return version, tables, components, ahj
    finally:
        conn.close()


@pytest.mark.slow
def test_sigkill_during_migration(tmp_path: Path) -> None:
    fixture = (ROOT / "tests" / "fixtures" / "schema_v1.sql").read_text("utf-8")
    rng = random.Random(5)

    def schema_1(folder: Path) -> Path:
        folder.mkdir()
        conn = sqlite3.connect(folder / "inspector.sqlite")
        conn.executescript(fixture)
        conn.close()
        return folder

    # the whole migration's write points, from the backup before it to the last step
    points = points_of(["-c", MIGRATOR, str(schema_1(tmp_path / "counted"))])[-1]
    outcomes = set()
    for attempt in range(KILLS):
        folder = schema_1(tmp_path / f"office-{attempt}")
        killed = kill_at(["-c", MIGRATOR, str(folder)], rng.randint(1, points),
                         pause=attempt % 2 == 0)
        assert killed.point is not None, killed.stderr
        version, tables, components, ahj = _schema(folder / "inspector.sqlite")
        outcomes.add(version)
        # every step is whole: the schema is exactly that of the version it says
        assert 1 <= version <= SCHEMA_VERSION
        assert ("finding_decisions" in tables) == (version >= 2)
        assert ("geometry" in components) == (version >= 3)
        assert ("waiver_granted" in ahj) == (version >= 5)
        assert ("sync_packages" in tables) == (version >= 6)
        assert ("permit_number" in ahj) == (version >= 10)
        with Workspace(folder, user="checker") as ws:  # and it finishes on the next open
            assert ws.store.integrity_ok()
            assert {p["owner_name"] for p in ws.parcels()} == {"Jane Roe", "Robert Whitaker"}
        shutil.rmtree(folder)
    assert len(outcomes) > 1, f"every kill left schema version {outcomes}: none fell mid-way"
