"""The program report's open matters at a period's end: failures no later inspection
found corrected, and notices of violation in force whose dates have passed while a
failure or violation stands, apart where the notice's service is not shown."""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING, Any

from ...domain.rules import Outcome
from ...domain.sbl import sbl_sort_key
from ..parcel.inspection_history import InspectionResult
from ..parcel.served import DATE_NAMES, DATE_WORDS, Served, notices_in_force_or_replaced

if TYPE_CHECKING:
    from ..session.session import Session


def open_matters(ws: Session, parcels: list[dict[str, Any]],
                  results: list[InspectionResult], end: date) -> list[dict[str, Any]]:
    """At the period's end: systems whose latest inspection found a failure (no later
    inspection found it corrected), and notices of violation in force at the period's end
    (issued by then, not replaced by then) one of whose dates (permit, completion, reply)
    has passed while a failure or violation stands: the latest inspection's, or one the
    office's records make as of the end (an ETU report or pump-out record missing). A
    notice whose service is not shown by the end (none recorded, or it came back
    undelivered) is listed apart: "deadline passed; service not shown"."""
    from ...documents.content import IMMEDIATE, ON_SITE
    from .served import SERVICE_SHOWN, SERVICE_WORDS, service_of
    from .summaries import summaries

    by_parcel: dict[str, list[InspectionResult]] = {}
    for r in results:
        if r.date <= end:
            by_parcel.setdefault(r.parcel_id, []).append(r)
    notices = _in_force_at(ws, end)
    service = {i: s.state for i, s in service_of(
        ws, [n.letter_id for found in notices.values() for n in found], end).items()}
    noticed = [p for p in parcels if p["id"] in notices]
    records = {i: [v for v in s.violations(end) if v.code not in ON_SITE]
               for i, s in summaries(ws, {p["id"]: p["municipality"] for p in noticed}).items()
               if s.law}
    out = []
    for p in parcels:
        history = by_parcel.get(p["id"])
        last = history[-1] if history and history[-1].outcome is not None else None
        base = {"sbl": p["sbl"], "municipality": p["municipality"],
                "site_address": p["site_address"]}
        failure_section = None if last is None else next(
            (c for code, c in last.violations if code == "system_in_failure"),
            last.outcome_citation)
        if last is not None and last.outcome == Outcome.FAILURE:
            assert history is not None
            since = last.date
            for r in reversed(history):
                if r.outcome != Outcome.FAILURE:
                    break
                since = r.date
            out.append({**base, "matter": "failure found; no later inspection has found it "
                                          "corrected",
                        "since": since.isoformat(), "section": failure_section,
                        "inspection": last.date.isoformat()})
        sections = ([failure_section] if last is not None and last.outcome == Outcome.FAILURE
                    else [] if last is None else [c for _, c in last.violations])
        sections += [v.citation for v in records.get(p["id"], ())]
        if not sections:
            continue
        # a discharging holding tank's pump-out record: past while the discharge stands
        discharge = None if last is None else next(
            (c for code, c in last.violations if code in IMMEDIATE), None)
        for n in notices.get(p["id"], ()):
            for field in DATE_NAMES:
                day = n.dates.get(field)
                if day is None or not end > day or (field == "pump_out_by"
                                                    and discharge is None):
                    continue
                state = service[n.letter_id]
                what = f"{DATE_WORDS[field]} by {day.isoformat()}"
                out.append({**base, "matter": f"notice past its deadline ({what})"
                            if state in SERVICE_SHOWN else
                            f"deadline passed; service not shown ({what}; the notice of "
                            f"{n.letter_date.isoformat()}: {SERVICE_WORDS[state]})",
                            "since": day.isoformat(),
                            "section": discharge if field == "pump_out_by" else sections[0],
                            "inspection": None if last is None else last.date.isoformat(),
                            "service": state})
    out.sort(key=lambda m: (sbl_sort_key(m["sbl"]), m["since"]))
    return out


def _in_force_at(ws: Session, end: date) -> dict[str, list[Served]]:
    """The notices of violation in force at the end of `end`: dated by then, and not
    replaced by a correction dated by then."""
    out: dict[str, list[Served]] = {}
    for parcel_id, issued in notices_in_force_or_replaced(ws).items():
        dated = [n for n in issued if n.letter_date <= end]
        replaced = {n.replaces for n in dated if n.replaces is not None}
        kept = [n for n in dated if n.letter_id not in replaced]
        if kept:
            out[parcel_id] = kept
    return out
