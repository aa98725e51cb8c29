"""How the office's daily views grow with the number of parcels: 2,000, 20,000, 100,000.

For each size, a demo data folder is built (`demo --parcels N`), then timed as a whole
process or in the desktop app, with the parcels' summaries on file as on any morning:
- the work lists (`worklist`, every list; median of 3) and, beside it, the first run after
  the build, which works out and keeps every summary;
- the parcel list (window shown until the parcels are listed), the text filter (worst of 5
  searches) and the work-list counts filled, in the desktop app;
- `measure` with nothing new (median of 3);
- importing a laptop's package: a laptop holds 1 parcel in 100, each changed 10 times
  (so the package grows with the office: 200, 2,000 and 10,000 changes). Its parcels lie
  together, one stretch of the shore, as an inspector's round does: its field kit carries
  their lots and their neighbours' (parcels spread over the whole shore would each bring
  their own neighbours, some 95,000 lots at 100,000 parcels, over a kit's limit).
Each step multiplies the data by 10 (then by 5); the goal is that it multiplies the time by
at most about as much (at most 1.2 times the data's factor). The desktop app's peak memory
with 100,000 parcels: at most 400 MB.

Run: python -m benchmarks.bench_scale   (about 5 minutes; most of it building the folders)
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from benchmarks.bench_gui import OURS, _best
from benchmarks.common import Goal, build_demo, report, run_app
from inspector_app.services import exchange as sync
from inspector_app.services.workspace import Workspace

SIZES = (2_000, 20_000, 100_000)
SLACK = 1.2  # "about" the data's factor
MEMORY_GOAL_MB = 400
PASSPHRASE = "benchmark kit passphrase"


def _median(folder: Path, *args: str, repeat: int = 3) -> float:
    return statistics.median(run_app(folder, *args) for _ in range(repeat))


def _sync_import(root: Path, office_folder: Path, parcels: int) -> tuple[float, int]:
    """A laptop with 1 parcel in 100, a stretch of neighbouring parcels, sends 10 changes
    to each; the office imports them."""
    with Workspace(office_folder, user="clerk") as office:
        # the demo places its parcels along the shore in the roll's order
        sbls = [p["sbl"] for p in office.parcels()][:parcels // 100]
        sync.enroll(office, "laptop", root / "kit.zip", sbls, passphrase=PASSPHRASE)
    sync.join(root / "field", root / "kit.zip", user="k.olmsted", passphrase=PASSPHRASE)
    with Workspace(root / "field", user="k.olmsted") as field:
        ids = [field.parcel_id(s) for s in sbls]
        with field.store.transaction() as w:
            for n in range(10 * len(ids)):
                w.update("parcels", ids[n % len(ids)], {"owner_mailing_address": [
                    f"{n} Main St", "Naples, NY 14512"]})
        sync.export(field, root / "laptop.zip")
    with Workspace(office_folder, user="clerk") as office:
        start = time.perf_counter()
        result = sync.import_package(office, root / "laptop.zip")
        took = time.perf_counter() - start
    return took, int(result.get("applied", 10 * len(ids)))


def _measure_size(root: Path, n: int) -> dict[str, float]:
    folder = root / "office"
    built = build_demo(folder, n)
    first = run_app(folder, "worklist", "--as-of", "2026-11-25")
    lists = _median(folder, "worklist", "--as-of", "2026-11-25")
    shown, _, filter_s, listed, counts, opened_s, _, peak_mb = _best(OURS, str(folder), "0",
                                                                     repeat=1)
    nothing_new = _median(folder, "measure")
    imported, changes = _sync_import(root, folder, n)
    return {"built": built, "first": first, "worklist": lists, "listed": listed - shown,
            "filter": filter_s, "counts": counts, "opened": opened_s,
            "measure": nothing_new, "sync": imported, "changes": changes, "peak": peak_mb}


ROWS = (("worklist", "work lists, whole process", "s"),
        ("listed", "parcel list shown (desktop app)", "s"),
        ("filter", "text filter, worst of 5", "ms"),
        ("counts", "work-list counts filled (desktop app)", "s"),
        ("measure", "measure, nothing new, whole process", "s"),
        ("sync", "sync import (laptop: 1 parcel in 100, together; 10 changes each)", "s"))


def main() -> list[Goal]:
    figures: dict[int, dict[str, float]] = {}
    for n in SIZES:
        with tempfile.TemporaryDirectory() as tmp:
            figures[n] = _measure_size(Path(tmp), n)
    lines: list[tuple[str, str]] = []
    goals: list[Goal] = []
    for key, label, unit in ROWS:
        scale = 1000 if unit == "ms" else 1
        values = [figures[n][key] * scale for n in SIZES]
        steps = []
        for i in range(1, len(SIZES)):
            a, b = SIZES[i - 1], SIZES[i]
            data, cost = b / a, values[i] / values[i - 1]
            steps.append((data, cost))
            goals.append(Goal("scale", f"{label}: {a:,} -> {b:,} parcels",
                              f"{cost:.1f}x", f"<= {data * SLACK:.0f}x", cost <= data * SLACK))
        lines.append((label, "  ".join(f"{v:8.2f} {unit}" for v in values) + "   steps: "
                      + ", ".join(f"{c:.1f}x for {d:.0f}x data" for d, c in steps)))
    lines.append(("first work lists after the build (summaries worked out)",
                  "  ".join(f"{figures[n]['first']:8.2f} s" for n in SIZES)))
    lines.append(("demo --parcels N (data folder built)",
                  "  ".join(f"{figures[n]['built']:8.2f} s" for n in SIZES)))
    lines.append(("sync changes imported", "  ".join(f"{figures[n]['changes']:8,.0f}  "
                                                      for n in SIZES)))
    lines.append(("desktop app, peak memory", "  ".join(f"{figures[n]['peak']:8.0f} MB"
                                                         for n in SIZES)))
    report("scale: " + " / ".join(f"{n:,}" for n in SIZES) + " parcels", lines)
    peak = figures[SIZES[-1]]["peak"]
    goals.append(Goal("scale", f"desktop app peak memory, {SIZES[-1]:,} parcels",
                      f"{peak:.0f} MB", f"<= {MEMORY_GOAL_MB} MB", peak <= MEMORY_GOAL_MB))
    return goals


if __name__ == "__main__":
    for g in main():
        print(f"  {g.measure}: {g.value} (goal {g.goal}) {'met' if g.met else 'NOT MET'}")
