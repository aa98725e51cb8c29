"""§ 202-6 C(2): a system wholly or partially within 200 ft designs at 150 gpd a bedroom, so
the nearest located component decides the design load's zone; § 202-5 D and § 202-7 stay
with the absorption area."""

from __future__ import annotations

import copy
import io
import json
from datetime import date
from pathlib import Path
from typing import Any

import shapely
from pypdf import PdfReader

from inspector_app.casefile import parse_document
from inspector_app.services.letters.register import draft_from_case
from inspector_app.services.parcel.evaluation_json import evaluation_json
from inspector_app.services.reference.shorelines import import_layer
from inspector_app.services.workspace import Workspace
from tests.geo.helpers import X0, Y0, box, lake_with_island, lonlat, write_wgs84

TODAY = date(2026, 11, 25)
SBL = "112.09-1-7.2"


def _geojson(geom: Any) -> dict[str, Any]:
    return json.loads(shapely.to_geojson(lonlat(geom)))


def _case(contract_case: dict[str, Any]) -> dict[str, Any]:
    """3 bedrooms in 1,800 sq ft; the absorption area 250 ft east of a surveyed lake line,
    the septic tank (substandard) 150 ft from it."""
    doc = copy.deepcopy(contract_case)
    doc["dwelling"] = {"bedrooms": 3, "living_area_sqft": 1800}
    for key in ("proposed_work", "etu", "holding_tank_service", "observations", "ahj"):
        doc.pop(key)
    doc["site"] = {"absorption_area": _geojson(box(10_250, 3000, 40, 60))}
    tank = shapely.Point(X0 + 10_150, Y0 + 3030)
    doc["components"] = [
        {"kind": "septic_tank", "condition": "substandard",
         "defects": ["outlet baffle missing"], "geometry": _geojson(tank)},
        {"kind": "absorption_area", "condition": "acceptable", "defects": []}]
    return doc


def test_a_tank_150_ft_from_a_surveyed_line_designs_at_150_gpd(
        workspace: Workspace, contract_case: dict[str, Any], tmp_path: Path) -> None:
    lake = write_wgs84(tmp_path / "lake.geojson", [lake_with_island()])
    import_layer(workspace, lake, name="Surveyed 689.40 contour", accuracy_ft=0)
    case = parse_document(_case(contract_case), source="case.json", today=TODAY)
    e = workspace.evaluate_case(case, as_of=TODAY)
    out = evaluation_json(e, workspace.jurisdiction)

    assert (out["lake"]["zone"], round(out["lake"]["distance_ft"])) == ("beyond_200ft", 250)
    design = out["design"]
    assert (design["design_bedrooms"], design["gpd_per_bedroom"], design["design_load_gpd"],
            design["provisional"]) == (3, 150, 450, False)
    zone = design["zone"]
    assert (zone["zone"], zone["component"], round(zone["distance_ft"]), zone["source"],
            zone["citation"]) == ("within_200ft", "septic_tank", 150, "map", "§ 202-6 C(2)")
    assert "septic tank, 150.0 ft from the lake line" in zone["detail"]
    # § 202-7 C(1) follows the absorption area: the substandard notice, no upgrade required.
    assert out["letters"] == ["substandard_notice"]
    assert out["substandard_requirements"]["citation"] == "§ 202-7 C(1)"
    assert out["substandard_requirements"]["upgrade_required"] is False

    ((kind, pdf),) = draft_from_case(workspace, case, as_of=TODAY)
    assert kind == "substandard_notice"
    text = " ".join(" ".join((page.extract_text() or "").split())
                    for page in PdfReader(io.BytesIO(pdf)).pages)
    assert "NOTICE OF SUBSTANDARD SYSTEM" in text
    assert "The absorption area is more than 200 feet from Canandaigua Lake" in text
    assert "§ 202-7 C(1)" in text and "outlet baffle missing" in text
    assert "No upgrade is required unless the system is in failure" in text


def test_with_the_tank_off_the_map_the_absorption_area_decides(
        workspace: Workspace, contract_case: dict[str, Any], tmp_path: Path) -> None:
    lake = write_wgs84(tmp_path / "lake.geojson", [lake_with_island()])
    import_layer(workspace, lake, name="Surveyed 689.40 contour", accuracy_ft=0)
    doc = _case(contract_case)
    del doc["components"][0]["geometry"]
    e = workspace.evaluate_case(parse_document(doc, source="case.json", today=TODAY),
                                as_of=TODAY)
    assert (e.design.gpd_per_bedroom, e.design.design_load_gpd) == (130, 390)
    assert e.design.zone_basis.component.value == "absorption_area"
    assert e.design.zone_basis.citation == "§ 202-6 C(1)"
