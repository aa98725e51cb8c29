"""Every file the app opens is chosen here: the file dialog, then the rule every door
passes (`paths.readable_file`, as the command line's file arguments), so that a file that
cannot be read (a folder typed for a file, a file its owner closed, one gone meanwhile) is
told in that rule's one sentence and never handed on to be read."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QMessageBox, QWidget

from ..paths import UnreadableFile, readable_file


def _tell(parent: QWidget | None) -> Callable[[str], None]:
    def tell(text: str) -> None:
        QMessageBox.warning(parent, "Watershed Inspector", text)
    return tell


def checked(names: list[str], *, what: str,
            tell: Callable[[str], None]) -> list[Path]:
    """The files of `names` that may be read; each other one told (`tell`) in its
    sentence."""
    out: list[Path] = []
    for name in names:
        try:
            out.append(readable_file(Path(name).expanduser(), what=what))
        except UnreadableFile as exc:
            tell(str(exc))
    return out


def open_file(parent: QWidget | None, title: str, filters: str, *, what: str,
              tell: Callable[[str], None] | None = None) -> Path | None:
    """One file chosen to read (`what`: "case file", "shoreline layer"...), or None when
    none was chosen or it cannot be read (then said in a message box, or by `tell`)."""
    name, _ = QFileDialog.getOpenFileName(parent, title, "", filters)
    if not name:
        return None
    found = checked([name], what=what, tell=tell or _tell(parent))
    return found[0] if found else None


def open_files(parent: QWidget | None, title: str, filters: str, *, what: str,
               tell: Callable[[str], None] | None = None) -> list[Path]:
    """Files chosen to read; those that cannot be read are said and left out."""
    names, _ = QFileDialog.getOpenFileNames(parent, title, "", filters)
    return checked(list(names), what=what, tell=tell or _tell(parent))
