"""Data folders built once per test run and copied for each test that asks for one."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

from tests import pg_engine


class Templates:
    """Data folders that take seconds to build (a demo, an office with an enrolled laptop),
    built once per test run and copied for each test that asks for one: every test gets
    the folders as they were built, never another test's writes."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def copy(self, name: str, build: Callable[[Path], None], into: Path) -> Path:
        """Everything `build(folder)` put in `folder`, copied into `into`. `build` must close
        every database it opened (an open one may hold writes in its WAL file). A test run
        on PostgreSQL and one kept on SQLite (`sqlite_only`) each have templates of their
        own."""
        if pg_engine.active():
            name = f"{name}-postgresql"
        built = self.root / name
        if not built.exists():
            work = self.root / f"{name}.building"
            shutil.rmtree(work, ignore_errors=True)
            work.mkdir()
            build(work)
            open_files = sorted(str(p.relative_to(work)) for p in work.rglob("*-wal"))
            assert not open_files, f"template {name}: a database is still open: {open_files}"
            work.rename(built)
            pg_engine.template_built(work, built)
        into.mkdir(parents=True, exist_ok=True)
        for item in built.iterdir():
            if item.is_dir():
                shutil.copytree(item, into / item.name)
            else:
                shutil.copy2(item, into / item.name)
        pg_engine.template_copied(built, into)
        return into
