"""Aerial imagery: GeoTIFF, JPEG/PNG with a world file and .prj, and MBTiles.

The only importer of rasterio (GDAL). An image is checked once (`inspect_raster`); a
`RasterReader` then renders any window of it in EPSG:2261 feet, reading only the pixels
the window needs from the overview (or MBTiles zoom level) nearest the zoom shown.
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import sqlite3
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

import numpy as np

# GDAL's cache of decoded blocks: GDAL's default (5% of the memory) lets a long pan over a
# large image grow the process by gigabytes; 64 MB holds several screens' worth. An
# administrator's GDAL_CACHEMAX wins.
os.environ.setdefault("GDAL_CACHEMAX", "64")

import rasterio
from pyproj import CRS
from rasterio.enums import ColorInterp, Resampling
from rasterio.errors import RasterioError, RasterioIOError
from rasterio.vrt import WarpedVRT
from rasterio.windows import Window

from ..errors import InputError
from . import foreign_sqlite
from .crs import MEASURE_CRS, WGS84, UnusableCRS, transformer, usable_crs

# GDAL's own complaints about a file (rasterio logs them as warnings) name its internals;
# what was wrong with the file reaches the user as our sentence, and only that.
_gdal_log = logging.getLogger("rasterio")
_gdal_log.addHandler(logging.NullHandler())
_gdal_log.propagate = False

Bounds = tuple[float, float, float, float]

FORMATS = ("geotiff", "world_file", "mbtiles")
# World files GDAL reads beside a JPEG or PNG, by the image's suffix.
_WORLD_SUFFIXES = {".jpg": (".jgw", ".jpgw", ".wld"), ".jpeg": (".jgw", ".jpegw", ".wld"),
                   ".png": (".pgw", ".pngw", ".wld"), ".tif": (".tfw", ".tifw", ".wld"),
                   ".tiff": (".tfw", ".tiffw", ".wld")}
_DRIVERS = {"GTiff": "geotiff", "JPEG": "world_file", "PNG": "world_file",
            "MBTiles": "mbtiles"}
_NOT_AN_IMAGE = ("is not an image this app reads; give a GeoTIFF (.tif), a JPEG or PNG with "
                 "its world file (.jgw, .pgw or .wld) and .prj beside it, or an MBTiles file "
                 "(.mbtiles) of raster tiles.")
# A source image this many pixels or more with no overviews is slow to draw zoomed out.
LARGE_WITHOUT_OVERVIEWS_PX = 4096 * 4096
# The most pixels one clip or conversion writes (`clip_to_geotiff`), judged from the
# image's header and the area asked for before any pixel is read: each pixel is read,
# warped and compressed, about a minute a gigapixel on an office computer, and an image's
# header may declare any size at all (a sparse file of 2 MB can declare 200,000 x 200,000
# pixels). A billion pixels is a 6 x 6 mile mosaic at 1 ft, or a town's at 2 ft.
CLIP_PX_BUDGET = 1_000_000_000
# The most pixels of imagery a field kit carries for one parcel's surroundings: a
# 2,000-ft square at half a foot a pixel. Finer imagery is clipped for a kit at the
# coarser pixel that keeps it within this (a zoom-22 MBTiles tile is 0.09 ft a pixel:
# 500 million pixels a parcel at full resolution).
KIT_PX_PER_PARCEL = 16_000_000
# What a kit may read of the image for one parcel to write those: four times as many
# pixels, as an image with overviews halving each time always allows. An image without
# coarser levels (an MBTiles file of one zoom, a GeoTIFF without overviews) much finer than
# a kit needs would have to be read whole at its finest, and is refused for kits.
KIT_READ_PX_PER_PARCEL = 4 * KIT_PX_PER_PARCEL


def read_level_ft(info: RasterInfo, pixel_ft: float) -> float:
    """The pixel size of the level a render at `pixel_ft` reads: the coarsest overview
    still at least as fine (as `RasterReader` picks it)."""
    levels = [info.resolution_ft * f for f in (1, *info.overview_factors)]
    return max([level for level in levels if level <= pixel_ft * 1.0001] or levels[:1])


class RasterFileError(InputError):
    pass


@dataclass(frozen=True)
class RasterInfo:
    format: str
    source_crs: str
    bounds_ft: Bounds
    resolution_ft: float
    width_px: int
    height_px: int
    overviews: int
    tiled: bool = False
    overview_factors: tuple[int, ...] = ()  # each overview's reduction (MBTiles: zooms)


def _open(path: Path, **kwargs: Any) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return rasterio.open(path, **kwargs)


def _world_file(path: Path) -> Path | None:
    for suffix in _WORLD_SUFFIXES.get(path.suffix.lower(), ()):
        for candidate in (path.with_suffix(suffix), path.with_suffix(suffix.upper())):
            if candidate.exists():
                return candidate
    return None


def _prj_crs(path: Path) -> CRS:
    prj = path.with_suffix(".prj")
    if not prj.exists():
        prj = path.with_suffix(".PRJ")
    if not prj.exists():
        raise RasterFileError(
            f"{path}: its world file gives where the image lies but not in which coordinate "
            f"system; the file {path.with_suffix('.prj').name} is missing beside it. Put the "
            ".prj that came with the image next to it and import it again.")
    try:
        return usable_crs(prj.read_text("utf-8", errors="replace").strip())
    except UnusableCRS:
        raise RasterFileError(f"{prj}: is not a coordinate system this app can use (not a "
                              "valid .prj, or one that cannot be converted to NY State Plane "
                              "Central, EPSG:2261).") from None


def _check_mbtiles(path: Path, cancelled: Callable[[], bool] | None = None) -> None:
    """An MBTiles file must be SQLite with raster tiles, every read of it ending within
    the budget (`foreign_sqlite`); checked before GDAL opens it."""
    foreign_sqlite.check(path, "an MBTiles file", geopackage=False, cancelled=cancelled)
    with foreign_sqlite.reading(path, "an MBTiles file", cancelled) as conn:
        try:
            meta = dict(conn.execute("SELECT name, value FROM metadata").fetchall())
            (tiles,) = conn.execute("SELECT count(*) FROM tiles").fetchone()
        except sqlite3.OperationalError as exc:
            if "interrupted" in str(exc):
                raise
            raise RasterFileError(f"{path}: is not an MBTiles file (it has no metadata and "
                                  "tiles tables).") from None
    kind = str(meta.get("format", "png")).lower()
    if kind in ("pbf", "mvt"):
        raise RasterFileError(f"{path}: holds vector tiles ({kind}), not imagery; give an "
                              "MBTiles file of raster (PNG or JPEG) tiles.")
    if not tiles:
        raise RasterFileError(f"{path}: the MBTiles file holds no tiles.")


def _crs_text(crs: CRS) -> str:
    epsg = crs.to_epsg(min_confidence=90)
    return f"EPSG:{epsg}" if epsg else crs.to_wkt()


def _is_measure_crs(crs: CRS) -> bool:
    return bool(crs.equals(CRS.from_user_input(MEASURE_CRS), ignore_axis_order=True))


def _source_crs(path: Path, ds: Any, fmt: str) -> CRS:
    if fmt == "world_file":
        return _prj_crs(path)
    if ds.crs is None:
        raise RasterFileError(f"{path}: has no coordinate system; a GeoTIFF must carry its "
                              "georeferencing (or give a JPEG/PNG with its world file and "
                              ".prj).")
    try:
        return usable_crs(ds.crs.to_wkt())
    except UnusableCRS:
        raise RasterFileError(f"{path}: its coordinate system is not one this app can "
                              "use.") from None


def _check_area(path: Path, crs: CRS, bounds: Bounds) -> Bounds:
    """The image's bounds in EPSG:2261, refused outside NY State Plane Central."""
    from .vector_files import area_of_use

    wkt = crs.to_wkt()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            lon0, lat0, lon1, lat1 = transformer(wkt, WGS84).transform_bounds(
                *bounds, densify_pts=21)
        except Exception:
            lon0 = lat0 = lon1 = lat1 = math.nan
    west, south, east, north = area_of_use()
    tol = 0.01
    values = (lon0, lat0, lon1, lat1)
    if not all(math.isfinite(v) for v in values) or (
            lon0 < west - tol or lon1 > east + tol or lat0 < south - tol
            or lat1 > north + tol):
        raise RasterFileError(
            f"{path}: the image lies outside the area of use of NY State Plane Central "
            f"(EPSG:2261: longitude {west} to {east}, latitude {south} to {north}); found "
            f"longitude {lon0:.4f} to {lon1:.4f}, latitude {lat0:.4f} to {lat1:.4f}. Check "
            "the coordinate system the image is in.")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = transformer(wkt, MEASURE_CRS).transform_bounds(*bounds, densify_pts=21)
    return (float(out[0]), float(out[1]), float(out[2]), float(out[3]))


