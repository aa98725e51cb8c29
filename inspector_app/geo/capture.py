"""Capturing site geometry: typed coordinates, survey plans, files and GPS.

Whatever the source, the result is a GeoJSON geometry in WGS84 longitude/latitude (what
the case file stores), checked for swapped axes and the area of use of EPSG:2261.
"""

from __future__ import annotations

import io
import math
import re
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pynmea2
import shapely
from pyproj import CRS

from ..errors import InputError
from ..paths import UnreadableFile, read_regular_file
from .crs import MEASURE_CRS, WGS84
from .vector_files import geometry_to_lonlat, read_geojson_areas, read_vector_file, to_measure_crs

# Typical horizontal error (one sigma, feet) per unit of HDOP, by GGA fix quality:
# 1 autonomous GPS, 2 differential (SBAS/DGPS), 4 RTK fixed, 5 RTK float.
UERE_FT = {1: 16.4, 2: 3.3, 4: 0.1, 5: 1.6}
QUALITY_NAMES = {0: "no fix", 1: "GPS", 2: "DGPS", 3: "PPS", 4: "RTK fixed", 5: "RTK float",
                 6: "estimated", 7: "manual", 8: "simulation"}
MAX_HDOP = 5.0


class CaptureError(InputError):
    pass


def _shape(points: Sequence[tuple[float, float]], kind: str, where: str) -> Any:
    if kind == "point":
        if len(points) != 1:
            raise CaptureError(f"{where}: a point takes one coordinate pair, not {len(points)}.")
        return shapely.Point(points[0])
    if kind == "line":
        if len(points) < 2:
            raise CaptureError(f"{where}: a line needs at least two points.")
        return shapely.LineString(points)
    if len(points) < 3:
        raise CaptureError(f"{where}: an area needs at least three corners.")
    polygon = shapely.Polygon(points)
    if not polygon.is_valid or polygon.area == 0:
        raise CaptureError(f"{where}: the corners do not outline an area (they cross or lie on "
                           "one line); give them in order around the area.")
    return shapely.geometry.polygon.orient(polygon)


def _in_feet(geom: Any, crs: str, where: str) -> Any:
    return to_measure_crs([geom], CRS.from_user_input(crs), where)[0]


def from_lonlat(points: Sequence[tuple[float, float]], kind: str,
                where: str = "typed coordinates") -> dict[str, Any]:
    """From typed longitude/latitude pairs (longitude first, as GeoJSON)."""
    return geometry_to_lonlat(_in_feet(_shape(points, kind, where), WGS84, where))


def from_state_plane(points_ft: Sequence[tuple[float, float]], kind: str,
                     where: str = "State Plane coordinates") -> dict[str, Any]:
    """From easting/northing off a survey plan: NY State Plane Central, US survey feet."""
    return geometry_to_lonlat(_in_feet(_shape(points_ft, kind, where), MEASURE_CRS, where))


def from_file(path: Path) -> dict[str, Any]:
    """One geometry from a GeoJSON, Shapefile or GeoPackage file."""
    features = (read_geojson_areas(path) if path.suffix.lower() in (".geojson", ".json")
                else read_vector_file(path))
    if len(features.geometries) != 1:
        raise CaptureError(f"{path}: holds {len(features.geometries)} features; give a file "
                           "with exactly one.")
    return geometry_to_lonlat(features.geometries[0])


def parse_pairs(text: str, where: str) -> list[tuple[float, float]]:
    """'x,y x,y ...' (or one pair per line / separated by semicolons) into number pairs."""
    pairs = []
    for token in text.replace(";", " ").split():
        parts = token.split(",")
        try:
            if len(parts) != 2:
                raise ValueError
            pairs.append((float(parts[0]), float(parts[1])))
        except ValueError:
            raise CaptureError(f"{where}: {token!r} is not a coordinate pair; write X,Y pairs "
                               "separated by spaces, e.g. -77.3001,42.8001") from None
    if not pairs:
        raise CaptureError(f"{where}: no coordinates given.")
    return pairs


# --- GPS -------------------------------------------------------------------------------

