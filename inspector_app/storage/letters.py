"""The letter register (`letters`): issued letters are records, written through
`RecordWriter`; triggers refuse any change to an issued letter but its printed stamp."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import date

from ..domain.records import REGISTER_TABLES
from .rows import Row, one, rows

# The register's tables, as SQL: changes to them are not changes to the records a letter or
# an attestation is made from.
REGISTER_SQL = "(" + ", ".join(f"'{t}'" for t in REGISTER_TABLES) + ")"


def register(conn: sqlite3.Connection, parcel_id: str | None = None) -> list[Row]:
    """The issued letters (of one parcel, or all) in the order issued, with the parcel's
    SBL; the recipient as stored (JSON text)."""
    sql = ("SELECT l.id, p.sbl, l.kind, l.letter_date, l.recipient, l.case_version, "
           "l.issued_by, l.issued_at, l.sha256, l.replaces_letter_id, l.printed_at, "
           "l.permit_by, l.complete_by, l.reply_by, l.pump_out_by, l.attestation_id, "
           "l.signature_sha256 "
           "FROM letters l JOIN parcels p ON p.id = l.parcel_id WHERE l.status = 'issued'")
    params: tuple[str, ...] = ()
    if parcel_id is not None:
        sql += " AND l.parcel_id = ?"
        params = (parcel_id,)
    return rows(conn, sql + " ORDER BY l.issued_at, l.id", params)


def letter(conn: sqlite3.Connection, letter_id: str) -> Row | None:
    """A letter's parcel, status, kind and date, or None."""
    return one(conn, "SELECT parcel_id, status, kind, letter_date FROM letters WHERE id = ?",
               (letter_id,))


def issued_pdf(conn: sqlite3.Connection, letter_id: str) -> Row | None:
    """An issued letter's PDF bytes and the SHA-256 recorded when it was issued, or None."""
    return one(conn, "SELECT pdf, sha256 FROM letters WHERE id = ? AND status = 'issued'",
               (letter_id,))


def printing(conn: sqlite3.Connection, letter_id: str) -> Row | None:
    """A letter's status and when it was first printed (None: not yet), or None when the
    register holds no such letter."""
    return one(conn, "SELECT status, printed_at FROM letters WHERE id = ? AND "
                     "deleted_at IS NULL", (letter_id,))


def where_filed(conn: sqlite3.Connection, letter_id: str) -> Row:
    """What a letter's file copy is named by: its kind, date and parcel's SBL."""
    found = one(conn, "SELECT l.kind, l.letter_date, p.sbl FROM letters l JOIN parcels p "
                      "ON p.id = l.parcel_id WHERE l.id = ?", (letter_id,))
    if found is None:
        raise KeyError(f"no letter {letter_id}")
    return found


def replacement_of(conn: sqlite3.Connection, letter_id: str) -> tuple[str, str] | None:
    """The first issued letter that replaces this one (its id and date), or None."""
    row = conn.execute("SELECT id, letter_date FROM letters WHERE replaces_letter_id = ? AND "
                       "status = 'issued' ORDER BY issued_at, id LIMIT 1",
                       (letter_id,)).fetchone()
    return None if row is None else (str(row[0]), str(row[1]))


def issued_from_same_records(conn: sqlite3.Connection, parcel_id: str, kind: str
                             ) -> list[Row]:
    """The parcel's issued letters of this kind made from the records as they stand (no
    change but to the register logged since their case version), newest first: id and
    date."""
    return rows(conn,
                "SELECT l.id, l.letter_date FROM letters l WHERE l.parcel_id = ? AND "
                "l.kind = ? AND l.status = 'issued' AND NOT EXISTS (SELECT 1 FROM change_log "
                "c WHERE c.parcel_id = l.parcel_id AND c.seq > l.case_version AND "
                f"c.table_name NOT IN {REGISTER_SQL}) ORDER BY l.issued_at DESC",
                (parcel_id, kind))


def latest_issued(conn: sqlite3.Connection, parcel_ids: Sequence[str] | None = None
                  ) -> dict[tuple[str, str], str]:
    """The date of the latest letter issued of each kind, by (parcel, kind), of the parcels
    named (None: of every parcel)."""
    sql = ("SELECT parcel_id, kind, max(letter_date) AS d FROM letters WHERE status = "
           "'issued'{} GROUP BY parcel_id, kind")
    if parcel_ids is None:
        found = rows(conn, sql.format(""))
    else:
        ids = list(parcel_ids)
        found = rows(conn, sql.format(
            f" AND parcel_id IN ({','.join('?' * len(ids)) or 'NULL'})"), ids)
    return {(r["parcel_id"], r["kind"]): r["d"] for r in found}


