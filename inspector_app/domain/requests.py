"""Inspection requests: when one is answered, open or withdrawn, and what a due date may be.

A request (a conveyance's closing, a complaint) is answered by the parcel's first
inspection dated on or after the day the request was made: worked out from the
inspections on record each time it is read, never a mark someone must remember to set. A
request cancelled before an inspection answers it is withdrawn. Every reader (the list of
requests, the work list, a laptop's) asks `request_state`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, timedelta
from enum import StrEnum

from .vocabulary import InspectionReason

# A request's reason is an inspection's reason: the same words, declared once.
REQUEST_REASONS: tuple[str, ...] = tuple(r.value for r in InspectionReason)
# How far ahead of the day it is requested an inspection may be asked for: a closing is
# weeks or months away; a date years ahead is a typing error. (The program's bound, not the
# law's.)
LATEST_DUE = timedelta(days=2 * 366)


class RequestStatus(StrEnum):
    OPEN = "open"
    ANSWERED = "answered"
    CANCELLED = "cancelled"


@dataclass(frozen=True)
class Answer:
    """The inspection that answered a request."""

    inspection_id: str
    date: date


@dataclass(frozen=True)
class RequestState:
    status: RequestStatus
    answered_by: Answer | None = None


def request_state(requested_on: date, cancelled_on: date | None,
                  inspections: Iterable[tuple[str, date]], as_of: date) -> RequestState:
    """A request's state as of a day, from the parcel's inspections that count (id, date):
    answered by the first one dated from the request's day to `as_of` (and, for a
    cancelled request, to the day it was cancelled); else cancelled, if it was by
    `as_of`; else open."""
    cancelled = cancelled_on is not None and cancelled_on <= as_of
    until = cancelled_on if cancelled and cancelled_on is not None else as_of
    answers = sorted((day, inspection_id) for inspection_id, day in inspections
                     if requested_on <= day <= until)
    if answers:
        day, inspection_id = answers[0]
        return RequestState(RequestStatus.ANSWERED, Answer(inspection_id, day))
    return RequestState(RequestStatus.CANCELLED if cancelled else RequestStatus.OPEN)


def due_problem(due: date, requested_on: date) -> str | None:
    """Why a due date cannot be a request's, in one sentence, or None."""
    if due < requested_on:
        return (f"The due date {due.isoformat()} is before the day the request is made "
                f"({requested_on.isoformat()}); give the date the inspection is needed by.")
    latest = requested_on + LATEST_DUE
    if due > latest:
        return (f"The due date {due.isoformat()} is more than two years after the day the "
                f"request is made ({requested_on.isoformat()}); check the date (at the latest "
                f"{latest.isoformat()}).")
    return None
