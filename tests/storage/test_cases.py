from __future__ import annotations

import copy
from datetime import date
from typing import Any

import pytest

from inspector_app.casefile import parse_document, to_document
from inspector_app.casefile.messages import CaseFileError
from inspector_app.services.workspace import Workspace
from tests.domain.builders import as_recorded

TODAY = date(2026, 11, 25)


def _parse(doc: dict[str, Any]) -> Any:
    return parse_document(doc, source="case.json", today=TODAY)


def _save(ws: Workspace, doc: dict[str, Any]) -> Any:
    return ws.save_case(_parse(doc), today=TODAY)


def test_every_record_type_round_trips(workspace: Workspace, full_case: dict[str, Any]) -> None:
    case = _parse(full_case)
    result = workspace.save_case(case, today=TODAY)
    assert result.created
    stored = workspace.load_case("98.00-1-23.100")
    assert stored.inspection is not None and stored.inspection.id is not None
    assert as_recorded(stored) == case
    assert to_document(as_recorded(stored)) == to_document(case)


def test_contract_example_round_trips(workspace: Workspace, contract_case: dict) -> None:
    case = _parse(contract_case)
    workspace.save_case(case, today=TODAY)
    assert as_recorded(workspace.load_case("112.09-1-7.2")) == case


def test_saving_the_same_case_again_changes_nothing(workspace: Workspace,
                                                    full_case: dict[str, Any]) -> None:
    _save(workspace, full_case)
    version = workspace.case_version("98.00-1-23.100")
    again = _save(workspace, full_case)
    assert (again.created, again.changes) == (False, 0)
    assert workspace.case_version("98.00-1-23.100") == version


def test_edits_are_logged_field_by_field(workspace: Workspace, full_case: dict[str, Any]) -> None:
    _save(workspace, full_case)
    edited = copy.deepcopy(full_case)
    edited["parcel"]["owner_name"] = "Maria Castellano"
    edited["components"][0]["sludge_depth_in"] = 18
    edited["components"][0]["defects"] = ["outlet baffle missing"]
    result = _save(workspace, edited)
    assert result.changes == 3
    updates = [(h["table_name"], h["field"], h["old_value"], h["new_value"])
               for h in workspace.history("98.00-1-23.100") if h["op"] == "update"]
    assert ("parcels", "owner_name", "Robert Whitaker", "Maria Castellano") in updates
    assert ("components", "sludge_depth_in", 14.5, 18) in updates
    assert ("components", "defects", '["outlet baffle missing","riser lid cracked"]',
            '["outlet baffle missing"]') in updates


def test_absent_sections_and_components_are_removed_with_history_kept(
        workspace: Workspace, full_case: dict[str, Any]) -> None:
    _save(workspace, full_case)
    trimmed = copy.deepcopy(full_case)
    del trimmed["etu"]
    del trimmed["components"][3]  # the ETU component
    del trimmed["parcel"]["renters"]
    _save(workspace, trimmed)
    case = workspace.load_case("98.00-1-23.100")
    assert case.etu is None
    assert [c.kind.value for c in case.components] == [
        "septic_tank", "distribution_box", "absorption_area", "septic_tank"]
    assert case.parcel.renters == ()
    deleted = {h["table_name"] for h in workspace.history("98.00-1-23.100")
               if h["op"] == "delete"}
    assert deleted == {"etu_services", "etu_reports", "components", "renters"}
    # the rows are still there, marked deleted
    rows = workspace.store.query("SELECT deleted_at FROM etu_services")
    assert len(rows) == 1 and rows[0]["deleted_at"] is not None


def test_components_are_matched_by_kind_and_order(workspace: Workspace,
                                                  full_case: dict[str, Any]) -> None:
    _save(workspace, full_case)
    ids_before = {r["kind"] + str(r["position"]): r["id"] for r in workspace.store.query(
        "SELECT id, kind, position FROM components WHERE deleted_at IS NULL")}
    reordered = copy.deepcopy(full_case)
    reordered["components"].insert(0, reordered["components"].pop(2))  # absorption area first
    _save(workspace, reordered)
    rows = workspace.store.query(
        "SELECT id, kind, position FROM components WHERE deleted_at IS NULL ORDER BY position")
    assert rows[0]["kind"] == "absorption_area"
    assert rows[0]["id"] == ids_before["absorption_area2"]
    assert len(rows) == 5


def test_inspections_are_events_matched_by_date(workspace: Workspace,
                                                full_case: dict[str, Any]) -> None:
    _save(workspace, full_case)
    later = copy.deepcopy(full_case)
    later["inspection"] = {"date": "2026-11-24", "inspector": "R. Vance", "reason": "ahj_order",
                           "failure_evidence": []}
    _save(workspace, later)
    assert workspace.load_case("98.00-1-23.100").inspection.inspector == "R. Vance"
    dates = [r["date"] for r in workspace.store.query(
        "SELECT date FROM inspections WHERE deleted_at IS NULL ORDER BY date")]
    assert dates == ["2026-11-20", "2026-11-24"]


