"""`requests add|list|cancel` and the `requests` work list: a request taken at the office for
a parcel named in any county spelling, listed by due date, answered by the parcel's first
inspection dated on or after the day it was requested, and cancelled when withdrawn. Bad
input gets one sentence, exit status 2, and changes nothing."""

from __future__ import annotations

import json
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest

from inspector_app.cli import run

FULL_CASE = Path(__file__).parents[1] / "fixtures" / "full_case.json"
PRINT_KEY = "13.-3-1"
OTHER = "98.00-1-23.100"


def cli(capsys: pytest.CaptureFixture[str], *args: str | Path) -> tuple[int, Any, str]:
    status = run([str(a) for a in args])
    out, err = capsys.readouterr()
    return status, (json.loads(out) if out.strip() else None), err


def _today() -> date:
    return date.today()


def _days(n: int) -> str:
    return (_today() + timedelta(days=n)).isoformat()


def _import(capsys: pytest.CaptureFixture[str], data: Path, tmp: Path, sbl: str,
            inspected: str) -> None:
    doc = json.loads(FULL_CASE.read_text("utf-8"))
    doc["parcel"]["sbl"] = sbl
    doc["inspection"]["date"] = inspected
    path = tmp / f"case-{len(list(tmp.glob('case-*')))}.json"
    path.write_text(json.dumps(doc), "utf-8")
    status, _, err = cli(capsys, "--data-dir", data, "case", "import", path)
    assert status == 0, err