def _pixel_ft(crs: CRS, t: Any, width: int, height: int) -> float:
    """The size in feet of the image's middle pixel (its sides' geometric mean)."""
    cx, cy = t.c + t.a * width / 2, t.f + t.e * height / 2
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        xs, ys = transformer(crs.to_wkt(), MEASURE_CRS).transform(
            [cx, cx + t.a, cx], [cy, cy, cy + t.e])
    east = math.hypot(xs[1] - xs[0], ys[1] - ys[0])
    south = math.hypot(xs[2] - xs[0], ys[2] - ys[0])
    return math.sqrt(east * south)


def _format_of(path: Path, ds: Any) -> str:
    fmt = _DRIVERS.get(ds.driver)
    if fmt is None:
        raise RasterFileError(f"{path}: {_NOT_AN_IMAGE}")
    if fmt == "geotiff" and ds.crs is None and _world_file(path) is not None:
        return "world_file"
    return fmt


def inspect_raster(path: Path) -> RasterInfo:
    """Check an image file and describe it; RasterFileError, naming the file, if this app
    cannot place it on the site map."""
    if not path.is_file():
        raise RasterFileError(f"{path}: no such file.")
    if path.suffix.lower() == ".mbtiles":
        _check_mbtiles(path)
    elif foreign_sqlite.is_sqlite(path):  # a GeoPackage or other database: not imagery
        raise RasterFileError(f"{path}: {_NOT_AN_IMAGE}")
    try:
        ds = _open(path)
    except RasterioIOError as exc:
        detail = str(exc)
        if "not recognized" in detail or "not a supported file format" in detail:
            raise RasterFileError(f"{path}: {_NOT_AN_IMAGE}") from None
        raise RasterFileError(f"{path}: cannot be read as an image (the file is damaged or "
                              "is not what its name says).") from None
    with ds:
        fmt = _format_of(path, ds)
        if fmt == "world_file" and _world_file(path) is None and ds.transform.is_identity:
            raise RasterFileError(
                f"{path}: has no georeferencing; a JPEG or PNG needs its world file "
                f"({' or '.join(_WORLD_SUFFIXES.get(path.suffix.lower(), ('.wld',)))}) and "
                ".prj beside it.")
        if ds.transform.is_identity and ds.crs is None:
            raise RasterFileError(f"{path}: has no georeferencing (no coordinate system and "
                                  "no position); this app cannot place it on the map.")
        t = ds.transform
        if t.b != 0 or t.d != 0:
            raise RasterFileError(
                f"{path}: the image is rotated or skewed (its world file or geotransform "
                "has rotation terms); rectify it to north-up (e.g. with gdalwarp) and import "
                "it again.")
        if t.a <= 0 or t.e >= 0:
            raise RasterFileError(f"{path}: the image's georeferencing is not north-up "
                                  "(pixel size must be positive east and negative south).")
        crs = _source_crs(path, ds, fmt)
        bounds_ft = _check_area(path, crs, tuple(ds.bounds))
        if ds.count < 1 or ds.width < 1 or ds.height < 1:
            raise RasterFileError(f"{path}: holds no image bands.")
        if fmt != "mbtiles":  # a tile set may lack tiles; a file's last pixels may not
            _check_last_block(path, ds)
        res = _pixel_ft(crs, t, ds.width, ds.height)
        factors = tuple(int(f) for f in ds.overviews(1))
        tiled = bool(ds.profile.get("tiled")) or fmt == "mbtiles"
        return RasterInfo(format=fmt, source_crs=_crs_text(crs), bounds_ft=bounds_ft,
                          resolution_ft=res, width_px=int(ds.width), height_px=int(ds.height),
                          overviews=len(factors), tiled=tiled, overview_factors=factors)


