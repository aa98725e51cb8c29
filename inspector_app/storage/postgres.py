"""An office database on PostgreSQL, through psycopg 3: a connection that takes the
storage's statements as SQLite's connection does (translated by `dialect`), and says its
failures as SQLite's errors, so that nothing above `storage/` knows the engine.

Everything of psycopg lives here."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from decimal import Decimal
from typing import Any
from urllib.parse import quote, unquote, urlsplit

import psycopg
from psycopg import errors as pg_errors
from psycopg.adapt import Loader
from psycopg.conninfo import conninfo_to_dict
from psycopg.types.numeric import IntDumper

from ..errors import InputError
from . import dialect
from .database import reference_schema

SCHEMES = ("postgresql", "postgres")


class OfficeUnreachable(InputError):
    """The office database could not be reached or refused the login."""


def check_url(url: str) -> str:
    """The URL of an office database, or one sentence saying what is wrong with it."""
    text = url.strip()
    parts = urlsplit(text)
    if parts.scheme not in SCHEMES:
        what = f"{shown(url)!r} is not the address of a PostgreSQL office database; give one"
        raise InputError(
            f"--database {what} like postgresql://clerk@officeserver/watershed "
            "(docs/office-server.md).",
            in_app=f"The address {what} like postgresql://clerk@officeserver/watershed "
                   "(a login, the server, the database).")
    if not parts.path.strip("/") and "dbname=" not in parts.query:
        what = f"{shown(url)!r} names no database; add it after the server"
        raise InputError(
            f"--database {what}, as in postgresql://clerk@officeserver/watershed.",
            in_app=f"The address {what}, as in postgresql://clerk@officeserver/watershed.")
    return text


def with_password(url: str, password: str) -> str:
    """The URL with a password typed apart from it (to connect with, never to keep)."""
    parts = urlsplit(url)
    login = quote(unquote(parts.username or ""), safe="")
    server = parts.netloc.rpartition("@")[2]
    return parts._replace(netloc=f"{login}:{quote(password, safe='')}@{server}").geturl()


def described(url: str) -> str:
    """"office database watershed on officeserver": which database, on which server (a
    server reached through a local socket, or named by no host, is "this computer")."""
    try:
        given = conninfo_to_dict(url)
    except psycopg.Error:
        given = {}
    host = str(given.get("host") or "")
    server = "this computer" if not host or host.startswith("/") else host
    if given.get("port") and not host.startswith("/"):
        server += f":{given['port']}"
    return f"office database {given.get('dbname') or urlsplit(url).path.strip('/')} on {server}"


def shown(url: str) -> str:
    """The URL without a password, to show and record."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", "@", 1)
    return parts._replace(netloc=netloc).geturl()


def _reason(exc: psycopg.Error) -> str:
    """What the server or the network said, in one line, without libpq's framing."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    if "FATAL:" in text:
        text = text.split("FATAL:", 1)[1]
    for frame in ("connection failed: ", "connection is bad: "):
        text = text.removeprefix(frame)
    return text.strip().rstrip(".")


class _NumericLoader(Loader):
    """sum() and avg() of integers are NUMERIC in PostgreSQL: given back as SQLite does, an
    int when whole, else a float."""

    def load(self, data: Any) -> int | float:
        value = Decimal(bytes(data).decode())
        return int(value) if value == value.to_integral_value() else float(value)


def _as_sqlite_error(exc: psycopg.Error) -> Exception:
    message = (exc.diag.message_primary or str(exc)).strip()
    if isinstance(exc, pg_errors.IntegrityError | pg_errors.RaiseException):
        return sqlite3.IntegrityError(message)
    if isinstance(exc, pg_errors.LockNotAvailable | pg_errors.QueryCanceled
                  | pg_errors.DeadlockDetected | pg_errors.SerializationFailure):
        return sqlite3.OperationalError(f"database is locked: {message}")
    if isinstance(exc, pg_errors.DiskFull):
        return sqlite3.OperationalError(f"database or disk is full: {message}")
    if isinstance(exc, pg_errors.InsufficientPrivilege):
        return PermissionRefused(
            f"The office database refused this to your login: {message}; nothing was "
            "changed. Ask the office for a login whose role allows it "
            "(docs/office-server.md, \"People and roles\").")
    if isinstance(exc, psycopg.OperationalError):
        return sqlite3.OperationalError(message)
    return sqlite3.DatabaseError(message)


class PermissionRefused(sqlite3.DatabaseError, InputError):
    """The database refused the login's role this statement."""


