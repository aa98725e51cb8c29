"""The parcel list's `requests` flag and the `requests` work list read the same requests
and the same rule as `requests list`; the kept-summary rows equal the one-by-one
reference."""

from __future__ import annotations

from datetime import timedelta

from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.lists.overview import overview, overview_one_by_one
from inspector_app.services.lists.worklists import worklists, worklists_one_by_one
from inspector_app.services.parcel.requests import add_request, cancel_request, list_requests
from inspector_app.services.workspace import Workspace


def test_the_flag_the_due_date_and_the_work_list_agree(workspace: Workspace) -> None:
    ws = workspace
    today = ws.today()
    install_demo(ws, count=8, today=today)
    sbls = [p["sbl"] for p in ws.parcels()]
    add_request(ws, sbls[0], reason="conveyance", due=today + timedelta(days=20))
    add_request(ws, sbls[0], reason="complaint", due=today + timedelta(days=6))
    gone = add_request(ws, sbls[1], reason="complaint", due=today + timedelta(days=2))
    cancel_request(ws, gone["id"], reason="complaint withdrawn")
    add_request(ws, sbls[2], reason="change_of_use", due=today)
    rows = {r["sbl"]: r for r in overview(ws, as_of=today)}
    assert rows == {r["sbl"]: r for r in overview_one_by_one(ws, as_of=today)}
    assert {s for s, r in rows.items() if r["flags"]["requests"]} == {sbls[0], sbls[2]}
    assert rows[sbls[0]]["request_due"] == (today + timedelta(days=6)).isoformat()
    assert rows[sbls[1]]["request_due"] is None
    listed = worklists(ws, as_of=today, names=("requests",))["requests"]
    assert listed == worklists_one_by_one(ws, as_of=today, names=("requests",))["requests"]
    assert [(i["sbl"], i["days_left"]) for i in listed] == [(sbls[2], 0), (sbls[0], 6),
                                                            (sbls[0], 20)]
    assert listed[0]["detail"].startswith("change of use inspection due today")
    assert [i["id"] for i in listed] == [r["id"] for r in list_requests(ws)]
