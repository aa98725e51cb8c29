"""The site map over a large aerial image: how long each repaint takes while the user pans
and zooms, and whether memory stays flat.

Builds (once, in the temporary folder) a tiled GeoTIFF of about 800 MB with overviews, or
uses the one bench_basemap.py builds; then shows it under a site map in an offscreen
window and takes 100 pan and zoom steps, timing every paint() of the imagery and the
render thread's reads. Goals: each repaint under 50 ms, memory flat (under 100 MB growth).

    .venv/bin/python -m benchmarks.bench_basemap_gui [--side 16384] [--steps 100]
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from benchmarks.bench_basemap import LARGE_TIFF, PIXEL_FT, build
from benchmarks.bench_basemap import current_rss_mb as rss_mb
from benchmarks.common import Goal

GOAL_PAINT_MS = 50.0
GOAL_RSS_MB = 100.0


def build_image(path: Path, side: int) -> Path:
    """A tiled, overviewed RGB GeoTIFF `side` pixels square (the imagery benchmark's)."""
    return path if path.exists() else Path(build(path, side, PIXEL_FT))


def main(argv: list[str] | None = None) -> list[Goal]:
    """The figures against their goals; `argv` the options (none: the defaults)."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--side", type=int, default=16384, help="pixels a side (16384: 805 MB)")
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--image", type=Path, help="an existing GeoTIFF in EPSG:2261")
    parser.add_argument("--build-only", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv or [])
    if args.build_only:
        build_image(args.build_only, args.side)
        return []

    built = time.perf_counter()
    image = args.image or (LARGE_TIFF if LARGE_TIFF.exists() else None)
    if image is None:
        # Built in a process of its own: the memory measured below is the map's alone.
        image = Path(tempfile.gettempdir()) / f"inspector-bench-basemap-{args.side}.tif"
        if not image.exists():
            subprocess.run([sys.executable, "-m", "benchmarks.bench_basemap_gui", "--side",
                            str(args.side), "--build-only", str(image)], check=True)
    built = time.perf_counter() - built
    from PySide6.QtCore import QPointF
    from PySide6.QtWidgets import QApplication

    from inspector_app.geo.rasters import RasterReader, inspect_raster
    from inspector_app.geo.sketch import SketchGeometry
    from inspector_app.ui.site_map import SiteImagery, SiteMap

    from .common import report

    app = QApplication.instance() or QApplication([])
    info = inspect_raster(image)
    minx, miny, maxx, maxy = info.bounds_ft
    cx, cy = (minx + maxx) / 2, (miny + maxy) / 2
    half = min(maxx - minx, maxy - miny) * 0.3
    geometry = SketchGeometry(window=(cx - half, cy - half, cx + half, cy + half), shore=(),
                              band=(), water=(), areas=(), features=(), nearest=None,
                              distance_ft=0.0)
    reads: list[float] = []

    def opener() -> tuple[object, object]:
        reader = RasterReader(image, info.format)

        def render(bbox: tuple[float, float, float, float], w: int, h: int) -> object:
            start = time.perf_counter()
            out = reader.render(bbox, w, h)
            reads.append((time.perf_counter() - start) * 1000)
            return out
        return render, reader.close

    from types import SimpleNamespace

    ref = SimpleNamespace(id="bench", name="bench", label="bench", path=image,
                          format=info.format, bounds_ft=info.bounds_ft,
                          resolution_ft=info.resolution_ft, source="benchmark",
                          captured_on=None, problem=None)
    site = SiteMap()
    site.resize(1000, 760)
    site.show()
    site.show_site(geometry, "Shoreline: benchmark",
                   imagery=SiteImagery("bench", ref, (), opener))  # type: ignore[arg-type]
    layer = site.imagery

    def settle(limit: float = 2.0) -> None:
        end = time.monotonic() + limit
        while time.monotonic() < end:
            app.processEvents()
            if layer.asked is None:
                return
            time.sleep(0.002)

    site.view.viewport().repaint()
    settle(10)
    layer.timing = True
    before = rss_mb()
    frames: list[float] = []  # the whole map's repaint: imagery, lines, labels
    view = site.view
    for step in range(args.steps):
        if step % 20 < 10:
            view.scale(1.25, 1.25)  # zoom in ...
        else:
            view.scale(0.8, 0.8)    # ... and out again
        # pan: a different place each step, over the whole parcel window
        view.centerOn(QPointF(cx + half * 0.6 * math.cos(step * 0.7),
                              -(cy + half * 0.6 * math.sin(step * 1.1))))
        start = time.perf_counter()
        view.viewport().repaint()   # a paint() now, with the renders already made
        frames.append((time.perf_counter() - start) * 1000)
        app.processEvents()
        if step % 4 == 3:
            settle()                # now and then the user pauses: the render arrives
            view.viewport().repaint()
    settle(10)
    view.viewport().repaint()
    after = rss_mb()
    paints = layer.paint_ms
    report("bench_basemap_gui: site map over a large GeoTIFF", [
        ("image", f"{image} ({image.stat().st_size / 1_048_576:,.0f} MB, "
                  f"{info.width_px:,} x {info.height_px:,} px, {info.overviews} overviews)"),
        ("built in", f"{built:,.1f} s"),
        ("pan/zoom steps", f"{args.steps}"),
        ("paint() calls", f"{len(paints)}"),
        ("paint() median", f"{statistics.median(paints):.2f} ms"),
        ("paint() max", f"{max(paints):.2f} ms (goal < {GOAL_PAINT_MS:.0f} ms)"),
        ("whole repaint median", f"{statistics.median(frames):.2f} ms"),
        ("whole repaint max", f"{max(frames):.2f} ms"),
        ("reads (render thread)", f"{len(reads)}; median {statistics.median(reads):.1f} ms, "
                                  f"max {max(reads):.1f} ms"),
        ("renders kept", f"{len(layer.cache)}"),
        ("RSS", f"{before:,.0f} MB -> {after:,.0f} MB (growth {after - before:+,.1f} MB, "
                f"goal < {GOAL_RSS_MB:.0f} MB)"),
    ])
    site.stop()
    return [Goal("basemap (site map)", "repaint while panning and zooming, slowest",
                 f"{max(frames):.1f} ms", f"< {GOAL_PAINT_MS:g} ms",
                 max(frames) < GOAL_PAINT_MS),
            Goal("basemap (site map)", "memory growth", f"{after - before:.1f} MB",
                 f"< {GOAL_RSS_MB:g} MB", after - before < GOAL_RSS_MB)]


if __name__ == "__main__":
    goals = main(sys.argv[1:])
    print("\n  goals met" if all(g.met for g in goals) else "\n  GOALS NOT MET")
