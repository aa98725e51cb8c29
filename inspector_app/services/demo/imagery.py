"""The demo's aerial imagery: invented, and named so wherever it is shown."""

from __future__ import annotations

import hashlib
import json
import math
import tempfile
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...paths import resource
from ...storage import basemaps as basemap_rows
from ...storage import parcels as parcel_rows
from ..reference.basemaps import import_basemap

if TYPE_CHECKING:
    from ...geo.demo_image import Homestead
    from ..session.session import Session

DEMO_IMAGERY_NAME = "Invented demo imagery (not a photograph)"
DEMO_IMAGERY_SOURCE = "Invented demo imagery, not a photograph"
# Drawn at this many feet a pixel in a square this far (ft) around each demo parcel, and
# nothing elsewhere (a sparse file: the blocks away from every parcel are not written).
PIXEL_FT = 2.0
AROUND_FT = 600.0
# In a big demo, only the named first parcels (SBL 900.01-1-1 to 900.01-1-40) are drawn.
_DRAWN = 40


# The same parcels make the same image: the last few made are kept (a few MB each) so that
# installing the demo again in the same process does not draw it again.
_MADE: dict[str, bytes] = {}
_KEPT = 4


def _drawn_sbls() -> dict[str, int]:
    return {f"900.01-1-{k + 1}": k for k in range(_DRAWN)}


def demo_homesteads(ws: Session, lake_lonlat: dict[str, Any]) -> list[Homestead]:
    """The demo parcels the image shows (the named first ones), as drawn: house, driveway,
    lawn, road."""
    named = _drawn_sbls()
    rows = [r for r in parcel_rows.demo_locations(ws.store.conn) if r["sbl"] in named]
    if not rows:
        return []
    rows.sort(key=lambda r: named[r["sbl"]])
    from ...geo.crs import lonlat_to_feet
    from ...geo.demo_image import homesteads
    from ...geo.vector_files import geometry_from_lonlat

    xs, ys = lonlat_to_feet([r["longitude"] for r in rows], [r["latitude"] for r in rows])
    lake = geometry_from_lonlat(lake_lonlat, "the demo's lake outline")
    return homesteads(xs.tolist(), ys.tolist(), [named[r["sbl"]] for r in rows], lake)


def _draw(path: Path, homes: list[Homestead], lake: Any) -> None:
    """The invented image of these homesteads, drawn (seconds: numpy, block by block)."""
    from ...geo.demo_image import block_painter
    from ...geo.rasters import write_sparse_rgb_geotiff

    xs = [h.x for h in homes]
    ys = [h.y for h in homes]
    boxes = [(x - AROUND_FT, y - AROUND_FT, x + AROUND_FT, y + AROUND_FT)
             for x, y in zip(xs, ys, strict=True)]
    # the grid: whole pixels, its corner on a multiple of the pixel
    minx = math.floor((min(xs) - AROUND_FT) / PIXEL_FT) * PIXEL_FT
    maxy = math.ceil((max(ys) + AROUND_FT) / PIXEL_FT) * PIXEL_FT
    width = math.ceil((max(xs) + AROUND_FT - minx) / PIXEL_FT)
    height = math.ceil((maxy - min(ys) + AROUND_FT) / PIXEL_FT)
    write_sparse_rgb_geotiff(path, (minx, maxy), PIXEL_FT, (width, height), boxes,
                             block_painter(lake, homes, PIXEL_FT))


# The image of the named demo parcels, drawn in advance (`scripts/make_demo_imagery.py`),
# and the homesteads and lake it shows: a demo whose parcels are among them, drawn as it
# would draw them now, takes it as it is instead of drawing for seconds.
PREMADE = ("demo", "invented-demo-imagery.tif")
PREMADE_DRAWN = ("demo", "invented-demo-imagery.json")
_SAME_FT = 0.01  # a homestead placed this close to the premade one is the same


def _lake_digest(lake_lonlat: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(lake_lonlat, sort_keys=True).encode()).hexdigest()


def drawing_digest() -> str:
    """What the image's pixels follow from besides the homesteads and the lake: the drawing
    code, the sparse writer and the scale."""
    import inspect

    from ...geo import demo_image, rasters

    h = hashlib.sha256(Path(demo_image.__file__).read_bytes())
    h.update(inspect.getsource(rasters.write_sparse_rgb_geotiff).encode())
    h.update(repr((PIXEL_FT, AROUND_FT)).encode())
    return h.hexdigest()


