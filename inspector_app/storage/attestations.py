"""Attestations of a report of findings (`attestations`): recorded through `RecordWriter`,
never changed or removed (triggers); the signature's bytes are kept in the data folder by
SHA-256, as attachments are.

An attestation travels with the letters to the laptops, but its `case_version` is a
position in the change log of the data folder that recorded it: only there can it be
judged in force (no change to the records since), so elsewhere it never is."""

from __future__ import annotations

import sqlite3

from .letters import REGISTER_SQL as _NOT_FINDINGS
from .rows import Row, one, rows

_COLUMNS = ("a.id, a.inspection_id, a.attester_name, a.attester_kind, a.attester_number, "
            "a.attested_on, a.signature_sha256, a.signature_source, a.signature_filename, "
            "a.signature_media_type, a.case_version, a.created_at")


def of_parcel(conn: sqlite3.Connection, parcel_id: str, device_id: str) -> list[Row]:
    """The parcel's attestations in the order recorded, each with who recorded it, whether
    it was recorded here (on `device_id`: `recorded_here`, 1 or 0) and whether the records
    changed since (`records_changed`: 1 or 0; 1 for one recorded elsewhere)."""
    return rows(conn, f"SELECT {_COLUMNS}, c.user AS recorded_by, a.device_id = ? AS "
                      "recorded_here, (a.device_id <> ? OR EXISTS (SELECT 1 FROM "
                      "change_log x WHERE x.parcel_id = a.parcel_id AND x.seq > "
                      f"a.case_version AND x.table_name NOT IN {_NOT_FINDINGS})) AS "
                      "records_changed FROM attestations a LEFT JOIN change_log c ON "
                      "c.record_id = a.id AND c.table_name = 'attestations' WHERE "
                      "a.parcel_id = ? AND a.deleted_at IS NULL ORDER BY a.rowid",
                (device_id, device_id, parcel_id))


def in_force(conn: sqlite3.Connection, parcel_id: str, inspection_id: str,
             device_id: str) -> Row | None:
    """The latest attestation of this inspection recorded here (on `device_id`) from the
    records as they stand (no change but to letters and attestations logged since), or
    None."""
    return one(conn, f"SELECT {_COLUMNS} FROM attestations a WHERE a.parcel_id = ? AND "
                     "a.inspection_id = ? AND a.device_id = ? AND a.deleted_at IS NULL AND "
                     "NOT EXISTS (SELECT 1 "
                     "FROM change_log x WHERE x.parcel_id = a.parcel_id AND x.seq > "
                     f"a.case_version AND x.table_name NOT IN {_NOT_FINDINGS}) ORDER BY "
                     "a.rowid DESC LIMIT 1", (parcel_id, inspection_id, device_id))


def latest_of(conn: sqlite3.Connection, parcel_id: str, inspection_id: str) -> Row | None:
    """The latest attestation of this inspection, whether or not the records changed
    since or it was recorded here, or None."""
    return one(conn, f"SELECT {_COLUMNS}, a.device_id FROM attestations a WHERE "
                     "a.parcel_id = ? AND a.inspection_id = ? AND a.deleted_at IS NULL "
                     "ORDER BY a.rowid DESC LIMIT 1", (parcel_id, inspection_id))


def enrolled_inspector(conn: sqlite3.Connection, inspection_id: str) -> Row | None:
    """The certified inspector whose laptop recorded this inspection (`inspector_name`,
    `inspector_certification`, the laptop's `name`), or None: the inspection was recorded
    here, or on a laptop not enrolled for a certified inspector."""
    return one(conn, "SELECT d.inspector_name, d.inspector_certification, d.name FROM "
                     "change_log c JOIN devices d ON d.id = c.device_id WHERE c.table_name = "
                     "'inspections' AND c.record_id = ? AND c.op = 'insert' AND "
                     "d.inspector_name IS NOT NULL ORDER BY c.seq LIMIT 1", (inspection_id,))
