"""File dialogs that open where the same kind of file was last chosen (photos in the
photos' folder, kits on the kit drive, letters where letters were saved), remembered in
the app's settings for each kind; a folder that is not there now (a drive that is out)
opens the home folder instead."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QFileDialog, QWidget

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
}


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
                  filters: str | None = None) -> Path | None:
        path, _ = QFileDialog.getOpenFileName(parent, title, str(self.folder_for(kind)),
                                              filters or FILTERS[kind])
        if not path:
            return None
        self.keep(kind, Path(path).parent)
        return Path(path)

    def open_files(self, parent: QWidget | None, kind: str, title: str) -> list[Path]:
        paths, _ = QFileDialog.getOpenFileNames(parent, title, str(self.folder_for(kind)),
                                                FILTERS[kind])
        if paths:
            self.keep(kind, Path(paths[0]).parent)
        return [Path(p) for p in paths]

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
