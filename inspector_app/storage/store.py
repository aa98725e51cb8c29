"""The data folder's database: one writer connection, transactions, device identity."""

from __future__ import annotations

import socket
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..domain.certified import certified_person
from ..errors import InputError, InspectorError
from ..paths import DataFolder
from . import basemaps as basemap_rows
from . import database, devices, office, postgres
from .database import backup, open_database
from .laptop_gate import LaptopGate
from .records import Actor, RecordWriter, new_id


class DiskFull(InspectorError):
    """The disk (or the database's size limit) is full; nothing of the step was saved."""


def _disk_full(exc: sqlite3.OperationalError, where: Path | str) -> Exception:
    if "full" in str(exc).lower():
        return DiskFull(f"The disk holding {where} is full: nothing of this step was saved "
                        "and everything saved before is intact. Free some space and try "
                        "again.")
    return exc


class DatabaseBusy(InspectorError):
    """Another program held the database for writing longer than this one waits."""


def _busy(exc: sqlite3.OperationalError, where: Path | str) -> Exception:
    if "locked" in str(exc).lower() or "busy" in str(exc).lower():
        return DatabaseBusy(f"Another program kept {where} busy writing for more than "
                            f"{database.BUSY_TIMEOUT_S:g} seconds, so nothing of this step "
                            "was saved; try again when it has finished.")
    return exc


class OfficeBackup(InputError):
    """An office database is backed up on its server, not by a desk."""


# The lock every writing transaction of an office database takes first (a number of the
# app's own, "WSHI" as in the data folder's SQLite application_id).
WRITE_LOCK = database.APPLICATION_ID


def _open_office(url: str) -> Any:
    conn = postgres.Connection(url)
    try:
        version = office.schema_version(conn)
        if version < database.SCHEMA_VERSION:
            office.upgrade(conn, version)
    except BaseException:
        conn.close()
        raise
    return conn


def utc_now_text(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="milliseconds")


