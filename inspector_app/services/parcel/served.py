"""What was served: the notices of violation in force and the dates each one set.

Follow-up (the work list `notices-past-deadline`, the parcel's page, the program report's
open matters) reads the notices issued, never the deadlines typed into a case: those are
the office's input for the next notice. A notice is in force from its issue until an
issued correction replaces it; a correction's dates replace the corrected letter's.

A letter issued before its dates were kept with it (schema version 14) has them read from
the records it was made from: the case as it stood at the letter's case version, replayed
from the change log and judged as of the letter's date, gives the deadlines the letter
stated (those recorded on the case then, else the law's defaults counted from its date),
moved off weekends and public holidays as the law moves them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Any

from ...documents.content import LETTER_DATES
from ...storage import letters as letter_rows
from ...storage.cases import stored_date
from ...storage.rows import Row

if TYPE_CHECKING:
    from ..session.session import Session

NOTICE = "notice_of_violation"
# The dates a letter may set, in the order a clerk reads them; follow-up reads each one.
DATE_NAMES = LETTER_DATES
# Each date in the words the program report's open matters use.
DATE_WORDS = {"permit_by": "permit application", "complete_by": "work complete",
              "reply_by": "reply", "pump_out_by": "pump-out record"}


@dataclass(frozen=True)
class Served:
    """One issued letter's dates as served: `kept` when they were stored with it at issue,
    else read from the records it was made from (`derived`)."""

    letter_id: str
    parcel_id: str
    kind: str
    letter_date: date
    dates: dict[str, date]
    kept: bool
    replaces: str | None

    def as_json(self) -> dict[str, Any]:
        return {"letter_id": self.letter_id, "letter_date": self.letter_date.isoformat(),
                **{name: None if name not in self.dates else self.dates[name].isoformat()
                   for name in DATE_NAMES},
                "dates_from": "letter" if self.kept else "derived from its records",
                "replaces": self.replaces}


def _derived(ws: Session, row: Row) -> dict[str, date]:
    """The dates a letter issued before they were kept stated, from its records."""
    from ...documents.content import CONSTRUCTION, WORKS, deadlines
    from ...domain.rules import LetterKind
    from .evaluation import evaluate_case
    from .inspection_history import case_at

    if row["kind"] != NOTICE:
        return {}
    law = ws.laws.for_municipality(row["municipality"])
    case = case_at(ws, row["parcel_id"], int(row["case_version"]))
    if law is None or case is None:
        return {}
    day = date.fromisoformat(row["letter_date"])
    evaluation = evaluate_case(ws, case, as_of=day)
    codes = {f.code for f in evaluation.violations}
    if LetterKind.NOTICE_OF_VIOLATION not in evaluation.letters:  # judged otherwise today
        codes = set(CONSTRUCTION | WORKS)
    permit_by, complete_by, _, _ = deadlines(case, law, day)
    out = {}
    if codes & CONSTRUCTION:
        out["permit_by"] = permit_by
    if codes & (CONSTRUCTION | WORKS):
        out["complete_by"] = complete_by
    return out


def _served(ws: Session, row: Row) -> Served:
    kept = {name: day for name in DATE_NAMES if (day := stored_date(row[name])) is not None}
    is_kept = bool(kept) or not _before_kept(row)
    return Served(letter_id=row["id"], parcel_id=row["parcel_id"], kind=row["kind"],
                  letter_date=date.fromisoformat(row["letter_date"]),
                  dates=kept if is_kept else _derived(ws, row), kept=is_kept,
                  replaces=row["replaces_letter_id"])


def _before_kept(row: Row) -> bool:
    """Whether a letter with no dates kept may be one issued before they were kept: a
    notice of violation always sets a date, so one with none was issued before."""
    return bool(row["kind"] == NOTICE)


def notices_in_force(ws: Session, parcel_ids: Sequence[str] | None = None
                     ) -> dict[str, list[Served]]:
    """The notices of violation in force (issued, not replaced), by parcel id, in the
    order issued, each with the dates it set."""
    out: dict[str, list[Served]] = {}
    for row in letter_rows.in_force(ws.store.conn, NOTICE, parcel_ids):
        out.setdefault(row["parcel_id"], []).append(_served(ws, row))
    return out


def notices_in_force_or_replaced(ws: Session) -> dict[str, list[Served]]:
    """Every notice of violation issued, replaced or not, by parcel id in the order issued:
    what was in force on an earlier day is read from it."""
    out: dict[str, list[Served]] = {}
    for row in letter_rows.in_force(ws.store.conn, NOTICE, None, replaced_too=True):
        out.setdefault(row["parcel_id"], []).append(_served(ws, row))
    return out


def served(ws: Session, letter_id: str) -> Served | None:
    """An issued letter's dates as served, or None when the register holds no such
    issued letter."""
    row = letter_rows.kept_dates(ws.store.conn, letter_id)
    return None if row is None else _served(ws, row)
