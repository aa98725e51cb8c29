"""SQLite files this app did not write (MBTiles, GeoPackage), checked before any library
reads them.

Such a file is a database whose tables may be views, and a view may be a query that never
ends (a recursive common table expression) or that would outlast anyone (a join of a few
small tables multiplied together). So the file is opened read-only, every statement run
on it is given a budget of SQLite's virtual-machine steps (a progress handler that stops
it), a view built on a common table expression is refused, every other view is counted
through under the budget (so that whatever reads it later, GDAL included, reads a view
known to end), and a trigger a file of imagery or layers does not need is refused.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from ..errors import Cancelled, InputError

# SQLite virtual-machine steps one opening of a file we did not write may cost us, all
# its statements together: about a second on an office computer. An honest MBTiles or
# GeoPackage has its tiles and features in tables (counting them is one step) or in plain
# views over tables (a few dozen steps a row: a million tiles fit); a view that needs
# more is one no person would wait for.
SQL_STEP_BUDGET = 100_000_000
_STEPS_PER_CALL = 10_000  # how often the progress handler is asked

SQLITE_HEADER = b"SQLite format 3\x00"

# Triggers the GeoPackage standard and GDAL write into every GeoPackage (the spatial
# index's, the tile matrix checks', the metadata checks' and GDAL's feature counts).
_GEOPACKAGE_TRIGGERS = re.compile(
    r"(rtree_|gpkg_|trigger_(insert|delete)_feature_count_)", re.IGNORECASE)
_STRINGS = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|`[^`]*`|\[[^\]]*\]")
_CTE = re.compile(r"\bWITH\b", re.IGNORECASE)


class ForeignDatabaseError(InputError):
    pass


def is_sqlite(path: Path) -> bool:
    """Whether the file begins as an SQLite database does."""
    try:
        with path.open("rb") as f:
            return f.read(len(SQLITE_HEADER)) == SQLITE_HEADER
    except OSError:
        return False


def _uri(path: Path) -> str:
    path = path.resolve()
    # Immutable (no locks, no journal looked for) unless a write-ahead log lies beside it:
    # then its committed pages are in that log, and SQLite must read them from there.
    wal = path.with_name(path.name + "-wal")
    return path.as_uri() + ("?mode=ro" if wal.exists() else "?mode=ro&immutable=1")


@contextmanager
def reading(path: Path, what: str,
            cancelled: Callable[[], bool] | None = None) -> Iterator[sqlite3.Connection]:
    """A read-only connection to a file we did not write, every statement on it stopped
    once they have together taken SQL_STEP_BUDGET steps (ForeignDatabaseError naming the
    file and the budget), or when `cancelled()` says so (Cancelled)."""
    try:
        conn = sqlite3.connect(_uri(path), uri=True)
    except sqlite3.Error:
        raise ForeignDatabaseError(f"{path}: cannot be opened as {what} (an SQLite "
                                   "file).") from None
    calls = 0
    stopped: list[str] = []

    def tick() -> int:
        nonlocal calls
        calls += 1
        if cancelled is not None and cancelled():
            stopped.append("cancelled")
            return 1
        if calls * _STEPS_PER_CALL > SQL_STEP_BUDGET:
            stopped.append("budget")
            return 1
        return 0

    conn.set_progress_handler(tick, _STEPS_PER_CALL)
    try:
        conn.execute("PRAGMA query_only = ON")
        conn.execute("PRAGMA trusted_schema = OFF")  # views may call only harmless functions
        yield conn
    except sqlite3.DatabaseError as exc:
        if stopped and stopped[-1] == "cancelled":
            raise Cancelled(f"{path}: reading it was cancelled; nothing was "
                            "imported.") from None
        if stopped:
            raise ForeignDatabaseError(
                f"{path}: reading it as {what} took more than the "
                f"{SQL_STEP_BUDGET:,} SQLite steps this app gives a file it did not write "
                "(a view in it would not end in any useful time), so it was refused and "
                "nothing was imported.") from None
        raise ForeignDatabaseError(f"{path}: cannot be read as {what} (the file is "
                                   f"damaged or is not what its name says: {exc}).") from None
    finally:
        conn.close()


def _schema(conn: sqlite3.Connection) -> list[tuple[str, str, str]]:
    return [(str(t), str(n), str(s or "")) for t, n, s in conn.execute(
        "SELECT type, name, sql FROM sqlite_master WHERE type IN ('view', 'trigger')")]


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def check(path: Path, what: str, *, geopackage: bool,
          cancelled: Callable[[], bool] | None = None) -> None:
    """Refuse, with one sentence naming the file, an SQLite file whose reading would not
    end: a view built on a common table expression, a view that cannot be read through
    within the budget, or a trigger that a file of `what` does not need (in a GeoPackage,
    the standard's and GDAL's own triggers are expected)."""
    with reading(path, what, cancelled) as conn:
        for kind, name, sql in _schema(conn):
            if kind == "trigger" and not (geopackage and _GEOPACKAGE_TRIGGERS.match(name)):
                raise ForeignDatabaseError(
                    f"{path}: has a trigger ({name}), which {what} does not need; this app "
                    "reads only files whose tables hold their data plainly, so it was "
                    "refused and nothing was imported.")
            if kind == "view" and _CTE.search(_STRINGS.sub(" ", sql)):
                raise ForeignDatabaseError(
                    f"{path}: \"{name}\" is a view built on a common table expression (a "
                    "query that may never end) where a table is expected; this app "
                    "refuses such a file and nothing was imported.")
        for kind, name, _ in _schema(conn):
            if kind == "view":
                conn.execute(f"SELECT count(*) FROM {_quoted(name)}").fetchone()
