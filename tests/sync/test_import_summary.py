"""An import says in words whether any conflict waits for a decision: a change that met a
conflict the package itself settled is counted in `conflicts`, not as open."""

from __future__ import annotations

from inspector_app.services import exchange as sync
from tests.sync.conftest import Pair
from tests.sync.test_resolve_gate import conflict_on, write


def test_a_conflict_settled_by_the_office_is_not_reported_as_open(pair: Pair) -> None:
    conflict = conflict_on(pair, "parcels", "owner_name", field_value="Field Name",
                           office_value="Office Name")
    sync.resolve(pair.office, conflict["id"], choice="keep_local")
    result = pair.down()
    assert sync.conflicts(pair.field) == []
    assert (result["conflicts"], result["open_conflicts"]) == (1, 0)
    assert result["summary"] == ("1 change applied; no conflict waits for a decision; 1 change "
                                 "that met a conflict was settled within the package itself.")


def test_an_open_conflict_is_named_with_where_to_decide_it(pair: Pair) -> None:
    sbl = pair.sbls[1]
    write(pair.field, "parcels", sbl, "owner_name", "Field Name")
    write(pair.office, "parcels", sbl, "owner_name", "Office Name")
    result = pair.up()
    assert (result["conflicts"], result["open_conflicts"]) == (1, 1)
    assert result["summary"] == (f"{result['applied']} changes applied; 1 conflict waits for "
                                 "a decision (`inspector-app sync conflicts`).")
