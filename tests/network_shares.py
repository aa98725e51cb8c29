"""A folder of this machine made to look mounted from a file server: this machine's own
mount table with one line added, and the sentence that refuses a data folder there."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from inspector_app import filesystems


def escaped(path: Path) -> str:
    """A path as the mount table writes it (a space `\\040`, a backslash `\\134`)."""
    return str(path).replace("\\", "\\134").replace(" ", "\\040")


def on_a_share(monkeypatch: pytest.MonkeyPatch, share: Path, kind: str = "nfs4") -> None:
    """This machine's mount table with `share` mounted from a file server."""
    real = filesystems.read_mountinfo() or "27 1 254:0 / / rw,relatime - ext4 /dev/vda rw\n"
    line = (f"999 27 0:99 / {escaped(Path(os.path.realpath(share)))} rw,relatime - {kind} "
            "fileserver:/export/wi rw,vers=4.2,addr=192.168.1.5\n")
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setattr(filesystems, "read_mountinfo", lambda: real + line)


def sentence(folder: Path, kind: str = "nfs4") -> str:
    return (f"The data folder {folder} is on a network file system ({kind}), where SQLite "
            "cannot lock its database safely; keep the data folder on this computer's own "
            "disk, or connect the desks to an office database with --database "
            "postgresql://... (docs/office-server.md).")
