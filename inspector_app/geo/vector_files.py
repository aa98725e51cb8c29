"""Reading geometry from files: GeoJSON, ESRI Shapefile (with .prj) and GeoPackage.

Every geometry is checked for a usable CRS, swapped latitude/longitude and coordinates
outside NY State Plane Central's area of use before it is projected to EPSG:2261.
"""

from __future__ import annotations

import codecs
import json
import re
import warnings
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import shapely
from pyproj import CRS
from shapely.geometry.base import BaseGeometry

from ..errors import InputError
from ..json_input import NonFiniteNumber, loads
from ..nesting import TooDeep
from ..paths import UnreadableFile, read_regular_file
from ..text_input import decode, json_problem
from . import foreign_sqlite
from .crs import MEASURE_CRS, WGS84, UnusableCRS, transformer, usable_crs

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
        return usable_crs(text)
    except UnusableCRS:
        raise GeometryFileError(f"{path}: its coordinate reference system {_shown(text)} is "
                                "not one this app can use (its coordinates cannot be "
                                "converted to NY State Plane Central, EPSG:2261); export the "
                                "layer in a coordinate system such as EPSG:2261 or WGS84."
                                ) from None


def _shown(text: str) -> str:
    """A CRS as a file gives it, shortened to its name when it is written out in full."""
    if len(text) <= 80:
        return repr(text)
    name = re.match(r'\s*\w+\[\s*"([^"]*)"', text)
    return repr(name.group(1)) if name else repr(text[:77] + "...")


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
        raise GeometryFileError(f"{where}: has coordinates that are not numbers (NaN or "
                                "infinite); give every coordinate as a number.")
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
    if not (np.isfinite(lon).all() and np.isfinite(lat).all()):
        raise GeometryFileError(
            f"{where}: some coordinates lie beyond where their coordinate system "
            f"({crs.name}) places anything on the earth; check the coordinate system they "
            "are in.")
    west, south, east, north = area_of_use()
    tol = 0.01
    if (
            lon.min() < west - tol or lon.max() > east + tol or lat.min() < south - tol
            or lat.max() > north + tol):
        raise GeometryFileError(
            f"{where}: coordinates lie outside the area of use of NY State Plane Central "
            f"(EPSG:2261: longitude {west} to {east}, latitude {south} to {north}); found "
            f"longitude {float(lon.min()):.4f} to {float(lon.max()):.4f}, latitude "
            f"{float(lat.min()):.4f} to {float(lat.max()):.4f}. Check the coordinate "
            "system the coordinates are in.")
    to_feet = transformer(wkt, MEASURE_CRS)

    def project(xy: np.ndarray) -> np.ndarray:
        x, y = to_feet.transform(xy[:, 0], xy[:, 1])
        return np.column_stack([x, y])

    out = shapely.transform(arr, project)
    if not np.isfinite(shapely.get_coordinates(out)).all():
        raise GeometryFileError(
            f"{where}: some coordinates cannot be projected to NY State Plane Central "
            "(EPSG:2261); check the coordinate system the coordinates are in.")
    return list(out)


# The GDAL drivers of the layer files this app reads, and how to say so.
READ_DRIVERS = frozenset({"GeoJSON", "ESRI Shapefile", "GPKG"})
# The largest GeoJSON file of areas read whole (a county's parcels are a few hundred MB).
MAX_GEOJSON_BYTES = 1 << 30
_NOT_A_LAYER = ("is not a file type this app reads; give a GeoJSON file (.geojson or .json), "
                "an ESRI Shapefile (.shp, with its .shx, .dbf and .prj beside it) or a "
                "GeoPackage (.gpkg).")


# The files an ESRI Shapefile is made of besides its .shp: the index, the attributes and
# the coordinate system. Without them the shapes cannot be found, their fields read or
# their coordinates placed.
SHAPEFILE_SET = (".shx", ".dbf", ".prj")


