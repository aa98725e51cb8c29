"""A laptop's clearing of the contact data of parcels it no longer holds.

Once a parcel is no longer assigned to a laptop and the office has acknowledged every change
the laptop made to it, the laptop clears the owner's and the renters' telephone numbers and
e-mail addresses (and the renters' mailing addresses), the fields declared as contact data
(`Spec.contact`), in its own copy, its copy of their history included. That clearing writes
no change: nothing of it travels to the office. Each clearing is noted (`contact_clearings`:
when, by whom; `cleared_copies`: which history values it emptied); a parcel assigned again
gets its contact data back with its records.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from ..domain import registry
from ..domain.registry import Kind

# How the history shows a value this laptop cleared.
CLEARED = "(cleared on the laptop)"
# While a clearing is under way (inside its transaction), this row of `meta` lets the
# change log's contact values be set to null, and nothing else (migration 0009).
CLEARING_GUARD = "change_log_clearing"


def contact_fields() -> tuple[tuple[str, str, Any], ...]:
    """(table, column, the value it is cleared to) of every contact field."""
    return tuple((str(f.table), f.column, "[]" if f.kind is Kind.LIST else None)
                 for f in registry.contact_fields())


def open_clearings(conn: sqlite3.Connection) -> dict[str, int]:
    """The parcels whose contact data this copy no longer holds: parcel id -> clearing."""
    return {str(p): int(i) for p, i in conn.execute(
        "SELECT parcel_id, id FROM contact_clearings WHERE restored_at IS NULL")}


def cleared_sbls(conn: sqlite3.Connection) -> set[str]:
    """The tax map numbers of the parcels whose contact data this copy has cleared."""
    return {str(r[0]) for r in conn.execute(
        "SELECT sbl FROM contact_clearings WHERE restored_at IS NULL")}


def note_restored(conn: sqlite3.Connection, clearing: int, *, at: str, by: str) -> None:
    conn.execute("UPDATE contact_clearings SET restored_at = ?, restored_by = ? WHERE id = ?",
                 (at, by, clearing))


def clear_parcel(conn: sqlite3.Connection, parcel_id: str, sbl: str, *, at: str,
                 by: str) -> None:
    """Clear one parcel's contact data in the records and in this copy's history."""
    for table, column, empty in contact_fields():
        key = "id" if table == "parcels" else "parcel_id"
        conn.execute(f"UPDATE {table} SET {column} = ? WHERE {key} = ?", (empty, parcel_id))
    clearing = conn.execute(
        "INSERT INTO contact_clearings (parcel_id, sbl, cleared_at, cleared_by) "
        "VALUES (?, ?, ?, ?)", (parcel_id, sbl, at, by)).lastrowid
    assert clearing is not None
    _clear_history(conn, parcel_id, clearing)


def cleared_history(conn: sqlite3.Connection, parcel_id: str) -> list[tuple[int, list[str]]]:
    """The values this copy cleared from a parcel's history: (change-log number, which)."""
    return [(int(seq), json.loads(cleared)) for seq, cleared in conn.execute(
        "SELECT c.seq, k.cleared FROM cleared_copies k JOIN change_log c ON "
        "c.change_id = k.row_id WHERE k.table_name = 'change_log' AND c.parcel_id = ?",
        (parcel_id,))]


def _contact_columns(table: str) -> tuple[str, ...]:
    return tuple(c for t, c, _ in contact_fields() if t == table)


def _null_in_place(text: str | None, key: str) -> str | None:
    """A whole record's logged values (compact JSON) with the string value of `key` set to
    null and every other byte as it was; None if it holds no such value."""
    marker = json.dumps(key) + ":"
    start = -1 if text is None else text.find(marker)
    if text is None or start < 0:
        return None
    at = start + len(marker)
    try:
        value, end = json.JSONDecoder().raw_decode(text, at)
    except ValueError:
        return None
    if not isinstance(value, str):
        return None
    return text[:at] + "null" + text[end:]


def _clear_history(conn: sqlite3.Connection, parcel_id: str, clearing: int) -> None:
    """Empty the contact values of one parcel in this copy's change log and sync
    conflicts, noting each value emptied (`cleared_copies`)."""
    def note(table: str, row_id: str, paths: list[str]) -> None:
        conn.execute("INSERT INTO cleared_copies (clearing_id, table_name, row_id, cleared) "
                     "VALUES (?, ?, ?, ?)", (clearing, table, row_id, json.dumps(paths)))

    conn.execute("INSERT INTO meta (key, value) VALUES (?, ?)", (CLEARING_GUARD, parcel_id))
    try:
        rows = conn.execute(
            "SELECT change_id, table_name, op, field, old_value, new_value FROM change_log "
            "WHERE parcel_id = ? AND table_name IN ('parcels', 'renters') AND op IN "
            "('insert', 'update') ORDER BY seq", (parcel_id,)).fetchall()
        for change_id, table, op, field, old, new in rows:
            columns = _contact_columns(table)
            if op == "update":
                paths = [k for k, v in (("old_value", old), ("new_value", new))
                         if field in columns and v is not None]
                if paths:
                    conn.execute(f"UPDATE change_log SET {', '.join(f'{k} = NULL' for k in paths)}"
                                 " WHERE change_id = ?", (change_id,))
            else:
                paths = []
                for key in columns:
                    text = _null_in_place(new, key)
                    if text is not None:
                        conn.execute("UPDATE change_log SET new_value = ? WHERE change_id = ?",
                                     (text, change_id))
                        new, paths = text, [*paths, f"new_value.{key}"]
            if paths:
                note("change_log", change_id, paths)
    finally:
        conn.execute("DELETE FROM meta WHERE key = ?", (CLEARING_GUARD,))
    for cid, table, field, *values in conn.execute(
            "SELECT id, table_name, field, base_value, local_value, incoming_value, "
            "resolved_value FROM sync_conflicts WHERE parcel_id = ?", (parcel_id,)).fetchall():
        columns = _contact_columns(table)
        names = ("base_value", "local_value", "incoming_value", "resolved_value")
        out: dict[str, str | None] = {}
        paths = []
        for name, text in zip(names, values, strict=True):
            value = None if text is None else json.loads(text)
            if field in columns and value is not None:
                out[name], paths = None, [*paths, name]
            elif isinstance(value, dict):
                keys = [k for k in columns if value.get(k) is not None]
                if keys:
                    out[name] = json.dumps({**value, **dict.fromkeys(keys)})
                    paths += [f"{name}.{k}" for k in keys]
        if out:
            conn.execute(f"UPDATE sync_conflicts SET {', '.join(f'{k} = ?' for k in out)} "
                         "WHERE id = ?", [*out.values(), cid])
            note("sync_conflicts", cid, paths)
