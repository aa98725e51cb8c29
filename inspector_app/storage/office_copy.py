"""A data folder's SQLite file copied into a new office database (`office import-folder`).

The folder's file is opened read-only and read in one read transaction: never migrated,
never written. The office database must hold nothing but what `office init` made (its own
device, the bundled lake line). The copy is one transaction: every table of the schema,
parents before children with the foreign keys checked at commit, rows in the order the
folder holds them, identity columns as they are and their sequences moved past them; the
tables' own triggers are held off for its length (so that the change log, the letters and
the summaries arrive exactly as the folder holds them, none refused, rewritten or cleared),
which needs the database's owner, the login that made it with `office init`. Each table is
then read back from both sides and compared by a digest made the same way (`digest`)."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

from ..errors import InputError, InspectorError
from ..paths import DATABASE_NAME
from . import office
from .database import APPLICATION_ID, SCHEMA_VERSION, SQLITE_HEADER, reference_schema
from .postgres import Connection, shown
from .store import WRITE_LOCK

# What `office init` puts in an office database besides its device: these `meta` keys are
# the office's own and stay; the bundled lake line (one shoreline layer and the change-log
# entry of its insert) is replaced by the folder's layers.
OFFICE_META = ("application", "schema_version")
INIT_MADE = ("meta", "devices", "shoreline_layers", "change_log")
ROWS_PER_COPY = 5000


class FolderRefused(InputError):
    """The folder cannot be copied into an office database; nothing was copied."""


class OfficeNotEmpty(InputError):
    """The office database holds records already; nothing was copied."""


class CopyDiffers(InspectorError):
    """A table read back from the office differs from the folder's; rolled back."""


# --- the schema: tables, their columns, their order --------------------------------------

@cache
def tables() -> tuple[str, ...]:
    """Every table of the schema, parents before children."""
    ref = reference_schema()
    names = [t for (t,) in ref.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
        "ORDER BY name")]
    parents = {t: {r[2] for r in ref.execute(f'PRAGMA foreign_key_list("{t}")')} - {t}
               for t in names}
    ordered: list[str] = []
    while len(ordered) < len(names):
        ordered += [t for t in names if t not in ordered and parents[t] <= set(ordered)]
    return tuple(ordered)


@cache
def columns(table: str) -> tuple[str, ...]:
    return tuple(r[1] for r in reference_schema().execute(f'PRAGMA table_info("{table}")'))


@cache
def key_columns(table: str) -> tuple[int, ...]:
    """The positions of the table's primary key among its columns (none: every column)."""
    info = reference_schema().execute(f'PRAGMA table_info("{table}")').fetchall()
    keyed = sorted((r[5], r[0]) for r in info if r[5])
    return tuple(i for _, i in keyed) or tuple(range(len(info)))


@cache
def identity_column(table: str) -> str | None:
    """The INTEGER PRIMARY KEY (an identity column on PostgreSQL), if the table has one."""
    info = reference_schema().execute(f'PRAGMA table_info("{table}")').fetchall()
    keys = [r for r in info if r[5]]
    if len(keys) == 1 and keys[0][2].upper() == "INTEGER":
        return str(keys[0][1])
    return None


def _names(table: str) -> str:
    return ", ".join(f'"{c}"' for c in columns(table))


# --- the folder, read only ---------------------------------------------------------------

def open_folder(root: Path) -> sqlite3.Connection:
    """The folder's database opened read-only, in a read transaction; or FolderRefused in
    one sentence: not a data folder, not ours, newer or older than this version, a
    laptop's."""
    path = root / DATABASE_NAME
    if not root.is_dir():
        raise FolderRefused(f"{root} is not a folder, so there is no data folder to copy; "
                            "nothing was copied.")
    if not path.is_file():
        raise FolderRefused(f"{root} is not a Watershed Inspector data folder (it holds no "
                            f"{DATABASE_NAME}); nothing was copied.")
    with path.open("rb") as f:
        header = f.read(100)
    if len(header) < 100 or not header.startswith(SQLITE_HEADER) \
            or int.from_bytes(header[68:72], "big") != APPLICATION_ID:
        raise FolderRefused(f"{path} is not a Watershed Inspector database; nothing was "
                            "copied.")
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?{_read_only_mode(path)}", uri=True,
                           isolation_level=None, check_same_thread=False)
    try:
        conn.execute("BEGIN")
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        if version > SCHEMA_VERSION:
            raise FolderRefused(
                f"{root} was written by a newer version of Watershed Inspector (schema "
                f"{version}; this version reads up to {SCHEMA_VERSION}); nothing was copied.")
        if version < SCHEMA_VERSION:
            raise FolderRefused(
                f"{root} has the schema of an earlier version ({version}; this version's is "
                f"{SCHEMA_VERSION}): open it once with this version first (which brings it "
                "up to date and keeps a backup), then copy it; nothing was copied.")
        role = conn.execute("SELECT value FROM meta WHERE key = 'sync_role'").fetchone()
        if role is not None and role[0] == "field":
            raise FolderRefused(
                f"{root} is a laptop's data folder (it joined an office from a field kit), "
                "and a laptop is not an office: copy the office's own data folder; nothing "
                "was copied.")
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise FolderRefused(f"{path} cannot be read as a database ({exc}); nothing was "
                            "copied.") from None
    except BaseException:
        conn.close()
        raise
    return conn