# A receiver standing still scatters its fixes by tens of feet (autonomous GPS at HDOP 2:
# a 2DRMS of about 65 ft). Fixes spread wider than this were recorded on the move, or the
# logs given for one point at different places: their average is not the point.
MAX_SPREAD_FT = 100.0
# The fewest usable fixes averaged into one position: fewer show no spread worth judging.
MIN_FIXES = 5


@dataclass(frozen=True)
class Fix:
    longitude: float
    latitude: float
    quality: int
    hdop: float | None
    satellites: int | None


@dataclass(frozen=True)
class NmeaReading:
    """What a log or a device gave: every GGA sentence as a Fix (quality 0 where it holds
    no position), and counts of the sentences read for naming what went wrong."""

    fixes: tuple[Fix, ...]
    sentences: int
    unreadable: int
    bad_checksums: int
    kinds: tuple[str, ...]


@dataclass(frozen=True)
class AveragedFix:
    longitude: float
    latitude: float
    fixes_used: int
    fixes_rejected: int
    sentences_unreadable: int
    best_quality: str
    mean_hdop: float | None
    spread_ft: float
    accuracy_ft: float
    fixes_without_hdop: int = 0
    logs: int = 1
    used: tuple[Fix, ...] = ()

    @property
    def note(self) -> str | None:
        """How the fixes were judged, when some gave no HDOP."""
        if not self.fixes_without_hdop:
            return None
        some = ("the" if self.fixes_without_hdop == self.fixes_used
                else f"{self.fixes_without_hdop:,} of the")
        return (f"{some} {self.fixes_used:,} fixes give no HDOP: they were judged by the "
                f"spread of the fixes alone (at most {MAX_SPREAD_FT:g} ft)")

    def as_json(self) -> dict[str, Any]:
        return {"longitude": self.longitude, "latitude": self.latitude,
                "fixes_used": self.fixes_used, "fixes_rejected": self.fixes_rejected,
                "sentences_unreadable": self.sentences_unreadable,
                "fix_quality": self.best_quality,
                "mean_hdop": None if self.mean_hdop is None else round(self.mean_hdop, 2),
                "spread_ft": round(self.spread_ft, 1), "accuracy_ft": round(self.accuracy_ft, 1),
                "fixes_without_hdop": self.fixes_without_hdop,
                "judged_by": ("spread" if self.fixes_without_hdop == self.fixes_used
                              else "hdop_and_spread"),
                "note": self.note, "logs": self.logs}


def read_fixes(lines: Iterable[str]) -> NmeaReading:
    """The GGA fixes of NMEA 0183 sentences. A sentence's checksum is checked when it has
    one; NMEA 0183 makes it optional, and receivers that leave it out are read too."""
    fixes: list[Fix] = []
    sentences = unreadable = bad_checksums = 0
    kinds: set[str] = set()
    for raw in lines:
        line = raw.strip()
        if not line.startswith("$"):
            continue
        sentences += 1
        try:
            msg = pynmea2.parse(line, check=False)
        except pynmea2.ChecksumError:
            unreadable += 1
            bad_checksums += 1
            continue
        except (pynmea2.ParseError, ValueError, AttributeError):
            unreadable += 1
            continue
        kinds.add(str(getattr(msg, "sentence_type", "") or "?"))
        if not isinstance(msg, pynmea2.types.talker.GGA):
            continue
        try:
            quality = int(msg.gps_qual or 0)
            lat, lon = float(msg.latitude), float(msg.longitude)
            hdop = float(msg.horizontal_dil) if msg.horizontal_dil else None
            sats = int(msg.num_sats) if msg.num_sats else None
        except (TypeError, ValueError):
            unreadable += 1
            continue
        if quality == 0 or not msg.lat or not msg.lon:
            fixes.append(Fix(lon, lat, 0, None, None))
            continue
        fixes.append(Fix(lon, lat, quality, hdop, sats))
    return NmeaReading(tuple(fixes), sentences, unreadable, bad_checksums, tuple(sorted(kinds)))


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 'es' if word.endswith('x') else 's'}"


