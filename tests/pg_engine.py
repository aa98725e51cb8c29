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
        self._make_template()

    def _make_template(self) -> None:
        import tempfile

        from inspector_app.services.office.database import init_office

        self._admin.execute(f"DROP DATABASE IF EXISTS {self.template} WITH (FORCE)")
        self._admin.execute(f"CREATE DATABASE {self.template} TEMPLATE template0 "
                            "ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'")
        with tempfile.TemporaryDirectory() as desk:
            init_office(self._url(self.template), Path(desk) / "desk", user="template")

    def new(self) -> str:
        name = f"{self._prefix}_{next(self._numbers)}"
        self._admin.execute(f"CREATE DATABASE {name} TEMPLATE {self.template}")
        self._made.append(name)
        return self._url(name)

    def drop_made(self) -> None:
        for name in self._made:
            self._admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        self._made.clear()

    def close(self) -> None:
        self.drop_made()
        self._admin.execute(f"DROP DATABASE IF EXISTS {self.template} WITH (FORCE)")
        self._admin.close()


def folders_on(offices: Offices, monkeypatch: Any) -> Iterator[None]:
    """Inside: a data folder opened for the first time is an office database."""
    from inspector_app.paths import DATABASE_NAME
    from inspector_app.services.session.session import Session

    chosen: dict[Path, str] = {}
    original = Session.__init__

    def opened(self: Session, root: Path, *, user: str | None = None, clock: Any = None,
               database: str | None = None) -> None:
        if database is None:
            key = Path(os.path.realpath(root))
            database = chosen.get(key)
            if database is None and not (root / DATABASE_NAME).exists():
                database = chosen[key] = offices.new()
        more = {} if clock is None else {"clock": clock}
        original(self, root, user=user, database=database, **more)

    monkeypatch.setattr(Session, "__init__", opened)
    try:
        yield
    finally:
        offices.drop_made()
