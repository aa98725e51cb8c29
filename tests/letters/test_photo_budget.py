"""A photo is decoded within its pixel budget or not at all: a JPEG over it is read at a
reduced scale, a photo that cannot be read within it is named in the report in its place
(one stored before the check at `attach`, or sent by a laptop), never decoded whole."""

from __future__ import annotations

import io
from datetime import date
from pathlib import Path

import pytest
from PIL import Image

from inspector_app.documents import images
from inspector_app.documents.content import Photo
from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.letters import register as letters
from inspector_app.services.workspace import Workspace
from tests import hostile_settings
from tests.cli.test_hostile_photos import phone_photo
from tests.letters.test_letters import text_of


def test_a_jpeg_over_the_budget_is_decoded_at_a_reduced_scale(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    photo = phone_photo(tmp_path / "riser.jpg")
    monkeypatch.setattr(images, "PHOTO_MAX_DECODE_PIXELS", 1_000_000)  # 12 MP is over
    decoded: list[tuple[int, int]] = []
    load = Image.Image.load

    def watched(self: Image.Image) -> object:
        decoded.append(self.size)
        return load(self)

    monkeypatch.setattr(Image.Image, "load", watched)
    with Image.open(io.BytesIO(images.printable_photo(photo))) as copy:
        assert copy.size == (1000, 750)
    assert decoded and max(w * h for w, h in decoded) <= 1_000_000


def test_a_png_over_the_budget_is_refused_before_decoding(tmp_path: Path) -> None:
    bomb = hostile_settings.png_declaring(tmp_path / "bomb.png", 17_000, 17_000)
    with pytest.raises(images.PhotoTooLarge, match="17,000 x 17,000 px"):
        images.printable_photo(bomb)


def test_a_stored_photo_over_the_budget_is_named_in_the_report(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bomb = hostile_settings.png_declaring(tmp_path / "bomb.png", 17_000, 17_000)
    monkeypatch.setattr(letters, "_photos",
                        lambda ws, parcel_id: (Photo(bomb, "Lid <north>"),))
    with Workspace(tmp_path / "data", user="clerk") as ws:
        install_demo(ws, count=3, today=date(2026, 5, 1))
        pdf = letters.draft_pdf(ws, "900.01-1-1", "report_of_findings",
                                as_of=date(2026, 5, 1))
    text = " ".join(text_of(pdf).split())
    assert "[Photo not printed: Lid <north> is a PNG of 17,000 x 17,000 px" in text
    assert "it is kept with the case.]" in text


def test_a_stored_photo_longer_than_the_side_bound_is_named_in_the_report(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    strip = hostile_settings.png_declaring(tmp_path / "strip.png", 49_000_000, 1)
    monkeypatch.setattr(letters, "_photos", lambda ws, parcel_id: (Photo(strip, "Strip"),))
    with Workspace(tmp_path / "data", user="clerk") as ws:
        install_demo(ws, count=3, today=date(2026, 5, 1))
        pdf = letters.draft_pdf(ws, "900.01-1-1", "report_of_findings",
                                as_of=date(2026, 5, 1))
    text = " ".join(text_of(pdf).split())
    assert ("[Photo not printed: Strip is a PNG of 49,000,000 x 1 px (49 MP), longer than "
            f"the {images.PHOTO_MAX_DECODE_SIDE_PX:,} px a side a photo is read at") in text
