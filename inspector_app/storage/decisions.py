"""The inspector's decisions on suggested findings (`finding_decisions`): records, written
through `RecordWriter`."""

from __future__ import annotations

import sqlite3
from datetime import date
from typing import Any

from ..domain.rules import Decision, SuggestionStatus
from .rows import Row, one

TABLE = "finding_decisions"


def standing(conn: sqlite3.Connection, parcel_id: str) -> dict[str, Decision]:
    """The parcel's standing decisions by suggestion key (an undone one is not among them:
    it is pending)."""
    found = conn.execute(
        "SELECT suggestion_key, decision, decided_by, decided_on, note, defect, citation "
        "FROM finding_decisions WHERE parcel_id = ? AND deleted_at IS NULL",
        (parcel_id,)).fetchall()
    return {key: Decision(status=SuggestionStatus(decision), decided_by=by,
                          decided_on=date.fromisoformat(on), note=note, defect=defect,
                          citation=citation)
            for key, decision, by, on, note, defect, citation in found}


def standing_row(conn: sqlite3.Connection, parcel_id: str, key: str) -> Row | None:
    """The standing decision on one suggestion (id, decision, defect, citation, note)."""
    return one(conn, "SELECT id, decision, defect, citation, note FROM finding_decisions "
                     "WHERE parcel_id = ? AND suggestion_key = ? AND deleted_at IS NULL",
               (parcel_id, key))


def logged_decisions(conn: sqlite3.Connection, parcel_id: str) -> list[tuple[Any, ...]]:
    """(seq, at, device, decision id, op, new value) of each change-log entry that made a
    decision on the parcel (a new decision record, or a new value of its `decision`),
    oldest first."""
    return conn.execute(
        "SELECT seq, at, device_id, record_id, op, new_value FROM change_log "
        "WHERE parcel_id = ? AND table_name = ? AND (op = 'insert' OR (op = 'update' AND "
        "field = 'decision')) ORDER BY seq", (parcel_id, TABLE)).fetchall()
