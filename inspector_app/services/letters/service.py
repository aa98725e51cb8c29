"""How issued letters were served, and what became of them.

Each event is a record of its own beside the letter (`letter_service`), written through
the record writer (who, when, which device) and never changed: a letter is served (by
first-class mail, certified mail with its article number, hand delivery to a person, or
posting at a place), its delivery confirmed (a return receipt, signed by whom) or it comes
back undelivered. A hand delivery is its own confirmation. Letters are named by their id
or by the short id the app shows (its first characters).
"""

from __future__ import annotations

import re
from datetime import date
from typing import TYPE_CHECKING, Any

from ...domain.labels import words
from ...domain.records import SERVICE_METHODS
from ...errors import InputError, NotFoundError
from ...storage import letters as letter_rows
from ..lists.served import service_from, service_of

if TYPE_CHECKING:
    from ...storage.rows import Row
    from ..session.session import Session

MAILED = frozenset({"first_class_mail", "certified_mail"})
_SHORT_ID = re.compile(r"\A[0-9a-f][0-9a-f-]{3,35}\Z")
_ARTICLE = re.compile(r"\A[0-9A-Z]{10,30}\Z")
_GIVEN = {"article": "An article number", "to": "A person handed to",
          "where": "A place of posting"}


def letter_id_for(ws: Session, text: str) -> str:
    """The letter a full id or a short id (at least its first 4 characters) names; an
    unknown or ambiguous one is refused in a sentence."""
    wanted = text.strip().lower()
    if not _SHORT_ID.match(wanted):
        raise NotFoundError(f"{text!r} is not a letter id; give the id the register shows "
                            "(its first 8 characters are enough).")
    found = letter_rows.ids_starting(ws.store.conn, wanted)
    if not found:
        raise NotFoundError(f"No letter {text!r} in the register.")
    if len(found) > 1 and wanted not in found:
        raise InputError(f"Letter id {text!r} is the beginning of more than one letter's id "
                         f"({', '.join(f[:13] for f in found[:2])}...); give more of it.")
    return wanted if wanted in found else found[0]


def _issued(ws: Session, letter_id: str, doing: str) -> Row:
    row = letter_rows.letter(ws.store.conn, letter_id)
    if row is None:
        raise NotFoundError(f"No letter {letter_id!r} in the register.")
    if row["status"] != "issued":
        raise InputError(f"Letter {letter_id[:8]} is a draft, not an issued letter; only an "
                         f"issued letter is {doing}.")
    return row


def _day(ws: Session, on: date, letter: Row, letter_id: str, what: str) -> None:
    if on > ws.today():
        raise InputError(f"The date {what} {on.isoformat()} is after today "
                         f"({ws.today().isoformat()}); record it once it has happened.")
    if on.isoformat() < letter["letter_date"]:
        raise InputError(f"The date {what} {on.isoformat()} is before letter "
                         f"{letter_id[:8]}'s date ({letter['letter_date']}).")


def _text(value: str | None) -> str | None:
    return None if value is None or not value.strip() else " ".join(value.split())


def check_serve(ws: Session, letter_ref: str, *, method: str, on: date,
                article: str | None = None, to: str | None = None,
                where: str | None = None) -> dict[str, Any]:
    """The event `serve` would record, after every refusal it makes; nothing is written."""
    letter_id = letter_id_for(ws, letter_ref)
    letter = _issued(ws, letter_id, "served")
    if method not in SERVICE_METHODS:
        raise InputError(f"{method!r} is not a way of serving a letter; the ways are "
                         f"{', '.join(SERVICE_METHODS)}.")
    article = None if article is None else re.sub(r"[\s-]", "", article).upper() or None
    to, where = _text(to), _text(where)
    needs = {"certified_mail": ("article", article, "its article number"),
             "hand_delivery": ("to", to, "to whom it was handed"),
             "posting": ("where", where, "where it was posted")}
    given = {"article": article, "to": to, "where": where}
    if method in needs and needs[method][1] is None:
        what = needs[method][2]
        raise InputError(f"Serving by {words(method)} needs {what} (--{needs[method][0]}).",
                         in_app=f"Serving by {words(method)} needs {what}.")
    for name, value in given.items():
        if value is not None and (method not in needs or needs[method][0] != name):
            raise InputError(f"--{name} does not go with serving by {words(method)}.",
                             in_app=f"{_GIVEN[name]} does not go with serving by "
                                    f"{words(method)}.")
    if article is not None and not _ARTICLE.match(article):
        raise InputError(f"The certified mail article number {article!r} is not one: it is "
                         "10 to 30 letters and digits (e.g. 7019 0700 0000 1234 5678).")
    _day(ws, on, letter, letter_id, "of service")
    replaced = letter_rows.replacement_of(ws.store.conn, letter_id)
    if replaced is not None:
        raise InputError(f"Letter {letter_id[:8]} was replaced by letter {replaced[0][:8]} "
                         f"(dated {replaced[1]}); serve the letter in force instead.")
    events = letter_rows.service_of(ws.store.conn, [letter_id]).get(letter_id, [])
    now = service_from(events)
    if now.delivered is not None:
        raise InputError(f"Letter {letter_id[:8]}'s delivery is already confirmed "
                         f"({now.delivered['event_date']}); nothing was recorded.")
    values = {"letter_id": letter_id, "event": "served", "method": method,
              "article_number": article, "delivered_to": to, "posted_at": where,
              "event_date": on.isoformat()}
    for e in now.served:
        if all(e[k] == v for k, v in values.items()):
            raise InputError(f"Letter {letter_id[:8]}'s service by {words(method)} on "
                             f"{on.isoformat()} is already recorded; nothing was recorded.")
    return {"parcel_id": letter["parcel_id"], **values}


