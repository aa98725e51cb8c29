"""A data folder on a network file system is refused before anything is made or written in
it: the mount table's parsing over real lines, the choice of the mount a path is on, and the
refusal through the command line."""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

import pytest

from inspector_app import filesystems
from inspector_app.cli import run
from inspector_app.filesystems import FileSystem, Mount, mount_of, parse_mountinfo
from tests.network_shares import escaped, on_a_share, sentence

# Lines of /proc/self/mountinfo as Linux writes them (a laptop, a Docker container, a
# WSL 2 machine, this app's own test of sshfs over loopback).
MOUNTINFO = r"""
26 1 259:2 / / rw,relatime shared:1 - ext4 /dev/nvme0n1p2 rw,errors=remount-ro
25 24 0:23 / /dev/shm rw,nosuid,nodev shared:3 - tmpfs tmpfs rw,inode64
31 26 0:27 / /tmp rw,nosuid,nodev shared:14 - tmpfs tmpfs rw,size=8126640k,inode64
412 26 0:52 / /mnt/share rw,relatime shared:210 - nfs4 fileserver:/export/wi rw,vers=4.2,rsize=1048576,wsize=1048576,namlen=255,hard,proto=tcp,timeo=600,retrans=2,sec=sys,clientaddr=192.168.1.20,local_lock=none,addr=192.168.1.5
150 412 259:2 /srv/wi-local /mnt/share/local rw,relatime shared:1 - ext4 /dev/nvme0n1p2 rw,errors=remount-ro
160 26 0:52 /export/wi/season /home/kim/season rw,relatime shared:210 - nfs4 fileserver:/export/wi rw,vers=4.2,addr=192.168.1.5
98 26 0:47 / /mnt/Town\040Hall rw,relatime shared:53 - cifs //nas/town\040hall rw,vers=3.1.1,cache=strict,username=inspector,uid=1000,noforceuid,gid=1000,noforcegid,addr=192.168.1.5,soft,nounix,serverino,mapposix
45 27 0:40 / /home/kim/field rw,nosuid,nodev,relatime - fuse.sshfs kim@laptop:/home/kim/data rw,user_id=1000,group_id=1000
46 27 0:41 / /home/kim/gdrive rw,nosuid,nodev,relatime shared:300 - fuse.rclone gdrive: rw,user_id=1000,group_id=1000
120 26 8:33 / /media/kim/USB\040DRIVE rw,nosuid,nodev,relatime shared:66 - fuseblk /dev/sdc1 rw,user_id=0,group_id=0,default_permissions,allow_other,blksize=4096
80 26 0:60 / /mnt/c rw,noatime shared:40 - 9p C:\134 rw,dirsync,aname=drvfs;path=C:\;uid=1000,gid=1000,trans=fd,rfdno=8,wfdno=8
585 496 0:53 / /var/lib/docker/overlay2/xyz/merged rw,relatime master:1 - overlay overlay rw,lowerdir=/var/lib/docker/overlay2/l/ABC:/var/lib/docker/overlay2/l/DEF,upperdir=/var/lib/docker/overlay2/xyz/diff,workdir=/var/lib/docker/overlay2/xyz/work
600 26 259:3 / /mnt/shared rw,relatime shared:400 - ext4 /dev/nvme0n1p3 rw
601 26 0:70 / /srv/stacked rw,relatime shared:401 - ext4 /dev/sdd1 rw
602 26 0:71 / /srv/stacked rw,relatime shared:402 - nfs fileserver:/old rw,vers=3
"""


def kind_of(path: str) -> str | None:
    mount = mount_of(path, parse_mountinfo(MOUNTINFO))
    return None if mount is None else mount.kind


def test_each_line_gives_its_mount_point_kind_and_source_unescaped() -> None:
    mounts = parse_mountinfo(MOUNTINFO)
    assert len(mounts) == 15
    assert mounts[3] == Mount("/mnt/share", "nfs4", "fileserver:/export/wi")
    assert Mount("/mnt/Town Hall", "cifs", "//nas/town hall") in mounts
    assert Mount("/media/kim/USB DRIVE", "fuseblk", "/dev/sdc1") in mounts
    assert Mount("/mnt/c", "9p", "C:\\") in mounts  # \134 is a backslash
    assert Mount("/home/kim/field", "fuse.sshfs", "kim@laptop:/home/kim/data") in mounts


