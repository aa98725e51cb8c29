"""NMEA 0183 sentences for tests, with real checksums."""

from __future__ import annotations

import random
from functools import reduce


def _checksum(body: str) -> str:
    return f"{reduce(lambda a, c: a ^ ord(c), body, 0):02X}"


def _dm(value: float, lat: bool) -> tuple[str, str]:
    hemi = ("N" if value >= 0 else "S") if lat else ("E" if value >= 0 else "W")
    value = abs(value)
    degrees = int(value)
    minutes = (value - degrees) * 60
    return (f"{degrees:02d}{minutes:07.4f}" if lat else f"{degrees:03d}{minutes:07.4f}"), hemi


def gga(lon: float, lat: float, *, quality: int = 1, hdop: float = 0.9, sats: int = 9,
        second: int = 0) -> str:
    la, ns = _dm(lat, True)
    lo, ew = _dm(lon, False)
    body = (f"GPGGA,1200{second % 60:02d}.00,{la},{ns},{lo},{ew},{quality},{sats:02d},{hdop:.1f},"
            "210.0,M,-34.0,M,,")
    return f"${body}*{_checksum(body)}"


def noisy_log(lon: float, lat: float, n: int, *, jitter_deg: float = 0.00002, seed: int = 1,
              **kw: float) -> list[str]:
    rng = random.Random(seed)
    return [gga(lon + rng.uniform(-jitter_deg, jitter_deg),
                lat + rng.uniform(-jitter_deg, jitter_deg), second=i, **kw)  # type: ignore[arg-type]
            for i in range(n)]
