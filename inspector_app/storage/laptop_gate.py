"""A laptop's edits checked at the moment they are made, by the policy the office applies
when they arrive (`domain.authority`), in the same words: a laptop never records a change
its office would refuse, so no change of its can block the ones after it.

What the laptop holds: the parcels of the newest assignment its office sent (before any,
every parcel its kit brought), and the parcels it found in the field and proposed, unless
the office rejected them. A new parcel recorded here is such a proposal: the gate notes it
(`parcel_proposals`) in the same transaction.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..domain import authority, registry
from ..domain.field_spec import Writer
from ..domain.records import LOCAL_TABLES
from ..errors import InputError
from . import proposals


class NotThisLaptops(InputError):
    """An edit the office would refuse from this laptop; nothing was saved."""


def assignment_held(conn: sqlite3.Connection) -> dict[str, Any] | None:
    """The newest assignment this laptop took from an office package, if any."""
    row = conn.execute(
        "SELECT revision, office_seq, parcels FROM device_assignments WHERE device_id = "
        "(SELECT id FROM devices WHERE role = 'this') AND parcels IS NOT NULL "
        "ORDER BY id DESC LIMIT 1").fetchone()
    if row is None:
        return None
    return {"revision": int(row[0]), "seq_through": int(row[1] or 0),
            "parcels": json.loads(row[2])}


def assigned_here(conn: sqlite3.Connection) -> set[str]:
    """The parcels this laptop holds as assigned: the newest assignment the office sent,
    or, before any, every parcel of its kit (those it did not propose itself)."""
    held = assignment_held(conn)
    if held is not None:
        return set(held["parcels"])
    return {r[0] for r in conn.execute(
        "SELECT id FROM parcels WHERE id NOT IN (SELECT parcel_id FROM parcel_proposals)")}


@dataclass
class LaptopGate:
    """The office's policy, applied on the laptop as each record is written."""

    conn: sqlite3.Connection
    device_id: str
    user: str
    now: str
    _held: set[str] | None = None
    _proposed: set[str] = field(default_factory=set)

    def _load(self) -> set[str]:
        if self._held is None:
            mine = proposals.listed(self.conn, ("pending", "accepted"))
            self._proposed = {p for p, v in mine.items() if v["status"] == "pending"}
            self._held = assigned_here(self.conn) | set(mine)
        return self._held

    def holds(self, parcel_id: str) -> bool:
        return parcel_id in self._load()

    def check(self, *, table: str, op: str, fields: Iterable[str], parcel_id: str | None,
              record_id: str, values: dict[str, Any] | None = None) -> None:
        """Refuse (NotThisLaptops) a write the office would refuse; note a new parcel as
        a proposal."""
        if table in LOCAL_TABLES:
            return
        held = self._load()
        names: list[str | None] = [*fields] or [None]
        for name in names:
            ruling = authority.laptop_change(
                table=table, op=op, field=name if op == "update" else None,
                parcel_id=parcel_id, record_id=record_id, holds=parcel_id in held,
                proposed=parcel_id in self._proposed)
            if ruling.verdict is authority.Verdict.PROPOSAL:
                self._propose(record_id, (values or {}).get("sbl"))
                return
            if ruling.verdict is authority.Verdict.REFUSED:
                raise NotThisLaptops(refusal(ruling.why, self.conn, parcel_id))
            declared = registry.column(table, name) if name else None
            if declared is not None and not declared.may_write(Writer.LAPTOP) and not (
                    table == authority.PARCELS and parcel_id in self._proposed):
                raise NotThisLaptops(refusal(
                    f"changes {declared.label.lower()}, which only the office changes",
                    self.conn, parcel_id))

    def _propose(self, parcel_id: str, sbl: Any) -> None:
        proposals.record(self.conn, parcel_id=parcel_id, sbl=str(sbl), device_id=self.device_id,
                         proposed_at=self.now, proposed_by=self.user)
        assert self._held is not None
        self._held.add(parcel_id)
        self._proposed.add(parcel_id)


def refusal(why: str, conn: sqlite3.Connection, parcel_id: str | None) -> str:
    """The office's reason, said on the laptop: the parcel by its tax map number."""
    if parcel_id is not None:
        row = conn.execute("SELECT sbl FROM parcels WHERE id = ?", (parcel_id,)).fetchone()
        if row is not None:
            why = why.replace(f"parcel {parcel_id}", f"parcel {row[0]}")
    return (f"Not saved: this laptop's office would refuse the change, which {why}; "
            "nothing was changed.")
