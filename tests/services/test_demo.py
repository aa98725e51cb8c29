from __future__ import annotations

from collections import Counter
from datetime import date

from inspector_app.services.demo import STATES, install_demo
from inspector_app.services.workspace import Workspace

TODAY = date(2026, 11, 25)


def test_demo_fills_forty_labelled_parcels_in_varied_states(workspace: Workspace) -> None:
    result = install_demo(workspace, today=TODAY)
    assert result == {"parcels": 40, "created": 40, "lots": 120}
    parcels = workspace.store.query("SELECT sbl, owner_name, is_demo, municipality FROM parcels")
    assert len(parcels) == 40
    assert all(p["is_demo"] == 1 and p["sbl"].startswith("900.") and
               p["owner_name"].endswith("(demo)") for p in parcels)
    # set in the town whose law is on file, with a few parcels in towns that have none
    towns = Counter(p["municipality"] for p in parcels)
    assert towns["Town of Canandaigua"] == 38
    assert set(towns) - {"Town of Canandaigua"} == {"Town of South Bristol", "Town of Gorham"}

    cases = [workspace.load_case(p["sbl"]) for p in parcels]
    conditions = Counter(c.condition.value for case in cases for c in case.components)
    assert {"acceptable", "substandard", "failed", "not_located"} <= set(conditions)
    assert sum(case.inspection is None for case in cases) >= 3
    assert any(case.etu and any(i.report_received is None for i in case.etu.inspections)
               for case in cases)
    assert any(case.holding_tank_service and not all(
        p.record_received for p in case.holding_tank_service.pump_outs) for case in cases)
    assert any(case.inspection and (TODAY - case.inspection.date).days > 5 * 365 for case in cases)
    assert any(case.dwelling and case.dwelling.living_area_sqft > 4050 for case in cases)
    distances = [case.site.lake_distance_ft for case in cases
                 if case.site and case.site.lake_distance_ft is not None]
    assert min(distances) < 200 < max(distances)
    for case in cases:
        lon, lat = case.parcel.longitude, case.parcel.latitude
        assert -77.40 < lon < -77.20 and 42.65 < lat < 42.92


def test_demo_covers_every_state_and_running_it_again_changes_nothing(
        workspace: Workspace) -> None:
    install_demo(workspace, count=len(STATES), today=TODAY)
    log_size = workspace.store.query("SELECT count(*) AS n FROM change_log")[0]["n"]
    again = install_demo(workspace, count=len(STATES), today=TODAY)
    assert again["created"] == 0
    assert workspace.store.query("SELECT count(*) AS n FROM change_log")[0]["n"] == log_size
