"""The demo's aerial imagery: invented, and named so wherever it is shown."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .basemaps import import_basemap

if TYPE_CHECKING:
    from .workspace import Workspace

DEMO_IMAGERY_NAME = "Invented demo imagery (not a photograph)"
DEMO_IMAGERY_SOURCE = "Invented demo imagery, not a photograph"
_MARGIN_FT = 1500.0
_LONGEST_PX = 2048  # keeps the file small and quick to make whatever the extent
_FINEST_FT = 4.0


def install_demo_imagery(ws: Workspace, lake_lonlat: dict[str, Any]) -> bool:
    """Make the invented image over the demo parcels and import it (a copy, active), once:
    a data folder that holds any basemap already is left as it is. Returns whether it was
    made."""
    if ws.store.query("SELECT 1 AS x FROM basemaps LIMIT 1"):
        return False
    rows = ws.store.query("SELECT longitude, latitude FROM parcels WHERE is_demo = 1 AND "
                          "deleted_at IS NULL AND longitude IS NOT NULL AND latitude IS NOT "
                          "NULL")
    if not rows:
        return False
    from ..geo.crs import lonlat_to_feet
    from ..geo.demo_image import demo_aerial
    from ..geo.rasters import write_rgb_geotiff
    from ..geo.vector_files import geometry_from_lonlat

    xs, ys = lonlat_to_feet([r["longitude"] for r in rows], [r["latitude"] for r in rows])
    minx, maxx = float(xs.min()) - _MARGIN_FT, float(xs.max()) + _MARGIN_FT
    miny, maxy = float(ys.min()) - _MARGIN_FT, float(ys.max()) + _MARGIN_FT
    pixel = max(_FINEST_FT, max(maxx - minx, maxy - miny) / _LONGEST_PX)
    lake = geometry_from_lonlat(lake_lonlat, "the demo's lake outline")
    bands = demo_aerial((minx, miny, maxx, maxy), pixel, lake,
                        list(zip(xs.tolist(), ys.tolist(), strict=True)))
    with tempfile.TemporaryDirectory(prefix="inspector-demo-imagery-") as work:
        path = Path(work) / "invented-demo-imagery.tif"
        write_rgb_geotiff(path, bands, (minx, maxy), pixel)
        import_basemap(ws, path, name=DEMO_IMAGERY_NAME, copy=True,
                       source=DEMO_IMAGERY_SOURCE)
    return True
