"""An import writes a record's many updates as one, with their last values, where SQLite
would check nothing between them: the records, the change log and what was received are
exactly what writing each update as it was made gives."""

from __future__ import annotations

import shutil
import sqlite3
from typing import Any

import pytest

from inspector_app.domain.registry import SYNCED_TABLES
from inspector_app.services import exchange as sync
from inspector_app.services.workspace import Workspace
from inspector_app.storage.sync_apply import ChangeApplier, _merged_columns
from tests import pg_engine
from tests.sync.conftest import Pair


def _everything(ws: Workspace) -> dict[str, Any]:
    found = {t: ws.store.query(f"SELECT * FROM {t} ORDER BY id") for t in sorted(SYNCED_TABLES)}
    found["change_log"] = ws.store.query("SELECT * FROM change_log ORDER BY seq")
    found["sync_received"] = ws.store.query("SELECT * FROM sync_received ORDER BY change_id")
    found["sync_conflicts"] = ws.store.query(
        "SELECT table_name, record_id, field, base_value, local_value, incoming_value, "
        "change_id, resolved_at FROM sync_conflicts ORDER BY change_id")
    return found


def _one(ws: Workspace, table: str, sbl: str) -> str:
    return str(ws.store.query(f"SELECT id FROM {table} WHERE parcel_id = ? AND deleted_at IS "
                              "NULL ORDER BY created_at", (ws.parcel_id(sbl),))[0]["id"])


def test_merged_updates_leave_what_updates_one_by_one_leave(
        pair: Pair, monkeypatch: pytest.MonkeyPatch) -> None:
    field, sbls = pair.field, pair.sbls
    ids = [field.parcel_id(s) for s in sbls]
    for n in range(12):  # interleaved: each parcel's fields change again and again
        with field.store.transaction() as w:
            w.update("parcels", ids[n % 3], {"owner_name": f"Owner {n}",
                                             "owner_mailing_address": [f"{n} Main St",
                                                                       "Naples, NY 14512"]})
            if n % 4 == 0:
                w.update("parcels", ids[(n + 1) % 3], {"owner_phone": None if n % 8 else
                                                       f"585-555-01{n:02d}"})
    dwelling = _one(field, "dwellings", sbls[1])  # a table with CHECK constraints
    component = _one(field, "components", sbls[1])
    for bedrooms in (4, 5, 3):
        with field.store.transaction() as w:
            w.update("dwellings", dwelling, {"bedrooms": bedrooms})
            w.update("components", component, {"condition": "failed" if bedrooms == 5
                                               else "acceptable"})
    with field.store.transaction() as w:
        w.update("parcels", ids[0], {"site_address": "1 Last Road"})
        w.delete("components", component)
    # the office meanwhile changed one of the fields: a conflict, the same either way
    with pair.office.store.transaction() as w:
        w.update("parcels", pair.office.parcel_id(sbls[2]), {"owner_name": "Office Name"})
    package = pair.tmp / "up.zip"
    sync.export(field, package)
    pair.office.close()
    shutil.copytree(pair.tmp / "office", pair.tmp / "office-one-by-one")
    pg_engine.folder_copied(pair.tmp / "office", pair.tmp / "office-one-by-one")

    pair.office = Workspace(pair.tmp / "office", user="clerk")
    written: dict[str, list[str]] = {"merged": [], "one by one": []}
    pair.office.store.conn.set_trace_callback(written["merged"].append)
    merged = sync.import_package(pair.office, package)
    pair.office.store.conn.set_trace_callback(None)
    monkeypatch.setattr(ChangeApplier, "merge_updates", False)
    with Workspace(pair.tmp / "office-one-by-one", user="clerk") as one_by_one:
        one_by_one.store.conn.set_trace_callback(written["one by one"].append)
        plain = sync.import_package(one_by_one, package)
        one_by_one.store.conn.set_trace_callback(None)
        assert _everything(one_by_one) == _everything(pair.office)
    assert merged == plain
    assert merged["applied"] >= 25 and merged["conflicts"] >= 1
    updates = {way: sum(s.startswith("UPDATE parcels") for s in sql)
               for way, sql in written.items()}
    assert 0 < updates["merged"] < updates["one by one"]
    assert pair.office.load_case(sbls[0]).parcel.site_address == "1 Last Road"


def test_only_columns_no_check_sees_between_updates_are_merged(pair: Pair) -> None:
    conn = pair.office.store.conn
    parcels = _merged_columns(conn, "parcels")
    assert {"owner_name", "owner_mailing_address", "updated_at", "version"} <= parcels
    # in a unique index, or in the condition of one (a parcel's deletion)
    assert {"sbl", "deleted_at", "id"}.isdisjoint(parcels)
    assert "parcel_id" not in _merged_columns(conn, "components")  # a foreign key
    assert _merged_columns(conn, "dwellings") == frozenset()  # CHECK constraints
    assert _merged_columns(conn, "letters") == frozenset()  # triggers of their own


_SCHEMA = """
CREATE TABLE systems (id TEXT PRIMARY KEY, parcel_id TEXT, created_at TEXT,
    updated_at TEXT, device_id TEXT, version INTEGER NOT NULL, deleted_at TEXT,
    description TEXT, installed_year INTEGER);
CREATE UNIQUE INDEX systems_parcel ON systems(parcel_id) WHERE deleted_at IS NULL;
CREATE TABLE change_log (seq INTEGER PRIMARY KEY, change_id, at, user, device_id,
    table_name, record_id, parcel_id, op, field, old_value, new_value, record_version,
    device_seq);
CREATE TABLE sync_received (change_id TEXT PRIMARY KEY, device_id, device_seq, package_id,
    outcome);
CREATE TABLE sync_conflicts (id, parcel_id, table_name, record_id, field, base_value,
    local_value, incoming_value, change_id, device_id, incoming_user, incoming_at,
    received_at, resolved_at, resolved_by, resolution, resolved_value);
INSERT INTO systems VALUES ('s-000001', 'p-000001', 't0', 't0', 'd0', 1, NULL, 'old', 1990);
"""


def _change(n: int, op: str, field: str | None, old: Any, new: Any) -> dict[str, Any]:
    return {"change_id": f"c-{n:06d}", "at": f"2026-11-25T10:00:0{n}+00:00", "user": "k",
            "device_id": "d-000001", "device_seq": n, "table": "systems",
            "record_id": "s-000001", "parcel_id": "p-000001", "op": op, "field": field,
            "old": old, "new": new, "record_version": n + 1, "source_seq": n}


@pytest.mark.parametrize("merge", [True, False])
def test_a_record_s_merged_updates_are_written_before_one_that_is_not(
        merge: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """Updates that may be merged, then one that may not (a deletion, which a partial
    unique index reads): written in that order, the record ends as the last change left it."""
    monkeypatch.setattr(ChangeApplier, "merge_updates", merge)
    conn = sqlite3.connect(":memory:", isolation_level=None)
    conn.executescript(_SCHEMA)
    changes = [_change(1, "update", "description", "old", "new"),
               _change(2, "update", "installed_year", 1990, 2001),
               _change(3, "delete", None, None, None)]
    applier = ChangeApplier(conn, package_id="pkg", received_at="now", blobs={})
    applier.prepare(changes)
    for c in changes:
        applier.apply(c)
    applier.finish()
    assert applier.counts.applied == 3
    assert conn.execute("SELECT description, installed_year, version, deleted_at, updated_at "
                        "FROM systems").fetchall() == [
        ("new", 2001, 4, "2026-11-25T10:00:03+00:00", "2026-11-25T10:00:03+00:00")]
