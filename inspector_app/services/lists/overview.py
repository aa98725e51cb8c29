"""One row per parcel with what the work lists filter on, computed as of a date."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Any

from ...domain.rules import Evaluation, LetterKind, Outcome, Zone, next_inspection_due
from ...domain.sbl import sbl_sort_key
from ...storage import letters as letter_rows
from ...storage import parcels as parcel_rows
from ..parcel.evaluation import assess_case
from ..parcel.requests import earliest_open_due
from ..session.laws import NoLawFacts
from .summaries import CaseSummary

if TYPE_CHECKING:
    from ..session.session import Session


@dataclass(frozen=True)
class _Judged:
    """What a row shows of a parcel's evaluation as of the date."""

    zone: Zone
    distance_ft: float | None
    standing: str
    outcome: Outcome
    codes: frozenset[str]
    letters: tuple[LetterKind, ...]
    # with no lake distance: the lot's distance to the lake line, its accuracy, the layer
    lot: tuple[float, float, str] | None = None


def _judged(s: CaseSummary, as_of: date) -> _Judged | tuple[float | None, str]:
    """The row's facts from a summary: judged, or (distance, sentence) with no law."""
    if not s.law:
        assert s.sentence is not None
        return (s.distance_ft, s.sentence)
    assert s.zone is not None and s.outcome is not None
    return _Judged(zone=s.zone, distance_ft=s.distance_ft, standing=s.standing,
                   outcome=s.outcome, codes=frozenset(v.code for v in s.violations(as_of)),
                   letters=s.letters(as_of),
                   lot=None if s.lot_distance_ft is None or s.lot_accuracy_ft is None
                   or s.lot_layer is None else (s.lot_distance_ft, s.lot_accuracy_ft,
                                                s.lot_layer))


def _evaluated(ws: Session, parcel_id: str, e: Evaluation | NoLawFacts
               ) -> _Judged | tuple[float | None, str]:
    """The same facts from an evaluation made as of the date, and the lot measured on its
    own (the reference)."""
    from .summaries import lot_estimate_alone

    if isinstance(e, NoLawFacts):
        return (e.lake_distance_ft, e.sentence)
    return _Judged(zone=e.lake.zone, distance_ft=e.lake.distance_ft, standing=e.standing,
                   outcome=e.outcome, codes=frozenset(v.code for v in e.violations),
                   letters=e.letters,
                   lot=None if e.lake.distance_ft is not None
                   else lot_estimate_alone(ws, parcel_id))


def _rows(ws: Session, sbls: list[str] | None) -> list[dict[str, Any]]:
    rows = parcel_rows.overview_rows(ws.store.conn, sbls)
    rows.sort(key=lambda r: sbl_sort_key(r["sbl"]))
    return rows


def _issued(ws: Session, rows: list[dict[str, Any]] | None = None
            ) -> dict[tuple[str, str], str]:
    """The date of the latest letter issued of each kind, by parcel (of `rows`, or all)."""
    return letter_rows.latest_issued(ws.store.conn,
                                     None if rows is None else [r["id"] for r in rows])


def _row(ws: Session, r: dict[str, Any], found: _Judged | tuple[float | None, str],
         issued: dict[tuple[str, str], str], as_of: date,
         requested: dict[str, str]) -> dict[str, Any]:
    """The parcel's row; `requested`: the due date of each parcel's earliest open
    inspection request (the flag `requests`, and `request_due` for its order)."""
    row = _judged_row(ws, r, found, issued, as_of)
    row["flags"]["requests"] = r["id"] in requested
    row["request_due"] = requested.get(r["id"])
    return row


def _judged_row(ws: Session, r: dict[str, Any], found: _Judged | tuple[float | None, str],
                issued: dict[tuple[str, str], str], as_of: date) -> dict[str, Any]:
    base = {"sbl": r["sbl"], "site_address": r["site_address"], "owner_name": r["owner_name"],
            "municipality": r["municipality"], "is_demo": bool(r["is_demo"])}
    if not isinstance(found, _Judged):  # no law on file: listed, and said so, not judged
        distance, sentence = found
        return {**base, "outcome": "no_law_on_file", "zone": "not judged",
                "distance_ft": distance, "due": None, "message": sentence,
                "flags": {"conflicts": bool(r["conflicts"]), "no_law": True}}
    e = found
    law = ws.laws.for_municipality(r["municipality"])
    assert law is not None  # judged under it
    last = r["last_inspection"]
    due = next_inspection_due(date.fromisoformat(last), law) if last else None
    pending = [k.value for k in e.letters
               if not issued.get((r["id"], k.value)) or (last and issued[(r["id"], k.value)]
                                                         < last)]
    flags = {
        "five_year": e.zone is Zone.WITHIN and (due is None or (due - as_of).days <=
                                                law.due_soon_days),
        "within": e.zone is Zone.WITHIN,
        "undetermined": e.zone is Zone.UNDETERMINED,
        "failure": e.outcome is Outcome.FAILURE,
        "substandard": e.outcome is Outcome.SUBSTANDARD,
        "etu": bool(e.codes & {"etu_no_service_contract", "etu_inspection_overdue",
                               "etu_report_late"}),
        "holding": bool(e.codes & {"holding_tank_no_hauler_contract",
                                   "holding_tank_records_missing",
                                   "holding_tank_discharging"}),
        "conflicts": bool(r["conflicts"]),
        "letters": bool(pending),
        "no_law": False,
    }
    from .worklists import lot_estimate

    return {**base, "outcome": e.standing, "zone": e.zone.value, "distance_ft": e.distance_ft,
            "due": None if due is None else due.isoformat(), "flags": flags,
            "lot_estimate": lot_estimate(law, e.lot)}


def overview(ws: Session, *, as_of: date,
             progress: Callable[[int, int], None] | None = None,
             cancelled: Callable[[], bool] = lambda: False,
             sbls: list[str] | None = None) -> list[dict[str, Any]]:
    """Rows for every parcel, or for the SBLs given (so a caller can work in chunks), from
    each parcel's summary (worked out and kept where none is on file)."""
    from .summaries import summaries

    rows = _rows(ws, sbls)
    issued = _issued(ws, None if sbls is None else rows)
    found = summaries(ws, {r["id"]: r["municipality"] for r in rows}, cancelled=cancelled)
    requested = earliest_open_due(ws, as_of=as_of,
                                  parcel_ids=None if sbls is None else [r["id"] for r in rows])
    out = []
    for n, r in enumerate(rows, start=1):
        if cancelled() or r["id"] not in found:
            break
        out.append(_row(ws, r, _judged(found[r["id"]], as_of), issued, as_of, requested))
        if progress is not None and (n % 200 == 0 or n == len(rows)):
            progress(n, len(rows))
    return out


def overview_one_by_one(ws: Session, *, as_of: date) -> list[dict[str, Any]]:
    """The reference `overview` must equal: each parcel loaded and evaluated on its own."""
    issued = _issued(ws)
    return [_row(ws, r, _evaluated(ws, r["id"], assess_case(ws, ws.load_case(r["sbl"]),
                                                               as_of=as_of)),
                 issued, as_of, earliest_open_due(ws, as_of=as_of, parcel_ids=[r["id"]]))
            for r in _rows(ws, None)]
