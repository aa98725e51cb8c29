"""`office_files`: an office database's settings files, by their path in a data folder."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable


def contents(conn: sqlite3.Connection, paths: Iterable[str]) -> dict[str, bytes]:
    """The contents of the settings files named: path -> content."""
    wanted = list(paths)
    if not wanted:
        return {}
    return {str(p): bytes(c) for p, c in conn.execute(
        f"SELECT path, content FROM office_files WHERE path IN "
        f"({','.join('?' * len(wanted))})", wanted)}


def digests(conn: sqlite3.Connection) -> dict[str, str]:
    """Every settings file kept: path -> SHA-256."""
    return {str(p): str(s) for p, s in conn.execute("SELECT path, sha256 FROM office_files")}


def keep(conn: sqlite3.Connection, files: Iterable[tuple[str, str, bytes]], *, at: str,
         by: str) -> None:
    """Keep files (path, SHA-256, content), each in place of the one kept before; inside
    the caller's write transaction."""
    conn.executemany(
        "INSERT INTO office_files (path, sha256, content, stored_at, stored_by) VALUES "
        "(?, ?, ?, ?, ?) ON CONFLICT (path) DO UPDATE SET sha256 = excluded.sha256, "
        "content = excluded.content, stored_at = excluded.stored_at, "
        "stored_by = excluded.stored_by", [(p, s, c, at, by) for p, s, c in files])


def forget(conn: sqlite3.Connection, paths: Iterable[str]) -> None:
    """Files no longer kept (a desk's folder no longer has them after a change)."""
    conn.executemany("DELETE FROM office_files WHERE path = ?", [(p,) for p in paths])