class Cursor:
    """What a statement gave back, as `sqlite3.Cursor` shows it."""

    def __init__(self, cur: psycopg.Cursor[Any]) -> None:
        self._cur = cur
        # read once: psycopg makes the columns' descriptions anew at each reading
        self._description = cur.description
        names = [d.name for d in self._description or ()]
        # the row number PostgreSQL's tables carry for SQLite's rowid is not a column
        self._hide = names.index("rowid") if "rowid" in names else None

    @property
    def description(self) -> Any:
        found = self._description
        if self._hide is None or found is None:
            return found
        return [d for i, d in enumerate(found) if i != self._hide]

    @property
    def rowcount(self) -> int:
        return self._cur.rowcount

    def _shown(self, row: Any) -> Any:
        if self._hide is None or row is None:
            return row
        return row[:self._hide] + row[self._hide + 1:]

    def fetchone(self) -> Any:
        return self._shown(self._cur.fetchone()) if self._description else None

    def fetchall(self) -> list[Any]:
        if not self._description:
            return []
        return [self._shown(r) for r in self._cur.fetchall()]

    def fetchmany(self, size: int = 1) -> list[Any]:
        if not self._description:
            return []
        return [self._shown(r) for r in self._cur.fetchmany(size)]

    def __iter__(self) -> Iterator[Any]:
        return iter(self.fetchall())


Params = Sequence[Any] | Mapping[str, Any]


class _Rows:
    """A fixed answer, read as a cursor."""

    def __init__(self, rows: list[tuple[Any, ...]], name: str) -> None:
        self._rows = rows
        self.description = ((name, None, None, None, None, None, None),)
        self.rowcount = -1

    def fetchone(self) -> Any:
        return self._rows[0] if self._rows else None

    def fetchall(self) -> list[Any]:
        return list(self._rows)

    def __iter__(self) -> Iterator[Any]:
        return iter(self._rows)


