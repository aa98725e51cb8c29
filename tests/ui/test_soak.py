"""A soak run: 500 seeded user actions on the demo parcels, with the real worker thread.

The app runs in a child process (`python -X faulthandler`), so a crash fails this test
instead of ending the test run; the driver is tests/ui/soak_driver.py. Afterwards the
database must be intact, every parcel must still export a case file that passes the case
checks (what `inspector-app evaluate CASE.json` runs), and every parcel the run never
selected must export byte for byte as before.

    INSPECTOR_SOAK_SEED=7 INSPECTOR_SOAK_ACTIONS=2000 .venv/bin/pytest -m slow tests/ui/test_soak.py

replays another seed or a longer run; the failure message gives the command that
reproduces a failing run by hand.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shlex
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from inspector_app import cli
from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.workspace import Workspace

DRIVER = Path(__file__).with_name("soak_driver.py")
ROOT = Path(__file__).resolve().parents[2]
SEED = int(os.environ.get("INSPECTOR_SOAK_SEED", "11"))
ACTIONS = int(os.environ.get("INSPECTOR_SOAK_ACTIONS", "400"))


def _cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = cli.run(list(args))
    return status, out.getvalue(), err.getvalue()


def _exports(data: Path) -> dict[str, str]:
    """`inspector-app case export SBL` of every parcel, as text."""
    status, out, err = _cli("--data-dir", str(data), "parcels")
    assert status == 0, err
    exports = {}
    for row in json.loads(out):
        status, text, err = _cli("--data-dir", str(data), "case", "export", row["sbl"])
        assert status == 0, f"case export {row['sbl']} failed after the run: {err}"
        exports[row["sbl"]] = text
    return exports


def _fault(stderr: str) -> str:
    """stderr without Qt's offscreen-platform chatter, from the first fault on."""
    lines = [x for x in stderr.splitlines() if not x.startswith("This plugin does not")]
    for n, line in enumerate(lines):
        if line.startswith(("Fatal Python error", "Traceback", "soak: FAIL", "ASSERT")):
            return "\n".join(lines[n:n + 40])
    return "\n".join(lines[-40:])


@pytest.mark.slow
def test_soak_of_seeded_user_actions_keeps_every_record_sound(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with Workspace(data, user="k.olmsted") as ws:
        install_demo(ws)
    before = _exports(data)
    assert len(before) == 40

    selected, log = tmp_path / "selected.txt", tmp_path / "actions.log"
    command = [sys.executable, "-X", "faulthandler", str(DRIVER), "--data-dir", str(data),
               "--seed", str(SEED), "--actions", str(ACTIONS), "--selected", str(selected),
               "--log", str(log)]
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen",
           "XDG_CONFIG_HOME": str(tmp_path / "config")}  # the app's settings start empty
    proc = subprocess.run(command, capture_output=True, text=True, env=env, cwd=ROOT,
                          timeout=180)
    actions = log.read_text("utf-8").splitlines() if log.exists() else []
    started = [x for x in actions if re.fullmatch(r"#\d+ \S+", x)]
    where = (f"last actions (seed {SEED}):\n" + "\n".join(actions[-12:]) +
             f"\nreproduce on a copy of a fresh demo folder:\n  {shlex.join(command)}")
    assert proc.returncode == 0, (
        f"the app failed during {started[-1] if started else 'start-up'} "
        f"(exit status {proc.returncode}):\n{_fault(proc.stderr)}\n{where}")
    assert "Traceback" not in proc.stderr and "soak: FAIL" not in proc.stderr, (
        f"{_fault(proc.stderr)}\n{where}")
    summary = json.loads(proc.stdout.strip().splitlines()[-1])
    assert summary["actions"] == ACTIONS and not summary["failures"], summary

    with sqlite3.connect(data / "inspector.sqlite") as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"

    after = _exports(data)
    assert sorted(after) == sorted(before), "parcels appeared or disappeared"
    for sbl, text in after.items():
        case_file = tmp_path / "case.json"
        case_file.write_text(text, "utf-8")
        status, _, err = _cli("--data-dir", str(data), "evaluate", str(case_file))
        assert status == 0, f"{sbl} no longer passes the case checks: {err}"

    touched = set(selected.read_text("utf-8").split())
    assert touched, "the run selected no parcel"
    changed = sorted(sbl for sbl in after if sbl not in touched and after[sbl] != before[sbl])
    assert not changed, f"parcels the run never selected were changed: {changed}"
