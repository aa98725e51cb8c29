"""Attachments as rows: photos and documents recorded on a parcel (their bytes are kept
in the data folder by SHA-256), each perhaps of one of its components and inspections."""

from __future__ import annotations

import json
import sqlite3

from .rows import Row, one, rows

_COLUMNS = ("id, sha256, filename, media_type, size_bytes, caption, inspection_id, "
            "component_id, taken_at, taken_latitude, taken_longitude, annotations, "
            "created_at")
PHOTO_TYPES = "media_type IN ('image/jpeg', 'image/png')"


def _read(r: Row) -> Row:
    r["annotations"] = json.loads(r["annotations"] or "[]")
    return r


def attachments_of(conn: sqlite3.Connection, parcel_id: str) -> list[Row]:
    """The parcel's attachments, oldest first (their marks as a list)."""
    return [_read(r) for r in rows(
        conn, f"SELECT {_COLUMNS} FROM attachments WHERE parcel_id = ? AND deleted_at IS NULL "
              "ORDER BY created_at", (parcel_id,))]


def photos_of(conn: sqlite3.Connection, parcel_id: str) -> list[Row]:
    """The parcel's photos (JPEG and PNG), oldest first, with what their camera wrote,
    their component and inspection, and their marks."""
    return [_read(r) for r in rows(
        conn, f"SELECT {_COLUMNS} FROM attachments WHERE parcel_id = ? AND deleted_at IS NULL "
              f"AND {PHOTO_TYPES} ORDER BY created_at", (parcel_id,))]


def attachment(conn: sqlite3.Connection, parcel_id: str, attachment_id: str) -> Row | None:
    """One of the parcel's attachments by its id, or None."""
    found = one(conn, f"SELECT {_COLUMNS} FROM attachments WHERE parcel_id = ? AND id = ? "
                      "AND deleted_at IS NULL", (parcel_id, attachment_id))
    return None if found is None else _read(found)


def component_ids(conn: sqlite3.Connection, parcel_id: str) -> list[tuple[str, str]]:
    """The parcel's components as (id, kind), in the order of its case: the Nth of a kind
    is the one `KIND#N` names."""
    return [(r["id"], r["kind"]) for r in rows(
        conn, "SELECT id, kind FROM components WHERE parcel_id = ? AND deleted_at IS NULL "
              "ORDER BY position", (parcel_id,))]


def inspection_on_parcel(conn: sqlite3.Connection, parcel_id: str,
                         inspection_id: str) -> bool:
    """Whether the inspection is one of the parcel's, not removed."""
    return one(conn, "SELECT 1 AS found FROM inspections WHERE parcel_id = ? AND id = ? AND "
                     "deleted_at IS NULL", (parcel_id, inspection_id)) is not None
