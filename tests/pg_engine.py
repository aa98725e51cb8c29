"""The suites on PostgreSQL: with INSPECTOR_TEST_ENGINE=postgresql, every data folder a
test opens for the first time (one with no SQLite file of its own yet) is an office
database of its own on the test cluster, made from a template made once by `office init`'s
own steps; a laptop's folder (made from a kit) and a folder copied from a template folder
keep their SQLite file, as they would at a real office."""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ENGINE_ENV = "INSPECTOR_TEST_ENGINE"


def on_postgresql() -> bool:
    return os.environ.get(ENGINE_ENV, "sqlite").strip().lower() == "postgresql"


class Offices:
    """Fresh office databases, one for each new data folder of a test."""

    def __init__(self, url: Callable[[str], str], prefix: str) -> None:
        import psycopg

        self._url = url
        self._prefix = prefix
        self._admin = psycopg.connect(url("postgres"), autocommit=True)
        self._numbers = itertools.count()
        self.template = f"{prefix}_template"
        self._made: list[str] = []
        self._kept_names: list[str] = []
        self._make_template()

    def _make_template(self) -> None:
        from inspector_app.storage import office, postgres
        from inspector_app.storage.records import new_id

        self._admin.execute(f"DROP DATABASE IF EXISTS {self.template} WITH (FORCE)")
        self._admin.execute(f"CREATE DATABASE {self.template} TEMPLATE template0 "
                            "ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'")
        # the schema only: what a data folder makes when first opened (its lake line) is
        # made when a test first opens it, by the test's clock
        conn = postgres.Connection(self._url(self.template))
        try:
            office.create(conn, device_id=new_id(), device_name="office database",
                          at="2026-01-01T00:00:00.000+00:00")
        finally:
            conn.close()

        # the office databases of template folders (tests/templates.py), by folder: kept
        # for the whole run, copied for each test that copies the folder
        self.kept: dict[Path, str] = {}

    def new(self, template: str | None = None) -> str:
        name = f"{self._prefix}_{next(self._numbers)}"
        self._admin.execute(f"CREATE DATABASE {name} TEMPLATE {template or self.template}")
        self._made.append(name)
        return self._url(name)

    def keep(self, url: str) -> str:
        """A database made in a test kept for the whole run; its name."""
        from urllib.parse import urlsplit

        name = urlsplit(url).path.strip("/")
        self._made.remove(name)
        self._kept_names.append(name)
        return name

    def drop_made(self) -> None:
        for name in self._made:
            self._admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        self._made.clear()

    def close(self) -> None:
        self.drop_made()
        for name in self._kept_names:
            self._admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        self._admin.execute(f"DROP DATABASE IF EXISTS {self.template} WITH (FORCE)")
        self._admin.close()


def folders_on(offices: Offices, monkeypatch: Any) -> Iterator[None]:
    """Inside: a data folder opened for the first time is an office database."""
    from inspector_app.paths import DATABASE_NAME
    from inspector_app.services.session.session import Session

    chosen: dict[Path, str] = {}
    _current.update(offices=offices, chosen=chosen)
    original = Session.__init__

    def opened(self: Session, root: Path, *, user: str | None = None, clock: Any = None,
               database: str | None = None) -> None:
        if database is None:
            key = Path(os.path.realpath(root))
            database = chosen.get(key)
            if database is None and not (root / DATABASE_NAME).exists():
                database = chosen[key] = offices.new()
            database = database or None  # LAPTOP: the folder's own SQLite file
        more = {} if clock is None else {"clock": clock}
        original(self, root, user=user, database=database, **more)

    monkeypatch.setattr(Session, "__init__", opened)
    try:
        yield
    finally:
        _current.clear()
        offices.drop_made()


_current: dict[str, Any] = {}


def active() -> bool:
    """Whether the running test's new data folders are office databases."""
    return bool(_current)
LAPTOP = ""  # in `chosen`: a laptop's folder (`laptop_folder`)


def laptop_folder(folder: Path) -> Path:
    """A data folder that is a laptop's from the start (opened before it joins a kit): on
    SQLite, as a laptop always is."""
    if _current:
        _current["chosen"][Path(os.path.realpath(folder))] = LAPTOP
    return folder


def _under(path: Path, folder: Path) -> Path | None:
    try:
        return path.relative_to(folder)
    except ValueError:
        return None


def template_built(work: Path, built: Path) -> None:
    """The office databases of the folders a template's build made are kept with it."""
    if not _current:
        return
    offices, chosen = _current["offices"], _current["chosen"]
    for path, url in list(chosen.items()):
        rel = _under(path, Path(os.path.realpath(work)))
        if rel is not None and url != LAPTOP:
            offices.keep(url)
            offices.kept[Path(os.path.realpath(built)) / rel] = url
            del chosen[path]


def _clone(databases: dict[Path, str], source: Path, copy: Path) -> None:
    """The folders under `copy` open on copies of the office databases of their twins under
    `source` (`databases`: folder -> URL)."""
    from urllib.parse import urlsplit

    offices, chosen = _current["offices"], _current["chosen"]
    for path, url in list(databases.items()):
        rel = _under(path, Path(os.path.realpath(source)))
        if rel is not None and url != LAPTOP:
            chosen[Path(os.path.realpath(copy)) / rel] = offices.new(
                template=urlsplit(url).path.strip("/"))


def template_copied(built: Path, into: Path) -> None:
    """A copy of a template's folders gets copies of their office databases."""
    if _current:
        _clone(_current["offices"].kept, built, into)


def folder_copied(source: Path, copy: Path) -> None:
    """A data folder copied by a test (`shutil.copytree`): its copy opens on a copy of the
    source's office database, as the copy of a SQLite folder holds a copy of its file. The
    source's databases must be closed."""
    if _current:
        _clone(_current["chosen"], source, copy)
