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


def ids_by_sbl(conn: sqlite3.Connection) -> dict[str, str]:
    """Every parcel's id by its SBL."""
    return {str(r[1]): str(r[0]) for r in conn.execute(
        "SELECT id, sbl FROM parcels WHERE deleted_at IS NULL")}
