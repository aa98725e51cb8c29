"""Sync conflicts: listed with both values, and settled by a person."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from ...casefile.values import as_text, from_text
from ...errors import InputError, NotFoundError
from ...storage import conflicts as stored
from ...storage.sync_apply import (
    BYTES_REF,
    resolve_field,
)
from ..session.session import Session
from . import resolution

SECTION = {"parcels": "parcel", "dwellings": "dwelling", "renters": "renter",
           "components": "component", "inspections": "inspection", "systems": "system"}


def _value(text: str | None) -> Any:
    return None if text is None else json.loads(text)


def conflicts(ws: Session) -> list[dict[str, Any]]:
    rows = stored.waiting(ws.store.conn)
    return [{"sbl": r["sbl"], "field": f"{SECTION.get(r['table_name'], r['table_name'])}."
                                       f"{r['field']}",
             "local_value": _value(r["local_value"]),
             "incoming_value": _value(r["incoming_value"]),
             "id": r["id"], "table": r["table_name"], "record_id": r["record_id"],
             "base_value": _value(r["base_value"]), "device": r["device"] or r["device_id"],
             "incoming_user": r["incoming_user"], "incoming_at": r["incoming_at"]}
            for r in rows]


def open_conflicts(ws: Session, parcel_id: str) -> int:
    return stored.waiting_on(ws.store.conn, parcel_id)


def field_label(conflict: dict[str, Any]) -> str:
    """A conflict's field in words, as a `conflicts` entry names it: "Bedrooms"."""
    return resolution.label(conflict["table"], resolution.column_of(conflict["field"]))


def value_text(conflict: dict[str, Any], which: str = "local_value") -> str:
    """One of a conflict's values as a person would type it ("1 Main St; Naples NY")."""
    return as_text(conflict["table"], resolution.column_of(conflict["field"]),
                              conflict[which])


def _shown(value: Any) -> Any:
    if isinstance(value, bytes):
        return {BYTES_REF: hashlib.sha256(value).hexdigest()}
    return value


def resolve(ws: Session, conflict_id: str, *, choice: str, value: Any = None,
            text: str | None = None) -> dict[str, Any]:
    """Settle a conflict: keep the value here, take the other side's, or enter one.

    A value entered (`value`, or `text` as typed, read as the field's type) or taken from
    the other side must be one a case file could hold (`resolution`); one that is not is
    refused in words and changes nothing."""
    c = stored.by_id(ws.store.conn, conflict_id)
    if c is None:
        raise NotFoundError(f"No conflict {conflict_id!r}; `inspector-app sync conflicts` "
                            "lists them.",
                            in_app=f"No conflict {conflict_id!r}; Sync > Conflicts... lists "
                                   "the open ones.")
    if c["resolved_at"] is not None:
        raise InputError(f"Conflict {conflict_id} was already resolved by {c['resolved_by']} "
                         f"at {c['resolved_at']}.")
    if choice not in ("keep_local", "take_incoming", "enter_value"):
        raise InputError(f"{choice!r} is not a resolution (keep_local, take_incoming, "
                         "enter_value).")
    table, field = c["table_name"], c["field"]
    if choice == "enter_value" and text is not None and not field.startswith("("):
        value = from_text(table, field, text)
    incoming = _value(c["incoming_value"])
    today = ws.today()
    with ws.store.transaction() as w:
        if field == "(deleted)" and _value(c["local_value"]) == "deleted":
            # removed here, edited on the other side: the removal stays, or a person adds
            # the record again with the edit (a removed record is not brought back)
            if choice != "keep_local":
                raise InputError(
                    "This record was removed here while it was edited on the other device; "
                    "keep the removal, or add the record again in the case with the value "
                    f"from the other device ({_value(c['incoming_value'])}).")
            chosen: Any = "deleted"
        elif field == "(deleted)":
            if choice == "take_incoming":
                resolution.delete(w, table=table, record_id=c["record_id"], today=today)
            elif choice == "enter_value":
                raise InputError("A deleted-versus-edited conflict is resolved by keeping the "
                                 "record or deleting it, not by a value.")
            chosen = "deleted" if choice == "take_incoming" else "kept"
        elif field == "(record)":
            if choice != "keep_local":
                raise InputError("A record created on both sides keeps the local record; "
                                 "re-enter anything from the other one by hand.")
            chosen = "kept"
        else:
            def write(stored: Any) -> None:
                resolve_field(w, table=table, record_id=c["record_id"], field=field,
                              value=stored, conflict_id=conflict_id)

            if choice == "keep_local":
                chosen = w.current(table, c["record_id"])[field]
                write(chosen)
            else:
                chosen = resolution.put(
                    w, table=table, record_id=c["record_id"], column=field,
                    value=incoming if choice == "take_incoming" else value, today=today,
                    write=write)
        chosen = _shown(chosen)
        stored.resolve(w.conn, conflict_id, at=w.now, by=w.actor.user, choice=choice,
                       value_json=json.dumps(chosen))
    return {"id": conflict_id, "resolution": choice, "value": chosen}
