"""Whether a basemap is kept as a copy in the data folder or as a reference to its file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...errors import InputError


def keeps_copy(ws: Any, copy: bool | None) -> bool:
    """A copy (None: the default) in a data folder; at an office database, whose desks
    share no folder, always a reference to the file, which each desk reads where it is."""
    if ws.store.database is None:
        return True if copy is None else copy
    if copy:
        raise InputError(
            "At an office database a basemap is kept as a reference to its file, which "
            "every desk reads where it is (keep it on a drive every desk reaches); import "
            "it again without --copy. Nothing was imported.")
    return False


def refer_to_folder_copies(ws: Any, folder: Path) -> list[dict[str, str]]:
    """An office database made from a data folder: each basemap the folder kept as a copy
    becomes a reference to that copy, where it lies in the folder (an office's desks share
    no folder; put the file on a drive every desk reaches and import it again there).
    Recorded as a change like any other. Returns each basemap's name and the file named."""
    from ...storage import basemaps as basemap_rows

    changed = []
    with ws.store.transaction() as w:
        for row in basemap_rows.basemaps(w.conn):
            if row["storage"] != "copy":
                continue
            path = Path(row["path"])
            where = str(path if path.is_absolute() else (folder / path).resolve())
            w.update("basemaps", row["id"], {"storage": "reference", "path": where})
            changed.append({"name": str(row["name"]), "file": where})
    return changed
