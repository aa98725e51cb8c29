"""Words for the records' internal names: case-file fields, change-log tables and values."""

from __future__ import annotations

import re
from dataclasses import fields, replace
from datetime import date
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from inspector_app import casefile
from inspector_app.domain import registry
from inspector_app.domain.fields import COMPONENT_DETAILS
from inspector_app.domain.labels import (
    SECTIONS,
    field_label,
    for_people,
    history_lines,
    local_time,
    section_for_table,
)
from inspector_app.errors import InputError
from inspector_app.services.workspace import Workspace
from inspector_app.storage.records import BOOKKEEPING
from tests.domain.builders import case, component

EASTERN = ZoneInfo("America/New_York")
TODAY = date(2026, 11, 25)
# An internal name: a dotted case-file path, or a snake_case column name.
INTERNAL = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b|\b[a-z_]+(?:\.[a-z_]+|\[\d+\])+")


@pytest.mark.parametrize("section", [s for s in registry.SECTIONS if s.cls is not None],
                         ids=lambda s: s.path or "case")
def test_every_field_of_the_case_has_words(section: registry.Section) -> None:
    """Every field of every record is declared (`field_spec.declare`) and so has words."""
    assert section.cls is not None
    declared = {f.key for f in section.fields}
    missing = [f.name for f in fields(section.cls) if f.name not in declared
               and f.name != "details"]
    assert not missing, f"{section.name}: no words for {missing}"
    labels = next((s.labels for s in SECTIONS if s.path == section.path), {})
    assert section.path == "" or all(labels[k].label for k in declared)


def test_every_column_a_parcel_record_keeps_has_words(workspace: Workspace) -> None:
    conn = workspace.store.conn
    tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    checked = []
    for table in tables:
        columns = [r[1] for r in conn.execute(f"PRAGMA table_info({table})")]
        is_record = {"id", "version", "deleted_at"} <= set(columns)
        if not is_record or ("parcel_id" not in columns and table != "parcels"):
            continue  # not a record of a parcel: never in a parcel's history
        labels = section_for_table(table).labels
        missing = [c for c in columns if c not in BOOKKEEPING and c not in labels]
        assert not missing, f"{table}: no words for {missing}"
        checked.append(table)
    assert {"parcels", "dwellings", "components", "letters", "lake_measurements"} <= set(checked)


def test_component_details_take_their_labels_and_units_from_the_declaration() -> None:
    components = next(s for s in SECTIONS if s.table == "components")
    for spec in COMPONENT_DETAILS:
        assert components.labels[spec.name].label == spec.label
        assert components.labels[spec.name].unit == spec.unit


@pytest.mark.parametrize("path, words", [
    ("site.lake_distance_method", "Lake distance measured by"),
    ("dwelling.bedrooms", "Bedrooms"),
    ("dwelling.living_area_sqft", "Living area (sq ft)"),
    ("proposed_work.bedrooms", "Proposed bedrooms"),
    ("etu.inspections[0].date", "ETU inspection 1, date"),
    ("holding_tank_service.pump_outs[2].volume_gal", "Pump-out 3, volume (gal)"),
    ("parcel.renters[0].name", "Renter 1, name"),
    ("site.absorption_area_capture.accuracy_ft",
     "Absorption area on the map, capture accuracy (ft)"),
    ("site.absorption_area.coordinates[0][3]", "Absorption area on the map"),
    ("notice.complete_by", "Work to be complete by"),
    ("components[1]", "Component 2"),
])
def test_case_file_paths_in_words(path: str, words: str) -> None:
    assert field_label(path) == words


def test_components_are_named_by_what_they_are() -> None:
    c = case(components=(component("septic_tank"), component("absorption_area")))
    assert field_label("components[0].sludge_depth_in", c) == (
        "Septic tank (component 1), sludge depth (in)")
    assert field_label("components[1].area_sqft", c) == (
        "Absorption area (component 2), area (sq ft)")


def _refusal(doc: dict[str, Any]) -> str:
    with pytest.raises(InputError) as caught:
        casefile.parse_document(doc, source="The form", today=TODAY)
    return str(caught.value)


def test_case_file_messages_stay_as_they_are_and_the_app_shows_them_in_words(
        full_case: dict[str, Any]) -> None:
    doc = {**full_case, "site": {**full_case["site"], "lake_distance_ft": 120.0}}
    doc["site"].pop("lake_distance_method", None)
    message = _refusal(doc)
    assert message.startswith("The form: site.lake_distance_method is missing")  # the contract
    shown = for_people(f"Not saved: {message.removeprefix('The form: ')}")
    assert shown.startswith("Not saved: Lake distance measured by: missing; a field "
                            "measurement of the lake distance needs both")
    assert not INTERNAL.search(shown), shown


