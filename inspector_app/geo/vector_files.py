"""Reading geometry from files: GeoJSON, ESRI Shapefile (with .prj) and GeoPackage.

Every geometry is checked for a usable CRS, swapped latitude/longitude and coordinates
outside NY State Plane Central's area of use before it is projected to EPSG:2261.
"""

from __future__ import annotations

import json
import warnings
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import shapely
from pyproj import CRS
from pyproj.exceptions import CRSError
from shapely.geometry.base import BaseGeometry

from ..errors import InputError
from ..json_input import NonFiniteNumber, loads
from ..nesting import TooDeep
from .crs import MEASURE_CRS, WGS84, transformer

# Latitude and longitude ranges around New York, to recognise swapped axes.
_NY_LAT = (40.0, 46.0)
_NY_LON = (-80.5, -71.0)


class GeometryFileError(InputError):
    pass


@dataclass(frozen=True)
class Features:
    """Geometries read from a file, in EPSG:2261 feet, with their ids and source CRS."""

    geometries: list[BaseGeometry]
    ids: list[Any]
    source_crs: str

    @property
    def vertex_count(self) -> int:
        return int(shapely.get_num_coordinates(np.asarray(self.geometries,
                                                          dtype=object)).sum())


def _crs(text: str | None, path: Path | str) -> CRS:
    if not text:
        raise GeometryFileError(
            f"{path}: has no coordinate reference system; a Shapefile needs its .prj file "
            "beside it, and GeoJSON must be WGS84 or name its CRS.")
    try:
        return CRS.from_user_input(text)
    except CRSError:
        raise GeometryFileError(f"{path}: its coordinate reference system {text!r} is not "
                                "one this app can use.") from None


@lru_cache(maxsize=1)
def area_of_use() -> tuple[float, float, float, float]:
    aou = CRS.from_user_input(MEASURE_CRS).area_of_use
    assert aou is not None
    return aou.west, aou.south, aou.east, aou.north


def to_measure_crs(geoms: list[BaseGeometry], crs: CRS, where: str, *,
                   crs_wkt: str | None = None) -> list[BaseGeometry]:
    """Check and project geometries to EPSG:2261; refuse swapped or out-of-area input.
    `crs_wkt` is `crs.to_wkt()`, when the caller has it."""
    wkt = crs.to_wkt() if crs_wkt is None else crs_wkt
    arr = np.asarray(geoms, dtype=object)
    coords = shapely.get_coordinates(arr)
    if not len(coords):
        raise GeometryFileError(f"{where}: contains no coordinates.")
    if not np.isfinite(coords).all():
        raise GeometryFileError(f"{where}: has coordinates that are not numbers.")
    if crs.is_geographic:
        lon, lat = coords[:, 0], coords[:, 1]
        swapped = (_NY_LAT[0] <= lon.min() and lon.max() <= _NY_LAT[1]
                   and _NY_LON[0] <= lat.min() and lat.max() <= _NY_LON[1])
        if swapped:
            raise GeometryFileError(
                f"{where}: latitude and longitude look swapped (the first coordinate is "
                f"{lon[0]:.5f}, the second {lat[0]:.5f}); GeoJSON and this app put "
                "longitude first, about -77.3 at the lake.")
    else:
        to_lonlat = transformer(wkt, WGS84)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            lon, lat = to_lonlat.transform(coords[:, 0], coords[:, 1])
    west, south, east, north = area_of_use()
    tol = 0.01
    if not (np.isfinite(lon).all() and np.isfinite(lat).all()) or (
            lon.min() < west - tol or lon.max() > east + tol or lat.min() < south - tol
            or lat.max() > north + tol):
        raise GeometryFileError(
            f"{where}: coordinates lie outside the area of use of NY State Plane Central "
            f"(EPSG:2261: longitude {west} to {east}, latitude {south} to {north}); found "
            f"longitude {float(np.nanmin(lon)):.4f} to {float(np.nanmax(lon)):.4f}, latitude "
            f"{float(np.nanmin(lat)):.4f} to {float(np.nanmax(lat)):.4f}. Check the coordinate "
            "system the coordinates are in.")
    to_feet = transformer(wkt, MEASURE_CRS)

    def project(xy: np.ndarray) -> np.ndarray:
        x, y = to_feet.transform(xy[:, 0], xy[:, 1])
        return np.column_stack([x, y])

    out = shapely.transform(arr, project)
    if not np.isfinite(shapely.get_coordinates(out)).all():
        raise GeometryFileError(f"{where}: coordinates could not be projected to EPSG:2261.")
    return list(out)


# The GDAL drivers of the layer files this app reads, and how to say so.
READ_DRIVERS = frozenset({"GeoJSON", "ESRI Shapefile", "GPKG"})
_LAYER_SUFFIXES = frozenset({".geojson", ".json", ".shp", ".gpkg"})
_NOT_A_LAYER = ("is not a file type this app reads; give a GeoJSON file (.geojson or .json), "
                "an ESRI Shapefile (.shp, with its .shx, .dbf and .prj beside it) or a "
                "GeoPackage (.gpkg).")


