"""Attachments as rows: photos and documents recorded on a parcel (their bytes are kept
in the data folder by SHA-256)."""

from __future__ import annotations

import sqlite3

from .rows import Row, rows


def attachments_of(conn: sqlite3.Connection, parcel_id: str) -> list[Row]:
    """The parcel's attachments, oldest first."""
    return rows(conn, "SELECT id, sha256, filename, media_type, size_bytes, caption, "
                      "created_at FROM attachments WHERE parcel_id = ? AND deleted_at IS NULL "
                      "ORDER BY created_at", (parcel_id,))


def photos_of(conn: sqlite3.Connection, parcel_id: str) -> list[Row]:
    """The parcel's photos (JPEG and PNG), oldest first: SHA-256, file name and caption."""
    return rows(conn, "SELECT sha256, filename, caption FROM attachments WHERE parcel_id = ? "
                      "AND deleted_at IS NULL AND media_type IN ('image/jpeg', 'image/png') "
                      "ORDER BY created_at", (parcel_id,))