class Connection:
    """One connection to the office database, used as the storage uses SQLite's: the
    storage's own statements, transactions begun and ended by statement."""

    engine = "postgresql"

    def __init__(self, url: str) -> None:
        self.url = url
        try:
            self._conn = psycopg.connect(url, autocommit=True, connect_timeout=15,
                                         application_name="watershed-inspector")
        except psycopg.Error as exc:
            raise OfficeUnreachable(
                f"The office database {shown(url)} could not be opened ({_reason(exc)}); "
                "check the address, the login and that the server is running "
                "(docs/office-server.md).") from None
        self._conn.adapters.register_dumper(bool, IntDumper)
        self._conn.adapters.register_loader("numeric", _NumericLoader)
        # No JIT compilation: the storage's statements read a few rows each, or a table
        # through a subquery per row whose estimated cost sets it off, and compiling costs
        # more than it saves (the work lists' read of 20,000 parcels: 0.9 s, 0.4 s without)
        self.execute_native("SET jit = off")
        self.total_changes = 0
        self._savepoints = 0
        self._trace: Callable[[str], object] | None = None

    def set_trace_callback(self, trace: Callable[[str], object] | None) -> None:
        """As SQLite's: `trace` is given each statement of the storage as it is run, in the
        storage's own words (None: no more)."""
        self._trace = trace

    # --- the statements ----------------------------------------------------------------

    def execute(self, sql: str, params: Params = ()) -> Any:
        if self._trace is not None:
            self._trace(sql)
        head = sql.lstrip()[:6].upper()
        if head == "PRAGMA":
            return self._pragma(sql.strip().rstrip(";"), params)
        if "sqlite_master" in sql:
            # what the schema is: the migrations' own answer (`database.reference_schema`)
            return reference_schema().execute(sql, params)
        # always with parameters, so that psycopg reads the doubled `%%` of the translation
        if dialect.numbered(sql):
            params = dialect.parameters_by_name(params)
        return self.execute_native(dialect.statement(sql), params if params else [])

    def _pragma(self, sql: str, params: Params) -> Any:
        """SQLite's PRAGMAs the storage says, as this engine does them."""
        words = sql.split(None, 1)[1].replace(" ", "")
        name, _, value = words.partition("=")
        name = name.lower()
        if name.startswith(("table_info(", "foreign_key_list(", "index_list(",
                            "index_info(", "table_xinfo(")):
            return reference_schema().execute(sql, params)
        if name == "defer_foreign_keys":
            mode = "DEFERRED" if value.upper() in ("ON", "1", "TRUE") else "IMMEDIATE"
            return self.execute_native(f"SET CONSTRAINTS ALL {mode}")
        if name == "busy_timeout" and value:
            return self.execute_native(f"SET lock_timeout = {int(value)}")
        if name == "integrity_check":
            return _Rows([("ok",)], "integrity_check")
        # page cache, secure delete and checkpoints are SQLite's file's own: nothing to do
        return _Rows([(0,)], name)

    def execute_native(self, sql: str, params: Params | None = None) -> Cursor:
        """A statement already in PostgreSQL's words (with parameters, `%` doubled)."""
        cur = self._conn.cursor()
        try:
            cur.execute(sql, params)
        except psycopg.Error as exc:
            raise _as_sqlite_error(exc) from None
        if cur.rowcount > 0 and cur.description is None:
            self.total_changes += cur.rowcount
        return Cursor(cur)

    def executemany(self, sql: str, seq: Any) -> Cursor:
        if self._trace is not None:  # as SQLite: once for each set of parameters
            seq = list(seq)
            for _ in seq:
                self._trace(sql)
        cur = self._conn.cursor()
        if dialect.numbered(sql):
            seq = [dialect.parameters_by_name(p) for p in seq]
        try:
            cur.executemany(dialect.statement(sql), seq)
        except psycopg.Error as exc:
            raise _as_sqlite_error(exc) from None
        if cur.rowcount > 0:
            self.total_changes += cur.rowcount
        return Cursor(cur)

    def copy_rows(self, table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]
                  ) -> None:
        """Many rows into a table at once (COPY)."""
        names = ", ".join(f'"{c}"' for c in columns)
        try:
            with self._conn.cursor() as cur, cur.copy(
                    f"COPY {table} ({names}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
        except psycopg.Error as exc:
            raise _as_sqlite_error(exc) from None

    # --- transactions ------------------------------------------------------------------

    @property
    def in_transaction(self) -> bool:
        status = self._conn.info.transaction_status
        return status != psycopg.pq.TransactionStatus.IDLE

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """One transaction: committed at the end of the block, rolled back on any error."""
        self.execute_native("BEGIN")
        try:
            yield
            self.execute_native("COMMIT")
        except BaseException:
            if self.in_transaction:
                self.execute_native("ROLLBACK")
            raise

    @contextmanager
    def savepoint(self) -> Iterator[None]:
        self._savepoints += 1
        name = f"sp{self._savepoints}"
        self.execute_native(f"SAVEPOINT {name}")
        try:
            yield
        except BaseException:
            if self.in_transaction:
                self.execute_native(f"ROLLBACK TO SAVEPOINT {name}")
            raise
        else:
            self.execute_native(f"RELEASE SAVEPOINT {name}")
        finally:
            self._savepoints -= 1

    @property
    def login(self) -> str:
        return str(self._conn.info.user)

    @property
    def database_name(self) -> str:
        return str(self._conn.info.dbname)

    def close(self) -> None:
        self._conn.close()
