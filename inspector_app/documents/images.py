"""The images a letter or report prints from the office's files: the letterhead's logo and
the signer's signature. Their size is read from the file's header before a pixel is
decoded, and an image larger than MAX_SIDE_PX a side is refused with a sentence: a 58 KB
PNG can declare 17,000 x 17,000 px, which decoded is over a gigabyte."""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from pathlib import Path

from ..domain.records import MAX_ATTACHMENT_BYTES
from ..paths import UnreadableFile, read_regular_file

# A logo prints 0.9 inch wide, a signature 1.8 inch: 6,000 px is a page-wide scan at
# 600 dpi, far more than either needs, and 144 MB decoded.
MAX_SIDE_PX = 6000
MAX_IMAGE_BYTES = 10 * 1024 * 1024
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
JPEG_SIGNATURE = b"\xff\xd8\xff"


class ImageRefused(ValueError):
    """An image that is no PNG or JPEG, is damaged, or is too large. Its words complete
    "FILE: ..."."""


class PhotoTooLarge(ImageRefused):
    """A photo over the pixels it may be read at."""


@dataclass(frozen=True)
class ImageHeader:
    kind: str  # "PNG" or "JPEG"
    width_px: int
    height_px: int


def read_header(data: bytes) -> ImageHeader:
    """The kind and size a PNG or JPEG declares, read from its header without decoding it
    (and without Pillow's own check, which refuses a large image with no size named);
    ImageRefused for anything else."""
    from PIL import JpegImagePlugin, PngImagePlugin, UnidentifiedImageError

    plugin = (PngImagePlugin.PngImageFile if data.startswith(PNG_SIGNATURE) else
              JpegImagePlugin.JpegImageFile if data.startswith(JPEG_SIGNATURE) else None)
    if plugin is None:
        raise ImageRefused("is not a PNG or JPEG image")
    try:
        with plugin(io.BytesIO(data)) as image:
            width, height = image.size
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, EOFError):
        raise ImageRefused("is not a readable PNG or JPEG image (it is damaged)") from None
    return ImageHeader("PNG" if plugin is PngImagePlugin.PngImageFile else "JPEG",
                       width, height)


def check_size(header: ImageHeader) -> None:
    if max(header.width_px, header.height_px) > MAX_SIDE_PX:
        raise ImageRefused(f"is {header.width_px:,} x {header.height_px:,} px; at most "
                           f"{MAX_SIDE_PX:,} x {MAX_SIDE_PX:,} px is taken: scale it down")


def check_image_file(path: Path) -> ImageHeader:
    """A logo's or signature's file: a PNG or JPEG of at most MAX_IMAGE_BYTES and
    MAX_SIDE_PX a side, or ImageRefused (FileNotFoundError when there is none)."""
    try:
        data = read_regular_file(path, limit=MAX_IMAGE_BYTES, what="letterhead image")
    except UnreadableFile as exc:
        raise ImageRefused(exc.reason) from None
    header = read_header(data)
    check_size(header)
    return header


# --- photos ----------------------------------------------------------------------------

# A photo prints at most 3.2 x 2.4 inch: 1,600 px on its longer side is 500 dpi there.
PHOTO_PRINT_SIDE_PX = 1600
# The most pixels a photo is decoded at to make that copy (50 MP, 150 MB as RGB): a phone's
# 12-50 MP photo. A JPEG is decoded at 1/2, 1/4 or 1/8 of its size where that suffices
# (so a 200 MP one is decoded at 1/8, 3 MP); a PNG can only be decoded whole.
PHOTO_MAX_DECODE_PIXELS = 50_000_000
# The longest side a photo is decoded at: a 200 MP phone photo is 16,320 px wide, a
# panorama wider but a JPEG (decoded at a reduction). A strip of pixels millions long
# costs hundreds of MB to scale, though within the pixel budget.
PHOTO_MAX_DECODE_SIDE_PX = 20_000
_JPEG_SCALES = (1, 2, 4, 8)


