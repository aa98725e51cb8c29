"""A shoreline layer far from the law's water body, or from every located parcel, is not
taken silently: refused with how far it lies, or kept with the confirmation (who, when)."""

from __future__ import annotations

import json
import re
from datetime import date
from pathlib import Path
from typing import Any

import pytest
import shapely

from inspector_app.casefile import parse_document
from inspector_app.paths import resource
from inspector_app.services.reference.shorelines import (
    BUNDLED_FILE,
    FarLayer,
    active_layer_info,
    far_confirmed_text,
    import_layer,
    list_layers,
)
from inspector_app.services.workspace import Workspace
from tests.geo.helpers import TO_FEET, box, lake_with_island, lonlat, write_wgs84

TODAY = date(2026, 11, 25)
FIXTURES = Path(__file__).parents[1] / "fixtures"
# Census TIGER area water of Onondaga County (NAD83): Onondaga Lake, the north end of
# Skaneateles Lake and a pond, about 42 miles east of Canandaigua Lake.
ONONDAGA = FIXTURES / "onondaga_county_areawater.geojson"
AWAY = "lies 219,874 ft (41.6 mi) from Canandaigua Lake, the water body of the law in force"


def _save_located(ws: Workspace, area_ft: Any) -> None:
    doc = json.loads((FIXTURES / "contract_example_case.json").read_text())
    doc["site"] = {"absorption_area": json.loads(shapely.to_geojson(lonlat(area_ft)))}
    ws.save_case(parse_document(doc, source="case.json", today=TODAY), today=TODAY)


def _log_entries(ws: Workspace) -> int:
    return int(ws.store.query("SELECT count(*) AS n FROM change_log")[0]["n"])


def test_a_layer_of_another_lake_is_refused_in_a_folder_without_parcels(
        workspace: Workspace) -> None:
    layers, entries = list_layers(workspace), _log_entries(workspace)
    with pytest.raises(FarLayer) as refused:
        import_layer(workspace, ONONDAGA, name="TIGER water", accuracy_ft=10)
    message = str(refused.value)
    assert message == (
        f"{ONONDAGA}: the shoreline layer {AWAY} (Town of Canandaigua), more than the 5,280 "
        "ft (1.0 mi) within which a layer of it lies: it is not the line this data "
        "folder's lake distances are measured to; if it is the layer you mean, import it "
        "again with --far-ok. Nothing was imported.")
    assert "--far-ok" not in refused.value.in_app
    assert list_layers(workspace) == layers and _log_entries(workspace) == entries


def test_a_confirmed_far_layer_keeps_what_was_confirmed_by_whom_and_when(
        workspace: Workspace) -> None:
    layer = import_layer(workspace, ONONDAGA, name="TIGER water", accuracy_ft=10,
                         far_ok=True)
    far = layer["far_confirmed"]
    assert far["finding"].startswith(AWAY)
    assert (far["by"], far["at"]) == ("k.olmsted", layer["imported_at"])
    assert list_layers(workspace)[-1]["far_confirmed"] == far
    info = active_layer_info(workspace)
    assert info is not None and info["far_confirmed"] == far
    assert far_confirmed_text(info) == (f"imported although it {far['finding']}: confirmed "
                                        f"by k.olmsted at {far['at']}")
    entry = workspace.store.query(
        "SELECT new_value FROM change_log WHERE table_name = 'shoreline_layers' AND "
        "op = 'insert' ORDER BY seq DESC LIMIT 1")[0]
    assert json.loads(entry["new_value"])["far_confirmed"] == far["finding"]


def test_layers_of_canandaigua_lake_are_taken_without_a_question(workspace: Workspace,
                                                                  tmp_path: Path) -> None:
    _save_located(workspace, box(10_150, 3000, 40, 60))
    survey = import_layer(workspace, write_wgs84(tmp_path / "lake.geojson",
                                                 [lake_with_island()]),
                          name="Survey", accuracy_ft=2)
    outline = import_layer(workspace, resource(*BUNDLED_FILE), name="Outline",
                           accuracy_ft=1500)
    assert survey["far_confirmed"] is None and outline["far_confirmed"] is None
    assert far_confirmed_text(survey) is None


def _located_by_onondaga_lake(ws: Workspace) -> None:
    """A parcel located in Onondaga Lake: a slip, warned of when it was stored."""
    x, y = TO_FEET.transform(-76.2050, 43.0990)
    _save_located(ws, shapely.box(x, y, x + 40, y + 60))


def test_a_layer_of_the_lake_far_from_every_located_parcel_is_refused(
        workspace: Workspace, tmp_path: Path) -> None:
    _located_by_onondaga_lake(workspace)
    path = write_wgs84(tmp_path / "lake.geojson", [lake_with_island()])
    with pytest.raises(FarLayer) as refused:
        import_layer(workspace, path, name="Survey", accuracy_ft=2)
    found = re.fullmatch(
        r".*: the shoreline layer lies ([\d,]+) ft \(([\d.]+) mi\) from the nearest parcel "
        r"located in this data folder, more than 79,200 ft \(15.0 mi\): it is not the line.*",
        str(refused.value))
    assert found is not None, str(refused.value)
    feet = float(found[1].replace(",", ""))
    assert 290_000 < feet < 320_000 and float(found[2]) == round(feet / 5280, 1)
    assert "Canandaigua Lake" not in str(refused.value)
    layer = import_layer(workspace, path, name="Survey", accuracy_ft=2, far_ok=True)
    assert layer["far_confirmed"]["finding"] == found[0].split("the shoreline layer ")[1].split(
        ": it is not")[0]


def test_a_layer_by_the_parcels_but_not_of_the_law_s_lake_is_refused(
        workspace: Workspace) -> None:
    _located_by_onondaga_lake(workspace)
    with pytest.raises(FarLayer) as refused:
        import_layer(workspace, ONONDAGA, name="TIGER water", accuracy_ft=10)
    assert AWAY in str(refused.value) and "nearest parcel" not in str(refused.value)


def test_both_are_named_when_both_are_far(workspace: Workspace) -> None:
    _save_located(workspace, box(10_150, 3000, 40, 60))
    with pytest.raises(FarLayer) as refused:
        import_layer(workspace, ONONDAGA, name="TIGER water", accuracy_ft=10)
    both = (re.escape(AWAY) + r" .*, and [\d,]+ ft \([\d.]+ mi\) from the nearest parcel "
            r"located in this data folder, more than 79,200 ft \(15.0 mi\): it is not the line")
    assert re.search(both, str(refused.value)), str(refused.value)
