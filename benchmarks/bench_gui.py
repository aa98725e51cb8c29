"""Start-up and filtering with 20,000 parcels.

Prints the time from process start to the main window shown on a 20,000-parcel data
folder, its ratio to a bare PySide6 window measured the same way in the same run (goal:
at most 2), the time to filter the parcel list by text (goal: under 50 ms), the time from
the window shown until the work-list counts are filled ("Work lists up to date"; goal: at
most 2 s, with the summaries on file as on any morning; the first start after the build,
which works them all out, is printed beside it), its ratio to `inspector-app worklist`
(whole process, median of 3) in the same run, and, in a run where 20 parcels are opened one
after the other while the work lists are being worked out, the slowest of those opens, on
either start (goal: < 100 ms), and the time the counts then take.

Run: python -m benchmarks.bench_gui   (builds the data folder once, about 20 s)
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.common import Goal, build_demo, report

PARCELS = 20_000
LISTS_GOAL_S = 2.0  # work-list counts filled, after the window shows
BARE = """
import time; t0 = time.perf_counter()
from PySide6.QtWidgets import QApplication, QMainWindow, QTableView
app = QApplication([])
w = QMainWindow(); w.setCentralWidget(QTableView()); w.resize(1400, 860); w.show()
app.processEvents()
print(time.perf_counter() - t0)
"""
OURS = """
import sys, time; t0 = time.perf_counter()
from pathlib import Path
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication
from inspector_app.ui.main_window import MainWindow
app = QApplication([])
settings = QSettings(sys.argv[1] + "/bench.ini", QSettings.Format.IniFormat)
w = MainWindow(root=Path(sys.argv[1]), user="benchmark", settings=settings); w.show()
app.processEvents()
shown = time.perf_counter() - t0
while not w.model.rowCount():   # the worker opens the folder and lists the parcels
    app.processEvents(); time.sleep(0.005)
listed = time.perf_counter() - t0
rows = w.model.rowCount()
times = []
for text in ("west lake", "900.05-3", "demo", "zzz-no-match", ""):
    start = time.perf_counter(); w.proxy.set_text(text); times.append(time.perf_counter() - start)
sbls = [r["sbl"] for r in w.model.rows]
opened = []
opens = int(sys.argv[2])   # parcels the user opens while the work lists are worked out
while w.lists_state.text() != "Work lists up to date":
    app.processEvents()
    if len(opened) < opens and w.lists_state.text().startswith("Work lists"):
        sbl = sbls[(len(opened) * 997) % len(sbls)]
        # an open is answered on the worker: timed until the parcel is shown
        start = time.perf_counter(); w.open_parcel(sbl)
        while w.sbl != sbl or not w.form.loaded:
            app.processEvents(); time.sleep(0.001)
        opened.append(time.perf_counter() - start)
    time.sleep(0.005)
lists = time.perf_counter() - t0 - shown
w.runner.stop()
# the most this process held (VmHWM): not ru_maxrss, which Linux carries over from the
# process that started it (a benchmark run after others in one process holds hundreds of MB)
import os, resource
hwm = ([line.split() for line in open("/proc/self/status") if line.startswith("VmHWM:")]
       if os.path.exists("/proc/self/status") else [])
peak_kb = int(hwm[0][1]) if hwm else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
peak_mb = peak_kb / 1024
print(shown, rows, max(times), listed, lists, max(opened or [0.0]), len(opened), peak_mb)
"""


def _best(code: str, *args: str, repeat: int = 3) -> list[float]:
    env = {**os.environ, "QT_QPA_PLATFORM": os.environ.get("QT_QPA_PLATFORM", "offscreen")}
    best: list[float] | None = None
    for _ in range(repeat):
        out = subprocess.run([sys.executable, "-c", code, *args], capture_output=True,
                             text=True, check=True, env=env).stdout.split()
        values = [float(x) for x in out]
        if best is None or values[0] < best[0]:
            best = values
    assert best is not None
    return best


def main() -> list[Goal]:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "office"
        built = build_demo(folder, PARCELS)
        (bare,) = _best(BARE)
        # The first start after the build works out and keeps every parcel's summary; the
        # next ones, as every morning after, read them (only parcels changed since are
        # worked out again).
        first = _best(OURS, str(folder), "20", repeat=1)
        # The counts alone, then with 20 parcels opened meanwhile (each open's own loading
        # then runs between the chunks of the work lists).
        ours, rows, filter_s, listed, lists, _, _, _ = _best(OURS, str(folder), "0")
        _, _, _, _, busy_lists, opened_s, opened, _ = _best(OURS, str(folder), "20")
        cli = []
        for _ in range(3):
            start = time.perf_counter()
            subprocess.run([sys.executable, "-m", "inspector_app", "--data-dir", str(folder),
                            "worklist"], check=True, capture_output=True)
            cli.append(time.perf_counter() - start)
        cli_s = statistics.median(cli)
        report(f"desktop app: {int(rows):,} parcels (data folder built in {built:.0f} s)", [
            ("bare PySide6 window shown", f"{bare:8.2f} s"),
            ("main window shown", f"{ours:8.2f} s"),
            ("ratio ours / bare", f"{ours / bare:8.2f}   (goal <= 2)"),
            ("parcels listed", f"{listed:8.2f} s  (the data folder opens behind the window)"),
            ("text filter, worst of 5", f"{filter_s * 1000:8.1f} ms  (goal < 50 ms)"),
            ("work-list counts filled, first start (summaries worked out)",
             f"{first[4]:8.2f} s  (slowest parcel opened meanwhile {first[5] * 1000:.0f} ms)"),
            ("work-list counts filled, after the window shows", f"{lists:8.2f} s  "
             f"(goal <= {LISTS_GOAL_S:g} s)"),
            ("the same with 20 parcels opened meanwhile", f"{busy_lists:8.2f} s"),
            ("`worklist` whole process (median of 3)", f"{cli_s:8.2f} s"),
            ("ratio work-list counts / `worklist`", f"{lists / cli_s:8.2f}"),
            (f"parcel opened meanwhile, slowest of {int(opened)}",
             f"{opened_s * 1000:8.1f} ms  (goal < 100 ms)"),
        ])
        return [Goal("desktop app", "window shown, ratio to a bare PySide6 window",
                     f"{ours / bare:.2f}", "<= 2", ours / bare <= 2),
                Goal("desktop app", "filter 20,000 parcels by text", f"{filter_s * 1000:.0f} ms",
                     "< 50 ms", filter_s < 0.05),
                Goal("desktop app", "work-list counts filled after the window shows",
                     f"{lists:.2f} s", f"<= {LISTS_GOAL_S:g} s", lists <= LISTS_GOAL_S),
                Goal("desktop app", "open a parcel while the work lists are worked out",
                     f"{max(opened_s, first[5]) * 1000:.0f} ms", "< 100 ms",
                     max(opened_s, first[5]) < 0.1)]


if __name__ == "__main__":
    main()
