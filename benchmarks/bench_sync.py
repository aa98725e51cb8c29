"""Importing a sync package of 10,000 changes.

Prints the import time and its ratio to inserting the same change rows with raw
`sqlite3.executemany` into a copy of the same database in the same run (goal: at most 5),
and the time to import the same package again (goal: under 0.5 s). Each is the best of
REPEAT runs, each on a fresh copy of the office's data folder, so that another program
busy on the machine in one of them does not decide the ratio.

Run: python -m benchmarks.bench_sync
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import tempfile
import time
from datetime import date
from pathlib import Path

from benchmarks.common import Goal, report
from inspector_app.services import exchange as sync
from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.exchange.incoming import _key_lookup
from inspector_app.services.workspace import Workspace
from inspector_app.sync.package import read_package

CHANGES = 10_000
REPEAT = 3
GOAL_RATIO, GOAL_REIMPORT_S = 5.0, 0.5
PASSPHRASE = "benchmark kit passphrase"


def main() -> list[Goal]:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        office = Workspace(root / "office", user="clerk")
        install_demo(office, count=200, today=date(2026, 11, 25))
        sync.enroll(office, "laptop", root / "kit.zip", [p["sbl"] for p in office.parcels()],
                    passphrase=PASSPHRASE)
        office.close()
        sync.join(root / "field", root / "kit.zip", user="k.olmsted", passphrase=PASSPHRASE)
        field = Workspace(root / "field", user="k.olmsted")
        ids = [field.parcel_id(p["sbl"]) for p in field.parcels()]
        with field.store.transaction() as w:
            for n in range(CHANGES):
                w.update("parcels", ids[n % len(ids)], {"owner_mailing_address":
                                                         [f"{n} Main St", "Naples, NY 14512"]})
        sync.export(field, root / "big.zip")
        field.close()
        shutil.copytree(root / "office", root / "before")

        t_import = t_again = t_raw = float("inf")
        for n in range(REPEAT):
            shutil.copytree(root / "before", root / f"office-{n}")
            office = Workspace(root / f"office-{n}", user="clerk")
            start = time.perf_counter()
            result = sync.import_package(office, root / "big.zip")
            t_import = min(t_import, time.perf_counter() - start)
            start = time.perf_counter()
            again = sync.import_package(office, root / "big.zip")
            t_again = min(t_again, time.perf_counter() - start)
            package = read_package(root / "big.zip", _key_lookup(office))
            office.close()

        rows = [(c["change_id"], c["at"], c["user"], c["device_id"], c["table"], c["record_id"],
                 c["parcel_id"], c["op"], c["field"], json.dumps(c["old"]), json.dumps(c["new"]),
                 c["record_version"], c["device_seq"]) for c in package.changes]
        for n in range(REPEAT):
            shutil.copytree(root / "before", root / f"baseline-{n}")
            conn = sqlite3.connect(root / f"baseline-{n}" / "inspector.sqlite",
                                   isolation_level=None)
            conn.execute("PRAGMA synchronous = FULL")
            start = time.perf_counter()
            conn.execute("BEGIN")
            conn.executemany(
                "INSERT INTO change_log (change_id, at, user, device_id, table_name, record_id,"
                " parcel_id, op, field, old_value, new_value, record_version, device_seq)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
            conn.execute("COMMIT")
            t_raw = min(t_raw, time.perf_counter() - start)
            conn.close()
        report(f"sync import: {CHANGES:,} changes (best of {REPEAT})", [
            ("import (validate, back up, merge)", f"{t_import:8.2f} s  ({result['applied']:,} "
                                                   "applied)"),
            ("raw executemany of the rows", f"{t_raw:8.2f} s"),
            ("ratio import / raw", f"{t_import / t_raw:8.1f}   (goal <= {GOAL_RATIO:g})"),
            ("re-import", f"{t_again:8.3f} s  (goal < {GOAL_REIMPORT_S} s; "
                          f"already_imported={again['already_imported']})"),
        ])
        ratio = t_import / t_raw
        return [Goal("sync", "import of 10,000 changes, ratio to raw executemany",
                     f"{ratio:.1f}", f"<= {GOAL_RATIO:g}", ratio <= GOAL_RATIO),
                Goal("sync", "re-import of the same package", f"{t_again:.3f} s",
                     f"< {GOAL_REIMPORT_S} s", t_again < GOAL_REIMPORT_S)]


if __name__ == "__main__":
    main()
