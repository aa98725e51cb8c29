"""A package's changes are checked by direct tests first and by the change schema for what
those do not pass: the direct tests never pass a change the schema refuses."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from inspector_app.sync.package import (
    _CHANGE_VALIDATOR,
    CHANGE_SCHEMA,
    _plainly_a_change,
    change_problem,
)

ID = "0f8e4a52-3c1d-4b7e-9a61-2d5c8f0b7e13"
BASE: dict[str, Any] = {
    "change_id": ID, "at": "2026-11-25T10:00:00.123+00:00", "user": "k.olmsted",
    "device_id": "dev-0001", "device_seq": 7, "table": "parcels", "record_id": ID,
    "parcel_id": ID, "op": "update", "field": "owner_name", "old": "A", "new": "B",
    "record_version": 2, "source_seq": 9,
}
ODD: list[Any] = [None, True, False, 0, 1, -1, 1.0, 2.5, float("nan"), "", "x", "parcels",
                  "owner_name", "Owner", "a" * 61, "a" * 201, "dev-0001\n", " dev-0001",
                  "dev_0001", "2026-11-25T10:00:00+00:00", "2026-11-25T10:00:00Z",
                  "2026-11-25T10:00:00+00:00\n", "٢٠٢٦-11-25T10:00:00+00:00", [], {}, {"a": 1},
                  ["x"], "insert", "update", "delete", "upsert", 2**40]
OPS = [("update", "owner_name", "B"), ("insert", None, {"owner_name": "B"}),
       ("delete", None, None), ("delete", "owner_name", None)]


def _variants() -> list[dict[str, Any]]:
    found = []
    for op, field, new in OPS:
        base = {**BASE, "op": op, "field": field, "new": new}
        found.append(base)
        for key, value in itertools.product(CHANGE_SCHEMA["required"], ODD):
            found.append({**base, key: value})
        for key in CHANGE_SCHEMA["required"]:
            found.append({k: v for k, v in base.items() if k != key})
        found.append({**base, "extra": 1})
    return [*found, [], "change", None]


def test_the_direct_tests_never_pass_what_the_schema_refuses() -> None:
    passed = 0
    for change in _variants():
        if _plainly_a_change(change):
            assert _CHANGE_VALIDATOR(change) is None, change
            passed += 1
        assert change_problem(change) == _CHANGE_VALIDATOR(change), change
    assert passed > 100


@pytest.mark.parametrize(("op", "field", "new"), OPS)
def test_a_plain_change_of_each_kind_passes_the_direct_tests(op: str, field: str | None,
                                                             new: Any) -> None:
    change = {**BASE, "op": op, "field": field, "new": new}
    assert _plainly_a_change(change)
    assert _plainly_a_change({**change, "device_seq": None, "parcel_id": None})
