"""Reading rows as dictionaries."""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence
from typing import Any

Row = dict[str, Any]


def rows(conn: sqlite3.Connection, sql: str,
         params: Sequence[Any] | Mapping[str, Any] = ()) -> list[Row]:
    """The rows of a query, each a dictionary by column name."""
    cur = conn.execute(sql, params)
    names = [d[0] for d in cur.description]
    return [dict(zip(names, r, strict=True)) for r in cur.fetchall()]


def one(conn: sqlite3.Connection, sql: str,
        params: Sequence[Any] | Mapping[str, Any] = ()) -> Row | None:
    """The first row of a query, or None."""
    cur = conn.execute(sql, params)
    found = cur.fetchone()
    if found is None:
        return None
    return dict(zip([d[0] for d in cur.description], found, strict=True))
