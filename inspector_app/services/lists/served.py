"""What became of the notices issued: served, delivered, returned, as of a date.

A letter's service is read from its events (`letter_service`, recorded by
`services/letters/service.py`) in the order they happened. The work list
`notices-service-unconfirmed` and the program report's count of served notices are made
here, from the register.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Any

from ...domain.labels import words
from ...storage import letters as letter_rows

if TYPE_CHECKING:
    from ...storage.rows import Row
    from ..session.session import Session

# Methods that deliver in the act: their service needs no other confirmation.
CONFIRMED_BY_ITSELF = frozenset({"hand_delivery"})
# The letters whose service the office follows up: those that set the owner a deadline.
NOTICE_KINDS = ("notice_of_violation", "substandard_notice")
# The states in which a notice's service is shown (served, its delivery confirmed or not):
# only such a notice's passed deadline is past due. One that came back undelivered or was
# never served is listed apart, "deadline passed; service not shown".
SERVICE_SHOWN = ("delivered", "served")
# How each state reads where a passed deadline is listed.
SERVICE_WORDS = {"delivered": "served, delivery confirmed",
                 "served": "served, delivery not confirmed",
                 "returned": "came back undelivered", "not_served": "no service recorded"}


def shown_first(states: list[str]) -> str:
    """Of the service states of several notices, the one that shows service best
    (confirmed, served, returned, not served)."""
    order = (*SERVICE_SHOWN, "returned", "not_served")
    return min(states, key=order.index)


@dataclass(frozen=True)
class Service:
    """What became of a letter as of a date, from its events in the order they happened."""

    state: str  # not_served | served | delivered | returned
    served: tuple[Row, ...]
    delivered: Row | None
    returned: Row | None
    since: str | None  # the date of the event that put it in this state

    def as_json(self) -> dict[str, Any]:
        def event(r: Row) -> dict[str, Any]:
            keep = ("event", "method", "article_number", "delivered_to", "posted_at",
                    "signed_by", "reason", "event_date", "recorded_by", "created_at")
            return {k: r[k] for k in keep if r[k] is not None}

        return {"state": self.state, "since": self.since,
                "served": [event(r) for r in self.served],
                "delivered": None if self.delivered is None else event(self.delivered),
                "returned": None if self.returned is None else event(self.returned)}


def service_from(events: list[Row], as_of: date | None = None) -> Service:
    """A letter's service from its events (those dated up to `as_of`, when given)."""
    state, since = "not_served", None
    served: list[Row] = []
    delivered = returned = None
    for e in events:
        if as_of is not None and e["event_date"] > as_of.isoformat():
            continue
        if e["event"] == "served":
            served.append(e)
            if state != "delivered":
                state, since = "served", e["event_date"]
                if e["method"] in CONFIRMED_BY_ITSELF:
                    state, delivered = "delivered", e
        elif e["event"] == "delivered":
            state, since, delivered = "delivered", e["event_date"], e
        else:
            state, since, returned = "returned", e["event_date"], e
    return Service(state, tuple(served), delivered, returned, since)


def service_of(ws: Session, letter_ids: list[str] | None = None,
               as_of: date | None = None) -> dict[str, Service]:
    """The service of each letter named (None: of every letter that has any)."""
    found = letter_rows.service_of(ws.store.conn, letter_ids)
    ids = letter_ids if letter_ids is not None else list(found)
    return {i: service_from(found.get(i, []), as_of) for i in ids}


def unconfirmed(ws: Session, *, as_of: date) -> list[dict[str, Any]]:
    """The notices in force whose delivery is not confirmed N days (the parcel's law's
    `service_unconfirmed_days`) after they were last served, or issued when no service
    is recorded; a notice that came back is listed at once."""
    from ...domain.jurisdiction import Jurisdiction
    from ...domain.sbl import sbl_sort_key

    letters = [r for r in letter_rows.issued_in_force(ws.store.conn, NOTICE_KINDS)
               if r["letter_date"] <= as_of.isoformat()]
    services = service_of(ws, [r["id"] for r in letters], as_of)
    default = Jurisdiction.__dataclass_fields__["service_unconfirmed_days"].default
    out = []
    for r in letters:
        s = services[r["id"]]
        if s.state == "delivered":
            continue
        law = ws.laws.for_municipality(r["municipality"])
        days = law.service_unconfirmed_days if law is not None else default
        assert isinstance(days, int)
        start = date.fromisoformat(s.since or r["letter_date"])
        waited = (as_of - start).days
        if s.state != "returned" and waited <= days:
            continue
        how = words(s.served[-1]["method"]) if s.served else ""
        back = s.returned["reason"] if s.returned else ""
        detail = {"not_served": f"issued {r['letter_date']}; no service recorded",
                  "served": f"served {s.since} by {how}; no delivery confirmed",
                  "returned": f"came back undelivered {s.since} ({back}); serve it again",
                  }[s.state]
        out.append({"sbl": r["sbl"], "site_address": r["site_address"],
                    "owner_name": r["owner_name"], "letter_id": r["id"], "kind": r["kind"],
                    "letter_date": r["letter_date"], "status": s.state, "since": start.isoformat(),
                    "days": waited, "after_days": days, "detail": f"{detail} ({waited} days)",
                    "service": s.as_json()})
    out.sort(key=lambda i: (sbl_sort_key(i["sbl"]), i["letter_date"]))
    return out


def served_between(ws: Session, parcel_ids: set[str], start: date, end: date, *,
                   total: str) -> dict[str, dict[str, int]]:
    """Of the notices dated from `start` to `end` and in force at `end` (no correction
    dated by then replaces them) of the parcels named, by municipality and in all (under
    the key `total`): how many were served by `end`, of those how many have their delivery
    confirmed and how many not, how many came back undelivered, and how many were not
    served."""
    letters = [r for r in letter_rows.issued_between(ws.store.conn, start, end)
               if r["kind"] in NOTICE_KINDS and not r["replaced"]
               and r["parcel_id"] in parcel_ids]
    states = service_of(ws, [r["id"] for r in letters], end)
    out: dict[str, dict[str, int]] = {}
    for r in letters:
        state = states[r["id"]].state
        for key in (r["municipality"], total):
            counts = out.setdefault(key, no_service())
            counts["notices"] += 1
            counts["served"] += state != "not_served"
            counts["confirmed"] += state == "delivered"
            counts["unconfirmed"] += state in ("served", "returned")
            counts["returned"] += state == "returned"
            counts["not_served"] += state == "not_served"
    return out


def no_service() -> dict[str, int]:
    return dict.fromkeys(("notices", "served", "confirmed", "unconfirmed", "returned",
                          "not_served"), 0)