def premade_image(homes: list[Homestead], lake_lonlat: dict[str, Any]) -> Path | None:
    """The premade image when it shows every one of `homes` as drawn now, else None."""
    from ...geo.demo_image import Homestead

    try:
        drawn = json.loads(resource(*PREMADE_DRAWN).read_text("utf-8"))
        image = resource(*PREMADE)
    except (FileNotFoundError, ValueError):
        return None
    # (that the drawing code is the one it was drawn by is the tests' to check: a packaged
    # app holds no source to digest)
    if drawn.get("lake") != _lake_digest(lake_lonlat):
        return None
    made = [Homestead(**{**h, "lawn": tuple(h["lawn"])}) for h in drawn["homesteads"]]

    def same(a: Homestead, b: Homestead) -> bool:
        pa, pb = asdict(a), asdict(b)
        return all(math.isclose(x, y, abs_tol=_SAME_FT) if isinstance(x, float) else x == y
                   for k in pa for x, y in ([(pa[k], pb[k])] if not isinstance(pa[k], tuple)
                                            else zip(pa[k], pb[k], strict=True)))

    return image if all(any(same(h, m) for m in made) for h in homes) else None


def make_premade(demos: list[Session], lake_lonlat: dict[str, Any],
                 out_dir: Path) -> list[Path]:
    """Draw the premade image of the parcels of the demo folders `demos` (the 40-parcel
    demo and the 20,000-parcel one) into `out_dir`, with the list of what it shows."""
    from ...geo.vector_files import geometry_from_lonlat

    homes: list[Homestead] = []
    for ws in demos:
        homes += [h for h in demo_homesteads(ws, lake_lonlat) if h not in homes]
    out_dir.mkdir(parents=True, exist_ok=True)
    image, drawn = out_dir / PREMADE[-1], out_dir / PREMADE_DRAWN[-1]
    _draw(image, homes, geometry_from_lonlat(lake_lonlat, "the demo's lake outline"))
    drawn.write_text(json.dumps({
        "about": "What resources/demo/invented-demo-imagery.tif shows: invented homesteads "
                 "of the demo parcels; made by scripts/make_demo_imagery.py.",
        "lake": _lake_digest(lake_lonlat), "drawing": drawing_digest(),
        "homesteads": [asdict(h) for h in homes]}, indent=1) + "\n", "utf-8")
    return [image, drawn]


def install_demo_imagery(ws: Session, lake_lonlat: dict[str, Any]) -> bool:
    """Import the invented image around the demo parcels (a copy, active), once: a data
    folder that holds any basemap already is left as it is. The premade image is taken
    when it shows the parcels (at an office database, a reference to the installed file);
    otherwise one is drawn (not at an office database). Returns whether it was imported."""
    if basemap_rows.has_basemap(ws.store.conn):
        return False
    homes = demo_homesteads(ws, lake_lonlat)
    if not homes:
        return False
    premade = premade_image(homes, lake_lonlat)
    if premade is not None:
        import_basemap(ws, premade, name=DEMO_IMAGERY_NAME, copy=None,
                       source=DEMO_IMAGERY_SOURCE)
        return True
    if ws.store.database is not None:
        # an office database keeps imagery as a reference every desk reads: a drawing made
        # for this desk alone is not kept
        return False
    from ...geo.vector_files import geometry_from_lonlat

    lake = geometry_from_lonlat(lake_lonlat, "the demo's lake outline")
    key = hashlib.sha256(repr((homes, PIXEL_FT, AROUND_FT, lake.wkb)).encode()).hexdigest()
    with tempfile.TemporaryDirectory(prefix="inspector-demo-imagery-") as work:
        path = Path(work) / "invented-demo-imagery.tif"
        made = _MADE.get(key)
        if made is None:
            _draw(path, homes, lake)
            made = path.read_bytes()
            while len(_MADE) >= _KEPT:
                _MADE.pop(next(iter(_MADE)))
            _MADE[key] = made
        else:
            path.write_bytes(made)
        import_basemap(ws, path, name=DEMO_IMAGERY_NAME, copy=None,
                       source=DEMO_IMAGERY_SOURCE)
    return True
