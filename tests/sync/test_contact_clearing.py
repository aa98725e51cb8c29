"""Clearing a parcel's contact data on a laptop clears it from the laptop's copy of the
history too (change log, sync conflicts), writes no change, and leaves the change log
closed to every other update; the assignment state lives in tables of its own."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from inspector_app.errors import InputError
from inspector_app.services import exchange as sync
from inspector_app.services.exchange import assignment
from inspector_app.services.workspace import Workspace
from inspector_app.storage import contacts
from inspector_app.storage.contacts import CLEARED
from inspector_app.storage.database import open_database
from tests.sync import test_assignment
from tests.sync.test_assignment import (
    EMAIL,
    PHONE,
    RENTER,
    Office,
    assign,
    edit,
)

CONTACT = {"parcels": {"owner_phone", "owner_email"},
           "renters": {"phone", "email", "mailing_address"}}
two = test_assignment.two  # the fixture: an office, laptops A and B, A joined
FIXTURES = Path(__file__).parent.parent / "fixtures"
SECRETS = (PHONE, EMAIL, RENTER["phone"], RENTER["email"], RENTER["mailing_address"][0],
           "315-555-0100", "315-555-0111")


def _log(ws: Workspace, parcel_id: str) -> list[dict[str, Any]]:
    return ws.store.query("SELECT * FROM change_log WHERE parcel_id = ? ORDER BY seq",
                          (parcel_id,))


def _text(rows: list[dict[str, Any]]) -> str:
    return json.dumps(rows, default=str)


def _conflict_then_removal(two: Office) -> str:
    """p2: a conflict on its owner's phone, settled on the laptop, then taken away and,
    with the office holding every change, cleared. Returns p2's tax map number."""
    p2 = two.sbls[1]
    edit(two.office, p2, lambda d: d["parcel"].__setitem__("owner_phone", "315-555-0100"))
    edit(two.a, p2, lambda d: d["parcel"].__setitem__("owner_phone", "315-555-0111"))
    assert two.down()["conflicts"] == 1
    (conflict,) = sync.conflicts(two.a)
    sync.resolve(two.a, conflict["id"], choice="keep_local")
    two.up()
    assign(two.office, "A", [p2], remove=True)
    assert two.down("down2.zip")["contact_data_cleared"] == [p2]
    return p2


