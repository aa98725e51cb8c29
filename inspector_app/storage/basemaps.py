"""Basemaps (aerial imagery): records naming an image file, written through
`RecordWriter`. One is active at a time, or none."""

from __future__ import annotations

import sqlite3

from .records import RecordWriter
from .rows import Row, one, rows

# The folder of the data folder holding the copies of imagery, each named by its record.
FOLDER = "basemaps"


def basemaps(conn: sqlite3.Connection) -> list[Row]:
    """Every basemap, in the order imported."""
    return rows(conn, "SELECT * FROM basemaps WHERE deleted_at IS NULL "
                      "ORDER BY imported_at, created_at")


def basemap(conn: sqlite3.Connection, basemap_id: str) -> Row:
    found = one(conn, "SELECT * FROM basemaps WHERE id = ?", (basemap_id,))
    if found is None:
        raise KeyError(f"no basemap {basemap_id}")
    return found


def active_basemap(conn: sqlite3.Connection) -> Row | None:
    """The active basemap's record, or None."""
    return one(conn, "SELECT * FROM basemaps WHERE active = 1 AND deleted_at IS NULL")


def has_basemap(conn: sqlite3.Connection) -> bool:
    """Whether any basemap was ever stored (deleted ones included)."""
    return conn.execute("SELECT 1 FROM basemaps LIMIT 1").fetchone() is not None


def copies(conn: sqlite3.Connection) -> list[str]:
    """The paths (relative to the data folder) of every copy a basemap record names,
    deleted records' included."""
    return [str(p) for (p,) in conn.execute(
        "SELECT path FROM basemaps WHERE storage = 'copy'").fetchall()]


def make_active(w: RecordWriter, basemap_id: str | None) -> None:
    """Make one basemap the active one (None: none is), each change a recorded update."""
    for (old,) in w.conn.execute("SELECT id FROM basemaps WHERE active = 1").fetchall():
        if old != basemap_id:
            w.update("basemaps", old, {"active": 0})
    if basemap_id is not None:
        w.update("basemaps", basemap_id, {"active": 1})
