from __future__ import annotations

from collections import Counter
from datetime import date

from inspector_app.services.demo.parcels import STATES, install_demo
from inspector_app.services.workspace import Workspace

TODAY = date(2026, 11, 25)


def test_demo_fills_forty_labelled_parcels_in_varied_states(workspace: Workspace) -> None:
    result = install_demo(workspace, today=TODAY)
    assert result == {"parcels": 40, "created": 40, "lots": 118}
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


def _demo_lots(workspace: Workspace) -> tuple[list[object], list[str | None], list[object]]:
    """The active lot layer's lots as stored (geometry, parcel id), and each parcel's
    absorption area (or holding tank) in feet."""
    import shapely

    from inspector_app.geo.case_shapes import CaseShapes
    from inspector_app.geo.setbacks import located

    rows = workspace.store.query("SELECT l.parcel_id, l.geometry FROM lot_lines l JOIN "
                                 "lot_layers y ON y.id = l.layer_id WHERE y.active = 1 "
                                 "ORDER BY l.fid")
    lots = list(shapely.from_wkb([r["geometry"] for r in rows]))
    sites = []
    for r in rows:
        if r["parcel_id"] is None:
            sites.append(None)
            continue
        sbl = workspace.store.query("SELECT sbl FROM parcels WHERE id = ?",
                                    (r["parcel_id"],))[0]["sbl"]
        case = workspace.load_case(sbl)
        sites.append(located(case, CaseShapes(case))[-1][2])
    return lots, [r["parcel_id"] for r in rows], sites


def test_the_demo_lots_tile_like_a_tax_map(workspace: Workspace) -> None:
    import numpy as np
    import shapely

    install_demo(workspace, today=TODAY)
    lots, parcel_ids, sites = _demo_lots(workspace)
    assert all(g.geom_type == "Polygon" and g.is_valid and g.area > 1000 for g in lots)
    tree = shapely.STRtree(lots)
    first, second = tree.query(lots, predicate="intersects")
    pairs = first < second
    shared = shapely.area(shapely.intersection(np.asarray(lots)[first[pairs]],
                                               np.asarray(lots)[second[pairs]]))
    assert pairs.any() and float(shared.max()) < 0.01  # neighbours touch, none overlap
    # each parcel's own lot holds its absorption area (or holding tank)
    own = [(lot, site) for lot, pid, site in zip(lots, parcel_ids, sites, strict=True)
           if pid is not None]
    assert len(own) == 40 and all(lot.contains(site) for lot, site in own)


def test_the_demo_shows_a_lot_line_and_a_neighbours_well(workspace: Workspace) -> None:
    from inspector_app.services.parcel.sketch import site_map

    install_demo(workspace, today=TODAY)
    wells = workspace.store.query("SELECT p.sbl FROM site_features f JOIN parcels p ON "
                                  "p.id = f.parcel_id WHERE f.kind = 'well'")
    assert 2 <= len(wells) <= 5
    found: dict[str, list[str]] = {}
    for p in workspace.parcels():
        if p["municipality"] != "Town of Canandaigua":
            continue
        for s in workspace.evaluate_parcel(p["sbl"]).suggestions:
            found.setdefault(s.key.rsplit("/", 1)[1], []).append(f"{p['sbl']}: {s.defect}")
    assert any("measured on Invented demo lot lines (not the county's tax map) v1 (accuracy "
               "\u00b12 ft; not a survey)" in d for d in found["property_line"])
    (well,) = found["well"]  # only the neighbour's well is too close
    assert well.startswith("900.01-1-34: ") and "well on parcel 900.01-1-35" in well
    g = site_map(workspace, workspace.load_case("900.01-1-34")).geometry
    assert g is not None and [label for label, _ in g.neighbour_wells] == [
        "Well (900.01-1-35)"]
    # the well lies on its own parcel's lot, and that lot shares a lot line with 34's
    lots, parcel_ids, _ = _demo_lots(workspace)
    by_parcel = dict(zip(parcel_ids, lots, strict=True))
    owner, neighbour = (by_parcel[workspace.parcel_id(s)] for s in ("900.01-1-35",
                                                                     "900.01-1-34"))
    assert owner.boundary.intersection(neighbour.buffer(0.01)).length > 100
    on = [pid for pid, lot in zip(parcel_ids, lots, strict=True)
          if _contains(lot, g.neighbour_wells[0][1])]
    assert on == [workspace.parcel_id("900.01-1-35")]  # on its own lot and on no other
    # every demo well is recorded as captured, on its own lot and no other
    import json

    from inspector_app.geo.crs import lonlat_to_feet

    for r in workspace.store.query("SELECT parcel_id, geometry, capture_method, "
                                   "capture_accuracy_ft FROM site_features WHERE kind = 'well'"):
        assert r["capture_method"] == "gps" and r["capture_accuracy_ft"] > 0
        x, y = lonlat_to_feet(*json.loads(r["geometry"])["coordinates"])
        assert [pid for pid, lot in zip(parcel_ids, lots, strict=True)
                if _contains(lot, (float(x), float(y)))] == [r["parcel_id"]]


def _contains(lot: object, xy: tuple[float, float]) -> bool:
    import shapely

    return bool(shapely.contains_xy(lot, *xy))
