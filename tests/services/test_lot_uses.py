"""What the tax-parcel lot lines are used for: property-line separations measured against
the lot line (and kept as evidence by `measure`), the wells recorded on neighbouring
parcels, the lot's distance to the lake as a first estimate in the work lists, and the lot
and its neighbours on the site map."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any

import pytest
import shapely

from inspector_app.domain.case import Case, Component, Parcel, Site, SiteFeature
from inspector_app.domain.vocabulary import ComponentKind, Condition, SiteFeatureKind
from inspector_app.services.lists.overview import overview, overview_one_by_one
from inspector_app.services.lists.worklists import worklists, worklists_one_by_one
from inspector_app.services.parcel.measure_all import measure_parcels
from inspector_app.services.parcel.sketch import site_map
from inspector_app.services.reference.lot_lines import activate_lot_layer, import_lot_lines
from inspector_app.services.reference.shorelines import import_layer
from inspector_app.services.workspace import Workspace
from tests.geo.helpers import X0, Y0, box, lonlat, write_wgs84
from tests.services.lot_files import write_lots

TODAY = date(2026, 11, 25)
TOWN = "Town of Canandaigua"
A, B, C, D = "100.00-1-1", "100.00-1-2", "100.00-1-3", "100.00-1-4"
# The lake's east shore runs north-south 1,000 ft west of X0.
LAKE = box(-6000, -3000, 5000, 8000)
# The lots: A and its neighbour B side by side, C 10 ft from the lake, D far from it.
LOTS = {A: box(0, 0, 100, 200), B: box(100, 0, 100, 200), C: box(-990, 0, 100, 200),
        D: box(2000, 0, 100, 200)}


def _gj(geom: Any) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(shapely.to_geojson(lonlat(geom)))
    return out


def _pt(x: float, y: float) -> dict[str, Any]:
    return _gj(shapely.Point(X0 + x, Y0 + y))


def _parcel(sbl: str) -> Parcel:
    return Parcel(sbl=sbl, municipality=TOWN, site_address=f"{sbl} West Lake Rd",
                  owner_name="A. Owner",
                  owner_mailing_address=("PO Box 1", "Canandaigua NY 14424"))


def _case_a(tank_y: float = 8.0, wells: tuple[dict[str, Any], ...] = ()) -> Case:
    """Parcel A: its absorption area 30 ft inside its lot, its septic tank `tank_y` ft
    north of the lot's south line."""
    return Case(parcel=_parcel(A),
                site=Site(absorption_area=_gj(box(30, 100, 40, 40)), features=tuple(
                    SiteFeature(kind=SiteFeatureKind.WELL, geometry=w) for w in wells)),
                components=(Component(kind=ComponentKind.SEPTIC_TANK,
                                      condition=Condition.ACCEPTABLE,
                                      geometry=_pt(50, tank_y)),
                            Component(kind=ComponentKind.ABSORPTION_AREA,
                                      condition=Condition.ACCEPTABLE)))


def _case_b(well: bool = True) -> Case:
    """Parcel B, the neighbour: its well 60 ft east of A's absorption area."""
    return Case(parcel=_parcel(B), site=Site(features=(
        SiteFeature(kind=SiteFeatureKind.WELL, geometry=_pt(130, 120),
                    capture_accuracy_ft=2.0),) if well else ()))


def _lots(ws: Workspace, tmp_path: Path, *, accuracy_ft: float = 1.0,
          moved: dict[str, Any] | None = None) -> dict[str, Any]:
    lots = {**LOTS, **(moved or {})}
    path = write_lots(tmp_path / "lots.gpkg", list(lots.values()), list(lots))
    return import_lot_lines(ws, path, name="County lots", accuracy_ft=accuracy_ft)


