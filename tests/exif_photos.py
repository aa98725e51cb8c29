"""Real JPEGs with real EXIF, as a phone writes them: a sensor image stored landscape with
Orientation 6 (shown upright it is portrait), the time it was taken and its GPS position.
Its top left corner as stored is red: upright, the red is at the top RIGHT."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PIL import Image
from PIL.TiffImagePlugin import IFDRational

STORED = (400, 300)  # width, height as the sensor wrote it
RED = 60  # the red square's side, at the stored top left


def _dms(value: float) -> tuple[IFDRational, IFDRational, IFDRational]:
    d = int(value)
    m = int((value - d) * 60)
    s = round(((value - d) * 60 - m) * 60, 4)
    return IFDRational(d), IFDRational(m), IFDRational(int(s * 10_000), 10_000)


def exif_photo(path: Path, *, orientation: Any = 6, taken: Any = "2026:11:20 10:42:07",
               offset: Any = "-05:00", lat: float | None = 42.8099,
               lon: float | None = -77.3102, gps: dict[int, Any] | None = None) -> Path:
    """A JPEG with the EXIF given (None: left out); `gps` replaces the GPS IFD whole."""
    image = Image.new("RGB", STORED, (40, 120, 40))
    image.paste((255, 0, 0), (0, 0, RED, RED))
    exif = Image.Exif()
    if orientation is not None:
        exif[0x0112] = orientation
    sub = exif.get_ifd(0x8769)
    if taken is not None:
        sub[0x9003] = taken
    if offset is not None:
        sub[0x9011] = offset
    ifd = exif.get_ifd(0x8825)
    if gps is not None:
        ifd.update(gps)
    elif lat is not None and lon is not None:
        ifd.update({1: "N" if lat >= 0 else "S", 2: _dms(abs(lat)),
                    3: "E" if lon >= 0 else "W", 4: _dms(abs(lon))})
    image.save(path, "JPEG", quality=92, exif=exif.tobytes())
    return path


def red_corner(image: Image.Image) -> str:
    """Which corner of a decoded image is red: "top left", "top right", ..."""
    w, h = image.size
    rgb = image.convert("RGB")
    for name, (x, y) in {"top left": (3, 3), "top right": (w - 4, 3),
                         "bottom left": (3, h - 4), "bottom right": (w - 4, h - 4)}.items():
        r, g, b = rgb.getpixel((x, y))  # type: ignore[misc]
        if r > 200 and g < 80 and b < 80:
            return name
    return "none"
