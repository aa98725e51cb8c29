"""Typing coordinates for a site feature: longitude/latitude or NY State Plane Central feet."""

from __future__ import annotations

from datetime import date

import pytest

from inspector_app.errors import InputError
from inspector_app.geo.crs import feet_to_lonlat, lonlat_to_feet
from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.parcel import site
from inspector_app.services.workspace import Workspace

TODAY = date(2026, 11, 25)
SBL = "900.01-1-1"  # never inspected: no distance measured in the field
# A point beside Canandaigua Lake's east shore, in EPSG:2261 feet.
E0, N0 = 628_400.0, 1_021_000.0


@pytest.fixture
def ws(workspace: Workspace) -> Workspace:
    install_demo(workspace, today=TODAY)
    return workspace


def _corners_ft() -> list[tuple[float, float]]:
    return [(E0, N0), (E0 + 40, N0), (E0 + 40, N0 + 60), (E0, N0 + 60)]


def _lonlat_text(corners_ft: list[tuple[float, float]]) -> str:
    lon, lat = feet_to_lonlat([x for x, _ in corners_ft], [y for _, y in corners_ft])
    return "\n".join(f"{a:.7f}, {b:.7f}" for a, b in zip(lon, lat, strict=True))


def _ring_ft(geometry: dict[str, object]) -> list[tuple[float, float]]:
    ring = geometry["coordinates"][0]  # type: ignore[index]
    x, y = lonlat_to_feet([p[0] for p in ring], [p[1] for p in ring])
    return [(float(a), float(b)) for a, b in zip(x, y, strict=True)]


def _same_corners(geometry: dict[str, object], corners: list[tuple[float, float]]) -> bool:
    """Each corner stored within 0.1 ft of where it was typed (7 decimals are about 1 cm)."""
    ring = _ring_ft(geometry)
    return len(ring) == len(corners) + 1 and all(
        min(abs(x - a) + abs(y - b) for a, b in ring) < 0.1 for x, y in corners)


def test_state_plane_feet_off_a_plan_are_saved_where_they_were_typed(ws: Workspace) -> None:
    text = "\n".join(f"{x:.2f},{y:.2f}" for x, y in _corners_ft())
    result = site.set_from_typed(ws, SBL, "absorption_area", text, "state_plane",
                                 today=TODAY)
    stored = ws.load_case(SBL).site
    assert stored is not None and stored.absorption_area is not None
    assert stored.absorption_area_capture is not None
    assert stored.absorption_area_capture.method.value == "survey_plan"
    assert _same_corners(stored.absorption_area, _corners_ft())
    assert result["lake"]["distance_ft"] is not None


def test_longitude_latitude_as_copied_from_a_web_map(ws: Workspace) -> None:
    # A space after the comma, a blank line and a typographic minus sign are all fine.
    text = _lonlat_text(_corners_ft()).replace("\n", "\n\n", 1).replace("-", "\u2212")
    site.set_from_typed(ws, SBL, "absorption_area", text, "lonlat", today=TODAY)
    stored = ws.load_case(SBL).site
    assert stored is not None and stored.absorption_area is not None
    assert stored.absorption_area_capture is not None
    assert stored.absorption_area_capture.method.value == "typed_lonlat"
    assert _same_corners(stored.absorption_area, _corners_ft())


