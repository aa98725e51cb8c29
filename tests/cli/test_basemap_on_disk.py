"""A basemap's copy is on disk only with its record: a killed import leaves nothing under
`basemaps/` once the data folder is next opened, and nothing of a user's is ever removed
there; a full disk is one sentence, on every path that writes, with nothing half-kept."""

from __future__ import annotations

import contextlib
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from inspector_app.paths import work_folder
from inspector_app.storage.records import new_id
from tests.cli.test_hostile_files import ROOT, cli, snapshot
from tests.geo.raster_helpers import write_geotiff
from tests.services.lot_files import lot_box, write_lots


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    data = tmp_path / "data"
    assert cli(data, "demo", "--parcels", "2").returncode == 0
    return data


def _basemaps(data: Path) -> set[str]:
    folder = data / "basemaps"
    return {p.name for p in folder.iterdir()} if folder.is_dir() else set()


def test_an_import_killed_while_waiting_for_the_write_lock_leaves_no_copy(
        tmp_path: Path, demo: Path) -> None:
    image = write_geotiff(tmp_path / "ortho.tif", width=600, height=500)
    before = _basemaps(demo)
    lock = sqlite3.connect(demo / "inspector.sqlite", isolation_level=None)
    lock.execute("BEGIN IMMEDIATE")  # another program writing
    child = subprocess.Popen(
        [sys.executable, "-m", "inspector_app", "--data-dir", str(demo), "basemap", "import",
         str(image), "--name", "Ortho"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    try:
        # the child signals it waits for the lock by its finished copy in its work folder
        deadline = time.monotonic() + 60
        copied = None
        while copied is None and child.poll() is None and time.monotonic() < deadline:
            for path in (demo / "basemaps").glob(".work-*/*.tif"):
                if path.stat().st_size == image.stat().st_size:
                    copied = path
        assert copied is not None, child.communicate()
        child.kill()
        child.wait(timeout=60)
    finally:
        lock.execute("ROLLBACK")
        lock.close()
    assert copied.exists()  # what the killed import left, until the next open
    listed = cli(demo, "basemap", "list")
    assert listed.returncode == 0, listed.stderr
    assert "Ortho" not in listed.stdout
    assert _basemaps(demo) == before


def test_the_next_open_removes_only_what_a_killed_job_left(tmp_path: Path,
                                                          demo: Path) -> None:
    image = write_geotiff(tmp_path / "ortho.tif")
    kept = cli(demo, "basemap", "import", str(image), "--name", "Kept")
    assert kept.returncode == 0, kept.stderr
    folder = demo / "basemaps"
    recorded = _basemaps(demo)
    orphan = folder / f"{new_id()}.tif"  # renamed into place, killed before its commit
    orphan.write_bytes(b"copy")
    stale = folder / f".work-{new_id()}"  # a killed job's work folder
    stale.mkdir()
    (stale / "lock").write_bytes(b"")
    (stale / "half.tif").write_bytes(b"half")
    users = [folder / "county-ortho.tif", folder / f"{new_id()}.tif.bak",
             folder / f"{new_id()}.TIF"]
    for path in users:
        path.write_bytes(b"mine")
    running_id = new_id()
    with work_folder(folder, running_id) as work:  # a job still running elsewhere
        (work / "part.tif").write_bytes(b"part")
        writing = folder / f"{running_id}.tif"  # in place, its transaction not committed
        writing.write_bytes(b"copy")
        listed = cli(demo, "basemap", "list")
        assert listed.returncode == 0, listed.stderr
        assert (work / "part.tif").exists() and writing.exists()
    assert not orphan.exists() and not stale.exists()
    assert all(p.exists() for p in users)
    assert recorded <= _basemaps(demo)


@contextlib.contextmanager
def _tmpfs(where: Path, size: str) -> Iterator[Path]:
    where.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs",
                              str(where)], capture_output=True)
    if mounted.returncode != 0:
        pytest.skip("a small tmpfs cannot be mounted here (mounting needs root)")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def _fill(disk: Path, leave_kb: int) -> None:
    """Fill the disk but `leave_kb` kilobytes."""
    import shutil

    free = shutil.disk_usage(disk).free
    filler = disk / f"filler-{len(list(disk.glob('filler-*')))}"
    filler.write_bytes(b"\0" * max(0, free - leave_kb * 1024))


def test_a_full_disk_is_one_sentence_on_every_write_path(tmp_path: Path) -> None:
    image = write_geotiff(tmp_path / "ortho.tif", width=1500, height=1500)
    lots = write_lots(tmp_path / "lots.gpkg", [lot_box(i, j) for i in range(60)
                                               for j in range(60)],
                      [f"900.01-1-{n + 1}" for n in range(3600)])
    with _tmpfs(tmp_path / "disk", "4m") as disk, _tmpfs(tmp_path / "out", "1m") as out:
        data = disk / "data"
        assert cli(data, "demo", "--parcels", "2").returncode == 0
        assert cli(data, "basemap", "list").returncode == 0  # the day's backup made
        _fill(out, 0)  # where the reports are written: full
        commands = [
            ["basemap", "import", str(image), "--name", "Ortho"],
            ["parcels", "import-lines", str(lots)],
            ["report", "program", "--from", "2020-01-01", "--to", "2026-11-30", "--out",
             str(out / "program.pdf")],
            ["report", "export", "--from", "2020-01-01", "--to", "2026-11-30", "--out",
             str(out / "inspections.xlsx")],
            ["register", "draft", "900.01-1-1", "--kind", "notice_of_violation", "--out",
             str(out / "draft.pdf")],
        ]
        for argv in commands:
            _fill(disk, 48)  # room to open the database, not for what the command writes
            before = snapshot(data)
            result = cli(data, *argv)
            err = result.stderr.strip()
            assert result.returncode == 1 and result.stdout == "", (argv, err, result.stdout)
            said = err.splitlines()[-1]  # after any progress lines
            assert said.endswith(".") and " is full" in said, (argv, err)
            assert "unexpectedly" not in err and "Traceback" not in err, (argv, err)
            assert snapshot(data) == before, argv
        assert not [p for p in out.iterdir() if not p.name.startswith("filler")]
