"""The window's menus, one module per menu (as napari's `qactions/_file.py`): each builds
its menu's entries and holds what they do, given only the parts of the window it needs."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .edit import EditActions
    from .file import FileActions
    from .help import HelpActions
    from .letters import LettersActions
    from .records import RecordsActions
    from .reports import ReportsActions
    from .sync import SyncActions
    from .view import ViewActions


@dataclass(frozen=True)
class Menus:
    """What each menu does, in the order of the menu bar."""

    file: FileActions
    edit: EditActions
    letters: LettersActions
    records: RecordsActions
    reports: ReportsActions
    sync: SyncActions
    view: ViewActions
    help: HelpActions
