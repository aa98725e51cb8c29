"""Inspection requests: taken at the office (a conveyance ahead of its closing, a complaint),
listed by due date, answered by the parcel's next inspection (`domain/requests.py`) or
cancelled when withdrawn. The list of requests, the `requests` work list and the parcel's
page all read a request's state from `states`, so they say the same."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import TYPE_CHECKING, Any

from ...domain.requests import (
    REQUEST_REASONS,
    RequestState,
    RequestStatus,
    due_problem,
    request_state,
)
from ...domain.sbl import sbl_sort_key
from ...errors import InputError, NotFoundError
from ...storage import requests as request_rows
from ...storage.rows import Row

if TYPE_CHECKING:
    from ..session.session import Session

WHICH = ("open", "all")


def _one_line(text: str | None, what: str) -> str | None:
    if text is None:
        return None
    joined = " ".join(text.split())
    if not joined:
        raise InputError(f"{what} is blank; give it in words, or leave it out.")
    return joined


def states(ws: Session, requests: Sequence[Row], as_of: date) -> list[RequestState]:
    """Each request's state as of the day, from its parcel's inspections that count."""
    parcel_ids = sorted({r["parcel_id"] for r in requests})
    inspections = request_rows.inspections_of(ws.store.conn, parcel_ids)
    out = []
    for r in requests:
        found = [(i, date.fromisoformat(d)) for i, d in inspections.get(r["parcel_id"], ())]
        cancelled = r["cancelled_on"]
        out.append(request_state(date.fromisoformat(r["requested_on"]),
                                 None if cancelled is None else date.fromisoformat(cancelled),
                                 found, as_of))
    return out


def _shown(r: Row, state: RequestState) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": r["id"], "sbl": r["sbl"], "reason": r["reason"], "due": r["due"],
        "requested_by": r["requested_by"], "requested_on": r["requested_on"],
        "status": state.status.value}
    if state.answered_by is not None:
        out["answered_by"] = {"inspection_id": state.answered_by.inspection_id,
                              "date": state.answered_by.date.isoformat()}
    if state.status is RequestStatus.CANCELLED:
        out["cancelled"] = {"on": r["cancelled_on"], "by": r["cancelled_by"],
                            "reason": r["cancel_reason"]}
    return out


def add_request(ws: Session, sbl: str, *, reason: str, due: date,
                requested_by: str | None = None) -> dict[str, Any]:
    """Take a request of an inspection of the parcel, due by `due`; refused with one
    sentence, nothing changed, for an unknown parcel, reason or implausible date."""
    if reason not in REQUEST_REASONS:
        raise InputError(f"{reason!r} is not a reason for an inspection; the reasons are "
                         f"{', '.join(REQUEST_REASONS)}.")
    today = ws.today()
    problem = due_problem(due, today)
    if problem is not None:
        raise InputError(problem)
    by = _one_line(requested_by, "Requested by")
    parcel_id = ws.parcel_id(sbl)
    with ws.store.transaction() as w:
        request_id = request_rows.take(w, parcel_id, {
            "reason": reason, "due": due.isoformat(), "requested_by": by,
            "requested_on": today.isoformat()})
    found = request_rows.by_id(ws.store.conn, request_id)
    assert found is not None
    return _shown(found, states(ws, [found], today)[0])


def list_requests(ws: Session, *, which: str = "open", sbl: str | None = None,
                  as_of: date | None = None) -> list[dict[str, Any]]:
    """The requests, of one parcel or all, by due date: the open ones, or all of them with
    the inspection that answered each or its cancellation."""
    if which not in WHICH:
        raise ValueError(which)
    day = as_of or ws.today()
    found = request_rows.of_parcels(ws.store.conn,
                                    None if sbl is None else [ws.parcel_id(sbl)])
    out = [_shown(r, s) for r, s in zip(found, states(ws, found, day), strict=True)]
    return out if which == "all" else [r for r in out if r["status"] == "open"]


def cancel_request(ws: Session, request_id: str, *, reason: str) -> dict[str, Any]:
    """Record a request withdrawn (the closing fell through, the complaint was withdrawn):
    kept, marked cancelled with who, when and why. Refused, nothing changed, for an unknown
    request or one already answered or cancelled."""
    why = _one_line(reason, "The reason for cancelling")
    found = request_rows.by_id(ws.store.conn, request_id.strip())
    if found is None:
        raise NotFoundError(f"No inspection request {request_id!r} in {ws.records_place}; "
                            "`inspector-app requests list --all` lists them with their ids.")
    today = ws.today()
    state = states(ws, [found], today)[0]
    if state.status is RequestStatus.CANCELLED:
        raise InputError(f"The request {found['id']} was cancelled on {found['cancelled_on']} "
                         f"({found['cancel_reason']}); nothing was changed.")
    if state.answered_by is not None:
        raise InputError(f"The request {found['id']} was answered by the inspection of "
                         f"{state.answered_by.date.isoformat()}; there is nothing to cancel.")
    with ws.store.transaction() as w:
        request_rows.cancel(w, found["id"], on=today.isoformat(), by=ws.user, reason=why or "")
    after = request_rows.by_id(ws.store.conn, found["id"])
    assert after is not None
    return _shown(after, states(ws, [after], today)[0])


def _open(ws: Session, as_of: date, parcel_ids: Sequence[str] | None) -> list[Row]:
    """The requests open as of the day: made by then, neither answered nor cancelled by
    then."""
    found = [r for r in request_rows.of_parcels(ws.store.conn, parcel_ids)
             if r["requested_on"] <= as_of.isoformat()]
    return [r for r, s in zip(found, states(ws, found, as_of), strict=True)
            if s.status is RequestStatus.OPEN]


def open_requests(ws: Session, *, as_of: date, parcel_ids: Sequence[str] | None = None
                  ) -> list[dict[str, Any]]:
    """The requests open as of the day, earliest due first, each with its parcel's site
    address and owner and the days left until it is due (negative once past): the
    `requests` work list."""
    out = []
    for r in _open(ws, as_of, parcel_ids):
        days = (date.fromisoformat(r["due"]) - as_of).days
        out.append({"id": r["id"], "sbl": r["sbl"], "site_address": r["site_address"],
                    "owner_name": r["owner_name"], "reason": r["reason"], "due": r["due"],
                    "days_left": days, "requested_by": r["requested_by"],
                    "requested_on": r["requested_on"],
                    "detail": f"{r['reason'].replace('_', ' ')} inspection "
                              + (f"due in {days} days" if days > 0 else "due today"
                                 if days == 0 else f"{-days} days past due")
                              + f" ({r['due']})"})
    out.sort(key=lambda i: (i["due"], sbl_sort_key(i["sbl"]), i["id"]))
    return out


def earliest_open_due(ws: Session, *, as_of: date, parcel_ids: Sequence[str] | None = None
                      ) -> dict[str, str]:
    """By parcel, the due date of its earliest request open as of the day (the parcel
    list's `requests` work list, in that order)."""
    out: dict[str, str] = {}
    for r in _open(ws, as_of, parcel_ids):
        out[r["parcel_id"]] = min(out.get(r["parcel_id"], r["due"]), r["due"])
    return out


# What the program report counts of the requests, for a period.
REPORT_KEYS = ("received", "answered", "open_past_due_at_end")


def no_requests() -> dict[str, int]:
    return dict.fromkeys(REPORT_KEYS, 0)


def period_counts(ws: Session, municipality_of: dict[str, str], start: date, end: date, *,
                  total: str) -> dict[str, dict[str, int]]:
    """For the program report, by municipality and under `total`, of the parcels named (id
    -> municipality): the requests received (requested) in the period, those an inspection
    dated in the period answered, and those open at the period's end whose due date had
    passed by then."""
    found = [r for r in request_rows.of_parcels(ws.store.conn)
             if r["parcel_id"] in municipality_of and r["requested_on"] <= end.isoformat()]
    out: dict[str, dict[str, int]] = {}
    for r, s in zip(found, states(ws, found, end), strict=True):
        for key in (total, municipality_of[r["parcel_id"]]):
            counts = out.setdefault(key, no_requests())
            counts["received"] += r["requested_on"] >= start.isoformat()
            counts["answered"] += s.answered_by is not None and s.answered_by.date >= start
            counts["open_past_due_at_end"] += (s.status is RequestStatus.OPEN
                                               and r["due"] < end.isoformat())
    return out