def _check_last_block(path: Path, ds: Any) -> None:
    """Read the image's last block of pixels, which a file cut short (a copy broken off,
    a download not finished) lacks, so that such a file is refused, not stored."""
    from rasterio.windows import Window

    height, width = ds.block_shapes[0]
    row, col = (ds.height - 1) // height * height, (ds.width - 1) // width * width
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ds.read(1, window=Window(col, row, min(width, ds.width - col),
                                     min(height, ds.height - row)))
    except RasterioError:
        raise RasterFileError(f"{path}: the image is damaged or was cut short (its last "
                              "pixels cannot be read); copy the file again.") from None


class _Level:
    """One overview level of an image, opened and (if need be) warped to EPSG:2261."""

    def __init__(self, path: Path, level: int | None, src_crs: CRS | None, warp: bool) -> None:
        kwargs = {} if level is None else {"overview_level": level}
        self.src = _open(path, **kwargs)
        self.view: Any = self.src
        if warp:
            self.view = WarpedVRT(self.src, crs=MEASURE_CRS, src_crs=src_crs,
                                  resampling=Resampling.bilinear, add_alpha=not self._alpha())
        self.transform = self.view.transform

    def _alpha(self) -> bool:
        return ColorInterp.alpha in self.src.colorinterp

    def close(self) -> None:
        if self.view is not self.src:
            self.view.close()
        self.src.close()


