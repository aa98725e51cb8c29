"""Who may change what: one table, applied by a laptop at the moment of an edit and by the
office when the laptop's package arrives, in the same words.

A laptop changes the case records of the parcels assigned to it: the parcel's case fields
(not its tax map number, which names it on the roll) and the dwelling, system, components,
inspections, services, observations, determinations, notices, site features,
measurements, findings and photos that belong to it. A parcel a laptop finds in the field
(not on the roll) is a proposal: the laptop records it as its own and sends it; the office
holds it, with the records made on it, for a person to accept (added to the roll and
assigned to that laptop) or reject. Only the office changes the roll beyond the case
fields, the shoreline layers, the letter register and the devices. Which fields and records
a laptop may write is declared with each field (`Spec.writers`, `records.py`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from . import registry
from .field_spec import Writer

PARCELS = "parcels"

# The records a laptop may change (of its own parcels), besides the parcel's own row.
LAPTOP_TABLES: frozenset[str] = frozenset(
    s.table for s in registry.SECTIONS
    if s.table and s.synced and s.table != PARCELS and s.writers & Writer.LAPTOP)
# Only the office changes these (and the parcels roll beyond its case fields).
OFFICE_TABLES: frozenset[str] = registry.SYNCED_TABLES - LAPTOP_TABLES - {PARCELS}
# The parcel's own fields a laptop may change.
LAPTOP_PARCEL_FIELDS: frozenset[str] = frozenset(
    f.column for f in registry.BY_TABLE[PARCELS].fields
    if f.stored and f.may_write(Writer.LAPTOP))
# Fields that never change once their record exists (a photo's bytes are named by them).
FIXED_FIELDS: dict[str, frozenset[str]] = {
    s.table: frozenset(f.column for f in s.fields if f.spec.fixed)
    for s in registry.SECTIONS if s.table and any(f.spec.fixed for f in s.fields)}


class Verdict(StrEnum):
    ALLOWED = "allowed"
    PROPOSAL = "proposal"   # a parcel found in the field: held for the office to decide
    REFUSED = "refused"


@dataclass(frozen=True)
class Ruling:
    verdict: Verdict
    why: str = ""           # for a refusal: what the change does and why it may not


ALLOWED = Ruling(Verdict.ALLOWED)
PROPOSED = Ruling(Verdict.PROPOSAL)


def laptop_change(*, table: str, op: str, field: str | None, parcel_id: str | None,
                  record_id: str, holds: bool, proposed: bool = False) -> Ruling:
    """May a laptop make this change? `holds`: the change's parcel is one the laptop holds
    (assigned to it, or proposed by it and not rejected); `proposed`: the parcel is one the
    laptop found in the field and proposed (its records travel with the proposal)."""
    if table == PARCELS:
        if op == "insert":
            return PROPOSED
        if op == "update" and proposed and field in LAPTOP_PARCEL_FIELDS | {"sbl"}:
            return ALLOWED if record_id == parcel_id else _refused(
                "names another parcel than the record it changes")
        if op != "update" or field not in LAPTOP_PARCEL_FIELDS:
            what = (f"changes the parcel's {field}" if op == "update"
                    else "removes a parcel")
            return _refused(f"{what}; only the office changes the parcels roll (a laptop may "
                            f"change {', '.join(sorted(LAPTOP_PARCEL_FIELDS))})")
        if record_id != parcel_id:
            return _refused("names another parcel than the record it changes")
    elif table not in LAPTOP_TABLES:
        return _refused(f"changes {table}, which only the office changes")
    if field is not None and field in FIXED_FIELDS.get(table, ()):
        return _refused(f"changes {field}, which never changes once the record exists")
    if parcel_id is None or not holds:
        return _refused(f"changes the parcel {parcel_id}, which is not assigned to this "
                        "laptop")
    return ALLOWED


def _refused(why: str) -> Ruling:
    return Ruling(Verdict.REFUSED, why)
