"""Reference layers: shoreline layers, lot layers and their lots (`lot_lines`).

A layer is a record (written through `RecordWriter`); its lots are kept exactly as imported
and never changed (`add_lot_lines`, `take_kit_lot_layer`). One layer of each kind is
active at a time.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Mapping
from typing import Any

from .records import RecordWriter
from .rows import Row, one, rows

# The layer tables; `active_layer_info` reads either.
SHORELINE_LAYERS, LOT_LAYERS = "shoreline_layers", "lot_layers"
_LAYER_TABLES = (SHORELINE_LAYERS, LOT_LAYERS)


def _layer_table(table: str) -> str:
    if table not in _LAYER_TABLES:
        raise ValueError(f"{table!r} is not a layer table")
    return table


# --- either kind ---------------------------------------------------------------------------

def active_layer_info(conn: sqlite3.Connection, table: str) -> Row | None:
    """The id, name, layer version and accuracy of a layer table's active layer."""
    return one(conn, f"SELECT id, name, layer_version, accuracy_ft FROM {_layer_table(table)} "
                     "WHERE active = 1 AND deleted_at IS NULL")


def active_record_versions(conn: sqlite3.Connection) -> list[tuple[str, int] | None]:
    """The active shoreline layer and the active lot layer, each its id and record version
    (None: no layer of that kind is active)."""
    out: list[tuple[str, int] | None] = []
    for table in _LAYER_TABLES:
        row = conn.execute(f"SELECT id, version FROM {table} WHERE active = 1 AND "
                           "deleted_at IS NULL").fetchone()
        out.append(None if row is None else (row[0], row[1]))
    return out


def next_layer_version(conn: sqlite3.Connection, table: str, name: str) -> int:
    """The version a new layer of this name gets: one more than the layers so named."""
    return 1 + int(conn.execute(f"SELECT count(*) FROM {_layer_table(table)} WHERE name = ?",
                                (name,)).fetchone()[0])


def deactivate_layers(w: RecordWriter, table: str) -> None:
    """No layer of the table is active any more (each change a recorded update)."""
    for (old_id,) in w.conn.execute(f"SELECT id FROM {_layer_table(table)} WHERE active = 1 "
                                    "AND deleted_at IS NULL").fetchall():
        w.update(table, old_id, {"active": 0})


# --- shoreline layers ------------------------------------------------------------------------

def shoreline_layers(conn: sqlite3.Connection) -> list[Row]:
    """Every shoreline layer, oldest first."""
    return rows(conn, "SELECT * FROM shoreline_layers WHERE deleted_at IS NULL "
                      "ORDER BY imported_at, layer_version, rowid")


def shoreline_layer(conn: sqlite3.Connection, layer_id: str) -> Row:
    found = one(conn, "SELECT * FROM shoreline_layers WHERE id = ?", (layer_id,))
    if found is None:
        raise KeyError(f"no shoreline layer {layer_id}")
    return found


def shoreline_import_facts(conn: sqlite3.Connection, layer_id: str) -> Row | None:
    """Who imported a shoreline layer and when, and what far placement they confirmed
    (`far_confirmed`, None for none), without its geometry."""
    return one(conn, "SELECT imported_by, imported_at, far_confirmed FROM shoreline_layers "
                     "WHERE id = ?", (layer_id,))


def has_shoreline_layer(conn: sqlite3.Connection) -> bool:
    """Whether any shoreline layer was ever stored (deleted ones included)."""
    return conn.execute("SELECT 1 FROM shoreline_layers LIMIT 1").fetchone() is not None


def active_shoreline_layer(conn: sqlite3.Connection) -> Row | None:
    """The active shoreline layer's record, without its geometry."""
    return one(conn, "SELECT id, name, accuracy_ft, layer_version, version, geometry_kind "
                     "FROM shoreline_layers WHERE active = 1 AND deleted_at IS NULL")


def shoreline_geometry(conn: sqlite3.Connection, layer_id: str) -> Any:
    """A shoreline layer's geometry, as stored (GeoJSON text)."""
    return conn.execute("SELECT geometry FROM shoreline_layers WHERE id = ?",
                        (layer_id,)).fetchone()[0]


# --- lot layers and their lots -------------------------------------------------------------

def lot_layers(conn: sqlite3.Connection) -> list[Row]:
    """Every lot layer, oldest first."""
    return rows(conn, "SELECT * FROM lot_layers WHERE deleted_at IS NULL ORDER BY imported_at, "
                      "layer_version, rowid")


