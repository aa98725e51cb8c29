"""Inspection requests travel with their parcels: a field kit and the office's later packages
carry the requests of the laptop's parcels and no others; a laptop reads them, its work
list shows them, an inspection recorded on it answers one, and it never takes one."""

from __future__ import annotations

import json
from datetime import date, timedelta
from typing import Any

import pytest

from inspector_app.casefile import parse_document, to_document
from inspector_app.errors import InputError
from inspector_app.services import exchange as sync
from inspector_app.services.lists.worklists import worklists
from inspector_app.services.parcel.requests import add_request, cancel_request, list_requests
from inspector_app.services.workspace import Workspace
from tests.sync.conftest import KIT_PASSPHRASE, Pair, state

OFFICE_ONLY = "changes inspection_requests, which only the office changes"


def _due(ws: Workspace, days: int) -> date:
    return ws.today() + timedelta(days=days)


def _inspect(ws: Workspace, sbl: str, day: date) -> None:
    doc = to_document(ws.load_case(sbl))
    doc["inspection"] = {"date": day.isoformat(), "inspector": "K. Olmsted",
                         "reason": "conveyance", "failure_evidence": []}
    today = ws.today()
    ws.save_case(parse_document(json.loads(json.dumps(doc)), source="edit", today=today),
                 today=today)


def _sbls(listed: list[dict[str, Any]]) -> list[str]:
    return [r["sbl"] for r in listed]


def test_a_kit_carries_its_parcels_requests_and_no_others(pair: Pair) -> None:
    office = pair.office
    others = [p["sbl"] for p in office.parcels() if p["sbl"] not in pair.sbls]
    mine = add_request(office, others[0], reason="conveyance", due=_due(office, 30),
                       requested_by="Harris Law Office")
    add_request(office, others[1], reason="complaint", due=_due(office, 5))
    sync.enroll(office, "laptop-2", pair.tmp / "kit-2.zip", [others[0]],
                passphrase=KIT_PASSPHRASE)
    sync.join(pair.tmp / "field-2", pair.tmp / "kit-2.zip", user="a.reyes",
              passphrase=KIT_PASSPHRASE)
    with Workspace(pair.tmp / "field-2", user="a.reyes") as laptop:
        listed = list_requests(laptop, which="all")
        assert [(r["id"], r["sbl"], r["status"]) for r in listed] == [
            (mine["id"], others[0], "open")]
        assert listed[0]["requested_by"] == "Harris Law Office"
        (item,) = worklists(laptop, as_of=laptop.today(), names=("requests",))["requests"]
        assert item["sbl"] == others[0] and item["days_left"] == 30


def test_later_packages_bring_new_requests_and_cancellations_of_its_parcels_only(
        pair: Pair) -> None:
    office = pair.office
    other = next(p["sbl"] for p in office.parcels() if p["sbl"] not in pair.sbls)
    first = add_request(office, pair.sbls[0], reason="conveyance", due=_due(office, 20))
    second = add_request(office, pair.sbls[1], reason="complaint", due=_due(office, 3))
    add_request(office, other, reason="complaint", due=_due(office, 1))
    pair.down()
    listed = list_requests(pair.field)
    assert [r["id"] for r in listed] == [second["id"], first["id"]]  # by due date
    assert set(_sbls(listed)) <= set(pair.sbls)
    cancel_request(office, first["id"], reason="closing fell through")
    pair.down("down-2.zip")
    (cancelled,) = [r for r in list_requests(pair.field, which="all")
                    if r["id"] == first["id"]]
    assert cancelled["status"] == "cancelled"
    assert cancelled["cancelled"]["reason"] == "closing fell through"
    assert _sbls(worklists(pair.field, as_of=pair.field.today(),
                           names=("requests",))["requests"]) == [pair.sbls[1]]


def test_an_inspection_recorded_on_the_laptop_answers_the_request_at_both_ends(
        pair: Pair) -> None:
    office, field = pair.office, pair.field
    asked = add_request(office, pair.sbls[2], reason="conveyance", due=_due(office, 14))
    pair.down()
    _inspect(field, pair.sbls[2], field.today())
    (answered,) = list_requests(field, which="all", sbl=pair.sbls[2])
    assert answered["status"] == "answered"
    assert list_requests(field, sbl=pair.sbls[2]) == []
    pair.up()
    (at_office,) = list_requests(office, which="all", sbl=pair.sbls[2])
    assert at_office["id"] == asked["id"] and at_office["status"] == "answered"
    assert at_office["answered_by"] == answered["answered_by"]
    assert at_office["answered_by"]["date"] == field.today().isoformat()


def test_a_laptop_takes_no_request_and_cancels_none(pair: Pair) -> None:
    asked = add_request(pair.office, pair.sbls[0], reason="complaint", due=_due(pair.office, 7))
    pair.down()
    before = state(pair.field)
    with pytest.raises(InputError, match=OFFICE_ONLY):
        add_request(pair.field, pair.sbls[0], reason="conveyance", due=_due(pair.field, 9))
    with pytest.raises(InputError, match=OFFICE_ONLY):
        cancel_request(pair.field, asked["id"], reason="withdrawn")
    assert state(pair.field) == before
    assert [r["status"] for r in list_requests(pair.field, which="all")] == ["open"]