class RasterReader:
    """Renders windows of one image in EPSG:2261. Use it from one thread only."""

    def __init__(self, path: Path, format: str) -> None:
        if format not in FORMATS:
            raise ValueError(f"unknown raster format {format!r}")
        self.path = Path(path)
        self.format = format
        base = _open(self.path)
        try:
            self._src_crs: CRS | None = _prj_crs(self.path) if format == "world_file" else (
                CRS.from_user_input(base.crs.to_wkt()) if base.crs is not None else None)
            if self._src_crs is None:
                raise RasterFileError(f"{self.path}: has no coordinate system.")
            self._warp = not _is_measure_crs(self._src_crs) or format == "world_file"
            self._factors = [1, *base.overviews(1)]
            self._width = base.width
            self._interp = list(base.colorinterp)
            self._colormap = None
            if self._interp and self._interp[0] == ColorInterp.palette:
                with contextlib.suppress(RasterioError, ValueError):
                    self._colormap = base.colormap(1)
            self._dtype = base.dtypes[0]
        finally:
            base.close()
        self._levels: dict[int, _Level] = {}
        full = self._level(0)
        t = full.transform
        self._res_ft = math.sqrt(abs(t.a * t.e))
        self._scale: tuple[float, float] | None = None
        self.last_level = 0  # the overview level the last render read (0: full resolution)
        self.last_window: Window | None = None

    def _level(self, i: int) -> _Level:
        if i not in self._levels:
            self._levels[i] = _Level(self.path, None if i == 0 else i - 1, self._src_crs,
                                     self._warp)
        return self._levels[i]

    def _pick_level(self, pixel_ft: float) -> int:
        best = 0
        for i, f in enumerate(self._factors):
            if self._res_ft * f <= pixel_ft * 1.0001:
                best = i
        return best

    def close(self) -> None:
        for level in self._levels.values():
            level.close()
        self._levels.clear()

    def __enter__(self) -> RasterReader:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def render(self, bbox_ft: Bounds, width_px: int, height_px: int) -> np.ndarray:
        """The window `bbox_ft` (EPSG:2261) as straight RGBA uint8, (height, width, 4), row 0
        at the north edge; transparent where the image has no data or does not reach."""
        minx, miny, maxx, maxy = (float(v) for v in bbox_ft)
        out = np.zeros((height_px, width_px, 4), dtype=np.uint8)
        if width_px <= 0 or height_px <= 0 or maxx <= minx or maxy <= miny:
            return out
        dx, dy = (maxx - minx) / width_px, (maxy - miny) / height_px
        self.last_level = self._pick_level(min(dx, dy))
        level = self._level(self.last_level)
        view = level.view
        t = level.transform
        # the image's extent in feet, at this level
        ix0, iy1 = t.c, t.f
        ix1, iy0 = t.c + t.a * view.width, t.f + t.e * view.height
        # output pixels wholly inside the image
        c0 = max(0, math.ceil((ix0 - minx) / dx - 1e-6))
        c1 = min(width_px, math.floor((ix1 - minx) / dx + 1e-6))
        r0 = max(0, math.ceil((maxy - iy1) / dy - 1e-6))
        r1 = min(height_px, math.floor((maxy - iy0) / dy + 1e-6))
        if c1 <= c0 or r1 <= r0:
            self.last_window = None
            return out
        wx0, wx1 = minx + c0 * dx, minx + c1 * dx
        wy1, wy0 = maxy - r0 * dy, maxy - r1 * dy
        col_off = (wx0 - t.c) / t.a
        row_off = (t.f - wy1) / -t.e
        win = Window(max(0.0, col_off), max(0.0, row_off),
                     min(view.width - max(0.0, col_off), (wx1 - wx0) / t.a),
                     min(view.height - max(0.0, row_off), (wy1 - wy0) / -t.e))
        self.last_window = win
        shape = (r1 - r0, c1 - c0)
        resampling = Resampling.bilinear if min(dx, dy) < self._res_ft * self._factors[
            self.last_level] * 4 else Resampling.average
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            data = view.read(window=win, out_shape=(view.count, *shape), resampling=resampling)
            mask = view.dataset_mask(window=win, out_shape=shape, resampling=Resampling.nearest)
        out[r0:r1, c0:c1] = self._rgba(data, mask)
        return out

    def _rgba(self, data: np.ndarray, mask: np.ndarray) -> np.ndarray:
        interp = self._interp
        colour = [i for i, ci in enumerate(interp) if ci != ColorInterp.alpha]
        if data.dtype != np.uint8:
            data = self._to_uint8(data)
        h, w = data.shape[1:]
        rgba = np.empty((h, w, 4), dtype=np.uint8)
        if self._colormap is not None:
            lut = np.zeros((256, 4), dtype=np.uint8)
            for k, v in self._colormap.items():
                if 0 <= k < 256:
                    lut[k] = v
            rgba[:] = lut[data[0]]
            rgba[..., 3] = np.minimum(rgba[..., 3], mask)
            return rgba
        if len(colour) >= 3:
            for k in range(3):
                rgba[..., k] = data[colour[k]]
        else:
            for k in range(3):
                rgba[..., k] = data[colour[0] if colour else 0]
        rgba[..., 3] = mask
        return rgba

    def _to_uint8(self, data: np.ndarray) -> np.ndarray:
        if self._scale is None:
            coarse = self._level(len(self._factors) - 1).view
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                sample = coarse.read(1, out_shape=(min(coarse.height, 256),
                                                   min(coarse.width, 256)))
            lo, hi = (float(v) for v in np.percentile(sample, [1, 99]))
            self._scale = (lo, max(hi, lo + 1))
        lo, hi = self._scale
        return np.clip((data.astype(np.float64) - lo) * (255 / (hi - lo)), 0, 255).astype(
            np.uint8)


