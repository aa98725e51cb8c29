"""Which of the letters a parcel's records call for is due: a new one, or the correction of
the one in force; a letter issued that a correction would repeat word for word is not due.
Derived from the checks the issue itself makes (`register.check_issue`), so what the
window offers is what issuing would do."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING

from ...errors import InspectorError
from .corrections import NothingToCorrect
from .register import check_issue, in_force_since_inspection

if TYPE_CHECKING:
    from ...domain.rules import Evaluation
    from ..session.session import Session

NEW, CORRECTION = "new", "correction"


@dataclass(frozen=True)
class LetterDue:
    kind: str
    # NEW, CORRECTION (of the letter in force) or None: issued, nothing to change
    due: str | None
    # the letter of the kind in force for the parcel's inspection: its id and date
    issued_id: str | None = None
    issued_on: str | None = None

    def issued_words(self) -> str:
        """"notice of violation issued 2026-11-25 (letter 1a2b3c4d)"; the kind alone when
        none is in force."""
        name = self.kind.replace("_", " ")
        if self.issued_id is None:
            return name
        return f"{name} issued {self.issued_on} (letter {self.issued_id[:8]})"


def letters_due(ws: Session, sbl: str, evaluation: Evaluation, *,
                as_of: date | None = None) -> tuple[LetterDue, ...]:
    """Each letter `evaluation` calls for, with whether it is due. A refusal other than a
    correction that changes nothing (a pending finding, a passed deadline) leaves the
    letter due: issuing it says what stands in the way."""
    day = as_of or ws.today()
    found = []
    for kind in (k.value for k in evaluation.letters):
        prior = in_force_since_inspection(ws, sbl, kind)
        if prior is None:
            found.append(LetterDue(kind, NEW))
            continue
        due: str | None = CORRECTION
        try:
            check_issue(ws, sbl, [kind], as_of=day, replaces=prior["id"])
        except NothingToCorrect:
            due = None
        except InspectorError:
            pass
        found.append(LetterDue(kind, due, prior["id"], prior["letter_date"]))
    return tuple(found)
