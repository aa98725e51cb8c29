"""Coordinate systems. Distances are measured in NY State Plane Central, US survey feet."""

from __future__ import annotations

import warnings
from functools import lru_cache
from typing import Any

import numpy as np
from pyproj import CRS, Transformer
from pyproj.exceptions import CRSError, ProjError

MEASURE_CRS = "EPSG:2261"  # NAD83 / New York Central (ftUS)
WGS84 = "OGC:CRS84"  # longitude, latitude


@lru_cache(maxsize=32)
def transformer(source: str, target: str) -> Transformer:
    # Creating a Transformer costs milliseconds; every caller shares these.
    with warnings.catch_warnings():
        # The NAD83<->WGS84 grid is not bundled; pyproj falls back to a ballpark
        # transformation (a few metres absolute, identical for every point, so
        # distances between points transformed the same way are unaffected).
        warnings.simplefilter("ignore")
        return Transformer.from_crs(CRS.from_user_input(source), CRS.from_user_input(target),
                                    always_xy=True)


class UnusableCRS(ValueError):
    """A coordinate system this app cannot read, or cannot convert to its own."""


def usable_crs(text: str) -> CRS:
    """The CRS a file names (EPSG code, WKT, PROJ string...), read and known to convert to
    EPSG:2261 and WGS84; UnusableCRS when it is unknown or cannot be converted (a CRS of
    another celestial body, say)."""
    try:
        crs = CRS.from_user_input(text)
        wkt = crs.to_wkt()
        transformer(wkt, MEASURE_CRS)
        transformer(wkt, WGS84)
    except (CRSError, ProjError):
        raise UnusableCRS(text) from None
    return crs


def lonlat_to_feet(lon: Any, lat: Any) -> tuple[np.ndarray, np.ndarray]:
    x, y = transformer(WGS84, MEASURE_CRS).transform(np.asarray(lon, dtype=float),
                                                     np.asarray(lat, dtype=float))
    return np.asarray(x), np.asarray(y)


def feet_to_lonlat(x: Any, y: Any) -> tuple[np.ndarray, np.ndarray]:
    lon, lat = transformer(MEASURE_CRS, WGS84).transform(np.asarray(x, dtype=float),
                                                         np.asarray(y, dtype=float))
    return np.asarray(lon), np.asarray(lat)
