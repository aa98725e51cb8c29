"""The report of findings' sketch over the aerial imagery, with its source and date."""

from __future__ import annotations

import io
from datetime import date
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.letters.register import compose, draft_pdf
from inspector_app.services.parcel.sketch import site_sketch
from inspector_app.services.reference.basemaps import (
    deactivate_basemap,
    import_basemap,
    set_office_setting,
)
from inspector_app.services.workspace import Workspace
from tests.geo.raster_helpers import write_geotiff

TODAY = date(2026, 11, 25)


def _sketch_of(ws: Workspace, sbl: str):  # type: ignore[no-untyped-def]
    return site_sketch(ws, ws.load_case(sbl))


@pytest.fixture
def demo(workspace: Workspace) -> Workspace:
    install_demo(workspace, count=3, today=TODAY)
    return workspace


def _image_count(pdf: bytes) -> int:
    reader = PdfReader(io.BytesIO(pdf))
    return sum(len(page.images) for page in reader.pages)


def test_the_sketch_shows_the_imagery_only_when_the_office_says_so(
        demo: Workspace, tmp_path: Path) -> None:
    sbl = demo.parcels()[0]["sbl"]
    # the demo brings its invented imagery, active; the setting is off by default
    off = _sketch_of(demo, sbl)
    assert off is not None and off.imagery is None and off.imagery_label == ""
    set_office_setting(demo, "report_imagery", "on")
    on = _sketch_of(demo, sbl)
    assert on is not None and on.imagery is not None and on.imagery[:8] == b"\x89PNG\r\n\x1a\n"
    assert on.imagery_label == ("Imagery: Invented demo imagery, not a photograph, date not "
                                "recorded")
    assert (on.window, on.shore, on.areas, on.caption) == (off.window, off.shore, off.areas,
                                                           off.caption)
    # another basemap, with a date: its source and date are printed
    ox, oy = on.window[0] - 100, on.window[3] + 100
    image = write_geotiff(tmp_path / "ortho.tif", width=200, height=200, pixel=10.0,
                          origin=(ox, oy))
    import_basemap(demo, image, name="County 2024", copy=False, source="Ontario County",
                   captured_on=date(2024, 4, 10))
    letter = compose(demo, sbl, "report_of_findings", as_of=TODAY)
    [sketch] = [b for b in letter.blocks if type(b).__name__ == "Sketch"]
    assert sketch.imagery_label == "Imagery: Ontario County, 2024-04-10"  # type: ignore[attr-defined]
    pdf = draft_pdf(demo, sbl, "report_of_findings", as_of=TODAY)
    assert _image_count(pdf) == 1
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    assert "Imagery: Ontario County, 2024-04-10" in text
    # the picture is baked in: the referenced file gone, the PDF already made holds it
    image.unlink()
    assert _image_count(pdf) == 1
    # a basemap whose file is gone: the report is as without imagery
    plain = _sketch_of(demo, sbl)
    assert plain is not None and plain.imagery is None
    deactivate_basemap(demo)
    assert _sketch_of(demo, sbl).imagery is None  # type: ignore[union-attr]
    set_office_setting(demo, "report_imagery", "off")
    assert _image_count(draft_pdf(demo, sbl, "report_of_findings", as_of=TODAY)) == 0


def test_the_printed_imagery_lies_under_the_sketch(demo: Workspace, tmp_path: Path) -> None:
    """A red image over the sketch's window: the page's map area comes out red."""
    import numpy as np

    sbl = demo.parcels()[0]["sbl"]
    window = _sketch_of(demo, sbl).window  # type: ignore[union-attr]
    red = np.zeros((3, 100, 100), dtype=np.uint8)
    red[0] = 230
    pixel = max(window[2] - window[0], window[3] - window[1]) / 50
    image = write_geotiff(tmp_path / "red.tif", width=100, height=100, pixel=pixel,
                          origin=(window[0] - 25 * pixel, window[3] + 25 * pixel), data=red)
    import_basemap(demo, image, name="Red", copy=True)
    set_office_setting(demo, "report_imagery", "on")
    pdf = draft_pdf(demo, sbl, "report_of_findings", as_of=TODAY)
    doc = pdfium.PdfDocument(pdf)
    reds = 0
    for page in doc:
        bitmap = np.asarray(page.render(scale=0.5).to_pil().convert("RGB"), dtype=int)
        reds += int(((bitmap[..., 0] > 200) & (bitmap[..., 1] < 60)
                     & (bitmap[..., 2] < 60)).sum())
    assert reds > 5000
