"""Imagery placed in EPSG:2261 to within a foot, read lazily, and refused clearly."""

from __future__ import annotations

import math
import sqlite3
import warnings
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
import rasterio
from pyproj import Transformer
from rasterio.transform import Affine

from inspector_app.geo.crs import lonlat_to_feet
from inspector_app.geo.rasters import (
    RasterFileError,
    RasterReader,
    clip_to_geotiff,
    inspect_raster,
)
from tests.geo.raster_helpers import (
    ORIGIN_FT,
    utm_origin,
    write_geotiff,
    write_mbtiles,
    write_world_file_png,
)

BLOCK = 10  # pixels per square of the pattern


def _colour_at(reader: RasterReader, x: float, y: float) -> tuple[int, int, int]:
    """The rendered (red, green, alpha) at a point, rendered at 0.25 ft a pixel."""
    half = 8 * 0.25 + 0.125
    img = reader.render((x - half, y - half, x + half, y + half), 17, 17)
    return int(img[8, 8, 0]), int(img[8, 8, 1]), int(img[8, 8, 3])


def _check_edges(reader: RasterReader, to_feet: Callable[[float, float], tuple[float, float]],
                 origin: tuple[float, float], pixel: float, ft_per_unit: float,
                 blocks: list[tuple[int, int]], tol_ft: float = 1.0) -> None:
    """For each square (block column, block row) of the pattern: a point `tol_ft` inside
    each of its four edges has its colour, a point `tol_ft` outside has the neighbour's."""
    tol = tol_ft / ft_per_unit  # in the image's own units
    size = BLOCK * pixel
    for bc, br in blocks:
        left, top = origin[0] + bc * size, origin[1] - br * size
        cx, cy = left + size / 2, top - size / 2
        cases = [((left + tol, cy), (bc, br)), ((left - tol, cy), (bc - 1, br)),
                 ((left + size - tol, cy), (bc, br)), ((left + size + tol, cy), (bc + 1, br)),
                 ((cx, top - tol), (bc, br)), ((cx, top + tol), (bc, br - 1)),
                 ((cx, top - size + tol), (bc, br)), ((cx, top - size - tol), (bc, br + 1))]
        for (sx, sy), (ec, er) in cases:
            x, y = to_feet(sx, sy)
            assert _colour_at(reader, x, y) == (ec % 256, er % 256, 255), (bc, br, sx, sy)


def _same(x: float, y: float) -> tuple[float, float]:
    return x, y


def test_a_state_plane_geotiff_is_placed_to_within_a_foot(tmp_path: Path) -> None:
    path = write_geotiff(tmp_path / "sp.tif", width=400, height=300, pixel=1.0)
    info = inspect_raster(path)
    ox, oy = ORIGIN_FT
    assert info.format == "geotiff" and info.source_crs == "EPSG:2261"
    assert info.bounds_ft == (ox, oy - 300, ox + 400, oy)
    assert info.resolution_ft == 1.0 and (info.width_px, info.height_px) == (400, 300)
    with RasterReader(path, "geotiff") as reader:
        _check_edges(reader, _same, ORIGIN_FT, 1.0, 1.0, [(1, 1), (7, 3), (38, 28)])
        # the whole image at its own resolution is the pattern itself, north row first
        img = reader.render(info.bounds_ft, 400, 300)
        assert img.shape == (300, 400, 4) and img.dtype == np.uint8
        assert tuple(img[0, 0]) == (0, 0, 200, 255) and tuple(img[299, 399]) == (39, 29, 200, 255)


def test_outside_the_image_is_transparent(tmp_path: Path) -> None:
    path = write_geotiff(tmp_path / "sp.tif", width=400, height=300)
    ox, oy = ORIGIN_FT
    with RasterReader(path, "geotiff") as reader:
        img = reader.render((ox - 400, oy - 300, ox + 400, oy + 300), 80, 60)
        assert (img[:30, :, 3] == 0).all() and (img[:, :40, 3] == 0).all()
        assert (img[31:, 41:, 3] == 255).all()
        assert (reader.render((ox + 1000, oy, ox + 2000, oy + 1000), 10, 10) == 0).all()


def test_a_utm_image_in_metres_is_placed_to_within_a_foot(tmp_path: Path) -> None:
    origin = utm_origin()
    path = write_geotiff(tmp_path / "utm.tif", width=400, height=400, pixel=0.5,
                         origin=origin, crs="EPSG:26918")
    info = inspect_raster(path)
    assert info.source_crs == "EPSG:26918"
    assert info.resolution_ft == pytest.approx(0.5 / 0.3048006, rel=0.01)
    back = Transformer.from_crs("EPSG:26918", "EPSG:2261", always_xy=True)
    with RasterReader(path, "geotiff") as reader:
        _check_edges(reader, lambda x, y: back.transform(x, y), origin, 0.5, 1 / 0.3048006,
                     [(2, 2), (15, 9), (37, 36)])


