"""SIGKILL at random points of a sync import leaves the office as before or fully after."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from inspector_app.services import exchange as sync
from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.workspace import Workspace
from tests.kill_points import kill_at, points_of
from tests.sync.conftest import KIT_PASSPHRASE, TODAY

IMPORTER = r"""
import sys
from tests import kill_points
kill_points.install()
from pathlib import Path
from inspector_app.services import exchange as sync
from inspector_app.services.workspace import Workspace
ws = Workspace(Path(sys.argv[1]), user="clerk")
kill_points.start()
sync.import_package(ws, Path(sys.argv[2]))
print("done", flush=True)
"""
CHANGES = 3000


# killed at the SQLite file's write points (tests/kill_points.py), in a child that opens
# the data folder's own file
@pytest.mark.sqlite_only
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

    counted = tmp_path / "office-counted"
    shutil.copytree(tmp_path / "office", counted)
    # every write point of the import: the backup before it, the changes, the commit
    points = points_of(["-c", IMPORTER, str(counted), str(tmp_path / "big.zip")])[-1]
    rng = random.Random(11)
    outcomes, mid_import = set(), 0
    for attempt in range(8):
        copy = tmp_path / f"office-{attempt}"
        shutil.copytree(tmp_path / "office", copy)
        killed = kill_at(["-c", IMPORTER, str(copy), str(tmp_path / "big.zip")],
                         rng.randint(1, points), pause=attempt % 2 == 0)
        assert killed.point is not None or killed.lines == ["done"], killed.stderr
        mid_import += attempt % 2 == 0 and killed.in_transaction
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
    assert mid_import >= 2, f"only {mid_import} kills fell inside the import's transaction"
