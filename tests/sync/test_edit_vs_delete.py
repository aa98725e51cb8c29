"""A record removed on one side while the other side edits it: a conflict for a person,
whichever side removed it and whichever package arrives first."""

from __future__ import annotations

from typing import Any

import pytest

from inspector_app.errors import InputError
from inspector_app.services import exchange as sync
from inspector_app.services.workspace import Workspace

from .conftest import Pair

SBL = "900.01-1-2"  # its septic tank holds 1000 gal


def _tank(ws: Workspace) -> dict[str, Any]:
    (row,) = ws.store.query("SELECT * FROM components WHERE kind = 'septic_tank' AND "
                            "parcel_id = ?", (ws.parcel_id(SBL),))
    return row


def _capacity(gal: int) -> Any:
    def change(doc: dict[str, Any]) -> None:
        doc["components"][0]["capacity_gal"] = gal
    return change


def _remove_tank(doc: dict[str, Any]) -> None:
    doc["components"] = [c for c in doc["components"] if c["kind"] != "septic_tank"]


@pytest.fixture
def tank_750(pair: Pair) -> Pair:
    """Both sides agree the tank holds 750 gal."""
    pair.edit(pair.office, SBL, _capacity(750))
    pair.down()
    pair.up()
    assert _tank(pair.field)["capacity_gal"] == 750
    return pair


def _assert_removed_here_edited_there(ws: Workspace, result: dict[str, Any]) -> dict[str, Any]:
    assert result["conflicts"] == 1 and result["applied"] == 0
    tank = _tank(ws)
    assert tank["deleted_at"] is not None
    assert tank["capacity_gal"] == 750  # nothing written onto the removed row
    (conflict,) = sync.conflicts(ws)
    assert conflict["field"] == "component.(deleted)"
    assert conflict["local_value"] == "deleted"
    assert conflict["incoming_value"] == {"capacity_gal": 1250}
    assert conflict["base_value"] == {"capacity_gal": 750}
    return conflict


def test_office_removed_laptop_edited(tank_750: Pair) -> None:
    pair = tank_750
    pair.edit(pair.office, SBL, _remove_tank)
    pair.edit(pair.field, SBL, _capacity(1250))
    conflict = _assert_removed_here_edited_there(pair.office, pair.up())
    # the laptop, receiving the removal of the tank it edited, keeps a conflict too
    down = pair.down()
    assert down["conflicts"] == 1
    assert _tank(pair.field)["deleted_at"] is None
    assert _tank(pair.field)["capacity_gal"] == 1250
    (there,) = sync.conflicts(pair.field)
    assert (there["field"], there["local_value"]) == ("component.(deleted)", "kept")
    # the person at the office keeps the removal; the decision is in the history
    with pytest.raises(InputError, match="add the"):
        sync.resolve(pair.office, conflict["id"], choice="take_incoming")
    sync.resolve(pair.office, conflict["id"], choice="keep_local")
    assert sync.conflicts(pair.office) == []
    assert _tank(pair.office)["deleted_at"] is not None


def test_laptop_removed_office_edited(tank_750: Pair) -> None:
    pair = tank_750
    pair.edit(pair.field, SBL, _remove_tank)
    pair.edit(pair.office, SBL, _capacity(1250))
    _assert_removed_here_edited_there(pair.field, pair.down())
    assert pair.up()["conflicts"] == 1
    assert _tank(pair.office)["deleted_at"] is None
    assert _tank(pair.office)["capacity_gal"] == 1250


def test_edit_then_removal_on_the_same_side_is_no_conflict(tank_750: Pair) -> None:
    pair = tank_750
    pair.edit(pair.field, SBL, _capacity(1250))
    pair.edit(pair.field, SBL, _remove_tank)
    result = pair.up()
    assert result["conflicts"] == 0 and sync.conflicts(pair.office) == []
    assert _tank(pair.office)["deleted_at"] is not None


def test_keeping_the_removal_is_in_the_history_in_words(tank_750: Pair) -> None:
    from inspector_app.domain.labels import history_lines
    from inspector_app.services.parcel.history import parcel_history

    pair = tank_750
    pair.edit(pair.office, SBL, _remove_tank)
    pair.edit(pair.field, SBL, _capacity(1250))
    pair.up()
    (conflict,) = sync.conflicts(pair.office)
    sync.resolve(pair.office, conflict["id"], choice="keep_local")
    newest = history_lines(parcel_history(pair.office, SBL))[0]
    assert newest.op == "resolution"
    assert "stays removed" in newest.change and "k.olmsted" in newest.change