@pytest.fixture
def data(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """Two parcels, each inspected before today: one on the roll by its print key
    `13.-3-1`."""
    folder = tmp_path / "data"
    _import(capsys, folder, tmp_path, PRINT_KEY, _days(-10))
    _import(capsys, folder, tmp_path, OTHER, _days(-20))
    return folder


def _add(capsys: pytest.CaptureFixture[str], data: Path, sbl: str, *args: str
         ) -> dict[str, Any]:
    status, out, err = cli(capsys, "--data-dir", data, "requests", "add", sbl, *args)
    assert status == 0, err
    assert isinstance(out, dict)
    return out


def _recorded(capsys: pytest.CaptureFixture[str], data: Path) -> list[Any]:
    """What a refused command must leave as it was: every request, and each parcel's
    history."""
    out = []
    for args in (("requests", "list", "--all"), ("history", PRINT_KEY), ("history", OTHER)):
        status, listed, err = cli(capsys, "--data-dir", data, *args)
        assert status == 0, err
        out.append(listed)
    return out


def test_a_request_is_taken_for_a_parcel_named_by_its_print_key(
        capsys: pytest.CaptureFixture[str], data: Path) -> None:
    taken = _add(capsys, data, PRINT_KEY, "--reason", "conveyance", "--due", _days(40),
                 "--requested-by", "Harris & Vogt, attorneys for the buyer")
    assert set(taken) == {"id", "sbl", "reason", "due", "requested_by", "requested_on",
                          "status"}
    assert taken["sbl"] == PRINT_KEY and taken["reason"] == "conveyance"
    assert taken["due"] == _days(40) and taken["requested_on"] == _today().isoformat()
    assert taken["requested_by"] == "Harris & Vogt, attorneys for the buyer"
    assert taken["status"] == "open"
    # another spelling of the same parcel finds it
    status, listed, _ = cli(capsys, "--data-dir", data, "requests", "list", "--sbl",
                            "013.000-0003-001.000")
    assert status == 0 and [r["id"] for r in listed] == [taken["id"]]
    (entry,) = [e for e in _recorded(capsys, data)[1] if e["table_name"] ==
                "inspection_requests"]
    assert entry["op"] == "insert" and entry["user"]


@pytest.mark.parametrize(("args", "words"), [
    (("1.-1-1", "--reason", "complaint", "--due", "+5"),
     r"No parcel with SBL '1.-1-1' .*; the closest: "),
    ((PRINT_KEY, "--reason", "sale", "--due", "+5"), r"invalid choice: 'sale'"),
    ((PRINT_KEY, "--reason", "complaint", "--due", "2026-02-30"),
     r"'2026-02-30' is not a date; write YYYY-MM-DD"),
    ((PRINT_KEY, "--reason", "complaint", "--due", "-1"),
     r"The due date .* is before the day the request is made"),
    ((PRINT_KEY, "--reason", "complaint", "--due", "+800"),
     r"more than two years after the day the request is made"),
    ((PRINT_KEY, "--reason", "complaint", "--due", "+5", "--requested-by", "   "),
     r"Requested by is blank"),
    ((PRINT_KEY, "--reason", "complaint", "--due", "+5", "--requested-by", "x" * 201),
     r"Requested by .*200"),
], ids=["unknown-parcel", "bad-reason", "not-a-date", "due-before-today", "due-absurd",
        "blank-requester", "requester-too-long"])
def test_a_bad_request_is_refused_in_one_sentence_and_changes_nothing(
        capsys: pytest.CaptureFixture[str], data: Path, args: tuple[str, ...],
        words: str) -> None:
    import re

    _add(capsys, data, OTHER, "--reason", "complaint", "--due", _days(3))
    before = _recorded(capsys, data)
    given = [_days(int(a)) if a[:1] in "+-" and a[1:].isdigit() else a for a in args]
    status, out, err = cli(capsys, "--data-dir", data, "requests", "add", *given)
    assert status == 2 and out is None
    said = err.strip().splitlines()[-1]
    assert re.search(words, said), said
    assert said.endswith(".") and said.count(". ") == 0
    assert _recorded(capsys, data) == before


def test_the_work_list_shows_open_requests_earliest_due_first(
        capsys: pytest.CaptureFixture[str], data: Path) -> None:
    late = _add(capsys, data, PRINT_KEY, "--reason", "conveyance", "--due", _days(30),
                "--requested-by", "A. Buyer")
    soon = _add(capsys, data, OTHER, "--reason", "complaint", "--due", _days(2))
    middle = _add(capsys, data, PRINT_KEY, "--reason", "complaint", "--due", _days(9))
    status, listed, err = cli(capsys, "--data-dir", data, "worklist", "requests")
    assert status == 0, err
    assert [i["id"] for i in listed] == [soon["id"], middle["id"], late["id"]]
    assert [i["days_left"] for i in listed] == [2, 9, 30]
    first = listed[0]
    assert first["sbl"] == OTHER and first["site_address"] == "6120 West Lake Road"
    assert first["owner_name"] == "Robert Whitaker" and first["reason"] == "complaint"
    assert listed[2]["requested_by"] == "A. Buyer"
    # past due: negative days left
    status, later, _ = cli(capsys, "--data-dir", data, "worklist", "requests", "--as-of",
                           _days(12))
    assert [i["days_left"] for i in later] == [-10, -3, 18]
    assert "10 days past due" in later[0]["detail"]
    # the whole set of lists holds it too
    status, every, _ = cli(capsys, "--data-dir", data, "worklist")
    assert [i["id"] for i in every["requests"]] == [soon["id"], middle["id"], late["id"]]


def test_an_inspection_on_or_after_the_request_answers_it_and_an_earlier_one_does_not(
        capsys: pytest.CaptureFixture[str], data: Path, tmp_path: Path) -> None:
    asked = _add(capsys, data, PRINT_KEY, "--reason", "conveyance", "--due", _days(20))
    # the parcel's inspection ten days ago came before the request: it stays open
    status, (still,), _ = cli(capsys, "--data-dir", data, "requests", "list")
    assert still["id"] == asked["id"] and still["status"] == "open"
    _import(capsys, data, tmp_path, PRINT_KEY, _days(0))
    status, listed, _ = cli(capsys, "--data-dir", data, "inspection", "list", PRINT_KEY)
    today = next(i for i in listed if i["date"] == _days(0))
    assert cli(capsys, "--data-dir", data, "requests", "list")[1] == []
    status, (answered,), _ = cli(capsys, "--data-dir", data, "requests", "list", "--all")
    assert answered["status"] == "answered"
    assert answered["answered_by"] == {"inspection_id": today["id"], "date": _days(0)}
    status, items, _ = cli(capsys, "--data-dir", data, "worklist", "requests")
    assert items == []
    # an inspection entered in error answers nothing: the request is open again
    status, _, err = cli(capsys, "--data-dir", data, "inspection", "entered-in-error",
                         PRINT_KEY, today["id"], "--reason", "wrong parcel")
    assert status == 0, err
    status, (reopened,), _ = cli(capsys, "--data-dir", data, "requests", "list")
    assert reopened["id"] == asked["id"] and reopened["status"] == "open"
    # and the inspection of the other parcel answers nothing here
    _import(capsys, data, tmp_path, OTHER, _days(0))
    assert [r["id"] for r in cli(capsys, "--data-dir", data, "requests", "list")[1]] == [
        asked["id"]]


def test_a_withdrawn_request_is_cancelled_kept_and_logged(
        capsys: pytest.CaptureFixture[str], data: Path) -> None:
    asked = _add(capsys, data, OTHER, "--reason", "conveyance", "--due", _days(15))
    status, out, err = cli(capsys, "--user", "m.ortiz", "--data-dir", data, "requests",
                           "cancel", asked["id"], "--reason", "closing fell through")
    assert status == 0, err
    assert out["status"] == "cancelled"
    assert out["cancelled"] == {"on": _days(0), "by": "m.ortiz",
                                "reason": "closing fell through"}
    assert cli(capsys, "--data-dir", data, "requests", "list")[1] == []
    assert cli(capsys, "--data-dir", data, "worklist", "requests")[1] == []
    status, (kept,), _ = cli(capsys, "--data-dir", data, "requests", "list", "--all")
    assert kept["id"] == asked["id"] and kept["status"] == "cancelled"
    logged = [(e["field"], e["new_value"], e["user"])
              for e in cli(capsys, "--data-dir", data, "history", OTHER)[1]
              if e["table_name"] == "inspection_requests" and e["op"] == "update"]
    assert sorted(logged) == sorted([("cancelled_on", _days(0), "m.ortiz"),
                                     ("cancelled_by", "m.ortiz", "m.ortiz"),
                                     ("cancel_reason", "closing fell through", "m.ortiz")])


@pytest.mark.parametrize(("which", "words"), [
    ("unknown", r"No inspection request 'no-such-id'"),
    ("cancelled", r"was cancelled on .* \(withdrawn\); nothing was changed"),
    ("answered", r"was answered by the inspection of .*; there is nothing to cancel"),
    ("blank", r"The reason for cancelling is blank"),
])
def test_a_cancellation_that_cannot_be_is_refused_and_changes_nothing(
        capsys: pytest.CaptureFixture[str], data: Path, tmp_path: Path, which: str,
        words: str) -> None:
    import re

    asked = _add(capsys, data, PRINT_KEY, "--reason", "complaint", "--due", _days(4))
    reason = "   " if which == "blank" else "again"
    if which == "cancelled":
        assert cli(capsys, "--data-dir", data, "requests", "cancel", asked["id"],
                   "--reason", "withdrawn")[0] == 0
    if which == "answered":
        _import(capsys, data, tmp_path, PRINT_KEY, _days(0))
    before = _recorded(capsys, data)
    status, out, err = cli(capsys, "--data-dir", data, "requests", "cancel",
                           "no-such-id" if which == "unknown" else asked["id"],
                           "--reason", reason)
    assert status == 2 and out is None
    said = err.strip()
    assert len(said.splitlines()) == 1 and re.search(words, said), said
    assert _recorded(capsys, data) == before