_CHUNK = 1024  # pixels: a multiple of the 256-pixel tiles


def _inside(boxes: Sequence[Bounds], x0: float, y1: float, res: float, w: int,
            h: int) -> np.ndarray | None:
    """Which pixels of a block (north-west corner x0, y1) lie in one of the boxes; None
    when none does."""
    xs = x0 + (np.arange(w) + 0.5) * res
    ys = y1 - (np.arange(h) + 0.5) * res
    inside = np.zeros((h, w), dtype=bool)
    hit = False
    for bx0, by0, bx1, by1 in boxes:
        cols = (xs >= bx0) & (xs <= bx1)
        rows = (ys >= by0) & (ys <= by1)
        if cols.any() and rows.any():
            inside |= rows[:, None] & cols[None, :]
            hit = True
    return inside if hit else None


def clip_pixels(bbox_ft: Bounds, pixel_ft: float,
                within: Sequence[Bounds] | None = None) -> int:
    """How many pixels a clip at `pixel_ft` writes: the box's, or (`within`) the boxes'
    (an upper bound where they overlap)."""
    boxes = [bbox_ft] if within is None else within
    return sum(math.ceil((b[2] - b[0]) / pixel_ft) * math.ceil((b[3] - b[1]) / pixel_ft)
               for b in boxes)


def check_clip_budget(path: Path, info: RasterInfo, pixels: int) -> None:
    """RasterFileError, naming the image's size and the budget, when a clip or conversion
    of it would write more than CLIP_PX_BUDGET pixels."""
    if pixels > CLIP_PX_BUDGET:
        raise RasterFileError(
            f"{path}: the image is {info.width_px:,} x {info.height_px:,} pixels and this "
            f"would write {pixels:,} of them, over the {CLIP_PX_BUDGET:,} pixels this app "
            "converts at a time; import it as it is with --reference after tiling it and "
            "building its overviews (gdal_translate -co TILED=YES, then gdaladdo), or cut it "
            "into smaller images.")