@pytest.fixture
def ws(workspace: Workspace, tmp_path: Path) -> Workspace:
    import_layer(workspace, write_wgs84(tmp_path / "lake.geojson", [LAKE]), name="Survey",
                 accuracy_ft=0)
    workspace.save_case(_case_a(), today=TODAY)
    workspace.save_case(_case_b(well=False), today=TODAY)
    for sbl in (C, D):
        workspace.save_case(Case(parcel=_parcel(sbl)), today=TODAY)
    return workspace


def _setbacks(ws: Workspace, sbl: str = A) -> dict[str, str]:
    e = ws.evaluate_parcel(sbl, as_of=TODAY)
    return {s.key: s.defect for s in e.suggestions if s.key.startswith("setback/")}


def test_a_component_8_ft_from_the_lot_line_is_a_property_line_shortfall(
        ws: Workspace, tmp_path: Path) -> None:
    assert _setbacks(ws) == {}  # no lot layer: nothing to measure against
    _lots(ws, tmp_path, accuracy_ft=1.0)
    e = ws.evaluate_parcel(A, as_of=TODAY)
    (s,) = [s for s in e.suggestions if s.key.startswith("setback/")]
    assert s.key == "setback/septic_tank#1/property_line"
    assert s.defect == ("8.0 ft from the property line, measured on County lots v1 (accuracy "
                        "\u00b11 ft; not a survey); 10 ft required")
    law = ws.law_for(TOWN)
    assert s.citation == law.cite("setbacks") and s.section == law.citations["setbacks"]
    lines = {(x.component, x.target): x for x in e.separations}
    area = lines[(ComponentKind.ABSORPTION_AREA, "property_line")]
    assert (area.distance_ft, area.accuracy_ft, area.source) == (
        30.0, 1.0, "lot line, County lots v1")
    # `evaluate` shows what the setback checks went by, with what the table requires
    from inspector_app.services.parcel.evaluation_json import evaluation_json

    shown = {(x["component"], x["target"]): x for x in evaluation_json(e, law)["separations"]}
    assert shown[("septic_tank", "property_line")] == {
        "component": "septic_tank", "ordinal": 1, "target": "property_line",
        "distance_ft": 8.0, "accuracy_ft": 1.0, "source": "lot line, County lots v1",
        "required_ft": 10, "citation": law.cite("setbacks"),
        "required_basis": "10 ft (75-A Table 2, septic tank or watertight ETU to property "
                          "line)"}


def test_a_shortfall_within_the_lot_lines_accuracy_is_not_proven(
        ws: Workspace, tmp_path: Path) -> None:
    _lots(ws, tmp_path, accuracy_ft=5.0)
    assert _setbacks(ws) == {}  # 8 ft ± 5 ft: may be 13 ft
    _lots(ws, tmp_path, accuracy_ft=1.0)
    ws.save_case(_case_a(tank_y=12.0), today=TODAY)
    assert _setbacks(ws) == {}
    ws.save_case(_case_a(tank_y=-15.0), today=TODAY)  # south of the lot, outside it
    e = ws.evaluate_parcel(A, as_of=TODAY)
    (tank,) = [x for x in e.separations if x.component is ComponentKind.SEPTIC_TANK]
    assert (tank.distance_ft, tank.source) == (
        0.0, "lot line, County lots v2: outside the lot line")
    assert _setbacks(ws)["setback/septic_tank#1/property_line"].startswith("0.0 ft from")