def test_a_png_with_world_file_and_prj_is_placed_to_within_a_foot(tmp_path: Path) -> None:
    path = write_world_file_png(tmp_path / "photo.png", pixel=2.0)
    info = inspect_raster(path)
    ox, oy = ORIGIN_FT
    assert info.format == "world_file" and info.source_crs == "EPSG:2261"
    assert info.bounds_ft == pytest.approx((ox, oy - 300, ox + 400, oy))
    with RasterReader(path, "world_file") as reader:
        _check_edges(reader, _same, ORIGIN_FT, 2.0, 1.0, [(1, 1), (5, 3), (9, 6)])


def test_an_mbtiles_file_is_placed_to_within_its_pixel(tmp_path: Path) -> None:
    path = tmp_path / "tiles.mbtiles"
    zoom = 17
    write_mbtiles(path, zoom=zoom, lonlat_box=(-77.280, 42.798, -77.272, 42.802))
    info = inspect_raster(path)
    assert info.format == "mbtiles" and info.source_crs == "EPSG:3857"
    merc_pixel = 2 * math.pi * 6378137.0 / (256 * 2 ** zoom)
    # Web Mercator pixels are this many feet on the ground here
    ft_per_merc = 1 / 0.3048006 * math.cos(math.radians(42.8))
    assert info.resolution_ft == pytest.approx(merc_pixel * ft_per_merc, rel=0.02)
    world = -math.pi * 6378137.0, math.pi * 6378137.0
    back = Transformer.from_crs("EPSG:3857", "EPSG:2261", always_xy=True)
    to_merc = Transformer.from_crs("OGC:CRS84", "EPSG:3857", always_xy=True)
    mx, my = to_merc.transform(-77.276, 42.800)
    col, row = int((mx - world[0]) / merc_pixel) // BLOCK, int((world[1] - my) / merc_pixel) // BLOCK
    with RasterReader(path, "mbtiles") as reader:
        # the image's own pixel is 2.9 ft: checked a pixel and a foot from each edge
        _check_edges(reader, lambda x, y: back.transform(x, y), world, merc_pixel, ft_per_merc,
                     [(col, row), (col + 3, row - 2)], tol_ft=info.resolution_ft + 1)


def test_a_zoomed_out_window_reads_an_overview_not_the_whole_image(tmp_path: Path) -> None:
    path = write_geotiff(tmp_path / "big.tif", width=4096, height=4096, pixel=0.5,
                         overviews=[2, 4, 8, 16])
    info = inspect_raster(path)
    assert info.overviews == 4
    with RasterReader(path, "geotiff") as reader:
        reader.render(info.bounds_ft, 256, 256)  # 8 ft a pixel: the 16x overview (8 ft)
        assert reader.last_level == 4
        assert reader.last_window is not None and reader.last_window.width <= 257
        ox, oy = ORIGIN_FT
        reader.render((ox, oy - 700, ox + 1000, oy), 1000, 700)  # 1 ft a pixel: 2x overview
        assert reader.last_level == 1
        assert reader.last_window is not None and reader.last_window.width <= 1001
        reader.render((ox, oy - 70, ox + 100, oy), 1000, 700)  # closer in: full resolution
        assert reader.last_level == 0
        assert reader.last_window is not None and reader.last_window.width <= 201


def test_grey_and_rgba_images_render(tmp_path: Path) -> None:
    grey = np.full((1, 50, 50), 90, dtype=np.uint8)
    path = write_geotiff(tmp_path / "grey.tif", width=50, height=50, data=grey, tiled=False)
    ox, oy = ORIGIN_FT
    with RasterReader(path, "geotiff") as reader:
        assert tuple(reader.render((ox, oy - 50, ox + 50, oy), 5, 5)[2, 2]) == (90, 90, 90, 255)
    rgba = np.zeros((4, 50, 50), dtype=np.uint8)
    rgba[0] = 250
    rgba[3, :, 25:] = 255  # the west half has no data
    path = tmp_path / "rgba.tif"
    with rasterio.open(path, "w", driver="GTiff", width=50, height=50, count=4, dtype="uint8",
                       crs="EPSG:2261", transform=Affine(1, 0, ox, 0, -1, oy),
                       photometric="RGB", alpha="YES") as dst:
        dst.write(rgba)
    with RasterReader(path, "geotiff") as reader:
        img = reader.render((ox, oy - 50, ox + 50, oy), 10, 10)
        assert (img[:, :5, 3] == 0).all() and (img[:, 5:, 3] == 255).all()
        assert (img[:, 5:, 0] == 250).all()