class Store:
    """Owns the single writer connection of a data folder."""

    def __init__(self, folder: DataFolder, *, user: str,
                 clock: Callable[[], datetime] = lambda: datetime.now(UTC),
                 values_check: Callable[[str, str, Any], str | None] | None = None,
                 database: str | None = None) -> None:
        self.folder = folder
        self.clock = clock
        # None: the data folder's own SQLite file; else the office database's URL
        self.database = None if database is None else postgres.check_url(database)
        if self.database is not None:
            self._conn: Any = _open_office(self.database)
            self.db: Any = None
            folder.create(holds_database=False)
            folder.remove_debris()
            folder.restrict()
        else:
            folder.create()
            folder.remove_debris()
            try:
                self.db = open_database(folder.database, backups=folder.backups, now=clock)
            except sqlite3.OperationalError as exc:  # its backup of the day on a full disk
                raise _disk_full(exc, folder.root) from None
            self._conn = self.db.conn
            folder.restrict()
        # a copy a killed import left named by no record, and its work files
        folder.remove_orphans(basemap_rows.FOLDER, basemap_rows.copies(self.conn))
        self.device_id, self.device_name = self._ensure_device()
        # at an office database, who the login is (None: its owner, an administrator)
        self.person = None if self.database is None else office.me(self.conn)
        # a desk's login is the person working, as the change log records them
        self._login_person = None if self.person is None else office.who_is(self.conn)
        # a certified inspector's laptop is that person, whatever name is given
        inspector = devices.inspector_of(self.conn, self.device_id)
        self.fixed_person = None if inspector is None else certified_person(*inspector)
        self.actor = Actor(user=self._login_person or self.fixed_person or user,
                           device_id=self.device_id)
        # every value a transaction writes passes the fields' declared rules
        self.values_check = values_check

    def set_user(self, user: str) -> None:
        """Who makes the changes from the next transaction on (at an office database, the
        person its login was recorded as, and on a certified inspector's laptop that
        inspector, whatever is given)."""
        self.actor = Actor(user=self._login_person or self.fixed_person or user,
                           device_id=self.device_id)

    @property
    def conn(self) -> Any:
        return self._conn

    @property
    def reads_only(self) -> bool:
        """Whether the login may write nothing at all (a town's, at an office database)."""
        return self.person is not None and self.person["role"] == "town"

    @property
    def where(self) -> str:
        """Where the records are kept, as the user named it: the data folder's database
        file, or the office database (without a password)."""
        if self.database is None:
            return str(self.folder.database)
        return postgres.shown(self.database)

    @property
    def login(self) -> str | None:
        """The login this desk works as at an office database; None in a data folder's own
        file."""
        return None if self.database is None else str(self.conn.login)

    @property
    def described(self) -> str | None:
        """"office database watershed on officeserver"; None in a data folder's own file."""
        return None if self.database is None else postgres.described(self.database)

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _ensure_device(self) -> tuple[str, str]:
        row = self.conn.execute("SELECT id, name FROM devices WHERE role = 'this'").fetchone()
        if row:
            return str(row[0]), str(row[1])
        if self.database is not None:
            raise office.OfficeNotReady(
                f"The office database {self.where} has no device of its own; it was not "
                "made by `office init`.")
        device_id = new_id()
        name = socket.gethostname() or "this computer"
        with self.writing():
            self.conn.execute("INSERT INTO devices (id, name, role, created_at) VALUES (?,?,?,?)",
                              (device_id, name, "this", utc_now_text(self.clock())))
        return device_id, name

    def get_meta(self, key: str) -> str | None:
        row = self.conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        """Settings of this data folder; callers hold a transaction."""
        self.conn.execute("INSERT INTO meta (key, value) VALUES (?, ?) "
                          "ON CONFLICT(key) DO UPDATE SET value = excluded.value", (key, value))

    @contextmanager
    def writing(self) -> Iterator[None]:
        """A write transaction, taken at once (`BEGIN IMMEDIATE`): a second program
        writing waits for this one (up to `database.BUSY_TIMEOUT_S`) instead of failing
        halfway. Inside an open transaction, a savepoint."""
        conn = self.conn
        if conn.in_transaction:
            with self._savepoint():
                yield
            return
        try:
            self._begin_writing(database.BUSY_TIMEOUT_S)
        except sqlite3.OperationalError as exc:
            raise _busy(exc, self.where) from None
        with self._committed():
            yield

    def _savepoint(self) -> Any:
        return self.db.atomic() if self.db is not None else self.conn.savepoint()

    def _begin_writing(self, wait_s: float) -> None:
        """Begin a transaction holding the write lock, waiting up to `wait_s` for it.

        SQLite: `BEGIN IMMEDIATE`. PostgreSQL: one writer at a time as well, by a lock of
        the office's that every desk's writing transaction takes first; reading is never
        blocked. So what one transaction reads before it writes (the next letter number,
        the version a form was opened at) is what no other desk changes meanwhile."""
        if self.database is None:
            self.conn.execute("BEGIN IMMEDIATE")
            return
        self.conn.execute_native("BEGIN")
        try:
            self.conn.execute_native(f"SET LOCAL lock_timeout = {max(1, int(wait_s * 1000))}")
            self.conn.execute_native("SELECT pg_advisory_xact_lock(%s)", (WRITE_LOCK,))
        except BaseException:
            self.conn.execute_native("ROLLBACK")
            raise

    @contextmanager
    def writing_if_free(self, wait_s: float) -> Iterator[bool]:
        """A write transaction (True) when the write lock comes within `wait_s`, else a
        read transaction (False) instead of waiting `database.BUSY_TIMEOUT_S` for another
        program's write. Inside an open transaction, a savepoint of it (True)."""
        conn = self.conn
        if conn.in_transaction:
            with self.writing():
                yield True
            return
        if self.database is not None:
            free = not self.reads_only  # a town's login writes nothing
            if free:
                try:
                    self._begin_writing(wait_s)
                except sqlite3.OperationalError:
                    free = False
            if not free:
                conn.execute_native("BEGIN")
            with self._committed():
                yield free
            return
        conn.execute(f"PRAGMA busy_timeout = {int(wait_s * 1000)}")
        try:
            conn.execute("BEGIN IMMEDIATE")
            free = True
        except sqlite3.OperationalError:
            conn.execute("BEGIN")
            free = False
        finally:
            conn.execute(f"PRAGMA busy_timeout = {int(database.BUSY_TIMEOUT_S * 1000)}")
        with self._committed():
            yield free

    @contextmanager
    def _committed(self) -> Iterator[None]:
        """Commit the open transaction, or roll it back on any error."""
        conn = self.conn
        try:
            yield
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise

    @contextmanager
    def transaction(self, actor: Actor | None = None) -> Iterator[RecordWriter]:
        """One atomic unit of work: the records and their change log commit together."""
        writer = RecordWriter(self.conn, actor or self.actor, utc_now_text(self.clock()))
        writer.values_check = self.values_check
        if self.get_meta("sync_role") == "field":
            writer.gate = LaptopGate(self.conn, self.device_id, writer.actor.user, writer.now)
        try:
            with self.writing():
                yield writer
                writer.flush()
        except sqlite3.OperationalError as exc:
            full = _disk_full(exc, self.folder.root if self.database is None else self.where)
            raise (_busy(exc, self.where) if full is exc else full) from None

    def query(self, sql: str, params: Any = ()) -> list[dict[str, Any]]:
        cur = self.conn.execute(sql, params)
        names = [d[0] for d in cur.description]
        return [dict(zip(names, row, strict=True)) for row in cur.fetchall()]

    @contextmanager
    def foreign_keys_at_commit(self) -> Iterator[None]:
        """Inside a transaction: rows that arrive in any order (a kit's, table by table)
        have their foreign keys checked when the transaction commits."""
        self.conn.execute("PRAGMA defer_foreign_keys = ON")
        yield

    @contextmanager
    def erasing(self) -> Iterator[None]:
        """Writes whose old bytes must not stay in the file (a private key replaced): the
        pages they free are overwritten, and the write-ahead log is folded into the
        database file once they are done (a reader holding it back leaves it to the next
        checkpoint)."""
        self.conn.execute("PRAGMA secure_delete = ON")
        yield
        self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def backup_before(self, event: str) -> Path | None:
        """A copy of the data folder's database before a step that changes much (an
        import): the step can be undone by it. An office database is one transaction per
        step and is backed up on its server: None."""
        if self.database is not None:
            return None
        return self.backup_now(f"{database.EVENT_PREFIX}{event}")

    def backup_now(self, reason: str = "manual") -> Path:
        if self.database is not None:
            raise OfficeBackup(
                f"The office database {self.where} is backed up on its server, with pg_dump "
                "(docs/office-server.md); this desk keeps no copy of it.")
        try:
            return backup(self.conn, self.folder.backups, reason=reason, now=self.clock())
        except sqlite3.OperationalError as exc:
            raise _disk_full(exc, self.folder.backups) from None

    def integrity_ok(self) -> bool:
        if self.database is not None:
            return True  # the server checks its own pages (data checksums, amcheck)
        return bool(self.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok")
