"""The building permit of an AHJ determination travels like its other fields, and a
laptop's value passes the same checks as a case file's."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from inspector_app.services import exchange as sync
from inspector_app.sync.package import PackageError
from tests.sync.conftest import Pair, state
from tests.sync.test_hostile_packages import Contents, hostile

PERMIT = {"permit_number": "BP-2026-0147", "permit_issued_on": "2026-11-24"}


def _record_permit(pair: Pair) -> None:
    def permit(doc: dict[str, Any]) -> None:
        doc["ahj"] = {**(doc.get("ahj") or {}), **PERMIT}
    pair.edit(pair.field, pair.sbls[0], permit)


def test_a_permit_recorded_on_the_laptop_reaches_the_office(pair: Pair) -> None:
    _record_permit(pair)
    assert pair.up()["applied"] >= 1
    ahj = pair.office.load_case(pair.sbls[0]).ahj
    assert ahj is not None
    assert (ahj.permit_number, ahj.permit_issued_on) == ("BP-2026-0147", date(2026, 11, 24))
    by = {h["user"] for h in pair.office.history(pair.sbls[0])
          if h["table_name"] == "ahj_determinations"}
    assert by == {"k.olmsted"}


def _set(field: str, value: Any) -> Any:
    def mutate(pair: Pair, p: Contents) -> None:
        for c in p.changes:
            if c["table"] != "ahj_determinations":
                continue
            if c["op"] == "insert":
                c["new"][field] = value
            elif c["field"] == field:
                c["new"] = value
    return mutate


@pytest.mark.parametrize(("field", "value", "words"), [
    ("permit_number", "P" * 61, "Permit number is too long; at most 60 allowed"),
    ("permit_number", "  ", "Permit number is blank"),
    ("permit_issued_on", "2026-02-30", "Permit issued on is .*not a real calendar date"),
    ("permit_issued_on", "May 1", "Permit issued on .*write dates as YYYY-MM-DD"),
])
def test_a_laptops_permit_is_held_to_the_case_file_rules(pair: Pair, field: str, value: Any,
                                                         words: str) -> None:
    _record_permit(pair)
    path = hostile(pair, _set(field, value))
    before = state(pair.office)
    with pytest.raises(PackageError, match=words):
        sync.import_package(pair.office, path)
    assert state(pair.office) == before