def _refuse_without_fixes(reading: NmeaReading, where: str, max_hdop: float) -> list[Fix]:
    """The fixes worth averaging, or a refusal naming why there are none."""
    n = reading.sentences
    if not reading.fixes:
        if n == 0:
            raise CaptureError(f"{where}: no NMEA 0183 sentence was read; check that the "
                               "receiver is on and sending, and capture again.")
        if reading.unreadable == n:
            damaged = (f" ({_plural(reading.bad_checksums, 'sentence')} with a checksum that "
                       "does not match: the log is damaged)" if reading.bad_checksums else "")
            raise CaptureError(f"{where}: none of its {_plural(n, 'NMEA sentence')} could be "
                               f"read{damaged}; give the log as the receiver wrote it.")
        kinds = ", ".join(reading.kinds)
        raise CaptureError(f"{where}: its {_plural(n, 'NMEA sentence')} ({kinds}) include no "
                           "GGA sentence, the one that carries a position fix; set the "
                           "receiver to log GGA sentences and record again.")
    positioned = [f for f in reading.fixes if f.quality != 0]
    if not positioned:
        raise CaptureError(f"{where}: none of its {_plural(len(reading.fixes), 'GGA sentence')} "
                           "has a position fix (fix quality 0: no fix); wait where the "
                           "receiver sees open sky until it shows a fix, then record again.")
    measured = [f for f in positioned if f.quality in UERE_FT]
    if not measured:
        names = ", ".join(sorted({QUALITY_NAMES.get(f.quality, str(f.quality))
                                  for f in positioned}))
        raise CaptureError(f"{where}: none of its {_plural(len(positioned), 'fix')} is of a "
                           f"kind that measures a position ({names}); record with the "
                           "receiver tracking satellites (a GPS, DGPS or RTK fix).")
    good = [f for f in measured if f.hdop is None or f.hdop <= max_hdop]
    if not good:
        lowest = min(f.hdop for f in measured if f.hdop is not None)
        raise CaptureError(f"{where}: none of its {_plural(len(measured), 'fix')} has an HDOP "
                           f"of at most {max_hdop:g} (the lowest is {lowest:g}): the satellites "
                           "were hidden or poorly placed; move clear of trees and buildings "
                           f"if you can, wait for HDOP at most {max_hdop:g} and record again.")
    if len(good) < MIN_FIXES:
        others = len(reading.fixes) - len(good)
        rejected = f" ({_plural(others, 'other')} without a fix or with HDOP above " \
                   f"{max_hdop:g})" if others else ""
        raise CaptureError(f"{where}: only {_plural(len(good), 'usable fix')}{rejected}; at "
                           f"least {MIN_FIXES} are needed to average a position and judge "
                           "its spread; stand at the point and record for longer.")
    return good


def _average(good: Sequence[Fix], *, rejected: int, unreadable: int, where: str,
             logs: int = 1) -> AveragedFix:
    lon = np.array([f.longitude for f in good])
    lat = np.array([f.latitude for f in good])
    pts = _in_feet(shapely.MultiPoint(np.column_stack([lon, lat])), WGS84, where)
    xy = shapely.get_coordinates(pts)
    centre = xy.mean(axis=0)
    spread = float(2 * math.sqrt(((xy - centre) ** 2).sum(axis=1).mean()))  # 2DRMS
    best = max(good, key=lambda f: {4: 4, 5: 3, 2: 2, 1: 1}[f.quality]).quality
    hdops = [f.hdop for f in good if f.hdop is not None]
    mean_hdop = sum(hdops) / len(hdops) if hdops else None
    # Without HDOP, the best the fix type gives (HDOP 1) is the least error claimed.
    model = (mean_hdop or 1.0) * UERE_FT[best] * 2 / math.sqrt(len(good))
    point = geometry_to_lonlat(shapely.Point(centre))
    return AveragedFix(longitude=point["coordinates"][0], latitude=point["coordinates"][1],
                       fixes_used=len(good), fixes_rejected=rejected,
                       sentences_unreadable=unreadable, best_quality=QUALITY_NAMES[best],
                       mean_hdop=mean_hdop, spread_ft=spread, accuracy_ft=max(spread, model),
                       fixes_without_hdop=len(good) - len(hdops), logs=logs, used=tuple(good))


