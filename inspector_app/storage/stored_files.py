"""The bytes of the files records name by SHA-256 (photos, documents, signatures), kept in
an office database (`stored_files`, schema 19); a data folder's SQLite file keeps them
under attachments/ instead and leaves the table empty."""

from __future__ import annotations

from typing import Any


def store(conn: Any, sha256: str, data: bytes, at: str) -> bool:
    """Keep a file's bytes once (a file already kept is left as it is); True when it was
    new. Callers hold a transaction, the record's own where there is one."""
    cur = conn.execute("INSERT OR IGNORE INTO stored_files (sha256, bytes, size_bytes, "
                       "stored_at) VALUES (?, ?, ?, ?)", (sha256, data, len(data), at))
    return bool(cur.rowcount > 0)


def stored(conn: Any, sha256: str) -> bytes | None:
    """A file's bytes, or None when the database holds no file of that SHA-256 (or the
    login may not read it)."""
    row = conn.execute("SELECT bytes FROM stored_files WHERE sha256 = ?",
                       (sha256,)).fetchone()
    return None if row is None else bytes(row[0])


def is_stored(conn: Any, sha256: str) -> bool:
    return conn.execute("SELECT 1 FROM stored_files WHERE sha256 = ?",
                        (sha256,)).fetchone() is not None