def test_a_message_naming_two_fields_names_both_in_words(full_case: dict[str, Any]) -> None:
    doc = {**full_case, "dwelling": {**full_case["dwelling"], "living_area_sqft": 1500,
                                     "building_area_sqft": 1000}}
    shown = for_people(_refusal(doc))
    assert shown == ("Building area: (1000 sq ft) is smaller than living area (1500 sq ft); "
                     "the building's aggregate area includes its living space.")


def test_a_range_message_gives_the_unit_with_the_field(full_case: dict[str, Any]) -> None:
    doc = {**full_case, "components": [{**full_case["components"][0], "kind": "septic_tank",
                                        "sludge_depth_in": 300}]}
    doc["components"][0].pop("area_sqft", None)
    c = replace(case(), components=(component("septic_tank"),))
    shown = for_people(_refusal(doc), c)
    assert shown.startswith("Septic tank (component 1), sludge depth (in): 300, which is not "
                            "plausible; it must be between 0 and 200"), shown


def test_what_the_user_typed_and_values_to_type_stay_as_they_are() -> None:
    assert for_people('Not saved: parcel.owner_email is the text "a_b@x", which is not in '
                      'the expected form.') == (
        'Not saved: Owner\'s e-mail: the text "a_b@x", which is not in the expected form.')
    hint = "Not saved: Tests, line 1 ('dye_x') must read: dye or hydraulic_load, pass/fail"
    assert for_people(hint) == hint


def _row(op: str, table: str, *, field: str | None = None, old: Any = None, new: Any = None,
         record: str = "r1", at: str = "2026-11-25T15:30:00.000+00:00", **more: Any
         ) -> dict[str, Any]:
    return {"seq": 1, "at": at, "user": "k.olmsted", "device": "laptop-olmsted",
            "table_name": table, "record_id": record, "op": op, "field": field,
            "old_value": old, "new_value": new, "record_version": 1, **more}


def test_history_in_words_with_units_lists_and_local_time() -> None:
    rows = [
        _row("insert", "components", record="tank", new={
            "system_id": "s1", "kind": "septic_tank", "condition": "acceptable",
            "defects": "[]", "capacity_gal": 1000, "position": 0}),
        _row("update", "dwellings", field="bedrooms", old=3, new=4),
        _row("update", "components", record="tank", field="defects",
             old="[]", new='["inlet baffle damaged","cracked lid"]'),
        _row("update", "components", record="tank", field="sludge_depth_in", old=10, new=14.5),
        _row("update", "dwellings", field="garbage_grinder", old=None, new=1),
        _row("update", "parcels", field="owner_phone", old="585-555-0100", new=None,
             at="2026-07-04T16:00:00.000+00:00"),
        _row("delete", "components", record="tank"),
    ]
    lines = history_lines(rows, tz=EASTERN)
    assert [line.change for line in lines] == [
        "Septic tank removed",
        "Owner's phone: 585-555-0100 -> (blank)",
        "Garbage grinder: (blank) -> yes",
        "Septic tank, sludge depth: 10 in -> 14.5 in",
        "Septic tank, defects: (none) -> inlet baffle damaged; cracked lid",
        "Bedrooms: 3 -> 4",
        "Septic tank added (Condition: acceptable; Capacity: 1,000 gal)",
    ]
    assert lines[0].when == "2026-11-25 10:30 EST"
    assert lines[1].when == "2026-07-04 12:00 EDT"
    assert (lines[0].who, lines[0].device) == ("k.olmsted", "laptop-olmsted")
    for line in lines:
        assert not INTERNAL.search(line.change), line.change


def test_a_conflict_decision_says_what_was_decided_between_which_values() -> None:
    decision = {"choice": "keep_local", "field": "owner_name",
                "local_value": '"From the office"', "incoming_value": '"From the field"',
                "resolved_value": '"From the office"', "incoming_user": "r.vance",
                "incoming_device": "laptop"}
    rows = [_row("update", "parcels", field="owner_name", old="From the field",
                 new="From the office", resolution=decision)]
    (line,) = history_lines(rows, tz=EASTERN)
    assert line.op == "resolution"
    assert line.change == ("Sync conflict resolved, Owner: kept the value here (From the "
                           "office); not taken from r.vance on laptop: From the field")
    taken = history_lines([_row("delete", "components", record="tank", resolution={
        **decision, "choice": "take_incoming", "field": "(deleted)"})], tz=EASTERN)
    assert taken[0].change.startswith("Sync conflict resolved: Component removed, as "
                                      "r.vance on laptop had removed it")


def test_local_time_names_its_zone() -> None:
    assert local_time("2026-12-01T10:40:52.411+00:00", EASTERN) == "2026-12-01 05:40 EST"
    assert local_time("2026-12-01T10:40:52", ZoneInfo("UTC")) == "2026-12-01 10:40 UTC"
    assert local_time("not a time", EASTERN) == "not a time"