def _decode_scale(header: ImageHeader) -> int | None:
    """The least reduction at which the photo decodes within PHOTO_MAX_DECODE_PIXELS and
    PHOTO_MAX_DECODE_SIDE_PX, or None when none does."""
    for scale in _JPEG_SCALES if header.kind == "JPEG" else (1,):
        w, h = -(-header.width_px // scale), -(-header.height_px // scale)
        if w * h <= PHOTO_MAX_DECODE_PIXELS and max(w, h) <= PHOTO_MAX_DECODE_SIDE_PX:
            return scale
    return None


def check_photo(data: bytes) -> ImageHeader:
    """A photo's PNG or JPEG bytes that can be printed within the pixel budget, or
    ImageRefused naming why (its words complete "FILE: ...")."""
    header = read_header(data)
    if _decode_scale(header) is None:
        least = _JPEG_SCALES[-1] if header.kind == "JPEG" else 1
        how = (" even at an eighth of its size" if header.kind == "JPEG" else "")
        over = (f"over the {PHOTO_MAX_DECODE_PIXELS / 1e6:,.0f} MP"
                if -(-header.width_px // least) * -(-header.height_px // least)
                > PHOTO_MAX_DECODE_PIXELS
                else f"longer than the {PHOTO_MAX_DECODE_SIDE_PX:,} px a side")
        raise PhotoTooLarge(
            f"is a {header.kind} of {header.width_px:,} x {header.height_px:,} px "
            f"({header.width_px * header.height_px / 1e6:,.0f} MP), {over} a photo is read "
            f"at{how}")
    return header


def printable_photo(path: Path) -> bytes:
    """A JPEG copy of the photo at `path` for printing, at most PHOTO_PRINT_SIDE_PX a
    side, decoded within PHOTO_MAX_DECODE_PIXELS (the header checked first: no pixel of
    an image over the budget is decoded); ImageRefused when it cannot be."""
    from PIL import Image, JpegImagePlugin, PngImagePlugin

    try:
        data = read_regular_file(path, limit=MAX_ATTACHMENT_BYTES, what="photo")
    except UnreadableFile as exc:
        raise ImageRefused(exc.reason) from None
    header = check_photo(data)
    plugin = (JpegImagePlugin.JpegImageFile if header.kind == "JPEG"
              else PngImagePlugin.PngImageFile)
    try:
        # the plugin itself, not Image.open: the size is checked above against our own
        # budget, and a JPEG is asked for its reduced decoding before any pixel is read
        with plugin(io.BytesIO(data)) as image:
            # a JPEG decoded at the reduction the budget needs, or more where twice the
            # printed size remains
            k = min(1.0, 2 * PHOTO_PRINT_SIDE_PX / max(header.width_px, header.height_px),
                    1 / (_decode_scale(header) or 8))
            if header.kind == "JPEG" and k < 1:
                image.draft("RGB", (math.ceil(header.width_px * k),
                                    math.ceil(header.height_px * k)))
            if image.size[0] * image.size[1] > PHOTO_MAX_DECODE_PIXELS:
                raise PhotoTooLarge(f"is {header.width_px:,} x {header.height_px:,} px, "
                                   f"over the {PHOTO_MAX_DECODE_PIXELS / 1e6:,.0f} MP a "
                                   "photo is read at")
            image.thumbnail((PHOTO_PRINT_SIDE_PX, PHOTO_PRINT_SIDE_PX))
            flat = image.convert("RGBA")
        copy = Image.alpha_composite(Image.new("RGBA", flat.size, "white"), flat).convert("RGB")
        out = io.BytesIO()
        copy.save(out, "JPEG", quality=85)
    except ImageRefused:
        raise
    except (OSError, SyntaxError, ValueError, EOFError, Image.DecompressionBombError):
        raise ImageRefused("is not a readable PNG or JPEG image (it is damaged)") from None
    return out.getvalue()
