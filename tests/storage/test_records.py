from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from inspector_app.services.workspace import Workspace
from tests.conftest import Clock

PARCEL = {"sbl": "112.09-1-7.2", "municipality": "Town of Canandaigua",
          "site_address": "5150 County Road 16", "owner_name": "Jane Roe",
          "owner_mailing_address": ["17 Birch Hollow Lane", "Pittsford, NY 14534"]}


def _log(ws: Workspace) -> list[dict]:
    return ws.store.query("SELECT * FROM change_log WHERE table_name != 'shoreline_layers' "
                          "ORDER BY seq")


def test_insert_update_delete_are_attributed_and_logged(workspace: Workspace,
                                                        clock: Clock) -> None:
    with workspace.store.transaction() as w:
        pid = w.insert("parcels", PARCEL, parcel_id=None)
    clock.advance(minutes=5)
    with workspace.store.transaction() as w:
        assert w.update("parcels", pid, {"owner_name": "John Doe", "site_address":
                                         "5150 County Road 16"})
    clock.advance(minutes=5)
    with workspace.store.transaction() as w:
        w.delete("parcels", pid)

    row = workspace.store.query("SELECT * FROM parcels WHERE id = ?", (pid,))[0]
    assert row["version"] == 3
    assert row["created_at"] == "2026-11-25T15:30:00.000+00:00"
    assert row["updated_at"] == "2026-11-25T15:40:00.000+00:00"
    assert row["deleted_at"] == "2026-11-25T15:40:00.000+00:00"
    assert row["device_id"] == workspace.store.device_id
    assert row["owner_name"] == "John Doe"  # a deleted row keeps its last values

    log = _log(workspace)
    assert [(e["op"], e["field"], e["record_version"]) for e in log] == [
        ("insert", None, 1), ("update", "owner_name", 2), ("delete", None, 3)]
    assert all(e["user"] == "k.olmsted" and e["device_id"] == workspace.store.device_id
               for e in log)
    assert '"owner_name":"Jane Roe"' in log[0]["new_value"]
    assert (log[1]["old_value"], log[1]["new_value"]) == ('"Jane Roe"', '"John Doe"')
    assert log[1]["at"] == "2026-11-25T15:35:00.000+00:00"
    assert len({e["change_id"] for e in log}) == 3


def test_an_update_that_changes_nothing_writes_nothing(workspace: Workspace) -> None:
    with workspace.store.transaction() as w:
        pid = w.insert("parcels", PARCEL, parcel_id=None)
    with workspace.store.transaction() as w:
        assert not w.update("parcels", pid, dict(PARCEL))
    assert len(_log(workspace)) == 1
    assert workspace.store.query("SELECT version FROM parcels")[0]["version"] == 1


def test_a_failed_transaction_leaves_neither_record_nor_log(workspace: Workspace) -> None:
    with pytest.raises(RuntimeError), workspace.store.transaction() as w:
        w.insert("parcels", PARCEL, parcel_id=None)
        raise RuntimeError("power cut")
    assert workspace.store.query("SELECT count(*) AS n FROM parcels")[0]["n"] == 0
    assert _log(workspace) == []


def test_a_constraint_failure_rolls_back_the_whole_unit(workspace: Workspace) -> None:
    with pytest.raises(sqlite3.IntegrityError), workspace.store.transaction() as w:
        w.insert("parcels", PARCEL, parcel_id=None)
        w.insert("dwellings", {"bedrooms": 3, "living_area_sqft": 1000},
                 parcel_id="no-such-parcel")
    assert workspace.store.query("SELECT count(*) AS n FROM parcels")[0]["n"] == 0


def test_deleted_records_cannot_be_edited(workspace: Workspace) -> None:
    with workspace.store.transaction() as w:
        pid = w.insert("parcels", PARCEL, parcel_id=None)
        w.delete("parcels", pid)
    with pytest.raises(ValueError, match="was deleted"), workspace.store.transaction() as w:
        w.update("parcels", pid, {"owner_name": "x"})


def test_unknown_and_bookkeeping_columns_are_refused(workspace: Workspace) -> None:
    with pytest.raises(KeyError), workspace.store.transaction() as w:
        w.insert("parcels", {**PARCEL, "ownr": "x"}, parcel_id=None)
    with pytest.raises(KeyError), workspace.store.transaction() as w:
        w.insert("parcels", {**PARCEL, "version": 7}, parcel_id=None)


def test_issued_letters_cannot_change(workspace: Workspace) -> None:
    with workspace.store.transaction() as w:
        pid = w.insert("parcels", PARCEL, parcel_id=None)
        lid = w.insert("letters", {"kind": "substandard_notice", "status": "issued",
                                   "letter_date": "2026-11-25", "recipient": ["Jane Roe"],
                                   "case_version": 1, "issued_by": "k.olmsted",
                                   "issued_at": "2026-11-25T15:30:00+00:00", "sha256": "0" * 64,
                                   "pdf": b"%PDF-1.4"}, parcel_id=pid)
    with pytest.raises(sqlite3.IntegrityError, match="issued letter cannot be changed"), \
            workspace.store.transaction() as w:
        w.update("letters", lid, {"pdf": b"%PDF-forged"})
    with pytest.raises(sqlite3.IntegrityError, match="cannot be deleted"):
        workspace.store.conn.execute("DELETE FROM letters")
    with workspace.store.transaction() as w:  # stamping it printed is allowed
        w.update("letters", lid, {"printed_at": "2026-11-25T16:00:00+00:00"})


def test_the_writer_refuses_a_value_its_declaration_refuses(tmp_path: Path) -> None:
    """Every record write passes the fields' declared rules, whatever door it came by
    (here, the writer itself: as `site`, `attach` or a service would write)."""
    from inspector_app.errors import InputError
    from inspector_app.services.demo.parcels import install_demo
    from inspector_app.services.workspace import Workspace

    with Workspace(tmp_path / "data") as ws:
        install_demo(ws, count=2)
        sbl = ws.parcels()[0]["sbl"]
        parcel_id = ws.parcel_id(sbl)
        version = ws.case_version(sbl)
        dwelling = ws.store.query("SELECT id FROM dwellings WHERE parcel_id = ?",
                                  (parcel_id,))[0]["id"]
        with pytest.raises(InputError, match="Owner is too long; at most 200 allowed"), \
                ws.store.transaction() as w:
            w.update("parcels", parcel_id, {"owner_name": "W" * 300})
        with pytest.raises(InputError, match="Bedrooms is 999, which is not plausible"), \
                ws.store.transaction() as w:
            w.update("dwellings", dwelling, {"bedrooms": 999})
        assert ws.case_version(sbl) == version
