"""A second program writing to the data folder waits for the first instead of failing;
one that holds it longer than the wait gets one clear sentence and exit status 1."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest

from inspector_app.casefile import to_document
from inspector_app.paths import DataFolder
from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.workspace import Workspace
from inspector_app.storage.store import Store

TODAY = date(2026, 11, 25)

# Holds the write lock of the database for argv[2] seconds (or until its stdin closes),
# with a write of its own.
HOLDER = """
import sqlite3, sys, time
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN IMMEDIATE")
conn.execute("INSERT INTO meta (key, value) VALUES ('holder', 'x') "
             "ON CONFLICT(key) DO UPDATE SET value = value || 'x'")
print("locked", flush=True)
if sys.argv[2] == "released":
    sys.stdin.read()
else:
    time.sleep(float(sys.argv[2]))
conn.execute("COMMIT")
"""

# The command line, waiting only argv[1] seconds for the database.
CLI = """
import sys
from inspector_app.storage import database
from inspector_app.cli import run
database.BUSY_TIMEOUT_S = float(sys.argv[1])
sys.exit(run(sys.argv[2:]))
"""


@pytest.fixture
def folder(tmp_path: Path) -> tuple[Path, Path]:
    ws = Workspace(tmp_path / "data", user="clerk")
    install_demo(ws, count=2, today=TODAY)
    sbl = ws.parcels()[0]["sbl"]
    doc = to_document(ws.load_case(sbl))
    ws.close()
    doc["parcel"]["owner_name"] = "Waited For"
    case = tmp_path / "case.json"
    case.write_text(json.dumps(doc), "utf-8")
    return tmp_path / "data", case


def _hold(folder: Path, seconds: float | str) -> subprocess.Popen[str]:
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(folder / "inspector.sqlite"),
                               str(seconds)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True)
    assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
    return holder


def _import(folder: Path, case: Path, wait_s: float) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", CLI, str(wait_s), "--data-dir", str(folder),
                           "--user", "k.olmsted", "case", "import", str(case), "--as-of",
                           TODAY.isoformat()], capture_output=True, text=True, timeout=120)


# a second program holds the data folder's SQLite file locked
@pytest.mark.sqlite_only
def test_a_second_writer_waits_for_the_first(folder: tuple[Path, Path]) -> None:
    data, case = folder
    holder = _hold(data, 1.5)
    result = _import(data, case, 10)
    assert holder.wait(timeout=30) == 0
    assert result.returncode == 0, result.stderr
    ws = Workspace(data, user="clerk")
    try:
        sbl = json.loads(case.read_text("utf-8"))["parcel"]["sbl"]
        assert ws.load_case(sbl).parcel.owner_name == "Waited For"
        assert ws.store.get_meta("holder") == "x"  # the first writer's change stayed too
    finally:
        ws.close()


# a second program holds the data folder's SQLite file locked
@pytest.mark.sqlite_only
def test_a_lock_that_outlasts_the_wait_is_one_sentence_and_exit_1(
        folder: tuple[Path, Path]) -> None:
    data, case = folder
    holder = _hold(data, "released")  # however long the command takes to start
    result = _import(data, case, 0.5)
    assert holder.stdin is not None
    holder.stdin.close()
    assert holder.wait(timeout=30) == 0
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert result.stderr.count("\n") == 1
    assert "busy" in result.stderr and "more than 0.5 seconds" in result.stderr
    assert "nothing of this step was saved" in result.stderr



def test_writes_wait_ten_seconds(tmp_path: Path) -> None:
    store = Store(DataFolder(tmp_path / "d"), user="clerk")
    try:
        assert store.conn.execute("PRAGMA busy_timeout").fetchone()[0] == 10_000
    finally:
        store.close()
