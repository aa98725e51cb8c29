"""How much a data folder holds: whether it is new enough to become a laptop."""

from __future__ import annotations

import sqlite3
from typing import Any

from .rows import rows


def records_held(conn: sqlite3.Connection) -> int:
    """Changes recorded and parcels held: 0 in a folder nothing was ever done in."""
    return int(conn.execute("SELECT (SELECT count(*) FROM change_log) + (SELECT count(*) "
                            "FROM parcels)").fetchone()[0])


def every_change(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    return rows(conn, "SELECT * FROM change_log")


def every_shoreline_layer(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    return rows(conn, "SELECT * FROM shoreline_layers")


def tables_holding_rows(conn: sqlite3.Connection) -> list[str]:
    """The tables that hold any row (records and bookkeeping alike, and any a later schema
    adds)."""
    found = []
    for (table,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND "
                                 "name NOT LIKE 'sqlite_%'").fetchall():
        if conn.execute(f'SELECT EXISTS (SELECT 1 FROM "{table}")').fetchone()[0]:
            found.append(str(table))
    return found