def test_a_neighbours_well_within_the_setback_is_a_separation_and_on_the_map(
        ws: Workspace, tmp_path: Path) -> None:
    _lots(ws, tmp_path, accuracy_ft=1.0)
    assert "setback/absorption_area#1/well" not in _setbacks(ws)  # the index is built
    ws.save_case(_case_b(), today=TODAY)  # a new well on the neighbour's record
    found = _setbacks(ws)
    assert found["setback/absorption_area#1/well"] == (
        f"60.0 ft from the well, measured on well on parcel {B} (accuracy \u00b12 ft; not a "
        "survey); 100 ft required")
    e = ws.evaluate_parcel(A, as_of=TODAY)
    (well,) = [x for x in e.separations if x.target == "well"
               and x.component is ComponentKind.ABSORPTION_AREA]
    assert well.accuracy_ft == 2.0  # the well's capture and the area's (none)
    g = site_map(ws, ws.load_case(A)).geometry
    assert g is not None
    ((label, (x, y)),) = g.neighbour_wells
    assert label == f"Well ({B})" and (round(x - X0), round(y - Y0)) == (130, 120)
    # the lots near A's (C's, on the lake shore the window reaches, is 890 ft away)
    assert [sbl for sbl, _ in g.neighbours] == [B]
    assert g.lot and {(round(px - X0), round(py - Y0)) for px, py in g.lot[0]} == {
        (0, 0), (100, 0), (100, 200), (0, 200)}
    # the neighbour's own evaluation does not find its own well again
    assert not any(x.source.startswith("well on parcel") for x in
                   ws.evaluate_parcel(B, as_of=TODAY).separations)
    # the same well recorded on A's own record too: one separation, its own record's
    ws.save_case(_case_a(wells=(_pt(130, 120),)), today=TODAY)
    e = ws.evaluate_parcel(A, as_of=TODAY)
    wells = [x for x in e.separations if x.target == "well"
             and x.component is ComponentKind.ABSORPTION_AREA]
    assert [(x.distance_ft, x.source) for x in wells] == [(60.0, "site map")]
    assert [s.key for s in e.suggestions].count("setback/absorption_area#1/well") == 1
    g = site_map(ws, ws.load_case(A)).geometry
    assert g is not None and [label for label, _ in g.neighbour_wells] == [f"Well ({B})"]
    # the neighbour's well deleted: gone from the separations and the map
    ws.save_case(_case_a(), today=TODAY)
    ws.save_case(_case_b(well=False), today=TODAY)
    assert "setback/absorption_area#1/well" not in _setbacks(ws)
    g = site_map(ws, ws.load_case(A)).geometry
    assert g is not None and g.neighbour_wells == ()


def test_a_well_beyond_the_largest_well_setback_is_not_a_neighbours_well(
        ws: Workspace) -> None:
    far = Case(parcel=_parcel(D), site=Site(features=(SiteFeature(
        kind=SiteFeatureKind.WELL, geometry=_pt(70 + 160, 120)),)))
    ws.save_case(far, today=TODAY)  # 160 ft from A's area: no component asks that much
    e = ws.evaluate_parcel(A, as_of=TODAY)
    assert not any(x.target == "well" for x in e.separations)


