"""Work lists as of a date: what the office must chase, each item with its section."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta
from typing import TYPE_CHECKING, Any

from ...documents.content import IMMEDIATE
from ...domain.jurisdiction import Jurisdiction
from ...domain.rules import Finding, Outcome, Zone, next_inspection_due, zone_for
from ...domain.sbl import sbl_sort_key
from ...storage import parcels as parcel_rows
from ...storage.cases import stored_date
from ..parcel.evaluation import assess_case
from ..parcel.requests import open_requests
from ..parcel.served import DATE_NAMES, Served, notices_in_force
from ..session.laws import NO_LAW_ON_FILE, NoLawFacts
from . import etu_reports
from .served import SERVICE_SHOWN, SERVICE_WORDS, service_of, shown_first, unconfirmed

if TYPE_CHECKING:
    from ..session.session import Session

WORKLISTS = ("five-year-inspections", "etu-reports", "holding-tank-records",
             "notices-past-deadline", "no-law-on-file", "lake-distance-needed",
             "notices-service-unconfirmed", "etu-not-functional", "etu-contracts-expiring",
             "requests")
# Lists read from the register, the reports or the requests on record, not from the
# parcels' summaries.
_FROM_RECORDS: dict[str, Callable[[Session, date], list[dict[str, Any]]]] = {
    "notices-service-unconfirmed": lambda ws, as_of: unconfirmed(ws, as_of=as_of),
    "etu-not-functional": etu_reports.not_functional,
    "etu-contracts-expiring": etu_reports.contracts_expiring,
    "requests": lambda ws, as_of: open_requests(ws, as_of=as_of)}
_ETU_CODES = {"etu_no_service_contract", "etu_inspection_overdue", "etu_report_late"}
_HOLDING_CODES = {"holding_tank_no_hauler_contract", "holding_tank_records_missing"}


@dataclass(frozen=True)
class _Parcel:
    """What the lists read of a parcel as of the date: its judgement under its law (None:
    no law on file, `no_law` says so) and the record's dates."""

    sbl: str
    site_address: str
    owner_name: str
    municipality: str
    law: Jurisdiction | None
    zone: Zone | None
    outcome: Outcome | None
    violations: tuple[Finding, ...]
    no_law: str | None
    last_inspection: date | None
    stamped_as_built: bool
    # the notices of violation in force (issued, not replaced), with the dates they set
    notices: tuple[Served, ...]
    # each notice's service as of the list's date, by letter id (not_served where none)
    service: dict[str, str]
    distance_ft: float | None = None
    # with no lake distance: the lot's distance to the lake line, its accuracy, the layer
    lot: tuple[float, float, str] | None = None
    # what the lake distance was judged with: the layer, its accuracy, the capture accuracy
    # of what was measured, and what that is (evaluate's `lake`)
    lake: LakeBasis | None = None


@dataclass(frozen=True)
class LakeBasis:
    layer: str | None
    layer_accuracy_ft: float | None
    capture_accuracy_ft: float | None
    measured_from: str


def lot_estimate(law: Jurisdiction, lot: tuple[float, float, str] | None
                 ) -> dict[str, Any] | None:
    """The lot's distance to the lake line as a first estimate, in words: never the
    system's distance, zone or outcome, and no judgement under the law."""
    if lot is None:
        return None
    distance, accuracy, layer = lot
    setback = f"{law.lake_setback_ft:g} ft"
    words = {Zone.WITHIN: f"lot within {setback}", Zone.BEYOND: f"lot beyond {setback}"}.get(
        zone_for(distance, accuracy, law.lake_setback_ft), f"lot may be within {setback}")
    return {"distance_ft": distance, "accuracy_ft": accuracy, "layer": layer, "words": words}


def _item(p: _Parcel, **extra: Any) -> dict[str, Any]:
    return {"sbl": p.sbl, "site_address": p.site_address, "owner_name": p.owner_name, **extra}


