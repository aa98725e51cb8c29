"""Where the app keeps its data and finds its bundled resources.

Nothing here touches the disk at import time; folders are created only when a command
asks for the data folder.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import platformdirs

from .errors import InputError

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


class UnreadableFile(InputError):
    """A file given to read that is not a regular file, too large, or unreadable.
    `reason` is the sentence without the path ("it is a named pipe ...")."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"{path}: {reason}.")
        self.reason = reason


def _size_text(n: float) -> str:
    return f"{n / 1e9:.1f} GB" if n >= 1e9 else f"{n / 1e6:.1f} MB"


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def read_regular_file(path: Path, *, limit: int, what: str) -> bytes:
    """The bytes of a regular file of at most `limit` bytes. A pipe, device, folder or
    socket is refused at once, without waiting for anything to be written to it; a file
    over the limit is refused without reading it all. FileNotFoundError if missing."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    flags |= getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except (FileNotFoundError, NotADirectoryError):
        raise FileNotFoundError(path) from None
    except OSError as exc:
        raise UnreadableFile(path, f"cannot be read ({exc.strerror})") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise UnreadableFile(path, f"is {_kind(mode)}, not a file; give the {what} as "
                                       "a file saved on disk")
        size = os.fstat(fd).st_size
        too_big = (f"it is {_size_text(size)}, over the {_size_text(limit)} limit of a "
                   f"{what}")
        if size > limit:
            raise UnreadableFile(path, too_big)
        chunks: list[bytes] = []
        total = 0
        while True:
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:
                raise UnreadableFile(path, f"it grew over the {_size_text(limit)} limit of "
                                           f"a {what} while it was read")
        return b"".join(chunks)
    except OSError as exc:
        raise UnreadableFile(path, f"cannot be read ({exc.strerror})") from None
    finally:
        os.close(fd)


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
        # Owner-only: the folder holds owner data and this device's private signing key.
        for folder in (self.root, self.attachments, self.backups, self.letters):
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            if folder.stat().st_mode & 0o077:
                folder.chmod(0o700)
