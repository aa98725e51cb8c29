"""The inspection program's report to the Watershed Commission: tallies by municipality
and in total for a period, the charts' figures, the map's points and the open matters.

Every figure is worked out here, from the records, once; the PDF (`letters/program_pdf`),
the `--json` output and the app's preview all show this one report. Each inspection
counts with what it found as the record stood for it (`services/inspection_history`).
"""

from __future__ import annotations

import calendar
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Any

from ...documents.content import LETTER_KINDS
from ...domain.rules import Outcome, Zone, next_inspection_due
from ...domain.sbl import sbl_sort_key
from ...domain.vocabulary import ComponentKind, InspectionReason
from ...errors import Cancelled, InputError
from ...storage import inspections as inspection_rows
from ...storage import letters as letter_rows
from ...storage import parcels as parcel_rows
from ...storage.cases import load_cases
from ..parcel.evaluation import assess_case
from ..parcel.inspection_history import (
    InspectionResult,
    Layers,
    dated_to,
    inspection_results,
)
from ..parcel.requests import no_requests, period_counts
from ..session.laws import NoLawFacts
from .open_matters import open_matters
from .received_figures import no_figures, received_figures
from .served import no_service, served_between

if TYPE_CHECKING:
    from ..session.session import Session

REPORT_FORMAT = "watershed-inspector/program-report/1"
TOTAL = "All municipalities"
OUTCOMES = ("acceptable", "substandard", "failure", "incomplete", "not_judged")
ZONES = ("within_200ft", "beyond_200ft", "undetermined", "not_judged")
REASONS = tuple(r.value for r in InspectionReason)
_ETU_CODES = {"etu_no_service_contract", "etu_inspection_overdue", "etu_report_late"}
_HOLDING_CODES = {"holding_tank_no_hauler_contract", "holding_tank_records_missing"}
Progress = Callable[[int, int], None]
_NO_FAILURE = (Outcome.ACCEPTABLE, Outcome.SUBSTANDARD)
_DECIDING = (Outcome.ACCEPTABLE, Outcome.SUBSTANDARD, Outcome.FAILURE)


@dataclass(frozen=True)
class ProgramReport:
    """The report's figures (`figures`, exactly what `--json` prints) and the inspections
    they were counted from."""

    figures: dict[str, Any]
    inspections: tuple[InspectionResult, ...]


def _outcome(r: InspectionResult) -> str:
    return r.outcome or "not_judged"


def _zone(r: InspectionResult) -> str:
    return r.zone or "not_judged"


def _months(start: date, end: date) -> list[tuple[str, date]]:
    """Each calendar month the period touches: ("YYYY-MM", its last day within the
    period)."""
    out = []
    year, month = start.year, start.month
    while (year, month) <= (end.year, end.month):
        last = date(year, month, calendar.monthrange(year, month)[1])
        out.append((f"{year:04d}-{month:02d}", min(last, end)))
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return out


def check_period(ws: Session, start: date, end: date, *, as_of: date | None = None,
                 first: str = "--from", last: str = "--to") -> date:
    """Today (`as_of`, else the clock's); InputError for a period that is not one."""
    today = as_of or ws.today()
    if start > end:
        raise InputError(f"{first} {start.isoformat()} is after {last} {end.isoformat()}; "
                         "give the period's first day first.")
    if end > today:
        raise InputError(f"{last} {end.isoformat()} is after today ({today.isoformat()}); "
                         "a report covers days that have passed (use --as-of to set "
                         "today).")
    return today


def chosen_parcels(ws: Session, municipalities: Sequence[str] | None
                   ) -> tuple[list[dict[str, Any]], list[str]]:
    """The parcels (id, sbl, municipality, address) of the municipalities named (every
    parcel when none is named) and the municipalities reported on. An unknown name is an
    error naming those on record."""
    rows = parcel_rows.report_rows(ws.store.conn)
    known = sorted({r["municipality"] for r in rows})
    if not municipalities:
        return rows, known
    by_key = {m.casefold(): m for m in known}
    chosen = []
    for name in municipalities:
        found = by_key.get(name.strip().casefold())
        if found is None:
            raise InputError(f"--municipality {name!r} has no parcel on record; the "
                             f"municipalities on record are: {', '.join(known) or 'none'}.")
        if found not in chosen:
            chosen.append(found)
    return [r for r in rows if r["municipality"] in chosen], sorted(chosen)


