"""The providers the office knows (`providers`) and the documents it took in from them
(`received_documents`), both written through `RecordWriter`: a provider is never removed, a
received document never changed (triggers)."""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from typing import Any

from .records import RecordWriter
from .rows import Row, one, rows

_PROVIDER = "id, kind, name, number, company, valid_through, created_at, updated_at"


def listed(conn: sqlite3.Connection, kind: str | None = None) -> list[Row]:
    """The providers (of one kind, or all), by kind and number."""
    where = "deleted_at IS NULL" + (" AND kind = ?" if kind else "")
    return rows(conn, f"SELECT {_PROVIDER} FROM providers WHERE {where} ORDER BY kind, "
                      "number", (kind,) if kind else ())


def by_number(conn: sqlite3.Connection, kind: str, number: str) -> Row | None:
    """The provider of this kind and number (letters' case and spaces ignored), or None."""
    return one(conn, f"SELECT {_PROVIDER} FROM providers WHERE deleted_at IS NULL AND "
                     "kind = ? AND upper(replace(number, ' ', '')) = ?",
               (kind, number.replace(" ", "").upper()))


def add(w: RecordWriter, values: Mapping[str, Any]) -> str:
    return w.insert("providers", values, parcel_id=None)


def change(w: RecordWriter, provider_id: str, values: Mapping[str, Any]) -> bool:
    return w.update("providers", provider_id, values)


_DOCUMENT = ("id, sha256, kind, filename, media_type, size_bytes, received_on, imported_at, "
             "imported_by, records, refused")


def document(conn: sqlite3.Connection, sha256: str) -> Row | None:
    """The document taken in with this SHA-256, or None."""
    return one(conn, f"SELECT {_DOCUMENT} FROM received_documents WHERE sha256 = ?",
               (sha256,))


def documents(conn: sqlite3.Connection, sha256s: list[str]) -> dict[str, Row]:
    """The documents taken in with these SHA-256s, by SHA-256."""
    if not sha256s:
        return {}
    found = rows(conn, f"SELECT {_DOCUMENT} FROM received_documents WHERE sha256 IN "
                       f"({', '.join('?' * len(sha256s))})", sha256s)
    return {r["sha256"]: r for r in found}


def all_documents(conn: sqlite3.Connection) -> list[Row]:
    return rows(conn, f"SELECT {_DOCUMENT} FROM received_documents ORDER BY imported_at, id")


def record_document(w: RecordWriter, values: Mapping[str, Any]) -> str:
    return w.insert("received_documents", values, parcel_id=None)


def service_reports(conn: sqlite3.Connection) -> list[Row]:
    """Every parcel's ETU service reports with the parcel's SBL, address, owner and
    municipality, by parcel in the order on record (for the work lists and the program
    report: the unit's state and the service contract as reported)."""
    return rows(conn, "SELECT p.id AS parcel_id, p.sbl, p.site_address, p.owner_name, "
                      "p.municipality, e.inspection_date, e.report_received, "
                      "e.provider_number, e.provider_name, e.unit, e.fully_functional, "
                      "e.service_contract_through, e.document FROM etu_reports e JOIN "
                      "parcels p ON p.id = e.parcel_id WHERE e.deleted_at IS NULL AND "
                      "p.deleted_at IS NULL ORDER BY p.id, e.position")


def pump_out_records(conn: sqlite3.Connection) -> list[Row]:
    """Every parcel's pump-outs with the SBL and municipality (for the program report)."""
    return rows(conn, "SELECT p.id AS parcel_id, p.municipality, o.date, o.record_received, "
                      "o.record_received_on, o.volume_gal, o.hauler_permit, o.document FROM "
                      "pump_outs o JOIN parcels p ON p.id = o.parcel_id WHERE o.deleted_at IS "
                      "NULL AND p.deleted_at IS NULL ORDER BY p.id, o.date")
