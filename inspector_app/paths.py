"""Where the app keeps its data and finds its bundled resources.

Nothing here touches the disk at import time; folders are created only when a command
asks for the data folder.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import shutil
import stat
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

import platformdirs

from .errors import InputError
from .filesystems import refuse_network_folder

APP_NAME = "watershed-inspector"
HOME_ENV = "INSPECTOR_APP_HOME"
USER_ENV = "INSPECTOR_APP_USER"
DATABASE_ENV = "INSPECTOR_APP_DATABASE"
DATABASE_NAME = "inspector.sqlite"


def given_user() -> str | None:
    """The person named in $INSPECTOR_APP_USER, or None when it names no one."""
    return os.environ.get(USER_ENV, "").strip() or None


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


def office_desk_dir(database: str) -> Path:
    """This desk's own folder for an office database: in the user data folder, named after
    the server and database (never after a password)."""
    from urllib.parse import urlsplit

    parts = urlsplit(database)
    host = parts.hostname or "local"
    name = f"{host}-{parts.port or 5432}-{parts.path.strip('/') or 'office'}"
    return default_data_dir().parent / f"{APP_NAME}-offices" / re.sub(r"[^\w.-]", "_", name)


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


def _a(what: str) -> str:
    """`what` with its article: "a case file", "an office settings file"."""
    return f"{'an' if what[:1].lower() in 'aeiou' else 'a'} {what}"


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


def _open_regular(path: Path, *, limit: int, what: str) -> int:
    """A descriptor of a regular file of at most `limit` bytes, its kind and size checked
    before a byte is read."""
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
        if size > limit:
            raise UnreadableFile(path, f"it is {_size_text(size)}, over the "
                                       f"{_size_text(limit)} limit of {_a(what)}")
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_regular_lines(path: Path, *, limit: int, what: str,
                       longest: int = 4096) -> Iterator[bytes]:
    """The lines of a regular file of at most `limit` bytes, read as they are used: the
    checks of `read_regular_file`, and a line longer than `longest` bytes given in pieces
    of that length, so that no line is held whole."""
    fd = _open_regular(path, limit=limit, what=what)
    total = 0
    try:
        with os.fdopen(fd, "rb", closefd=False) as stream:
            while line := stream.readline(longest):
                total += len(line)
                if total > limit:
                    raise UnreadableFile(path, f"it grew over the {_size_text(limit)} limit "
                                               f"of {_a(what)} while it was read")
                yield line
    except OSError as exc:
        raise UnreadableFile(path, f"cannot be read ({exc.strerror})") from None
    finally:
        os.close(fd)


def read_regular_file(path: Path, *, limit: int, what: str) -> bytes:
    """The bytes of a regular file of at most `limit` bytes. A pipe, device, folder or
    socket is refused at once, without waiting for anything to be written to it; a file
    over the limit is refused without reading it all. FileNotFoundError if missing."""
    fd = _open_regular(path, limit=limit, what=what)
    try:
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
                                           f"{_a(what)} while it was read")
        return b"".join(chunks)
    except OSError as exc:
        raise UnreadableFile(path, f"cannot be read ({exc.strerror})") from None
    finally:
        os.close(fd)


def readable_file(path: Path, *, what: str) -> Path:
    """The rule for every file given to read (a roll, a layer, a log, a case file, a
    package...): it exists, it is a file and not a folder, pipe or device, and it may be
    read. Otherwise UnreadableFile, one sentence naming the file and what to do, before
    anything is read or written. Opening to check never waits on a pipe."""
    try:
        info = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        raise UnreadableFile(path, f"no such {what}; check its name and the folder it is "
                                   "in") from None
    except OSError as exc:
        raise UnreadableFile(path, _unreadable_reason(exc, what)) from None
    if stat.S_ISDIR(info.st_mode):
        raise UnreadableFile(path, f"is a folder, not a file; give the path of the {what} "
                                   "itself, inside that folder")
    if not stat.S_ISREG(info.st_mode):
        raise UnreadableFile(path, f"is {_kind(info.st_mode)}, not a file; give the {what} "
                                   "as a file saved on disk")
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        os.close(os.open(path, flags))
    except OSError as exc:
        raise UnreadableFile(path, _unreadable_reason(exc, what)) from None
    return path


def _unreadable_reason(exc: OSError, what: str) -> str:
    if exc.errno in (errno.EACCES, errno.EPERM):
        return (f"you may not read this {what} (permission denied); ask its owner for "
                "read access, or copy it to a folder of yours")
    return (f"the {what} cannot be read ({exc.strerror or 'input/output error'}); copy it "
            "to a local disk and try again")


class UnwritablePath(InputError, OSError):
    """A file or folder that cannot be written where the user asked: the message names the
    path asked for (never a temporary file) and what to do. Still an OSError, with the
    operating system's `errno` and `strerror`, for callers that handle those."""

    def __init__(self, path: Path, exc: OSError, *, what: str = "file") -> None:
        super().__init__(_unwritable_text(path, exc, what))
        self.errno, self.strerror, self.filename = exc.errno, exc.strerror, str(path)
        if exc.errno not in _PATH_ERRNOS:
            self.exit_status = 1  # the disk, not the path given, is at fault

    def __str__(self) -> str:
        return str(self.args[0])