def test_measure_keeps_the_lot_line_separations_once_per_layer_version(
        ws: Workspace, tmp_path: Path) -> None:
    def rows() -> list[tuple[Any, ...]]:
        return [tuple(r.values()) for r in ws.store.query(
            "SELECT component, ordinal, distance_ft, accuracy_ft, lot_layer_version, "
            "measured_by FROM lot_measurements ORDER BY lot_layer_version, component")]

    first = _lots(ws, tmp_path, accuracy_ft=1.0)
    # saves that move nothing located keep nothing (on a laptop, whose kit holds none of
    # the office's rows, they would repeat them)
    case = ws.load_case(A)
    ws.save_case(replace(case, parcel=replace(case.parcel, owner_name="B. Owner")),
                 today=TODAY)
    pid, before, _ = ws.open_for_edit(A)
    ws.save_edit(pid, before, replace(before, parcel=replace(before.parcel,
                                                             owner_name="C. Owner")))
    assert rows() == []
    done = measure_parcels(ws, None, today=TODAY)
    assert done["lot_measurements"] == 2 and {"layer", "parcels", "new_measurements",
                                              "unchanged"} <= set(done)
    assert rows() == [("absorption_area", 1, 30.0, 1.0, 1, "k.olmsted"),
                      ("septic_tank", 1, 8.0, 1.0, 1, "k.olmsted")]
    assert measure_parcels(ws, None, today=TODAY)["lot_measurements"] == 0
    assert measure_parcels(ws, [A], today=TODAY)["lot_measurements"] == 0
    ws.save_case(_case_a(tank_y=9.0), today=TODAY)  # the save keeps what changed
    assert len(rows()) == 3
    moved_nothing = _case_a(tank_y=9.0)
    ws.save_case(replace(moved_nothing, parcel=replace(moved_nothing.parcel,
                                                       owner_name="B. Owner")), today=TODAY)
    assert len(rows()) == 3
    assert measure_parcels(ws, None, today=TODAY)["lot_measurements"] == 0
    # a new version of the layer, A's lot redrawn: measured again; what was measured stays
    second = _lots(ws, tmp_path, accuracy_ft=2.0, moved={A: box(0, -2, 100, 202)})
    assert second["version"] == 2 and second["id"] != first["id"]
    assert measure_parcels(ws, None, today=TODAY)["lot_measurements"] == 2
    assert rows() == [("absorption_area", 1, 30.0, 1.0, 1, "k.olmsted"),
                      ("septic_tank", 1, 8.0, 1.0, 1, "k.olmsted"),
                      ("septic_tank", 1, 9.0, 1.0, 1, "k.olmsted"),
                      ("absorption_area", 1, 30.0, 2.0, 2, "k.olmsted"),
                      ("septic_tank", 1, 11.0, 2.0, 2, "k.olmsted")]
    assert measure_parcels(ws, None, today=TODAY)["lot_measurements"] == 0