def _read_raw(path: Path, columns: Any = None) -> tuple[dict[str, Any], Any, Any, Any]:
    """pyogrio's raw read of a layer file (meta, fids, WKB, field data), with every failure
    said as a GeometryFileError. `columns`, when given, is called with the file's field
    names and gives those to read (None: all of them)."""
    if not path.exists():
        raise GeometryFileError(f"{path}: no such file.")
    import pyogrio  # GDAL is loaded only when a file is actually read

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            info = pyogrio.read_info(path)
            if info.get("driver") not in READ_DRIVERS:
                raise GeometryFileError(f"{path}: {_NOT_A_LAYER}")
            wanted = None if columns is None else columns([str(f) for f in info["fields"]])
            meta, fids, wkb, field_data = pyogrio.raw.read(path, return_fids=True,
                                                           columns=wanted)
    except GeometryFileError:
        raise
    except Exception as exc:
        detail = str(exc).strip()
        if not detail or "not recognized as" in detail or "<DRIVER>" in detail:
            if path.suffix.lower() not in _LAYER_SUFFIXES:
                raise GeometryFileError(f"{path}: {_NOT_A_LAYER}") from None
            detail = "the file is damaged, or is not what its name says"
        raise GeometryFileError(f"{path}: cannot be read as GeoJSON, an ESRI Shapefile or a "
                                f"GeoPackage ({detail}).") from None
    return meta, fids, wkb, field_data


def read_vector_file(path: Path) -> Features:
    """Read a Shapefile, GeoPackage or GeoJSON layer and project it to EPSG:2261."""
    meta, fids, wkb, _ = _read_raw(path)
    crs = _crs(meta.get("crs"), path)
    geoms = [g for g in shapely.from_wkb(wkb) if g is not None and not g.is_empty] if (
        wkb is not None) else []
    if not geoms:
        raise GeometryFileError(f"{path}: contains no geometry.")
    ids = list(fids) if fids is not None else list(range(len(geoms)))
    return Features(to_measure_crs(geoms, crs, str(path)), ids, crs.to_string())


@dataclass(frozen=True)
class FeatureTable:
    """Every feature of a file, in file order: its id, its geometry in EPSG:2261 feet
    (None where the feature has none) and the values of the fields read."""

    ids: list[int]
    geometries: list[BaseGeometry | None]
    fields: dict[str, list[Any]]
    field_names: list[str]  # every field the file has, read or not
    source_crs: str


def read_vector_table(path: Path, columns: Any = None) -> FeatureTable:
    """Read a Shapefile, GeoPackage or GeoJSON layer with its attributes, features without
    geometry kept (as None) so that each value stays beside its feature. `columns` is
    called with the file's field names and gives those to read (None: all)."""
    names: list[str] = []

    def chosen(fields: list[str]) -> Any:
        names.extend(fields)
        return None if columns is None else columns(fields)

    meta, fids, wkb, field_data = _read_raw(path, chosen)
    crs = _crs(meta.get("crs"), path)
    count = 0 if wkb is None else len(wkb)
    decoded = shapely.from_wkb(wkb) if count else np.empty(0, dtype=object)
    present = np.array([g is not None and not g.is_empty for g in decoded], dtype=bool)
    if not present.any():
        raise GeometryFileError(f"{path}: contains no geometry.")
    projected = np.empty(count, dtype=object)
    projected[present] = to_measure_crs(list(decoded[present]), crs, str(path),
                                        crs_wkt=crs.to_wkt())
    ids = [int(i) for i in fids] if fids is not None else list(range(count))
    read = [str(f) for f in meta.get("fields", [])]
    fields = {name: list(values) for name, values in zip(read, field_data or [], strict=True)}
    return FeatureTable(ids, [g if ok else None for g, ok in zip(projected, present,
                                                                   strict=True)],
                        fields, names, crs.to_string())


def _geojson_crs(doc: dict[str, Any], path: Path) -> CRS:
    named = doc.get("crs")
    if named is None:
        return CRS.from_user_input(WGS84)  # RFC 7946: GeoJSON is WGS84 lon/lat
    try:
        return _crs(named["properties"]["name"], path)
    except (KeyError, TypeError):
        raise GeometryFileError(
            f"{path}: its \"crs\" member is not a named CRS "
            "({\"type\": \"name\", \"properties\": {\"name\": ...}}).") from None


