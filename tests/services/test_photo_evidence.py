"""A photo as evidence, on either storage engine: what its camera wrote (time, position)
kept with it, its component and inspection, its marks kept apart from the file (whose
bytes and SHA-256 never change), and bad EXIF ignored, never a reason to refuse it."""

from __future__ import annotations

import hashlib
import io
from datetime import date
from pathlib import Path

import pytest
from PIL import Image
from PIL.TiffImagePlugin import IFDRational

from inspector_app.errors import InputError
from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.workspace import Workspace
from tests.exif_photos import STORED, exif_photo, red_corner

TODAY = date(2026, 11, 25)


@pytest.fixture
def ws(workspace: Workspace) -> Workspace:
    install_demo(workspace, count=3, today=TODAY)
    return workspace


def _sbl(ws: Workspace) -> str:
    """A demo parcel with one septic tank and an inspection on record."""
    return "900.01-1-2"


def _rows(ws: Workspace) -> list[dict[str, object]]:
    return ws.store.query("SELECT * FROM attachments ORDER BY created_at")


def test_the_camera_time_and_position_are_kept_with_the_photo(ws: Workspace,
                                                              tmp_path: Path) -> None:
    sbl = _sbl(ws)
    info = ws.add_attachment(sbl, exif_photo(tmp_path / "baffle.jpg"), caption="Outlet baffle",
                             component="septic_tank#1")
    (row,) = ws.attachments(sbl)
    assert row["id"] == info["id"]
    assert row["taken_at"] == "2026-11-20T10:42:07-05:00"
    assert row["taken_latitude"] == pytest.approx(42.8099, abs=1e-6)
    assert row["taken_longitude"] == pytest.approx(-77.3102, abs=1e-6)
    assert row["component"] == "septic_tank#1"
    components = ws.store.query("SELECT id FROM components WHERE kind = 'septic_tank' AND "
                                "parcel_id = (SELECT id FROM parcels WHERE sbl = ?)", (sbl,))
    assert row["component_id"] == components[0]["id"]
    assert row["inspection_id"] is None


def test_a_photo_belongs_to_one_of_the_parcels_inspections(ws: Workspace,
                                                           tmp_path: Path) -> None:
    sbl = _sbl(ws)
    inspection = ws.store.query("SELECT id FROM inspections WHERE parcel_id = "
                                "(SELECT id FROM parcels WHERE sbl = ?)", (sbl,))[0]["id"]
    ws.add_attachment(sbl, exif_photo(tmp_path / "a.jpg"), inspection=inspection)
    assert ws.attachments(sbl)[0]["inspection_id"] == inspection


@pytest.mark.parametrize(("option", "value", "words"), [
    ("component", "septic_tank#2", "has 1 septic_tank component(s), so no septic_tank#2"),
    ("component", "holding_tank", "has 0 holding_tank component(s)"),
    ("component", "tank#1", "'tank#1' is not a component; write KIND[#N]"),
    ("component", "septic_tank#0", "'septic_tank#0' is not a component"),
    ("inspection", "00000000-0000-0000-0000-000000000000", "has no inspection"),
])
def test_no_such_component_or_inspection_is_refused_and_nothing_attached(
        ws: Workspace, tmp_path: Path, option: str, value: str, words: str) -> None:
    sbl = _sbl(ws)
    with pytest.raises(InputError, match=words.replace("(", r"\(").replace(")", r"\)")
                       .replace("[", r"\[").replace("]", r"\]")):
        ws.add_attachment(sbl, exif_photo(tmp_path / "a.jpg"), **{option: value})
    assert _rows(ws) == []


