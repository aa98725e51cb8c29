"""The whole-case rules of many parcels read together say what each parcel read alone says."""

from __future__ import annotations

from datetime import date

from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.exchange.resolution import case_problem, case_problems
from inspector_app.services.workspace import Workspace

TODAY = date(2026, 11, 25)


def test_cases_checked_together_equal_cases_checked_one_by_one(workspace: Workspace) -> None:
    install_demo(workspace, count=30, today=TODAY)
    conn = workspace.store.conn
    ids = [r[0] for r in conn.execute("SELECT id FROM parcels ORDER BY sbl")]
    with workspace.store.writing():  # records no case file would hold
        conn.execute("UPDATE dwellings SET bedrooms = 5000 WHERE parcel_id = ?", (ids[3],))
        conn.execute("UPDATE inspections SET date = '2031-01-01' WHERE parcel_id = ?",
                     (ids[7],))
        conn.execute("UPDATE components SET kind = 'no such kind' WHERE parcel_id = ?",
                     (ids[11],))
    alone = {i: case_problem(conn, i, "pkg", TODAY) for i in ids}
    assert sum(p is not None for p in alone.values()) == 3
    assert case_problems(conn, ids, "pkg", TODAY) == alone
    assert case_problems(conn, [ids[11], ids[2]], "pkg", TODAY) == {
        ids[11]: alone[ids[11]], ids[2]: None}
