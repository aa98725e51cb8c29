"""The images a letter or report prints from the office's files: the letterhead's logo and
the signer's signature. Their size is read from the file's header before a pixel is
decoded, and an image larger than MAX_SIDE_PX a side is refused with a sentence: a 58 KB
PNG can declare 17,000 x 17,000 px, which decoded is over a gigabyte."""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

from ..paths import UnreadableFile, read_regular_file

# A logo prints 0.9 inch wide, a signature 1.8 inch: 6,000 px is a page-wide scan at
# 600 dpi, far more than either needs, and 144 MB decoded.
MAX_SIDE_PX = 6000
MAX_IMAGE_BYTES = 10 * 1024 * 1024
_PNG = b"\x89PNG\r\n\x1a\n"
_JPEG = b"\xff\xd8\xff"


class ImageRefused(ValueError):
    """An image that is no PNG or JPEG, is damaged, or is too large. Its words complete
    "FILE: ..."."""


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

    plugin = (PngImagePlugin.PngImageFile if data.startswith(_PNG) else
              JpegImagePlugin.JpegImageFile if data.startswith(_JPEG) else None)
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