@pytest.mark.parametrize(("exif", "kept"), [
    ({"orientation": 9}, {"taken_at": "2026-11-20T10:42:07-05:00"}),
    ({"taken": "2027:06:01 12:00:00", "offset": None}, {"taken_at": None}),
    ({"taken": "2026:11:25 20:00:00", "offset": "+00:00"}, {"taken_at": None}),
    ({"taken": "not a time"}, {"taken_at": None}),
    ({"taken": "2026:02:30 10:00:00"}, {"taken_at": None}),
    ({"offset": "+99:99"}, {"taken_at": "2026-11-20T10:42:07"}),
    ({"gps": {1: "N", 2: (IFDRational(91), IFDRational(0), IFDRational(0)), 3: "W",
              4: (IFDRational(77), IFDRational(0), IFDRational(0))}},
     {"taken_latitude": None, "taken_longitude": None}),
    ({"gps": {1: "Q", 2: (IFDRational(42), IFDRational(0), IFDRational(0)), 3: "W",
              4: (IFDRational(77), IFDRational(0), IFDRational(0))}},
     {"taken_latitude": None, "taken_longitude": None}),
    ({"gps": {1: "N", 2: (IFDRational(1, 0), IFDRational(0), IFDRational(0)), 3: "W",
              4: (IFDRational(77), IFDRational(0))}},
     {"taken_latitude": None, "taken_longitude": None}),
    ({"gps": {1: "N", 2: (IFDRational(1), IFDRational(0)), 3: "W"}},
     {"taken_latitude": None, "taken_longitude": None}),
    ({"lat": 0.0, "lon": 0.0}, {"taken_latitude": None, "taken_longitude": None}),
])
def test_bad_exif_is_ignored_and_the_photo_kept(ws: Workspace, tmp_path: Path,
                                                exif: dict[str, object],
                                                kept: dict[str, object]) -> None:
    sbl = _sbl(ws)
    photo = exif_photo(tmp_path / "odd.jpg", **exif)  # type: ignore[arg-type]
    ws.add_attachment(sbl, photo)
    (row,) = ws.attachments(sbl)
    for key, value in kept.items():
        assert row[key] == value, key
    assert row["sha256"] == hashlib.sha256(photo.read_bytes()).hexdigest()
    shown = Image.open(io.BytesIO(ws.shown_photo(sbl, str(row["id"]), side_px=400)))
    if exif.get("orientation") == 9:  # not an orientation: shown as stored
        assert (shown.size, red_corner(shown)) == (STORED, "top left")


def test_a_portrait_photo_is_shown_upright(ws: Workspace, tmp_path: Path) -> None:
    sbl = _sbl(ws)
    ws.add_attachment(sbl, exif_photo(tmp_path / "p.jpg"))
    shown = Image.open(io.BytesIO(ws.shown_photo(sbl, ws.attachments(sbl)[0]["id"],
                                                 side_px=400)))
    assert shown.size == (STORED[1], STORED[0])  # 300 wide, 400 tall
    assert red_corner(shown) == "top right"


def test_marks_are_a_layer_over_the_unchanged_original(ws: Workspace, tmp_path: Path) -> None:
    sbl = _sbl(ws)
    photo = exif_photo(tmp_path / "crack.jpg")
    original = photo.read_bytes()
    info = ws.add_attachment(sbl, photo, component="septic_tank#1")
    stored = ws.attachment_path(info["sha256"])
    plain = Image.open(io.BytesIO(ws.shown_photo(sbl, info["id"], side_px=400))).convert("RGB")
    ws.annotate_photo(sbl, info["id"], ["circle 150 200 60", "arrow 20 380 150 200",
                                        "text 10 10 Crack at the outlet tee"])
    marked = Image.open(io.BytesIO(ws.shown_photo(sbl, info["id"], side_px=400))).convert("RGB")
    # the circle's rim (upright pixels: 150 + 60, 200) is red on the marked copy only
    assert _reddest(marked, 210, 200) > 150
    assert _reddest(plain, 210, 200) < 0
    # the file and its SHA-256 never change; the marks are the record's own field
    assert stored.read_bytes() == original
    assert hashlib.sha256(stored.read_bytes()).hexdigest() == info["sha256"]
    (row,) = ws.attachments(sbl)
    assert row["sha256"] == info["sha256"]
    assert row["annotations"] == ["circle 150 200 60", "arrow 20 380 150 200",
                                  "text 10 10 Crack at the outlet tee"]
    # each change is logged with who made it
    logged = [h for h in ws.history(sbl) if h["table_name"] == "attachments"
              and h.get("field") == "annotations"]
    assert logged and all(h["user"] == "k.olmsted" for h in logged)
    # cleared: the layer goes, the photo stays
    ws.annotate_photo(sbl, info["id"], [], clear=True)
    assert ws.attachments(sbl)[0]["annotations"] == []
    assert stored.read_bytes() == original


