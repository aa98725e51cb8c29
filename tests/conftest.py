from __future__ import annotations

import os

# Qt must be told before any QApplication exists; without a display it would abort the run.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# Windows built with the default settings store them here, never in the user's own.
import tempfile

os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="inspector-tests-config-")

import itertools
import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from inspector_app.services.workspace import Workspace
from tests.templates import Templates

if TYPE_CHECKING:
    from tests.pg_cluster import Cluster

FIXTURES = Path(__file__).parent / "fixtures"


class Clock:
    """A clock the test moves by hand."""

    def __init__(self, start: datetime) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **kwargs: float) -> None:
        self.now += timedelta(**kwargs)


@pytest.fixture
def clock() -> Clock:
    return Clock(datetime(2026, 11, 25, 15, 30, tzinfo=UTC))


@pytest.fixture
def workspace(tmp_path: Path, clock: Clock) -> Iterator[Workspace]:
    ws = Workspace(tmp_path / "data", user="k.olmsted", clock=clock)
    yield ws
    ws.close()


@pytest.fixture(scope="session")
def templates(tmp_path_factory: pytest.TempPathFactory) -> Templates:
    """Expensive data folders, built once per run and copied per test (tests/templates.py)."""
    return Templates(tmp_path_factory.mktemp("templates"))


def load_fixture(name: str) -> dict[str, Any]:
    return json.loads((FIXTURES / name).read_text("utf-8"))


@pytest.fixture
def contract_case() -> dict[str, Any]:
    return load_fixture("contract_example_case.json")


@pytest.fixture
def full_case() -> dict[str, Any]:
    return load_fixture("full_case.json")


@pytest.fixture(scope="session")
def pg_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    """A throwaway PostgreSQL cluster for this test process (tests/pg_cluster.py), started
    when a test first asks for it, so that the suites on SQLite pay nothing."""
    from tests import pg_cluster as clusters

    cluster = clusters.start(tmp_path_factory.mktemp("postgresql"))
    yield cluster
    cluster.stop()


_pg_databases = itertools.count(1)


@pytest.fixture
def pg_database(pg_cluster: Cluster) -> Iterator[str]:
    """The URL of a new, empty database (UTF8, C collation, PostGIS in it), dropped after."""
    name = f"test_{next(_pg_databases)}"
    url = pg_cluster.create_database(name)
    yield url
    pg_cluster.drop_database(name)


# --- the suites on PostgreSQL (tests/pg_engine.py) ---------------------------------------

@pytest.fixture(scope="session")
def _offices(request: pytest.FixtureRequest) -> Iterator[Any]:
    from tests.pg_engine import Offices

    cluster = request.getfixturevalue("pg_cluster")
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    offices = Offices(cluster.url, prefix=f"wi_{worker}")
    yield offices
    offices.close()


@pytest.fixture(autouse=True)
def _office_engine(request: pytest.FixtureRequest) -> Iterator[None]:
    from tests.pg_engine import folders_on, on_postgresql

    if not on_postgresql() or request.node.get_closest_marker("sqlite_only"):
        yield
        return
    # a patch of its own, which a test's `monkeypatch.undo()` leaves in place
    with pytest.MonkeyPatch.context() as patch:
        yield from folders_on(request.getfixturevalue("_offices"), patch)
