"""What each inspection on record found, as the record stood when it was made.

A parcel's record holds one system, edited inspection after inspection: the form shows
and edits the latest inspection's findings, and an earlier inspection's findings are kept
in the change log. An inspection's findings are the record as it stood just before the
parcel's next inspection was recorded (or as it stands now, for the latest): the same
record the form showed for that inspection; its ETU service reports and pump-outs count
only as far as they are dated up to the inspection's day. The change log is replayed for that moment
(every insert carries the record's values, every update the field's new value, every
deletion its time), the rows are loaded by the same code that loads a stored case, and
the case is judged under the parcel's law as of the inspection's date.

A save writes the new inspection's row before the rest of the record (`save_case`), so the
moment is the log entry that created the next inspection's row.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Any

from ...domain.rules import Evaluation
from ...errors import Cancelled
from ...storage import change_log
from ...storage import inspections as inspection_rows
from ...storage.cases import CASE_TABLES
from ...storage.scratch_cases import ScratchCases
from ..session.laws import NoLawFacts
from .evaluation import assess_case

if TYPE_CHECKING:
    from ..session.session import Session

# The tables a case is read from, and the parcel's own row.
_REPLAYED = ("parcels", "inspection_tests", *CASE_TABLES)
# Parcels whose change-log entries are read together (one statement or a few for them all,
# not one each: over a socket, a statement's round trip costs more than its rows).
_PARCELS_READ_AT_ONCE = 500
Progress = Callable[[int, int], None]
IsCancelled = Callable[[], bool]


@dataclass(frozen=True)
class InspectionResult:
    """One inspection and what it found. `outcome` and `zone` are None where the parcel's
    municipality has no law on file (nothing is judged then)."""

    parcel_id: str
    inspection_id: str
    sbl: str
    municipality: str
    site_address: str
    date: date
    reason: str
    inspector: str
    outcome: str | None
    zone: str | None
    distance_ft: float | None
    distance_source: str | None  # field | map | None
    violations: tuple[tuple[str, str], ...]  # (code, section)
    failed_components: tuple[str, ...]
    substandard_components: tuple[str, ...]
    letters_called_for: tuple[str, ...]
    outcome_citation: str | None
    # where the map puts it: the absorption area's (or holding tank's) centre, else the
    # parcel's point; longitude, latitude
    location: tuple[float, float] | None
    # the record's ETU and holding tank at this inspection (component kinds)
    units: tuple[str, ...] = ()


_UNITS = ("enhanced_treatment_unit", "holding_tank")


def dated_to(case: Any, day: date) -> Any:
    """The case with only the ETU service inspections and pump-outs dated up to `day`: what
    was there to judge on that day."""
    from dataclasses import replace

    etu, tank = case.etu, case.holding_tank_service
    if etu is not None:
        etu = replace(etu, inspections=tuple(i for i in etu.inspections if i.date <= day))
    if tank is not None:
        tank = replace(tank, pump_outs=tuple(p for p in tank.pump_outs if p.date <= day))
    return replace(case, etu=etu, holding_tank_service=tank)


def _decode(text: str | None) -> Any:
    return None if text is None else json.loads(text)


class _Replay:
    """One parcel's records replayed from its change log, entry by entry."""

    def __init__(self) -> None:
        self.tables: dict[str, dict[str, dict[str, Any]]] = {t: {} for t in _REPLAYED}

    def apply(self, e: sqlite3.Row | tuple[Any, ...]) -> None:
        _, at, device, table, record_id, parcel_id, op, field, new_value, version = e
        rows = self.tables[table]
        if op == "insert":
            row = dict(_decode(new_value) or {})
            row.update(id=record_id, created_at=at, updated_at=at, device_id=device,
                       version=version, deleted_at=None)
            if table != "parcels":
                row["parcel_id"] = parcel_id
            rows[record_id] = row
            return
        known = rows.get(record_id)
        if known is None:  # a record whose creation this log does not hold: nothing to replay
            return
        known.update(updated_at=at, device_id=device, version=version)
        if op == "delete":
            known["deleted_at"] = at
        else:
            known[field] = _decode(new_value)

    def snapshot(self) -> dict[str, list[dict[str, Any]]]:
        return {t: [dict(r) for r in rows.values()] for t, rows in self.tables.items()}


def _location(case: Any) -> tuple[float, float] | None:
    from ...geo.case_shapes import centre_lonlat

    site = case.site
    for geometry in (None if site is None else site.absorption_area,
                     None if site is None else site.holding_tank):
        if geometry is not None:
            return centre_lonlat(geometry)
    p = case.parcel
    if p.longitude is not None and p.latitude is not None:
        return (float(p.longitude), float(p.latitude))
    return None


