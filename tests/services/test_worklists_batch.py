"""Work lists read in one pass equal those of every parcel loaded and assessed on its own."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, timedelta

import pytest

from inspector_app.domain.case import Case
from inspector_app.services.demo import install_demo
from inspector_app.services.worklists import WORKLISTS, worklists, worklists_one_by_one
from inspector_app.services.workspace import Workspace
from inspector_app.storage.cases import load_case, load_cases

TODAY = date(2026, 11, 25)
AS_OF = (date(2019, 3, 1), TODAY, TODAY + timedelta(days=2 * 365),
         TODAY + timedelta(days=6 * 365))


def _edited(ws: Workspace) -> None:
    """Edits that leave soft-deleted rows, a second inspection and a town with no law."""
    sbls = [p["sbl"] for p in ws.parcels()]
    cases = [ws.load_case(s) for s in sbls]
    inspected = [c for c in cases if c.inspection is not None and len(c.components) > 1]
    first, second = inspected[0], inspected[1]
    assert first.inspection is not None
    later = replace(first.inspection, date=first.inspection.date + timedelta(days=30))
    ws.save_case(replace(first, components=first.components[:-1], inspection=later),
                 today=TODAY)
    ws.save_case(replace(second, parcel=replace(second.parcel, municipality="Town of Gorham")),
                 today=TODAY)
    bare = next(c for c in cases if c.site is not None and c is not first and c is not second)
    ws.save_case(replace(bare, site=None, etu=None, holding_tank_service=None, notice=None),
                 today=TODAY)


@pytest.fixture
def demo(workspace: Workspace) -> Workspace:
    install_demo(workspace, count=40, today=TODAY)
    _edited(workspace)
    return workspace


def test_cases_read_together_equal_cases_read_one_by_one(demo: Workspace) -> None:
    conn = demo.store.conn
    together = load_cases(conn)
    ids = [r["id"] for r in demo.store.query("SELECT id FROM parcels WHERE deleted_at IS NULL")]
    assert sorted(together) == sorted(ids) and len(ids) == 40
    one_by_one: dict[str, Case] = {i: load_case(conn, i) for i in ids}
    assert together == one_by_one


@pytest.mark.parametrize("as_of", AS_OF, ids=lambda d: d.isoformat())
def test_worklists_equal_the_one_by_one_evaluation(demo: Workspace, as_of: date) -> None:
    fast = worklists(demo, as_of=as_of)
    slow = worklists_one_by_one(demo, as_of=as_of)
    assert list(fast) == list(WORKLISTS)
    assert fast == slow
    assert sum(len(items) for items in fast.values()) > 0
    assert any(i["municipality"] == "Town of Gorham" for i in fast["no-law-on-file"])


def test_one_list_alone_equals_the_same_list_among_all(demo: Workspace) -> None:
    alone = worklists(demo, as_of=TODAY, names=("etu-reports",))
    assert alone == {"etu-reports": worklists_one_by_one(demo, as_of=TODAY)["etu-reports"]}
