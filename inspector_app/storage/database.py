"""Opening the database: identity checks, pragmas, migrations and backups.

A file is checked before anything is written to it: one that is not ours, or that a
newer version of the app wrote, is refused and left exactly as it was.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from functools import cache
from pathlib import Path

import sqlite_utils
from sqlite_utils.migrations import Migrations

from ..errors import InspectorError

APPLICATION_ID = 0x57534849  # "WSHI"
SQLITE_HEADER = b"SQLite format 3\x00"
DAILY_BACKUP_AGE = timedelta(hours=24)
# Backups are kept in three pools, each with its own bound, so that one kind never rotates
# out another (README, "The data folder"):
# - "daily", taken when the folder is opened and the last daily one is 24 hours old;
DAILY_BACKUPS_KEPT = 10
# - "before-*", taken before a migration or an import; one that holds the same data as
#   the newest of its pool (an import that failed and was tried again) is not taken again;
EVENT_BACKUPS_KEPT = 10
# - any other reason: "Back up the database now" and `inspector-app backup`.
MANUAL_BACKUPS_KEPT = 10
EVENT_PREFIX = "before-"
_STAMP = "%Y%m%dT%H%M%S%fZ"

MIGRATIONS = Migrations("watershed-inspector")


def _sql(name: str) -> str:
    return (Path(__file__).parent / "migrations" / name).read_text("utf-8")


# The schema, one frozen SQL file per version; a new version is a new file at the end.
SQL_MIGRATIONS = ("0001_initial", "0002_finding_decisions", "0003_component_geometry",
                  "0004_measurement_capture_accuracy", "0005_ahj_waiver", "0006_sync",
                  "0007_device_keys", "0008_key_history", "0009_assignments",
                  "0010_permit", "0011_case_summaries", "0012_basemaps_lots",
                  "0013_inspections_and_proposals", "0014_letter_deadlines",
                  "0015_letter_service", "0016_attestations",
                  "0017_holding_tank_discharge", "0018_shoreline_far_confirmed",
                  "0019_office_files", "0020_stored_files", "0021_received_records",
                  "0022_inspection_requests", "0023_certified_inspectors",
                  "0024_field_test_times", "0025_photo_evidence",
                  "0026_tank_measurements", "0027_setback_conditions")


def _sql_migration(name: str, version: int) -> Callable[[sqlite_utils.Database], None]:
    def migrate(db: sqlite_utils.Database) -> None:
        # executescript() would commit the open transaction; run statement by statement so
        # the whole step lands in the migration's transaction or not at all.
        for statement in _split_sql(_sql(f"{name}.sql")):
            db.execute(statement)
        db.execute(f"PRAGMA user_version = {version}")

    migrate.__name__ = f"migrate_{name}"
    return migrate


for _version, _name in enumerate(SQL_MIGRATIONS, start=1):
    MIGRATIONS(name=_name)(_sql_migration(_name, _version))

SCHEMA_VERSION = len(SQL_MIGRATIONS)


def migration_statements(version: int) -> list[str]:
    """The statements of the migration to `version` (1-based), in SQLite's words."""
    return _split_sql(_sql(f"{SQL_MIGRATIONS[version - 1]}.sql"))


@cache
def reference_schema(version: int = SCHEMA_VERSION) -> sqlite3.Connection:
    """An empty database in memory with the schema of `version`, made from the migrations:
    the one source of what the tables, columns, indexes and triggers are, whichever engine
    holds the records (an office on PostgreSQL asks it for `PRAGMA table_info` and the
    like). Read only."""
    conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    for v in range(1, version + 1):
        for statement in migration_statements(v):
            conn.execute(statement)
    conn.execute("PRAGMA query_only = ON")
    return conn