def test_a_line_not_of_the_form_is_skipped() -> None:
    text = ("garbage\n"
            "36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 ext3 /dev/root rw\n"  # no "-"
            "36 35 98:0 /mnt1 /mnt2 rw,noatime -\n"  # nothing after the "-"
            "36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue\n")
    assert parse_mountinfo(text) == [Mount("/mnt2", "ext3", "/dev/root")]


@pytest.mark.parametrize(("path", "kind"), [
    ("/home/kim/inspections", "ext4"),
    ("/", "ext4"),
    ("/mnt/share", "nfs4"),
    ("/mnt/share/wi/2027", "nfs4"),
    ("/mnt/shared/wi", "ext4"),  # its own disk: /mnt/share is no prefix of /mnt/shared
    ("/mnt/sharewi", "ext4"),  # on / : not under /mnt/share
    ("/mnt/share/local/wi", "ext4"),  # a local folder bound inside the network mount
    ("/home/kim/season/wi", "nfs4"),  # a network folder bound onto a local path
    ("/mnt/Town Hall/inspections", "cifs"),
    ("/mnt/Town", "ext4"),
    ("/home/kim/field/wi", "fuse.sshfs"),
    ("/home/kim/gdrive/wi", "fuse.rclone"),
    ("/home/kim/fieldwork", "ext4"),
    ("/media/kim/USB DRIVE/wi", "fuseblk"),
    ("/mnt/c/Users/kim/wi", "9p"),
    ("/tmp/wi", "tmpfs"),
    ("/dev/shm/wi", "tmpfs"),
    ("/var/lib/docker/overlay2/xyz/merged/data", "overlay"),
    ("/srv/stacked/wi", "nfs"),  # two mounts on one point: the later one hides the earlier
])
def test_a_path_is_on_the_mount_with_the_longest_mount_point_that_holds_it(
        path: str, kind: str) -> None:
    assert kind_of(path) == kind


@pytest.mark.parametrize(("kind", "network"), [
    ("nfs", True), ("nfs4", True), ("cifs", True), ("smb3", True), ("9p", True),
    ("ceph", True), ("fuse.sshfs", True), ("fuse.rclone", True), ("fuse.s3fs", True),
    ("fuse", True), ("fuseblk", False), ("ext4", False), ("btrfs", False), ("xfs", False),
    ("overlay", False), ("tmpfs", False), ("vfat", False), ("apfs", False)])
def test_network_kinds(kind: str, network: bool) -> None:
    assert filesystems.is_network_kind(kind) is network


@pytest.mark.parametrize(("path", "share"), [
    (r"\\nas\office\wi", r"\\nas\office"),
    ("//nas/office/wi", r"\\nas\office"),
    (r"\\?\UNC\nas\office\wi", r"\\nas\office"),
    (r"\\.\unc\nas\office\wi", r"\\nas\office"),
    (r"\\nas\office", r"\\nas\office"),
    (r"\\nas", None),  # no share named: not a path to a folder
    (r"\\?\C:\Users\kim\wi", None),
    (r"C:\Users\kim\wi", None),
    (r"Z:\wi", None),  # a mapped drive: told by GetDriveTypeW, not by its name
])
def test_a_windows_path_on_a_share(path: str, share: str | None) -> None:
    assert filesystems.windows_share(path) == share


class _Kernel32:
    """GetDriveTypeW as Windows answers it: Z: a mapped network drive, C: a fixed disk."""

    def __init__(self, _name: str) -> None:
        pass

    def GetDriveTypeW(self, root: object) -> int:
        text = getattr(root, "value", root)
        assert isinstance(text, str)
        return {"Z:\\": filesystems.DRIVE_REMOTE, "C:\\": 3}.get(text, 1)


@pytest.mark.parametrize(("path", "found"), [
    (r"Z:\wi", FileSystem("network drive Z:", network=True)),
    (r"z:\inspections\wi", FileSystem("network drive Z:", network=True)),
    (r"\\?\Z:\wi", FileSystem("network drive Z:", network=True)),
    (r"C:\Users\kim\wi", FileSystem("drive C:", network=False)),
    (r"\\nas\office\wi", FileSystem(r"network share \\nas\office", network=True)),
    (r"\\?\Volume{d1e4}\wi", None),
])
def test_a_windows_drive_is_told_by_its_drive_type(
        monkeypatch: pytest.MonkeyPatch, path: str, found: FileSystem | None) -> None:
    import ctypes

    monkeypatch.setattr(ctypes, "WinDLL", _Kernel32, raising=False)
    assert filesystems.windows_file_system(path) == found


