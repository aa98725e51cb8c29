"""Distances from 5,000 areas to a 20,000-vertex shoreline.

Prints the time per area of `LakeLine.measure_many` and its ratio to a bare STRtree of
the same segments queried in the same run (goal: at most 1.5), and checks every distance
against plain shapely (`area.distance(boundary)`) to 0.01 ft.

Run: python -m benchmarks.bench_distance
"""

from __future__ import annotations

import numpy as np
import shapely

from benchmarks.common import Goal, best_of, report
from inspector_app.geo.lake_line import LakeLine, classify

VERTICES = 20_000
AREAS = 5_000
GOAL_RATIO = 1.5


def shoreline(rng: np.random.Generator) -> shapely.Polygon:
    angles = np.linspace(0, 2 * np.pi, VERTICES, endpoint=False)
    radius = (40_000 + 6_000 * np.sin(9 * angles) + 1_500 * np.sin(57 * angles)
              + rng.uniform(-60, 60, VERTICES))
    return shapely.Polygon(np.column_stack([1_100_000 + radius * np.cos(angles),
                                            1_000_000 + radius * np.sin(angles)]))


def areas(rng: np.random.Generator, lake: shapely.Polygon) -> list[shapely.Polygon]:
    ring = lake.exterior
    out = []
    for t in rng.uniform(0, 1, AREAS):
        p = ring.interpolate(t, normalized=True)
        dx, dy = p.x - 1_100_000, p.y - 1_000_000
        norm = np.hypot(dx, dy)
        offset = rng.uniform(-100, 1500)  # some overlap the water, most are on land
        cx, cy = p.x + dx / norm * offset, p.y + dy / norm * offset
        out.append(shapely.box(cx - 20, cy - 30, cx + 20, cy + 30))
    return out


def main() -> list[Goal]:
    rng = np.random.default_rng(2026)
    lake_polygon = shoreline(rng)
    sites = areas(rng, lake_polygon)
    lake = LakeLine(*classify([lake_polygon], "benchmark"))
    arr = np.asarray(sites, dtype=object)

    def ours() -> list[float]:
        return [m.distance_ft for m in lake.measure_many(sites)]

    def bare_strtree() -> np.ndarray:
        tree = lake.tree  # the same segments, the same index: only the query itself
        _, dist = tree.query_nearest(arr, return_distance=True, all_matches=False)
        return dist

    t_ours, got = best_of(ours)
    t_base, _ = best_of(bare_strtree)
    boundary = lake_polygon.boundary
    shapely.prepare(lake_polygon)
    t_plain, plain = best_of(lambda: [0.0 if a.intersects(lake_polygon) else a.distance(boundary)
                                      for a in sites], repeat=1)
    worst = float(np.max(np.abs(np.asarray(got) - np.asarray(plain))))
    ratio = t_ours / t_base
    report("distance: 5,000 areas x 20,000-vertex shoreline", [
        ("ours, per area", f"{t_ours / AREAS * 1e6:8.1f} us"),
        ("bare STRtree, per area", f"{t_base / AREAS * 1e6:8.1f} us"),
        ("ratio ours / bare", f"{ratio:8.2f}   (goal <= {GOAL_RATIO})"),
        ("plain shapely, per area", f"{t_plain / AREAS * 1e6:8.1f} us  "
                                    f"({t_plain / t_ours:.0f}x slower than ours)"),
        ("max |ours - plain|", f"{worst:8.4f} ft  (goal <= 0.01 ft)"),
        ("areas overlapping water", f"{sum(d == 0 for d in got):8d}"),
    ])
    return [Goal("distance", "time per area, ratio to bare STRtree", f"{ratio:.2f}",
                 f"<= {GOAL_RATIO}", ratio <= GOAL_RATIO),
            Goal("distance", "largest difference to plain shapely", f"{worst:.4f} ft",
                 "<= 0.01 ft", worst <= 0.01)]


if __name__ == "__main__":
    main()
