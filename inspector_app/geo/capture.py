"""Capturing site geometry: typed coordinates, survey plans, files and GPS.

Whatever the source, the result is a GeoJSON geometry in WGS84 longitude/latitude (what
the case file stores), checked for swapped axes and the area of use of EPSG:2261.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pynmea2
import shapely
from pyproj import CRS

from ..errors import InputError
from ..paths import UnreadableFile, read_regular_lines
from .crs import MEASURE_CRS, WGS84
from .vector_files import (
    Bounds,
    geometry_to_lonlat,
    read_geojson_areas,
    read_vector_file,
    to_measure_crs,
)

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


# A file given for one thing on a site: an absorption area or a dwelling has tens of
# corners, a watercourse or a property line traced off a plan some hundreds of vertices.
SITE_FILE = Bounds(features=100, vertices=10_000, what="a file for one site feature",
                   fewer="give a file with exactly one")


def from_file(path: Path) -> dict[str, Any]:
    """One geometry from a GeoJSON, Shapefile or GeoPackage file."""
    features = (read_geojson_areas(path, SITE_FILE)
                if path.suffix.lower() in (".geojson", ".json")
                else read_vector_file(path, SITE_FILE))
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

# GPS errors are correlated over minutes: the satellites' geometry, the atmosphere's delays
# and multipath change slowly, so fixes a second apart repeat most of each other's error,
# and averaging them reduces it far less than 1/sqrt(N). Wilson's twenty-day test of a
# stationary receiver ("GPS Error When Averaging Position" and "Correlation of Errors",
# users.erols.com/dlwilson/gpsavg.htm, gpscorr.htm) finds the error's autocorrelation
# bending only after about a minute and a second, long-term component lasting hours;
# Schumayer et al., "Comparison of Enhanced Noise Model Performance Based on Analysis of
# Civilian GPS Data", Sensors 20(21):6050 (2020), doi:10.3390/s20216050, find the
# position noise of stationary single-frequency receivers significantly autocorrelated,
# not white. So the 1/sqrt(N) reduction counts independent samples only: the most fixes
# of the log that lie at least this far apart in time (a setting chosen on the safe side
# of those findings; not confirmed for any one receiver). A log of a few minutes is one
# sample: the accuracy of a single fix of its quality.
INDEPENDENT_AFTER_S = 300.0

# A field capture needs a few minutes at a point. A 1 Hz receiver writing every sentence
# of several constellations (GGA, RMC, GSA, GSV, VTG...) writes about 1.5 KB a second,
# 5.4 MB an hour; the bounds below allow some 6 hours of that, or 10 hours of 1 Hz fixes
# (1 hour at 10 Hz). A log beyond either is refused as it is read, never read whole.
MAX_NMEA_LOG_BYTES = 32 * 1000**2
MAX_GGA_FIXES = 36_000
# A log without one NMEA sentence in its first megabyte is not a receiver's log.
_SNIFF_BYTES = 1000**2


@dataclass(frozen=True)
class Fix:
    longitude: float
    latitude: float
    quality: int
    hdop: float | None
    satellites: int | None
    second: float | None = None  # of the day (UTC), as the GGA sentence gives it


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
    fixes_repeated: int = 0
    independent_samples: int = 1

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
                "note": self.note, "logs": self.logs,
                "fixes_repeated": self.fixes_repeated,
                "independent_samples": self.independent_samples}


class TooManyFixes(CaptureError):
    pass


def _second_of_day(msg: Any) -> float | None:
    stamp = getattr(msg, "timestamp", None)
    if stamp is None:
        return None
    return float(stamp.hour * 3600 + stamp.minute * 60 + stamp.second
                 + stamp.microsecond / 1e6)


def read_fixes(lines: Iterable[str], *, max_fixes: int = MAX_GGA_FIXES,
               where: str = "GPS") -> NmeaReading:
    """The GGA fixes of NMEA 0183 sentences. A sentence's checksum is checked when it has
    one; NMEA 0183 makes it optional, and receivers that leave it out are read too. More
    than `max_fixes` GGA sentences are refused as soon as the one over is read."""
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
        if len(fixes) >= max_fixes:
            raise TooManyFixes(
                f"{where}: holds more than {max_fixes:,} GGA fixes ({max_fixes / 3600:g} "
                "hours of one a second); a point needs a few minutes of fixes: give the "
                "part of the log recorded at the point.")
        try:
            quality = int(msg.gps_qual or 0)
            lat, lon = float(msg.latitude), float(msg.longitude)
            hdop = float(msg.horizontal_dil) if msg.horizontal_dil else None
            sats = int(msg.num_sats) if msg.num_sats else None
            second = _second_of_day(msg)
        except (TypeError, ValueError):
            unreadable += 1
            continue
        if quality == 0 or not msg.lat or not msg.lon:
            fixes.append(Fix(lon, lat, 0, None, None))
            continue
        fixes.append(Fix(lon, lat, quality, hdop, sats, second))
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


def _without_repeats(fixes: Sequence[Fix]) -> list[Fix]:
    """A fix at the very position of the one before is the receiver repeating its last
    fix (it had no new one), not a new measurement: identical consecutive fixes are one."""
    kept: list[Fix] = []
    for fix in fixes:
        if kept and (fix.longitude, fix.latitude) == (kept[-1].longitude, kept[-1].latitude):
            continue
        kept.append(fix)
    return kept


def independent_samples(fixes: Sequence[Fix]) -> int:
    """How many of the fixes count as independent: the most that lie INDEPENDENT_AFTER_S
    apart in time. Fixes without a time show no time apart: one sample. GGA gives the time
    of day only: a time more than half a day before the one before is the next day's."""
    seconds: list[float] = []
    day = 0.0
    for fix in fixes:
        if fix.second is None:
            continue
        if seconds and fix.second + day < seconds[-1] - 43_200:
            day += 86_400
        seconds.append(fix.second + day)
    if not seconds:
        return 1
    seconds.sort()
    samples, last = 1, seconds[0]
    for second in seconds[1:]:
        if second - last >= INDEPENDENT_AFTER_S:
            samples, last = samples + 1, second
    return samples