@pytest.mark.parametrize(("system", "text", "expected"), [
    ("lonlat", "-77.3001,42.8001\nabout here\n-77.3003,42.8003",
     ["Line 2", "'about' is not a number", "longitude,latitude"]),
    ("lonlat", "-77.3001,42.8001\n-77.3002,42.8001",
     ["absorption area needs at least 3 corners", "2 were typed"]),
    ("lonlat", "   \n\n", ["No coordinates were typed", "longitude,latitude"]),
    ("lonlat", "-76.3001,42.8001\n-76.3002,42.8001\n-76.3002,42.8002",
     ["Line 1", "(more than 15 mi) from Canandaigua Lake", "check the numbers"]),
    ("lonlat", "42.8001,-77.3001\n42.8001,-77.3002\n42.8002,-77.3002",
     ["Line 1", "look swapped", "-77.3001,42.8001"]),
    ("lonlat", "77.3001,42.8001\n-77.3002,42.8001\n-77.3002,42.8002",
     ["Line 1", "negative", "-77.3001"]),
    ("lonlat", "628400,1021000\n628440,1021000\n628440,1021060",
     ["Line 1", "look like State Plane feet", "choose"]),
    ("lonlat", "-77.3001,42.8001,-77.3002\n-77.3002,42.8002",
     ["Line 1", "3 numbers", "two"]),
    ("lonlat", "-77.3001,nan\n-77.3002,42.8001\n-77.3002,42.8002",
     ["Line 1", "'nan' is not a number"]),
    ("state_plane", "-77.3001,42.8001\n-77.3002,42.8001\n-77.3002,42.8002",
     ["Line 1", "look like longitude,latitude", "choose"]),
    ("state_plane", "1021000,628400\n1021000,628440\n1021060,628440",
     ["Line 1", "look swapped", "628400,1021000"]),
    ("state_plane", "191537.5,311201.1\n191549.7,311201.1\n191549.7,311219.4",
     ["Line 1", "metres", "US survey feet"]),
    ("state_plane", "628,400.00, 1,021,000.00",
     ["Line 1", "thousands separators"]),
    ("state_plane", "528400,1021000\n528440,1021000\n528440,1021060",
     ["Line 1", "(more than 15 mi) from Canandaigua Lake"]),
])
def test_bad_coordinates_are_explained_by_line_and_nothing_is_saved(
        ws: Workspace, system: str, text: str, expected: list[str]) -> None:
    before = ws.load_case(SBL)
    history = len(ws.history(SBL))
    with pytest.raises(InputError) as caught:
        site.set_from_typed(ws, SBL, "absorption_area", text, system, today=TODAY)
    message = str(caught.value)
    for part in expected:
        assert part in message, message
    assert "Nothing was saved" in message
    assert ws.load_case(SBL) == before
    assert len(ws.history(SBL)) == history


def test_each_bad_line_is_named(ws: Workspace) -> None:
    with pytest.raises(InputError) as caught:
        site.typed_points("-77.3001,42.8001\n42.8,-77.3\n-77.3002,42.8002\nx,y",
                          "lonlat", "absorption_area")
    lines = str(caught.value).splitlines()
    assert [line.split(":")[0] for line in lines[:2]] == ["Line 2", "Line 4"]


def test_a_point_target_takes_one_point_and_an_unknown_system_is_refused() -> None:
    assert site.typed_points(f"{E0},{N0}", "state_plane", "well") == [(E0, N0)]
    with pytest.raises(InputError, match="needs at least 2 points"):
        site.typed_points(f"{E0},{N0}", "state_plane", "property_line")
    with pytest.raises(InputError, match="coordinate system"):
        site.typed_points(f"{E0},{N0}", "utm", "well")


def test_the_recorded_shape_is_offered_as_typed_and_reads_back_the_same(
        ws: Workspace) -> None:
    site.set_from_typed(ws, SBL, "absorption_area",
                        "\n".join(f"{x},{y}" for x, y in _corners_ft()), "state_plane",
                        today=TODAY)
    case = ws.load_case(SBL)
    points = site.recorded_points(case, "absorption_area")
    assert len(points) == len(_corners_ft())  # the ring without its closing point
    # in State Plane feet: the stored corners to the hundredth of a foot (they are kept in
    # degrees, to within a few hundredths of a foot of the feet typed)
    typed = site.typed_points(site.typed_text(points, "state_plane"), "state_plane",
                              "absorption_area")
    stored = _ring_ft(case.site.absorption_area)[:-1]
    for (x, y), (sx, sy), (tx, ty) in zip(_corners_ft(), stored, typed, strict=True):
        assert abs(sx - tx) <= 0.005 and abs(sy - ty) <= 0.005
        assert abs(x - tx) <= 0.05 and abs(y - ty) <= 0.05
    # in longitude,latitude: the stored coordinates to 1e-8 degree
    back = site.typed_points(site.typed_text(points, "lonlat"), "lonlat", "absorption_area")
    assert all(abs(a - b) <= 1e-8 for p, q in zip(points, back, strict=True)
               for a, b in zip(p, q, strict=True))
    # a site feature is added, never replaced: nothing to offer
    assert site.recorded_points(case, "well") == []
    assert site.typed_text([], "lonlat") == ""
