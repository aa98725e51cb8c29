from __future__ import annotations

import copy
import json
from datetime import date
from pathlib import Path
from typing import Any

import pytest
import shapely

from inspector_app.casefile import parse_document
from inspector_app.domain.vocabulary import CaptureMethod
from inspector_app.errors import InputError
from inspector_app.services.parcel.measure_all import measure_parcels
from inspector_app.services.parcel.site import set_geometry
from inspector_app.services.reference.shorelines import (
    BUNDLED_ACCURACY_FT,
    import_layer,
    list_layers,
)
from inspector_app.services.workspace import Workspace
from tests.geo.helpers import box, lake_with_island, lonlat, write_wgs84

TODAY = date(2026, 11, 25)


def _case(area: Any, **site: Any) -> dict[str, Any]:
    doc = json.loads((Path(__file__).parents[1] / "fixtures" /
                      "contract_example_case.json").read_text())
    doc["site"] = {"absorption_area": json.loads(shapely.to_geojson(lonlat(area))), **site}
    doc["components"] = [{"kind": "septic_tank", "condition": "substandard",
                          "defects": ["outlet baffle missing"]}]
    return doc


def _save(ws: Workspace, doc: dict[str, Any]) -> None:
    ws.save_case(parse_document(doc, source="case.json", today=TODAY), today=TODAY)


def test_a_new_data_folder_starts_with_the_coarse_outline(workspace: Workspace) -> None:
    (layer,) = list_layers(workspace)
    assert layer["active"] and layer["accuracy_ft"] >= 1000
    assert layer["accuracy_ft"] == BUNDLED_ACCURACY_FT
    assert "Natural Earth" in layer["name"] and layer["vertices"] == 23


def test_importing_a_layer_keeps_the_old_one_and_its_measurements(workspace: Workspace,
                                                                  tmp_path: Path) -> None:
    lake = write_wgs84(tmp_path / "lake.geojson", [lake_with_island()])
    first = import_layer(workspace, lake, name="LiDAR 689.40 contour", accuracy_ft=2,
                         source="County GIS 2025")
    assert (first["version"], first["active"]) == (1, True)
    _save(workspace, _case(box(10_150, 3000, 40, 60),
                           absorption_area_capture={"method": "gps", "accuracy_ft": 6}))
    second = import_layer(workspace, lake, name="LiDAR 689.40 contour", accuracy_ft=1)
    layers = list_layers(workspace)
    assert [(x["version"], x["active"]) for x in layers[1:]] == [(1, False), (2, True)]
    assert second["id"] != first["id"]
    assert measure_parcels(workspace, None, today=TODAY)["new_measurements"] == 1
    rows = workspace.store.query(
        "SELECT distance_ft, shoreline_layer_id, shoreline_layer_version, accuracy_ft, "
        "capture_accuracy_ft, measured_by FROM lake_measurements WHERE method = 'map' "
        "ORDER BY created_at")
    assert [(r["shoreline_layer_version"], r["accuracy_ft"], r["capture_accuracy_ft"])
            for r in rows] == [(1, 2, 6), (2, 1, 6)]
    assert all(r["distance_ft"] == pytest.approx(150, abs=0.01) for r in rows)
    assert rows[0]["measured_by"] == "k.olmsted"
    assert measure_parcels(workspace, None, today=TODAY)["new_measurements"] == 0


def test_the_map_decides_only_when_its_accuracy_allows(workspace: Workspace,
                                                       tmp_path: Path) -> None:
    lake = write_wgs84(tmp_path / "lake.geojson", [lake_with_island()])
    import_layer(workspace, lake, name="Survey", accuracy_ft=5)
    _save(workspace, _case(box(10_150, 3000, 40, 60)))
    e = workspace.evaluate_parcel("112.09-1-7.2", as_of=TODAY)
    assert (e.lake.source, e.lake.zone.value, e.design.gpd_per_bedroom) == (
        "map", "within_200ft", 150)
    assert e.lake.layer == "Survey v1"
    import_layer(workspace, lake, name="Rough", accuracy_ft=100)
    e = workspace.evaluate_parcel("112.09-1-7.2", as_of=TODAY)
    assert e.lake.zone.value == "undetermined" and "measure the distance" in e.lake.prompt
    doc = _case(box(10_150, 3000, 40, 60), lake_distance_ft=230.0, lake_distance_method="tape")
    _save(workspace, doc)
    e = workspace.evaluate_parcel("112.09-1-7.2", as_of=TODAY)
    assert (e.lake.source, e.lake.zone.value) == ("field", "beyond_200ft")
    methods = {r["method"] for r in workspace.store.query("SELECT method FROM lake_measurements")}
    assert methods == {"map", "tape"}  # both kept