_PATH_ERRNOS = frozenset({errno.ENOENT, errno.ENOTDIR, errno.EISDIR, errno.EACCES,
                          errno.EPERM, errno.EROFS, errno.EEXIST, errno.ENAMETOOLONG})


def _file_in_the_way(path: Path, *, itself: bool) -> Path | None:
    """The nearest existing one of `path` (when `itself`) and its ancestors, when it is
    not a folder."""
    for parent in ((path,) if itself else ()) + tuple(path.parents):
        if parent.exists():
            return None if parent.is_dir() else parent
    return None


def _unwritable_text(path: Path, exc: OSError, what: str) -> str:
    where = path.parent
    if what == "file" and (exc.errno == errno.EISDIR or path.is_dir()):
        return (f"Cannot write {path}: it is a folder; add the name of the file to write "
                "in it.")
    blocker = _file_in_the_way(path, itself=what == "folder")
    if exc.errno in (errno.ENOTDIR, errno.EEXIST) and blocker is not None:
        return (f"Cannot write {path}: {blocker} is a file, not a folder; give the path of "
                f"a {'folder' if what == 'folder' else 'file in a folder'}.")
    if exc.errno == errno.ENOENT:
        return (f"Cannot write {path}: the folder {where} does not exist; create it first or "
                "give a path in an existing folder.")
    if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        if what == "folder" and path.is_dir():
            where = path  # the folder itself, not the one it is in, is closed to us
        return (f"Cannot write {path}: the folder {where} may not be written to "
                f"({exc.strerror}); choose a folder you can write to.")
    if exc.errno in (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)):
        return (f"Cannot write {path}: the disk is full; free some space and run the command "
                "again.")
    return f"Cannot write {path} ({exc.strerror or exc}); choose another place to save it."


