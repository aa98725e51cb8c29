"""The images a letter or report prints from the office's files: the letterhead's logo and
the signer's signature; and the photos of a case: what their camera wrote in them (EXIF:
orientation, time, position) and their copies for showing and printing, upright and with
their marks drawn over them. Their size is read from the file's header before a pixel is
decoded, and an image larger than MAX_SIDE_PX a side is refused with a sentence: a 58 KB
PNG can declare 17,000 x 17,000 px, which decoded is over a gigabyte."""

from __future__ import annotations

import io
import math
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

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


@dataclass(frozen=True)
class PhotoFacts:
    """What a photo's camera wrote in it (EXIF), each None when it wrote nothing usable:
    how the picture stands (Orientation 1-8), when it was taken ("2026-11-20T10:42:00",
    with "-05:00" when the camera wrote its offset from UTC) and where (WGS84 degrees)."""

    orientation: int | None = None
    taken_at: str | None = None
    latitude: float | None = None
    longitude: float | None = None


_ORIENTATION, _EXIF_IFD, _GPS_IFD = 0x0112, 0x8769, 0x8825
_DATETIME_ORIGINAL, _OFFSET_TIME_ORIGINAL = 0x9003, 0x9011
_OFFSET = re.compile(r"\A([+-])([0-9]{2}):([0-9]{2})\Z")
# no digital camera wrote a photo before this
_EARLIEST_PHOTO = datetime(1990, 1, 1)


def photo_facts(data: bytes, now: datetime) -> PhotoFacts:
    """The EXIF facts of a PNG's or JPEG's bytes, read from its header (no pixel decoded).
    A value that makes no sense (an orientation outside 1-8, a time not a time or after
    `now`, a position off the globe or at 0, 0) is left out, never a reason to refuse
    the photo; a photo with no readable EXIF has no facts."""
    try:
        header = read_header(data)
    except ImageRefused:
        return PhotoFacts()
    from PIL import JpegImagePlugin, PngImagePlugin

    plugin = (JpegImagePlugin.JpegImageFile if header.kind == "JPEG"
              else PngImagePlugin.PngImageFile)
    try:
        with plugin(io.BytesIO(data)) as image:
            exif = image.getexif()
            orientation = exif.get(_ORIENTATION)
            try:
                sub = dict(exif.get_ifd(_EXIF_IFD))
            except Exception:  # a damaged IFD is no facts, never a refusal
                sub = {}
            try:
                gps = dict(exif.get_ifd(_GPS_IFD))
            except Exception:  # as above
                gps = {}
    except Exception:  # whatever a hostile header does, the photo is kept without facts
        return PhotoFacts()
    return PhotoFacts(
        orientation=orientation if isinstance(orientation, int) and 1 <= orientation <= 8
        else None,
        taken_at=_taken_at(sub.get(_DATETIME_ORIGINAL), sub.get(_OFFSET_TIME_ORIGINAL), now),
        **dict(zip(("latitude", "longitude"), _position(gps), strict=True)))


def _text(value: object) -> str | None:
    if isinstance(value, bytes):
        value = value.decode("ascii", "replace")
    return value.strip("\x00 ") if isinstance(value, str) else None


def _taken_at(value: object, offset: object, now: datetime) -> str | None:
    text = _text(value)
    try:
        taken = datetime.strptime(text or "", "%Y:%m:%d %H:%M:%S")
    except ValueError:
        return None
    off = _OFFSET.match(_text(offset) or "")
    zone = None
    if off is not None and int(off[2]) <= 14 and int(off[3]) < 60:
        delta = timedelta(hours=int(off[2]), minutes=int(off[3]))
        zone = timezone(delta if off[1] == "+" else -delta)
    # without an offset the camera's clock may run up to 14 hours ahead of UTC
    latest = now if zone is not None else now.replace(tzinfo=None) + timedelta(hours=14)
    if taken < _EARLIEST_PHOTO or (taken.replace(tzinfo=zone) if zone else taken) > latest:
        return None
    return taken.replace(tzinfo=zone).isoformat() if zone else taken.isoformat()


def _degrees(value: object, ref: object, positive: str, negative: str,
             limit: float) -> float | None:
    try:
        d, m, s = (float(x) for x in value)  # type: ignore[attr-defined]
    except (TypeError, ValueError, ZeroDivisionError):
        return None
    sign = {positive: 1, negative: -1}.get(_text(ref) or "")
    degrees = d + m / 60 + s / 3600
    if sign is None or not all(map(math.isfinite, (d, m, s))) or min(d, m, s) < 0 \
            or m >= 60 or s >= 60 or degrees > limit:
        return None
    return round(sign * degrees, 7)


def _position(gps: dict[int, object]) -> tuple[float | None, float | None]:
    lat = _degrees(gps.get(2), gps.get(1), "N", "S", 90)
    lon = _degrees(gps.get(4), gps.get(3), "E", "W", 180)
    if lat is None or lon is None or (lat == 0 and lon == 0):
        return None, None  # half a position, or a phone's "no fix": no position
    return lat, lon


