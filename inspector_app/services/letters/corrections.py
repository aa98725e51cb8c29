"""Corrections: a letter is corrected once, by a letter of the same kind that must change
something and says what; a correction keeps the corrected notice's deadlines as served
unless the case records others."""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING, Any

from ...documents.content import Letter, LetterRefused
from ...domain.case import Case
from ...storage import letters as letter_rows
from .stored import stored_pdf

if TYPE_CHECKING:
    from ..session.session import Session


class NothingToCorrect(LetterRefused):
    """A correction refused because it would say word for word what the letter says."""


# The line a correction adds below the one naming the letter it replaces.
CORRECTS_LINE = "This letter corrects the letter of {date}: {changes}"


def what_changed(ws: Session, sbl: str, replaced: tuple[str, str, date], pdf: bytes,
                  day: date) -> tuple[str, ...]:
    """What a correction changes in the letter it corrects, comparing what each says
    sentence by sentence (the correction made as an original letter, its date read as the
    corrected letter's); a correction that changes nothing is refused."""
    from ...documents.compare import changes, letter_sentences
    from ...documents.content import _date as date_words

    before = letter_sentences(stored_pdf(ws, replaced[0]))
    after = [s.replace(date_words(day), date_words(replaced[2]))
             .replace(day.isoformat(), replaced[2].isoformat())
             for s in letter_sentences(pdf)]
    found = tuple(changes(before, after))
    if not found:
        raise NothingToCorrect(
            f"Parcel {sbl}: a correction of letter {replaced[0][:8]} (dated "
            f"{replaced[2].isoformat()}) would say word for word what it says; nothing was "
            "issued. Correct the records first, then issue the correction.")
    return found


def with_changes(letter: Letter, replaced: tuple[str, str, date],
                  found: tuple[str, ...]) -> Letter:
    from dataclasses import replace

    from ...documents.content import Paragraph
    from ...documents.content import _date as date_words
    from ...documents.templates import escape

    told = "; ".join(found)
    # a quoted sentence closes with its own full stop
    told += "" if told.endswith((".\u201d", "?\u201d", "!\u201d")) else "."
    line = Paragraph(escape(CORRECTS_LINE.format(date=date_words(replaced[2]),
                                                 changes=told)))
    return replace(letter, blocks=(*letter.blocks[:1], line, *letter.blocks[1:]))


def keeping_served_dates(ws: Session, case: Case, corrected: str
                         ) -> tuple[Case, frozenset[str]]:
    """The case a correction is written from, and the deadlines it carries: a deadline
    recorded on the case stands; one not recorded is the corrected letter's as served,
    never counted afresh from the correction's date, and is worded as that letter worded it
    (`documents.content.deadlines_law`)."""
    from dataclasses import replace

    from ...domain.case import NoticeDeadlines
    from ..parcel.served import served

    old = served(ws, corrected)
    if old is None or not old.dates:
        return case, frozenset()
    n = case.notice
    carried = frozenset(name for name in ("permit_by", "complete_by")
                        if not (n and getattr(n, name)) and name in old.dates)
    permit_by = n.permit_by if n and n.permit_by else old.dates.get("permit_by")
    complete_by = n.complete_by if n and n.complete_by else old.dates.get("complete_by")
    if permit_by is None and complete_by is None:
        return case, frozenset()
    return (replace(case, notice=NoticeDeadlines(permit_by=permit_by, complete_by=complete_by)),
            carried)


def refuse_replaced_again(ws: Session, sbl: str, replaces: str, *, conn: Any = None) -> None:
    """A letter is corrected once: a correction of one already replaced is refused, naming
    the letter in force (the last of its corrections) to correct instead."""
    def replacement(letter_id: str) -> tuple[str, str] | None:
        return letter_rows.replacement_of(conn or ws.store.conn, letter_id)

    first = replacement(replaces)
    if first is None:
        return
    current, seen = first, {replaces}
    while current[0] not in seen:
        seen.add(current[0])
        later = replacement(current[0])
        if later is None:
            break
        current = later
    via = "" if current == first else (f", itself since corrected; the letter in force is "
                                       f"{current[0][:8]}, dated {current[1]}")
    raise LetterRefused(
        f"Parcel {sbl}: letter {replaces[:8]} was already replaced by letter {first[0][:8]} "
        f"(dated {first[1]}){via}; nothing was issued. To correct the correction, issue with "
        f"--replaces {current[0]}.",
        in_app=f"Parcel {sbl}: letter {replaces[:8]} was already replaced by letter "
               f"{first[0][:8]} (dated {first[1]}){via}; nothing was issued. To correct it, "
               f"correct letter {current[0][:8]} instead.")