def clip_to_geotiff(path: Path, format: str, bbox_ft: Bounds, out_path: Path, *,
                    within: Sequence[Bounds] | None = None,
                    pixel_ft: float | None = None,
                    progress: Callable[[int, int], None] | None = None,
                    cancelled: Callable[[], bool] | None = None) -> RasterInfo:
    """Write the part of the image inside `bbox_ft` as a tiled, JPEG-compressed GeoTIFF in
    EPSG:2261 at the image's full resolution (or `pixel_ft`, when coarser), with an
    internal mask and overviews. RasterFileError, before any pixel is read, when that
    would write more than CLIP_PX_BUDGET pixels.
    `within`, when given, are boxes (EPSG:2261) inside the box: only pixels in one of them
    are kept, and blocks outside all of them are not written at all (a sparse file), so
    that the imagery around scattered parcels stays small. RasterFileError when the box
    does not touch the image. `progress(done, total)` is told the rows written;
    `cancelled()`, when it says so, stops the work (InputError, nothing written)."""
    info = inspect_raster(path)
    minx = max(bbox_ft[0], info.bounds_ft[0])
    miny = max(bbox_ft[1], info.bounds_ft[1])
    maxx = min(bbox_ft[2], info.bounds_ft[2])
    maxy = min(bbox_ft[3], info.bounds_ft[3])
    if maxx <= minx or maxy <= miny:
        raise RasterFileError(f"{path}: the image does not reach the area asked for.")
    res = max(info.resolution_ft, pixel_ft or 0.0)
    box = (minx, miny, maxx, maxy)
    check_clip_budget(path, info, clip_pixels(box, res, within))
    with RasterReader(path, format) as reader:
        res = max(reader._res_ft, pixel_ft or 0.0)
        width = max(1, math.ceil((maxx - minx) / res))
        height = max(1, math.ceil((maxy - miny) / res))
        maxx, miny = minx + width * res, maxy - height * res
        profile = _jpeg_tiff(width, height, minx, maxy, res, quality=85)
        tmp = out_path.with_name(f".{out_path.name}.tmp")
        try:
            with rasterio.Env(GDAL_TIFF_INTERNAL_MASK=True), _open(tmp, mode="w",
                                                                   **profile) as dst:
                step = _CHUNK if within is not None else max(_CHUNK, width)
                for r in range(0, height, _CHUNK):
                    if cancelled is not None and cancelled():
                        raise InputError(f"{path}: cancelled; nothing was written.")
                    if progress is not None:
                        progress(r, height)
                    rows = min(_CHUNK, height - r)
                    top = maxy - r * res
                    for c in range(0, width, step):
                        cols = min(step, width - c)
                        left = minx + c * res
                        keep = None if within is None else _inside(within, left, top, res,
                                                                  cols, rows)
                        if within is not None and keep is None:
                            continue  # not written: read back as transparent
                        rgba = reader.render((left, top - rows * res, left + cols * res, top),
                                             cols, rows)
                        if keep is not None:
                            rgba[~keep] = 0
                        win = Window(c, r, cols, rows)
                        dst.write(np.moveaxis(rgba[..., :3], 2, 0), window=win)
                        dst.write_mask(rgba[..., 3], window=win)
                _build_overviews(dst, width, height)
            tmp.replace(out_path)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
    return inspect_raster(out_path)


def _build_overviews(dst: Any, width: int, height: int,
                     resampling: Resampling = Resampling.average) -> None:
    """Overviews halving down to about 128 pixels on the longer side."""
    factors, f = [], 2
    while max(width, height) / f >= 128:
        factors.append(f)
        f *= 2
    if factors:
        dst.build_overviews(factors, resampling)


def _jpeg_tiff(width: int, height: int, minx: float, maxy: float, pixel_ft: float, *,
               quality: int, block: int = 256) -> dict[str, Any]:
    """The profile of the GeoTIFFs this app writes: EPSG:2261, tiled, JPEG in YCbCr,
    sparse (blocks not written read back as transparent)."""
    from rasterio.transform import Affine

    return {"driver": "GTiff", "width": width, "height": height, "count": 3,
            "dtype": "uint8", "crs": MEASURE_CRS,
            "transform": Affine(pixel_ft, 0, minx, 0, -pixel_ft, maxy), "tiled": True,
            "blockxsize": block, "blockysize": block, "compress": "JPEG",
            "photometric": "YCBCR", "jpeg_quality": quality, "interleave": "pixel",
            "BIGTIFF": "IF_SAFER", "SPARSE_OK": True}


