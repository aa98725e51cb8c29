"""`office import-folder`: an office's data folder copied into a new office database, its
records (every table, in one transaction, each read back from both sides and compared), its
attachments' files (into the database's `stored_files`) and its settings files (into
`office_files`, for every desk)."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, cast

from ...paths import DataFolder
from ...storage import office_copy, office_files, postgres, stored_files
from ...storage.store import utc_now_text
from ..session import settings_files

_DIGEST_NAME = re.compile(r"^[0-9a-f]{64}$")


def _folder_files(folder: DataFolder) -> Iterator[Path]:
    """The files kept under the folder's attachments/, by their SHA-256 (AB/ABCD...)."""
    root = folder.attachments
    if not root.is_dir():
        return
    for path in sorted(root.glob("??/*")):
        if path.is_file() and _DIGEST_NAME.match(path.name) and path.parent.name == path.name[:2]:
            yield path


def import_folder(url: str, folder: str | Path, *,
                  clock: Callable[[], datetime] = lambda: datetime.now(UTC)) -> dict[str, Any]:
    """Copy the data folder into the empty office database at `url`; the folder is read
    only. What `office import-folder` prints: each table's rows and its digest on both
    sides, and the files stored."""
    url = postgres.check_url(url)
    root = Path(folder).expanduser()
    src = office_copy.open_folder(root)
    try:
        conn = postgres.Connection(url)
        try:
            office_copy.office_version(conn)
            office_copy.refuse_unless_empty(conn)
            state = office_copy.folder_state(src)
            with office_copy.copying(conn):
                for table in office_copy.tables():
                    office_copy.copy_table(src, conn, table)
                compared = _compared(src, conn)
                differing = [t["table"] for t in compared if not t["same"]]
                if differing:
                    raise office_copy.CopyDiffers(
                        f"The office database's {', '.join(differing)} read back differently "
                        f"from the folder's, so the copy was rolled back and nothing was "
                        "copied.")
                now = utc_now_text(clock())
                files = _store_files(DataFolder(root), conn, now)
                settings = settings_files.folder_files(root)
                # the storage's statements take either engine's connection
                office_files.keep(cast(Any, conn), settings, at=now, by=conn.login)
                if office_copy.folder_state(src) != state:
                    raise office_copy.FolderRefused(
                        f"{root} was opened by a program and written while it was copied, "
                        "so the copy was rolled back and nothing was copied: close the app "
                        "on that folder and copy it again.")
        finally:
            conn.close()
    finally:
        src.close()
    referred = _basemaps_referred(url, root, clock)
    return {"database": postgres.shown(url), "folder": str(root.resolve()),
            "tables": compared, "files": files, "basemaps_referred": referred,
            "settings_files": [{"path": p, "sha256": d} for p, d, _ in settings],
            "same": True}


def _basemaps_referred(url: str, root: Path,
                      clock: Callable[[], datetime]) -> list[dict[str, str]]:
    """The folder's copies of imagery named where they lie, as the office's references."""
    import tempfile

    from ..reference.basemap_storage import refer_to_folder_copies
    from ..workspace import Workspace

    with tempfile.TemporaryDirectory(prefix="inspector-import-") as desk, \
            Workspace(Path(desk) / "desk", clock=clock, database=url) as ws:
        return refer_to_folder_copies(ws, root)


def _compared(src: Any, conn: postgres.Connection) -> list[dict[str, Any]]:
    out = []
    for table in office_copy.tables():
        before = office_copy.digest(table, office_copy.folder_rows(src, table))
        after = office_copy.digest(table, office_copy.office_rows(conn, table))
        rows = office_copy.folder_count(src, table)
        out.append({"table": table, "rows": rows, "sqlite_digest": before,
                    "postgresql_digest": after,
                    "same": before == after and rows == office_copy.office_count(conn, table)})
    return out


def _store_files(folder: DataFolder, conn: postgres.Connection, at: str) -> dict[str, Any]:
    """The folder's attachments' files into the database, each checked by its SHA-256; a
    file whose bytes no longer match its name is named, not stored."""
    stored, size, damaged = 0, 0, []
    for path in _folder_files(folder):
        data = path.read_bytes()
        if hashlib.sha256(data).hexdigest() != path.name:
            damaged.append(str(path.relative_to(folder.root)))
            continue
        stored_files.store(conn, path.name, data, at)
        stored, size = stored + 1, size + len(data)
    named = {r for t, c in (("attachments", "sha256"), ("attestations", "signature_sha256"))
             for r in office_copy.values_of(conn, t, c)}
    missing = sorted(d for d in named if not stored_files.is_stored(conn, d))
    bad = office_copy.stored_files_check(conn)
    if bad:
        raise office_copy.CopyDiffers(
            f"The office database's stored_files read back differently from the folder's "
            f"files ({', '.join(bad[:3])}), so the copy was rolled back and nothing was "
            "copied.")
    return {"stored": stored, "bytes": size, "damaged": damaged, "missing": missing}
