"""Synthetic images with known corners, made in the tests (no downloads)."""

from __future__ import annotations

import math
import sqlite3
import warnings
from pathlib import Path

import numpy as np
import rasterio
from rasterio.errors import NotGeoreferencedWarning
from rasterio.io import MemoryFile
from rasterio.transform import Affine
from rasterio.warp import transform_bounds

# A point near the lake's north end, in EPSG:2261 feet.
ORIGIN_FT = (635_000.0, 1_021_000.0)  # the image's north-west corner



def _png(bands: np.ndarray) -> bytes:
    """PNG bytes (written without georeferencing on purpose)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NotGeoreferencedWarning)
        with MemoryFile() as mem:
            with mem.open(driver="PNG", width=bands.shape[2], height=bands.shape[1],
                          count=bands.shape[0], dtype="uint8") as d:
                d.write(bands)
            return bytes(mem.read())


def pattern(width: int, height: int, block: int = 10) -> np.ndarray:
    """RGB bands where each `block`-pixel square says where it is: red = block column,
    green = block row (both mod 256), blue = 200."""
    rows, cols = np.mgrid[0:height, 0:width]
    r = (cols // block) % 256
    g = (rows // block) % 256
    b = np.full_like(r, 200)
    return np.stack([r, g, b]).astype(np.uint8)


def expected(x_ft: float, y_ft: float, *, origin: tuple[float, float], pixel: float,
             block: int = 10) -> tuple[int, int]:
    """The (red, green) the pattern has at a point."""
    col = (x_ft - origin[0]) / pixel
    row = (origin[1] - y_ft) / pixel
    return int(col // block) % 256, int(row // block) % 256


def write_geotiff(path: Path, *, width: int = 400, height: int = 300, pixel: float = 1.0,
                  origin: tuple[float, float] = ORIGIN_FT, crs: str = "EPSG:2261",
                  overviews: list[int] | None = None, tiled: bool = True,
                  data: np.ndarray | None = None) -> Path:
    bands = pattern(width, height) if data is None else data
    profile = {"driver": "GTiff", "width": width, "height": height, "count": bands.shape[0],
               "dtype": "uint8", "crs": crs, "transform": Affine(pixel, 0, origin[0], 0, -pixel, origin[1])}
    if tiled:
        profile.update(tiled=True, blockxsize=256, blockysize=256)
    with rasterio.open(path, "w", **profile) as dst:
        dst.write(bands)
        if overviews:
            dst.build_overviews(overviews)
    return path


def write_world_file_png(path: Path, *, width: int = 200, height: int = 150,
                         pixel: float = 2.0, origin: tuple[float, float] = ORIGIN_FT,
                         prj_crs: str | None = "EPSG:2261") -> Path:
    from pyproj import CRS

    path.write_bytes(_png(pattern(width, height)))
    # world file: pixel size x, rotation, rotation, -pixel size y, centre of the first pixel
    path.with_suffix(".pgw").write_text(
        f"{pixel}\n0\n0\n{-pixel}\n{origin[0] + pixel / 2}\n{origin[1] - pixel / 2}\n")
    if prj_crs is not None:
        path.with_suffix(".prj").write_text(CRS.from_user_input(prj_crs).to_wkt("WKT1_ESRI"))
    return path


_R = 6378137.0


def _lonlat_to_merc(lon: float, lat: float) -> tuple[float, float]:
    return (math.radians(lon) * _R,
            _R * math.log(math.tan(math.pi / 4 + math.radians(lat) / 2)))


def write_mbtiles(path: Path, *, zoom: int, lonlat_box: tuple[float, float, float, float],
                  tile_fill: str = "pattern") -> tuple[float, float, int]:
    """Tiles of zoom `zoom` covering the box, each pixel coloured by its global Web
    Mercator pixel (red = global column // 10 % 256, green = global row // 10 % 256).
    Returns the mercator x, y of the world's north-west corner and the tile size."""
    west, south, east, north = lonlat_box
    n = 2 ** zoom
    size = 256

    def tile_of(lon: float, lat: float) -> tuple[int, int]:
        x = int((lon + 180) / 360 * n)
        lat_r = math.radians(lat)
        y = int((1 - math.log(math.tan(lat_r) + 1 / math.cos(lat_r)) / math.pi) / 2 * n)
        return x, y

    x0, y0 = tile_of(west, north)
    x1, y1 = tile_of(east, south)
    conn = sqlite3.connect(path)
    conn.executescript(
        "CREATE TABLE metadata (name TEXT, value TEXT);"
        "CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, "
        "tile_data BLOB);")
    meta = {"name": "test", "format": "png", "type": "baselayer", "version": "1.0",
            "minzoom": str(zoom), "maxzoom": str(zoom),
            "bounds": f"{west},{south},{east},{north}"}
    conn.executemany("INSERT INTO metadata VALUES (?, ?)", list(meta.items()))
    for tx in range(x0, x1 + 1):
        for ty in range(y0, y1 + 1):
            rows, cols = np.mgrid[0:size, 0:size]
            gcol, grow = tx * size + cols, ty * size + rows
            bands = np.stack([(gcol // 10) % 256, (grow // 10) % 256,
                              np.full_like(gcol, 200)]).astype(np.uint8)
            data = _png(bands)
            conn.execute("INSERT INTO tiles VALUES (?, ?, ?, ?)",
                         (zoom, tx, n - 1 - ty, data))
    conn.commit()
    conn.close()
    return -math.pi * _R, math.pi * _R, size


def mbtiles_expected(x_ft: float, y_ft: float, zoom: int) -> tuple[int, int]:
    from pyproj import Transformer

    mx, my = Transformer.from_crs("EPSG:2261", "EPSG:3857", always_xy=True).transform(x_ft, y_ft)
    pixel = 2 * math.pi * _R / (256 * 2 ** zoom)
    col = (mx + math.pi * _R) / pixel
    row = (math.pi * _R - my) / pixel
    return int(col // 10) % 256, int(row // 10) % 256


def utm_origin(origin_ft: tuple[float, float] = ORIGIN_FT) -> tuple[float, float]:
    from pyproj import Transformer

    x, y = Transformer.from_crs("EPSG:2261", "EPSG:26918", always_xy=True).transform(*origin_ft)
    return float(x), float(y)


__all__ = ["ORIGIN_FT", "expected", "mbtiles_expected", "pattern", "transform_bounds",
           "utm_origin", "write_geotiff", "write_mbtiles", "write_world_file_png"]