def _tally(results: list[InspectionResult], start: date, end: date) -> dict[str, Any]:
    """What the inspections of one municipality (or all) in the period add up to."""
    within = [r for r in results if start <= r.date <= end]
    latest: dict[str, InspectionResult] = {}
    for r in within:
        latest[r.parcel_id] = r  # sorted by date: the last one stays
    # failures corrected: an inspection in the period that found no failure (acceptable or
    # substandard) whose parcel's previous judged inspection (at any time; incomplete and
    # unjudged ones passed over) found one
    corrected = 0
    previous: dict[str, InspectionResult] = {}
    last_by_end: dict[str, InspectionResult] = {}
    for r in results:
        before = previous.get(r.parcel_id)
        if (start <= r.date <= end and r.outcome in _NO_FAILURE and before is not None
                and before.outcome == Outcome.FAILURE):
            corrected += 1
        if r.outcome in _DECIDING:
            previous[r.parcel_id] = r
        if r.date <= end:
            last_by_end[r.parcel_id] = r
    zones = Counter(_zone(r) for r in latest.values())
    return {
        "inspections": len(within),
        "by_reason": {k: sum(1 for r in within if r.reason == k) for k in REASONS},
        "by_outcome": {k: sum(1 for r in within if _outcome(r) == k) for k in OUTCOMES},
        "systems_inspected": {"parcels": len(latest), **{z: zones[z] for z in ZONES}},
        "failures": {"found": sum(1 for r in within if r.outcome == Outcome.FAILURE),
                     "corrected": corrected,
                     "systems_in_failure_at_end": sum(
                         1 for r in last_by_end.values() if r.outcome == Outcome.FAILURE)},
    }


def _no_letters() -> dict[str, int]:
    """Issued letters in force at the period's end by kind, how many of them correct an
    earlier letter, and how many letters of the period a correction replaced by its end."""
    return {**{k: 0 for k in LETTER_KINDS}, "corrections": 0, "replaced": 0}


def _letters(ws: Session, parcel_ids: set[str], start: date, end: date
             ) -> dict[str, dict[str, int]]:
    """The letters dated in the period, each counted once: by kind the letter in force at
    the period's end (a correction counts in its kind in place of the letter it replaces,
    and in `corrections`); a letter a correction dated by the end replaced counts in
    `replaced` only. Issued in the period: the kinds and `replaced` added up."""
    rows = letter_rows.issued_between(ws.store.conn, start, end)
    out: dict[str, dict[str, int]] = {}
    for r in rows:
        if r["parcel_id"] not in parcel_ids:
            continue
        for key in (r["municipality"], TOTAL):
            counts = out.setdefault(key, _no_letters())
            if r["replaced"]:
                counts["replaced"] += 1
                continue
            counts[r["kind"]] = counts.get(r["kind"], 0) + 1
            counts["corrections"] += r["replaces_letter_id"] is not None
    return out


# Parcels whose stored cases are read together (a statement for each table for them all).
_CASES_READ_AT_ONCE = 500


def _upkeep(ws: Session, parcels: list[dict[str, Any]], results: list[InspectionResult],
            end: date) -> dict[str, dict[str, dict[str, int]]]:
    """ETUs and holding tanks at the period's end: each system whose latest inspection up
    to the end recorded the unit, and of those, each whose records (as they stand, counting
    the reports and pump-outs dated up to the end) make no ETU (holding-tank) violation as
    of the end."""
    by_id = {r["id"]: r for r in parcels}
    units: dict[str, tuple[str, ...]] = {}
    for r in results:
        if r.date <= end:
            units[r.parcel_id] = r.units
    out: dict[str, dict[str, dict[str, int]]] = {}
    judging = [i for i, kinds in units.items() if i in by_id and kinds]
    layers = Layers.of(ws)
    cases: dict[str, Any] = {}
    for n, parcel_id in enumerate(judging):
        if parcel_id not in cases:  # the next parcels' cases, read together
            cases = load_cases(ws.store.conn,
                               parcel_ids=judging[n:n + _CASES_READ_AT_ONCE])
        parcel = by_id[parcel_id]
        judged = assess_case(ws, dated_to(cases.pop(parcel_id), end), as_of=end,
                             layer=layers.shoreline, lots=layers.lots, wells=layers.wells,
                             parcel_id=parcel_id)
        for kind in units[parcel_id]:
            etu = kind == ComponentKind.ENHANCED_TREATMENT_UNIT.value
            codes = _ETU_CODES if etu else _HOLDING_CODES
            name = "etu" if etu else "holding_tanks"
            for key in (parcel["municipality"], TOTAL):
                counts = out.setdefault(key, {}).setdefault(
                    name, {"units": 0, "compliant": 0, "not_judged": 0})
                counts["units"] += 1
                if isinstance(judged, NoLawFacts):
                    counts["not_judged"] += 1
                elif not {v.code for v in judged.violations} & codes:
                    counts["compliant"] += 1  # (no service contract is itself a violation)
    return out


