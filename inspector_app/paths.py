"""Where the app keeps its data and finds its bundled resources.

Nothing here touches the disk at import time; folders are created only when a command
asks for the data folder.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP_NAME = "watershed-inspector"
HOME_ENV = "INSPECTOR_APP_HOME"
DATABASE_NAME = "inspector.sqlite"


def resources_dir() -> Path:
    """The resources folder: inside the installed package, or at the top of a checkout."""
    packaged = Path(__file__).resolve().parent / "resources"
    if packaged.is_dir():
        return packaged
    checkout = Path(__file__).resolve().parent.parent / "resources"
    if checkout.is_dir():
        return checkout
    raise FileNotFoundError(
        f"The app's resources folder is missing (looked in {packaged} and {checkout}); "
        "reinstall the app."
    )


def resource(*parts: str) -> Path:
    path = resources_dir().joinpath(*parts)
    if not path.exists():
        raise FileNotFoundError(f"Bundled resource {'/'.join(parts)} is missing from {path}.")
    return path


def default_data_dir() -> Path:
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def resolve_data_dir(explicit: str | os.PathLike[str] | None) -> Path:
    """--data-dir wins, then INSPECTOR_APP_HOME, then the platform's user data folder."""
    if explicit:
        return Path(explicit).expanduser().resolve()
    env = os.environ.get(HOME_ENV)
    if env:
        return Path(env).expanduser().resolve()
    return default_data_dir()


def write_atomically(path: Path, data: bytes) -> None:
    """Write a file so that a crash leaves either the old file or the whole new one."""
    temp = path.with_name(f".{path.name}.tmp")
    with temp.open("wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(temp, path)


class DataFolder:
    """The layout of one data folder: database, attachments, backups, issued letters."""

    def __init__(self, root: Path) -> None:
        self.root = root

    @property
    def database(self) -> Path:
        return self.root / DATABASE_NAME

    @property
    def attachments(self) -> Path:
        return self.root / "attachments"

    @property
    def backups(self) -> Path:
        return self.root / "backups"

    @property
    def letters(self) -> Path:
        return self.root / "letters"

    def create(self) -> None:
        for folder in (self.root, self.attachments, self.backups, self.letters):
            folder.mkdir(parents=True, exist_ok=True)
