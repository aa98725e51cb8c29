from __future__ import annotations

import hashlib
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import sqlite_utils
from sqlite_utils.migrations import Migrations

from inspector_app.storage import database
from inspector_app.storage.database import (
    APPLICATION_ID,
    SCHEMA_VERSION,
    DatabaseRefused,
    list_backups,
    open_database,
)

FIXTURES = Path(__file__).parent.parent / "fixtures"
NOW = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _open(path: Path, now: datetime = NOW) -> sqlite_utils.Database:
    return open_database(path, backups=path.parent / "backups", now=lambda: now)


def test_new_database_has_identity_and_durable_settings(tmp_path: Path) -> None:
    db = _open(tmp_path / "inspector.sqlite")
    pragma = lambda name: db.conn.execute(f"PRAGMA {name}").fetchone()[0]  # noqa: E731
    assert pragma("application_id") == APPLICATION_ID
    assert pragma("user_version") == SCHEMA_VERSION
    assert pragma("journal_mode") == "wal"
    assert pragma("synchronous") == 2  # FULL
    assert pragma("foreign_keys") == 1
    assert pragma("trusted_schema") == 0
    assert {"parcels", "components", "inspections", "change_log", "letters",
            "shoreline_layers", "attachments"} <= set(db.table_names())
    db.conn.close()


def test_not_an_sqlite_file_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "inspector.sqlite"
    path.write_bytes(b"PK\x03\x04 this is a zip file, not a database" * 10)
    before = _digest(path)
    with pytest.raises(DatabaseRefused, match="is not a Watershed Inspector database"):
        _open(path)
    assert _digest(path) == before
    assert not (tmp_path / "inspector.sqlite-wal").exists()


def test_another_applications_database_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "inspector.sqlite"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE songs (title TEXT)")
    conn.execute("INSERT INTO songs VALUES ('Canandaigua Waltz')")
    conn.commit()
    conn.close()
    before = _digest(path)
    with pytest.raises(DatabaseRefused, match="another application"):
        _open(path)
    assert _digest(path) == before
    assert sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone()[0] == "delete"


def test_foreign_application_id_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "inspector.sqlite"
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA application_id = 1234")
    conn.execute("CREATE TABLE t (x)")
    conn.commit()
    conn.close()
    before = _digest(path)
    with pytest.raises(DatabaseRefused, match="application_id 0x4d2"):
        _open(path)
    assert _digest(path) == before


def test_database_from_a_newer_version_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "inspector.sqlite"
    _open(path).conn.close()
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    before = _digest(path)
    with pytest.raises(DatabaseRefused, match=rf"newer version.*schema {SCHEMA_VERSION + 1}"):
        _open(path)
    assert _digest(path) == before


@pytest.mark.parametrize("version", range(1, SCHEMA_VERSION + 1))
def test_every_schema_version_migrates_with_its_data(tmp_path: Path, version: int) -> None:
    """A database written by each released schema version opens, migrated, data intact."""
    fixture = FIXTURES / f"schema_v{version}.sql"
    assert fixture.exists(), f"schema version {version} has no fixture"
    path = tmp_path / "inspector.sqlite"
    conn = sqlite3.connect(path)
    conn.executescript(fixture.read_text("utf-8"))
    conn.close()
    db = _open(path)
    assert db.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    owners = [r[0] for r in db.conn.execute("SELECT owner_name FROM parcels ORDER BY sbl")]
    assert owners == ["Jane Roe", "Robert Whitaker"]
    assert db.conn.execute("SELECT count(*) FROM change_log").fetchone()[0] == 3
    assert db.conn.execute("SELECT count(*) FROM finding_decisions").fetchone()[0] == 0
    assert db.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert db.conn.execute("PRAGMA foreign_key_check").fetchall() == []
    migrated = [p for p in list_backups(tmp_path / "backups")
                if f"before-migration-from-v{version}" in p.name]
    assert len(migrated) == (1 if version < SCHEMA_VERSION else 0)


def test_pending_migration_is_preceded_by_a_backup(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "inspector.sqlite"
    _open(path).conn.close()

    migrations = Migrations("watershed-inspector")
    migrations._migrations = list(database.MIGRATIONS._migrations)

    @migrations(name="9999_test_addition")
    def _add(db: sqlite_utils.Database) -> None:
        db.execute("ALTER TABLE parcels ADD COLUMN flood_zone TEXT")
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")

    monkeypatch.setattr(database, "MIGRATIONS", migrations)
    monkeypatch.setattr(database, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
    db = _open(path)
    assert db.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION + 1
    assert "flood_zone" in db["parcels"].columns_dict
    backups = [p for p in list_backups(tmp_path / "backups") if "before-migration" in p.name]
    assert len(backups) == 1
    old = sqlite3.connect(backups[0])
    assert old.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert "flood_zone" not in [r[1] for r in old.execute("PRAGMA table_info(parcels)")]


def test_failed_migration_rolls_back_completely(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "inspector.sqlite"
    _open(path).conn.close()
    migrations = Migrations("watershed-inspector")
    migrations._migrations = list(database.MIGRATIONS._migrations)

    @migrations(name="9999_broken")
    def _broken(db: sqlite_utils.Database) -> None:
        db.execute("ALTER TABLE parcels ADD COLUMN flood_zone TEXT")
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
        raise RuntimeError("disk unplugged")

    monkeypatch.setattr(database, "MIGRATIONS", migrations)
    monkeypatch.setattr(database, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
    with pytest.raises(RuntimeError):
        _open(path)
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert "flood_zone" not in [r[1] for r in conn.execute("PRAGMA table_info(parcels)")]


def test_daily_backups_keep_the_last_ten(tmp_path: Path) -> None:
    path = tmp_path / "inspector.sqlite"
    _open(path).conn.close()  # a brand-new file: nothing to back up yet
    assert list_backups(tmp_path / "backups") == []
    moment = NOW
    for _ in range(13):
        moment += timedelta(days=1)
        db = _open(path, moment)
        db.conn.close()
        # the same day again: no second backup
        _open(path, moment + timedelta(hours=1)).conn.close()
    backups = list_backups(tmp_path / "backups")
    assert len(backups) == 10
    assert all(sqlite3.connect(b).execute("PRAGMA integrity_check").fetchone()[0] == "ok"
               for b in backups)
    assert not list((tmp_path / "backups").glob(".*tmp"))


def test_change_log_is_append_only(tmp_path: Path) -> None:
    db = _open(tmp_path / "inspector.sqlite")
    db.conn.execute(
        "INSERT INTO change_log (change_id, at, user, device_id, table_name, record_id, op,"
        " record_version) VALUES ('c1', 'now', 'u', 'd', 'parcels', 'r', 'insert', 1)")
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        db.conn.execute("UPDATE change_log SET user = 'someone else'")
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        db.conn.execute("DELETE FROM change_log")
