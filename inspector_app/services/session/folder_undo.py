"""Putting a data folder back as it was when a step that writes files into it fails."""

from __future__ import annotations

import shutil
from pathlib import Path

from ...paths import write_atomically


class FolderUndo:
    """Remembers a folder as it is now; `restore` removes what was added since and puts
    back the files `write` replaced. A folder that did not exist is removed whole."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.existed = root.is_dir()
        self.before = set(root.rglob("*")) if self.existed else set()
        self.replaced: dict[Path, bytes] = {}

    def write(self, path: Path, data: bytes) -> None:
        if path.is_file() and path not in self.replaced:
            self.replaced[path] = path.read_bytes()
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        write_atomically(path, data)
        path.chmod(0o600)  # the data folder's files are its owner's alone

    def restore(self) -> None:
        if not self.existed:
            shutil.rmtree(self.root, ignore_errors=True)
            return
        added = sorted(set(self.root.rglob("*")) - self.before, key=lambda p: len(p.parts),
                       reverse=True)
        for path in added:
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path, ignore_errors=True)
            else:
                path.unlink(missing_ok=True)
        for path, data in self.replaced.items():
            write_atomically(path, data)