def png_bytes(rgba: np.ndarray, background: tuple[int, int, int] = (255, 255, 255)) -> bytes:
    """An RGBA render flattened onto `background`, as PNG bytes (for a printed page)."""
    from rasterio.io import MemoryFile

    alpha = rgba[..., 3:4].astype(np.float32) / 255
    rgb = rgba[..., :3] * alpha + np.asarray(background, dtype=np.float32) * (1 - alpha)
    bands = np.moveaxis(np.round(rgb).astype(np.uint8), 2, 0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a PNG without georeferencing, on purpose
        with MemoryFile() as mem:
            with mem.open(driver="PNG", width=bands.shape[2], height=bands.shape[1], count=3,
                          dtype="uint8") as dst:
                dst.write(bands)
            return bytes(mem.read())


def polygon_mask(geojson: dict[str, Any], origin_ft: tuple[float, float], pixel_ft: float,
                 shape: tuple[int, int]) -> np.ndarray:
    """Which pixels of a grid (north-west corner `origin_ft`, EPSG:2261) have their centre
    inside a polygon (a GeoJSON geometry in EPSG:2261 feet): bool (height, width)."""
    from rasterio.features import rasterize
    from rasterio.transform import Affine

    transform = Affine(pixel_ft, 0, origin_ft[0], 0, -pixel_ft, origin_ft[1])
    out: np.ndarray = rasterize([(geojson, 1)], out_shape=shape, transform=transform,
                                fill=0, dtype="uint8").astype(bool)
    return out


def write_sparse_rgb_geotiff(path: Path, origin_ft: tuple[float, float], pixel_ft: float,
                             size_px: tuple[int, int], within: Sequence[Bounds],
                             draw: Callable[[float, float, int, int], np.ndarray], *,
                             block: int = 256, quality: int = 80) -> RasterInfo:
    """A tiled, JPEG-compressed GeoTIFF in EPSG:2261 (north-west corner `origin_ft`,
    `size_px` = (width, height)) with an internal mask and overviews, of which only the
    blocks touching one of the boxes `within` are written (a sparse file: the others read
    back as transparent, as `clip_to_geotiff` leaves them). `draw(left, top, cols, rows)`
    gives a block's RGB bands (3, rows, cols), uint8; it is called for written blocks
    only, and pixels outside every box are made transparent."""
    width, height = size_px
    minx, maxy = origin_ft
    profile = _jpeg_tiff(width, height, minx, maxy, pixel_ft, quality=quality, block=block)
    span = block * pixel_ft
    touched: set[tuple[int, int]] = set()
    for bx0, by0, bx1, by1 in within:  # the blocks each box reaches, without a scan
        for r in range(max(0, math.floor((maxy - by1) / span)),
                       min(math.ceil(height / block), math.floor((maxy - by0) / span) + 1)):
            for c in range(max(0, math.floor((bx0 - minx) / span)),
                           min(math.ceil(width / block), math.floor((bx1 - minx) / span) + 1)):
                touched.add((r * block, c * block))
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        with rasterio.Env(GDAL_TIFF_INTERNAL_MASK=True), _open(tmp, mode="w",
                                                               **profile) as dst:
            def block_of(rc: tuple[int, int]) -> tuple[int, int, np.ndarray, np.ndarray]:
                r, c = rc
                rows, cols = min(block, height - r), min(block, width - c)
                top, left = maxy - r * pixel_ft, minx + c * pixel_ft
                keep = _inside(within, left, top, pixel_ft, cols, rows)
                if keep is None:
                    return r, c, np.zeros((0,)), np.zeros((0,))
                return r, c, draw(left, top, cols, rows), np.where(keep, 255, 0).astype(
                    np.uint8)

            for r, c, bands, mask in map(block_of, sorted(touched)):
                if not mask.size:
                    continue  # not written: read back as transparent
                win = Window(c, r, mask.shape[1], mask.shape[0])
                dst.write(bands, window=win)
                dst.write_mask(mask, window=win)
            _build_overviews(dst, width, height, Resampling.nearest)
        tmp.replace(path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return inspect_raster(path)
