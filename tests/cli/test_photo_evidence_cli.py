"""A portrait phone photo (EXIF Orientation 6, time, GPS) attached to a component through
the command line, marked, and drawn in the report of findings: read back from the PDF as
PNG (pdftoppm), it stands upright under its element, and the site map has its point."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
from pathlib import Path

import pytest
from PIL import Image

from tests.cli.test_hostile_files import cli, snapshot
from tests.exif_photos import exif_photo, red_corner

SBL = "900.01-1-2"  # a demo parcel with one septic tank and one absorption area

pytestmark = pytest.mark.skipif(shutil.which("pdftoppm") is None,
                                reason="pdftoppm (poppler) reads the report back")


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    data = tmp_path_factory.mktemp("demo") / "data"
    assert cli(data, "demo", "--parcels", "3").returncode == 0
    return data


def _ok(result: subprocess.CompletedProcess[str]) -> dict[str, object]:
    assert result.returncode == 0, result.stderr
    return dict(json.loads(result.stdout))


def _photo_box(page: Image.Image) -> tuple[int, int, int, int]:
    """The bounding box of the photo's green on a rendered page."""
    rgb = page.convert("RGB")
    w, h = rgb.size
    px = rgb.load()
    xs, ys = [], []
    for y in range(0, h, 2):
        for x in range(0, w, 2):
            r, g, b = px[x, y]  # type: ignore[index, misc]
            if g > 90 and r < 80 and b < 80:
                xs.append(x)
                ys.append(y)
    assert xs, "no photo on the page"
    return min(xs), min(ys), max(xs) + 1, max(ys) + 1


def test_a_portrait_photo_on_a_component_prints_upright_under_it(demo: Path,
                                                                 tmp_path: Path) -> None:
    parcel = json.loads(cli(demo, "case", "export", SBL).stdout)["parcel"]
    # taken beside the system, a few feet from the parcel's point
    lat, lon = round(parcel["latitude"] + 0.00005, 5), round(parcel["longitude"], 5)
    photo = exif_photo(tmp_path / "outlet.jpg", lat=lat, lon=lon)
    digest = hashlib.sha256(photo.read_bytes()).hexdigest()
    info = _ok(cli(demo, "attach", SBL, str(photo), "--caption", "Outlet baffle",
                   "--component", "septic_tank#1"))
    assert (info["component"], info["taken_at"]) == ("septic_tank#1",
                                                     "2026-11-20T10:42:07-05:00")
    listed = json.loads(cli(demo, "attachments", SBL).stdout)
    assert [(a["id"], a["component"]) for a in listed] == [(info["id"], "septic_tank#1")]
    pdf = tmp_path / "findings.pdf"
    _ok(cli(demo, "register", "draft", SBL, "--kind", "report_of_findings", "--out",
            str(pdf)))
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True,
                          text=True, check=True).stdout
    # under its element, before the other sections; with when and where it was taken
    assert text.index("Photographs: Septic tank #1") < text.index("Outlet baffle (taken "
                                                                  "2026-11-20 10:42")
    assert text.index("Outlet baffle") < text.index("Measured distances")
    assert f"{lat:.5f}° N, {-lon:.5f}° W" in text
    assert "Photo: Outlet baffle" in text  # its point on the site sketch
    subprocess.run(["pdftoppm", "-r", "100", "-png", "-f", "1", "-l", "1", str(pdf),
                    str(tmp_path / "page")], check=True)
    (png,) = tmp_path.glob("page*.png")
    page = Image.open(png)
    x0, y0, x1, y1 = _photo_box(page)
    assert y1 - y0 > (x1 - x0) * 1.2, "the photo prints landscape: its orientation ignored"
    assert red_corner(page.crop((x0, y0, x1, y1))) == "top right"
    # the stored photo is the file attached, byte for byte
    assert hashlib.sha256((demo / "attachments" / digest[:2] / digest).read_bytes()
                          ).hexdigest() == digest


def test_marks_are_drawn_over_a_copy_never_the_file(demo: Path, tmp_path: Path) -> None:
    photo = exif_photo(tmp_path / "crack.jpg", taken="2026:11:19 09:00:00")
    info = _ok(cli(demo, "attach", SBL, str(photo), "--component", "absorption_area"))
    stored = demo / "attachments" / str(info["sha256"])[:2] / str(info["sha256"])
    before = stored.read_bytes()
    marked = _ok(cli(demo, "annotate", SBL, str(info["id"]), "--circle", "150,200,60",
                     "--arrow", "20,380,150,200", "--text", "10,10,Wet, soft ground"))
    assert marked["annotations"] == ["circle 150 200 60", "arrow 20 380 150 200",
                                     "text 10 10 Wet, soft ground"]
    out = tmp_path / "shown.jpg"
    _ok(cli(demo, "photo", SBL, str(info["id"]), "--out", str(out), "--size", "400"))
    shown = Image.open(out).convert("RGB")
    assert shown.size == (300, 400)
    r, g, _ = shown.getpixel((209, 200))  # type: ignore[misc]
    assert r > 150 and g < 100, "the circle is not drawn"
    assert stored.read_bytes() == before
    assert hashlib.sha256(before).hexdigest() == info["sha256"]


@pytest.mark.parametrize("argv", [
    ("attach", SBL, "{photo}", "--component", "septic_tank#2"),
    ("attach", SBL, "{photo}", "--component", "cesspit"),
    ("attach", SBL, "{photo}", "--inspection", "no-such-inspection"),
    ("annotate", SBL, "{id}", "--arrow", "1,2,3"),
    ("annotate", SBL, "{id}", "--circle", "1,2,0"),
    ("annotate", SBL, "{id}"),
    ("annotate", SBL, "00000000-0000-0000-0000-000000000000", "--circle", "1,2,3"),
    ("photo", SBL, "{id}", "--out", "{tmp}/big.jpg", "--size", "9000"),
])
def test_a_refusal_is_one_sentence_and_changes_nothing(demo: Path, tmp_path: Path,
                                                       argv: tuple[str, ...]) -> None:
    photo = exif_photo(tmp_path / "p.jpg")
    info = _ok(cli(demo, "attach", SBL, str(photo)))
    before = snapshot(demo)
    result = cli(demo, *(a.format(photo=photo, id=info["id"], tmp=tmp_path) for a in argv))
    err = result.stderr.strip()
    assert result.returncode == 2, err
    assert result.stdout == "" and "\n" not in err and err.endswith("."), err
    assert "Traceback" not in err
    assert snapshot(demo) == before
    assert not (tmp_path / "big.jpg").exists()
