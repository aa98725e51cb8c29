"""What the person issuing a letter is told of its citations: those its draft marks
unconfirmed, and how the issued letter cites each (its inferred section number marked)."""

from __future__ import annotations

import re

from ...documents.content import Letter
from ...domain.jurisdiction import Jurisdiction

_UNCONFIRMED = re.compile(r"((?:§|10 NYCRR|Chapter)[^<>()]*?(?:\([^<>()]*\)[^<>()]*?)*) "
                          r"\(unconfirmed\)")


def letter_texts(letter: Letter) -> list[str]:
    """The words of a letter: its subject, paragraphs, list items and closing."""
    texts = [letter.subject, *letter.closing]
    for block in letter.blocks:
        texts += [*getattr(block, "items", ()), getattr(block, "text", "")]
    return texts


def citation_warnings(draft: Letter, final: Letter, law: Jurisdiction) -> tuple[str, ...]:
    """What the person issuing is told of the citations the draft marks unconfirmed: each
    one the issued letter cites without its inferred section number, and how."""
    out = []
    for citation in unconfirmed_citations(draft):
        issued = law.letter_citation(citation)
        if issued == citation:
            continue
        if issued in " ".join(letter_texts(final)):
            out.append(f"cites {citation} as \u201c{issued}\u201d: the jurisdiction file "
                       "does not confirm its section number")
    return tuple(out)


def unconfirmed_citations(letter: Letter, final: Letter | None = None) -> tuple[str, ...]:
    """The unconfirmed citations a letter's draft shows, in order, once each (only those
    the issued letter `final` still cites, where given)."""
    texts = letter_texts(letter)
    kept = None if final is None else " ".join(letter_texts(final))
    found: dict[str, None] = {}
    for text in texts:
        for match in _UNCONFIRMED.finditer(text.replace("<b>", "").replace("</b>", "")):
            citation = match.group(1).strip()
            if kept is None or citation in kept:
                found[citation] = None
    return tuple(found)