def test_setback_shortfalls_become_suggestions(workspace: Workspace, tmp_path: Path) -> None:
    lake = write_wgs84(tmp_path / "lake.geojson", [lake_with_island()])
    import_layer(workspace, lake, name="Survey", accuracy_ft=0)
    area = box(10_500, 3000, 40, 60)
    doc = _case(area)
    doc["components"].append({"kind": "absorption_area", "condition": "acceptable",
                              "defects": []})
    _save(workspace, doc)
    well = lonlat(shapely.Point(area.bounds[2] + 80, 3030 + area.bounds[1] - 3000))
    set_geometry(workspace, "112.09-1-7.2", "well", json.loads(shapely.to_geojson(well)),
                 method=CaptureMethod.GPS, accuracy_ft=5, today=TODAY)
    tank = lonlat(shapely.Point(area.bounds[2] + 40, area.bounds[1] + 30))
    set_geometry(workspace, "112.09-1-7.2", "component:septic_tank#1",
                 json.loads(shapely.to_geojson(tank)), method=CaptureMethod.GPS, accuracy_ft=None,
                 today=TODAY)
    keys = {s.key: s for s in workspace.evaluate_parcel("112.09-1-7.2", as_of=TODAY).suggestions}
    assert set(keys) == {"setback/absorption_area#1/well", "setback/septic_tank#1/well"}
    assert "80.0 ft from the well" in keys["setback/absorption_area#1/well"].defect
    assert keys["setback/absorption_area#1/well"].defect == (
        "80.0 ft from the well, measured on the site map (accuracy \u00b15 ft; not a survey); "
        "100 ft required")
    assert keys["setback/septic_tank#1/well"].defect.endswith("; 50 ft required")
    with pytest.raises(InputError, match="no #2 to locate"):
        set_geometry(workspace, "112.09-1-7.2", "component:septic_tank#2",
                     json.loads(shapely.to_geojson(tank)), method=CaptureMethod.GPS,
                     accuracy_ft=None)


def test_site_geometry_outside_the_projection_is_refused_clearly(workspace: Workspace,
                                                                  contract_case: dict) -> None:
    doc = copy.deepcopy(contract_case)
    doc["site"]["absorption_area"]["coordinates"] = [[[-81.0, 27.0], [-81.0, 27.1],
                                                      [-81.1, 27.0], [-81.0, 27.0]]]
    with pytest.raises(InputError, match="parcel 112.09-1-7.2: site geometry: coordinates lie "
                                         "outside the area of use"):
        _save(workspace, doc)
    assert workspace.parcels() == []


def test_the_distance_work_list_says_whether_the_capture_or_the_layer_leaves_it_open(
        workspace: Workspace, tmp_path: Path) -> None:
    """An absorption area 215 ft from a ±5 ft line, captured by GPS to ±30 ft, is placed
    180-250 ft away: the capture, not the layer, leaves the zone open, and the list says so."""
    from inspector_app.services.lists.worklists import worklists, worklists_one_by_one

    lake = write_wgs84(tmp_path / "lake.geojson", [lake_with_island()])
    import_layer(workspace, lake, name="Survey", accuracy_ft=5)
    _save(workspace, _case(box(10_215, 3000, 40, 60),
                           absorption_area_capture={"method": "gps", "accuracy_ft": 30}))

    def needed() -> dict[str, Any]:
        (item,) = worklists(workspace, as_of=TODAY, names=("lake-distance-needed",))[
            "lake-distance-needed"]
        assert worklists_one_by_one(workspace, as_of=TODAY, names=(
            "lake-distance-needed",))["lake-distance-needed"] == [item]
        return item

    item = needed()
    assert (item["distance_ft"], item["layer"], item["layer_accuracy_ft"],
            item["capture_accuracy_ft"], item["measured_from"]) == (
        pytest.approx(215, abs=0.01), "Survey v1", 5, 30, "absorption_area")
    assert item["detail"] == (
        "the map's 215.0 ft cannot settle the 200 ft question: the absorption area was "
        "captured to ±30 ft (the layer, ±5 ft, would settle it): capture the absorption area "
        "more precisely, or measure the distance in the field")
    import_layer(workspace, lake, name="Rough", accuracy_ft=100)
    assert needed()["detail"] == (
        "the map's 215.0 ft cannot settle the 200 ft question: the layer Rough v1 is ±100 ft "
        "and the absorption area was captured to ±30 ft; measure it in the field")
    _save(workspace, _case(box(10_215, 3000, 40, 60)))  # no capture accuracy recorded
    assert needed()["detail"] == ("the map's 215.0 ft cannot settle the 200 ft question: the "
                                  "layer Rough v1 is ±100 ft; measure it in the field")