FIVE_YEAR_KEYS = ("within_200ft", "due_in_period", "done_on_time", "done_late",
                  "not_done_by_end", "overdue_at_end")
# Read from the systems on record (`_on_record`), the one count of systems never inspected:
# those within 200 ft, and those whose zone the records cannot settle (outside the cycle's
# counts, named beside them so that the two blocks cannot be read as contradicting).
FIVE_YEAR_NEVER = {"never_inspected_at_end": "within_200ft",
                   "undetermined_never_inspected_at_end": "undetermined"}


def _five_year(ws: Session, parcels: list[dict[str, Any]], dates: dict[str, list[date]],
               start: date, end: date, months: list[tuple[str, date]]
               ) -> tuple[dict[str, dict[str, int]], list[dict[str, Any]]]:
    """Systems within the lake setback (as the records place them now) and their
    five-year cycle. Each cycle runs from an inspection to the date one cycle later; it
    fell due in the period when that date lies in it (and no inspection renewed it before
    the period began); it was done on time when the next inspection came by the due date,
    late when it came after it but by the period's end, else not done by the end. At the
    end: systems overdue (the cycle from their last inspection up to the end ended before
    it). And the number overdue at each month's end. Systems never inspected are counted
    once, with the systems on record (`FIVE_YEAR_NEVER`)."""
    from .summaries import summaries

    found = summaries(ws, {r["id"]: r["municipality"] for r in parcels})
    out: dict[str, dict[str, int]] = {}
    over_time = {label: 0 for label, _ in months}
    for r in parcels:
        law = ws.laws.for_municipality(r["municipality"])
        s = found.get(r["id"])
        if law is None or s is None or not s.law or s.zone is not Zone.WITHIN:
            continue
        days = [d for d in dates.get(r["id"], []) if d <= end]
        counts = [out.setdefault(key, dict.fromkeys(FIVE_YEAR_KEYS, 0))
                  for key in (r["municipality"], TOTAL)]
        tally: Counter[str] = Counter(within_200ft=1)
        for i, day in enumerate(days):
            due = next_inspection_due(day, law)
            after = days[i + 1] if i + 1 < len(days) else None
            if not start <= due <= end or (after is not None and after < start):
                continue
            tally["due_in_period"] += 1
            if after is not None and after <= due:
                tally["done_on_time"] += 1
            elif after is not None:
                tally["done_late"] += 1
            else:
                tally["not_done_by_end"] += 1
        if days and end > next_inspection_due(days[-1], law):
            tally["overdue_at_end"] += 1
        for c in counts:
            for key, n in tally.items():
                c[key] += n
        for label, day in months:
            last = [d for d in days if d <= day]
            if last and day > next_inspection_due(last[-1], law):
                over_time[label] += 1
    return out, [{"month": label, "month_end": day.isoformat(), "overdue": over_time[label]}
                 for label, day in months]