def _shapefile_set(path: Path) -> None:
    """Refuse a .shp whose side files are not beside it (any case of their suffixes)."""
    beside = {p.name.lower() for p in path.parent.iterdir()} if path.parent.is_dir() else set()
    for suffix in SHAPEFILE_SET:
        if (path.stem + suffix).lower() not in beside:
            raise GeometryFileError(
                f"{path}: the shapefile's {suffix} file ({path.stem}{suffix}) is missing "
                f"beside it; copy the whole set ({', '.join(('.shp', *SHAPEFILE_SET))}) into "
                "one folder.")


@dataclass(frozen=True)
class Bounds:
    """The most features a file may hold and the most coordinates one of its geometries
    may have, checked before the file is read whole; `what` says what the file is for."""

    features: int
    vertices: int
    what: str
    fewer: str = "give only the features needed (clip the layer to the area around the lake)"


# A layer: a county's parcels number in the tens of thousands, its water areas (TIGER
# areawater) in the thousands; Canandaigua Lake's whole shore traced at 1 m is about
# 100,000 vertices. Ten times those: a file beyond them is not a layer this office uses,
# and reading it whole would take gigabytes.
LAYER = Bounds(features=250_000, vertices=1_000_000, what="a layer")

# One geometry in GeoJSON: every position an array of numbers.
_GEOMETRY_KEY = re.compile(rb'"geometry"\s*:')
_POSITION = re.compile(rb"\[\s*[-+0-9.]")
_NAMED_CRS = re.compile(rb'"crs"\s*:\s*\{[^{}]*"properties"\s*:\s*\{[^{}]*"name"\s*:\s*'
                        rb'"((?:[^"\\]|\\.)*)"')


def _geojson_source(path: Path, bounds: Bounds) -> tuple[bytes, bool, str | None]:
    """A GeoJSON file's bytes as UTF-8 (a UTF-16 file, with its byte order mark, turned to
    UTF-8: True) and the CRS its "crs" member names (None: none named), checked against
    `bounds` without parsing it: its features counted by their "geometry" members, and
    each geometry's positions by the brackets between one of those and the next."""
    try:
        raw = read_regular_file(path, limit=MAX_GEOJSON_BYTES, what="GeoJSON file")
    except FileNotFoundError:
        raise GeometryFileError(f"{path}: no such file.") from None
    except UnreadableFile as exc:
        raise GeometryFileError(str(exc)) from None
    utf16 = raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE))
    if utf16:
        raw = decode(raw, path, what="GeoJSON file", save_as="UTF-8",
                     error=GeometryFileError).text.encode("utf-8")
    starts = []
    for match in _GEOMETRY_KEY.finditer(raw):
        starts.append(match.end())
        if len(starts) > bounds.features:
            raise GeometryFileError(
                f"{path}: holds more than {bounds.features:,} features, the most "
                f"{bounds.what} may hold; {bounds.fewer}.")
    ends = [*starts[1:], len(raw)]
    for n, (start, end) in enumerate(zip(starts or [0], ends, strict=True)):
        if raw.count(b"[", start, end) <= bounds.vertices:
            continue  # every position is an array: no more positions than brackets
        for positions, _ in enumerate(_POSITION.finditer(raw, start, end), 1):
            if positions > bounds.vertices:
                which = f"feature {n + 1}'s geometry" if starts else "its geometry"
                raise GeometryFileError(
                    f"{path}: {which} has more than {bounds.vertices:,} coordinates, the "
                    f"most one geometry of {bounds.what} may have; simplify it to its survey "
                    "accuracy (for example one vertex every few feet).")
    # The member is at the top, before or after the features (whose positions are arrays).
    head = raw[:raw.find(b'"features"')] if b'"features"' in raw else raw[:starts[0]] if (
        starts) else b""
    named = _NAMED_CRS.search(head) or _NAMED_CRS.search(raw, max(raw.rfind(b"]"), 0))
    crs = None
    if named:
        try:
            crs = json.loads(b'"' + named.group(1) + b'"')
        except ValueError:
            crs = named.group(1).decode("utf-8", "replace")
    return raw, utf16, crs


