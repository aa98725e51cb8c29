"""What changed between two letters: their text as printed, sentence by sentence.

A correction is compared with the letter it corrects by the words each carries on paper
(the text of the PDF, whitespace aside), never by the bytes of the files: two renderings
of the same words are the same letter.
"""

from __future__ import annotations

import difflib
import io
import re

from pypdf import PdfReader

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z\u2022(\u00a7\"\u201c])")
CONTEXT_WORDS = 4
MOST_QUOTED = 6


def pdf_text(pdf: bytes) -> str:
    """The words of a PDF, in reading order, with runs of whitespace made one space."""
    reader = PdfReader(io.BytesIO(pdf))
    text = " ".join(page.extract_text() or "" for page in reader.pages)
    return " ".join(text.split())


def sentences(text: str) -> list[str]:
    return [s for s in _SENTENCE_END.split(text) if s]


def changes(before: str, after: str) -> list[str]:
    """The changes from `before` to `after`, each in words: what now reads, what it read
    (a few words around each change), what was added and what was removed."""
    old, new = sentences(before), sentences(after)
    out: list[str] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=old, b=new, autojunk=False
                                                      ).get_opcodes():
        if op == "equal":
            continue
        a, b = " ".join(old[i1:i2]).split(), " ".join(new[j1:j2]).split()
        for wop, a1, a2, b1, b2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False
                                                           ).get_opcodes():
            if wop == "equal":
                continue
            lead = " ".join(b[max(0, b1 - CONTEXT_WORDS):b1])
            lead = f"{lead} " if lead else ""
            was, now = " ".join(a[a1:a2]), " ".join(b[b1:b2])
            if not was:
                out.append(f"added \u201c{lead}{now}\u201d")
            elif not now:
                out.append(f"removed \u201c{lead}{was}\u201d")
            else:
                out.append(f"\u201c{lead}{now}\u201d (was \u201c{lead}{was}\u201d)")
    if len(out) > MOST_QUOTED:
        out = [*out[:MOST_QUOTED], f"and {len(out) - MOST_QUOTED} more changes"]
    return out
