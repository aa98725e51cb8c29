"""Inspection requests (`inspection_requests`): taken, cancelled (through `RecordWriter`, so
the change log says who, when and on which device) and read with their parcel, and the
inspections that may answer them. None is ever removed (a trigger)."""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence
from typing import Any

from .inspections import ON_RECORD
from .records import RecordWriter
from .rows import Row, one, rows

TABLE = "inspection_requests"
_COLUMNS = ("r.id, r.parcel_id, r.reason, r.due, r.requested_by, r.requested_on, "
            "r.cancelled_on, r.cancelled_by, r.cancel_reason, r.created_at, p.sbl, "
            "p.site_address, p.owner_name, p.municipality")
_FROM = f"FROM {TABLE} r JOIN parcels p ON p.id = r.parcel_id WHERE r.deleted_at IS NULL"


def _among(column: str, ids: Sequence[str] | None) -> tuple[str, list[str]]:
    if ids is None:
        return "", []
    return f" AND {column} IN ({','.join('?' * len(ids)) or 'NULL'})", list(ids)


def take(w: RecordWriter, parcel_id: str, values: Mapping[str, Any]) -> str:
    """Record a request of the parcel; its id."""
    return w.insert(TABLE, values, parcel_id=parcel_id)


def cancel(w: RecordWriter, request_id: str, *, on: str, by: str, reason: str) -> None:
    """Record the request withdrawn."""
    w.update(TABLE, request_id, {"cancelled_on": on, "cancelled_by": by,
                                 "cancel_reason": reason})


def of_parcels(conn: sqlite3.Connection, parcel_ids: Sequence[str] | None = None) -> list[Row]:
    """The requests of the parcels named (None: of every parcel), each with its parcel's
    SBL, site address, owner and municipality, by due date."""
    where, params = _among("r.parcel_id", parcel_ids)
    return rows(conn, f"SELECT {_COLUMNS} {_FROM}{where} ORDER BY r.due, p.sbl, r.created_at",
                params)


def by_id(conn: sqlite3.Connection, request_id: str) -> Row | None:
    return one(conn, f"SELECT {_COLUMNS} {_FROM} AND r.id = ?", (request_id,))


def inspections_of(conn: sqlite3.Connection, parcel_ids: Sequence[str] | None = None
                   ) -> dict[str, list[tuple[str, str]]]:
    """The inspections that count (not removed, not entered in error) of the parcels named
    (None: of every parcel with a request), as (id, date) by parcel, oldest first."""
    where, params = _among("parcel_id", parcel_ids)
    if parcel_ids is None:
        where = f" AND parcel_id IN (SELECT parcel_id FROM {TABLE})"
    out: dict[str, list[tuple[str, str]]] = {}
    for parcel_id, inspection_id, day in conn.execute(
            f"SELECT parcel_id, id, date FROM inspections WHERE {ON_RECORD}{where} "
            "ORDER BY date, created_at", params):
        out.setdefault(str(parcel_id), []).append((str(inspection_id), str(day)))
    return out