def _library_source(path: Path, bounds: Bounds) -> tuple[Path | bytes, str | None]:
    """What the reading library is given for a layer or table file (the file, or a UTF-16
    GeoJSON file's text as UTF-8) and the CRS a GeoJSON file's "crs" member names; a
    GeoJSON file is checked against `bounds` first (`_geojson_source`)."""
    if path.suffix.lower() not in (".geojson", ".json"):
        return path, None
    utf8, utf16, named_crs = _geojson_source(path, bounds)
    return (utf8 if utf16 else path), named_crs


def _check_feature_count(info: dict[str, Any], path: Path, bounds: Bounds) -> None:
    """Refuse a file whose reading library counts more features than `bounds` allows."""
    count = int(info.get("features") or 0)
    if count > bounds.features:
        raise GeometryFileError(
            f"{path}: holds {count:,} features, more than the {bounds.features:,} "
            f"{bounds.what} may hold; {bounds.fewer}.")


def _check_vertices(geometries: np.ndarray, path: Path, bounds: Bounds) -> None:
    """Refuse a geometry (None: none) of more coordinates than `bounds` allows."""
    counts = shapely.get_num_coordinates(geometries)
    if len(counts) and int(counts.max()) > bounds.vertices:
        n = int(np.argmax(counts))
        raise GeometryFileError(
            f"{path}: feature {n + 1}'s geometry has {int(counts[n]):,} coordinates, more "
            f"than the {bounds.vertices:,} one geometry of {bounds.what} may have; simplify "
            "it to its survey accuracy (for example one vertex every few feet).")


def _damaged(path: Path) -> str:
    """Why a layer file the reading library could not read was refused, in words: the
    fault a GeoJSON file's own JSON shows, else what the file should be and what to do."""
    suffix = path.suffix.lower()
    if suffix in (".geojson", ".json"):
        try:
            raw = read_regular_file(path, limit=MAX_GEOJSON_BYTES, what="GeoJSON file")
        except UnreadableFile as exc:
            return exc.reason
        try:
            loads(decode(raw, path, what="GeoJSON file", save_as="UTF-8").text)
        except json.JSONDecodeError as exc:
            return json_problem(exc)
        except (NonFiniteNumber, TooDeep) as exc:
            return str(exc)
        except InputError as exc:
            return str(exc).removeprefix(f"{path}: ").rstrip(".")
        return ("cannot be read as GeoJSON: its JSON is not a layer of GeoJSON features; "
                "give a FeatureCollection of features with geometries")
    if suffix == ".shp":
        return ("cannot be read as an ESRI Shapefile: it is damaged or was cut short; copy "
                f"the whole set ({', '.join(('.shp', *SHAPEFILE_SET))}) again")
    if suffix == ".gpkg":
        return "cannot be read as a GeoPackage: it is damaged or was cut short; copy it again"
    return _NOT_A_LAYER.removesuffix(".")


def _before_reading(path: Path) -> None:
    """What every layer or table file passes before the reading library opens it: a
    Shapefile's side files beside it, and a GeoPackage (a SQLite file we did not write)
    whose reading is sure to end."""
    if path.suffix.lower() == ".shp":
        _shapefile_set(path)
    if foreign_sqlite.is_sqlite(path):
        foreign_sqlite.check(path, "a GeoPackage", geopackage=True)


def _layer_info(source: Any, path: Path, bounds: Bounds) -> dict[str, Any]:
    """The library's description of a file of a kind this app reads, within `bounds`'
    count of features (GDAL is loaded here, when a file is actually read)."""
    import pyogrio

    info: dict[str, Any] = pyogrio.read_info(source)
    if info.get("driver") not in READ_DRIVERS:
        raise GeometryFileError(f"{path}: {_NOT_A_LAYER}")
    _check_feature_count(info, path, bounds)
    return info