def _read_only_mode(path: Path) -> str:
    """How the folder's file is opened without a byte of the folder written. A file a
    program has open (its write-ahead log beside it) is read as SQLite shares it; a closed
    one as a file nothing changes (else SQLite would make its log and index files beside
    it): `folder_unchanged` checks after the copy that nothing did."""
    if Path(f"{path}-wal").exists():
        return "mode=ro"
    return "mode=ro&immutable=1"


def folder_state(src: sqlite3.Connection) -> tuple[Any, ...]:
    """What says the folder's file was not written: its size and time, and whether a
    program opened it since (its log beside it)."""
    path = Path(src.execute("PRAGMA database_list").fetchone()[2])
    stat = path.stat()
    return (stat.st_size, stat.st_mtime_ns, Path(f"{path}-wal").exists())


def folder_rows(src: sqlite3.Connection, table: str) -> Iterator[tuple[Any, ...]]:
    """The table's rows as the folder holds them, in the order they were inserted."""
    cur = src.execute(f'SELECT {_names(table)} FROM "{table}" ORDER BY rowid')
    while batch := cur.fetchmany(ROWS_PER_COPY):
        yield from batch


def folder_count(src: sqlite3.Connection, table: str) -> int:
    return int(src.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0])


# --- the office: empty, then filled ------------------------------------------------------

def office_holds(conn: Connection) -> dict[str, int]:
    """What the office holds beyond what `office init` made: rows by table (empty: it
    holds no records)."""
    held: dict[str, int] = {}
    for table in tables():
        if table in INIT_MADE:
            continue
        n = int(conn.execute_native(f'SELECT count(*) FROM "{table}"').fetchone()[0])
        if n:
            held[table] = n
    beyond = {
        "meta": ("SELECT count(*) FROM meta WHERE key NOT IN (%s, %s)", OFFICE_META),
        "devices": ("SELECT count(*) FROM devices WHERE role <> 'this'", ()),
        "shoreline_layers": ("SELECT greatest(count(*) - 1, 0) FROM shoreline_layers", ()),
        "change_log": ("SELECT count(*) FROM change_log WHERE table_name <> "
                       "'shoreline_layers' OR field IS NOT NULL", ()),
    }
    for table, (sql, params) in beyond.items():
        n = int(conn.execute_native(sql, params).fetchone()[0])
        if n:
            held[table] = n
    return held


def refuse_unless_empty(conn: Connection) -> None:
    held = office_holds(conn)
    if held:
        what = ", ".join(f"{n} {'row' if n == 1 else 'rows'} of {t}"
                         for t, n in sorted(held.items()))
        raise OfficeNotEmpty(
            f"The office database {shown(conn.url)} already holds records ({what}), and a "
            "folder is copied only into a new one made by `office init`; nothing was copied.")