def lot_layer(conn: sqlite3.Connection, layer_id: str) -> Row:
    found = one(conn, "SELECT * FROM lot_layers WHERE id = ?", (layer_id,))
    if found is None:
        raise KeyError(f"no lot layer {layer_id}")
    return found


def active_lot_layer(conn: sqlite3.Connection) -> Row | None:
    """The active lot layer's record."""
    return one(conn, "SELECT id, name, layer_version, accuracy_ft, version FROM lot_layers "
                     "WHERE active = 1 AND deleted_at IS NULL")


def lot_layers_called(conn: sqlite3.Connection, name_or_id: str) -> list[Row]:
    """The lot layers with this id or name: the one with the id first, then by version,
    newest first."""
    return rows(conn, "SELECT * FROM lot_layers WHERE deleted_at IS NULL AND (id = ? OR "
                      "name = ?) ORDER BY id = ? DESC, layer_version DESC",
                (name_or_id, name_or_id, name_or_id))


def lot_layer_names(conn: sqlite3.Connection) -> set[str]:
    """The names of every lot layer ever stored."""
    return {r[0] for r in conn.execute("SELECT name FROM lot_layers")}


def is_active_lot_layer(conn: sqlite3.Connection, *, name: str, digest: str) -> bool:
    """Whether the active lot layer has this name and holds exactly the lots of `digest`."""
    return conn.execute("SELECT 1 FROM lot_layers WHERE active = 1 AND name = ? AND digest = ? "
                        "AND deleted_at IS NULL", (name, digest)).fetchone() is not None


def lots_of(conn: sqlite3.Connection, layer_id: str
            ) -> tuple[list[int], list[str | None], list[str | None], list[bytes]]:
    """A layer's lots in fid order: their fids, SBLs, parcels and geometries (WKB)."""
    fids: list[int] = []
    sbls: list[str | None] = []
    parcels: list[str | None] = []
    blobs: list[bytes] = []
    for fid, sbl, parcel_id, geometry in conn.execute(
            "SELECT fid, sbl, parcel_id, geometry FROM lot_lines WHERE layer_id = ? "
            "ORDER BY fid", (layer_id,)):
        fids.append(int(fid))
        sbls.append(sbl)
        parcels.append(parcel_id)
        blobs.append(geometry)
    return fids, sbls, parcels, blobs


def matched_lot_centres(conn: sqlite3.Connection) -> list[tuple[float, float]]:
    """The centre of each lot of the active lot layer matched to a parcel (its bounds'
    centre, in the layer's feet)."""
    return [(float(x), float(y)) for x, y in conn.execute(
        "SELECT (l.minx + l.maxx) / 2, (l.miny + l.maxy) / 2 FROM lot_lines l JOIN lot_layers "
        "y ON y.id = l.layer_id JOIN parcels p ON p.id = l.parcel_id WHERE y.active = 1 AND "
        "y.deleted_at IS NULL AND p.deleted_at IS NULL")]


def lot_geometries(conn: sqlite3.Connection, layer_id: str) -> dict[int, bytes]:
    """A layer's lots' geometries (WKB) by fid."""
    return {int(fid): blob for fid, blob in conn.execute(
        "SELECT fid, geometry FROM lot_lines WHERE layer_id = ?", (layer_id,))}


# A lot as stored: fid, SBL, parcel id, geometry (WKB) and its bounds.
LotRow = tuple[int, str | None, str | None, bytes, float, float, float, float]
_LOT_INSERT = ("INSERT INTO lot_lines (layer_id, fid, sbl, parcel_id, geometry, minx, miny, "
               "maxx, maxy) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")


def add_lot_lines(conn: sqlite3.Connection, layer_id: str, lots: Iterable[LotRow]) -> None:
    """Store lots of a layer (inside the transaction that stores the layer's record)."""
    conn.executemany(_LOT_INSERT, [(layer_id, *lot) for lot in lots])


def take_kit_lot_layer(conn: sqlite3.Connection, record: Mapping[str, Any],
                       lots: Iterable[LotRow]) -> None:
    """On a laptop joining from its kit (inside the join's transaction): the office's lot
    layer record, as the kit carries it, becomes the active layer, with its lots."""
    conn.execute("UPDATE lot_layers SET active = 0 WHERE active = 1")
    conn.execute(f"INSERT INTO lot_layers ({', '.join(record)}) VALUES "
                 f"({', '.join('?' * len(record))})", list(record.values()))
    add_lot_lines(conn, record["id"], lots)
