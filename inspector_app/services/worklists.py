"""Work lists as of a date: what the office must chase, each item with its section."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta
from typing import TYPE_CHECKING, Any

from ..domain.case import Case
from ..domain.jurisdiction import Jurisdiction
from ..domain.rules import Evaluation, Outcome, Zone, next_inspection_due
from ..domain.sbl import sbl_sort_key
from .evaluation import NO_LAW_ON_FILE, NoLawFacts

if TYPE_CHECKING:
    from .workspace import Workspace

WORKLISTS = ("five-year-inspections", "etu-reports", "holding-tank-records",
             "notices-past-deadline", "no-law-on-file")
_ETU_CODES = {"etu_no_service_contract", "etu_inspection_overdue", "etu_report_late"}
_HOLDING_CODES = {"holding_tank_no_hauler_contract", "holding_tank_records_missing"}


@dataclass(frozen=True)
class _Parcel:
    sbl: str
    site_address: str
    owner_name: str
    municipality: str
    evaluation: Evaluation | NoLawFacts
    law: Jurisdiction | None
    last_inspection: date | None
    stamped_as_built: bool
    permit_by: date | None
    complete_by: date | None


def _item(p: _Parcel, **extra: Any) -> dict[str, Any]:
    return {"sbl": p.sbl, "site_address": p.site_address, "owner_name": p.owner_name, **extra}


def _five_year(p: _Parcel, ws: Workspace, as_of: date) -> dict[str, Any] | None:
    j = p.law
    if j is None or isinstance(p.evaluation, NoLawFacts) or (
            p.evaluation.lake.zone is not Zone.WITHIN):
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


def _violations(codes: set[str]) -> Callable[[_Parcel, Workspace, date], dict[str, Any] | None]:
    def pick(p: _Parcel, ws: Workspace, as_of: date) -> dict[str, Any] | None:
        if isinstance(p.evaluation, NoLawFacts):
            return None
        found = [v for v in p.evaluation.violations if v.code in codes]
        if not found:
            return None
        return _item(p, violations=[{"code": v.code, "citation": v.citation,
                                     "detail": v.detail,
                                     "since": None if v.since is None else v.since.isoformat()}
                                    for v in found])
    return pick


def _notices(p: _Parcel, ws: Workspace, as_of: date) -> dict[str, Any] | None:
    e = p.evaluation
    if isinstance(e, NoLawFacts) or p.law is None:
        return None
    open_matter = e.outcome is Outcome.FAILURE or bool(e.violations)
    passed = [(name, day) for name, day in (("permit_by", p.permit_by),
                                            ("complete_by", p.complete_by))
              if day is not None and as_of > day]
    if not open_matter or not passed:
        return None
    return _item(p, deadlines_passed=[{"deadline": name, "date": day.isoformat()}
                                      for name, day in passed],
                 outcome=e.outcome.value, citation=p.law.cite("system_in_failure")
                 if e.outcome is Outcome.FAILURE else e.violations[0].citation)


def _no_law(p: _Parcel, ws: Workspace, as_of: date) -> dict[str, Any] | None:
    """Parcels the other lists cannot judge, so that none is left out unseen."""
    if not isinstance(p.evaluation, NoLawFacts):
        return None
    return _item(p, status=NO_LAW_ON_FILE, municipality=p.municipality,
                 last_inspection=None if p.last_inspection is None
                 else p.last_inspection.isoformat(), detail=p.evaluation.sentence)


_PICKERS = {
    "five-year-inspections": _five_year,
    "etu-reports": _violations(_ETU_CODES),
    "holding-tank-records": _violations(_HOLDING_CODES),
    "notices-past-deadline": _notices,
    "no-law-on-file": _no_law,
}


_PARCEL_ROWS = (
    "SELECT p.id, p.sbl, p.site_address, p.owner_name, p.municipality,"
    " (SELECT max(date) FROM inspections i WHERE i.parcel_id = p.id AND i.deleted_at IS NULL)"
    "   AS last_inspection,"
    " (SELECT stamped_as_built FROM systems s WHERE s.parcel_id = p.id AND"
    "   s.deleted_at IS NULL) AS stamped_as_built"
    " FROM parcels p WHERE p.deleted_at IS NULL")


def _parcel(r: dict[str, Any], case: Case, evaluation: Evaluation | NoLawFacts,
            law: Jurisdiction | None) -> _Parcel:
    return _Parcel(
        sbl=r["sbl"], site_address=r["site_address"], owner_name=r["owner_name"],
        municipality=case.parcel.municipality, evaluation=evaluation, law=law,
        last_inspection=None if r["last_inspection"] is None else date.fromisoformat(
            r["last_inspection"]),
        stamped_as_built=bool(r["stamped_as_built"]),
        permit_by=case.notice.permit_by if case.notice else None,
        complete_by=case.notice.complete_by if case.notice else None)


def _parcels(ws: Workspace, as_of: date) -> list[_Parcel]:
    """Every parcel, its case read with one query per table and the active layer read once."""
    from ..geo.case_shapes import measure_cases, project_cases
    from ..storage.cases import load_cases
    from .shorelines import active_layer

    rows = ws.store.query(_PARCEL_ROWS)
    cases = load_cases(ws.store.conn)
    projected = project_cases(cases.values())
    shapes = dict(zip(cases, projected, strict=True))
    layer = active_layer(ws)
    if layer is not None:
        measure_cases(projected, layer.lake)
    laws: dict[str, Jurisdiction | None] = {}
    out = []
    for r in sorted(rows, key=lambda r: sbl_sort_key(r["sbl"])):
        case = cases[r["id"]]
        town = case.parcel.municipality
        if town not in laws:
            laws[town] = ws.laws.for_municipality(town)
        out.append(_parcel(r, case, ws.assess_case(case, as_of=as_of, layer=layer,
                                                   shapes=shapes[r["id"]]), laws[town]))
    return out


def _parcels_one_by_one(ws: Workspace, as_of: date) -> list[_Parcel]:
    """The reference: each parcel loaded with `load_case` and assessed on its own."""
    out = []
    for r in sorted(ws.store.query(_PARCEL_ROWS), key=lambda r: sbl_sort_key(r["sbl"])):
        case = ws.load_case(r["sbl"])
        out.append(_parcel(r, case, ws.assess_case(case, as_of=as_of),
                           ws.laws.for_municipality(case.parcel.municipality)))
    return out


def _lists(parcels: list[_Parcel], ws: Workspace, as_of: date, names: tuple[str, ...]
           ) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for name in names:
        pick = _PICKERS[name]
        out[name] = [item for p in parcels if (item := pick(p, ws, as_of)) is not None]
    return out


def worklists_one_by_one(ws: Workspace, *, as_of: date, names: tuple[str, ...] = WORKLISTS
                         ) -> dict[str, list[dict[str, Any]]]:
    """The work lists with every parcel loaded and assessed on its own: slow, kept as the
    reference that `worklists` must equal."""
    return _lists(_parcels_one_by_one(ws, as_of), ws, as_of, names)


def worklists(ws: Workspace, *, as_of: date, names: tuple[str, ...] = WORKLISTS
              ) -> dict[str, list[dict[str, Any]]]:
    return _lists(_parcels(ws, as_of), ws, as_of, names)