def write_atomically(path: Path, data: bytes) -> None:
    """Write a file so that a crash leaves either the old file or the whole new one.
    UnwritablePath, naming `path`, when it cannot be written."""
    temp = path.with_name(f".{path.name}.tmp")
    try:
        with temp.open("wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temp, path)
    except OSError as exc:
        _discard(temp)
        raise UnwritablePath(path, exc) from None
    except BaseException:
        # a full disk or an interruption leaves the old file and no half-written copy
        _discard(temp)
        raise


def _discard(temp: Path) -> None:
    """Remove a temporary file if it is there (its folder may not even exist)."""
    with contextlib.suppress(OSError):
        temp.unlink(missing_ok=True)


# A temporary file of ours (see `write_atomically` and the backups) untouched for this long
# is left over from a program that was killed or lost power while writing it: a program
# still writing one touches it continually, and renames it within moments of finishing.
DEBRIS_AGE_S = 30 * 60

# Where temporary files are made, and the names they are given there: `.NAME.tmp` beside
# the file being written, and SQLite's rollback journal of a backup being written.
_DEBRIS = {
    "": (".*.tmp",),
    "backups": (".inspector-*.sqlite.tmp", ".inspector-*.sqlite.tmp-journal"),
    "attachments/*": (".*.tmp",),
    "letters/*": (".*.pdf.tmp",),
    "basemaps": (".*.tmp",),
}


# A job's own folder for its temporary files (`work_folder`), inside the data folder, and
# the lock file it holds while it runs.
_WORK_PREFIX = ".work-"
_WORK_LOCK = "lock"
# The name of a file the app keeps for a record: the record's id (a version 4 UUID) and
# the kind of file.
_RECORD_FILE = re.compile(r"(?P<id>[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-"
                          r"[0-9a-f]{12})\.(?:tif|mbtiles)")


def _hold(fd: int) -> bool:
    """Take an exclusive lock on an open file without waiting; False when another process
    holds it. The lock goes with the process, however it ends."""
    try:
        import fcntl
    except ImportError:  # Windows: an open file cannot be removed there, which suffices
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


@contextlib.contextmanager
def work_folder(parent: Path, name: str) -> Iterator[Path]:
    """A folder for one job's temporary files, `.work-NAME` in `parent` (a folder of the
    data folder), held by this process while the job runs and removed with what is left
    in it when the job ends, however it ends; one left by a killed job is removed the
    next time the data folder is opened (`DataFolder.remove_orphans`)."""
    folder = parent / f"{_WORK_PREFIX}{name}"
    try:
        folder.mkdir(mode=0o700, parents=True)
        fd = os.open(folder / _WORK_LOCK, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError as exc:
        raise UnwritablePath(parent, exc, what="folder") from None
    try:
        _hold(fd)
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        os.close(fd)


def _abandoned(folder: Path) -> bool:
    """Whether a job's work folder is no longer held by a running job."""
    try:
        fd = os.open(folder / _WORK_LOCK, os.O_RDWR)
    except FileNotFoundError:
        # made and not yet locked, or its lock file gone: judged by its age
        with contextlib.suppress(OSError):
            return folder.lstat().st_mtime < time.time() - DEBRIS_AGE_S
        return False
    except OSError:
        return False
    try:
        return _hold(fd)
    finally:
        os.close(fd)


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

    def remove_debris(self, *, now: float | None = None) -> list[Path]:
        """Remove the temporary files a killed program left behind in this folder: only
        names this app makes (see `_DEBRIS`), only those untouched for DEBRIS_AGE_S, so
        that a temporary file another program open on the same folder is writing stays.
        The database's own -wal, -shm and -journal files are SQLite's and never touched.
        Returns the files removed."""
        cutoff = (time.time() if now is None else now) - DEBRIS_AGE_S
        removed = []
        for where, patterns in _DEBRIS.items():
            folders = sorted(self.root.glob(where)) if where else [self.root]
            for folder in folders:
                if folder.is_symlink() or not folder.is_dir():
                    continue
                for pattern in patterns:
                    for path in folder.glob(pattern):
                        try:
                            info = path.lstat()
                            if stat.S_ISREG(info.st_mode) and info.st_mtime < cutoff:
                                path.unlink()
                                removed.append(path)
                        except OSError:
                            continue
        return removed

    def remove_orphans(self, folder: str, kept: Iterable[str]) -> list[Path]:
        """Remove from `folder` (of this data folder) what a killed job left there: the
        work folders no running job holds, and the files named as this app names a
        record's file (`RECORD-ID.tif`, `RECORD-ID.mbtiles`) that no record names
        (`kept`, paths relative to the data folder) and no running job is writing. Any
        other file, a user's own included, is left alone. Returns what was removed."""
        where = self.root / folder
        if where.is_symlink() or not where.is_dir():
            return []
        kept = set(kept)
        removed = []
        running = set()
        for work in sorted(where.glob(f"{_WORK_PREFIX}*")):
            if work.is_symlink() or not work.is_dir():
                continue
            if not _abandoned(work):
                running.add(work.name[len(_WORK_PREFIX):])
                continue
            shutil.rmtree(work, ignore_errors=True)
            removed.append(work)
        for path in sorted(where.iterdir()):
            named = _RECORD_FILE.fullmatch(path.name)
            if (named is None or f"{folder}/{path.name}" in kept
                    or named["id"] in running):
                continue
            with contextlib.suppress(OSError):
                if stat.S_ISREG(path.lstat().st_mode):
                    path.unlink()
                    removed.append(path)
        return removed

    @property
    def jurisdictions(self) -> Path:
        return self.root / "jurisdictions"

    def restrict(self) -> None:
        """Owner-only files: the database (and SQLite's -wal and -shm beside it), the
        backups and the jurisdiction files, 0600 in 0700 folders, whatever the umask made
        them (a folder made by an earlier version included)."""
        files = [self.database, self.database.with_name(self.database.name + "-wal"),
                 self.database.with_name(self.database.name + "-shm")]
        for folder in (self.backups, self.jurisdictions):
            if folder.is_dir() and not folder.is_symlink():
                if folder.stat().st_mode & 0o077:
                    folder.chmod(0o700)
                files += [p for p in folder.iterdir() if p.is_file() and not p.is_symlink()]
        for path in files:
            with contextlib.suppress(FileNotFoundError):
                if path.stat().st_mode & 0o077:
                    path.chmod(0o600)

    def create(self, *, holds_database: bool = True) -> None:
        """Make the folder and its parts, owner-only: it holds owner data and this
        device's private signing key. A folder that holds the SQLite database on a network
        file system is refused first, with nothing made there: this is the first thing that
        opening a data folder does (`storage.store.Store`), before the database is opened.
        A desk's folder for an office database (`holds_database=False`) keeps no database
        and may be anywhere."""
        if holds_database:
            refuse_network_folder(self.root)
        for folder in (self.root, self.attachments, self.backups, self.letters):
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            if folder.stat().st_mode & 0o077:
                folder.chmod(0o700)
