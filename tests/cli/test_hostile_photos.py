"""Photos through the command line: a PNG declaring 17,000 x 17,000 px is refused at
`attach` in one sentence, nothing written; a phone's 4000 x 3000 JPEG is attached and the
report of findings draws it from a copy of 1,600 px, not from its 12 MP."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from pypdf import PdfReader

from inspector_app.documents import images
from tests import hostile_settings
from tests.cli.test_hostile_files import assert_refused, cli, snapshot

SBL = "900.01-1-1"


def phone_photo(path: Path, width: int = 4000, height: int = 3000) -> Path:
    """A JPEG of a phone's size, with detail in it (a flat image compresses to nothing)."""
    rng = np.random.default_rng(5)
    pixels = (rng.integers(0, 8, (height, width, 3), dtype=np.uint8) * 32).astype(np.uint8)
    Image.fromarray(pixels).save(path, quality=90)
    return path


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    data = tmp_path_factory.mktemp("demo") / "data"
    assert cli(data, "demo", "--parcels", "3").returncode == 0
    # a first photo: the day's backup is taken by the first command that writes
    small = data.parent / "small.png"
    Image.new("RGB", (64, 48), "olive").save(small)
    assert cli(data, "attach", SBL, str(small)).returncode == 0
    return data


def test_a_png_declaring_17000_px_a_side_is_refused_at_attach(tmp_path: Path,
                                                              demo: Path) -> None:
    bomb = hostile_settings.png_declaring(tmp_path / "bomb.png", 17_000, 17_000)
    also = hostile_settings.png_declaring(tmp_path / "bomb-named.jpg", 17_000, 17_000)
    before = snapshot(demo)
    for file in (bomb, also):
        assert_refused(cli(demo, "attach", SBL, str(file)), file, "17,000 x 17,000 px",
                       "289 MP", "over the 50 MP a photo is read at", "nothing was attached")
    assert snapshot(demo) == before


def test_a_phone_photo_is_drawn_from_a_copy_within_the_budget(tmp_path: Path,
                                                              demo: Path) -> None:
    photo = phone_photo(tmp_path / "riser.jpg")
    attached = cli(demo, "attach", SBL, str(photo), "--caption", "Tank lid & riser")
    assert attached.returncode == 0, attached.stderr
    pdf = tmp_path / "findings.pdf"
    drafted = cli(demo, "register", "draft", SBL, "--kind", "report_of_findings", "--out",
                  str(pdf))
    assert drafted.returncode == 0, drafted.stderr
    reader = PdfReader(pdf)
    drawn = [image for page in reader.pages for image in page.images]
    sizes = set()
    for found in drawn:
        with Image.open(io.BytesIO(found.data)) as image:
            sizes.add(image.size)
    # the small photo as it is, the phone's drawn from its 1,600 px copy
    assert sizes == {(64, 48), (images.PHOTO_PRINT_SIDE_PX, images.PHOTO_PRINT_SIDE_PX * 3 // 4)}
    text = "".join(page.extract_text() for page in reader.pages)
    assert "Tank lid & riser" in text and "not printed" not in text


def test_a_png_of_one_row_millions_of_px_long_is_refused_at_attach(tmp_path: Path,
                                                                   demo: Path) -> None:
    strip = hostile_settings.png_declaring(tmp_path / "strip.png", 49_000_000, 1)
    before = snapshot(demo)
    assert_refused(cli(demo, "attach", SBL, str(strip)), strip, "49,000,000 x 1 px",
                   f"longer than the {images.PHOTO_MAX_DECODE_SIDE_PX:,} px a side",
                   "nothing was attached")
    assert snapshot(demo) == before
