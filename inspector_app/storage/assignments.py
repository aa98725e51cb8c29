"""Which parcels each laptop holds, revision by revision (schema version 9)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from typing import Any

from ..domain import registry
from .rows import rows


def events(conn: sqlite3.Connection, device_id: str) -> list[dict[str, Any]]:
    """At the office: a laptop's assignment changes, oldest first (revision, at, user,
    added, removed)."""
    return [{"revision": int(e["revision"]), "at": e["at"], "user": e["user"],
             "added": json.loads(e["added"]), "removed": json.loads(e["removed"])}
            for e in rows(conn, "SELECT revision, at, user, added, removed FROM "
                                "device_assignments WHERE device_id = ? AND parcels IS NULL "
                                "ORDER BY revision", (device_id,))]


def revision_held(conn: sqlite3.Connection, device_id: str) -> int:
    """At the office: the revision a laptop last said it holds."""
    row = conn.execute("SELECT assignment_held FROM devices WHERE id = ?",
                       (device_id,)).fetchone()
    return 0 if row is None else int(row[0])


def add_revision(conn: sqlite3.Connection, *, device_id: str, revision: int, at: str,
                 user: str, device_name: str, added: Sequence[str],
                 removed: Sequence[str]) -> None:
    """At the office: a new revision of a laptop's assignment."""
    conn.execute("INSERT INTO device_assignments (device_id, revision, at, user, device_name, "
                 "added, removed) VALUES (?, ?, ?, ?, ?, ?, ?)",
                 (device_id, revision, at, user, device_name, json.dumps(list(added)),
                  json.dumps(list(removed))))


def take(conn: sqlite3.Connection, *, revision: int, at: str, user: str, added: Sequence[str],
         removed: Sequence[str], parcels: Sequence[str], office_seq: int) -> None:
    """On a laptop: the assignment an office package states, kept as the newest."""
    this_id, this_name = conn.execute(
        "SELECT id, name FROM devices WHERE role = 'this'").fetchone()
    conn.execute("INSERT INTO device_assignments (device_id, revision, at, user, device_name, "
                 "added, removed, parcels, office_seq) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                 (this_id, revision, at, user, this_name, json.dumps(list(added)),
                  json.dumps(list(removed)), json.dumps(list(parcels)), office_seq))


def records_of(conn: sqlite3.Connection, table: str, parcel_ids: Sequence[str], *,
               active_layer: bool = False) -> list[dict[str, Any]]:
    """The rows of a synchronised table for these parcels (for shoreline layers: those
    their measurements were taken on, and with `active_layer` the active one), in the order
    they were written here, so that a copy made from them keeps it."""
    if table not in registry.SYNCED_TABLES:
        raise ValueError(f"{table!r} is not a table of records")
    marks = ",".join("?" * len(parcel_ids)) or "NULL"
    if table == "shoreline_layers":
        return rows(conn, "SELECT * FROM shoreline_layers WHERE "
                          f"{'active = 1 OR ' if active_layer else ''}id IN (SELECT "
                          "shoreline_layer_id FROM lake_measurements WHERE parcel_id IN "
                          f"({marks})) ORDER BY rowid", list(parcel_ids))
    key = "id" if table == "parcels" else "parcel_id"
    return rows(conn, f"SELECT * FROM {table} WHERE {key} IN ({marks}) ORDER BY rowid",
                list(parcel_ids))


def parcel_ids(conn: sqlite3.Connection) -> list[tuple[str, str]]:
    """Every parcel this copy holds: (id, SBL), by SBL."""
    return [(str(i), str(s)) for i, s in conn.execute("SELECT id, sbl FROM parcels ORDER BY "
                                                      "sbl")]


def last_own_change_to(conn: sqlite3.Connection, device_id: str, parcel_id: str) -> int:
    """The highest sequence number of this device's changes to a parcel."""
    return int(conn.execute("SELECT coalesce(max(device_seq), 0) FROM change_log WHERE "
                            "device_id = ? AND parcel_id = ?",
                            (device_id, parcel_id)).fetchone()[0])
