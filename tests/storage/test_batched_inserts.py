"""Records written together are the records (and change log) written one by one."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from inspector_app.services.demo import parcels as demo_module
from inspector_app.services.demo.parcels import (
    _lake_outline,
    demo_cases,
    demo_history,
    install_demo,
)
from inspector_app.services.reference.lot_lines import store_demo_lots
from inspector_app.services.reference.shorelines import record_map_measurement
from inspector_app.services.workspace import Workspace
from inspector_app.storage.cases import parcel_id_for, save_case
from tests.domain.builders import as_recorded

TODAY = date(2026, 11, 25)
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")
STAMP = re.compile(r"\d{4}-\d\d-\d\dT[0-9:.]+Z?")
# a lot layer's digest covers its lots' parcel ids, which differ from folder to folder
LOT_DIGEST = re.compile(r'"digest":"[0-9a-f]{64}"')


def _one_by_one(ws: Workspace, count: int) -> None:
    """The demo as it was first written: each parcel saved, flagged and measured alone,
    after its earlier inspections (for a parcel not stored yet), each saved alone too."""
    with ws.store.transaction() as w:
        saved = []
        for n, case in enumerate(list(demo_cases(count, today=TODAY))):
            new = parcel_id_for(w.conn, case.parcel.sbl) is None
            for earlier in demo_history(case, n, TODAY) if new else ():
                save_case(w, earlier, today=TODAY, created_with={"is_demo": 1})
            parcel_id, _ = save_case(w, case, today=TODAY, created_with={"is_demo": 1})
            record_map_measurement(w, ws, parcel_id, case, TODAY)
            saved.append((parcel_id, case))
        store_demo_lots(w, _lake_outline(), saved)


def _content(ws: Workspace) -> dict[str, Any]:
    conn = ws.store.conn
    sbl = dict(conn.execute("SELECT id, sbl FROM parcels"))
    # the demo's invented imagery is made once, after the parcels (tests/services/
    # test_demo_imagery.py); what is compared here are the parcels' records
    tables = [r[0] for r in conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%' "
        "AND name != 'basemaps'")]
    log: dict[str, list[tuple[Any, ...]]] = {}
    for row in conn.execute("SELECT parcel_id, table_name, op, field, old_value, new_value,"
                            " record_version, user FROM change_log WHERE table_name != "
                            "'basemaps' ORDER BY seq"):
        parcel, *rest = row
        log.setdefault(sbl.get(parcel, ""), []).append(
            tuple(LOT_DIGEST.sub("DIGEST", STAMP.sub("T", UUID.sub("ID", v)))
                  if isinstance(v, str) else v
                  for v in rest))
    return {
        "counts": {t: conn.execute(f"SELECT count(*) FROM {t}" + (
            " WHERE table_name != 'basemaps'" if t == "change_log" else "")).fetchone()[0]
            for t in tables},
        "cases": {s: as_recorded(ws.load_case(s)) for s in sorted(sbl.values())},
        "log": log,
        "versions": sorted(conn.execute("SELECT sbl, version FROM parcels")),
    }


@pytest.mark.parametrize("count", [1, 60])
def test_the_demo_writes_what_saving_each_parcel_alone_writes(tmp_path: Path,
                                                              count: int) -> None:
    with Workspace(tmp_path / "alone", user="clerk") as ws:
        _one_by_one(ws, count)
        expected = _content(ws)
        # each parcel's lot and its neighbours' (where another site's lot leaves room)
        lots = ws.store.query("SELECT count(*) AS n FROM lot_lines")[0]["n"]
        assert count <= lots <= 3 * count
    with Workspace(tmp_path / "together", user="clerk") as ws:
        assert install_demo(ws, count=count, today=TODAY) == {"parcels": count,
                                                             "created": count,
                                                             "lots": lots}
        assert _content(ws) == expected
        # run again: nothing changes, nothing is logged
        logged = ws.store.query("SELECT count(*) AS n FROM change_log")[0]["n"]
        assert install_demo(ws, count=count, today=TODAY)["created"] == 0
        assert ws.store.query("SELECT count(*) AS n FROM change_log")[0]["n"] == logged
        assert _content(ws) == expected


def test_more_demo_parcels_later_are_saved_as_edits_are(tmp_path: Path) -> None:
    """Parcels already there are reconciled (read back, edited, logged field by field)."""
    with Workspace(tmp_path / "alone", user="clerk") as ws:
        _one_by_one(ws, 12)
        _one_by_one(ws, 30)
        expected = _content(ws)
    with Workspace(tmp_path / "together", user="clerk") as ws:
        install_demo(ws, count=12, today=TODAY)
        assert install_demo(ws, count=30, today=TODAY)["created"] == 18
        assert _content(ws) == expected


def test_a_failure_inside_a_batch_keeps_nothing(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    calls = {"n": 0}
    real = demo_module.record_map_measurement

    def failing(*args: Any, **kwargs: Any) -> bool:
        calls["n"] += 1
        if calls["n"] == 5:
            raise RuntimeError("disk went away")
        return real(*args, **kwargs)

    monkeypatch.setattr(demo_module, "record_map_measurement", failing)
    with Workspace(tmp_path / "d", user="clerk") as ws:
        with pytest.raises(RuntimeError):
            install_demo(ws, count=10, today=TODAY)
        assert ws.store.query("SELECT count(*) AS n FROM parcels")[0]["n"] == 0
        assert ws.store.query("SELECT count(*) AS n FROM change_log WHERE table_name != "
                              "'shoreline_layers'")[0]["n"] == 0


def test_records_held_back_are_written_before_they_are_read_through_the_writer(
        tmp_path: Path) -> None:
    with Workspace(tmp_path / "d", user="clerk") as ws, ws.store.transaction() as w:
        with w.batched_inserts():
            rid = w.insert("parcels", {"sbl": "900.01-1-1", "municipality": "Town of Gorham",
                                       "site_address": "1 Main Street", "owner_name": "A",
                                       "owner_mailing_address": ["x"]}, parcel_id=None)
            assert w.current("parcels", rid)["sbl"] == "900.01-1-1"
            assert w.update("parcels", rid, {"owner_name": "B"})
        assert w.current("parcels", rid)["version"] == 2
