"""The kind of file system a path lives on, and the refusal of a data folder on a network one.

SQLite keeps a WAL database's readers and writer apart with file locks and a shared-memory
index beside the file; its documentation says WAL "does not work over a network
filesystem", and locking over NFS and SMB is unreliable even without it. Two desks writing
one database on a shared drive can corrupt it, and the records have legal weight, so a data
folder on a network file system is refused before anything is created or written in it
(`refuse_network_folder`, called by `paths.DataFolder.create`).

How the kind is told:
- Linux: the mount the path lives on, from `/proc/self/mountinfo` (the longest mount point
  that holds the path's resolved form; `parse_mountinfo` and `mount_of` are pure, so tests
  feed them real lines).
- macOS: `statfs(2)` through ctypes: the file system's name and whether the system calls it
  local (`MNT_LOCAL`).
- Windows: a UNC path (`\\\\server\\share\\...`), or a drive whose `GetDriveTypeW` is
  DRIVE_REMOTE (a mapped network drive).
- Elsewhere (the BSDs...) there is no reliable way without another program: the kind is
  not told and the folder is allowed.
"""

from __future__ import annotations

import ntpath
import os
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .errors import InputError

# The kernel's names of the network and cluster file systems (Linux's, and macOS's smbfs,
# nfs, afpfs and webdav).
NETWORK_KINDS = frozenset({
    "nfs", "nfs4", "cifs", "smb3", "smbfs", "ncpfs", "afs", "9p", "ceph", "glusterfs",
    "lustre", "gpfs", "davfs", "coda", "beegfs", "orangefs", "afpfs", "webdav"})
# A FUSE file system keeps its files wherever its program puts them: over SSH (sshfs), in a
# cloud (rclone, s3fs), on another machine (gvfsd-fuse carries the desktop's SMB and SFTP
# shares). Every `fuse.` kind, and plain `fuse` (a FUSE mount whose program gave no name),
# is taken for a network one: none can be named as surely local and safe for SQLite (an
# encrypted folder, gocryptfs or encfs, may sit in a synced or shared one; mergerfs's
# shared memory mapping depends on its options). `fuseblk`, the NTFS and exFAT driver for a
# disk of this computer, is no `fuse.` kind and is allowed.
MOUNTINFO = "/proc/self/mountinfo"


@dataclass(frozen=True)
class Mount:
    """One line of /proc/self/mountinfo: where it is mounted, its kind, what it mounts."""

    mount_point: str
    kind: str
    source: str


@dataclass(frozen=True)
class FileSystem:
    """The file system a path lives on: its kind in the system's words, and whether it is
    a network one."""

    kind: str
    network: bool


def is_network_kind(kind: str) -> bool:
    """Whether a Linux (or macOS) file system type is a network or FUSE one."""
    if kind in NETWORK_KINDS:
        return True
    return kind == "fuse" or kind.startswith("fuse.")


_ESCAPE = re.compile(r"\\([0-7]{3})")


def _unescape(field: str) -> str:
    """A mountinfo field with the kernel's octal escapes (`\\040` a space, `\\011` a tab,
    `\\012` a newline, `\\134` a backslash) turned back into the characters."""
    return _ESCAPE.sub(lambda m: chr(int(m.group(1), 8)), field)


def parse_mountinfo(text: str) -> list[Mount]:
    """The mounts of a /proc/PID/mountinfo text, in its order (a later mount on the same
    point hides an earlier one). Per `man 5 proc`: mount ID, parent ID, major:minor, root,
    mount point, mount options, optional fields ended by a lone `-`, then the file system
    type, the mount source and the super options. A line not of that form is skipped."""
    mounts = []
    for line in text.splitlines():
        fields = line.split(" ")
        try:
            end = fields.index("-", 6)
        except ValueError:
            continue
        if len(fields) < end + 3 or not fields[4].startswith("/"):
            continue
        mounts.append(Mount(mount_point=_unescape(fields[4]), kind=_unescape(fields[end + 1]),
                            source=_unescape(fields[end + 2])))
    return mounts


def _holds(mount_point: str, path: str) -> bool:
    if mount_point == "/":
        return path.startswith("/")
    point = mount_point.rstrip("/")
    return path == point or path.startswith(point + "/")


def mount_of(path: str, mounts: Sequence[Mount]) -> Mount | None:
    """The mount an absolute, resolved path lives on: the one with the longest mount point
    that holds it, the last of those mounted on that point."""
    found: Mount | None = None
    for mount in mounts:
        if _holds(mount.mount_point, path) and (
                found is None
                or len(mount.mount_point.rstrip("/")) >= len(found.mount_point.rstrip("/"))):
            found = mount
    return found


def nearest_existing(path: str | os.PathLike[str]) -> str:
    """The resolved form of `path`, or of its nearest existing folder when it is not there
    yet (a data folder about to be created)."""
    real = os.path.realpath(os.path.abspath(path))
    while not os.path.exists(real):
        parent = os.path.dirname(real)
        if parent == real:
            break
        real = parent
    return real


def read_mountinfo() -> str | None:
    """This process's mount table, or None when there is none to read."""
    try:
        with open(MOUNTINFO, encoding="utf-8", errors="surrogateescape") as f:
            return f.read()
    except OSError:
        return None