def _five_year(p: _Parcel, as_of: date) -> dict[str, Any] | None:
    j = p.law
    if j is None or p.no_law is not None or p.zone is not Zone.WITHIN:
        return None
    cite = j.cite("five_year_inspection")
    if p.last_inspection is None:
        first_by_wi = not p.stamped_as_built
        return _item(p, status="never_inspected", due=None, last_inspection=None,
                     first_inspection_by_watershed_inspector=first_by_wi,
                     citation=j.cite("first_inspection_by_watershed_inspector")
                     if first_by_wi else cite,
                     detail="no inspection on record" + (
                         "; no stamped as-built on file, so the Watershed Inspector makes the "
                         "first inspection" if first_by_wi else ""))
    due = next_inspection_due(p.last_inspection, j)
    if as_of > due:
        status = "overdue"
    elif due - as_of <= timedelta(days=j.due_soon_days):
        status = "due"
    else:
        return None
    return _item(p, status=status, due=due.isoformat(),
                 last_inspection=p.last_inspection.isoformat(),
                 first_inspection_by_watershed_inspector=False, citation=cite,
                 detail=f"{j.inspection_cycle_years}-year inspection "
                        f"{'was due' if status == 'overdue' else 'falls due'} {due.isoformat()}")


def _violations(codes: set[str]) -> Callable[[_Parcel, date], dict[str, Any] | None]:
    def pick(p: _Parcel, as_of: date) -> dict[str, Any] | None:
        found = [v for v in p.violations if v.code in codes]
        if p.no_law is not None or not found:
            return None
        return _item(p, violations=[{"code": v.code, "citation": v.citation,
                                     "detail": v.detail,
                                     "since": None if v.since is None else v.since.isoformat()}
                                    for v in found])
    return pick


def _notices(p: _Parcel, as_of: date) -> dict[str, Any] | None:
    """Parcels with a notice of violation in force one of whose dates (each a letter sets:
    permit, completion, reply) has passed while a failure or violation stands; nothing
    that was never issued. `status` "past_due" where a notice whose date passed shows
    service (served, its delivery confirmed or not); "service_not_shown" where every such
    notice came back undelivered or has no service recorded: no one enforces a deadline
    the owner is not shown to have been served. `service` is the best shown."""
    if p.no_law is not None or p.law is None:
        return None
    open_matter = p.outcome is Outcome.FAILURE or bool(p.violations)
    # a discharging holding tank's pump-out record: past while the discharge stands
    discharging = any(v.code in IMMEDIATE for v in p.violations)
    passed = [(n, name, n.dates[name]) for n in p.notices
              for name in DATE_NAMES
              if (discharging if name == "pump_out_by" else open_matter)
              and name in n.dates and as_of > n.dates[name]]
    if not passed:
        return None
    service = shown_first([p.service[n.letter_id] for n, _, _ in passed])
    shown = service in SERVICE_SHOWN
    words = "; ".join(f"{name.replace('_', ' ')} {day.isoformat()} (notice of "
                      f"{n.letter_date.isoformat()}: {SERVICE_WORDS[p.service[n.letter_id]]})"
                      for n, name, day in passed)
    return _item(p, status="past_due" if shown else "service_not_shown", service=service,
                 deadlines_passed=[{"deadline": name, "date": day.isoformat(),
                                    "letter_id": n.letter_id,
                                    "letter_date": n.letter_date.isoformat(),
                                    "service": p.service[n.letter_id]}
                                   for n, name, day in passed],
                 outcome=None if p.outcome is None else p.outcome.value,
                 citation=p.law.cite("system_in_failure")
                 if p.outcome is Outcome.FAILURE else next(
                     (v.citation for v in p.violations if v.code in IMMEDIATE
                      and all(name == "pump_out_by" for _, name, _ in passed)),
                     p.violations[0].citation),
                 detail=("past due: " if shown else "deadline passed; service not shown: ")
                 + words)


def _no_law(p: _Parcel, as_of: date) -> dict[str, Any] | None:
    """Parcels the other lists cannot judge, so that none is left out unseen."""
    if p.no_law is None:
        return None
    return _item(p, status=NO_LAW_ON_FILE, municipality=p.municipality,
                 last_inspection=None if p.last_inspection is None
                 else p.last_inspection.isoformat(), detail=p.no_law)


