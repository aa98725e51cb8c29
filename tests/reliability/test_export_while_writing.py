"""A sync export running while edits are being saved sees a consistent snapshot."""

from __future__ import annotations

import json
import threading
import zipfile
from datetime import date
from pathlib import Path

from inspector_app.services import exchange as sync
from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.exchange import incoming
from inspector_app.services.workspace import Workspace
from inspector_app.sync.package import read_package

EDITS = 150


def test_exports_during_writes_are_consistent(tmp_path: Path) -> None:
    office = Workspace(tmp_path / "office", user="clerk")
    install_demo(office, count=5, today=date(2026, 11, 25))
    sync.enroll(office, "laptop", tmp_path / "kit.zip", [p["sbl"] for p in office.parcels()],
                passphrase="kit passphrase 1")
    sync.join(tmp_path / "field", tmp_path / "kit.zip", user="k.olmsted",
              passphrase="kit passphrase 1")
    writer = Workspace(tmp_path / "field", user="k.olmsted")
    exporter = Workspace(tmp_path / "field", user="k.olmsted")  # a second connection
    ids = [writer.parcel_id(p["sbl"]) for p in writer.parcels()]
    problems: list[BaseException] = []
    done = threading.Event()
    sizes: list[int] = []

    def export_loop() -> None:
        n = 0
        try:
            while not done.is_set():
                path = tmp_path / f"p{n}.zip"
                sync.export(exporter, path)
                package = read_package(path, incoming._key_lookup(office))
                seqs = [c["device_seq"] for c in package.changes]
                assert seqs == list(range(1, len(seqs) + 1)), "a torn snapshot"
                sizes.append(len(seqs))
                n += 1
        except BaseException as exc:
            problems.append(exc)

    thread = threading.Thread(target=export_loop)
    thread.start()
    for n in range(EDITS):
        with writer.store.transaction() as w:
            w.update("parcels", ids[n % len(ids)], {"owner_name": f"Owner {n}"})
            w.update("dwellings", writer.store.query(
                "SELECT id FROM dwellings WHERE parcel_id = ?", (ids[n % len(ids)],))[0]["id"],
                {"bedrooms": n % 7})
    done.set()
    thread.join()
    assert not problems, problems[0]
    assert sizes == sorted(sizes) and len(sizes) >= 2  # snapshots only ever grow
    final = tmp_path / "final.zip"
    sync.export(exporter, final)
    with zipfile.ZipFile(final) as z:
        lines = z.read("changes.jsonl").splitlines()
    logged = writer.store.query("SELECT count(*) AS n FROM change_log WHERE device_id = ?",
                                (writer.store.device_id,))[0]["n"]
    assert logged > EDITS  # every name change, and the bedroom changes that changed anything
    assert len(lines) == logged and json.loads(lines[-1])["device_seq"] == logged
    for ws in (writer, exporter, office):
        ws.close()