def serve(ws: Session, letter_ref: str, *, method: str, on: date, article: str | None = None,
          to: str | None = None, where: str | None = None) -> dict[str, Any]:
    """Record how and when an issued letter was served."""
    event = check_serve(ws, letter_ref, method=method, on=on, article=article, to=to,
                        where=where)
    return _record(ws, event)


def check_delivered(ws: Session, letter_ref: str, *, on: date,
                    signed_by: str | None = None) -> dict[str, Any]:
    letter_id = letter_id_for(ws, letter_ref)
    letter = _issued(ws, letter_id, "delivered")
    _day(ws, on, letter, letter_id, "of delivery")
    now = service_from(letter_rows.service_of(ws.store.conn, [letter_id]).get(letter_id, []))
    if not now.served:
        need = f"Letter {letter_id[:8]} has no service recorded; record how it was served first"
        raise InputError(f"{need} (`inspector-app register serve`).",
                         in_app=f"{need} (Record service..., Served).")
    if now.delivered is not None:
        raise InputError(f"Letter {letter_id[:8]}'s delivery is already confirmed "
                         f"({now.delivered['event_date']}); nothing was recorded.")
    first = now.served[0]["event_date"]
    if on.isoformat() < first:
        raise InputError(f"The date of delivery {on.isoformat()} is before letter "
                         f"{letter_id[:8]} was served ({first}).")
    return {"parcel_id": letter["parcel_id"], "letter_id": letter_id, "event": "delivered",
            "signed_by": _text(signed_by), "event_date": on.isoformat()}


def delivered(ws: Session, letter_ref: str, *, on: date,
              signed_by: str | None = None) -> dict[str, Any]:
    """Record that a served letter's delivery was confirmed (a return receipt)."""
    return _record(ws, check_delivered(ws, letter_ref, on=on, signed_by=signed_by))


def check_returned(ws: Session, letter_ref: str, *, on: date, reason: str) -> dict[str, Any]:
    letter_id = letter_id_for(ws, letter_ref)
    letter = _issued(ws, letter_id, "returned")
    why = _text(reason)
    if why is None:
        raise InputError("Say why the letter came back (--reason), as the post office "
                         "marked it.", in_app="Say why the letter came back, as the post "
                                              "office marked it.")
    _day(ws, on, letter, letter_id, "it came back")
    now = service_from(letter_rows.service_of(ws.store.conn, [letter_id]).get(letter_id, []))
    mailed = [e for e in now.served if e["method"] in MAILED]
    if not mailed:
        raise InputError(f"Letter {letter_id[:8]} has no service by mail recorded; only a "
                         "mailed letter comes back undelivered.")
    if now.delivered is not None:
        raise InputError(f"Letter {letter_id[:8]}'s delivery is already confirmed "
                         f"({now.delivered['event_date']}); nothing was recorded.")
    if on.isoformat() < mailed[0]["event_date"]:
        raise InputError(f"The date it came back {on.isoformat()} is before letter "
                         f"{letter_id[:8]} was mailed ({mailed[0]['event_date']}).")
    return {"parcel_id": letter["parcel_id"], "letter_id": letter_id, "event": "returned",
            "reason": why, "event_date": on.isoformat()}


def returned(ws: Session, letter_ref: str, *, on: date, reason: str) -> dict[str, Any]:
    """Record that a mailed letter came back undelivered."""
    return _record(ws, check_returned(ws, letter_ref, on=on, reason=reason))


def _record(ws: Session, event: dict[str, Any]) -> dict[str, Any]:
    parcel_id = event.pop("parcel_id")
    values = {k: v for k, v in event.items() if v is not None}
    with ws.store.transaction() as w:
        values["recorded_by"] = w.actor.user
        event_id = w.insert("letter_service", values, parcel_id=parcel_id)
    state = service_of(ws, [values["letter_id"]])[values["letter_id"]]
    return {"id": event_id, **values, "service": state.as_json()}
