"""Hostile files made on the spot, as a sender of a file by e-mail would make them: SQLite
files (MBTiles, GeoPackage) whose tables are views that never finish, rasters whose
headers declare more pixels than any office has. Each function writes its file and
returns its path."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path

# A view that never finishes: an endless recursive common table expression.
_ENDLESS = ("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) ")


def loop_mbtiles(path: Path) -> Path:
    """An MBTiles file whose `tiles` is a view over an endless recursive query."""
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("CREATE TABLE metadata (name TEXT, value TEXT)")
        conn.executemany("INSERT INTO metadata VALUES (?, ?)",
                         [("name", "loop"), ("format", "png"), ("minzoom", "12"),
                          ("maxzoom", "12"), ("bounds", "-77.35,42.80,-77.25,42.90")])
        conn.execute("CREATE VIEW tiles AS " + _ENDLESS +
                     "SELECT 12 AS zoom_level, x AS tile_column, x AS tile_row, "
                     "zeroblob(10) AS tile_data FROM c")
    conn.close()
    return path


def endless_view_mbtiles(path: Path) -> Path:
    """The same endless view hidden behind an ordinary-looking view over another view, with
    no common table expression in the `tiles` view itself: only the reading budget
    stops it."""
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("CREATE TABLE metadata (name TEXT, value TEXT)")
        conn.executemany("INSERT INTO metadata VALUES (?, ?)",
                         [("name", "cross"), ("format", "png")])
        conn.execute("CREATE TABLE n (i INTEGER)")
        conn.executemany("INSERT INTO n VALUES (?)", [(i,) for i in range(200)])
        # 200^5 = 3.2e11 rows: finite, but never read in a lifetime
        conn.execute("CREATE VIEW tiles AS SELECT 12 AS zoom_level, a.i AS tile_column, "
                     "b.i AS tile_row, zeroblob(10) AS tile_data FROM n a, n b, n c, n d, n e")
    conn.close()
    return path


def trigger_mbtiles(path: Path) -> Path:
    """An MBTiles file with real tables and a trigger on them."""
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("CREATE TABLE metadata (name TEXT, value TEXT)")
        conn.execute("INSERT INTO metadata VALUES ('format', 'png')")
        conn.execute("CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, "
                     "tile_row INTEGER, tile_data BLOB)")
        conn.execute("INSERT INTO tiles VALUES (12, 1, 1, zeroblob(10))")
        conn.execute("CREATE TRIGGER t AFTER INSERT ON tiles BEGIN DELETE FROM metadata; END")
    conn.close()
    return path


def loop_gpkg(path: Path) -> Path:
    """A GeoPackage of one feature table that is a view over an endless recursive query,
    registered as GDAL expects a layer to be."""
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("PRAGMA application_id = 1196444487")  # 'GPKG'
        conn.execute("PRAGMA user_version = 10300")
        conn.execute("CREATE TABLE gpkg_spatial_ref_sys (srs_name TEXT NOT NULL, srs_id "
                     "INTEGER PRIMARY KEY, organization TEXT NOT NULL, organization_coordsys_id "
                     "INTEGER NOT NULL, definition TEXT NOT NULL, description TEXT)")
        conn.execute("INSERT INTO gpkg_spatial_ref_sys VALUES ('WGS 84', 4326, 'EPSG', 4326, "
                     "'GEOGCS[\"WGS 84\",DATUM[\"WGS_1984\",SPHEROID[\"WGS 84\",6378137,"
                     "298.257223563]],PRIMEM[\"Greenwich\",0],UNIT[\"degree\","
                     "0.0174532925199433]]', NULL)")
        conn.execute("CREATE TABLE gpkg_contents (table_name TEXT NOT NULL PRIMARY KEY, "
                     "data_type TEXT NOT NULL, identifier TEXT UNIQUE, description TEXT "
                     "DEFAULT '', last_change DATETIME NOT NULL DEFAULT "
                     "(strftime('%Y-%m-%dT%H:%M:%fZ','now')), min_x DOUBLE, min_y DOUBLE, "
                     "max_x DOUBLE, max_y DOUBLE, srs_id INTEGER)")
        conn.execute("INSERT INTO gpkg_contents (table_name, data_type, identifier, srs_id) "
                     "VALUES ('lots', 'features', 'lots', 4326)")
        conn.execute("CREATE TABLE gpkg_geometry_columns (table_name TEXT NOT NULL, "
                     "column_name TEXT NOT NULL, geometry_type_name TEXT NOT NULL, srs_id "
                     "INTEGER NOT NULL, z TINYINT NOT NULL, m TINYINT NOT NULL)")
        conn.execute("INSERT INTO gpkg_geometry_columns VALUES ('lots', 'geom', 'POINT', "
                     "4326, 0, 0)")
        conn.execute("CREATE VIEW lots AS " + _ENDLESS +
                     "SELECT x AS fid, NULL AS geom, 'x' AS sbl FROM c")
    conn.close()
    return path


def endless_view_gpkg(path: Path) -> Path:
    """A GeoPackage whose feature table is a plain view of a join no one could wait for."""
    loop_gpkg(path)
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("DROP VIEW lots")
        conn.execute("CREATE TABLE n (i INTEGER)")
        conn.executemany("INSERT INTO n VALUES (?)", [(i,) for i in range(200)])
        conn.execute("CREATE VIEW lots AS SELECT a.i AS fid, NULL AS geom, 'x' AS sbl "
                     "FROM n a, n b, n c, n d, n e")
    conn.close()
    return path


def huge_sparse_geotiff(path: Path, size_px: int = 200_000) -> Path:
    """A GeoTIFF near the lake declaring `size_px` x `size_px` pixels of which none is
    written (a sparse file of a few megabytes), stripped and without overviews."""
    import numpy as np
    import rasterio
    from rasterio.transform import Affine

    from tests.geo.helpers import X0, Y0

    profile = {"driver": "GTiff", "width": size_px, "height": size_px, "count": 3,
               "dtype": "uint8", "crs": "EPSG:2261",
               "transform": Affine(0.05, 0, X0, 0, -0.05, Y0 + 200), "tiled": False,
               "BIGTIFF": "YES", "SPARSE_OK": True}
    with rasterio.open(path, "w", **profile) as dst:
        dst.write(np.zeros((3, 1, 1), dtype=np.uint8), window=((0, 1), (0, 1)))
    return path


def one_fine_tile_mbtiles(path: Path, lon: float, lat: float, zoom: int = 22) -> Path:
    """An MBTiles file of one tile at `zoom` at (lon, lat) whose bounds claim the area
    around it: at zoom 22 a pixel is about 0.09 ft beside the lake."""
    from tests.geo.raster_helpers import write_mbtiles

    write_mbtiles(path, zoom=zoom, lonlat_box=(lon, lat, lon + 1e-6, lat + 1e-6))
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("UPDATE metadata SET value = ? WHERE name = 'bounds'",
                     (f"{lon - 0.02},{lat - 0.02},{lon + 0.02},{lat + 0.02}",))
    conn.close()
    return path


def _feature_collection(features: str, crs: str | None = None) -> str:
    named = "" if crs is None else (
        f'"crs": {{"type": "name", "properties": {{"name": {json.dumps(crs)}}}}}, ')
    return f'{{"type": "FeatureCollection", {named}"features": [{features}]}}'


_LINE = ('{"type": "Feature", "properties": {}, "geometry": {"type": "LineString", '
         '"coordinates": [[-77.31, 42.8], [-77.3, 42.81]]}}')


def deep_geojson(path: Path, levels: int = 100_000) -> Path:
    """A FeatureCollection whose features array nests `levels` arrays deep (200 KB)."""
    path.write_text('{"type": "FeatureCollection", "features": [' + "[" * levels
                    + "]" * levels + "]}")
    return path


def named_crs_geojson(path: Path, crs: str) -> Path:
    """A line beside the lake in WGS84 numbers whose "crs" member names `crs`."""
    path.write_text(_feature_collection(_LINE, crs))
    return path


def utf16_geojson(path: Path) -> Path:
    """A line beside the lake as GeoJSON saved as UTF-16 with its byte order mark."""
    path.write_text(_feature_collection(_LINE), encoding="utf-16")
    return path


def many_features_geojson(path: Path, count: int) -> Path:
    """A FeatureCollection of `count` copies of one short line beside the lake."""
    path.write_text(_feature_collection(", ".join([_LINE] * count)))
    return path


def long_line_geojson(path: Path, vertices: int) -> Path:
    """One LineString of `vertices` positions along the lake's west shore."""
    positions = ", ".join(f"[-77.31, {42.8 + i * 1e-7:.7f}]" for i in range(vertices))
    path.write_text(_feature_collection(
        '{"type": "Feature", "properties": {}, "geometry": {"type": "LineString", '
        f'"coordinates": [{positions}]}}}}'))
    return path