# The tables that hold no records: the change log and what sync keeps of its exchanges, the
# devices, the laptop's clearings, derived summaries, the lots of a lot layer (kept as
# imported), the bytes of files records name (an office database's), settings and the
# migrations' own. Every other table is a kind of record,
# declared field by field (`domain/registry`); `tests/test_registry.py` holds the two lists
# to the schema.
NOT_RECORDS = frozenset({
    "_sqlite_migrations", "meta", "change_log", "devices", "device_keys",
    "device_assignments", "sync_packages", "sync_received", "sync_conflicts",
    "contact_clearings", "cleared_copies", "case_summaries", "lot_lines",
    "parcel_proposals", "held_changes", "sqlite_sequence", "office_files", "stored_files"})


def _split_sql(script: str) -> list[str]:
    statements: list[str] = []
    current = ""
    for line in script.splitlines(keepends=True):
        if line.lstrip().startswith("--") and not current.strip():
            continue
        current += line
        if sqlite3.complete_statement(current):
            statements.append(current.strip())
            current = ""
    if current.strip():
        raise ValueError("the migration script ends in an unfinished statement")
    return statements


class DatabaseRefused(InspectorError):
    """The file is not ours or is too new; it was not touched."""


def _header_check(path: Path) -> None:
    """Refuse files that are not SQLite, or SQLite files of another application."""
    with path.open("rb") as f:
        header = f.read(100)
    if len(header) < 100 or not header.startswith(SQLITE_HEADER):
        raise DatabaseRefused(
            f"{path} is not a Watershed Inspector database (it is not an SQLite file); "
            "it was left untouched. Choose another data folder.")
    app_id = int.from_bytes(header[68:72], "big")
    if app_id not in (0, APPLICATION_ID):
        raise DatabaseRefused(
            f"{path} belongs to another application (SQLite application_id {app_id:#x}); "
            "it was left untouched. Choose another data folder.")


# How long a write waits for another program's write to finish before giving up.
BUSY_TIMEOUT_S: float = 10


def _connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False,
                           timeout=BUSY_TIMEOUT_S)
    conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
    return conn


def _identity_check(path: Path, conn: sqlite3.Connection) -> int:
    """Return the schema version of an acceptable file; raise for a foreign or newer one."""
    app_id = conn.execute("PRAGMA application_id").fetchone()[0]
    user_version = conn.execute("PRAGMA user_version").fetchone()[0]
    tables = conn.execute(
        "SELECT count(*) FROM sqlite_master WHERE type = 'table'").fetchone()[0]
    if app_id == 0 and tables:
        raise DatabaseRefused(
            f"{path} is an SQLite database of another application (it has tables but no "
            "Watershed Inspector identity); it was left untouched. Choose another data folder.")
    if app_id not in (0, APPLICATION_ID):
        raise DatabaseRefused(
            f"{path} belongs to another application (SQLite application_id {app_id:#x}); "
            "it was left untouched.")
    if user_version > SCHEMA_VERSION:
        raise DatabaseRefused(
            f"{path} was written by a newer version of Watershed Inspector (schema "
            f"{user_version}; this version reads up to {SCHEMA_VERSION}); it was left "
            "untouched. Install the newer version of the app.")
    return int(user_version)


def _configure(conn: sqlite3.Connection) -> None:
    mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
    if str(mode).lower() != "wal":
        raise InspectorError(f"The database could not switch to WAL journaling (got {mode}).")
    conn.execute("PRAGMA synchronous = FULL")
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute("PRAGMA trusted_schema = OFF")


@contextmanager
def page_cache(conn: sqlite3.Connection, *, mib: int) -> Iterator[None]:
    """A page cache of `mib` MiB inside the block (bulk writes: thousands of records and
    their indexes), the one before after it."""
    before = conn.execute("PRAGMA cache_size").fetchone()[0]
    conn.execute(f"PRAGMA cache_size = {-mib * 1024}")
    try:
        yield
    finally:
        conn.execute(f"PRAGMA cache_size = {int(before)}")


def table_definitions(conn: sqlite3.Connection, tables: Sequence[str]) -> list[str]:
    """The `CREATE TABLE` statements of the tables named, as the database holds them (to
    make a scratch database with the same tables)."""
    return [sql for (sql,) in conn.execute(
        f"SELECT sql FROM sqlite_master WHERE type = 'table' AND name IN "
        f"({','.join('?' * len(tables))})", list(tables))]


