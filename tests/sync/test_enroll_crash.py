"""An enrolment killed at any point of its writes leaves either the laptop enrolled with its
whole field kit, or its name free: enrolling again under the same name then works."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from inspector_app.services import exchange as sync
from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.workspace import Workspace
from tests.kill_points import kill_at, points_of

from .conftest import KIT_PASSPHRASE, TODAY

# More by hand: INSPECTOR_ENROL_KILLS=40 .venv/bin/pytest -m slow tests/sync/test_enroll_crash.py
KILLS = int(os.environ.get("INSPECTOR_ENROL_KILLS", "12"))

# The command line, its write points numbered (tests/kill_points.py).
ENROL = r"""
import sys
from tests import kill_points
kill_points.install()
kill_points.start()
from inspector_app.__main__ import main
sys.exit(main(sys.argv[1:]))
"""


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
# killed at the SQLite file's write points (tests/kill_points.py), in a child that opens
# the data folder's own file
@pytest.mark.sqlite_only
def test_sigkill_during_enrolment_leaves_kit_and_device_or_neither(tmp_path: Path) -> None:
    rng = random.Random(40)
    office = tmp_path / "office"
    with Workspace(office, user="clerk") as ws:
        install_demo(ws, count=4, today=TODAY)
        sbls = [p["sbl"] for p in ws.parcels()][:2]
    secret = tmp_path / "passphrase.txt"
    secret.write_text(KIT_PASSPHRASE + "\n")

    def enrol(name: str, kit: Path) -> list[str]:
        return ["-c", ENROL, "--data-dir", str(office), "sync", "enroll", "--device", name,
                "--out", str(kit), "--parcels", ",".join(sbls), "--passphrase-file",
                str(secret)]

    # Every write point of a whole enrolment, from opening the folder to the program's
    # end: the kills fall anywhere in it, the last one just after its last write.
    points = points_of(enrol("laptop-counted", tmp_path / "kit-counted.zip"))[-1]
    number, outcomes = 1, {"enrolled": 0, "free": 0}
    for kill in range(KILLS):
        name, kit = f"laptop-{number}", tmp_path / f"kit-{number}.zip"
        point = points if kill == KILLS - 1 else rng.randint(1, points)
        killed = kill_at(enrol(name, kit), point, pause=kill % 2 == 0)
        assert killed.point is not None or killed.returncode == 0, killed.stderr
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