def test_measuring_all_again_skips_only_the_parcels_that_cannot_have_changed(
        ws: Workspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from inspector_app.services.parcel import separations

    _lots(ws, tmp_path, accuracy_ft=1.0)
    assert measure_parcels(ws, None, today=TODAY)["lot_measurements"] == 2
    measured: list[str] = []
    original = separations.record_lot_measurements
    monkeypatch.setattr(separations, "record_lot_measurements",
                        lambda w, ws, pid, *a, **k: measured.append(pid) or original(
                            w, ws, pid, *a, **k))
    assert measure_parcels(ws, None, today=TODAY)["lot_measurements"] == 0
    assert measured == []  # nothing changed since: not measured again
    # a component moved by a write that keeps no lot measurement (as a sync import does)
    pid = ws.parcel_id(A)
    with ws.store.transaction() as w:
        (tank,) = [r[0] for r in w.conn.execute(
            "SELECT id FROM components WHERE parcel_id = ? AND kind = 'septic_tank'", (pid,))]
        w.update("components", tank, {"geometry": _pt(50, 5)})
    assert measure_parcels(ws, None, today=TODAY)["lot_measurements"] == 1
    assert measured == [pid]


def test_the_lot_estimate_is_a_first_estimate_never_the_distance(
        ws: Workspace, tmp_path: Path) -> None:
    _lots(ws, tmp_path, accuracy_ft=1.0)
    lists = worklists(ws, as_of=TODAY)
    assert lists == worklists_one_by_one(ws, as_of=TODAY)
    needed = lists["lake-distance-needed"]
    assert [i["sbl"] for i in needed] == [C, B, D]  # within first, then beyond
    c, b, d = needed
    assert c["distance_ft"] is None and c["lot_estimate"] == {
        "distance_ft": 10.0, "accuracy_ft": 1.0, "layer": "County lots v1",
        "words": "lot within 200 ft"}
    assert d["lot_estimate"]["words"] == "lot beyond 200 ft"
    assert d["lot_estimate"]["distance_ft"] == 3000.0
    assert b["lot_estimate"] == {"distance_ft": 1100.0, "accuracy_ft": 1.0,
                                 "layer": "County lots v1", "words": "lot beyond 200 ft"}
    assert A not in {i["sbl"] for i in needed}  # measured on the map: beyond
    rows = {r["sbl"]: r for r in overview(ws, as_of=TODAY)}
    assert rows == {r["sbl"]: r for r in overview_one_by_one(ws, as_of=TODAY)}
    assert (rows[C]["distance_ft"], rows[C]["zone"]) == (None, "undetermined")
    assert rows[C]["lot_estimate"]["words"] == "lot within 200 ft"
    assert rows[A]["lot_estimate"] is None  # it has a distance
    assert ws.evaluate_parcel(C, as_of=TODAY).lake.distance_ft is None


def test_the_kept_summaries_go_stale_with_the_lot_layer(ws: Workspace, tmp_path: Path
                                                         ) -> None:
    def words() -> dict[str, str | None]:
        lists = worklists(ws, as_of=TODAY)
        assert lists == worklists_one_by_one(ws, as_of=TODAY)
        return {i["sbl"]: (i["lot_estimate"] or {}).get("words")
                for i in lists["lake-distance-needed"]}

    assert words() == {B: None, C: None, D: None}
    first = _lots(ws, tmp_path, accuracy_ft=1.0)
    assert words()[C] == "lot within 200 ft"
    _lots(ws, tmp_path, accuracy_ft=1.0, moved={C: box(-650, 0, 100, 200)})
    assert words()[C] == "lot beyond 200 ft"  # 350 ft
    _lots(ws, tmp_path, accuracy_ft=200.0)
    assert words()[C] == "lot may be within 200 ft"  # 10 ft, but ± 200 ft
    activate_lot_layer(ws, first["id"])
    assert words()[C] == "lot within 200 ft"


def test_the_report_lists_the_separations_and_draws_the_lot_line(
        ws: Workspace, tmp_path: Path) -> None:
    from reportlab.graphics.shapes import String

    from inspector_app.documents.render import _sketch_flowable, register_fonts
    from inspector_app.services.letters.register import compose
    from inspector_app.services.parcel.sketch import site_sketch

    _lots(ws, tmp_path, accuracy_ft=1.0)
    ws.save_case(_case_b(), today=TODAY)
    letter = compose(ws, A, "report_of_findings", as_of=TODAY)
    text = json.dumps([getattr(b, "items", None) or getattr(b, "text", None) or
                       getattr(b, "rows", None) for b in letter.blocks])
    assert "septic tank #1 to property line: 8.0 ft (lot line, County lots v1)" in text
    assert f"absorption area #1 to well: 60.0 ft (well on parcel {B})" in text
    sketch = site_sketch(ws, ws.load_case(A), ws.evaluate_parcel(A, as_of=TODAY).lake)
    assert sketch is not None and sketch.lot and sketch.lot_label == (
        "Lot line: County lots v1 (±1 ft)")
    register_fonts()
    drawn = _sketch_flowable(sketch, 400).getContents()
    assert "Lot line: County lots v1 (±1 ft)" in [s.text for s in drawn if isinstance(s, String)]


# An 87-acre lakefront lot (1,950 ft square), its west line on the lake shore.
BIG_LOT = box(-1000, 0, 1950, 1950)


def _inside(inner: tuple[float, ...], outer: tuple[float, ...]) -> bool:
    return (outer[0] <= inner[0] and outer[1] <= inner[1] and inner[2] <= outer[2]
            and inner[3] <= outer[3])


def test_a_large_lot_with_nothing_drawn_is_drawn_whole_and_framed(
        ws: Workspace, tmp_path: Path) -> None:
    assert round(BIG_LOT.area / 43_560) == 87
    _lots(ws, tmp_path, moved={D: BIG_LOT})
    g = site_map(ws, ws.load_case(D)).geometry
    assert g is not None
    # the lot line whole: one closed ring through the lot's four corners
    (ring,) = g.lot
    assert ring[0] == ring[-1]
    assert {(round(x - X0), round(y - Y0)) for x, y in ring} == {
        (-1000, 0), (950, 0), (950, 1950), (-1000, 1950)}
    # nothing drawn: the first view is the lot, with a margin; the window holds it
    assert _inside(BIG_LOT.bounds, g.first_view) and _inside(g.first_view, g.window)
    assert g.first_view[2] - g.first_view[0] < 1950 * 1.5


def test_a_large_lot_with_its_system_drawn_frames_the_system_and_holds_the_lot(
        ws: Workspace, tmp_path: Path) -> None:
    _lots(ws, tmp_path, moved={D: BIG_LOT})
    area = box(100, 900, 40, 60)
    ws.save_case(Case(parcel=_parcel(D), site=Site(absorption_area=_gj(area))),
                 today=TODAY)
    g = site_map(ws, ws.load_case(D)).geometry
    assert g is not None and g.frame is not None
    # first the system and its line to the lake (1,100 ft west), not the whole lot
    assert _inside(area.bounds, g.first_view)
    assert not _inside(BIG_LOT.bounds, g.first_view)
    # the window (what Fit shows) holds the whole lot and the first view
    assert _inside(BIG_LOT.bounds, g.window) and _inside(g.first_view, g.window)
    (ring,) = g.lot
    assert ring[0] == ring[-1] and len(ring) == 5
    # the report's sketch, which does not zoom, keeps to the system
    from inspector_app.services.parcel.sketch import site_sketch

    sketch = site_sketch(ws, ws.load_case(D))
    assert sketch is not None and sketch.window == g.first_view


def test_the_site_maps_setback_lines_are_the_evaluations_separations(
        ws: Workspace, tmp_path: Path) -> None:
    import math

    from inspector_app.domain.rules import measured_how

    _lots(ws, tmp_path, accuracy_ft=1.0)
    ws.save_case(_case_b(), today=TODAY)  # the neighbour's well, 60 ft from A's area
    e = ws.evaluate_parcel(A, as_of=TODAY)
    g = site_map(ws, ws.load_case(A)).geometry
    assert g is not None
    wanted = {s.component.value.replace("_", " ") + ": " + s.target: s
              for s in e.separations if s.target in ("property_line", "well")}
    assert len(g.dimensions) == len(wanted) == 4  # tank and area, to lot line and well
    suggested = {x.key for x in e.suggestions}
    for d in g.dimensions:
        (s,) = [s for key, s in wanted.items() if d.words.startswith(key.split(": ")[0])
                and f"ft from the {s.target.replace('_', ' ')}, {measured_how(s)}" in d.words]
        assert math.dist(d.a, d.b) == pytest.approx(s.distance_ft, abs=0.005)
        assert d.figure.startswith(f"{s.distance_ft:,.1f} ft (")
        assert d.short == (f"setback/{s.component.value}#{s.ordinal}/{s.target}" in suggested)
    assert sum(d.short for d in g.dimensions) == 2  # the tank 8 ft from the lot line; the well


def test_a_neighbours_shallow_well_adds_half_to_the_distance(
        ws: Workspace, tmp_path: Path) -> None:
    """10 NYCRR Appendix 75-A, Table 2, note (g) for a well on another parcel: 125 ft from
    A's absorption area is enough for 100 ft, short of a shallow well's 150 ft."""
    _lots(ws, tmp_path, accuracy_ft=1.0)
    far = Case(parcel=_parcel(B), site=Site(features=(
        SiteFeature(kind=SiteFeatureKind.WELL, geometry=_pt(195, 120),
                    capture_accuracy_ft=2.0),)))
    ws.save_case(far, today=TODAY)
    assert "setback/absorption_area#1/well" not in _setbacks(ws)
    (well,) = far.site.features  # type: ignore[union-attr]
    ws.save_case(replace(far, site=Site(features=(replace(well, shallow_aquifer=True),))),
                 today=TODAY)
    assert _setbacks(ws)["setback/absorption_area#1/well"] == (
        f"125.0 ft from the well, measured on well on parcel {B} (accuracy \u00b12 ft; not a "
        "survey); 150 ft required: 100 ft + 50 % by note (g), shallow well")