def backup(conn: sqlite3.Connection, folder: Path, *, reason: str,
           now: datetime | None = None) -> Path:
    """Write a consistent copy with VACUUM INTO a temporary file, then rename it into place.

    Keeps the newest copies of the reason's pool (`pool_of`). A "before-*" copy that holds
    exactly the data of the newest one of its pool is not written again: that one is
    returned."""
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    stamp = (now or datetime.now(UTC)).strftime(_STAMP)
    final = folder / f"inspector-{stamp}-{reason}.sqlite"
    temp = folder / f".{final.name}.tmp"
    pool = pool_of(final)
    try:
        temp.unlink(missing_ok=True)
        conn.execute("VACUUM INTO ?", (str(temp),))
        temp.chmod(0o600)  # a copy of the records: its owner's alone
        with temp.open("rb") as f:
            os.fsync(f.fileno())
        same = _newest_of(folder, pool)
        if pool == "event" and same is not None and _same_bytes(temp, same):
            temp.unlink()
            return same
        os.replace(temp, final)
    except BaseException:
        # a full disk or an interruption leaves no half-written copy behind
        temp.unlink(missing_ok=True)
        Path(f"{temp}-journal").unlink(missing_ok=True)
        raise
    _fsync_dir(folder)
    kept = {"daily": DAILY_BACKUPS_KEPT, "event": EVENT_BACKUPS_KEPT,
            "manual": MANUAL_BACKUPS_KEPT}[pool]
    for old in [p for p in list_backups(folder) if pool_of(p) == pool][:-kept]:
        old.unlink()
    return final


def list_backups(folder: Path) -> list[Path]:
    """Backups, oldest first (names sort by their UTC timestamp)."""
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.glob("inspector-*.sqlite") if p.is_file())


def pool_of(path: Path) -> str:
    """The pool a backup is kept in: "daily", "event" (before-*) or "manual"."""
    reason = path.name.removesuffix(".sqlite").split("-", 2)[-1]
    if reason == "daily":
        return "daily"
    return "event" if reason.startswith(EVENT_PREFIX) else "manual"


def _newest_of(folder: Path, pool: str) -> Path | None:
    backups = [p for p in list_backups(folder) if pool_of(p) == pool]
    return backups[-1] if backups else None


def _same_bytes(a: Path, b: Path) -> bool:
    if a.stat().st_size != b.stat().st_size:
        return False
    with a.open("rb") as fa, b.open("rb") as fb:
        while True:
            chunk = fa.read(1 << 20)
            if chunk != fb.read(1 << 20):
                return False
            if not chunk:
                return True


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _backup_time(path: Path) -> datetime:
    stamp = path.name.split("-")[1]
    return datetime.strptime(stamp, _STAMP).replace(tzinfo=UTC)


def _backup_is_due(folder: Path, now: datetime) -> bool:
    newest = _newest_of(folder, "daily")
    return newest is None or now - _backup_time(newest) >= DAILY_BACKUP_AGE


def open_database(path: Path, *, backups: Path,
                  now: Callable[[], datetime] = lambda: datetime.now(UTC)
                  ) -> sqlite_utils.Database:
    """Open (creating if needed) the app's database, migrated to SCHEMA_VERSION."""
    exists = path.exists() and path.stat().st_size > 0
    if exists:
        _header_check(path)
    elif not path.exists():
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    conn = _connect(path)
    try:
        try:
            version = _identity_check(path, conn)
        except sqlite3.DatabaseError as exc:
            raise DatabaseRefused(
                f"{path} cannot be read as a database ({exc}); it was left untouched.") from None
        _configure(conn)
        db = sqlite_utils.Database(conn)
        if version > 0 and MIGRATIONS.pending(db):
            backup(conn, backups, reason=f"before-migration-from-v{version}", now=now())
        if version == 0:
            conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        MIGRATIONS.apply(db)
        if version > 0 and _backup_is_due(backups, now()):
            backup(conn, backups, reason="daily", now=now())
        return db
    except BaseException:
        conn.close()
        raise
