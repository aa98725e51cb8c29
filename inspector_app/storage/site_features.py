"""What is located on the parcels' site maps (`site_features`, and components with a
geometry), read across parcels: the wells, the drawn geometries, the parcels with
something to measure."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

from .rows import Row, rows


def wells(conn: sqlite3.Connection, parcel_ids: Sequence[str] | None = None
          ) -> list[tuple[Any, ...]]:
    """(parcel id, SBL, geometry as GeoJSON text, capture accuracy, whether aquifer water
    enters it less than 50 ft below grade) of each well recorded on the parcels named
    (None: on every parcel), by parcel and then position."""
    sql = ("SELECT f.parcel_id, p.sbl, f.geometry, f.capture_accuracy_ft, f.shallow_aquifer "
           "FROM site_features f "
           "JOIN parcels p ON p.id = f.parcel_id WHERE f.kind = 'well' AND f.deleted_at IS NULL"
           " AND p.deleted_at IS NULL")
    params = list(parcel_ids or ())
    if parcel_ids is not None:
        sql += f" AND f.parcel_id IN ({','.join('?' * len(parcel_ids)) or 'NULL'})"
    return conn.execute(sql + " ORDER BY f.parcel_id, f.position", params).fetchall()


def drawn_geometries(conn: sqlite3.Connection, parcel_ids: Sequence[str]) -> list[Row]:
    """The parcel id and geometry (GeoJSON text) of each site feature drawn on the parcels
    named."""
    return rows(conn, f"SELECT parcel_id, geometry FROM site_features WHERE parcel_id IN "
                      f"({','.join('?' * len(parcel_ids))}) AND deleted_at IS NULL AND "
                      "geometry IS NOT NULL", list(parcel_ids))


def parcels_with_area_or_tank(conn: sqlite3.Connection) -> list[str]:
    """The parcels with an absorption area or a holding tank on their site map."""
    return [r[0] for r in conn.execute(
        "SELECT DISTINCT p.id FROM parcels p JOIN site_features f ON f.parcel_id = p.id "
        "WHERE p.deleted_at IS NULL AND f.deleted_at IS NULL AND f.kind IN "
        "('absorption_area', 'holding_tank')")]


def parcels_with_something_located(conn: sqlite3.Connection) -> list[str]:
    """The parcels with an absorption area or a holding tank on their site map, or a
    component with a geometry."""
    return [r[0] for r in conn.execute(
        "SELECT DISTINCT p.id FROM parcels p WHERE p.deleted_at IS NULL AND (EXISTS ("
        "SELECT 1 FROM site_features f WHERE f.parcel_id = p.id AND f.deleted_at IS NULL "
        "AND f.kind IN ('absorption_area', 'holding_tank')) OR EXISTS (SELECT 1 FROM "
        "components c WHERE c.parcel_id = p.id AND c.deleted_at IS NULL AND c.geometry "
        "IS NOT NULL))")]


def located_geometries(conn: sqlite3.Connection) -> list[str]:
    """Every geometry located on a parcel's site map (site features and components with a
    geometry, GeoJSON text), across the parcels not deleted."""
    return [r[0] for r in conn.execute(
        "SELECT f.geometry FROM site_features f JOIN parcels p ON p.id = f.parcel_id "
        "WHERE f.deleted_at IS NULL AND p.deleted_at IS NULL AND f.geometry IS NOT NULL "
        "UNION ALL SELECT c.geometry FROM components c JOIN parcels p ON p.id = c.parcel_id "
        "WHERE c.deleted_at IS NULL AND p.deleted_at IS NULL AND c.geometry IS NOT NULL")]
