"""Marks drawn over a photo, kept apart from it: an arrow, a circle or a text, each in the
pixels of the photo as it stands upright (its EXIF orientation applied), 0 at the top left.

A mark is kept as one line of text, so the list travels as any list of a record does:

    arrow X1 Y1 X2 Y2     an arrow from (X1, Y1) pointing at (X2, Y2)
    circle X Y R          a circle about (X, Y) of radius R
    text X Y WORDS        words whose top left corner is at (X, Y)

The photo's own file is never changed: the marks are drawn over a copy wherever the photo
is shown or printed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_ANNOTATIONS = 50
# A photo is read at most 20,000 px a side (`documents/images.py`); a mark's numbers have
# at most five digits.
_N = r"[0-9]{1,5}"
ANNOTATION_PATTERN = (rf"^(arrow( {_N}){{4}}|circle( {_N}){{2}} [1-9][0-9]{{0,4}}"
                      rf"|text( {_N}){{2}} \S.*)$")
_SHAPE = re.compile(ANNOTATION_PATTERN)


@dataclass(frozen=True)
class Mark:
    kind: str  # "arrow", "circle" or "text"
    numbers: tuple[int, ...]
    words: str = ""


def parse_mark(text: str) -> Mark:
    """A mark from its line, or ValueError with the form it must have."""
    if not isinstance(text, str) or not _SHAPE.match(text):
        raise ValueError(f"{str(text)[:80]!r} is not a mark; write \"arrow X1 Y1 X2 Y2\", "
                         "\"circle X Y R\" or \"text X Y WORDS\" in pixels of the upright "
                         "photo")
    kind, _, rest = text.partition(" ")
    count = {"arrow": 4, "circle": 3, "text": 2}[kind]
    parts = rest.split(" ", count)
    return Mark(kind, tuple(int(p) for p in parts[:count]),
                parts[count] if kind == "text" else "")


def marks(lines: tuple[str, ...] | list[str]) -> list[Mark]:
    """The marks of a stored list; a line that is no mark (never stored: the writer
    refuses it) is left out."""
    out = []
    for line in lines:
        try:
            out.append(parse_mark(line))
        except ValueError:
            continue
    return out