def bogus_strips_tiff(path: Path, size_px: int = 100_000) -> Path:
    """A 122-byte TIFF header declaring `size_px` x `size_px` grey pixels in one strip
    whose byte count GDAL finds bogus (and says so), without georeferencing."""
    import struct

    entries = [(256, 4, size_px), (257, 4, size_px), (258, 3, 8), (259, 3, 1), (262, 3, 1),
               (273, 4, 8), (277, 3, 1), (278, 4, size_px), (279, 4, 1_410_000_000)]
    ifd = struct.pack("<H", len(entries)) + b"".join(
        struct.pack("<HHII", tag, kind, 1, value) if kind == 4
        else struct.pack("<HHIHH", tag, kind, 1, value, 0) for tag, kind, value in entries)
    path.write_bytes(b"II*\x00" + struct.pack("<I", 8) + ifd + struct.pack("<I", 0))
    return path


def other_body_world_file_png(path: Path) -> Path:
    """A small PNG with a world file and a .prj naming a CRS on a body of 1e30 m radius,
    which no transformation relates to the earth."""
    from PIL import Image

    Image.new("RGB", (64, 64), "olive").save(path)
    path.with_suffix(".pgw").write_text("1\n0\n0\n-1\n0\n0\n")
    path.with_suffix(".prj").write_text("+proj=geos +h=1e30 +a=1e30")
    return path


