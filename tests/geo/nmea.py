"""NMEA 0183 sentences for tests, shaped as receivers write them: real checksums (or none,
which NMEA 0183 allows), GGA among RMC, GSA and GSV, quality 0 fixes with empty fields."""

from __future__ import annotations

import random
from functools import reduce


def _checksum(body: str) -> str:
    return f"{reduce(lambda a, c: a ^ ord(c), body, 0):02X}"


def sentence(body: str, *, checksum: bool = True) -> str:
    return f"${body}*{_checksum(body)}" if checksum else f"${body}"


def _dm(value: float, lat: bool) -> tuple[str, str]:
    hemi = ("N" if value >= 0 else "S") if lat else ("E" if value >= 0 else "W")
    value = abs(value)
    degrees = int(value)
    minutes = (value - degrees) * 60
    return (f"{degrees:02d}{minutes:07.4f}" if lat else f"{degrees:03d}{minutes:07.4f}"), hemi


def _time(second: int) -> str:
    return f"12{second // 60 % 60:02d}{second % 60:02d}.00"


def gga(lon: float, lat: float, *, quality: int = 1, hdop: float | None = 0.9, sats: int = 9,
        second: int = 0, talker: str = "GP", checksum: bool = True) -> str:
    la, ns = _dm(lat, True)
    lo, ew = _dm(lon, False)
    dop = "" if hdop is None else f"{hdop:.1f}"
    body = (f"{talker}GGA,{_time(second)},{la},{ns},{lo},{ew},{quality},{sats:02d},{dop},"
            "210.0,M,-34.0,M,,")
    return sentence(body, checksum=checksum)


def gga_no_fix(second: int = 0, *, talker: str = "GP", checksum: bool = True) -> str:
    """What a receiver writes before its first fix: quality 0, the position fields empty."""
    return sentence(f"{talker}GGA,{_time(second)},,,,,0,00,99.99,,,,,,", checksum=checksum)


def rmc(lon: float, lat: float, *, second: int = 0, talker: str = "GP",
        checksum: bool = True) -> str:
    la, ns = _dm(lat, True)
    lo, ew = _dm(lon, False)
    return sentence(f"{talker}RMC,{_time(second)},A,{la},{ns},{lo},{ew},0.02,,291126,,,A",
                    checksum=checksum)


def gsa(*, talker: str = "GP", checksum: bool = True) -> str:
    return sentence(f"{talker}GSA,A,3,02,05,12,13,15,18,24,25,29,,,,1.71,0.92,1.44",
                    checksum=checksum)


def gsv(*, talker: str = "GP", checksum: bool = True) -> str:
    return sentence(f"{talker}GSV,3,1,11,02,45,296,42,05,33,213,38,12,67,045,45,13,21,"
                    "310,33", checksum=checksum)


def receiver_log(points: list[tuple[float, float]], *, talker: str = "GN",
                 checksum: bool = True, hdop: float | None = 0.9, no_fix_first: int = 3,
                 quality: int = 1) -> list[str]:
    """A receiver's log, one epoch a second: a few epochs without a fix, then RMC, GGA,
    GSA and GSV for each position given."""
    lines = [gga_no_fix(s, talker=talker, checksum=checksum) for s in range(no_fix_first)]
    for i, (lon, lat) in enumerate(points, start=no_fix_first):
        lines += [rmc(lon, lat, second=i, talker=talker, checksum=checksum),
                  gga(lon, lat, second=i, talker=talker, checksum=checksum, hdop=hdop,
                      quality=quality),
                  gsa(talker=talker, checksum=checksum)]
        if i % 5 == 0:
            lines.append(gsv(talker="GP", checksum=checksum))
    return lines


def noisy_points(lon: float, lat: float, n: int, *, jitter_deg: float = 0.00002,
                 seed: int = 1) -> list[tuple[float, float]]:
    rng = random.Random(seed)
    return [(lon + rng.uniform(-jitter_deg, jitter_deg), lat + rng.uniform(-jitter_deg,
                                                                         jitter_deg))
            for _ in range(n)]


def noisy_log(lon: float, lat: float, n: int, *, jitter_deg: float = 0.00002, seed: int = 1,
              **kw: float) -> list[str]:
    return [gga(p[0], p[1], second=i, **kw)  # type: ignore[arg-type]
            for i, p in enumerate(noisy_points(lon, lat, n, jitter_deg=jitter_deg, seed=seed))]