def _reddest(image: Image.Image, x: int, y: int) -> int:
    """How much redder than green the reddest pixel within 2 px of (x, y) is."""
    return max(image.getpixel((x + dx, y + dy))[0]  # type: ignore[index]
               - image.getpixel((x + dx, y + dy))[1]  # type: ignore[index]
               for dx in range(-2, 3) for dy in range(-2, 3))


@pytest.mark.parametrize("mark", ["arrow 1 2 3", "circle 10 10 0", "square 1 2 3 4",
                                  "text 10 10 ", "arrow -1 2 3 4", "circle 1 2 999999"])
def test_a_mark_not_of_the_form_is_refused_and_nothing_changed(ws: Workspace, tmp_path: Path,
                                                               mark: str) -> None:
    sbl = _sbl(ws)
    info = ws.add_attachment(sbl, exif_photo(tmp_path / "a.jpg"))
    before = _rows(ws)
    with pytest.raises(InputError, match="is not a mark; write"):
        ws.annotate_photo(sbl, info["id"], [mark])
    assert _rows(ws) == before


def test_the_writer_itself_refuses_a_mark_not_of_the_form(ws: Workspace,
                                                          tmp_path: Path) -> None:
    """The record writer holds the field to its declaration, whoever calls it."""
    sbl = _sbl(ws)
    info = ws.add_attachment(sbl, exif_photo(tmp_path / "a.jpg"))
    with pytest.raises(Exception, match="Marks on the photo"), \
            ws.store.transaction() as w:
        w.update("attachments", info["id"], {"annotations": ["draw a smiley"]})
    assert ws.attachments(sbl)[0]["annotations"] == []


def test_a_document_is_not_marked(ws: Workspace, tmp_path: Path) -> None:
    sbl = _sbl(ws)
    doc = tmp_path / "pumping.pdf"
    doc.write_bytes(b"%PDF-1.4 a pumper's receipt")
    info = ws.add_attachment(sbl, doc)
    with pytest.raises(InputError, match="not a photo"):
        ws.annotate_photo(sbl, info["id"], ["circle 1 1 1"])


def test_where_a_photo_was_taken_is_a_point_on_the_site_map(ws: Workspace,
                                                            tmp_path: Path) -> None:
    from inspector_app.geo.crs import lonlat_to_feet
    from inspector_app.services.parcel.sketch import site_map, site_sketch

    sbl = _sbl(ws)
    case = ws.load_case(sbl)
    assert case.parcel.latitude is not None and case.parcel.longitude is not None
    lat, lon = case.parcel.latitude + 0.00005, case.parcel.longitude
    ws.add_attachment(sbl, exif_photo(tmp_path / "here.jpg", lat=lat, lon=lon),
                      caption="Riser lid")
    ws.add_attachment(sbl, exif_photo(tmp_path / "far.jpg", lat=42.5, lon=-77.0),
                      caption="Elsewhere")  # miles off: not drawn, and the map not widened
    geometry = site_map(ws, case).geometry
    assert geometry is not None
    (label, (x, y)), = geometry.photos
    xs, ys = lonlat_to_feet([lon], [lat])
    assert label == "Photo: Riser lid"
    assert (x, y) == pytest.approx((float(xs[0]), float(ys[0])), abs=0.01)
    minx, miny, maxx, maxy = geometry.window
    assert max(maxx - minx, maxy - miny) < 5_000
    sketch = site_sketch(ws, case)
    assert sketch is not None and [p[0] for p in sketch.photos] == ["Photo: Riser lid"]
