"""The demo's invented aerial image: over the demo parcels, the lake blue, marked invented."""

from __future__ import annotations

from datetime import date

import numpy as np
import shapely

from inspector_app.geo.crs import lonlat_to_feet
from inspector_app.geo.vector_files import geometry_from_lonlat
from inspector_app.services.basemaps import active_basemap, list_basemaps, open_reader
from inspector_app.services.demo import _lake_outline, install_demo
from inspector_app.services.workspace import Workspace

TODAY = date(2026, 11, 25)


def test_the_demo_brings_invented_imagery_once(workspace: Workspace) -> None:
    install_demo(workspace, count=8, today=TODAY)
    ref = active_basemap(workspace)
    assert ref is not None and ref.problem is None
    assert "Invented" in ref.name and "not a photograph" in ref.name
    assert ref.source == "Invented demo imagery, not a photograph"
    [row] = list_basemaps(workspace)
    assert row["storage"] == "copy" and 100_000 < row["size_bytes"] < 3_000_000
    rows = workspace.store.query("SELECT longitude, latitude FROM parcels")
    xs, ys = lonlat_to_feet([r["longitude"] for r in rows], [r["latitude"] for r in rows])
    with open_reader(ref) as reader:
        for x, y in zip(xs.tolist(), ys.tolist(), strict=True):
            img = reader.render((x - 200, y - 200, x + 200, y + 200), 20, 20)
            assert (img[..., 3] == 255).all()  # every demo parcel is covered
        # a point well inside the lake, within the image, is water
        lake = geometry_from_lonlat(_lake_outline(), "lake")
        inner = lake.buffer(-300).intersection(shapely.box(*ref.bounds_ft))
        p = inner.representative_point()
        water = reader.render((p.x - 50, p.y - 50, p.x + 50, p.y + 50), 4, 4)[..., :3].astype(
            int)
        assert (water[..., 2] > water[..., 1]).all() and (water[..., 2] > water[..., 0]).all()
        # and land is green
        land = reader.render((xs[0] - 1200, ys[0] - 50, xs[0] - 1100, ys[0] + 50), 4, 4)
        assert np.median(land[..., 1]) > np.median(land[..., 2])
    install_demo(workspace, count=8, today=TODAY)
    assert len(list_basemaps(workspace)) == 1  # running it again changes nothing
