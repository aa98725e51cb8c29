"""The office's settings (`office_settings`): records of this data folder alone, written
through `RecordWriter`, one per key."""

from __future__ import annotations

import sqlite3

from .rows import Row, one


def setting(conn: sqlite3.Connection, key: str) -> Row | None:
    """The setting's record (its `value` as stored text), or None when it was never set."""
    return one(conn, "SELECT value FROM office_settings WHERE key = ? AND deleted_at IS NULL",
               (key,))


def setting_id(conn: sqlite3.Connection, key: str) -> str | None:
    """The id of the setting's record (deleted or not), or None when there is none."""
    row = conn.execute("SELECT id FROM office_settings WHERE key = ?", (key,)).fetchone()
    return None if row is None else str(row[0])
