"""Hostile files through the command line, as a user runs it: a database file whose views
never end, an image that declares more pixels than the office could hold. Each is refused
with one sentence naming the file, exit status 2, and nothing written; the subprocess
timeout only guards against a hang (the refusal itself takes about a second)."""

from __future__ import annotations

import hashlib
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests import hostile_files

ROOT = Path(__file__).resolve().parents[2]


def cli(data: Path, *argv: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "inspector_app", "--data-dir", str(data),
                           *argv], capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL, env=env)


def snapshot(folder: Path) -> dict[str, str]:
    """Every file under the data folder with a digest of its contents; the database's by
    a digest of the records it holds (SQLite may fold its log into the file at any close;
    the kept summaries are derived data, worked out by any reading command)."""
    out = {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
           for p in sorted(folder.rglob("*")) if p.is_file()
           and not p.name.startswith("inspector.sqlite")}
    conn = sqlite3.connect(f"file:{folder / 'inspector.sqlite'}?mode=ro", uri=True)
    try:
        out["inspector.sqlite"] = hashlib.sha256(
            "\n".join(line for line in conn.iterdump()
                      if not line.startswith('INSERT INTO "case_summaries"')).encode()
        ).hexdigest()
    finally:
        conn.close()
    return out


def assert_refused(result: subprocess.CompletedProcess[str], file: Path, *words: str) -> None:
    err = result.stderr.strip()
    assert result.returncode == 2, err
    assert result.stdout == ""
    assert "\n" not in err and err.endswith("."), err
    assert str(file) in err and "unexpectedly" not in err, err
    for word in words:
        assert word in err, err


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    data = tmp_path_factory.mktemp("demo") / "data"
    assert cli(data, "demo", "--parcels", "3").returncode == 0
    return data


SQLITE_DOORS = [
    ("loop.mbtiles", hostile_files.loop_mbtiles, ["basemap", "import", "FILE", "--name", "x"],
     "common table expression"),
    ("cross.mbtiles", hostile_files.endless_view_mbtiles,
     ["basemap", "import", "FILE", "--name", "x"], "SQLite steps"),
    ("trigger.mbtiles", hostile_files.trigger_mbtiles,
     ["basemap", "import", "FILE", "--name", "x"], "trigger (t)"),
    ("loop.gpkg", hostile_files.loop_gpkg, ["parcels", "import-lines", "FILE"],
     "common table expression"),
    ("loop.gpkg", hostile_files.loop_gpkg,
     ["shoreline", "import", "FILE", "--name", "x", "--accuracy-ft", "1"],
     "common table expression"),
    ("cross.gpkg", hostile_files.endless_view_gpkg, ["parcels", "import-lines", "FILE"],
     "SQLite steps"),
    ("cross.gpkg", hostile_files.endless_view_gpkg,
     ["shoreline", "import", "FILE", "--name", "x", "--accuracy-ft", "1"], "SQLite steps"),
    ("loop.gpkg", hostile_files.loop_gpkg, ["basemap", "import", "FILE", "--name", "x"],
     "not an image"),
]


@pytest.mark.parametrize(("name", "make", "argv", "words"), SQLITE_DOORS)
def test_a_database_whose_reading_never_ends_is_refused(tmp_path: Path, demo: Path, name: str,
                                                        make, argv: list[str],
                                                        words: str) -> None:
    file = make(tmp_path / name)
    args = [str(file) if a == "FILE" else a for a in argv]
    fresh = tmp_path / "fresh"
    assert_refused(cli(fresh, *args), file, words)
    assert not fresh.exists()
    before = snapshot(demo)
    assert_refused(cli(demo, *args), file, words)
    assert snapshot(demo) == before