def test_the_laptops_history_of_a_cleared_parcel_holds_no_contact_data(
        two: Office, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.test_cli import cli

    p2 = two.sbls[1]
    pid = two.a.parcel_id(p2)
    before = _log(two.a, pid)
    assert PHONE in _text(before) and RENTER["email"] in _text(before)  # from the kit
    office_log = _log(two.office, pid)
    _conflict_then_removal(two)

    after = _log(two.a, pid)
    conflicts = two.a.store.query("SELECT * FROM sync_conflicts WHERE parcel_id = ?", (pid,))
    assert conflicts
    for secret in SECRETS:
        assert secret not in _text(after), secret
        assert secret not in _text(conflicts), secret
    # the same rows, in the same order, each as it was but for its contact values
    old = {r["change_id"]: r for r in _log(two.a, pid) if r["seq"] <= before[-1]["seq"]}
    for row in before:
        kept = old[row["change_id"]]
        assert {k: v for k, v in kept.items() if k not in ("old_value", "new_value")} == {
            k: v for k, v in row.items() if k not in ("old_value", "new_value")}
        if row["op"] == "insert":
            was, now = json.loads(row["new_value"]), json.loads(kept["new_value"])
            contact = CONTACT.get(row["table_name"], set())
            assert now == {**was, **dict.fromkeys(contact & set(was))}
        elif row["field"] not in ("owner_phone", "owner_email", "phone", "email",
                                  "mailing_address"):
            assert (kept["old_value"], kept["new_value"]) == (row["old_value"],
                                                              row["new_value"])
    # the office keeps every value
    assert _log(two.office, pid)[:len(office_log)] == office_log
    assert PHONE in _text(office_log)

    # the history says what happened to the value, in the app's view and `history`
    rows = two.a.history(p2)
    inserted = next(r for r in rows if r["op"] == "insert" and r["table_name"] == "parcels")
    assert inserted["new_value"]["owner_phone"] == CLEARED
    assert inserted["new_value"]["owner_name"] == two.a.load_case(p2).parcel.owner_name
    phone = [r for r in rows if r["field"] == "owner_phone"]
    assert phone and all(r["new_value"] == CLEARED for r in phone)
    from inspector_app.domain.labels import history_lines

    shown = " ".join(line.change for line in history_lines(rows))
    assert CLEARED in shown and not any(s in shown for s in SECRETS)
    root = str(two.a.folder.root)
    two.a.close()
    status, out, err = cli(capsys, "--data-dir", root, "history", p2)
    assert status == 0, err
    assert CLEARED in json.dumps(out)
    assert not any(s in json.dumps(out) for s in SECRETS)
    two.a = Workspace(two.a.folder.root, user="k.olmsted")


def test_the_clearing_never_travels(two: Office) -> None:
    p2 = _conflict_then_removal(two)
    log = two.a.store.query("SELECT count(*) AS n FROM change_log")[0]["n"]
    assert sync.export(two.a, two.tmp / "after.zip")["changes"] == 0
    result = sync.import_package(two.office, two.tmp / "after.zip")
    assert result["applied"] == 0
    assert two.office.load_case(p2).parcel.owner_phone == "315-555-0111"
    assert not two.office.store.query("SELECT * FROM contact_clearings")
    assert two.a.store.query("SELECT count(*) AS n FROM change_log")[0]["n"] == log
    assert two.a.store.get_meta(contacts.CLEARING_GUARD) is None


def test_the_office_never_clears(two: Office) -> None:
    with two.office.store.transaction() as w, pytest.raises(InputError, match="only on a lap"):
        assignment.purge(two.office, w.conn, two.office.store.device_id, "clerk")
    conn = two.office.store.conn
    conn.execute("INSERT INTO meta (key, value) VALUES ('change_log_clearing', 'x')")
    try:
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            conn.execute("UPDATE change_log SET old_value = NULL WHERE table_name = 'parcels' "
                         "AND field = 'owner_phone'")
    finally:
        conn.execute("DELETE FROM meta WHERE key = 'change_log_clearing'")


def test_the_change_log_stays_closed_to_anything_but_the_clearing(two: Office) -> None:
    conn = two.a.store.conn
    pid = two.a.parcel_id(two.sbls[0])
    insert = conn.execute("SELECT seq, new_value FROM change_log WHERE parcel_id = ? AND "
                          "table_name = 'parcels' AND op = 'insert'", (pid,)).fetchone()
    edit(two.a, two.sbls[0], lambda d: d["parcel"].update(owner_phone="315-555-0122",
                                                         owner_name="Anne Other"))
    phone = conn.execute("SELECT seq FROM change_log WHERE parcel_id = ? AND field = "
                         "'owner_phone'", (pid,)).fetchone()[0]
    value = json.loads(insert[1])
    # without the guard, not even a clearing
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        conn.execute("UPDATE change_log SET new_value = NULL WHERE seq = ?", (phone,))
    conn.execute("INSERT INTO meta (key, value) VALUES ('change_log_clearing', 'x')")
    refused = [
        ("UPDATE change_log SET user = 'someone else' WHERE seq = ?", (phone,)),
        ("UPDATE change_log SET new_value = '\"555\"' WHERE seq = ?", (phone,)),
        ("UPDATE change_log SET at = '2020-01-01' WHERE seq = ?", (phone,)),
        ("UPDATE change_log SET new_value = NULL WHERE parcel_id = ? AND field = "
         "'owner_name'", (pid,)),
        ("UPDATE change_log SET new_value = ? WHERE seq = ?",
         (json.dumps({**value, "owner_name": None}, separators=(",", ":")), insert[0])),
        # the phone's value and the keys after it, cut out together
        ("UPDATE change_log SET new_value = ? WHERE seq = ?",
         (insert[1][:insert[1].index('"owner_phone":') + 14] + "null}", insert[0])),
        ("UPDATE change_log SET new_value = NULL WHERE seq = ?", (insert[0],)),
        ("DELETE FROM change_log WHERE seq = ?", (phone,)),
    ]
    try:
        for statement, args in refused:
            with pytest.raises(sqlite3.IntegrityError, match="append-only"):
                conn.execute(statement, args)
                pytest.fail(f"allowed: {statement}")
    finally:
        conn.execute("DELETE FROM meta WHERE key = 'change_log_clearing'")
    assert json.loads(conn.execute("SELECT new_value FROM change_log WHERE seq = ?",
                                   (insert[0],)).fetchone()[0]) == value


def test_assignment_state_is_kept_in_tables_and_moves_out_of_meta(tmp_path: Path) -> None:
    path = tmp_path / "inspector.sqlite"
    conn = sqlite3.connect(path)
    conn.executescript((FIXTURES / "schema_v8.sql").read_text("utf-8"))
    office = {"revision": 2, "released": ["p-2"], "pending": {}, "laptop_revision": 1,
              "events": [{"revision": 1, "at": "2026-11-01T10:00:00.000+00:00",
                          "user": "clerk", "added": ["98.00-1-23.100"], "removed": []},
                         {"revision": 2, "at": "2026-11-02T10:00:00.000+00:00",
                          "user": "clerk", "added": [], "removed": ["98.00-1-23.100"]}]}
    laptop = {"revision": 2, "seq_through": 9, "parcels": ["p-1"]}
    purged = {"p-2": {"sbl": "98.00-1-23.100", "at": "2026-11-03T10:00:00.000+00:00",
                      "by": "k.olmsted"}}
    conn.executemany("INSERT INTO meta (key, value) VALUES (?, ?)", [
        ("sync_assignment:dev-2", json.dumps(office)),
        ("sync_assignment", json.dumps(laptop)), ("sync_purged", json.dumps(purged))])
    conn.commit()
    conn.close()
    db = open_database(path, backups=tmp_path / "backups")
    q = lambda sql: [tuple(r) for r in db.conn.execute(sql)]  # noqa: E731
    assert q("SELECT key FROM meta WHERE key LIKE 'sync_assignment%' OR key = "
             "'sync_purged'") == []
    assert q("SELECT device_id, revision, user, device_name, added, removed FROM "
             "device_assignments WHERE parcels IS NULL ORDER BY revision") == [
        ("dev-2", 1, "clerk", "laptop-1", '["p-2"]', "[]"),
        ("dev-2", 2, "clerk", "laptop-1", "[]", '["p-2"]')]
    assert q("SELECT assignment_held FROM devices WHERE id = 'dev-2'") == [(1,)]
    assert q("SELECT device_id, revision, parcels, office_seq FROM device_assignments "
             "WHERE parcels IS NOT NULL") == [("dev-1", 2, '["p-1"]', 9)]
    assert q("SELECT parcel_id, sbl, cleared_at, cleared_by, restored_at FROM "
             "contact_clearings") == [("p-2", "98.00-1-23.100",
                                       "2026-11-03T10:00:00.000+00:00", "k.olmsted", None)]
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        db.conn.execute("UPDATE device_assignments SET user = 'x'")
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        db.conn.execute("DELETE FROM device_assignments")
    db.conn.close()


def test_the_office_state_derived_from_the_table_is_the_one_recorded(two: Office) -> None:
    p2, p4 = two.sbls[1], two.sbls[3]
    a = two.a.store.device_id
    ids = {s: two.office.parcel_id(s) for s in (p2, p4)}
    assign(two.office, "A", [p4])
    assign(two.office, "A", [p2], remove=True)
    state = assignment.office_state(two.office, a)
    assert (state["revision"], state["released"], state["pending"]) == (
        2, [ids[p2]], {ids[p4]: 1})
    assert [e["user"] for e in state["events"]] == ["clerk", "clerk"]
    two.down()
    two.up()  # the laptop says it holds revision 2
    state = assignment.office_state(two.office, a)
    assert (state["laptop_revision"], state["pending"]) == (2, {})
    held = two.a.store.query("SELECT revision, added, removed, user FROM device_assignments")
    assert held == [{"revision": 2, "added": json.dumps([ids[p4]]),
                     "removed": json.dumps([ids[p2]]), "user": "k.olmsted"}]