def _linux(path: str) -> FileSystem | None:
    text = read_mountinfo()
    mount = None if text is None else mount_of(path, parse_mountinfo(text))
    return None if mount is None else FileSystem(mount.kind, is_network_kind(mount.kind))


_WINDOWS_LONG = ("\\\\?\\", "\\\\.\\")  # \\?\ and \\.\ before a long or device path


def windows_share(path: str) -> str | None:
    """The `\\\\server\\share` a Windows path is on, or None for a path on a drive letter.
    Long paths count: `\\\\?\\UNC\\server\\share\\...` is on a share, `\\\\?\\C:\\...` is not."""
    path = path.replace("/", "\\")
    if path[:4] in _WINDOWS_LONG:
        if path[4:8].upper() != "UNC\\":
            return None
        path = "\\\\" + path[8:]
    if not path.startswith("\\\\"):
        return None
    server, _, rest = path[2:].partition("\\")
    share = rest.partition("\\")[0]
    return f"\\\\{server}\\{share}" if server and share else None


DRIVE_REMOTE = 4  # GetDriveTypeW: a network drive


def windows_file_system(path: str) -> FileSystem | None:
    share = windows_share(path)
    if share is not None:
        return FileSystem(f"network share {share}", network=True)
    if path[:4] in _WINDOWS_LONG:
        path = path[4:]
    drive = ntpath.splitdrive(path)[0]
    if len(drive) != 2 or drive[1] != ":":
        return None
    import ctypes

    kernel32 = ctypes.WinDLL("kernel32")  # type: ignore[attr-defined,unused-ignore]
    letter = drive.upper()
    if kernel32.GetDriveTypeW(ctypes.c_wchar_p(letter + "\\")) == DRIVE_REMOTE:
        return FileSystem(f"network drive {letter}", network=True)
    return FileSystem(f"drive {letter}", network=False)


# macOS's struct statfs (the 64-bit-inode one, <sys/mount.h>): the offsets read.
_DARWIN_STATFS_SIZE = 2168
_DARWIN_FLAGS = 64  # uint32_t f_flags
_DARWIN_TYPENAME = slice(72, 88)  # char f_fstypename[16]
_DARWIN_MOUNTED_ON = slice(88, 1112)  # char f_mntonname[1024]
_MNT_LOCAL = 0x00001000


def darwin_file_system(buffer: bytes, path: str) -> FileSystem | None:
    """The file system a macOS `statfs` answer names, or None when the answer does not
    name a mount that holds `path`: a layout this code does not know, of which nothing is
    told. (A home folder is reached through a firmlink from the system volume's data
    volume, mounted on /System/Volumes/Data: not told either, and on this computer's
    disk; a share is mounted under /Volumes, and told.)"""
    if len(buffer) < _DARWIN_STATFS_SIZE:
        return None

    def text(part: slice) -> str:
        return os.fsdecode(buffer[part].split(b"\0", 1)[0])

    kind, mounted_on = text(_DARWIN_TYPENAME), text(_DARWIN_MOUNTED_ON)
    if not kind or not mounted_on.startswith("/") or not _holds(mounted_on, path):
        return None
    flags = int.from_bytes(buffer[_DARWIN_FLAGS:_DARWIN_FLAGS + 4], sys.byteorder)
    return FileSystem(kind, network=is_network_kind(kind) or not flags & _MNT_LOCAL)


def _darwin(path: str) -> FileSystem | None:
    import ctypes
    import ctypes.util

    name = ctypes.util.find_library("c")
    if name is None:
        return None
    libc = ctypes.CDLL(name, use_errno=True)
    try:  # Intel Macs name the 64-bit-inode call so; Apple silicon has only that one
        statfs = libc["statfs$INODE64"]
    except AttributeError:
        statfs = libc.statfs
    buffer = ctypes.create_string_buffer(_DARWIN_STATFS_SIZE + 512)
    if statfs(os.fsencode(path), buffer) != 0:
        return None
    return darwin_file_system(buffer.raw, path)


def file_system_of(path: str | os.PathLike[str]) -> FileSystem | None:
    """The file system `path` (or, when it is not there yet, its nearest existing folder)
    lives on; None where this system gives no reliable way to tell."""
    where = nearest_existing(path)
    if sys.platform.startswith("linux"):
        return _linux(where)
    if sys.platform == "win32":
        return windows_file_system(where)
    if sys.platform == "darwin":
        return _darwin(where)
    return None


class NetworkFolder(InputError):
    """A data folder on a network file system, refused before anything was made there."""


def refuse_network_folder(folder: Path) -> None:
    """NetworkFolder, one sentence, when `folder` is (or would be created) on a network
    file system; nothing is read from it or written to it."""
    found = file_system_of(folder)
    if found is not None and found.network:
        raise NetworkFolder(
            f"The data folder {folder} is on a network file system ({found.kind}), where "
            "SQLite cannot lock its database safely; keep the data folder on this "
            "computer's own disk, or connect the desks to an office database with "
            "--database postgresql://... (docs/office-server.md).")
