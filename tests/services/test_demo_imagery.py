"""The demo's invented aerial image: sharp around the demo parcels (a house, its driveway
and lawn), nothing far from them, the lake blue, the same every time, marked invented."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from datetime import date
from pathlib import Path

import numpy as np
import pytest
import shapely

from inspector_app.geo.crs import lonlat_to_feet
from inspector_app.geo.demo_image import Homestead, demo_aerial
from inspector_app.geo.vector_files import geometry_from_lonlat
from inspector_app.paths import resource
from inspector_app.services.demo import imagery as demo_imagery
from inspector_app.services.demo.imagery import demo_homesteads
from inspector_app.services.demo.parcels import _lake_outline, install_demo
from inspector_app.services.reference.basemaps import active_basemap, list_basemaps, open_reader
from inspector_app.services.workspace import Workspace

TODAY = date(2026, 11, 25)


def _premade_homesteads() -> list[Homestead]:
    drawn = json.loads(resource(*demo_imagery.PREMADE_DRAWN).read_text("utf-8"))
    return [Homestead(**{**h, "lawn": tuple(h["lawn"])}) for h in drawn["homesteads"]]


# the imagery drawn for the parcels is a copy in the data folder; an office database
# keeps only the installed premade image, by reference
@pytest.mark.sqlite_only
def test_the_demo_brings_invented_imagery_once(workspace: Workspace) -> None:
    install_demo(workspace, count=8, today=TODAY)
    ref = active_basemap(workspace)
    assert ref is not None and ref.problem is None
    assert "Invented" in ref.name and "not a photograph" in ref.name
    assert ref.source == "Invented demo imagery, not a photograph"
    [row] = list_basemaps(workspace)
    assert row["storage"] == "copy" and 100_000 < row["size_bytes"] < 3_000_000
    rows = workspace.store.query("SELECT longitude, latitude FROM parcels")
    xs, ys = lonlat_to_feet([r["longitude"] for r in rows], [r["latitude"] for r in rows])
    with open_reader(ref) as reader:
        for x, y in zip(xs.tolist(), ys.tolist(), strict=True):
            img = reader.render((x - 500, y - 500, x + 500, y + 500), 50, 50)
            assert (img[..., 3] == 255).all()  # the site map's window is covered
        # land inland of a house is green
        home = demo_homesteads(workspace, _lake_outline())[0]
        lx, ly = home.x + 300 * home.nx, home.y + 300 * home.ny
        land = reader.render((lx - 50, ly - 50, lx + 50, ly + 50), 4, 4)
        assert np.median(land[..., 1]) > np.median(land[..., 2])
    install_demo(workspace, count=8, today=TODAY)
    assert len(list_basemaps(workspace)) == 1  # running it again changes nothing


def test_a_parcel_shows_its_house_and_the_lake_at_two_feet_a_pixel(
        workspace: Workspace) -> None:
    install_demo(workspace, count=40, today=TODAY)
    ref = active_basemap(workspace)
    assert ref is not None
    assert ref.resolution_ft <= 2.0
    homes = demo_homesteads(workspace, _lake_outline())
    assert len(homes) == 40
    lake = geometry_from_lonlat(_lake_outline(), "lake")
    roofs = water = 0
    with open_reader(ref) as reader:
        for home in homes:
            hx, hy = home.house_xy()
            roof = reader.render((hx - 8, hy - 8, hx + 8, hy + 8), 8, 8)[..., :3]
            r, g, b = np.median(roof.reshape(-1, 3), axis=0).astype(int)
            # a roof: grey or red-brown, never the green of grass and trees
            roofs += g <= max(r, b) + 4 and max(r, g, b) - min(r, g, b) < 80
            # out in the lake, off the parcel
            wx, wy = home.x - home.nx * 400, home.y - home.ny * 400
            if lake.buffer(-60).contains(shapely.Point(wx, wy)):
                px = reader.render((wx - 10, wy - 10, wx + 10, wy + 10), 2, 2)[..., :3].astype(
                    int)
                water += bool((px[..., 2] > px[..., 1] + 10).all()
                              and (px[..., 2] > px[..., 0] + 30).all())
            # a pixel apart is two feet: the house is a few dozen pixels, not one
            assert reader.render((hx - 30, hy - 30, hx + 30, hy + 30), 30, 30)[..., 3].all()
    assert roofs == 40
    assert water >= 10


def test_nothing_is_written_far_from_the_parcels(workspace: Workspace) -> None:
    install_demo(workspace, count=40, today=TODAY)
    ref = active_basemap(workspace)
    assert ref is not None
    [row] = list_basemaps(workspace)
    assert row["size_bytes"] < 6_000_000  # 80 squares of 1200 ft at 2 ft, not 9 miles
    homes = _premade_homesteads()  # this demo's, and the big demo's elsewhere on the lake
    assert set(demo_homesteads(workspace, _lake_outline())) <= set(homes)
    minx, miny, maxx, maxy = ref.bounds_ft
    far = []
    for fx in np.linspace(minx + 100, maxx - 100, 25):
        for fy in np.linspace(miny + 100, maxy - 100, 25):
            if min(math.hypot(fx - h.x, fy - h.y) for h in homes) > 2500:
                far.append((fx, fy))
    assert len(far) > 50
    with open_reader(ref) as reader:
        for fx, fy in far:
            assert not reader.render((fx - 50, fy - 50, fx + 50, fy + 50), 4, 4)[..., 3].any()


# the imagery drawn for the parcels is a copy in the data folder; an office database
# keeps only the installed premade image, by reference
@pytest.mark.sqlite_only
def test_the_image_is_the_same_every_time_and_seamless(workspace: Workspace,
                                                       tmp_path: Path) -> None:
    install_demo(workspace, count=4, today=TODAY)
    first = active_basemap(workspace)
    assert first is not None
    demo_imagery._MADE.clear()  # drawn again, not copied from the last one made
    other = Workspace(tmp_path / "other", user="k.olmsted", clock=workspace.clock)
    try:
        install_demo(other, count=4, today=TODAY)
        second = active_basemap(other)
        assert second is not None
        assert first.path.read_bytes() == second.path.read_bytes()
    finally:
        other.close()
    # a window drawn whole is the same as its two halves drawn apart
    lake = geometry_from_lonlat(_lake_outline(), "lake")
    homes = demo_homesteads(workspace, _lake_outline())
    x, y = math.floor(homes[0].x / 8) * 8, math.floor(homes[0].y / 8) * 8
    whole = demo_aerial((x - 256, y - 256, x + 256, y + 256), 2.0, lake, homes)
    west = demo_aerial((x - 256, y - 256, x, y + 256), 2.0, lake, homes)
    east = demo_aerial((x, y - 256, x + 256, y + 256), 2.0, lake, homes)
    assert np.array_equal(whole, np.concatenate([west, east], axis=2))


def test_the_demo_takes_the_image_drawn_in_advance(workspace: Workspace,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Drawing takes seconds; the demo (and the big demo) take the premade image."""
    def no_drawing(*_: object) -> None:
        raise AssertionError("the demo drew its image instead of taking the premade one")

    monkeypatch.setattr(demo_imagery, "_draw", no_drawing)
    install_demo(workspace, count=40, today=TODAY)
    ref = active_basemap(workspace)
    assert ref is not None
    assert ref.path.read_bytes() == resource(*demo_imagery.PREMADE).read_bytes()


def test_the_image_drawn_in_advance_is_up_to_date(workspace: Workspace) -> None:
    """It shows the demo's homesteads and lake as they are now, drawn by the code as it is
    now (else run scripts/make_demo_imagery.py)."""
    install_demo(workspace, count=40, today=TODAY)
    homes = demo_homesteads(workspace, _lake_outline())
    assert demo_imagery.premade_image(homes, _lake_outline()) is not None, (
        "the premade demo image does not show the demo parcels as they are drawn now: run "
        "scripts/make_demo_imagery.py")
    drawn = json.loads(resource(*demo_imagery.PREMADE_DRAWN).read_text("utf-8"))
    assert drawn["drawing"] == demo_imagery.drawing_digest(), (
        "the demo image's drawing code changed since the premade image was drawn: run "
        "scripts/make_demo_imagery.py")
    # a homestead placed elsewhere or another lake is not shown by it
    moved = [replace(homes[0], x=homes[0].x + 1), *homes[1:]]
    assert demo_imagery.premade_image(moved, _lake_outline()) is None
    other_lake = {**_lake_outline(), "note": "another outline"}
    assert demo_imagery.premade_image(homes, other_lake) is None
