"""SIGKILL during a sync import leaves the office as before or fully after."""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from inspector_app.services import exchange as sync
from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.workspace import Workspace
from tests.sync.conftest import KIT_PASSPHRASE, TODAY

IMPORTER = r"""
import sys
from pathlib import Path
from inspector_app.services import exchange as sync
from inspector_app.services.workspace import Workspace
ws = Workspace(Path(sys.argv[1]), user="clerk")
print("start", flush=True)
sync.import_package(ws, Path(sys.argv[2]))
print("done", flush=True)
"""
CHANGES = 3000


@pytest.mark.slow
def test_sigkill_during_import(tmp_path: Path) -> None:
    office = Workspace(tmp_path / "office", user="clerk")
    install_demo(office, count=3, today=TODAY)
    sync.enroll(office, "laptop", tmp_path / "kit.zip", [p["sbl"] for p in office.parcels()],
                passphrase=KIT_PASSPHRASE)
    office.close()
    sync.join(tmp_path / "field", tmp_path / "kit.zip", user="k.olmsted",
              passphrase=KIT_PASSPHRASE)
    field = Workspace(tmp_path / "field", user="k.olmsted")
    pid = field.parcel_id(field.parcels()[0]["sbl"])
    with field.store.transaction() as w:
        for n in range(CHANGES):
            w.update("parcels", pid, {"owner_name": f"Owner {n}"})
    sync.export(field, tmp_path / "big.zip")
    field.close()

    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])}
    rng = random.Random(11)
    outcomes = set()
    for attempt in range(8):
        copy = tmp_path / f"office-{attempt}"
        shutil.copytree(tmp_path / "office", copy)
        child = subprocess.Popen([sys.executable, "-c", IMPORTER, str(copy),
                                  str(tmp_path / "big.zip")], stdout=subprocess.PIPE, text=True,
                                 env=env)
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "start"
        time.sleep(rng.uniform(0.0, 0.6))
        child.send_signal(signal.SIGKILL)
        child.wait()
        with Workspace(copy, user="checker") as ws:
            assert ws.store.integrity_ok()
            received = ws.store.query("SELECT count(*) AS n FROM sync_received")[0]["n"]
            packages = ws.store.query("SELECT count(*) AS n FROM sync_packages")[0]["n"]
            owner = ws.load_case(ws.parcels()[0]["sbl"]).parcel.owner_name
            if packages:
                assert (received, owner) == (CHANGES, f"Owner {CHANGES - 1}")
                outcomes.add("after")
            else:
                assert received == 0 and not owner.startswith("Owner ")
                outcomes.add("before")
            # and the import can simply be run again to completion
            result = sync.import_package(ws, tmp_path / "big.zip")
            assert result["already_imported"] == bool(packages)
            assert ws.load_case(ws.parcels()[0]["sbl"]).parcel.owner_name == f"Owner {CHANGES - 1}"
