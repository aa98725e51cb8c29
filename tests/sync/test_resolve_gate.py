"""Resolving a sync conflict goes through the same checks as a case file.

A value entered by a person, or taken from the other side's package, is refused in words
when a case file with that value would be refused, and the refusal changes nothing. The
history shows what the record held before the resolution, and an import counts only the
conflicts that still need a decision.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from inspector_app.errors import InputError
from inspector_app.services import exchange as sync
from inspector_app.services.workspace import Workspace
from inspector_app.sync.package import PackageError
from tests.sync.conftest import TODAY, Pair, state


def record_id(ws: Workspace, table: str, sbl: str) -> str:
    if table == "parcels":
        return ws.parcel_id(sbl)
    order = "date DESC" if table == "inspections" else "created_at"
    rows = ws.store.query(f"SELECT id FROM {table} WHERE parcel_id = ? AND deleted_at IS NULL "
                          f"ORDER BY {order}, rowid", (ws.parcel_id(sbl),))
    return str(rows[0]["id"])


def write(ws: Workspace, table: str, sbl: str, column: str, value: Any) -> None:
    """A change through the record writer with its value checks off, as an older or careless
    laptop might send (this version's writer refuses such a value as it is made)."""
    with ws.store.transaction() as w:
        w.values_check = None
        w.update(table, record_id(ws, table, sbl), {column: value})


def conflict_on(pair: Pair, table: str, column: str, *, field_value: Any, office_value: Any,
                sbl: str | None = None) -> dict[str, Any]:
    sbl = sbl or pair.sbls[1]  # a parcel with a dwelling and an inspection
    write(pair.field, table, sbl, column, field_value)
    write(pair.office, table, sbl, column, office_value)
    result = pair.up()
    assert result["conflicts"] == 1
    (conflict,) = [c for c in sync.conflicts(pair.office) if c["sbl"] == sbl
                   and (c["table"], c["field"].split(".")[-1]) == (table, column)]
    return conflict


def stored(ws: Workspace, table: str, sbl: str, column: str) -> Any:
    return ws.store.query(f"SELECT {column} AS v, typeof({column}) AS t FROM {table} "
                          "WHERE id = ?", (record_id(ws, table, sbl),))[0]


def test_text_for_bedrooms_is_refused_in_words_and_changes_nothing(pair: Pair) -> None:
    sbl = pair.sbls[1]
    conflict = conflict_on(pair, "dwellings", "bedrooms", field_value=6, office_value=3)
    before = state(pair.office)
    with pytest.raises(InputError) as refused:
        sync.resolve(pair.office, conflict["id"], choice="enter_value", value="five")
    text = str(refused.value)
    assert text.startswith("Bedrooms") and "whole number" in text and '"five"' in text
    assert "conflict stays open" in text
    assert state(pair.office) == before
    assert [c["id"] for c in sync.conflicts(pair.office)] == [conflict["id"]]
    assert pair.office.load_case(sbl).dwelling.bedrooms == 3
    pair.office.evaluate_parcel(sbl, as_of=TODAY)  # the parcel still opens and evaluates


# (table, column, a good value, a value a case file refuses, the words of the refusal)
CHECKS = [
    ("dwellings", "bedrooms", 3, 80, "Bedrooms is 80, which is not plausible; it must be "
                                     "between 0 and 50"),
    ("dwellings", "bedrooms", 3, 2.5, "Bedrooms must be a whole number"),
    ("dwellings", "bedrooms", 3, "five", "Bedrooms must be a whole number"),
    ("inspections", "reason", "complaint", "whim", "Reason .*it must be one of"),
    ("inspections", "date", "2026-06-01", "2099-06-01", "after today"),
    ("inspections", "date", "2026-06-01", "2026-02-30", "not a real calendar date"),
    ("dwellings", "building_area_sqft", 5000, 10, "smaller than living_area_sqft"),
    ("parcels", "owner_email", "a@b.org", "not an address", "not in the expected form"),
]
OTHER = {3: 2, "complaint": "other", "2026-06-01": "2026-06-02", 5000: 6000,
         "a@b.org": "c@d.org"}


@pytest.mark.parametrize(("table", "column", "good", "bad", "words"), CHECKS)
def test_an_entered_value_passes_the_case_file_checks(
        pair: Pair, table: str, column: str, good: Any, bad: Any, words: str) -> None:
    conflict = conflict_on(pair, table, column, field_value=good, office_value=OTHER[good])
    before = state(pair.office)
    with pytest.raises(InputError, match=words):
        sync.resolve(pair.office, conflict["id"], choice="enter_value", value=bad)
    assert state(pair.office) == before
    sync.resolve(pair.office, conflict["id"], choice="enter_value", value=good)
    assert sync.conflicts(pair.office) == []


# A rule of the whole case (one field against another): a value that breaks only this
# arrives as a conflict where the office's value differs, and is checked when a person takes
# it. A value its field's own rules refuse (a recorded date after today among them) is
# refused with its package at import.
WHOLE_CASE = {"smaller than living_area_sqft"}


@pytest.mark.parametrize(("table", "column", "office_value", "incoming", "words"), CHECKS)
def test_an_incoming_value_is_untrusted(pair: Pair, table: str, column: str,
                                        office_value: Any, incoming: Any, words: str) -> None:
    sbl = pair.sbls[1]
    if words not in WHOLE_CASE:
        write(pair.field, table, sbl, column, incoming)
        before = state(pair.office)
        with pytest.raises(PackageError, match=words):
            pair.up()
        assert state(pair.office) == before
        return
    conflict = conflict_on(pair, table, column, field_value=incoming, office_value=office_value)
    before = state(pair.office)
    with pytest.raises(InputError, match=words):
        sync.resolve(pair.office, conflict["id"], choice="take_incoming")
    assert state(pair.office) == before
    assert sync.conflicts(pair.office)[0]["id"] == conflict["id"]
    pair.office.evaluate_parcel(sbl, as_of=TODAY)
    # keeping the value here is always possible
    sync.resolve(pair.office, conflict["id"], choice="keep_local")
    assert sync.conflicts(pair.office) == []


def test_a_good_value_is_stored_as_its_type(pair: Pair) -> None:
    sbl = pair.sbls[1]
    conflict = conflict_on(pair, "dwellings", "bedrooms", field_value=6, office_value=3)
    result = sync.resolve(pair.office, conflict["id"], choice="enter_value", text=" 5 ")
    assert result["value"] == 5
    assert stored(pair.office, "dwellings", sbl, "bedrooms") == {"v": 5, "t": "integer"}
    assert pair.office.load_case(sbl).dwelling.bedrooms == 5
    pair.down()
    assert pair.field.load_case(sbl).dwelling.bedrooms == 5
    assert sync.conflicts(pair.field) == []


def test_typed_text_is_read_as_the_fields_type(pair: Pair) -> None:
    sbl = pair.sbls[1]
    conflict = conflict_on(pair, "dwellings", "bedrooms", field_value=6, office_value=3)
    with pytest.raises(InputError, match="Bedrooms must be a whole number, not the text "
                                         '"five"'):
        sync.resolve(pair.office, conflict["id"], choice="enter_value", text="five")
    conflict = conflict_on(pair, "parcels", "owner_mailing_address",
                           field_value=["1 Field Rd", "Naples NY 14512"],
                           office_value=["1 Office Rd", "Naples NY 14512"], sbl=pair.sbls[0])
    assert sync.value_text(conflict) == "1 Office Rd; Naples NY 14512"
    sync.resolve(pair.office, conflict["id"], choice="enter_value",
                 text="PO Box 7; Naples NY 14512")
    assert pair.office.load_case(pair.sbls[0]).parcel.owner_mailing_address == (
        "PO Box 7", "Naples NY 14512")
    assert sync.conflicts(pair.office)[0]["field"] == "dwelling.bedrooms"
    assert sync.field_label(sync.conflicts(pair.office)[0]) == "Bedrooms"
    assert pair.office.load_case(sbl).dwelling.bedrooms == 3


def test_the_cli_passes_the_same_gate(pair: Pair, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.test_cli import cli

    conflict = conflict_on(pair, "dwellings", "bedrooms", field_value=6, office_value=3)
    office = str(pair.office.folder.root)
    before = state(pair.office)
    pair.office.close()
    try:
        status, out, err = cli(capsys, "--data-dir", office, "sync", "resolve",
                               conflict["id"], "--value", '"five"')
        assert status == 2 and out is None
        assert "Bedrooms must be a whole number" in err
        status, out, err = cli(capsys, "--data-dir", office, "sync", "resolve",
                               conflict["id"], "--value", "6")
        assert status == 0, err
        assert out == {"id": conflict["id"], "resolution": "enter_value", "value": 6}
    finally:
        pair.office = Workspace(Path(office), user="clerk")
    assert before["dwellings"] != state(pair.office)["dwellings"]
    assert pair.office.load_case(pair.sbls[1]).dwelling.bedrooms == 6


def test_history_shows_what_the_record_held_before_the_resolution(pair: Pair) -> None:
    sbl = pair.sbls[1]
    conflict = conflict_on(pair, "parcels", "owner_name", field_value="1111",
                           office_value="2222")
    sync.resolve(pair.office, conflict["id"], choice="take_incoming")
    last = [h for h in pair.office.history(sbl) if h["field"] == "owner_name"][-1]
    assert (last["old_value"], last["new_value"], last["user"]) == ("2222", "1111", "clerk")
    # the resolution still reaches the laptop as a decision, not as a new conflict
    result = pair.down()
    assert pair.field.load_case(sbl).parcel.owner_name == "1111"
    assert sync.conflicts(pair.field) == [] and result["open_conflicts"] == 0


def test_history_of_an_entered_value(pair: Pair) -> None:
    sbl = pair.sbls[1]
    conflict = conflict_on(pair, "parcels", "owner_name", field_value="Field Name",
                           office_value="Office Name")
    sync.resolve(pair.office, conflict["id"], choice="enter_value", value="Both Names Trust")
    last = [h for h in pair.office.history(sbl) if h["field"] == "owner_name"][-1]
    assert (last["old_value"], last["new_value"]) == ("Office Name", "Both Names Trust")
    pair.down()
    assert pair.field.load_case(sbl).parcel.owner_name == "Both Names Trust"
    assert sync.conflicts(pair.field) == []
    field_last = [h for h in pair.field.history(sbl) if h["field"] == "owner_name"][-1]
    assert (field_last["old_value"], field_last["new_value"]) == ("Field Name",
                                                                   "Both Names Trust")


def test_a_laptop_resolution_syncs_up_too(pair: Pair) -> None:
    sbl = pair.sbls[1]
    write(pair.office, "parcels", sbl, "owner_name", "Office Name")
    write(pair.field, "parcels", sbl, "owner_name", "Field Name")
    assert pair.down()["open_conflicts"] == 1
    (conflict,) = sync.conflicts(pair.field)
    sync.resolve(pair.field, conflict["id"], choice="take_incoming")
    last = [h for h in pair.field.history(sbl) if h["field"] == "owner_name"][-1]
    assert (last["old_value"], last["new_value"]) == ("Field Name", "Office Name")
    result = pair.up()
    assert result["open_conflicts"] == 0 and sync.conflicts(pair.office) == []
    assert pair.office.load_case(sbl).parcel.owner_name == "Office Name"


def test_the_import_counts_only_conflicts_that_need_a_decision(pair: Pair) -> None:
    sbl = pair.sbls[1]
    conflict = conflict_on(pair, "parcels", "owner_name", field_value="Field Name",
                           office_value="Office Name")
    sync.resolve(pair.office, conflict["id"], choice="keep_local")
    # the office's own edit raises the conflict again on the laptop, and the office's
    # resolution in the same package settles it
    result = pair.down()
    assert (result["conflicts"], result["open_conflicts"]) == (1, 0)
    assert sync.conflicts(pair.field) == []
    assert pair.field.load_case(sbl).parcel.owner_name == "Office Name"


def test_an_open_conflict_is_counted(pair: Pair) -> None:
    write(pair.field, "parcels", pair.sbls[1], "owner_name", "Field Name")
    write(pair.office, "parcels", pair.sbls[1], "owner_name", "Office Name")
    result = pair.up()
    assert (result["conflicts"], result["open_conflicts"]) == (1, 1)


def test_a_later_change_from_the_other_side_that_agrees_settles_it(pair: Pair) -> None:
    sbl = pair.sbls[1]
    write(pair.field, "parcels", sbl, "owner_name", "Field Name")
    write(pair.office, "parcels", sbl, "owner_name", "Office Name")
    write(pair.field, "parcels", sbl, "owner_name", "Office Name")  # the laptop agrees
    result = pair.up()
    assert (result["conflicts"], result["open_conflicts"]) == (1, 0)
    assert sync.conflicts(pair.office) == []


def test_an_unknown_conflict_names_the_menu_in_the_app(pair: Pair) -> None:
    with pytest.raises(InputError) as refused:
        sync.resolve(pair.office, "no-such-id", choice="keep_local")
    assert str(refused.value) == ("No conflict 'no-such-id'; `inspector-app sync conflicts` "
                                  "lists them.")
    assert "Sync > Conflicts..." in refused.value.in_app
    assert "inspector-app" not in refused.value.in_app


def deleted_on_the_laptop(pair: Pair, table: str, column: str, value: Any) -> dict[str, Any]:
    sbl = pair.sbls[1]
    rid = record_id(pair.field, table, sbl)
    with pair.field.store.transaction() as w:
        w.delete(table, rid)
    write(pair.office, table, sbl, column, value)
    assert pair.up()["open_conflicts"] == 1
    (conflict,) = sync.conflicts(pair.office)
    assert conflict["field"].endswith("(deleted)")
    return conflict


def test_taking_a_deletion_the_case_can_do_without(pair: Pair) -> None:
    before = len(pair.office.load_case(pair.sbls[1]).components)
    conflict = deleted_on_the_laptop(pair, "components", "note", "seen from the road")
    sync.resolve(pair.office, conflict["id"], choice="take_incoming")
    assert len(pair.office.load_case(pair.sbls[1]).components) == before - 1


def test_taking_a_deletion_the_case_cannot_do_without_is_refused(pair: Pair) -> None:
    conflict = deleted_on_the_laptop(pair, "dwellings", "bedrooms", 2)
    before = state(pair.office)
    with pytest.raises(InputError, match="Removing the dwelling: dwelling is missing"):
        sync.resolve(pair.office, conflict["id"], choice="take_incoming")
    assert state(pair.office) == before
    sync.resolve(pair.office, conflict["id"], choice="keep_local")
    assert pair.office.load_case(pair.sbls[1]).dwelling.bedrooms == 2


def test_a_parcel_that_is_no_whole_case_yet_can_still_be_resolved(pair: Pair) -> None:
    """A parcel from the assessment roll has no dwelling yet; that is not the value's fault."""
    sbl = pair.sbls[1]
    conflict = conflict_on(pair, "parcels", "owner_name", field_value="Field Name",
                           office_value="Office Name")
    with pair.office.store.transaction() as w:
        w.delete("dwellings", record_id(pair.office, "dwellings", sbl))
    with pytest.raises(InputError, match="Owner is blank"):
        sync.resolve(pair.office, conflict["id"], choice="enter_value", value=" ")
    sync.resolve(pair.office, conflict["id"], choice="enter_value", value="Roll Name")
    assert pair.office.load_case(sbl).parcel.owner_name == "Roll Name"


def test_a_change_that_breaks_a_rule_of_the_whole_case_is_refused_at_import(pair: Pair) -> None:
    """With no conflict to hold it, a value that reads only against another field (a
    building smaller than its living area) would go straight into the case: the package
    is refused instead, naming the parcel and the rule."""
    sbl = pair.sbls[1]
    write(pair.field, "dwellings", sbl, "building_area_sqft", 10)
    before = state(pair.office)
    with pytest.raises(PackageError, match=f"parcel {sbl} break the case-file rules.*smaller "
                                           "than living_area_sqft"):
        pair.up()
    assert state(pair.office) == before


def test_a_problem_a_case_already_had_is_not_laid_at_the_packages_door(pair: Pair) -> None:
    """A parcel whose records already break a rule of the whole case (its dwelling removed
    at the office) takes a laptop's change that leaves the problem as it was: the package
    goes in whole, each change applied and logged once, beside the changes to a parcel
    that has no problem."""
    broken, whole = pair.sbls[1], pair.sbls[2]
    with pair.office.store.transaction() as w:
        w.delete("dwellings", record_id(pair.office, "dwellings", broken))
    write(pair.field, "parcels", broken, "owner_name", "Field Name")
    write(pair.field, "parcels", whole, "owner_name", "Other Name")
    write(pair.field, "parcels", broken, "site_address", "1 Field Road")
    result = pair.up()
    assert (result["applied"], result["conflicts"], result["skipped"]) == (3, 0, 0)
    assert pair.office.store.query(
        "SELECT owner_name, site_address FROM parcels WHERE id = ?",
        (pair.office.parcel_id(broken),)) == [{"owner_name": "Field Name",
                                               "site_address": "1 Field Road"}]
    assert pair.office.load_case(whole).parcel.owner_name == "Other Name"
    sent = [c["change_id"] for c in pair.field.store.query(
        "SELECT change_id FROM change_log WHERE table_name = 'parcels' AND op = 'update' "
        "AND field IN ('owner_name', 'site_address')")]
    assert len(sent) == 3
    for table in ("change_log", "sync_received"):
        found = pair.office.store.query(
            f"SELECT change_id FROM {table} WHERE change_id IN (?, ?, ?)", sent)
        assert sorted(r["change_id"] for r in found) == sorted(sent), table
    assert pair.up("again.zip")["applied"] == 0