def _read_raw(path: Path, columns: Any = None,
              bounds: Bounds = LAYER) -> tuple[dict[str, Any], Any, Any, Any]:
    """pyogrio's raw read of a layer file (meta, fids, WKB, field data), with every failure
    said as a GeometryFileError. `columns`, when given, is called with the file's field
    names and gives those to read (None: all of them). A file of more features, or a
    geometry of more coordinates, than `bounds` allows is refused (a GeoJSON file's before
    it is parsed); a GeoJSON file's "crs" member is read as it names its CRS (meta's
    "crs"), not as the library reads it (which takes a CRS it does not know for WGS84)."""
    if not path.exists():
        raise GeometryFileError(f"{path}: no such file.")
    _before_reading(path)
    source, named_crs = _library_source(path, bounds)
    import pyogrio  # GDAL is loaded only when a file is actually read

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            info = _layer_info(source, path, bounds)
            _crs(named_crs or info.get("crs"), path)  # before any field is looked for
            wanted = None if columns is None else columns([str(f) for f in info["fields"]])
            meta, fids, wkb, field_data = pyogrio.raw.read(source, return_fids=True,
                                                           columns=wanted)
    except InputError:  # ours, the file's fault said in words (a field not found...)
        raise
    except Exception:  # the library's words are not shown: they name its own settings
        raise GeometryFileError(f"{path}: {_damaged(path)}.") from None
    if named_crs is not None:
        meta = {**meta, "crs": named_crs}
    return meta, fids, wkb, field_data


def _geometries(wkb: Any, path: Path, bounds: Bounds) -> np.ndarray:
    """The features' geometries (None where a feature has none); a geometry that cannot
    be one (a ring not closed, a coordinate that is not a number) is refused, naming its
    feature, rather than left out."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the invalid ones are named below
        decoded = shapely.from_wkb(wkb, on_invalid="ignore")
    broken = [n for n, (raw, geom) in enumerate(zip(wkb, decoded, strict=True))
              if raw is not None and geom is None]
    if broken:
        raise GeometryFileError(
            f"{path}: feature {broken[0] + 1}'s geometry is not valid (a ring that is not "
            "closed, or a coordinate that is not a number); fix it or export the layer "
            "again.")
    out = np.asarray(decoded, dtype=object)
    _check_vertices(out, path, bounds)
    return out


def read_vector_file(path: Path, bounds: Bounds = LAYER) -> Features:
    """Read a Shapefile, GeoPackage or GeoJSON layer and project it to EPSG:2261."""
    meta, fids, wkb, _ = _read_raw(path, bounds=bounds)
    crs = _crs(meta.get("crs"), path)
    geoms = [g for g in _geometries(wkb, path, bounds) if g is not None and not g.is_empty] if (
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
    decoded = _geometries(wkb, path, LAYER) if count else np.empty(0, dtype=object)
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


def read_geojson_areas(path: Path, bounds: Bounds = LAYER) -> Features:
    """Read a GeoJSON geometry, Feature or FeatureCollection, keeping each feature's id."""
    raw = _geojson_source(path, bounds)[0]
    text = decode(raw, path, what="GeoJSON file", save_as="UTF-8",
                  error=GeometryFileError).text
    try:
        doc = loads(text)
    except (NonFiniteNumber, TooDeep) as exc:
        raise GeometryFileError(f"{path}: {exc}.") from None
    except json.JSONDecodeError as exc:
        raise GeometryFileError(f"{path}: {json_problem(exc)}.") from None
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
        except Exception:  # shapely's words name its internals, not the file's fault
            raise GeometryFileError(
                f"{where} is not a valid GeoJSON geometry; give its \"type\" (Point, "
                "LineString, Polygon or a Multi- of them) and its \"coordinates\" as GeoJSON "
                "writes them (a polygon's rings closed, of at least 4 positions).") from None
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


# A table of attributes: a layer file's, or a dBASE table (.dbf) on its own, as GIS
# programs export an attribute table.
_TABLE_SUFFIXES = frozenset({".geojson", ".json", ".shp", ".gpkg", ".dbf"})


