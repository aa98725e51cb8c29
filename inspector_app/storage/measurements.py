"""Measurements kept as evidence: lake distances (`lake_measurements`) and lot-line
separations (`lot_measurements`). They are records, written through `RecordWriter`."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from .rows import Row, rows

# --- lake distances --------------------------------------------------------------------

def latest_map_distance(conn: sqlite3.Connection, parcel_id: str, layer_id: str
                        ) -> float | None:
    """The parcel's latest map distance on the shoreline layer, or None."""
    row = conn.execute(
        "SELECT distance_ft FROM lake_measurements WHERE parcel_id = ? AND method = 'map' "
        "AND shoreline_layer_id = ? AND deleted_at IS NULL ORDER BY created_at DESC LIMIT 1",
        (parcel_id, layer_id)).fetchone()
    return None if row is None else float(row[0])


def latest_map_distances(conn: sqlite3.Connection, layer_id: str) -> dict[str, float]:
    """Each parcel's latest map distance on the shoreline layer."""
    last: dict[str, float] = {}
    for parcel_id, distance_ft in conn.execute(
            "SELECT parcel_id, distance_ft FROM lake_measurements WHERE method = 'map' AND "
            "shoreline_layer_id = ? AND deleted_at IS NULL ORDER BY parcel_id, "
            "created_at DESC", (layer_id,)):
        last.setdefault(parcel_id, float(distance_ft))
    return last


# Map measurements that still hold what measuring the parcel again would find. Trusted are
# only those this data folder made itself (one received from another device was made from
# that device's records) and never changed since; fresh are those made after the layer's
# record last changed and after every change to the parcel's site features (their
# geometry, kind, order and capture, deletions included), which is all a map measurement
# reads. Decided by the order of the local change log, never by timestamps: records
# arrive from laptops whose clocks differ from this one's.
_FRESH_MAP = (
    "SELECT m.parcel_id, m.distance_ft FROM lake_measurements m CROSS JOIN change_log c "
    "ON c.record_id = m.id AND c.op = 'insert' AND c.table_name = 'lake_measurements' "
    "WHERE m.method = 'map' AND m.shoreline_layer_id = :layer AND m.deleted_at IS NULL "
    "AND c.device_id = :device AND c.seq > :layer_seq "
    "AND NOT EXISTS (SELECT 1 FROM change_log u WHERE u.record_id = m.id AND u.seq > c.seq) "
    "AND NOT EXISTS (SELECT 1 FROM change_log s WHERE s.parcel_id = m.parcel_id "
    "AND s.seq > c.seq AND s.table_name = 'site_features')")


def fresh_map_distances(conn: sqlite3.Connection, *, layer_id: str, device_id: str,
                        layer_seq: int) -> list[tuple[str, float]]:
    """(parcel id, distance) of each map measurement on the layer that still holds (above):
    made by `device_id` (this data folder) after the change-log entry `layer_seq` (the
    layer's latest) and after every change to its parcel's site features."""
    return [(str(pid), float(distance)) for pid, distance in conn.execute(
        _FRESH_MAP, {"layer": layer_id, "device": device_id, "layer_seq": layer_seq})]


def lake_measurements_of(conn: sqlite3.Connection, parcel_id: str) -> list[Row]:
    """The parcel's lake distances, oldest first, each with the layer it was measured on
    ("NAME vN", or None) and the capture accuracy of what it was measured from."""
    return rows(
        conn,
        "SELECT m.distance_ft, m.method, m.accuracy_ft, m.capture_accuracy_ft, m.measured_by,"
        " m.measured_on,"
        " CASE WHEN l.id IS NULL THEN NULL ELSE l.name || ' v' || l.layer_version END AS layer"
        " FROM lake_measurements m LEFT JOIN shoreline_layers l ON l.id = m.shoreline_layer_id"
        " WHERE m.parcel_id = ? AND m.deleted_at IS NULL ORDER BY m.measured_on, m.created_at",
        (parcel_id,))


# --- lot-line separations ----------------------------------------------------------------

def latest_lot_separations(conn: sqlite3.Connection, layer_id: str,
                           parcel_ids: Sequence[str] | None
                           ) -> dict[tuple[str, str, int], tuple[float, float]]:
    """Each parcel's latest lot-line separation of each component on the layer (of the
    parcels named, or all): (parcel, component, ordinal) -> (distance, accuracy)."""
    sql = ("SELECT parcel_id, component, ordinal, distance_ft, accuracy_ft FROM "
           "lot_measurements WHERE lot_layer_id = ? AND deleted_at IS NULL")
    params: list[object] = [layer_id]
    if parcel_ids is not None:
        sql += f" AND parcel_id IN ({','.join('?' * len(parcel_ids)) or 'NULL'})"
        params += parcel_ids
    out: dict[tuple[str, str, int], tuple[float, float]] = {}
    for pid, component, ordinal, distance, accuracy in conn.execute(
            sql + " ORDER BY created_at DESC, rowid DESC", params):
        out.setdefault((pid, component, int(ordinal)), (float(distance), float(accuracy)))
    return out


# Parcels whose lot-line separations on the layer still hold what measuring again would
# find: one of them was kept by this data folder itself (never changed since) after every
# change to the parcel's site features and components. Every row is kept by measuring all
# the parcel's located components at once, so the rows as of that one are all up to date;
# lot lines never change within a layer. Decided by the local change log's order.
_FRESH_LOT = (
    "SELECT DISTINCT m.parcel_id FROM lot_measurements m CROSS JOIN change_log c "
    "ON c.record_id = m.id AND c.op = 'insert' AND c.table_name = 'lot_measurements' "
    "WHERE m.lot_layer_id = :layer AND m.deleted_at IS NULL AND c.device_id = :device "
    "AND NOT EXISTS (SELECT 1 FROM change_log u WHERE u.record_id = m.id AND u.seq > c.seq) "
    "AND NOT EXISTS (SELECT 1 FROM change_log s WHERE s.parcel_id = m.parcel_id "
    "AND s.seq > c.seq AND s.table_name IN ('site_features', 'components'))")


def fresh_lot_parcels(conn: sqlite3.Connection, *, layer_id: str, device_id: str) -> set[str]:
    """The parcels whose lot-line separations on the layer still hold (above)."""
    return {r[0] for r in conn.execute(_FRESH_LOT, {"layer": layer_id, "device": device_id})}
