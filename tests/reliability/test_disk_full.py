"""A full disk: a clear message, nothing committed half-way, nothing lost."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from inspector_app.cli import run
from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.workspace import Workspace
from inspector_app.storage.store import DiskFull

TODAY = date(2026, 11, 25)


def _limit(ws: Workspace, extra_pages: int) -> None:
    pages = ws.store.conn.execute("PRAGMA page_count").fetchone()[0]
    ws.store.conn.execute(f"PRAGMA max_page_count = {pages + extra_pages}")


def test_a_full_disk_refuses_the_step_and_keeps_everything_before(tmp_path: Path) -> None:
    ws = Workspace(tmp_path / "data", user="clerk")
    install_demo(ws, count=3, today=TODAY)
    before = ws.store.query("SELECT count(*) AS n FROM change_log")[0]["n"]
    cases = {p["sbl"]: ws.load_case(p["sbl"]) for p in ws.parcels()}
    _limit(ws, 2)  # room for almost nothing more
    with pytest.raises(DiskFull, match="is full: nothing of this step was saved"):
        install_demo(ws, count=40, today=TODAY)
    assert ws.store.integrity_ok()
    assert ws.store.query("SELECT count(*) AS n FROM change_log")[0]["n"] == before
    assert {p["sbl"]: ws.load_case(p["sbl"]) for p in ws.parcels()} == cases
    ws.store.conn.execute("PRAGMA max_page_count = 1073741823")  # space freed
    assert install_demo(ws, count=40, today=TODAY)["created"] == 37
    ws.close()


def test_the_command_line_says_so_in_one_sentence(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from inspector_app.storage import store

    original = store.Store.transaction

    def cramped(self, *args, **kwargs):
        _limit_conn = self.conn
        pages = _limit_conn.execute("PRAGMA page_count").fetchone()[0]
        _limit_conn.execute(f"PRAGMA max_page_count = {pages + 1}")
        return original(self, *args, **kwargs)

    run(["--data-dir", str(tmp_path), "demo", "--parcels", "2"])
    capsys.readouterr()
    monkeypatch.setattr(store.Store, "transaction", cramped)
    status = run(["--data-dir", str(tmp_path), "demo", "--parcels", "30"])
    out, err = capsys.readouterr()
    assert status == 1 and out == ""
    assert err.strip().startswith(f"The disk holding {tmp_path.resolve()} is full")