def _upright(image: Any, orientation: int | None) -> Any:
    """The decoded picture turned as EXIF Orientation says it stands."""
    from PIL import Image

    t = Image.Transpose
    steps = {2: (t.FLIP_LEFT_RIGHT,), 3: (t.ROTATE_180,), 4: (t.FLIP_TOP_BOTTOM,),
             5: (t.TRANSPOSE,), 6: (t.ROTATE_270,), 7: (t.TRANSVERSE,),
             8: (t.ROTATE_90,)}.get(orientation or 1, ())
    for step in steps:
        image = image.transpose(step)
    return image


def upright_size(header: ImageHeader, orientation: int | None) -> tuple[int, int]:
    """The photo's size in pixels as it stands: the marks' coordinates are in these."""
    turned = orientation in (5, 6, 7, 8)
    return ((header.height_px, header.width_px) if turned
            else (header.width_px, header.height_px))


def _draw_marks(image: Any, lines: tuple[str, ...], scale: float) -> Any:
    """`image` with the marks drawn over it, their coordinates (in the full upright photo)
    multiplied by `scale`."""
    from PIL import ImageDraw, ImageFont

    from ..domain.annotations import marks

    shapes = marks(lines)
    if not shapes:
        return image
    image = image.copy()
    draw = ImageDraw.Draw(image)
    width = max(3, round(max(image.size) / 250))
    colour = (230, 20, 20)
    for m in shapes:
        n = [v * scale for v in m.numbers]
        if m.kind == "arrow":
            (x1, y1, x2, y2) = n
            draw.line((x1, y1, x2, y2), fill=colour, width=width)
            angle = math.atan2(y2 - y1, x2 - x1)
            head = 6 * width
            draw.polygon([(x2, y2), *((x2 - head * math.cos(angle + a),
                                       y2 - head * math.sin(angle + a))
                                      for a in (0.45, -0.45))], fill=colour)
        elif m.kind == "circle":
            (x, y, r) = n
            draw.ellipse((x - r, y - r, x + r, y + r), outline=colour, width=width)
        else:
            (x, y) = n
            font = ImageFont.load_default(size=max(10, 8 * width))
            box = draw.textbbox((x, y), m.words, font=font)
            draw.rectangle(box, fill=(255, 255, 255))
            draw.text((x, y), m.words, fill=colour, font=font)
    return image


def printable_photo(path: Path, marks: tuple[str, ...] = (), *,
                    side_px: int = PHOTO_PRINT_SIDE_PX) -> bytes:
    """A JPEG copy of the photo at `path` for printing or showing, upright as its EXIF
    orientation says, at most `side_px` a side, with `marks` (`domain/annotations.py`)
    drawn over it, decoded within PHOTO_MAX_DECODE_PIXELS (the header checked first: no
    pixel of an image over the budget is decoded); ImageRefused when it cannot be. The
    file itself is only read."""
    from PIL import Image, JpegImagePlugin, PngImagePlugin

    try:
        data = read_regular_file(path, limit=MAX_ATTACHMENT_BYTES, what="photo")
    except UnreadableFile as exc:
        raise ImageRefused(exc.reason) from None
    header = check_photo(data)
    orientation = photo_facts(data, datetime.now(UTC)).orientation
    plugin = (JpegImagePlugin.JpegImageFile if header.kind == "JPEG"
              else PngImagePlugin.PngImageFile)
    try:
        # the plugin itself, not Image.open: the size is checked above against our own
        # budget, and a JPEG is asked for its reduced decoding before any pixel is read
        with plugin(io.BytesIO(data)) as image:
            # a JPEG decoded at the reduction the budget needs, or more where twice the
            # printed size remains
            k = min(1.0, 2 * side_px / max(header.width_px, header.height_px),
                    1 / (_decode_scale(header) or 8))
            if header.kind == "JPEG" and k < 1:
                image.draft("RGB", (math.ceil(header.width_px * k),
                                    math.ceil(header.height_px * k)))
            if image.size[0] * image.size[1] > PHOTO_MAX_DECODE_PIXELS:
                raise PhotoTooLarge(f"is {header.width_px:,} x {header.height_px:,} px, "
                                   f"over the {PHOTO_MAX_DECODE_PIXELS / 1e6:,.0f} MP a "
                                   "photo is read at")
            image.thumbnail((side_px, side_px))
            flat = image.convert("RGBA")
        copy = Image.alpha_composite(Image.new("RGBA", flat.size, "white"), flat).convert("RGB")
        copy = _upright(copy, orientation)
        copy = _draw_marks(copy, marks, copy.size[0] / upright_size(header, orientation)[0])
        out = io.BytesIO()
        copy.save(out, "JPEG", quality=85, subsampling=0)  # thin red marks stay red
    except ImageRefused:
        raise
    except (OSError, SyntaxError, ValueError, EOFError, Image.DecompressionBombError):
        raise ImageRefused("is not a readable PNG or JPEG image (it is damaged)") from None
    return out.getvalue()
