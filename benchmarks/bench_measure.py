"""`inspector-app measure` for 20,000 demo parcels, whole process.

Prints the median time of `measure` with nothing new to measure (goal: at most 1 s), then,
after a second shoreline layer is imported, the median time of measuring all the parcels
on it and its ratio to a floor found in the same run (goal: at most 3): a bare STRtree
nearest query over the layer's segments for the same projected areas, plus writing as
many map measurements with their change log in one transaction.

Run: python -m benchmarks.bench_measure
"""

from __future__ import annotations

import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import shapely
import shapely.affinity
import shapely.geometry

from benchmarks.common import Goal, report
from inspector_app.paths import DATABASE_NAME, resource
from inspector_app.services.reference.shorelines import (
    BUNDLED_FILE,
    active_layer,
    measured_geometry,
)
from inspector_app.services.workspace import Workspace

PARCELS = 20_000
GOAL_S, GOAL_RATIO = 1.0, 3.0
LAYER_ACCURACY_FT = 5.0
# The second layer: the bundled outline moved about 80 ft and cut into pieces of about
# 15 ft, as a surveyed outline would be (about 10,000 vertices).
SHIFT_DEG = (0.0003, -0.0002)
PIECE_DEG = 0.00005


def _cli(folder: Path, *args: str) -> str:
    return subprocess.run([sys.executable, "-m", "inspector_app", "--data-dir", str(folder),
                           *args], check=True, capture_output=True, text=True).stdout


def _timed(folder: Path, *args: str) -> tuple[float, str]:
    start = time.perf_counter()
    out = _cli(folder, *args)
    return time.perf_counter() - start, out


def _second_layer(path: Path) -> None:
    bundled = json.loads(resource(*BUNDLED_FILE).read_text())
    geometry = shapely.geometry.shape(bundled["features"][0]["geometry"])
    moved = shapely.segmentize(shapely.affinity.translate(geometry, *SHIFT_DEG), PIECE_DEG)
    path.write_text(json.dumps({
        "type": "FeatureCollection", "crs": bundled["crs"],
        "features": [{"type": "Feature", "properties": {"name": "benchmark survey"},
                      "geometry": json.loads(shapely.to_geojson(moved))}]}))


def _floor(folder: Path) -> tuple[float, float, int]:
    """The bare STRtree query for the projected areas measure reads, and writing as many
    map measurements (with their change log) in one transaction, in seconds."""
    from inspector_app.geo.case_shapes import project_cases
    from inspector_app.storage.cases import load_cases

    with Workspace(folder, user="clerk") as ws:
        layer = active_layer(ws)
        assert layer is not None
        cases = load_cases(ws.store.conn, only=("site_features",))
        ids = [i for i, c in cases.items() if c.site is not None
               and (c.site.absorption_area is not None or c.site.holding_tank is not None)]
        shapes = project_cases([cases[i] for i in ids])
        areas = np.asarray([measured_geometry(cases[i], i, s) for i, s in zip(ids, shapes,
                                                                                strict=True)],
                           dtype=object)
        tree = layer.lake.tree
        times = []
        for _ in range(5):
            start = time.perf_counter()
            tree.query_nearest(areas, return_distance=True, all_matches=False)
            times.append(time.perf_counter() - start)
        t_tree = min(times)
        start = time.perf_counter()
        with ws.store.transaction() as w:
            for i in ids:
                w.insert("lake_measurements", {
                    "capture_accuracy_ft": None, "distance_ft": 123.45, "method": "map",
                    "shoreline_layer_id": layer.id, "shoreline_layer_version": layer.version,
                    "accuracy_ft": layer.accuracy_ft, "measured_by": w.actor.user,
                    "measured_on": "2026-11-25",
                    "note": json.dumps({"nearest": [-77.3, 42.8]}, separators=(",", ":"))},
                    parcel_id=i)
        t_insert = time.perf_counter() - start
    return t_tree, t_insert, len(ids)


def main() -> list[Goal]:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        office = root / "office"
        _cli(office, "demo", "--parcels", str(PARCELS))
        idle = []
        for _ in range(5):
            t, out = _timed(office, "measure")
            assert json.loads(out)["new_measurements"] == 0, out
            idle.append(t)
        t_idle = statistics.median(idle)

        layer_file = root / "survey.geojson"
        _second_layer(layer_file)
        _cli(office, "shoreline", "import", str(layer_file), "--name", "benchmark survey",
             "--accuracy-ft", str(LAYER_ACCURACY_FT))
        database = office / DATABASE_NAME
        pristine = root / "after-import.sqlite"
        shutil.copyfile(database, pristine)
        full = []
        for _ in range(3):
            shutil.copyfile(pristine, database)
            t, out = _timed(office, "measure")
            result = json.loads(out)
            assert result["unchanged"] == 0 and result["new_measurements"] > 0, out
            full.append(t)
        t_full = statistics.median(full)
        t_again, out = _timed(office, "measure")
        again = json.loads(out)

        shutil.copyfile(pristine, database)
        t_tree, t_insert, areas = _floor(office)
        floor = t_tree + t_insert
        ratio = t_full / floor
        report(f"measure: {PARCELS:,} demo parcels", [
            ("nothing new, whole process (median of 5)", f"{t_idle:8.2f} s  "
             f"(goal <= {GOAL_S:g} s)"),
            ("new layer, measure all, whole process (median of 3)", f"{t_full:8.2f} s  "
             f"({result['new_measurements']:,} new measurements)"),
            (f"floor: bare STRtree query, {areas:,} areas", f"{t_tree:8.3f} s"),
            (f"floor: insert {areas:,} rows with change log", f"{t_insert:8.3f} s"),
            ("ratio measure all / floor", f"{ratio:8.2f}   (goal <= {GOAL_RATIO:g})"),
            ("then again, nothing new, whole process", f"{t_again:8.2f} s  "
             f"({again['unchanged']:,} unchanged)"),
        ])
        return [Goal("measure", "20,000 parcels, nothing new, whole process",
                     f"{t_idle:.2f} s", f"<= {GOAL_S:g} s", t_idle <= GOAL_S),
                Goal("measure", "new layer, all 20,000, ratio to floor", f"{ratio:.2f}",
                     f"<= {GOAL_RATIO:g}", ratio <= GOAL_RATIO)]


if __name__ == "__main__":
    main()
