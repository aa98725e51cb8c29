"""Every file the app asks for is chosen here. The dialogs open where the same kind of file
was last chosen (photos in the photos' folder, kits on the kit drive, letters where letters
were saved), remembered in the app's settings for each kind; a folder that is not there now
(a drive that is out) opens the home folder instead. A file chosen to read then passes the
rule every door passes (`paths.readable_file`, as the command line's file arguments), so a
file that cannot be read (a folder typed for a file, a file its owner closed, one gone
meanwhile) is told in that rule's one sentence and never handed on to be read."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QFileDialog, QMessageBox, QWidget

from ..paths import UnreadableFile, readable_file

# Each kind of file the app asks for, with its filter; the name is its settings key.
KIT_SUFFIX = ".wikit"
FILTERS = {
    "case files": "Case files (*.json)",
    "shoreline layers": "Shoreline layers (*.geojson *.json *.shp *.gpkg)",
    "sync packages": "Sync packages (*.zip)",
    # a field kit is read by its content: a kit saved as .zip by an older version joins too
    "field kits": f"Field kits (*{KIT_SUFFIX} *.zip);;All files (*)",
    "new field kits": f"Field kits (*{KIT_SUFFIX})",
    "letters": "PDF (*.pdf)",
    "photos": "Images (*.jpg *.jpeg *.png);;All files (*)",
    "signatures": "Images (*.png *.jpg *.jpeg)",
    "nmea logs": "NMEA logs (*.nmea *.txt *.log);;All files (*)",
    "provider files": "Provider files (*.csv *.xlsx);;All files (*)",
    "templates": "CSV (*.csv);;Excel workbook (*.xlsx)",
}
# What a file of each kind read is called in the sentence that refuses it.
WHAT = {"case files": "case file", "shoreline layers": "shoreline layer",
        "sync packages": "sync package", "field kits": "field kit", "photos": "attachment",
        "signatures": "signature image", "nmea logs": "NMEA log", "imagery": "basemap image",
        "lot lines": "lot-line layer", "provider files": "provider's file"}


def _tell(parent: QWidget | None) -> Callable[[str], None]:
    def tell(text: str) -> None:
        QMessageBox.warning(parent, "Watershed Inspector", text)
    return tell


def checked(names: list[str], *, what: str, tell: Callable[[str], None]) -> list[Path]:
    """The files of `names` that may be read; each other one told (`tell`) in its
    sentence."""
    out: list[Path] = []
    for name in names:
        try:
            out.append(readable_file(Path(name).expanduser(), what=what))
        except UnreadableFile as exc:
            tell(str(exc))
    return out


class FileDialogs:
    KEY = "file_dialogs"

    def __init__(self, settings: QSettings) -> None:
        self.settings = settings

    def folder_for(self, kind: str) -> Path:
        """Where a dialog for `kind` opens: the folder last chosen from, else home."""
        kept = self.settings.value(f"{self.KEY}/{kind.replace(' ', '_')}")
        if kept and Path(str(kept)).is_dir():
            return Path(str(kept))
        return Path.home()

    def keep(self, kind: str, folder: Path) -> None:
        self.settings.setValue(f"{self.KEY}/{kind.replace(' ', '_')}", str(folder))

    def open_file(self, parent: QWidget | None, kind: str, title: str,
                  filters: str | None = None, *,
                  tell: Callable[[str], None] | None = None) -> Path | None:
        """One file of `kind` chosen to read, or None when none was chosen or it cannot be
        read (then said in a message box, or by `tell`)."""
        path, _ = QFileDialog.getOpenFileName(parent, title, str(self.folder_for(kind)),
                                              filters or FILTERS[kind])
        if not path:
            return None
        self.keep(kind, Path(path).parent)
        found = checked([path], what=WHAT[kind], tell=tell or _tell(parent))
        return found[0] if found else None

    def open_files(self, parent: QWidget | None, kind: str, title: str) -> list[Path]:
        """Files of `kind` chosen to read; those that cannot be read are said and left
        out."""
        paths, _ = QFileDialog.getOpenFileNames(parent, title, str(self.folder_for(kind)),
                                                FILTERS[kind])
        if paths:
            self.keep(kind, Path(paths[0]).parent)
        return checked(list(paths), what=WHAT[kind], tell=_tell(parent))

    def save_file(self, parent: QWidget | None, kind: str, title: str, name: str,
                  filters: str | None = None, *, suffix: str | None = None
                  ) -> tuple[Path, str] | None:
        """The file to write and the filter chosen; a name typed without `suffix` gets it."""
        path, chosen = QFileDialog.getSaveFileName(parent, title,
                                                   str(self.folder_for(kind) / name),
                                                   filters or FILTERS[kind])
        if not path:
            return None
        out = Path(path)
        if suffix and not out.suffix:
            out = out.with_name(out.name + suffix)
        self.keep(kind, out.parent)
        return out, chosen

    def folder(self, parent: QWidget | None, kind: str, title: str) -> Path | None:
        """A folder (a data folder): the dialog opens beside the one last chosen."""
        path = QFileDialog.getExistingDirectory(parent, title, str(self.folder_for(kind)))
        if not path:
            return None
        chosen = Path(path)
        self.keep(kind, chosen.parent if chosen.parent != chosen else chosen)
        return chosen
