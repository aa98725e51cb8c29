"""SIGKILL during letter issuing and during migrations: exactly before or after."""

from __future__ import annotations

import contextlib
import hashlib
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from datetime import date
from pathlib import Path

import pytest

from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.session.laws import NoLawOnFile
from inspector_app.services.workspace import Workspace
from inspector_app.storage.database import SCHEMA_VERSION
from tests.suggestions import decide_pending

ROOT = Path(__file__).parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
KILLS = 6

ISSUER = r"""
import sys
from datetime import date
from pathlib import Path
from inspector_app.services.letters import register as letters
from inspector_app.services.workspace import Workspace
ws = Workspace(Path(sys.argv[1]), user="clerk")
day = date(2026, 11, 25)
print("start", flush=True)
while True:
    for p in ws.parcels():
        # a parcel with no law on file has no letters (its facts carry none)
        if getattr(ws.assess_parcel(p["sbl"], as_of=day), "letters", ()):
            for issued in letters.issue(ws, p["sbl"], as_of=day):
                print(issued.id, issued.sha256, flush=True)
"""

MIGRATOR = r"""
import sys
from pathlib import Path
from inspector_app.services.workspace import Workspace
print("start", flush=True)
Workspace(Path(sys.argv[1]), user="clerk").close()
print("done", flush=True)
"""


def _kill_after(code: str, folder: Path, delay: float) -> str:
    child = subprocess.Popen([sys.executable, "-c", code, str(folder)], stdout=subprocess.PIPE,
                             text=True, env=ENV)
    assert child.stdout is not None
    assert child.stdout.readline().strip() == "start"
    time.sleep(delay)
    child.send_signal(signal.SIGKILL)
    out, _ = child.communicate()
    return out


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
    for _ in range(KILLS):
        out = _kill_after(ISSUER, folder, rng.uniform(0.2, 1.5))
        reported.update(line.split() for line in out.splitlines() if line.strip())  # type: ignore[misc]
        with Workspace(folder, user="checker") as check:
            assert check.store.integrity_ok()
            rows = {r["id"]: r for r in check.store.query(
                "SELECT id, sha256, pdf, status FROM letters")}
            for letter_id, digest in reported.items():
                assert rows[letter_id]["sha256"] == digest  # every reported letter is there
            for r in rows.values():  # and none is half-written
                assert r["status"] == "issued" and hashlib.sha256(r["pdf"]).hexdigest() == (
                    r["sha256"])
    assert reported  # the issuer really issued letters between kills


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
    for attempt in range(KILLS):
        folder = tmp_path / f"office-{attempt}"
        folder.mkdir()
        conn = sqlite3.connect(folder / "inspector.sqlite")
        conn.executescript(fixture)
        conn.close()
        _kill_after(MIGRATOR, folder, rng.uniform(0.0, 0.25))
        version, tables, components, ahj = _schema(folder / "inspector.sqlite")
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