@contextmanager
def copying(conn: Connection) -> Iterator[None]:
    """One transaction for the whole copy, holding the office's write lock, its foreign
    keys checked at commit and its tables' triggers held off; committed when the block
    ends, rolled back (nothing copied) on any error."""
    conn.execute_native("BEGIN")
    try:
        conn.execute_native("SET LOCAL lock_timeout = 10000")
        conn.execute_native("SELECT pg_advisory_xact_lock(%s)", (WRITE_LOCK,))
        refuse_unless_empty(conn)  # again, now that no desk writes
        conn.execute_native("SET CONSTRAINTS ALL DEFERRED")
        for table in tables():
            conn.execute_native(f'ALTER TABLE "{table}" DISABLE TRIGGER USER')
        for table in tables():
            if table == "meta":
                conn.execute_native("DELETE FROM meta WHERE key NOT IN (%s, %s)", OFFICE_META)
            else:
                conn.execute_native(f'DELETE FROM "{table}"')
        yield
        # the foreign keys checked now, before the triggers are back (a table's triggers
        # cannot change while checks of its rows are pending)
        conn.execute_native("SET CONSTRAINTS ALL IMMEDIATE")
        for table in tables():
            conn.execute_native(f'ALTER TABLE "{table}" ENABLE TRIGGER USER')
        conn.execute_native("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute_native("ROLLBACK")
        raise


def copy_table(src: sqlite3.Connection, conn: Connection, table: str) -> int:
    """The folder's rows of a table into the office's (inside `copying`); how many."""
    rows = folder_rows(src, table)
    if table == "meta":
        keys = columns("meta").index("key")
        rows = (r for r in rows if r[keys] not in OFFICE_META)
    n = 0
    batch: list[Sequence[Any]] = []
    for row in rows:
        batch.append(row)
        if len(batch) == ROWS_PER_COPY:
            conn.copy_rows(table, columns(table), batch)
            n += len(batch)
            batch = []
    if batch:
        conn.copy_rows(table, columns(table), batch)
        n += len(batch)
    identity = identity_column(table)
    if identity is not None and n:
        conn.execute_native(
            f"SELECT setval(pg_get_serial_sequence(%s, %s), "
            f'(SELECT max("{identity}") FROM "{table}"))', (table, identity))
    return n


def office_rows(conn: Connection, table: str) -> Iterator[tuple[Any, ...]]:
    where = " WHERE key NOT IN (%s, %s)" if table == "meta" else ""
    cur = conn.execute_native(f'SELECT {_names(table)} FROM "{table}"{where}',
                              OFFICE_META if where else None)
    while batch := cur.fetchmany(ROWS_PER_COPY):
        yield from batch


def office_count(conn: Connection, table: str) -> int:
    where = " WHERE key NOT IN (%s, %s)" if table == "meta" else ""
    return int(conn.execute_native(f'SELECT count(*) FROM "{table}"{where}',
                                   OFFICE_META if where else None).fetchone()[0])


# --- digests -----------------------------------------------------------------------------

def _canonical(value: Any) -> Any:
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return {"float": repr(value)}
    if isinstance(value, bytes | bytearray | memoryview):
        return {"hex": bytes(value).hex()}
    raise TypeError(f"a value of type {type(value).__name__} in a row")


def _order(value: Any) -> tuple[int, Any]:
    """A key that orders any column's values: NULL, numbers, text, bytes (SQLite's
    order), text by code point (its UTF-8 bytes) whatever the server's collation."""
    if value is None:
        return (0, 0)
    if isinstance(value, int | float):
        return (1, value)
    if isinstance(value, str):
        return (2, value)
    return (3, bytes(value))


def digest(table: str, rows: Iterator[Sequence[Any]]) -> str:
    """SHA-256 of a table's rows in primary-key order, each every column of the schema in
    its order, values canonical (bytes as hex, floats by repr, integers, text, NULL)."""
    keys = key_columns(table)
    lines = sorted(
        (tuple(_order(row[i]) for i in keys),
         json.dumps([_canonical(v) for v in row], ensure_ascii=False, separators=(",", ":")))
        for row in rows)
    h = hashlib.sha256()
    for _, line in lines:
        h.update(line.encode("utf-8") + b"\n")
    return h.hexdigest()


def stored_files_check(conn: Connection) -> list[str]:
    """The SHA-256 of every stored file whose bytes no longer hash to it (none: all
    intact)."""
    return [str(r[0]) for r in conn.execute_native(
        "SELECT sha256 FROM stored_files WHERE encode(sha256(bytes), 'hex') <> sha256")]


def office_version(conn: Connection) -> int:
    """The office database's schema version, brought up to this version's (refused when
    it is not an office or a newer one)."""
    version = office.schema_version(conn)
    if version < SCHEMA_VERSION:
        office.upgrade(conn, version)
    return SCHEMA_VERSION


def values_of(conn: Connection, table: str, column: str) -> set[str]:
    """The distinct values of a column (the SHA-256 the records name)."""
    return {str(r[0]) for r in conn.execute_native(
        f'SELECT DISTINCT "{column}" FROM "{table}" WHERE "{column}" IS NOT NULL')}