def test_a_clip_covers_the_box_in_state_plane_and_is_smaller(tmp_path: Path) -> None:
    origin = utm_origin()
    path = write_geotiff(tmp_path / "utm.tif", width=1200, height=1200, pixel=0.5,
                         origin=origin, crs="EPSG:26918")
    full = inspect_raster(path)
    ox, oy = ORIGIN_FT
    box = (ox + 200, oy - 800, ox + 700, oy - 300)
    info = clip_to_geotiff(path, "geotiff", box, tmp_path / "clip.tif")
    assert info.source_crs == "EPSG:2261" and info.format == "geotiff"
    assert info.bounds_ft[0] == pytest.approx(box[0]) and info.bounds_ft[3] == pytest.approx(box[3])
    assert info.bounds_ft[2] >= box[2] - 1e-6 and info.bounds_ft[1] <= box[1] + 1e-6
    assert info.width_px * info.height_px < full.width_px * full.height_px
    assert info.overviews >= 1 and info.tiled
    # same picture: compare a window rendered from both
    window = (ox + 300, oy - 500, ox + 400, oy - 400)
    with RasterReader(path, "geotiff") as a, RasterReader(tmp_path / "clip.tif", "geotiff") as b:
        diff = np.abs(a.render(window, 50, 50).astype(int) - b.render(window, 50, 50).astype(int))
        assert np.median(diff[..., :3]) <= 3 and (b.render(window, 50, 50)[..., 3] == 255).all()
        # outside the box the clip is transparent
        assert (b.render((ox, oy - 100, ox + 100, oy), 10, 10)[..., 3] == 0).all()


# ---- refusals ---------------------------------------------------------------------------

def _refused(path: Path, *words: str) -> None:
    with pytest.raises(RasterFileError) as err:
        inspect_raster(path)
    message = str(err.value)
    assert str(path) in message or path.name in message, message
    for word in words:
        assert word in message, message


def test_an_image_without_georeferencing_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "plain.tif"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        dst = rasterio.open(path, "w", driver="GTiff", width=10, height=10, count=1,
                            dtype="uint8")
    with dst:
        dst.write(np.zeros((1, 10, 10), dtype=np.uint8))
    _refused(path, "no georeferencing")
    png = write_world_file_png(tmp_path / "photo.png")
    png.with_suffix(".pgw").unlink()
    _refused(png, "world file")


def test_a_world_file_without_prj_names_the_missing_file(tmp_path: Path) -> None:
    png = write_world_file_png(tmp_path / "photo.png", prj_crs=None)
    _refused(png, "photo.prj", "missing")


def test_a_rotated_world_file_is_refused(tmp_path: Path) -> None:
    png = write_world_file_png(tmp_path / "photo.png")
    ox, oy = ORIGIN_FT
    png.with_suffix(".pgw").write_text(f"2\n0.3\n0.3\n-2\n{ox}\n{oy}\n")
    _refused(png, "rotated")


def test_an_image_far_from_new_york_is_refused(tmp_path: Path) -> None:
    path = write_geotiff(tmp_path / "paris.tif", width=20, height=20, pixel=0.0001,
                         origin=(2.35, 48.85), crs="EPSG:4326")
    _refused(path, "outside the area of use")
    # the lake's coordinates given the wrong CRS: read as UTM metres they land elsewhere
    path = write_geotiff(tmp_path / "wrong.tif", width=20, height=20, pixel=1,
                         origin=ORIGIN_FT, crs="EPSG:32633")
    _refused(path, "outside the area of use")


def test_an_unusable_crs_is_refused(tmp_path: Path) -> None:
    png = write_world_file_png(tmp_path / "photo.png")
    png.with_suffix(".prj").write_text("PROJCS[nonsense")
    with pytest.raises(RasterFileError, match=r"photo\.prj: is not a coordinate system"):
        inspect_raster(png)


def test_corrupt_and_non_image_files_are_refused(tmp_path: Path) -> None:
    good = write_geotiff(tmp_path / "good.tif", width=300, height=300, tiled=False)
    bad = tmp_path / "bad.tif"
    bad.write_bytes(good.read_bytes()[:200])
    _refused(bad, "cannot be read")
    text = tmp_path / "notes.tif"
    text.write_text("not an image at all\n" * 100)
    _refused(text, "not an image this app reads")
    csv = tmp_path / "parcels.csv"
    csv.write_text("sbl,owner\n1,2\n")
    _refused(csv, "not an image this app reads")
    _refused(tmp_path / "missing.tif", "no such file")


def test_empty_and_vector_mbtiles_are_refused(tmp_path: Path) -> None:
    empty = tmp_path / "empty.mbtiles"
    conn = sqlite3.connect(empty)
    conn.executescript("CREATE TABLE metadata (name TEXT, value TEXT); CREATE TABLE tiles "
                       "(zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, "
                       "tile_data BLOB); INSERT INTO metadata VALUES ('format', 'png');")
    conn.close()
    _refused(empty, "no tiles")
    vector = tmp_path / "vector.mbtiles"
    conn = sqlite3.connect(vector)
    conn.executescript("CREATE TABLE metadata (name TEXT, value TEXT); CREATE TABLE tiles "
                       "(zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, "
                       "tile_data BLOB); INSERT INTO metadata VALUES ('format', 'pbf');"
                       "INSERT INTO tiles VALUES (1, 1, 1, x'00');")
    conn.close()
    _refused(vector, "vector tiles")
    other = tmp_path / "other.mbtiles"
    sqlite3.connect(other).executescript("CREATE TABLE t (x);")
    _refused(other, "not an MBTiles file")


def test_lake_coordinates_helper_agrees() -> None:
    # the synthetic images' corner is near the lake's north end
    x, y = lonlat_to_feet(-77.27, 42.80)
    assert abs(float(x) - ORIGIN_FT[0]) < 2000 and abs(float(y) - ORIGIN_FT[1]) < 2000
