"""A program killed (or out of disk) while writing leaves no temporary files for good:
opening the data folder removes ours, and only ours, once no one can still be writing them."""

from __future__ import annotations

import errno
import os
import random
import time
from pathlib import Path

import pytest

from inspector_app import paths
from inspector_app.paths import DEBRIS_AGE_S, DataFolder, write_atomically
from inspector_app.services.workspace import Workspace
from inspector_app.storage import database
from tests.kill_points import kill_at, plan, points_of

WRITER = r"""
import sys
from tests import kill_points
kill_points.install()
from pathlib import Path
from inspector_app.paths import write_atomically
from inspector_app.services.workspace import Workspace

ws = Workspace(Path(sys.argv[1]), user="crash-test")
with ws.store.transaction():
    ws.store.conn.execute("CREATE TABLE IF NOT EXISTS filler (b BLOB)")
    ws.store.conn.execute("INSERT INTO filler SELECT randomblob(100000) FROM "
                          "(WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n "
                          "WHERE i < 40) SELECT i FROM n)")
blob = b"x" * 20_000_000
kill_points.start()
n = 0
while True:
    ws.store.backup_now("manual")
    write_atomically(ws.folder.root / "office.toml", b"# office\n")
    target = ws.folder.attachments / "ab" / ("ab" + "0" * 62)
    target.parent.mkdir(exist_ok=True)
    write_atomically(target, blob)
    letter = ws.folder.letters / "1-1-1" / f"2026-11-25-notice-{n:08d}.pdf"
    letter.parent.mkdir(exist_ok=True)
    write_atomically(letter, blob)
    kill_points.unit_done()
    n += 1
"""


def _debris(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob(".*") if p.is_file() and ".tmp" in p.name)


def _age(files: list[Path]) -> None:
    old = time.time() - DEBRIS_AGE_S - 60
    for f in files:
        os.utime(f, (old, old))


@pytest.mark.slow
def test_sigkill_while_writing_leaves_debris_that_opening_removes(tmp_path: Path) -> None:
    rng = random.Random(12)
    root = tmp_path / "data"
    left: set[Path] = set()
    # the write points of a round of the writer (the backup, fsyncs, renames)
    counts = points_of(["-c", WRITER, str(tmp_path / "counted")], units=3)
    for point, pause in plan(counts, 12, rng):
        killed = kill_at(["-c", WRITER, str(root)], point, pause=pause)
        assert killed.point is not None, killed.stderr
        left |= set(_debris(root))
    assert left, "the kills left no temporary file: the test did not reproduce a crash"
    fresh = _debris(root)
    with Workspace(root, user="checker"):
        pass
    # just written: another program open on the folder could still be writing them
    assert _debris(root) == fresh
    _age(fresh)
    with Workspace(root, user="checker") as ws:
        assert ws.store.integrity_ok()
    assert _debris(root) == []
    assert (root / "inspector.sqlite").exists()
    assert all(database.pool_of(b) for b in database.list_backups(root / "backups"))


def test_opening_removes_only_our_old_temporary_files(tmp_path: Path) -> None:
    folder = DataFolder(tmp_path / "data")
    folder.create()
    ours = [folder.root / ".office.toml.tmp",
            folder.backups / ".inspector-20261125T120000000000Z-daily.sqlite.tmp",
            folder.backups / ".inspector-20261125T120000000000Z-daily.sqlite.tmp-journal",
            folder.attachments / "ab" / f".ab{'0' * 62}.tmp",
            folder.letters / "1-1-1" / ".2026-11-25-notice_of_violation-0123abcd.pdf.tmp"]
    theirs = [folder.root / "notes.tmp", folder.root / "inspector.sqlite-wal",
              folder.root / "inspector.sqlite-journal", folder.backups / "copy.tmp",
              folder.letters / "1-1-1" / ".draft.docx.tmp"]
    for f in ours + theirs:
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_bytes(b"x")
    _age(ours + theirs)
    new = folder.root / ".jurisdiction.toml.tmp"  # being written by another program now
    new.write_bytes(b"x")
    assert sorted(folder.remove_debris()) == sorted(ours)
    assert all(f.exists() for f in [*theirs, new])


def test_a_full_disk_leaves_no_temporary_file(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "office.toml"
    target.write_bytes(b"old")

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(paths.os, "fsync", full)
    with pytest.raises(OSError):
        write_atomically(target, b"new")
    assert target.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["office.toml"]


# a backup of the data folder's SQLite file
@pytest.mark.sqlite_only
def test_a_failed_backup_leaves_no_temporary_file(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    with Workspace(tmp_path / "data", user="k") as ws:
        before = sorted((ws.folder.backups).iterdir())

        def full(fd: int) -> None:
            raise OSError(errno.ENOSPC, "No space left on device")

        monkeypatch.setattr(database.os, "fsync", full)
        with pytest.raises(OSError):
            ws.store.backup_now("manual")
        monkeypatch.undo()
        assert sorted(ws.folder.backups.iterdir()) == before
