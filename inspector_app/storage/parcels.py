"""The parcels roll as rows: listing and looking up parcels."""

from __future__ import annotations

import sqlite3
from typing import Any

from ..domain.sbl import sbl_sort_key
from .rows import rows


def listed(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    """Every parcel on the roll (SBL, municipality, site address, owner), by SBL."""
    found = rows(conn, "SELECT sbl, municipality, site_address, owner_name FROM parcels "
                       "WHERE deleted_at IS NULL")
    return sorted(found, key=lambda r: sbl_sort_key(r["sbl"]))


def has_demo(conn: sqlite3.Connection) -> bool:
    return bool(conn.execute("SELECT EXISTS (SELECT 1 FROM parcels WHERE is_demo = 1 AND "
                             "deleted_at IS NULL)").fetchone()[0])


def sbl_of(conn: sqlite3.Connection, parcel_id: str) -> str | None:
    row = conn.execute("SELECT sbl FROM parcels WHERE id = ?", (parcel_id,)).fetchone()
    return None if row is None else str(row[0])


def has_sbl(conn: sqlite3.Connection, sbl: str) -> bool:
    """Whether the roll holds a parcel of this tax map number."""
    return conn.execute("SELECT 1 FROM parcels WHERE sbl = ? AND deleted_at IS NULL",
                        (sbl,)).fetchone() is not None