def _distance_needed(p: _Parcel, as_of: date) -> dict[str, Any] | None:
    """Parcels whose lake zone is not settled: no distance to the lake line on record, or
    a map distance its layer's accuracy cannot settle. Where no distance is on record, the
    lot's distance is given as a first estimate of where to measure first."""
    j = p.law
    if j is None or p.no_law is not None or p.zone is not Zone.UNDETERMINED:
        return None
    if p.distance_ft is None:
        detail = "no distance to the lake line on record: measure it in the field"
    else:
        detail = _unsettled(p.distance_ft, p.lake, j.lake_setback_ft)
    lake = p.lake or LakeBasis(None, None, None, "absorption_area")
    return _item(p, distance_ft=p.distance_ft, citation=j.cite("within_200ft"), detail=detail,
                 lot_estimate=lot_estimate(j, p.lot) if p.distance_ft is None else None,
                 layer=lake.layer, layer_accuracy_ft=lake.layer_accuracy_ft,
                 capture_accuracy_ft=lake.capture_accuracy_ft,
                 measured_from=lake.measured_from)


def _unsettled(distance_ft: float, lake: LakeBasis | None, setback_ft: float) -> str:
    """Why a map distance leaves the zone undetermined: the layer's accuracy, the capture
    accuracy of what was measured, or both; and what to do about it."""
    head = f"the map's {distance_ft:,.1f} ft cannot settle the {setback_ft:g} ft question"
    if lake is None or lake.layer_accuracy_ft is None:
        return f"{head}: measure it in the field"
    layer = f"{lake.layer} is ±{lake.layer_accuracy_ft:,g} ft"
    if not lake.capture_accuracy_ft:
        return f"{head}: the layer {layer}; measure it in the field"
    what = lake.measured_from.replace("_", " ")
    captured = f"the {what} was captured to ±{lake.capture_accuracy_ft:,g} ft"
    if zone_for(distance_ft, lake.layer_accuracy_ft, setback_ft) is not Zone.UNDETERMINED:
        return (f"{head}: {captured} (the layer, ±{lake.layer_accuracy_ft:,g} ft, would "
                f"settle it): capture the {what} more precisely, or measure the distance in "
                "the field")
    return f"{head}: the layer {layer} and {captured}; measure it in the field"


_ESTIMATE_ORDER = {"lot within": 0, "lot may be": 1, "lot beyond": 3}


def _estimate_rank(item: dict[str, Any]) -> int:
    """Lots within the setback first, then those that may be, those with no estimate, and
    those beyond last."""
    estimate = item.get("lot_estimate")
    if estimate is None:
        return 2
    return next(rank for words, rank in _ESTIMATE_ORDER.items()
                if estimate["words"].startswith(words))


_PICKERS = {
    "five-year-inspections": _five_year,
    "etu-reports": _violations(_ETU_CODES),
    "holding-tank-records": _violations(_HOLDING_CODES),
    "notices-past-deadline": _notices,
    "no-law-on-file": _no_law,
    "lake-distance-needed": _distance_needed,
}
# Lists not in SBL order: how their items are ordered (a stable sort of the SBL order).
_ORDER = {"lake-distance-needed": _estimate_rank}


def _parcel(r: dict[str, Any], law: Jurisdiction | None, *, zone: Zone | None,
            outcome: Outcome | None, violations: tuple[Finding, ...], no_law: str | None,
            notices: tuple[Served, ...], service: dict[str, str],
            distance_ft: float | None = None,
            lot: tuple[float, float, str] | None = None,
            lake: LakeBasis | None = None) -> _Parcel:
    return _Parcel(
        sbl=r["sbl"], site_address=r["site_address"], owner_name=r["owner_name"],
        municipality=r["municipality"], law=law, zone=zone, outcome=outcome,
        violations=violations, no_law=no_law,
        last_inspection=stored_date(r["last_inspection"]),
        stamped_as_built=bool(r["stamped_as_built"]), notices=notices,
        service={n.letter_id: service.get(n.letter_id, "not_served") for n in notices},
        distance_ft=distance_ft, lot=lot, lake=lake)


