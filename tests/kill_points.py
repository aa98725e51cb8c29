"""SIGKILL at a chosen point of a child's writes, wherever the machine's load puts it.

The child process calls `install()` before it opens anything and `start()` where the
writes the test is about begin. From then on it numbers its write points: each SQL
statement other than a read, on any connection it opens (SQLite's trace callback, before
the statement runs), each `os.fsync`, each `os.replace` (before and after) and, last, its
exit. At the point `INSPECTOR_KILL_AT` names it prints `KILL POINT <n> <what>` on stdout,
then either waits there to be killed (`pause`) or carries on (`run`: the kill lands a
moment later, wherever the child then is, inside SQLite's C code or anywhere). The parent
(`kill_at`) reads the child's lines until it sees that one, and sends SIGKILL.

A child that repeats a unit of work (a save, an issue) calls `unit_done()` after each;
`points_of` runs it a few units without killing it to learn how many points a unit
passes, and `plan` spreads the kills over every point of a unit.

No sleep decides where a kill lands: a child slowed by a busy machine is killed at the
same point of its work as on an idle one. The only timeout guards against a hang.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
MARK = "KILL POINT "
COUNT = "KILL POINTS "
HANG_S = 120.0  # only a child that hangs takes this long

_READS = ("SELECT", "EXPLAIN", "VALUES")
_state: dict[str, Any] = {"on": False, "n": 0, "at": 0, "mode": "pause", "units": 0}


# --- in the child -----------------------------------------------------------------------

def install() -> None:
    """Watch every connection the child opens and its fsync and replace calls (counting
    nothing until `start`)."""
    import atexit
    import sqlite3

    _state["at"] = int(os.environ.get("INSPECTOR_KILL_AT", "0"))
    _state["mode"] = os.environ.get("INSPECTOR_KILL_MODE", "pause")
    _state["units"] = int(os.environ.get("INSPECTOR_KILL_UNITS", "0"))
    if _state["at"] == -1:  # counting only: say how many points the whole run passed
        atexit.register(_say_count)
    # the last point: all its work done (a kill here is a kill just after the last write)
    atexit.register(_point, "exit: done")
    connect, fsync, replace = sqlite3.connect, os.fsync, os.replace

    def traced_connect(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        conn = connect(*args, **kwargs)

        def trace(sql: str) -> None:
            first = (sql.split(None, 1) or [""])[0].upper()
            if first in _READS or (first == "PRAGMA" and "=" not in sql):
                return
            where = "in a transaction" if conn.in_transaction else "autocommit"
            _point(f"sql {where}: {' '.join(sql.split())[:80]}")

        conn.set_trace_callback(trace)
        return conn

    def traced_fsync(fd: int) -> None:
        _point(f"file: fsync {_fd_name(fd)}")
        fsync(fd)

    def traced_replace(src: Any, dst: Any, **kwargs: Any) -> None:
        _point(f"file: before replace {Path(src).name} -> {Path(dst).name}")
        replace(src, dst, **kwargs)
        _point(f"file: after replace {Path(src).name} -> {Path(dst).name}")

    sqlite3.connect = traced_connect  # type: ignore[assignment]
    os.fsync = traced_fsync
    os.replace = traced_replace  # type: ignore[assignment]


def start() -> None:
    """Count write points from here on."""
    _state["on"] = True


def unit_done() -> None:
    """One unit of the child's repeated work is done. When counting, say how many points
    so far, and end the child after INSPECTOR_KILL_UNITS units."""
    if _state["at"] != -1:
        return
    _say_count()
    _state["units"] -= 1
    if _state["units"] <= 0:
        sys.exit(0)


def _fd_name(fd: int) -> str:
    try:
        return Path(os.readlink(f"/proc/self/fd/{fd}")).name
    except OSError:
        return f"fd {fd}"


def _point(what: str) -> None:
    if not _state["on"]:
        return
    _state["n"] += 1
    if _state["n"] != _state["at"]:
        return
    sys.stdout.write(f"{MARK}{_state['n']} {what}\n")
    sys.stdout.flush()
    if _state["mode"] == "pause":
        sys.stdin.readline()  # the parent kills us here; if it went away, stop anyway
        os._exit(70)


def _say_count() -> None:
    sys.stdout.write(f"{COUNT}{_state['n']}\n")
    sys.stdout.flush()


# --- in the test ------------------------------------------------------------------------

@dataclass
class Killed:
    """What a child killed at a write point printed, and where it was."""

    point: str | None  # "sql in a transaction: INSERT ...", None if it finished first
    lines: list[str] = field(default_factory=list)  # everything else it printed
    returncode: int = 0
    stderr: str = ""

    @property
    def in_transaction(self) -> bool:
        return self.point is not None and " in a transaction:" in self.point


def _env(env: dict[str, str] | None, **extra: str) -> dict[str, str]:
    return {**(env or os.environ), "PYTHONPATH": str(ROOT), **extra}


def kill_at(args: list[str], point: int, *, pause: bool, env: dict[str, str] | None = None,
            cwd: Path | None = None) -> Killed:
    """Run `python args...` (a child that calls `install()`), SIGKILL it at write point
    `point` and return what it printed. A child that ends before the point is not killed
    (`point` is None)."""
    env = _env(env, INSPECTOR_KILL_AT=str(point),
               INSPECTOR_KILL_MODE="pause" if pause else "run")
    with tempfile.TemporaryFile("w+", encoding="utf-8") as err:
        child = subprocess.Popen([sys.executable, *args], stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, stderr=err, text=True, env=env,
                                 cwd=cwd)
        assert child.stdin is not None and child.stdout is not None
        hung = threading.Event()

        def give_up() -> None:
            hung.set()
            child.kill()

        timer = threading.Timer(HANG_S, give_up)
        timer.start()
        lines: list[str] = []
        where = None
        try:
            while line := child.stdout.readline():
                if line.startswith(MARK):
                    child.send_signal(signal.SIGKILL)
                    where = line[len(MARK):].split(" ", 1)[1].rstrip("\n")
                    break
                lines.append(line.rstrip("\n"))
            lines += [x for x in child.stdout.read().splitlines() if not x.startswith(MARK)]
            child.wait()
        finally:
            timer.cancel()
            child.stdin.close()
            child.stdout.close()
        err.seek(0)
        stderr = err.read()
    assert not hung.is_set(), (
        f"the child neither reached write point {point} nor ended in {HANG_S:g} s:\n"
        f"{stderr[-3000:]}")
    if where is not None:
        assert child.returncode == -signal.SIGKILL, (child.returncode, stderr[-3000:])
    return Killed(where, lines, child.returncode, stderr)


def points_of(args: list[str], *, units: int = 0, env: dict[str, str] | None = None,
              cwd: Path | None = None) -> list[int]:
    """Run the child to its end without killing it (after `units` units of a repeating
    child): the number of write points passed at the end of each unit, then in all."""
    done = subprocess.run([sys.executable, *args], capture_output=True, text=True,
                          env=_env(env, INSPECTOR_KILL_AT="-1", INSPECTOR_KILL_UNITS=str(units)),
                          cwd=cwd, timeout=HANG_S)
    assert done.returncode == 0, done.stderr[-3000:]
    return [int(x.split()[2]) for x in done.stdout.splitlines() if x.startswith(COUNT)]


def plan(counts: list[int], kills: int, rng: random.Random, *,
         units: int = 3) -> list[tuple[int, bool]]:
    """(point, pause) for `kills` runs of a repeating child whose counting run passed
    `counts` (`points_of(..., units=3)`). Every other kill stops the child at a point of
    one of its first `units` units, taking the points of a unit in turn so that every one
    of them is tried once there are as many such kills as points in a unit; the others let
    it run on from a random point of those units."""
    unit = counts[-2] - counts[-3]
    assert unit > 0, f"a unit of the child's work passed no write point: {counts}"
    first = max(counts[0] - unit, 0)  # where the first unit like the others begins
    offsets: list[int] = []
    chosen = []
    for kill in range(kills):
        if kill % 2:
            chosen.append((rng.randint(1, first + units * unit), False))
            continue
        if not offsets:
            offsets = rng.sample(range(1, unit + 1), unit)
        chosen.append((first + rng.randrange(units) * unit + offsets.pop(), True))
    return chosen