def _on_record(ws: Session, parcels: list[dict[str, Any]], dates: dict[str, list[date]],
               end: date) -> dict[str, dict[str, Any]]:
    """Every system on record, each counted once: by its lake zone as the records place it
    now (undetermined where they cannot settle it, not judged with no law on file), and
    of those, the ones never inspected by the period's end."""
    from .summaries import summaries

    found = summaries(ws, {r["id"]: r["municipality"] for r in parcels})
    out: dict[str, dict[str, Any]] = {}
    for r in parcels:
        s = found.get(r["id"])
        judged = (ws.laws.for_municipality(r["municipality"]) is not None and s is not None
                  and s.law and s.zone is not None)
        zone = s.zone.value if judged and s is not None and s.zone is not None else "not_judged"
        never = not any(d <= end for d in dates.get(r["id"], []))
        for key in (r["municipality"], TOTAL):
            counts = out.setdefault(key, _no_systems())
            counts["parcels"] += 1
            counts[zone] += 1
            if never:
                counts["never_inspected_at_end"]["parcels"] += 1
                counts["never_inspected_at_end"][zone] += 1
    return out


def _no_systems() -> dict[str, Any]:
    """Systems on record by lake zone, and those never inspected by the period's end."""
    return {"parcels": 0, **dict.fromkeys(ZONES, 0),
            "never_inspected_at_end": {"parcels": 0, **dict.fromkeys(ZONES, 0)}}


def _results(ws: Session, ids: set[str], progress: Progress | None,
             cancelled: Callable[[], bool]) -> list[InspectionResult]:
    """Every inspection of the parcels `ids` that have one, judged as the record stood."""
    inspected = inspection_rows.inspected_parcels(ws.store.conn)
    return inspection_results(ws, parcel_ids=[i for i in inspected if i in ids],
                              progress=progress, cancelled=cancelled)


def program_report(ws: Session, start: date, end: date, *,
                   municipalities: Sequence[str] | None = None, as_of: date | None = None,
                   progress: Progress | None = None,
                   cancelled: Callable[[], bool] = lambda: False) -> ProgramReport:
    """The report for the period `start`..`end` (both days included); `as_of`: today."""
    today = check_period(ws, start, end, as_of=as_of)
    parcels, names = chosen_parcels(ws, municipalities)
    ids = {r["id"] for r in parcels}
    results = _results(ws, ids, progress, cancelled)
    if cancelled():
        raise Cancelled("The report was cancelled; nothing was written.")
    municipality = {r["id"]: r["municipality"] for r in parcels}
    dates: dict[str, list[date]] = {}
    for r in results:
        dates.setdefault(r.parcel_id, []).append(r.date)
    for days in dates.values():
        days.sort()
    months = _months(start, end)
    letters = _letters(ws, ids, start, end)
    served = served_between(ws, ids, start, end, total=TOTAL)
    requests = period_counts(ws, municipality, start, end, total=TOTAL)
    upkeep = _upkeep(ws, parcels, results, end)
    received = received_figures(ws, ids, start, end, total=TOTAL)
    five, overdue_over_time = _five_year(ws, parcels, dates, start, end, months)
    on_record = _on_record(ws, parcels, dates, end)
    empty_five = dict.fromkeys(FIVE_YEAR_KEYS, 0)
    empty_unit = {"units": 0, "compliant": 0, "not_judged": 0}

    def group(key: str) -> dict[str, Any]:
        chosen = results if key == TOTAL else [r for r in results
                                               if municipality[r.parcel_id] == key]
        law = (any(ws.laws.for_municipality(n) is not None for n in names) if key == TOTAL
               else ws.laws.for_municipality(key) is not None)
        return {"law_on_file": law, **_tally(chosen, start, end),
                "letters_issued": letters.get(key, _no_letters()),
                "notices_served": served.get(key, no_service()),
                "requests": requests.get(key, no_requests()),
                "etu": upkeep.get(key, {}).get("etu", dict(empty_unit)),
                "holding_tanks": upkeep.get(key, {}).get("holding_tanks", dict(empty_unit)),
                "records_received": received.get(key, no_figures()),
                "five_year": {**five.get(key, dict(empty_five)), **{
                    name: on_record.get(key, _no_systems())["never_inspected_at_end"][zone]
                    for name, zone in FIVE_YEAR_NEVER.items()}},
                "systems_on_record": on_record.get(key, _no_systems())}

    in_period = [r for r in results if start <= r.date <= end]
    per_month = []
    for label, _ in months:
        month = [r for r in in_period if r.date.isoformat()[:7] == label]
        per_month.append({"month": label,
                          **{k: sum(1 for r in month if _outcome(r) == k) for k in OUTCOMES}})
    rate = {}
    for zone in ("within_200ft", "beyond_200ft"):
        chosen = [r for r in in_period if r.zone == zone]
        failures = sum(1 for r in chosen if r.outcome == Outcome.FAILURE)
        rate[zone] = {"inspections": len(chosen), "failures": failures,
                      "percent": None if not chosen else round(100 * failures / len(chosen), 1)}
    latest: dict[str, InspectionResult] = {}
    for r in in_period:
        latest[r.parcel_id] = r
    figures = {
        "format": REPORT_FORMAT,
        "from": start.isoformat(), "to": end.isoformat(), "as_of": today.isoformat(),
        "municipalities": names,
        "totals": group(TOTAL),
        "by_municipality": {name: group(name) for name in names},
        "charts": {"inspections_per_month": per_month, "failure_rate": rate,
                   "overdue_five_year": overdue_over_time},
        "map": [{"sbl": r.sbl, "outcome": _outcome(r), "date": r.date.isoformat(),
                 "longitude": r.location[0], "latitude": r.location[1]}
                for r in sorted(latest.values(), key=lambda r: sbl_sort_key(r.sbl))
                if r.location is not None],
        "map_without_location": sorted((r.sbl for r in latest.values() if r.location is None),
                                       key=sbl_sort_key),
        "open_matters": open_matters(ws, parcels, results, end),
    }
    return ProgramReport(figures=figures, inspections=tuple(in_period))