def _darwin_statfs(kind: bytes, mounted_on: bytes, flags: int) -> bytes:
    buffer = bytearray(2168)
    buffer[64:68] = flags.to_bytes(4, sys.byteorder)
    buffer[72:72 + len(kind)] = kind
    buffer[88:88 + len(mounted_on)] = mounted_on
    return bytes(buffer)


def test_a_macos_statfs_answer_names_the_kind_and_whether_it_is_local() -> None:
    local = 0x00001000
    assert filesystems.darwin_file_system(
        _darwin_statfs(b"smbfs", b"/Volumes/office", 0), "/Volumes/office/wi"
    ) == FileSystem("smbfs", network=True)
    assert filesystems.darwin_file_system(
        _darwin_statfs(b"apfs", b"/", local), "/Users/kim/wi") == FileSystem("apfs", False)
    assert filesystems.darwin_file_system(
        _darwin_statfs(b"macfuse", b"/Volumes/x", local), "/Volumes/x/wi"
    ) == FileSystem("macfuse", network=False)
    # an answer naming another mount than the path's is a layout not understood: not told
    assert filesystems.darwin_file_system(
        _darwin_statfs(b"apfs", b"/Volumes/other", local), "/Users/kim/wi") is None


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_this_computers_temporary_folder_is_told_and_allowed(tmp_path: Path) -> None:
    found = filesystems.file_system_of(tmp_path / "not" / "made" / "yet")
    assert found is not None and found.kind and found.network is False
    assert not (tmp_path / "not").exists()


# --- the refusal, through the command line -------------------------------------------------

def tree(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


# the data folder's SQLite file on a share (a desk of an office database may be there)
@pytest.mark.sqlite_only
@pytest.mark.parametrize("share_name", ["share", "Town Hall"])
def test_a_new_data_folder_on_a_network_share_is_refused_and_not_created(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path, share_name: str) -> None:
    share = tmp_path / share_name
    share.mkdir()
    on_a_share(monkeypatch, share)
    folder = share / "inspections" / "wi"
    status = run(["--data-dir", str(folder), "demo", "--parcels", "3"])
    out, err = capsys.readouterr()
    assert (status, out, err) == (2, "", sentence(folder) + "\n")
    assert list(share.iterdir()) == []  # not even the folder above it was made


# the data folder's SQLite file on a share (a desk of an office database may be there)
@pytest.mark.sqlite_only
def test_an_existing_data_folder_moved_to_a_share_is_refused_and_left_as_it_was(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    folder = tmp_path / "share" / "wi"
    assert run(["--data-dir", str(folder), "demo", "--parcels", "3"]) == 0
    capsys.readouterr()
    before = tree(folder)
    on_a_share(monkeypatch, tmp_path / "share", kind="fuse.sshfs")
    case = Path(__file__).parents[1] / "fixtures" / "full_case.json"
    for command in (["register", "list"], ["case", "import", str(case)], ["backup"]):
        status = run(["--data-dir", str(folder), *command])
        out, err = capsys.readouterr()
        assert (status, out, err) == (2, "", sentence(folder, "fuse.sshfs") + "\n"), command
    assert tree(folder) == before


# the data folder's SQLite file beside a share
@pytest.mark.sqlite_only
def test_a_local_folder_bound_inside_a_share_opens(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    on_a_share(monkeypatch, tmp_path)
    real = filesystems.read_mountinfo()
    assert real is not None
    local = tmp_path / "local"
    local.mkdir()
    monkeypatch.setattr(filesystems, "read_mountinfo", lambda: real + (
        f"1000 999 259:2 /srv/local {escaped(Path(os.path.realpath(local)))} rw - ext4 "
        "/dev/nvme0n1p2 rw\n"))
    status = run(["--data-dir", str(local / "wi"), "demo", "--parcels", "3"])
    _, err = capsys.readouterr()
    assert (status, err) == (0, "")
    assert (local / "wi" / "inspector.sqlite").is_file()
