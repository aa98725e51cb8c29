"""An enrolment killed at any moment leaves either the laptop enrolled with its whole field
kit, or its name free: enrolling again under the same name then works."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from inspector_app.services import exchange as sync
from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.workspace import Workspace

from .conftest import KIT_PASSPHRASE, TODAY

# More by hand: INSPECTOR_ENROL_KILLS=40 .venv/bin/pytest tests/sync/test_enroll_crash.py
KILLS = int(os.environ.get("INSPECTOR_ENROL_KILLS", "12"))


def _enrolled(root: Path, name: str) -> bool:
    with Workspace(root, user="checker") as ws:
        assert ws.store.integrity_ok()
        return bool(ws.store.query("SELECT 1 AS x FROM devices WHERE role = 'field' AND "
                                   "name = ?", (name,)))


def _joins(kit: Path, root: Path) -> None:
    result = sync.join(root, kit, user="k.olmsted", passphrase=KIT_PASSPHRASE)
    assert result["parcels"] == 2
    with Workspace(root, user="k.olmsted") as field:
        assert len(field.parcels()) == 2


@pytest.mark.slow
def test_sigkill_during_enrolment_leaves_kit_and_device_or_neither(tmp_path: Path) -> None:
    rng = random.Random(40)
    office = tmp_path / "office"
    with Workspace(office, user="clerk") as ws:
        install_demo(ws, count=4, today=TODAY)
        sbls = [p["sbl"] for p in ws.parcels()][:2]
    secret = tmp_path / "passphrase.txt"
    secret.write_text(KIT_PASSPHRASE + "\n")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])}

    def enrol(name: str, kit: Path) -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            [sys.executable, "-m", "inspector_app", "--data-dir", str(office), "sync",
             "enroll", "--device", name, "--out", str(kit), "--parcels", ",".join(sbls),
             "--passphrase-file", str(secret)],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)

    # How long a whole enrolment takes on this machine: the kills fall anywhere in it
    # (from the program's start to just after it ends).
    started = time.perf_counter()
    assert enrol("laptop-timed", tmp_path / "kit-timed.zip").wait() == 0
    whole = time.perf_counter() - started
    number, outcomes = 1, {"enrolled": 0, "free": 0}
    for kill in range(KILLS):
        name, kit = f"laptop-{number}", tmp_path / f"kit-{number}.zip"
        child = enrol(name, kit)
        time.sleep(whole * (0.2 + rng.random()))
        child.send_signal(signal.SIGKILL)
        _, err = child.communicate()
        assert child.returncode in (0, -signal.SIGKILL), err
        if _enrolled(office, name):
            outcomes["enrolled"] += 1
            _joins(kit, tmp_path / f"field-{kill}")  # a complete kit, that opens and joins
            number += 1
        else:
            outcomes["free"] += 1  # the same name is tried again on the next round
    # both outcomes were met: the kills really fell before and after the commit
    assert outcomes["enrolled"] and outcomes["free"], outcomes
    with Workspace(office, user="clerk") as ws:
        name, kit = f"laptop-{number}", tmp_path / "last-kit.zip"
        sync.enroll(ws, name, kit, sbls, passphrase=KIT_PASSPHRASE)
    _joins(kit, tmp_path / "field-last")
