"""A signature image, drawn in the app or scanned: checked to be a PNG or JPEG that shows
something, before it is kept and printed on an attested report."""

from __future__ import annotations

import io
from dataclasses import dataclass

from ..errors import InputError
from . import images

MAX_SIGNATURE_BYTES = 10 * 1024 * 1024
MEDIA_TYPES = {"PNG": "image/png", "JPEG": "image/jpeg"}
# Darker than this (0 black, 255 white) counts as ink.
INK = 160
MIN_SIDE_PX = 20
MAX_SIDE_PX = images.MAX_SIDE_PX


@dataclass(frozen=True)
class SignatureImage:
    media_type: str
    width_px: int
    height_px: int


def check_signature(data: bytes, name: str) -> SignatureImage:
    """The image's type and size, or InputError with one sentence: not an image, not a PNG
    or JPEG, damaged, too small or too large, or blank (no ink on it)."""
    from PIL import Image, UnidentifiedImageError

    if len(data) > MAX_SIGNATURE_BYTES:
        raise InputError(f"{name}: is {len(data) / 1e6:.0f} MB; a signature image is at most "
                         f"{MAX_SIGNATURE_BYTES // (1024 * 1024)} MB.")
    try:  # a PNG's or JPEG's size, from its header before a pixel is decoded
        header = images.read_header(data)
    except images.ImageRefused:
        pass  # what it is, Pillow says below
    else:
        _check_sides(header.width_px, header.height_px, name)
    try:
        with Image.open(io.BytesIO(data)) as image:
            kind = image.format or ""
            if kind not in MEDIA_TYPES:
                raise InputError(f"{name}: is a {kind or 'kind of'} image; a signature must be "
                                 "a PNG or JPEG image.")
            width, height = image.size
            _check_sides(width, height, name)
            image.load()
            flat = Image.new("RGBA", image.size, "white")
            flat.alpha_composite(image.convert("RGBA"))
            low = flat.convert("L").getextrema()[0]
            darkest = low[0] if isinstance(low, tuple) else low
    except (UnidentifiedImageError, Image.DecompressionBombError, OSError, SyntaxError,
            ValueError):
        raise InputError(f"{name}: is not a PNG or JPEG image (or it is damaged); a "
                         "signature must be a picture of the signature.") from None
    if darkest > INK:
        raise InputError(f"{name}: shows no signature (the image is blank).")
    return SignatureImage(MEDIA_TYPES[kind], width, height)


def _check_sides(width: int, height: int, name: str) -> None:
    if min(width, height) < MIN_SIDE_PX or max(width, height) > MAX_SIDE_PX:
        raise InputError(f"{name}: is {width:,} x {height:,} pixels; a signature image is "
                         f"{MIN_SIDE_PX} to {MAX_SIDE_PX:,} pixels a side"
                         + (": scale it down." if max(width, height) > MAX_SIDE_PX else "."))
