"""What changed between two letters: their text as printed, sentence by sentence.

A correction is compared with the letter it corrects by the words each carries on paper
(the text of the PDF), never by the bytes of the files: two renderings of the same words
are the same letter. What is compared is what the letter says to its reader: the address
it is sent to and the body's sentences (the letterhead, the date line, the running header
and the footer are left out). Each change is told whole, in the owner's reading:
“the sentence as it read” became “the sentence as it reads”, added: “…”, removed: “…”.
"""

from __future__ import annotations

import difflib
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass

from pypdf import PdfReader

from .render import (
    BODY_BOTTOM,
    FIRST_BODY_TOP,
    LATER_BODY_TOP,
    PAGE_H,
    PAGE_W,
    WINDOW_TOP,
)

MOST_QUOTED = 6
# A sentence changed rather than replaced by another: this much alike, character by
# character (difflib's ratio).
ALIKE = 0.6
# Lines of a paragraph are 14 pt apart (the body's leading); a larger step starts another.
PARAGRAPH_STEP = 15.5
ADDRESS = "Address: "
# Words ending in a full stop that end no sentence.
ABBREVIATIONS = frozenset({"no", "nos", "st", "rd", "ave", "dr", "mr", "mrs", "ms", "jr", "sr",
                           "inc", "co", "corp", "rte", "apt", "vs", "etc", "e.g", "i.e"})
_SENTENCE_END = re.compile(r"[.!?][)\"\u201d\u2019]?(?=\s+[A-Z0-9\u00a7(\"\u201c\u2018\[])")


@dataclass(frozen=True)
class _Line:
    page: int
    x: float
    y: float
    text: str


def _lines(pdf: bytes) -> list[_Line]:
    """The PDF's lines of text, page by page, in the order written, each with where it
    starts."""
    out: list[_Line] = []
    for number, page in enumerate(PdfReader(io.BytesIO(pdf)).pages):
        current: list[str] = []
        where: list[tuple[float, float]] = []

        def visit(text: str, cm: Sequence[float], tm: Sequence[float], *_: object,
                  number: int = number, current: list[str] = current,
                  where: list[tuple[float, float]] = where) -> None:
            pieces = text.split("\n")
            for n, piece in enumerate(pieces):
                if piece and not "".join(current).strip():
                    where[:] = [(tm[4] * cm[0] + cm[4], tm[5] * cm[3] + cm[5])]
                current.append(piece)
                if n < len(pieces) - 1:
                    line = " ".join("".join(current).split())
                    if line and where:
                        out.append(_Line(number, where[0][0], where[0][1], line))
                    current.clear()

        page.extract_text(visitor_text=visit)
        line = " ".join("".join(current).split())
        if line and where:
            out.append(_Line(number, where[0][0], where[0][1], line))
    return out


def _in_body(line: _Line) -> bool:
    top = float(PAGE_H - FIRST_BODY_TOP if line.page == 0 else LATER_BODY_TOP)
    return bool(BODY_BOTTOM - 8 <= line.y <= top + 2)


def _is_address(line: _Line) -> bool:
    return bool(line.page == 0 and PAGE_H - FIRST_BODY_TOP + 2 < line.y <= PAGE_H - WINDOW_TOP
                and line.x < PAGE_W / 2)


def _paragraphs(lines: list[_Line]) -> list[str]:
    """The body's lines joined into paragraphs: a larger step down than the body's leading,
    or a bullet, starts another; a page break does not."""
    out: list[str] = []
    last: _Line | None = None
    for line in lines:
        text = line.text
        bullet = text.startswith("\u2022")
        new = (last is None or bullet or (line.page == last.page
                                          and last.y - line.y > PARAGRAPH_STEP))
        text = text.removeprefix("\u2022").strip()
        if new or not out:
            out.append(text)
        else:
            out[-1] += " " + text
        last = line
    return out


def sentences(paragraph: str) -> list[str]:
    """A paragraph's sentences: ended by a full stop, question or exclamation mark (with a
    closing bracket or quote) before a capital, a digit, a section sign or an opening
    bracket or quote; never after an initial ("K.") or a common abbreviation ("No.")."""
    out, start = [], 0
    for match in _SENTENCE_END.finditer(paragraph):
        words = paragraph[start:match.start()].split()
        before = words[-1].lstrip("(\"\u201c").lower() if words else ""
        if paragraph[match.start()] == "." and (
                (len(before) == 1 and before.isalpha()) or before in ABBREVIATIONS):
            continue
        out.append(paragraph[start:match.end()].strip())
        start = match.end()
    rest = paragraph[start:].strip()
    return [s for s in (*out, rest) if s]


def letter_sentences(pdf: bytes) -> list[str]:
    """What a letter says to its reader, in order: the address it is sent to (one line,
    "Address: ..."), then each sentence of its body."""
    lines = _lines(pdf)
    address = [line.text for line in lines if _is_address(line)]
    out = [ADDRESS + ", ".join(address)] if address else []
    for paragraph in _paragraphs([line for line in lines if _in_body(line)]):
        out += sentences(paragraph)
    return out


def _quoted(text: str) -> str:
    return f"\u201c{text}\u201d"


def _pairs(old: Sequence[str], new: Sequence[str]) -> list[str]:
    """A run of sentences replaced by another: each old one paired, in order, with the
    most alike new one (when alike enough), the rest removed or added."""
    out: list[str] = []
    at = 0
    for sentence in old:
        best, score = None, ALIKE
        for k in range(at, len(new)):
            ratio = difflib.SequenceMatcher(a=sentence, b=new[k], autojunk=False).ratio()
            if ratio >= score:
                best, score = k, ratio
        if best is None:
            out.append(f"removed: {_quoted(sentence)}")
            continue
        out += [f"added: {_quoted(s)}" for s in new[at:best]]
        out.append(f"{_quoted(sentence)} became {_quoted(new[best])}")
        at = best + 1
    out += [f"added: {_quoted(s)}" for s in new[at:]]
    return out


def changes(before: Sequence[str], after: Sequence[str]) -> list[str]:
    """The changes from the sentences `before` to the sentences `after`, each in words,
    each told once ("in 3 places, ..." where the same change recurs), at most MOST_QUOTED
    of them and then how many more."""
    found: list[str] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=before, b=after, autojunk=False
                                                      ).get_opcodes():
        if op != "equal":
            found += _pairs(before[i1:i2], after[j1:j2])
    counted: dict[str, int] = {}
    for change in found:
        counted[change] = counted.get(change, 0) + 1
    out = [change if n == 1 else f"in {n} places, {change}" for change, n in counted.items()]
    if len(out) > MOST_QUOTED:
        out = [*out[:MOST_QUOTED], f"and {len(out) - MOST_QUOTED} more changes"]
    return out