def read_attribute_table(path: Path) -> tuple[list[str], list[list[Any]]]:
    """The field names and the rows of values of a layer file (Shapefile, GeoPackage,
    GeoJSON) or of a dBASE table, in file order, geometry set aside."""
    if path.suffix.lower() not in _TABLE_SUFFIXES:
        raise GeometryFileError(f"{path}: is not a table this app reads.")
    _before_reading(path)
    source, _ = _library_source(path, LAYER)
    import pyogrio

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            _layer_info(source, path, LAYER)
            meta, _, _, field_data = pyogrio.raw.read(source, read_geometry=False)
    except GeometryFileError:
        raise
    except Exception:
        raise GeometryFileError(f"{path}: cannot be read as a dBASE table, an ESRI "
                                "Shapefile, a GeoPackage or GeoJSON (the file is damaged, or "
                                "is not what its name says).") from None
    names = [str(f) for f in meta.get("fields", [])]
    columns = [list(values) for values in (field_data or [])]
    count = len(columns[0]) if columns else 0
    return names, [[column[i] for column in columns] for i in range(count)]


# --- writing ---------------------------------------------------------------------------


@dataclass(frozen=True)
class OutLayer:
    """One layer to write: its name, its geometry type ("Point", "MultiPolygon"...), its
    fields (name and kind: "text", "integer", "real" or "date") and its features, each a
    geometry in EPSG:2261 feet (None: no geometry) and one value per field (None: no
    value; a date a `datetime.date`)."""

    name: str
    geometry_type: str
    fields: tuple[tuple[str, str], ...]
    geometries: list[BaseGeometry | None]
    rows: list[tuple[Any, ...]]


_FIELD_DTYPES: dict[str, Any] = {"text": object, "integer": "int64", "real": "float64",
                                 "date": "datetime64[D]"}


def _columns(layer: OutLayer) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    """Each field's values as the array the writing library takes, and the mask of its
    missing values (None where none is missing or the array holds its own nulls)."""
    data: list[np.ndarray] = []
    masks: list[np.ndarray | None] = []
    for i, (name, kind) in enumerate(layer.fields):
        if kind not in _FIELD_DTYPES:
            raise ValueError(f"field {name}: no kind {kind!r}")
        values = [row[i] for row in layer.rows]
        missing = np.array([v is None for v in values], dtype=bool)
        if kind == "text":
            data.append(np.array([None if v is None else str(v) for v in values],
                                 dtype=object))
            masks.append(None)
            continue
        if kind == "real":
            data.append(np.array([np.nan if v is None else float(v) for v in values],
                                 dtype="float64"))
            masks.append(None)  # NaN is written as no value
            continue
        filler: Any = 0 if kind == "integer" else np.datetime64("1970-01-01")
        data.append(np.array([filler if v is None else v for v in values],
                             dtype=_FIELD_DTYPES[kind]))
        masks.append(missing if missing.any() else None)
    return data, masks


def geopackage_bytes(layers: list[OutLayer]) -> bytes:
    """A GeoPackage of `layers`, every one in EPSG:2261 (NY State Plane Central, US survey
    feet), written by GDAL in a folder of its own and returned whole, so that the caller
    writes the file all at once (`paths.write_atomically`)."""
    import tempfile

    import pyogrio.raw

    with tempfile.TemporaryDirectory(prefix="inspector-gpkg-") as folder:
        target = Path(folder) / "export.gpkg"
        for n, layer in enumerate(layers):
            data, masks = _columns(layer)
            wkb = np.array([None if g is None else shapely.to_wkb(g)
                            for g in layer.geometries], dtype=object)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                pyogrio.raw.write(
                    str(target), wkb, data, [name for name, _ in layer.fields],
                    field_mask=masks if any(m is not None for m in masks) else None,
                    layer=layer.name, driver="GPKG", geometry_type=layer.geometry_type,
                    crs=MEASURE_CRS, encoding="UTF-8", append=n > 0,
                    promote_to_multi=layer.geometry_type.startswith("Multi"))
        return target.read_bytes()
