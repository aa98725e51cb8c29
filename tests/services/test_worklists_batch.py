"""Work lists read in one pass equal those of every parcel loaded and assessed on its own."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, timedelta
from typing import Any

import pytest
import shapely.geometry

from inspector_app.domain.case import Case, SiteFeature
from inspector_app.domain.vocabulary import SiteFeatureKind
from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.lists.worklists import WORKLISTS, worklists, worklists_one_by_one
from inspector_app.services.workspace import Workspace
from inspector_app.storage.cases import load_case, load_cases

TODAY = date(2026, 11, 25)
AS_OF = (date(2019, 3, 1), TODAY, TODAY + timedelta(days=2 * 365),
         TODAY + timedelta(days=6 * 365))


def _edited(ws: Workspace) -> None:
    """Edits that leave soft-deleted rows, a second inspection and a town with no law."""
    sbls = [p["sbl"] for p in ws.parcels()]
    cases = [ws.load_case(s) for s in sbls]
    inspected = [c for c in cases if c.inspection is not None and len(c.components) > 1]
    first, second = inspected[0], inspected[1]
    assert first.inspection is not None
    later = replace(first.inspection, date=first.inspection.date + timedelta(days=30))
    ws.save_case(replace(first, components=first.components[:-1], inspection=later),
                 today=TODAY)
    ws.save_case(replace(second, parcel=replace(second.parcel, municipality="Town of Gorham")),
                 today=TODAY)
    bare = next(c for c in cases if c.site is not None and c is not first and c is not second)
    ws.save_case(replace(bare, site=None, etu=None, holding_tank_service=None, notice=None),
                 today=TODAY)
    located = [c for c in cases if c.site is not None and c.site.absorption_area is not None
               and c.components and c is not first and c is not second and c is not bare]
    for n, case in enumerate(located[:6]):
        ws.save_case(_located(case, n), today=TODAY)


def _located(case: Case, n: int) -> Case:
    """The case with a well, a dwelling and a property line beside its absorption area,
    and its components drawn."""
    assert case.site is not None and case.site.absorption_area is not None
    lon, lat = shapely.geometry.shape(case.site.absorption_area).centroid.coords[0]

    def point(east: float, north: float) -> dict[str, Any]:
        return {"type": "Point", "coordinates": [round(lon + east, 7), round(lat + north, 7)]}

    features = (
        SiteFeature(kind=SiteFeatureKind.WELL, geometry=point(0.0004 * (n + 1), 0.0001),
                    capture_accuracy_ft=3.0),
        SiteFeature(kind=SiteFeatureKind.DWELLING, geometry=point(-0.0002, 0.0003)),
        SiteFeature(kind=SiteFeatureKind.PROPERTY_LINE, geometry={
            "type": "LineString", "coordinates": [point(-0.001, -0.0005)["coordinates"],
                                                  point(0.001, -0.0005)["coordinates"]]}))
    components = tuple(replace(c, geometry=point(0.00005 * i, -0.00005 * i))
                       for i, c in enumerate(case.components))
    return replace(case, site=replace(case.site, features=features), components=components)


@pytest.fixture
def demo(workspace: Workspace) -> Workspace:
    install_demo(workspace, count=40, today=TODAY)
    _edited(workspace)
    return workspace


def test_cases_read_together_equal_cases_read_one_by_one(demo: Workspace) -> None:
    conn = demo.store.conn
    together = load_cases(conn)
    ids = [r["id"] for r in demo.store.query("SELECT id FROM parcels WHERE deleted_at IS NULL")]
    assert sorted(together) == sorted(ids) and len(ids) == 40
    one_by_one: dict[str, Case] = {i: load_case(conn, i) for i in ids}
    assert together == one_by_one


@pytest.mark.parametrize("as_of", AS_OF, ids=lambda d: d.isoformat())
def test_worklists_equal_the_one_by_one_evaluation(demo: Workspace, as_of: date) -> None:
    fast = worklists(demo, as_of=as_of)
    slow = worklists_one_by_one(demo, as_of=as_of)
    assert list(fast) == list(WORKLISTS)
    assert fast == slow
    assert sum(len(items) for items in fast.values()) > 0
    assert any(i["municipality"] == "Town of Gorham" for i in fast["no-law-on-file"])
    # the parcel left with no site has its lot's distance as a first estimate
    assert any(i["lot_estimate"] is not None for i in fast["lake-distance-needed"])


def test_one_list_alone_equals_the_same_list_among_all(demo: Workspace) -> None:
    alone = worklists(demo, as_of=TODAY, names=("etu-reports",))
    assert alone == {"etu-reports": worklists_one_by_one(demo, as_of=TODAY)["etu-reports"]}


def test_distances_on_geometries_projected_together_equal_those_projected_one_by_one(
        demo: Workspace) -> None:
    from inspector_app.geo.case_shapes import measure_cases, project_cases
    from inspector_app.geo.setbacks import separations
    from inspector_app.services.reference.shorelines import (
        active_layer,
        component_map_distances,
        map_distance,
    )

    cases = list(load_cases(demo.store.conn).values())
    projected = project_cases(cases)
    layer = active_layer(demo)
    assert layer is not None
    measure_cases(projected, layer.lake)
    measured = separated = 0
    for case, shapes in zip(cases, projected, strict=True):
        assert separations(case, shapes) == separations(case)
        separated += bool(separations(case))
        found, alone = map_distance(demo, case, shapes=shapes), map_distance(demo, case)
        assert (found is None) == (alone is None)
        if found is not None and alone is not None:
            measured += 1
            assert found[0] == alone[0]
            assert found[1].nearest_lonlat() == alone[1].nearest_lonlat()
        assert (component_map_distances(demo, case, shapes=shapes)
                == component_map_distances(demo, case))
    assert measured > 20 and separated >= 6


def test_a_refused_geometry_among_many_is_named_with_its_parcel(demo: Workspace) -> None:
    from inspector_app.errors import InputError
    from inspector_app.geo.case_shapes import project_cases
    from inspector_app.geo.setbacks import separations

    cases = [c for c in load_cases(demo.store.conn).values() if c.site and c.site.features]
    assert len(cases) >= 2
    n = len(cases) // 2
    bad = cases[n]
    assert bad.site is not None
    feature = replace(bad.site.features[0], geometry={"type": "Point",
                                                      "coordinates": [42.85, -77.28]})
    swapped = replace(bad, site=replace(bad.site, features=(feature, *bad.site.features[1:])))
    shapes = project_cases([*cases[:n], swapped, *cases[n + 1:]])
    for case, s in zip(cases[:n] + cases[n + 1:], shapes[:n] + shapes[n + 1:], strict=True):
        assert separations(case, s) == separations(case)
    with pytest.raises(InputError, match=rf"parcel {bad.parcel.sbl}: site.features\[0\]"
                                         r".geometry: latitude and longitude look swapped"):
        separations(swapped, shapes[n])


def test_measuring_every_parcel_at_once_records_what_each_parcel_measures(
        demo: Workspace) -> None:
    from inspector_app.paths import resource
    from inspector_app.services.parcel.measure_all import measure_parcels
    from inspector_app.services.reference.shorelines import BUNDLED_FILE, import_layer, map_distance

    import_layer(demo, resource(*BUNDLED_FILE), name="Second", accuracy_ft=40)
    sbls = [p["sbl"] for p in demo.parcels()]
    cases = {s: demo.load_case(s) for s in sbls}
    expected = {s: found[0].distance_ft for s, c in cases.items()
                if (found := map_distance(demo, c)) is not None}
    done = measure_parcels(demo, None, today=TODAY)
    assert done["new_measurements"] == len(expected) == done["parcels"] > 20
    rows = demo.store.query(
        "SELECT p.sbl, m.distance_ft, m.capture_accuracy_ft FROM lake_measurements m JOIN "
        "parcels p ON p.id = m.parcel_id WHERE m.method = 'map' AND m.accuracy_ft = 40")
    assert {r["sbl"]: r["distance_ft"] for r in rows} == expected
    for r in rows:
        site = cases[r["sbl"]].site
        assert site is not None
        capture = site.absorption_area_capture if site.absorption_area else (
            site.holding_tank_capture)
        assert r["capture_accuracy_ft"] == (None if capture is None else capture.accuracy_ft)
    assert measure_parcels(demo, None, today=TODAY)["new_measurements"] == 0
    assert measure_parcels(demo, sbls[:5], today=TODAY)["new_measurements"] == 0
    import_layer(demo, resource(*BUNDLED_FILE), name="Third", accuracy_ft=50)
    measured = next(iter(expected))
    assert measure_parcels(demo, [measured, measured], today=TODAY)["new_measurements"] == 1


def test_cases_read_in_chunks_equal_cases_read_one_by_one(demo: Workspace) -> None:
    conn = demo.store.conn
    ids = [r["id"] for r in demo.store.query("SELECT id FROM parcels WHERE deleted_at IS NULL")]
    for part in (ids[:7], ids[7:], [], ids[3:4]):
        assert load_cases(conn, parcel_ids=part) == {i: load_case(conn, i) for i in part}


@pytest.mark.parametrize("as_of", AS_OF, ids=lambda d: d.isoformat())
def test_overview_in_chunks_equals_every_parcel_on_its_own(demo: Workspace, as_of: date
                                                           ) -> None:
    from inspector_app.services.lists.overview import overview, overview_one_by_one

    sbls = [p["sbl"] for p in demo.parcels()]
    whole = overview(demo, as_of=as_of)
    chunked = [row for i in range(0, len(sbls), 9)
               for row in overview(demo, as_of=as_of, sbls=sbls[i:i + 9])]
    alone = {r["sbl"]: r for r in overview_one_by_one(demo, as_of=as_of)}
    assert len(whole) == len(alone) == 40
    assert sorted(whole, key=lambda r: r["sbl"]) == sorted(chunked, key=lambda r: r["sbl"])
    assert {r["sbl"]: r for r in whole} == alone
    assert any(r["flags"]["no_law"] for r in whole)
