"""Parcel files made in the tests: polygons in EPSG:2261 feet written as GeoPackage,
Shapefile or GeoJSON with an SBL field, through pyogrio's raw writer."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import numpy as np
import pyogrio
import shapely

from inspector_app.services.parcel.roll import apply_roll, read_roll
from inspector_app.services.workspace import Workspace
from tests.geo.helpers import X0, Y0, lonlat

DRIVERS = {".gpkg": "GPKG", ".shp": "ESRI Shapefile", ".geojson": "GeoJSON"}


def lot_box(i: int, j: int = 0, w: float = 100.0, h: float = 200.0) -> Any:
    """The lot in column i, row j of a grid of 100 x 200 ft lots sharing their sides."""
    return shapely.box(X0 + i * w, Y0 + j * h, X0 + (i + 1) * w, Y0 + (j + 1) * h)


def write_lots(path: Path, geoms: list[Any], sbls: list[Any], *, field: str = "SBL",
               crs: str = "EPSG:2261", extra: dict[str, list[Any]] | None = None) -> Path:
    """A parcel file: one feature per geometry (in EPSG:2261 feet; written in `crs`)."""
    if crs in ("EPSG:4326", "OGC:CRS84"):
        geoms = [lonlat(g) for g in geoms]
    fields = {field: sbls, **(extra or {})}
    pyogrio.raw.write(path, geometry=np.asarray(shapely.to_wkb(np.asarray(geoms, dtype=object))),
                      field_data=[np.asarray(v, dtype=object) for v in fields.values()],
                      fields=list(fields), driver=DRIVERS[path.suffix], crs=crs,
                      geometry_type="Unknown" if path.suffix != ".shp" else "Polygon")
    return path


def add_parcels(ws: Workspace, folder: Path, sbls: list[str]) -> None:
    """Parcels with these tax map numbers on the roll of the data folder."""
    roll = folder / "roll.csv"
    with roll.open("w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["sbl", "municipality", "site_address", "owner_name", "mailing_address_1"])
        for n, sbl in enumerate(sbls):
            out.writerow([sbl, "Town of Gorham", f"{n + 1} West Lake Rd", "A. Owner",
                          "PO Box 1"])
    parsed = read_roll(roll)
    assert not parsed.rejected, parsed.rejected
    apply_roll(ws.store, parsed)