def average_fixes(reading: NmeaReading, *, max_hdop: float = MAX_HDOP,
                  where: str = "GPS") -> AveragedFix:
    """Average the good fixes (a fix, HDOP at most max_hdop) into one position; a log
    whose fixes spread wider than MAX_SPREAD_FT was recorded on the move and is refused."""
    good = _refuse_without_fixes(reading, where, max_hdop)
    fix = _average(good, rejected=len(reading.fixes) - len(good),
                   unreadable=reading.unreadable, where=where)
    if fix.spread_ft > MAX_SPREAD_FT:
        raise CaptureError(f"{where}: its {_plural(fix.fixes_used, 'fix')} spread over "
                           f"{fix.spread_ft:,.0f} ft (2DRMS), more than the "
                           f"{MAX_SPREAD_FT:g} ft of a receiver standing still: it was "
                           "recorded on the move; stand still at the point and record "
                           "again.")
    return fix


def average_together(fixes: Sequence[AveragedFix], names: Sequence[str]) -> AveragedFix:
    """Several logs recorded at one point, each averaged on its own, as one position: all
    their fixes averaged together. Logs whose positions lie further apart than
    MAX_SPREAD_FT were recorded at different places and are refused."""
    if len(fixes) == 1:
        return fixes[0]
    where = f"{len(fixes)} GPS logs"
    together = _average([f for fix in fixes for f in fix.used],
                        rejected=sum(f.fixes_rejected for f in fixes),
                        unreadable=sum(f.sentences_unreadable for f in fixes), where=where,
                        logs=len(fixes))
    if together.spread_ft > MAX_SPREAD_FT:
        xy = shapely.get_coordinates(_in_feet(shapely.MultiPoint(
            [(f.longitude, f.latitude) for f in fixes]), WGS84, where))
        gap, a, b = max((float(np.hypot(*(xy[i] - xy[j]))), i, j)
                        for i in range(len(xy)) for j in range(i + 1, len(xy)))
        raise CaptureError(f"{names[a]} and {names[b]}: these logs of one point lie "
                           f"{gap:,.0f} ft apart (their fixes spread over "
                           f"{together.spread_ft:,.0f} ft, more than the {MAX_SPREAD_FT:g} ft "
                           "of a receiver standing still): they were recorded at different "
                           "places; give the logs recorded at the point, or record it again.")
    return together


MAX_NMEA_LOG_BYTES = 200 * 1024**2


def average_log(path: Path) -> AveragedFix:
    try:
        raw = read_regular_file(path, limit=MAX_NMEA_LOG_BYTES, what="NMEA log")
    except FileNotFoundError:
        raise CaptureError(f"{path}: no such NMEA log.") from None
    except UnreadableFile as exc:
        raise CaptureError(str(exc)) from None
    text = raw.decode("ascii", errors="replace")
    if not _NMEA_SENTENCE.search(text):
        raise CaptureError(f"{path}: is not an NMEA 0183 log (no line is a sentence such as "
                           "$GPGGA,...); give the log file the GPS receiver wrote.")
    return average_fixes(read_fixes(io.StringIO(text)), where=str(path))


# The start of an NMEA 0183 sentence: "$", a two-letter talker and a three-letter type.
_NMEA_SENTENCE = re.compile(r"^\s*\$[A-Z]{2}[A-Z]{3},", re.MULTILINE)


def average_device(port: str, *, seconds: float, baud: int = 4800) -> AveragedFix:
    """Read NMEA sentences from a serial GPS for a number of seconds and average them."""
    import serial  # pyserial: only needed with a device attached

    try:
        device = serial.Serial(port, baudrate=baud, timeout=1)
    except (serial.SerialException, OSError) as exc:
        raise CaptureError(f"{port}: cannot open the GPS device ({exc}).") from None
    lines: list[str] = []
    deadline = time.monotonic() + seconds
    with device:
        while time.monotonic() < deadline:
            raw = device.readline()
            if raw:
                lines.append(raw.decode("ascii", errors="replace"))
    return average_fixes(read_fixes(lines), where=port)
