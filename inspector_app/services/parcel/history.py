"""A parcel's history: its change log together with the sync-conflict decisions made on it.

Resolving a conflict writes the chosen value like any edit, logged against the other
side's value so that the other device accepts it; read alone, that row looks like a
plain edit. Each row a decision wrote is marked here with the decision (who chose what,
between which values), and a decision that wrote nothing (a record kept as it was) gets
a row of its own, so the history shows every decision.
"""

from __future__ import annotations

import json
from typing import Any

from ...storage import change_log, contacts
from ..session.session import Session

_WHOLE_RECORD = ("(deleted)", "(record)")


def decisions(ws: Session, sbl: str) -> list[dict[str, Any]]:
    """The resolved sync conflicts of a parcel, oldest first."""
    return change_log.resolved_conflicts(ws.store.conn, ws.parcel_id(sbl))


def with_decisions(ws: Session, sbl: str, rows: list[dict[str, Any]]
                   ) -> list[dict[str, Any]]:
    """`rows` (from `changes`) with each conflict decision on its row."""
    out = [dict(r) for r in rows]
    by_key = {(r["table_name"], r["record_id"], r["field"], r["at"]): r for r in out}
    for d in decisions(ws, sbl):
        whole = d["field"] in _WHOLE_RECORD
        decision = {"choice": d["resolution"], "field": d["field"],
                    "local_value": d["local_value"], "incoming_value": d["incoming_value"],
                    "resolved_value": d["resolved_value"], "incoming_user": d["incoming_user"],
                    "incoming_device": d["device"]}
        row = by_key.get((d["table_name"], d["record_id"], None if whole else d["field"],
                          d["resolved_at"]))
        if row is not None:
            row["resolution"] = decision
            continue
        out.append({"seq": None, "at": d["resolved_at"], "user": d["resolved_by"],
                    "device": ws.store.device_name, "table_name": d["table_name"],
                    "record_id": d["record_id"], "op": "resolution",
                    "field": None if whole else d["field"], "old_value": None,
                    "new_value": None, "resolution": decision})
    out.sort(key=lambda r: r["at"])  # stable: a decision follows the rows of its moment
    return out


def parcel_history(ws: Session, sbl: str) -> list[dict[str, Any]]:
    """Every change to the parcel's records and every conflict decision, oldest first."""
    return with_decisions(ws, sbl, changes(ws, sbl))


def changes(ws: Session, sbl: str) -> list[dict[str, Any]]:
    """Every change to the parcel's records, oldest first: who, when, where, old -> new."""
    parcel_id = ws.parcel_id(sbl)
    rows = change_log.parcel_changes(ws.store.conn, parcel_id)
    for row in rows:
        for key in ("old_value", "new_value"):
            row[key] = None if row[key] is None else json.loads(row[key])
    # values this laptop cleared from its copy of the history (`storage.contacts`)
    by_seq = {r["seq"]: r for r in rows}
    for seq, paths in contacts.cleared_history(ws.store.conn, parcel_id):
        row = by_seq[seq]
        for path in paths:
            key, _, name = path.partition(".")
            if not name:
                row[key] = contacts.CLEARED
            elif isinstance(row[key], dict):
                row[key][name] = contacts.CLEARED
    return rows