def _result(parcel_id: str, inspection_id: str, case: Any,
            judged: Evaluation | NoLawFacts) -> InspectionResult:
    i = case.inspection
    p = case.parcel
    common = {"parcel_id": parcel_id, "inspection_id": inspection_id, "sbl": p.sbl,
              "municipality": p.municipality, "site_address": p.site_address, "date": i.date,
              "reason": i.reason.value, "inspector": i.inspector, "location": _location(case),
              "units": tuple(k for k in _UNITS if any(c.kind.value == k
                                                      for c in case.components))}
    if isinstance(judged, NoLawFacts):
        return InspectionResult(
            **common, outcome=None, zone=None, distance_ft=judged.lake_distance_ft,
            distance_source=judged.lake_source, violations=(), failed_components=(),
            substandard_components=(), letters_called_for=(), outcome_citation=None)
    return InspectionResult(
        **common, outcome=judged.outcome.value, zone=judged.lake.zone.value,
        distance_ft=judged.lake.distance_ft, distance_source=judged.lake.source,
        violations=tuple((v.code, v.citation) for v in judged.violations),
        failed_components=tuple(k.value for k in judged.failed_components),
        substandard_components=tuple(k.value for k in judged.substandard_components),
        letters_called_for=tuple(k.value for k in judged.letters),
        outcome_citation=judged.outcome_citation)


@dataclass(frozen=True)
class Layers:
    """The active shoreline and lot layers and the wells' index, read once for many
    parcels."""

    shoreline: Any
    lots: Any
    wells: Any

    @classmethod
    def of(cls, ws: Session) -> Layers:
        from ..reference.lot_lines import active_lot_layer
        from ..reference.shorelines import active_layer
        from .separations import well_index

        return cls(active_layer(ws), active_lot_layer(ws), well_index(ws))


def case_at(ws: Session, parcel_id: str, seq: int) -> Any | None:
    """The parcel's case as its record stood once change-log entry `seq` was written (what
    a letter of that case version was made from), or None when no record stood then."""
    replay = _Replay()
    for e in change_log.parcel_entries(ws.store.conn, parcel_id, _REPLAYED):
        if e[0] > seq:
            break
        replay.apply(e)
    state = replay.snapshot()
    if not state["parcels"]:
        return None
    loader = ScratchCases(ws.store.conn, _REPLAYED)
    try:
        return loader.load(parcel_id, state)
    finally:
        loader.close()


def parcel_inspections(ws: Session, parcel_id: str) -> list[InspectionResult]:
    """Every inspection of one parcel on record (not deleted), oldest recorded first, each
    judged on the record as it stood for it."""
    loader = ScratchCases(ws.store.conn, _REPLAYED)
    try:
        return _parcel_inspections(ws, parcel_id, loader, Layers.of(ws))
    finally:
        loader.close()


def _parcel_inspections(ws: Session, parcel_id: str, loader: ScratchCases, layers: Layers,
                        entries: Sequence[tuple[Any, ...]] | None = None
                        ) -> list[InspectionResult]:
    """`entries`: the parcel's change-log entries replayed, when read with other parcels'."""
    replay = _Replay()
    states: list[tuple[str, dict[str, list[dict[str, Any]]]]] = []
    pending: str | None = None
    if entries is None:
        entries = change_log.parcel_entries(ws.store.conn, parcel_id, _REPLAYED)
    for e in entries:
        if e[3] == "inspections" and e[6] == "insert":
            if pending is not None:
                states.append((pending, replay.snapshot()))
            pending = e[4]
        replay.apply(e)
    if pending is not None:
        states.append((pending, replay.snapshot()))
    inspections = replay.tables["inspections"]
    tests = replay.tables["inspection_tests"]
    out = []
    for inspection_id, state in states:
        row = inspections[inspection_id]  # as it stands now: its date, reason, inspector
        # removed, or marked entered in error: no inspection to judge
        if row["deleted_at"] is not None or row.get("void_reason") is not None \
                or not state["parcels"]:
            continue
        own_tests = [t for t in tests.values() if t["inspection_id"] == inspection_id]
        case = loader.case(parcel_id, state, row, own_tests)
        assert case.inspection is not None  # the one written with its state
        day = case.inspection.date
        out.append(_result(parcel_id, inspection_id, case,
                           assess_case(ws, dated_to(case, day), as_of=day,
                                          layer=layers.shoreline, lots=layers.lots,
                                          wells=layers.wells,
                                          parcel_id=parcel_id)))
    return out


def inspection_results(ws: Session, *, parcel_ids: Iterable[str] | None = None,
                       progress: Progress | None = None, cancelled: IsCancelled | None = None
                       ) -> list[InspectionResult]:
    """Every inspection on record of the parcels given (all parcels when None), each
    judged on the record as it stood for it; sorted by date, then SBL."""
    if parcel_ids is None:
        ids = inspection_rows.inspected_parcels(ws.store.conn)
    else:
        ids = list(parcel_ids)
    loader = ScratchCases(ws.store.conn, _REPLAYED)
    layers = Layers.of(ws)
    out: list[InspectionResult] = []
    entries: dict[str, list[tuple[Any, ...]]] = {}
    try:
        for n, parcel_id in enumerate(ids, start=1):
            if cancelled is not None and cancelled():
                raise Cancelled("The report was cancelled; nothing was written.")
            if parcel_id not in entries:  # the next parcels' entries, in a few statements
                entries = change_log.parcels_entries(
                    ws.store.conn, ids[n - 1:n - 1 + _PARCELS_READ_AT_ONCE], _REPLAYED)
            out.extend(_parcel_inspections(ws, parcel_id, loader, layers,
                                           entries.pop(parcel_id)))
            if progress is not None:  # after each parcel: the app lets its reads in here
                progress(n, len(ids))
    finally:
        loader.close()
    out.sort(key=lambda r: (r.date, r.sbl))
    return out
