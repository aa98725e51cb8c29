"""The database schema, pinned: what a fresh data folder gets (tests/fixtures/schema_current.sql)
and what every older database becomes when today's code opens it (the same).

The dump is `sqlite_master` (type, name, tbl_name, sql; sorted), with `user_version` and
`application_id`, of a folder made through the command line. Moving the SQL around (a
refactor) must leave it byte for byte as it is. Only a NEW MIGRATION may change it, and the
same change then regenerates it:

    INSPECTOR_UPDATE_SCHEMA=1 .venv/bin/pytest tests/storage/test_schema_pin.py

(review the diff: it must be exactly what the new migration adds). Never regenerate it to
make a refactor pass.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path

import pytest

from inspector_app.__main__ import main

# the schema of the data folder's SQLite file, read from the file
pytestmark = pytest.mark.sqlite_only

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
PINNED_SCHEMA = FIXTURES / "schema_current.sql"
UPDATE = os.environ.get("INSPECTOR_UPDATE_SCHEMA") == "1"
HEADER = """\
-- The schema a fresh data folder gets: sqlite_master (type, name, tbl_name, sql), sorted.
-- Written by tests/storage/test_schema_pin.py; regenerate it ONLY with a new migration
-- (INSPECTOR_UPDATE_SCHEMA=1). Not a script to run: it is compared as text.
"""
SCHEMA_FIXTURES = sorted(FIXTURES.glob("schema_v*.sql"),
                         key=lambda p: int(p.stem.removeprefix("schema_v")))
WRITTEN_BY = sorted(FIXTURES.glob("written_by_*/*/inspector.sqlite"))


def schema_dump(database: Path) -> str:
    conn = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        application = conn.execute("PRAGMA application_id").fetchone()[0]
        rows = conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master "
                            "WHERE name NOT LIKE 'sqlite_stat%'").fetchall()
    finally:
        conn.close()
    lines = [HEADER, f"PRAGMA user_version = {version};",
             f"PRAGMA application_id = {application};", ""]
    for kind, name, table, sql in sorted(rows, key=lambda r: (r[0], r[1], r[2])):
        lines.append(f"-- {kind} {name} on {table}")
        lines.append(f"{sql};" if sql is not None else "-- (made by SQLite itself: no SQL)")
        lines.append("")
    # Trailing blanks are not schema (and editors strip them).
    return "\n".join(line.rstrip() for line in "\n".join(lines).splitlines()) + "\n"


def _open_with_the_cli(folder: Path) -> None:
    """Open the folder as an office would (any command migrates it first)."""
    assert main(["--user", "schema.checker", "--data-dir", str(folder), "parcels"]) == 0


@pytest.fixture
def fresh(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """The schema of a data folder the command line creates (a roll of one parcel)."""
    roll = tmp_path / "roll.csv"
    roll.write_text("sbl,municipality,site_address,owner_name,mailing_address_1\n"
                    "13.-3-1,Town of Gorham,1 Lake Rd,A. Owner,PO Box 1\n", "utf-8")
    folder = tmp_path / "fresh"
    assert main(["--user", "schema.checker", "--data-dir", str(folder), "parcels", "import",
                 str(roll)]) == 0
    capsys.readouterr()
    return schema_dump(folder / "inspector.sqlite")


def test_a_fresh_folder_has_the_pinned_schema(fresh: str) -> None:
    if UPDATE:
        PINNED_SCHEMA.write_text(fresh, "utf-8")
    assert PINNED_SCHEMA.is_file(), f"{PINNED_SCHEMA} is missing"
    assert fresh == PINNED_SCHEMA.read_text("utf-8"), (
        "a fresh data folder's schema differs from tests/fixtures/schema_current.sql; only "
        "a new migration may change it (see this module's docstring)")


@pytest.mark.parametrize("fixture", SCHEMA_FIXTURES, ids=lambda p: p.stem)
def test_an_older_database_migrates_to_the_fresh_schema(
        fixture: Path, fresh: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "old"
    folder.mkdir()
    conn = sqlite3.connect(folder / "inspector.sqlite")
    conn.executescript(fixture.read_text("utf-8"))
    conn.close()
    _open_with_the_cli(folder)
    capsys.readouterr()
    assert schema_dump(folder / "inspector.sqlite") == fresh


@pytest.mark.parametrize("database", WRITTEN_BY,
                         ids=lambda p: f"{p.parent.parent.name}/{p.parent.name}")
def test_a_folder_written_by_an_earlier_version_gets_the_fresh_schema(
        database: Path, fresh: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    folder = Path(shutil.copytree(database.parent, tmp_path / "pinned"))
    _open_with_the_cli(folder)
    capsys.readouterr()
    assert schema_dump(folder / "inspector.sqlite") == fresh


def test_the_fixtures_are_found() -> None:
    assert [p.stem for p in SCHEMA_FIXTURES][:1] == ["schema_v1"]
    assert WRITTEN_BY, "no folder written by an earlier version (tests/fixtures/written_by_*)"