def test_a_new_field_measurement_keeps_the_old_one(workspace: Workspace,
                                                   full_case: dict[str, Any]) -> None:
    _save(workspace, full_case)
    remeasured = copy.deepcopy(full_case)
    remeasured["site"]["lake_distance_ft"] = 201.0
    remeasured["site"]["lake_distance_method"] = "tape"
    _save(workspace, remeasured)
    rows = workspace.store.query(
        "SELECT distance_ft, method, measured_by, measured_on FROM lake_measurements "
        "WHERE deleted_at IS NULL AND method != 'map' ORDER BY created_at")
    assert [(r["distance_ft"], r["method"]) for r in rows] == [(142.5, "survey"), (201.0, "tape")]
    assert rows[1]["measured_by"] == "K. Olmsted"
    assert workspace.load_case("98.00-1-23.100").site.lake_distance_ft == 201.0


def test_attachments_are_stored_by_hash(workspace: Workspace, full_case: dict[str, Any],
                                        tmp_path: Any) -> None:
    _save(workspace, full_case)
    photo = tmp_path / "tank-lid.jpg"
    photo.write_bytes(b"\xff\xd8\xff\xe0 not really a jpeg" * 100)
    first = workspace.add_attachment("98.00-1-23.100", photo, caption="Outlet side")
    second = workspace.add_attachment("98.00-1-23.100", photo, caption="Same photo again")
    assert first["sha256"] == second["sha256"]
    stored = workspace.attachment_path(first["sha256"])
    assert stored.read_bytes() == photo.read_bytes()
    assert len(workspace.attachments("98.00-1-23.100")) == 2
    assert first["media_type"] == "image/jpeg"


def test_the_building_permit_is_stored_and_each_change_of_it_is_logged(
        workspace: Workspace, full_case: dict[str, Any]) -> None:
    doc = copy.deepcopy(full_case)
    for key in ("permit_number", "permit_issued_on"):
        del doc["ahj"][key]
    _save(workspace, doc)
    assert workspace.load_case("98.00-1-23.100").ahj.permit_number is None
    doc["ahj"].update(permit_number="BP-2026-0147", permit_issued_on="2026-11-24")
    assert _save(workspace, doc).changes == 2
    ahj = workspace.load_case("98.00-1-23.100").ahj
    assert (ahj.permit_number, ahj.permit_issued_on) == ("BP-2026-0147", date(2026, 11, 24))
    updates = [(h["field"], h["old_value"], h["new_value"], h["user"])
               for h in workspace.history("98.00-1-23.100")
               if h["op"] == "update" and h["table_name"] == "ahj_determinations"]
    assert updates == [("permit_number", None, "BP-2026-0147", "k.olmsted"),
                       ("permit_issued_on", None, "2026-11-24", "k.olmsted")]


def test_setback_components_and_well_conditions_round_trip(
        workspace: Workspace, full_case: dict[str, Any]) -> None:
    """Cesspools and privies as components, the details that choose a 75-A row, and a
    well's conditions (yes, no, not known) through a case file and the database."""
    doc = copy.deepcopy(full_case)
    doc["components"] = [*doc["components"],
                         {"kind": "cesspool", "condition": "substandard"},
                         {"kind": "privy", "condition": "acceptable", "watertight": True},
                         {"kind": "house_sewer", "condition": "acceptable",
                          "cast_iron": False}]
    wells = [f for f in doc["site"]["features"] if f["kind"] == "well"]
    wells[0]["shallow_aquifer"] = True
    wells[0]["drainage_path"] = False
    case = _parse(doc)
    workspace.save_case(case, today=TODAY)
    stored = workspace.load_case("98.00-1-23.100")
    assert as_recorded(stored) == case
    kinds = [c.kind.value for c in stored.components]
    assert kinds[-3:] == ["cesspool", "privy", "house_sewer"]
    assert stored.components[-2].details["watertight"] is True
    assert stored.components[-1].details["cast_iron"] is False
    assert stored.site is not None
    got = [(f.shallow_aquifer, f.drainage_path) for f in stored.site.features
           if f.kind.value == "well"]
    assert got[0] == (True, False) and got[1] == (None, None)
    # the gate: a condition that is not yes, no or null is refused with its words
    wells[0]["shallow_aquifer"] = "sometimes"
    with pytest.raises(CaseFileError,
                       match=r"site\.features\[0\]\.shallow_aquifer must be true or false"):
        _parse(doc)
    # and a condition is a well's: on another kind of feature it is refused
    wells[0]["shallow_aquifer"] = None
    other = next(f for f in doc["site"]["features"] if f["kind"] != "well")
    other["drainage_path"] = True
    with pytest.raises(CaseFileError, match=r"drainage_path is a well's condition .*; a "
                                            rf"{other['kind']} has none"):
        _parse(doc)