def read_geojson_areas(path: Path) -> Features:
    """Read a GeoJSON geometry, Feature or FeatureCollection, keeping each feature's id."""
    try:
        doc = loads(path.read_text("utf-8"))
    except FileNotFoundError:
        raise GeometryFileError(f"{path}: no such file.") from None
    except (NonFiniteNumber, TooDeep) as exc:
        raise GeometryFileError(f"{path}: {exc}.") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise GeometryFileError(f"{path}: is not GeoJSON ({exc}).") from None
    if not isinstance(doc, dict) or "type" not in doc:
        raise GeometryFileError(f"{path}: is not GeoJSON (no \"type\").")
    crs = _geojson_crs(doc, path)
    kind = doc["type"]
    if kind == "FeatureCollection":
        features = doc.get("features")
        if not isinstance(features, list):
            raise GeometryFileError(f"{path}: \"features\" must be a list.")
    elif kind == "Feature":
        features = [doc]
    else:
        features = [{"type": "Feature", "geometry": doc}]
    geoms, ids = [], []
    for i, feature in enumerate(features):
        where = f"{path}: feature {i + 1}" if kind == "FeatureCollection" else str(path)
        geometry = feature.get("geometry") if isinstance(feature, dict) else None
        if not geometry:
            raise GeometryFileError(f"{where} has no geometry.")
        try:
            geom = shapely.geometry.shape(geometry)
        except Exception as exc:
            raise GeometryFileError(f"{where} is not a valid GeoJSON geometry ({exc}).") from None
        if geom.is_empty:
            raise GeometryFileError(f"{where} is empty.")
        geoms.append(geom)
        ids.append(feature.get("id", i + 1 if kind == "FeatureCollection" else None))
    if not geoms:
        raise GeometryFileError(f"{path}: contains no geometry.")
    projected = [to_measure_crs([g], crs, f"{path}: feature {i + 1}" if len(geoms) > 1
                                else str(path))[0] for i, g in enumerate(geoms)]
    return Features(projected, ids, crs.to_string())


def feet_to_lonlat_point(x: float, y: float) -> list[float]:
    lon, lat = transformer(MEASURE_CRS, WGS84).transform(x, y)
    return [round(float(lon), 7), round(float(lat), 7)]


def geometry_to_lonlat(geom: BaseGeometry) -> dict[str, Any]:
    """A geometry in EPSG:2261 as a GeoJSON dict in WGS84, 7 decimals (about 1 cm)."""
    to_lonlat = transformer(MEASURE_CRS, WGS84)

    def project(xy: np.ndarray) -> np.ndarray:
        lon, lat = to_lonlat.transform(xy[:, 0], xy[:, 1])
        return np.round(np.column_stack([lon, lat]), 7)

    out: dict[str, Any] = json.loads(shapely.to_geojson(shapely.transform(geom, project)))
    return out


def geometry_from_lonlat(geojson: dict[str, Any], where: str) -> BaseGeometry:
    """A WGS84 GeoJSON geometry, checked and projected to EPSG:2261."""
    geom = shapely.geometry.shape(geojson)
    crs, wkt = _wgs84()
    return to_measure_crs([geom], crs, where, crs_wkt=wkt)[0]


@lru_cache(maxsize=1)
def _wgs84() -> tuple[CRS, str]:
    crs = CRS.from_user_input(WGS84)
    return crs, crs.to_wkt()


def lonlat_many_to_measure_crs(geoms: list[BaseGeometry]) -> list[BaseGeometry] | None:
    """WGS84 geometries projected to EPSG:2261 in one call, each checked as
    `geometry_from_lonlat` checks it; None when any of them would be refused (project
    them one at a time to learn which and why). Each coordinate is projected exactly as
    it is one geometry at a time."""
    if not geoms:
        return []
    arr = np.asarray(geoms, dtype=object)
    counts = shapely.get_num_coordinates(arr)
    if (counts <= 0).any():
        return None
    coords = shapely.get_coordinates(arr)
    if not np.isfinite(coords).all():
        return None
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    lon, lat = coords[:, 0], coords[:, 1]
    lon_min, lon_max = np.minimum.reduceat(lon, starts), np.maximum.reduceat(lon, starts)
    lat_min, lat_max = np.minimum.reduceat(lat, starts), np.maximum.reduceat(lat, starts)
    swapped = ((_NY_LAT[0] <= lon_min) & (lon_max <= _NY_LAT[1])
               & (_NY_LON[0] <= lat_min) & (lat_max <= _NY_LON[1]))
    west, south, east, north = area_of_use()
    tol = 0.01
    outside = ((lon_min < west - tol) | (lon_max > east + tol) | (lat_min < south - tol)
               | (lat_max > north + tol))
    if swapped.any() or outside.any():
        return None
    to_feet = transformer(_wgs84()[1], MEASURE_CRS)

    def project(xy: np.ndarray) -> np.ndarray:
        x, y = to_feet.transform(xy[:, 0], xy[:, 1])
        return np.column_stack([x, y])

    out = shapely.transform(arr, project)
    if not np.isfinite(shapely.get_coordinates(out)).all():
        return None
    return list(out)