ROLL_HEADER = ("sbl,municipality,site_address,owner_name,mailing_address_1,"
               "mailing_address_2,longitude,latitude")


def _roll_row(n: int) -> str:
    """A valid row of a roll: parcel 900.01-1-n on the lake."""
    return (f"900.01-1-{n},Town of Canandaigua,{n} County Road 16,Owner {n},"
            f"{n} County Road 16,\"Canandaigua, NY 14424\",-77.3,42.8")


def wide_roll(path: Path, columns: int = 100_000) -> Path:
    """A CSV roll whose header names `columns` columns (the roll's own and x1, x2, ...),
    and one row."""
    extra = columns - len(ROLL_HEADER.split(","))
    path.write_text(ROLL_HEADER + "".join(f",x{i}" for i in range(extra)) + "\n"
                    + _roll_row(1) + "," * extra + "\n", "utf-8")
    return path


def long_roll(path: Path, rows: int) -> Path:
    """A valid CSV roll of `rows` parcels (about 110 bytes each)."""
    path.write_text(ROLL_HEADER + "\n" + "\n".join(_roll_row(n) for n in range(1, rows + 1))
                    + "\n", "utf-8")
    return path


def _workbook_with_sheet(path: Path, sheet: Callable[[bytes], Iterator[bytes]]) -> Path:
    """A roll saved as .xlsx by the app itself, its first sheet's XML rewritten by `sheet`
    (given the XML, it yields the new XML in pieces, written as they come)."""
    from inspector_app.documents.spreadsheet import table_bytes

    rows = list(csv.reader([ROLL_HEADER, _roll_row(1)]))
    source = zipfile.ZipFile(io.BytesIO(table_bytes(".xlsx", rows[0], rows[1:])))
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as z:
        for info in source.infolist():
            data = source.read(info)
            if info.filename != "xl/worksheets/sheet1.xml":
                z.writestr(info.filename, data)
                continue
            with z.open(info.filename, "w", force_zip64=True) as f:
                for piece in sheet(data):
                    f.write(piece)
    return path


def bomb_workbook(path: Path, mebibytes: int = 3000) -> Path:
    """A workbook of a few MB whose sheet inflates to `mebibytes` MiB of XML comments."""
    def sheet(xml: bytes) -> Iterator[bytes]:
        head, _, tail = xml.partition(b"<sheetData>")
        yield head
        block = b"<!--" + b" " * (1024**2 - 7) + b"-->"
        for _ in range(mebibytes):
            yield block
        yield b"<sheetData>" + tail
    return _workbook_with_sheet(path, sheet)


DTDS = {
    "billion laughs": ('<!DOCTYPE worksheet [<!ENTITY a "aaaaaaaaaa">'
                       + "".join(f'<!ENTITY {b} "{("&" + a + ";") * 10}">'
                                 for a, b in zip("abcdefgh", "bcdefghi", strict=True))
                       + "]>", "&i;"),
    "external entity": ('<!DOCTYPE worksheet [<!ENTITY x SYSTEM "file:///etc/passwd">]>',
                        "&x;"),
    "undefined entity": ("", "&x;"),
}


def dtd_workbook(path: Path, kind: str) -> Path:
    """A workbook whose sheet carries a DTD of `kind` (DTDS) before its root element and
    the entity's reference as the first owner's name."""
    dtd, reference = DTDS[kind]

    def sheet(xml: bytes) -> Iterator[bytes]:
        assert xml.count(b"Owner 1") == 1, xml
        body = xml.replace(b"Owner 1", reference.encode())
        declaration, _, rest = body.partition(b"?>") if body.startswith(b"<?xml") else (
            b"", b"", body)
        yield declaration + (b"?>" if declaration else b"") + dtd.encode() + rest
    return _workbook_with_sheet(path, sheet)
