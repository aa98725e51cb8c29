"""Rendering windows of a large aerial image: the site map's pan and zoom, without the GUI.

Builds (once) a tiled RGB GeoTIFF of about 2 GB with overviews in the temporary folder
(26,000 pixels a side at 0.5 ft: 13,000 ft square), then times `RasterReader.render` for
50 pan/zoom windows of a 1000 x 700 viewport at each of several zooms, and how much the
process's resident memory grew. The same windows rendered from a 20 MB image of the same extent, in
the same run, are the baseline. Goals: each render under 50 ms, memory flat (peak growth
under 100 MB).

    .venv/bin/python -m benchmarks.bench_basemap [--side 26000] [--windows 50]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import rasterio
from rasterio.transform import Affine
from rasterio.windows import Window

from benchmarks.common import Goal, report
from inspector_app.geo.rasters import RasterReader, inspect_raster

ORIGIN_FT = (630_000.0, 1_026_000.0)  # north-west corner, EPSG:2261 feet (near the lake)
PIXEL_FT = 0.5
SIDE = 26_000  # 26,000^2 x 3 bytes: 2.03 GB of pixels, plus a third for the overviews
LARGE_TIFF = Path(tempfile.gettempdir()) / f"inspector-bench-basemap-{SIDE}.tif"
VIEW = (1000, 700)
ZOOMS_FT = (0.25, 0.5, 2.0, 8.0, 18.0)  # feet a screen pixel: closer than the image, to all
GOAL_MS, GOAL_RSS_MB = 50.0, 100.0


def build(path: Path, side: int, pixel: float, *, compress: str | None = None) -> Path:
    """A tiled, overviewed RGB GeoTIFF `side` pixels square, written a strip at a time."""
    if path.exists():
        return path
    part = path.with_name(f".{path.name}.part")
    profile = {"driver": "GTiff", "width": side, "height": side, "count": 3, "dtype": "uint8",
               "crs": "EPSG:2261", "tiled": True, "blockxsize": 512, "blockysize": 512,
               "transform": Affine(pixel, 0, ORIGIN_FT[0], 0, -pixel, ORIGIN_FT[1]),
               "BIGTIFF": "IF_SAFER", "interleave": "pixel"}
    if compress:
        profile["compress"] = compress
    rng = np.random.default_rng(7)
    cols = np.arange(side)
    strip = 1024
    with rasterio.open(part, "w", **profile) as dst:
        for top in range(0, side, strip):
            rows = np.arange(top, min(top + strip, side))[:, None]
            noise = rng.integers(0, 40, (len(rows), side), dtype=np.uint8)
            r = ((cols[None, :] // 64) * 7 % 200 + noise).astype(np.uint8)
            g = ((rows // 64) * 11 % 200 + noise).astype(np.uint8)
            b = (((rows + cols[None, :]) // 128) * 5 % 200 + noise).astype(np.uint8)
            dst.write(np.stack([r, g, b]), window=Window(0, top, side, len(rows)))
        factors, f = [], 2
        while side / f >= 256:
            factors.append(f)
            f *= 2
        dst.build_overviews(factors)
    part.rename(path)
    return path


def windows(extent_ft: float, count: int, seed: int = 1) -> list[tuple[float, tuple]]:
    """`count` windows at each zoom, each a pan from the one before (as a user drags)."""
    rng = random.Random(seed)
    out = []
    for zoom in ZOOMS_FT:
        w, h = VIEW[0] * zoom, VIEW[1] * zoom
        x, y = ORIGIN_FT[0] + extent_ft / 2, ORIGIN_FT[1] - extent_ft / 2
        for _ in range(count):
            x = min(max(x + rng.uniform(-0.3, 0.3) * w, ORIGIN_FT[0] - w / 4),
                    ORIGIN_FT[0] + extent_ft - w * 0.75)
            y = min(max(y + rng.uniform(-0.3, 0.3) * h, ORIGIN_FT[1] - extent_ft + h / 4),
                    ORIGIN_FT[1] - h * 0.25)
            out.append((zoom, (x - w / 2, y - h / 2, x + w / 2, y + h / 2)))
    return out


def current_rss_mb() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def time_renders(path: Path, wins: list[tuple[float, tuple]]
                 ) -> tuple[dict[float, list[float]], float]:
    """Each render's milliseconds by zoom, and the most the resident memory grew (MB)
    over what it was once the file was open."""
    times: dict[float, list[float]] = {}
    with RasterReader(path, "geotiff") as reader:
        reader.render(wins[0][1], *VIEW)  # opens the file
        before = most = current_rss_mb()
        for zoom, bbox in wins:
            start = time.perf_counter()
            img = reader.render(bbox, *VIEW)
            times.setdefault(zoom, []).append((time.perf_counter() - start) * 1000)
            assert img.shape == (VIEW[1], VIEW[0], 4)
            most = max(most, current_rss_mb())
    return times, most - before


def main(argv: list[str] | None = None) -> list[Goal]:
    """The figures against their goals; `argv` the options (none: the defaults)."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--side", type=int, default=SIDE)
    parser.add_argument("--windows", type=int, default=50)
    args = parser.parse_args(argv or [])
    large = LARGE_TIFF if args.side == SIDE else (
        Path(tempfile.gettempdir()) / f"inspector-bench-basemap-{args.side}.tif")
    start = time.perf_counter()
    build(large, args.side, PIXEL_FT)
    built_s = time.perf_counter() - start
    extent = args.side * PIXEL_FT
    small_side = 2600  # 20 MB of pixels over the same extent
    small = build(Path(tempfile.gettempdir()) / f"inspector-bench-basemap-small-{args.side}.tif",
                  small_side, extent / small_side)
    info = inspect_raster(large)
    wins = windows(extent, args.windows)
    base_times, base_growth = time_renders(small, wins)
    large_times, growth = time_renders(large, wins)
    rows = [("image", f"{large} ({large.stat().st_size / 1e9:.2f} GB, {info.width_px:,} px a "
                      f"side at {PIXEL_FT} ft, {info.overviews} overviews; built in "
                      f"{built_s:.0f} s)"),
            ("baseline", f"{small} ({small_side:,} px a side: 20 MB of pixels, "
                         f"{small.stat().st_size / 1e6:.0f} MB on disk, same extent)")]
    worst = 0.0
    for zoom in ZOOMS_FT:
        big, base = large_times[zoom], base_times[zoom]
        worst = max(worst, max(big))
        rows.append((f"{zoom:g} ft/px, {len(big)} windows",
                     f"median {statistics.median(big):.1f} ms, max {max(big):.1f} ms "
                     f"(20 MB image: median {statistics.median(base):.1f} ms, max "
                     f"{max(base):.1f} ms)"))
    rows.append(("memory growth", f"{growth:.1f} MB (resident, most over the "
                                  f"{len(wins)} renders; 20 MB image: {base_growth:.1f} MB)"))
    report("basemap rendering (RasterReader.render, 1000 x 700)", rows)
    return [Goal("basemap", "render, worst window", f"{worst:.1f} ms", f"< {GOAL_MS:g} ms",
                 worst < GOAL_MS),
            Goal("basemap", "memory growth", f"{growth:.1f} MB", f"< {GOAL_RSS_MB:g} MB",
                 growth < GOAL_RSS_MB)]


if __name__ == "__main__":
    for goal in main(sys.argv[1:]):
        print(f"  {'met' if goal.met else 'NOT MET'}: {goal.measure} {goal.value} "
              f"(goal {goal.goal})")
