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

@dataclass(frozen=True)
class Fix:
    longitude: float
    latitude: float
    quality: int
    hdop: float | None
    satellites: int | None


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

    def as_json(self) -> dict[str, Any]:
        return {"longitude": self.longitude, "latitude": self.latitude,
                "fixes_used": self.fixes_used, "fixes_rejected": self.fixes_rejected,
                "sentences_unreadable": self.sentences_unreadable,
                "fix_quality": self.best_quality,
                "mean_hdop": None if self.mean_hdop is None else round(self.mean_hdop, 2),
                "spread_ft": round(self.spread_ft, 1), "accuracy_ft": round(self.accuracy_ft, 1)}


def read_fixes(lines: Iterable[str]) -> tuple[list[Fix], int]:
    """GGA fixes from NMEA 0183 sentences; returns the fixes and the unreadable count."""
    fixes: list[Fix] = []
    unreadable = 0
    for raw in lines:
        line = raw.strip()
        if not line.startswith("$"):
            continue
        try:
            msg = pynmea2.parse(line, check=True)
        except (pynmea2.ParseError, ValueError, AttributeError):
            unreadable += 1
            continue
        if not isinstance(msg, pynmea2.types.talker.GGA):
            continue
        try:
            quality = int(msg.gps_qual or 0)
            lat, lon = float(msg.latitude), float(msg.longitude)
        except (TypeError, ValueError):
            unreadable += 1
            continue
        if quality == 0 or not msg.lat or not msg.lon:
            fixes.append(Fix(lon, lat, 0, None, None))
            continue
        hdop = float(msg.horizontal_dil) if msg.horizontal_dil else None
        sats = int(msg.num_sats) if msg.num_sats else None
        fixes.append(Fix(lon, lat, quality, hdop, sats))
    return fixes, unreadable


def average_fixes(fixes: Sequence[Fix], unreadable: int = 0, *,
                  max_hdop: float = MAX_HDOP, where: str = "GPS") -> AveragedFix:
    """Average the good fixes (a fix, HDOP at most max_hdop) into one position."""
    good = [f for f in fixes if f.quality in UERE_FT and (f.hdop is None or f.hdop <= max_hdop)]
    if not good:
        raise CaptureError(f"{where}: no usable GPS fix among {len(fixes)} position sentences "
                           f"({unreadable} unreadable); wait for a fix with HDOP at most "
                           f"{max_hdop:g} and capture again.")
    lon = np.array([f.longitude for f in good])
    lat = np.array([f.latitude for f in good])
    pts = _in_feet(shapely.MultiPoint(np.column_stack([lon, lat])), WGS84, where)
    xy = shapely.get_coordinates(pts)
    centre = xy.mean(axis=0)
    spread = float(2 * math.sqrt(((xy - centre) ** 2).sum(axis=1).mean()))  # 2DRMS
    best = max(good, key=lambda f: {4: 4, 5: 3, 2: 2, 1: 1}[f.quality]).quality
    hdops = [f.hdop for f in good if f.hdop is not None]
    mean_hdop = sum(hdops) / len(hdops) if hdops else None
    model = (mean_hdop or 1.0) * UERE_FT[best] * 2 / math.sqrt(len(good))
    point = geometry_to_lonlat(shapely.Point(centre))
    return AveragedFix(longitude=point["coordinates"][0], latitude=point["coordinates"][1],
                       fixes_used=len(good), fixes_rejected=len(fixes) - len(good),
                       sentences_unreadable=unreadable, best_quality=QUALITY_NAMES[best],
                       mean_hdop=mean_hdop, spread_ft=spread,
                       accuracy_ft=max(spread, model))


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
    fixes, unreadable = read_fixes(io.StringIO(text))
    return average_fixes(fixes, unreadable, where=str(path))


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
    fixes, unreadable = read_fixes(lines)
    return average_fixes(fixes, unreadable, where=port)
