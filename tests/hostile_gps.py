"""GPS logs that try to buy precision or time: one fix repeated for an hour, a log the
size of a disk image, more fixes than any capture takes. Each made here, from nothing."""

from __future__ import annotations

from pathlib import Path

from tests.geo.nmea import gga, noisy_points


def repeated_fix_log(path: Path, lon: float, lat: float, *, times: int = 3_600,
                     quality: int = 1, hdop: float = 0.9) -> Path:
    """One fix written `times` times, a second apart: a receiver repeating its last fix
    (or a log made to look like an hour of averaging)."""
    lines = [gga(lon, lat, quality=quality, hdop=hdop, second=s) for s in range(times)]
    path.write_text("\n".join(lines) + "\n", "ascii")
    return path


def independent_log(path: Path, lon: float, lat: float, *, seconds: int = 300,
                    hdop: float = 0.9, jitter_deg: float = 0.00002) -> Path:
    """A fix a second for `seconds` seconds, each at a different position around the point,
    as a receiver standing still writes them."""
    points = noisy_points(lon, lat, seconds + 1, jitter_deg=jitter_deg, seed=7)
    path.write_text("\n".join(gga(x, y, hdop=hdop, second=i) for i, (x, y)
                              in enumerate(points)) + "\n", "ascii")
    return path


def sparse_log(path: Path, lon: float, lat: float, *, size: int = 250 * 1000**2) -> Path:
    """A log that begins as a receiver's and is then `size` bytes long, nearly all of it a
    hole in the file (it takes no room on disk)."""
    path.write_text(gga(lon, lat) + "\n", "ascii")
    with path.open("r+b") as f:
        f.truncate(size)
    return path


def endless_fixes_log(path: Path, lon: float, lat: float, *, fixes: int) -> Path:
    """`fixes` short GGA sentences, each a new position: more fixes than a capture takes,
    in a file small enough to pass the size bound."""
    points = noisy_points(lon, lat, fixes, seed=3)
    with path.open("w", encoding="ascii") as f:
        for i, (x, y) in enumerate(points):
            f.write(gga(x, y, second=i) + "\n")
    return path
