"""Kept summaries (`case_summaries`): derived data, one row per parcel, not records and
never in the change log. Triggers delete a parcel's row whenever a row its case is read
from changes."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence

# A kept summary: the rules, law and layer keys it was worked out under, and the summary
# (JSON text).
Kept = tuple[str, str, str, str]

# Parcel ids named in one statement (SQLite's default limit of parameters is 999).
_IDS_AT_ONCE = 900


def kept(conn: sqlite3.Connection, parcel_ids: Sequence[str] | None) -> dict[str, Kept]:
    """The kept summaries of the parcels named (None: of every parcel), by parcel id."""
    sql = "SELECT parcel_id, rules_key, law_key, layer_key, summary FROM case_summaries"
    if parcel_ids is None:
        return {r[0]: r[1:] for r in conn.execute(sql)}
    out: dict[str, Kept] = {}
    ids = list(parcel_ids)
    for start in range(0, len(ids), _IDS_AT_ONCE):
        part = ids[start:start + _IDS_AT_ONCE]
        out.update((r[0], r[1:]) for r in conn.execute(
            f"{sql} WHERE parcel_id IN ({','.join('?' * len(part))})", part))
    return out


def keep(conn: sqlite3.Connection, summaries: Iterable[tuple[str, str, str, str, str]]
         ) -> None:
    """Keep summaries (parcel id, rules key, law key, layer key, summary), each in place of
    the parcel's summary kept before; inside the caller's write transaction."""
    conn.executemany("INSERT INTO case_summaries (parcel_id, rules_key, law_key, layer_key, "
                     "summary) VALUES (?, ?, ?, ?, ?) ON CONFLICT (parcel_id) DO UPDATE SET "
                     "rules_key = excluded.rules_key, law_key = excluded.law_key, "
                     "layer_key = excluded.layer_key, summary = excluded.summary", summaries)