def _average(given: Sequence[Fix], *, rejected: int, unreadable: int, where: str,
             logs: int = 1) -> AveragedFix:
    good = _without_repeats(given)
    lon = np.array([f.longitude for f in good])
    lat = np.array([f.latitude for f in good])
    pts = _in_feet(shapely.MultiPoint(np.column_stack([lon, lat])), WGS84, where)
    xy = shapely.get_coordinates(pts)
    centre = xy.mean(axis=0)
    spread = float(2 * math.sqrt(((xy - centre) ** 2).sum(axis=1).mean()))  # 2DRMS
    best = max(good, key=lambda f: {4: 4, 5: 3, 2: 2, 1: 1}[f.quality]).quality
    hdops = [f.hdop for f in good if f.hdop is not None]
    mean_hdop = sum(hdops) / len(hdops) if hdops else None
    # One fix's 2DRMS from its own quality and HDOP (without HDOP, the best its fix type
    # gives: HDOP 1), averaged over the fixes: one RTK fix among autonomous ones does not
    # lend them its precision. Averaging reduces it by the square root of the independent
    # samples only, never by the count of fixes taken seconds apart.
    single = sum((f.hdop or 1.0) * UERE_FT[f.quality] * 2 for f in good) / len(good)
    samples = min(len(good), independent_samples(good))
    model = single / math.sqrt(samples)
    point = geometry_to_lonlat(shapely.Point(centre))
    return AveragedFix(longitude=point["coordinates"][0], latitude=point["coordinates"][1],
                       fixes_used=len(good), fixes_rejected=rejected,
                       sentences_unreadable=unreadable, best_quality=QUALITY_NAMES[best],
                       mean_hdop=mean_hdop, spread_ft=spread, accuracy_ft=max(spread, model),
                       fixes_without_hdop=len(good) - len(hdops), logs=logs, used=tuple(good),
                       fixes_repeated=len(given) - len(good), independent_samples=samples)


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


def _log_lines(path: Path) -> Iterator[str]:
    """The lines of a log file, read as they are used, within MAX_NMEA_LOG_BYTES; a file
    with no NMEA sentence in its first _SNIFF_BYTES (or at all) is refused as not a log."""
    read = 0
    sentence_seen = False
    try:
        for raw in read_regular_lines(path, limit=MAX_NMEA_LOG_BYTES, what="NMEA log"):
            line = raw.decode("ascii", errors="replace")
            read += len(raw)
            if not sentence_seen:
                sentence_seen = bool(_NMEA_SENTENCE.match(line))
                if not sentence_seen and read > _SNIFF_BYTES:
                    break
            yield line
    except FileNotFoundError:
        raise CaptureError(f"{path}: no such NMEA log.") from None
    except UnreadableFile as exc:
        raise CaptureError(str(exc)) from None
    if not sentence_seen:
        raise CaptureError(f"{path}: is not an NMEA 0183 log (no line is a sentence such as "
                           "$GPGGA,...); give the log file the GPS receiver wrote.")


def average_log(path: Path) -> AveragedFix:
    return average_fixes(read_fixes(_log_lines(path), where=str(path)), where=str(path))


# The start of an NMEA 0183 sentence: "$", a two-letter talker and a three-letter type.
_NMEA_SENTENCE = re.compile(r"^\s*\$[A-Z]{2}[A-Z]{3},")


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
    return average_fixes(read_fixes(lines, where=port), where=port)
