"""The parcels roll as rows: listing and looking up parcels."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

from ..domain.sbl import sbl_sort_key
from .cases import parcels_spelled
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
    """Whether the roll holds a parcel of this tax map number, in any spelling."""
    return bool(parcels_spelled(conn, sbl))


def ids_by_sbl(conn: sqlite3.Connection) -> dict[str, str]:
    """Every parcel's id by its SBL."""
    return {str(r[1]): str(r[0]) for r in conn.execute(
        "SELECT id, sbl FROM parcels WHERE deleted_at IS NULL")}


def worklist_rows(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    """Every parcel with what the work lists read besides its summary: id, SBL, address,
    owner, municipality, its last inspection's date, whether its system has a stamped
    as-built, and its first notice's deadlines (a JSON array [permit_by, complete_by])."""
    return rows(conn, (
        "SELECT p.id, p.sbl, p.site_address, p.owner_name, p.municipality,"
        " (SELECT max(date) FROM inspections i WHERE i.parcel_id = p.id AND"
        "   i.deleted_at IS NULL AND i.void_reason IS NULL) AS last_inspection,"
        " (SELECT stamped_as_built FROM systems s WHERE s.parcel_id = p.id AND"
        "   s.deleted_at IS NULL) AS stamped_as_built,"
        " (SELECT json_array(permit_by, complete_by) FROM notices n WHERE n.parcel_id = p.id"
        "   AND n.deleted_at IS NULL ORDER BY created_at, id LIMIT 1) AS notice"
        " FROM parcels p WHERE p.deleted_at IS NULL"))


def overview_rows(conn: sqlite3.Connection, sbls: Sequence[str] | None
                  ) -> list[dict[str, Any]]:
    """The parcels with these SBLs (None: every parcel) with what the parcel list shows
    besides their summaries: id, SBL, address, owner, municipality, whether a demo parcel,
    the last inspection's date and the number of unresolved sync conflicts."""
    where, params = "", []
    if sbls is not None:
        where = f" AND p.sbl IN ({','.join('?' * len(sbls)) or 'NULL'})"
        params = list(sbls)
    return rows(conn, (
        "SELECT p.id, p.sbl, p.site_address, p.owner_name, p.municipality, p.is_demo,"
        " (SELECT max(date) FROM inspections i WHERE i.parcel_id = p.id AND"
        "  i.deleted_at IS NULL AND i.void_reason IS NULL) AS last_inspection,"
        " (SELECT count(*) FROM sync_conflicts c WHERE c.parcel_id = p.id AND"
        "  c.resolved_at IS NULL) AS conflicts"
        " FROM parcels p WHERE p.deleted_at IS NULL") + where, params)


def report_rows(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    """Every parcel's id, SBL, municipality, address and location (longitude, latitude)."""
    return rows(conn, "SELECT id, sbl, municipality, site_address, longitude, latitude "
                      "FROM parcels WHERE deleted_at IS NULL")


def demo_locations(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    """The SBL, longitude and latitude of every demo parcel that has a location."""
    return rows(conn, "SELECT sbl, longitude, latitude FROM parcels WHERE is_demo = 1 AND "
                      "deleted_at IS NULL AND longitude IS NOT NULL AND latitude IS NOT NULL")


def locations(conn: sqlite3.Connection, parcel_ids: Sequence[str]) -> list[dict[str, Any]]:
    """The id, longitude and latitude of each of the parcels named that has a location."""
    return rows(conn, f"SELECT id, longitude, latitude FROM parcels WHERE id IN "
                      f"({','.join('?' * len(parcel_ids))}) AND longitude IS NOT NULL AND "
                      "latitude IS NOT NULL", list(parcel_ids))