def issued_between(conn: sqlite3.Connection, start: date, end: date) -> list[Row]:
    """The letters issued (not deleted) dated from `start` to `end`: id, kind, date, the
    parcel and its municipality, the letter it replaces, and whether an issued correction
    dated by `end` replaces it (`replaced`, 1 or 0)."""
    return rows(conn,
                "SELECT l.id, l.kind, l.letter_date, p.municipality, l.parcel_id, "
                "l.replaces_letter_id, EXISTS (SELECT 1 FROM letters r WHERE "
                "r.replaces_letter_id = l.id AND r.status = 'issued' AND r.deleted_at IS NULL "
                "AND r.letter_date <= ?2) AS replaced FROM letters l JOIN parcels p ON p.id = "
                "l.parcel_id WHERE l.status = 'issued' AND l.deleted_at IS NULL AND "
                "l.letter_date BETWEEN ?1 AND ?2 ORDER BY l.letter_date, l.issued_at, l.id",
                (start.isoformat(), end.isoformat()))


def issued_dates(conn: sqlite3.Connection) -> list[Row]:
    """Every issued letter (not deleted): parcel, kind and date, by date then kind."""
    return rows(conn, "SELECT parcel_id, kind, letter_date FROM letters WHERE status "
                      "= 'issued' AND deleted_at IS NULL ORDER BY letter_date, kind")


_ISSUED = ("SELECT l.id, l.parcel_id, p.municipality, l.kind, l.letter_date, l.case_version, "
           "l.permit_by, l.complete_by, l.reply_by, l.pump_out_by, l.replaces_letter_id "
           "FROM letters l "
           "JOIN parcels p ON p.id = l.parcel_id WHERE l.status = 'issued' AND "
           "l.deleted_at IS NULL AND l.kind = ?")
_NOT_REPLACED = (" AND NOT EXISTS (SELECT 1 FROM letters r WHERE r.replaces_letter_id = l.id "
                 "AND r.status = 'issued' AND r.deleted_at IS NULL)")


def in_force(conn: sqlite3.Connection, kind: str, parcel_ids: Sequence[str] | None = None,
             *, replaced_too: bool = False) -> list[Row]:
    """The issued letters of a kind that no issued letter replaces (with `replaced_too`,
    those replaced as well) of the parcels named (None: of all), in the order issued: id,
    parcel and its municipality, date, case version, the dates kept with it (None where it
    sets none, or was issued before they were kept) and the letter it replaces."""
    sql = _ISSUED + ("" if replaced_too else _NOT_REPLACED)
    if parcel_ids is None:
        return rows(conn, sql + " ORDER BY l.issued_at, l.id", (kind,))
    ids = list(parcel_ids)
    return rows(conn, sql + f" AND l.parcel_id IN ({','.join('?' * len(ids)) or 'NULL'})"
                " ORDER BY l.issued_at, l.id", (kind, *ids))


def kept_dates(conn: sqlite3.Connection, letter_id: str) -> Row | None:
    """An issued letter's parcel, municipality, kind, date, case version and kept dates."""
    return one(conn, "SELECT l.id, l.parcel_id, p.municipality, l.kind, l.letter_date, "
                     "l.case_version, l.permit_by, l.complete_by, l.reply_by, l.pump_out_by, "
                     "l.replaces_letter_id FROM letters l JOIN parcels p ON p.id = "
                     "l.parcel_id WHERE l.id = ? AND l.status = 'issued'", (letter_id,))


def ids_starting(conn: sqlite3.Connection, prefix: str) -> list[str]:
    """The ids of the letters (not deleted) that begin with `prefix` (lower-case hex and
    dashes), at most three: enough to tell one from several."""
    escaped = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return [str(r[0]) for r in conn.execute(
        "SELECT id FROM letters WHERE id LIKE ? ESCAPE '\\' AND deleted_at IS NULL "
        "ORDER BY id LIMIT 3", (escaped + "%",))]


_SERVICE_COLUMNS = ("id, letter_id, event, method, article_number, delivered_to, posted_at, "
                    "signed_by, reason, event_date, recorded_by, created_at, device_id")


def service_of(conn: sqlite3.Connection, letter_ids: Sequence[str] | None = None
               ) -> dict[str, list[Row]]:
    """The service events of the letters named (None: of every letter), by letter, each
    letter's in the order they happened (by date, then as recorded)."""
    sql = f"SELECT {_SERVICE_COLUMNS} FROM letter_service WHERE deleted_at IS NULL"
    params: list[str] = []
    if letter_ids is not None:
        params = list(letter_ids)
        sql += f" AND letter_id IN ({','.join('?' * len(params)) or 'NULL'})"
    out: dict[str, list[Row]] = {}
    for r in rows(conn, sql + " ORDER BY event_date, created_at, rowid", params):
        out.setdefault(r["letter_id"], []).append(r)
    return out


def issued_in_force(conn: sqlite3.Connection, kinds: Sequence[str]) -> list[Row]:
    """The issued letters of these kinds that no issued letter replaces: id, kind, date,
    its parcel (id, SBL, municipality, site address and owner)."""
    marks = ",".join("?" * len(kinds)) or "NULL"
    return rows(conn,
                "SELECT l.id, l.parcel_id, l.kind, l.letter_date, p.sbl, p.municipality, "
                "p.site_address, p.owner_name FROM letters l JOIN parcels p ON p.id = "
                "l.parcel_id WHERE l.status = 'issued' AND l.deleted_at IS NULL AND "
                f"l.kind IN ({marks})" + _NOT_REPLACED + " ORDER BY l.letter_date, l.id",
                list(kinds))
