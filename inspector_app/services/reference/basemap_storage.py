"""Whether a basemap is kept as a copy in the data folder or as a reference to its file."""

from __future__ import annotations

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