def _service(ws: Session, notices: dict[str, list[Served]], as_of: date) -> dict[str, str]:
    """The service state of each notice named, as of the date, by letter id."""
    ids = [n.letter_id for found in notices.values() for n in found]
    return {i: s.state for i, s in service_of(ws, ids, as_of).items()}


def _rows(ws: Session) -> list[dict[str, Any]]:
    return sorted(parcel_rows.worklist_rows(ws.store.conn), key=lambda r: sbl_sort_key(r["sbl"]))


def _parcels(ws: Session, as_of: date) -> list[_Parcel]:
    """Every parcel from its summary (worked out and kept where none is on file)."""
    from .summaries import summaries

    rows = _rows(ws)
    found = summaries(ws, {r["id"]: r["municipality"] for r in rows})
    served = notices_in_force(ws)
    service = _service(ws, served, as_of)
    out = []
    for r in rows:
        s = found[r["id"]]
        out.append(_parcel(r, ws.laws.for_municipality(r["municipality"]), zone=s.zone,
                           outcome=s.outcome, violations=s.violations(as_of) if s.law else (),
                           no_law=None if s.law else s.sentence,
                           notices=tuple(served.get(r["id"], ())), service=service,
                           distance_ft=s.distance_ft,
                           lot=None if s.lot_distance_ft is None or s.lot_accuracy_ft is None
                           or s.lot_layer is None else
                           (s.lot_distance_ft, s.lot_accuracy_ft, s.lot_layer),
                           lake=None if s.measured_from is None else LakeBasis(
                               s.layer, s.layer_accuracy_ft, s.capture_accuracy_ft,
                               s.measured_from)))
    return out


def _parcels_one_by_one(ws: Session, as_of: date) -> list[_Parcel]:
    """The reference: each parcel loaded with `load_case` and evaluated on its own, and its
    lot measured on its own where it has no lake distance."""
    from .summaries import lot_estimate_alone

    out = []
    for r in _rows(ws):
        case = ws.load_case(r["sbl"])
        e = assess_case(ws, case, as_of=as_of)
        found = notices_in_force(ws, [r["id"]])
        notices = tuple(found.get(r["id"], ()))
        service = _service(ws, found, as_of)
        law = ws.laws.for_municipality(case.parcel.municipality)
        if isinstance(e, NoLawFacts):
            out.append(_parcel(r, law, zone=None, outcome=None, violations=(),
                               no_law=e.sentence, notices=notices, service=service))
        else:
            out.append(_parcel(r, law, zone=e.lake.zone, outcome=e.outcome,
                               violations=e.violations, no_law=None, notices=notices,
                               service=service,
                               distance_ft=e.lake.distance_ft,
                               lot=None if e.lake.distance_ft is not None
                               else lot_estimate_alone(ws, r["id"]),
                               lake=LakeBasis(e.lake.layer, e.lake.layer_accuracy_ft,
                                              e.lake.capture_accuracy_ft,
                                              e.lake.component.value)))
    return out


def _lists(parcels: list[_Parcel], as_of: date, names: tuple[str, ...], ws: Session
           ) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for name in names:
        if name in _FROM_RECORDS:
            out[name] = _FROM_RECORDS[name](ws, as_of)
            continue
        pick = _PICKERS[name]
        out[name] = [item for p in parcels if (item := pick(p, as_of)) is not None]
        if name in _ORDER:
            out[name].sort(key=_ORDER[name])
    return out


def worklists_one_by_one(ws: Session, *, as_of: date, names: tuple[str, ...] = WORKLISTS
                         ) -> dict[str, list[dict[str, Any]]]:
    """The work lists with every parcel loaded and assessed on its own: slow, kept as the
    reference that `worklists` must equal."""
    return _lists(_parcels_one_by_one(ws, as_of), as_of, names, ws)


def worklists(ws: Session, *, as_of: date, names: tuple[str, ...] = WORKLISTS
              ) -> dict[str, list[dict[str, Any]]]:
    """The work lists as of a date, from each parcel's kept summary (`services/summaries`)."""
    return _lists(_parcels(ws, as_of) if set(names) - set(_FROM_RECORDS) else [], as_of,
                  names, ws)