# --- the PDF ---------------------------------------------------------------------------

def _notes(ws: Session, names: Sequence[str]) -> list[str]:
    """What each figure counts, with the section of each municipality's law it rests on."""
    notes = [
        "Inspections: each inspection counts with what it found as the record stood for it: "
        "the record as it was just before the parcel's next inspection was recorded (for the "
        "latest, as it stands now), with the ETU service reports and pump-outs dated up to "
        "its day, judged under the municipality's law as of that day. Incomplete: a "
        "component was not located, and nothing else failed or was substandard.",
        "Systems inspected: parcels, each once, in the lake zone its latest inspection in the "
        "period found (a field measurement, else the map's distance with the shoreline "
        "layer's declared accuracy and the capture accuracy of the area measured, added). "
        "Undetermined: no distance on record, or a map distance whose accuracy cannot settle "
        "the 200-ft question. Distances are from the absorption area (or holding tank) to "
        "the lake line of the data folder's active shoreline layer (named on the map page).",
        "Systems on record: every parcel, once, in the lake zone the records place it in "
        "now (undetermined where they cannot settle it; not judged with no law on file); "
        "never inspected: no inspection on record up to the period's end, whatever the "
        "zone.",
        "Failures found: inspections in the period that found a failure. Corrected: "
        "inspections in the period that found no failure (acceptable or substandard) where "
        "the parcel's previous inspection with a finding found one; the records hold no "
        "separate repair record. Systems in failure at the period's end: parcels whose "
        "latest inspection up to the end found a failure.",
        "Failure rate (page 2): failures found over all inspections in the period in the "
        "zone, within and beyond 200 ft; inspections whose zone is undetermined or not "
        "judged are left out.",
        "Letters issued: issued letters (not drafts) dated in the period, each counted "
        "once, by kind the letter in force at the period's end: a correction counts in its "
        "kind in place of the letter it replaces; corrections: those of them issued as a "
        "correction of an earlier letter; replaced by a correction: letters of the period "
        "a correction dated by its end replaced, counted in no kind.",
        "Notices served: notices of violation and substandard notices dated in the period "
        "and in force at its end (the same letters the kinds count); served: a service "
        "recorded by the period's end (mail, "
        "certified mail, hand delivery or posting); confirmed: a delivery confirmed (a "
        "return receipt, or handed over); unconfirmed: served with no delivery confirmed, "
        "those that came back undelivered included.",
        "Inspection requests: received in the period; answered by the parcel's first "
        "inspection on or after the request, dated in the period; open and past due: neither "
        "answered nor cancelled by the period's end, due before it.",
        "ETUs and holding tanks: systems whose latest inspection up to the period's end "
        "recorded the unit. An ETU counts as compliant with a service contract, its "
        "inspections at the required interval and each report received within ten days; a "
        "holding tank with a hauler contract and every pump-out record received within the "
        "days its law allows after the pump-out; both as "
        "the records stand, counting what is dated up to the period's end.",
        "Records received from providers: ETU reports and pump-out records received in the "
        "period (one typed without its day received is not counted); late: past the days "
        "the parcel's law allows; not functional: services in the period not certifying the "
        "unit; contracts lapsed: ended before the period's end, as the latest report states.",
        "Five-year inspections: systems within 200 ft as the records place them now. A cycle "
        "runs from an inspection to the same day one cycle later (the years each law sets, "
        "below); "
        "it fell due in the period when that day is in it (and no inspection renewed it "
        "before the period began). Done on time: the next inspection came by that day; "
        "late: after it, by the period's end. Overdue at the end: more than one cycle since "
        "the last inspection. Never inspected: no inspection on record up to the end, the "
        "same count as under systems on record (its within-200-ft line); systems whose "
        "zone is undetermined are outside the cycle's counts and named beside them.",
        "Open matters: a failure that no later inspection has found corrected (since the "
        "first of the failing inspections in a row), and a notice of violation in force "
        "one of whose dates (permit, completion, reply) passed while a failure or "
        "violation stands (since the date), at the period's end; \"deadline passed; "
        "service not shown\" where no service of the notice is recorded by then or it "
        "came back undelivered.",
    ]
    laws: dict[str, tuple[Any, list[str]]] = {}
    lawless = []
    for name in names:
        law = ws.laws.for_municipality(name)
        if law is None:
            lawless.append(name)
        else:
            laws.setdefault(law.id, (law, []))[1].append(name)
    for law, towns in laws.values():
        notes.append(
            f"{', '.join(towns)}: {law.title}. Failure {law.cite('system_in_failure')}; "
            f"200-ft lake zone {law.cite('within_200ft')}; ETU service "
            f"{law.cite('etu_service')}; holding tanks {law.cite('holding_tank_service')}; "
            f"five-year inspections {law.cite('five_year_inspection')} "
            f"({law.inspection_cycle_years}-year cycle).")
    if lawless:
        notes.append(f"No law on file for {', '.join(lawless)}: their inspections are "
                     "counted, and nothing is judged (outcome and lake zone \"not judged\").")
    return notes


