"""The settings files of a data folder (jurisdiction files, letterhead, the letters'
wording and the images they name) at an office database: the database keeps them, each
desk works from copies in its own folder. A desk's copies are brought up to the office's
when it opens the office (`fetch`), and a change a desk makes with a `use` command is kept
for every desk (`publish`)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ...paths import write_atomically
from ...storage import office_files
from ...storage.store import utc_now_text

# What in a data folder is not a settings file: the app's own folders and files.
NOT_SETTINGS = ("attachments", "backups", "letters", "basemaps")
# At most this much a settings file (a jurisdiction file, a letterhead logo).
LARGEST = 8 * 1024 * 1024


def _settings_files(root: Path) -> Iterator[tuple[str, Path]]:
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        if (rel.parts[0] in NOT_SETTINGS or any(p.startswith(".") for p in rel.parts)
                or rel.name.startswith("inspector.sqlite") or path.is_symlink()
                or not path.is_file()):
            continue
        yield rel.as_posix(), path


def fetch(ws: Any) -> list[str]:
    """Bring this desk's copies of the settings files up to the office's; a file the office
    does not keep (one put into the desk's folder by hand, or one the office no longer
    keeps) is moved aside into backups/, never deleted. Returns the paths written or moved."""
    root = ws.folder.root
    kept = office_files.digests(ws.store.conn)
    stale = sorted(rel for rel, sha in kept.items() if not (
        (root / rel).is_file() and hashlib.sha256((root / rel).read_bytes()).hexdigest() == sha))
    changed = []
    # only what differs is read from the office (every desk does this when it opens)
    for rel, content in sorted(office_files.contents(ws.store.conn, stale).items()):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        write_atomically(root / rel, content)
        changed.append(rel)
    aside = root / "backups" / "settings-not-the-office's"
    for rel, path in list(_settings_files(root)):
        if rel not in kept:
            # not the office's: out of force at this desk, kept where it can be found
            (aside / rel).parent.mkdir(parents=True, exist_ok=True)
            path.replace(aside / rel)
            changed.append(rel)
    return changed


def folder_files(root: Path) -> list[tuple[str, str, bytes]]:
    """A data folder's settings files as the office keeps them: (path, SHA-256, content),
    each at most `LARGEST` bytes."""
    files = []
    for rel, path in _settings_files(root):
        content = path.read_bytes()
        if len(content) <= LARGEST:
            files.append((rel, hashlib.sha256(content).hexdigest(), content))
    return files


def publish(ws: Any) -> list[str]:
    """Keep this desk's settings files at the office for every desk (after a `use` command
    changed them here). Returns the paths kept or forgotten."""
    if ws.store.database is None:
        return []
    files = folder_files(ws.folder.root)
    with ws.store.writing():
        before = office_files.digests(ws.store.conn)
        new = [(r, s, c) for r, s, c in files if before.get(r) != s]
        gone = sorted(set(before) - {r for r, _, _ in files})
        office_files.keep(ws.store.conn, new, at=utc_now_text(ws.clock()), by=ws.user)
        office_files.forget(ws.store.conn, gone)
    return [r for r, _, _ in new] + gone
