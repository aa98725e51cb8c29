"""A field test's times and observations travel like its other fields: a laptop's test,
and an observation added at a later visit, reach the office; a package's values pass the
same checks as a case file's."""

from __future__ import annotations

from typing import Any

import pytest

from inspector_app.services import exchange as sync
from inspector_app.sync.package import PackageError
from tests.sync.conftest import Pair, state
from tests.sync.test_hostile_packages import Contents, hostile

AT_THE_TEST = {"at": "2026-11-20T10:45", "dye_seen": False, "note": "no breakout"}
LATER = {"at": "2026-11-24", "dye_seen": True, "note": "dye at the shore below the field",
         "place": {"type": "Point", "coordinates": [-77.2803, 42.8071]}}


def _record_test(pair: Pair, *observations: dict[str, Any]) -> None:
    def test(doc: dict[str, Any]) -> None:
        doc.setdefault("inspection", {"date": "2026-11-20", "inspector": "K. Olmsted",
                                      "reason": "five_year_cycle", "failure_evidence": []})
        doc["inspection"]["tests"] = [{
            "kind": "hydraulic_load", "result": "inconclusive", "volume_gal": 150,
            "duration_min": 50, "started_at": "2026-11-20T09:30",
            "ended_at": "2026-11-20T10:20", "observations": list(observations)}]
    pair.edit(pair.field, pair.sbls[0], test)


def _office_test(pair: Pair) -> Any:
    inspection = pair.office.load_case(pair.sbls[0]).inspection
    assert inspection is not None
    (test,) = inspection.tests
    return test


def test_a_laptops_test_and_its_later_observation_reach_the_office(pair: Pair) -> None:
    _record_test(pair, AT_THE_TEST)
    assert pair.up()["applied"] >= 1
    test = _office_test(pair)
    assert (test.started_at, test.ended_at) == ("2026-11-20T09:30", "2026-11-20T10:20")
    assert [(o.at, o.dye_seen) for o in test.observations] == [("2026-11-20T10:45", False)]

    # the later visit: the same test, one more observation
    _record_test(pair, AT_THE_TEST, LATER)
    assert pair.up("up2.zip")["applied"] >= 1
    test = _office_test(pair)
    assert [(o.at, o.dye_seen, o.place) for o in test.observations] == [
        ("2026-11-20T10:45", False, None), ("2026-11-24", True, LATER["place"])]
    changed = {h["field"] for h in pair.office.history(pair.sbls[0])
               if h["table_name"] == "inspection_tests" and h.get("field")}
    assert "observations" in changed


def _set(field: str, value: Any) -> Any:
    def mutate(pair: Pair, p: Contents) -> None:
        for c in p.changes:
            if c["table"] == "inspection_tests" and c["op"] == "insert":
                c["new"][field] = value
    return mutate


@pytest.mark.parametrize(("field", "value", "words"), [
    ("started_at", "2026-11-20T25:10", "Started at is .*not a real date and time of day"),
    ("started_at", "20 Nov 09:30", "Started at "),
    ("ended_at", "2026-12-30T10:00", "Ended at is 2026-12-30.*after today"),
    # the rules between a test's fields, as the case reader has them
    ("ended_at", "2026-11-20T09:00", r"ended_at \(2026-11-20T09:00\) is not after started_at"),
    ("observations", '[{"at": "2026-11-19", "dye_seen": true}]',
     "is before the test started"),
    ("observations", '[{"at": "2026-11-20", "dye_seen": "yes"}]', "Observations"),
    ("observations", '[{"at": "2026-11-20", "dye_seen": true, "place": '
                     '{"type": "LineString", "coordinates": [[0, 0], [1, 1]]}}]',
     r"Observations\[0\]\.place"),
    ("observations", '[{"at": "2026-11-20", "dye_seen": true, "place": '
                     '{"type": "Point", "coordinates": [-77.28, 142.8]}}]',
     r"Observations\[0\]\.place"),
])
def test_a_laptops_test_is_held_to_the_case_file_rules(pair: Pair, field: str, value: Any,
                                                       words: str) -> None:
    _record_test(pair, AT_THE_TEST)
    path = hostile(pair, _set(field, value))
    before = state(pair.office)
    with pytest.raises(PackageError, match=words):
        sync.import_package(pair.office, path)
    assert state(pair.office) == before