def _map_inputs(ws: Session, figures: dict[str, Any]) -> Any:
    from ...documents.program_pdf import MapInputs
    from ...geo.crs import lonlat_to_feet
    from ...geo.lake_line import lake_rings
    from ..reference.shorelines import active_layer

    layer = active_layer(ws)
    if layer is None:
        return None
    points = figures["map"]
    xs, ys = lonlat_to_feet([p["longitude"] for p in points], [p["latitude"] for p in points])
    return MapInputs(rings=lake_rings(layer.lake, tolerance_ft=40.0),
                     points=[(float(x), float(y), p["outcome"])
                             for x, y, p in zip(xs, ys, points, strict=True)],
                     layer=layer.label())


def program_report_pdf(ws: Session, report: ProgramReport) -> bytes:
    """The report as PDF: tallies, charts, the lake map and the open matters."""
    from ...documents.program_pdf import ReportInputs, render_program_report
    from ..session.letterhead import office_for

    office = office_for(ws)
    return render_program_report(ReportInputs(
        figures=report.figures, office=office.office_name, department=office.department,
        map=_map_inputs(ws, report.figures), notes=_notes(ws, report.figures["municipalities"])))


# --- the inspections of a period, for the exports (`exports`) ---------------------------

def period_results(ws: Session, start: date, end: date, *,
                   municipalities: Sequence[str] | None = None, as_of: date | None = None,
                   progress: Progress | None = None,
                   cancelled: Callable[[], bool] = lambda: False) -> list[InspectionResult]:
    """Every inspection of the parcels chosen, by date then SBL, once the period is
    checked; the export's rows are those dated in the period."""
    check_period(ws, start, end, as_of=as_of)
    parcels, _ = chosen_parcels(ws, municipalities)
    return _results(ws, {r["id"] for r in parcels}, progress, cancelled)
