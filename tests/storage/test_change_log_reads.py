"""Reading many parcels' change-log entries together gives each parcel what reading it
alone gives."""

from __future__ import annotations

from datetime import date

import pytest

from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.workspace import Workspace
from inspector_app.storage import change_log
from inspector_app.storage.cases import CASE_TABLES

TABLES = ("parcels", "inspection_tests", *CASE_TABLES)


def test_many_parcels_entries_read_together_are_each_parcels_own(
        workspace: Workspace, monkeypatch: pytest.MonkeyPatch) -> None:
    install_demo(workspace, count=12, today=date(2026, 11, 25))
    conn = workspace.store.conn
    ids = [workspace.parcel_id(p["sbl"]) for p in workspace.parcels()]
    # a few parcels a statement, so that the parcels are read in several statements
    monkeypatch.setattr(change_log, "_IDS_AT_ONCE", 5)
    asked = [*reversed(ids), "no-such-parcel"]
    together = change_log.parcels_entries(conn, asked, TABLES)
    assert list(together) == asked
    assert together["no-such-parcel"] == []
    for parcel_id in ids:
        alone = change_log.parcel_entries(conn, parcel_id, TABLES)
        assert alone, parcel_id
        assert together[parcel_id] == alone, parcel_id
    # only the tables named
    only_parcels = change_log.parcels_entries(conn, ids, ("parcels",))
    assert all(e[3] == "parcels" for entries in only_parcels.values() for e in entries)
    assert sum(map(len, only_parcels.values())) < sum(map(len, together.values()))
