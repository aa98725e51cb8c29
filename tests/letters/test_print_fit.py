"""What is printed is printed whole: the draft's NOT ISSUABLE footer and the mailing labels
wrap (and shrink) rather than cut, and an address that cannot fit is refused in words."""

from __future__ import annotations

import io
import re
from datetime import date

import pytest
from pypdf import PdfReader

from inspector_app.documents.content import Letter, Paragraph
from inspector_app.documents.render import (
    LABEL_SIZES,
    LabelTooLong,
    label_lines,
    labels_5160,
    render_letter,
)
from inspector_app.documents.templates import Office


def _words(pdf: bytes) -> str:
    reader = PdfReader(io.BytesIO(pdf))
    return re.sub(r"\s+", " ", " ".join(p.extract_text() for p in reader.pages))


def test_a_long_not_issuable_footer_is_printed_whole_on_every_page() -> None:
    reasons = "; ".join(f"reason number {n} why this draft cannot be issued as it stands"
                        for n in range(1, 9))
    note = f"NOT ISSUABLE: {reasons}."
    letter = Letter(kind="notice_of_violation", title="NOTICE OF VIOLATION",
                    letter_date=date(2026, 11, 25), sbl="1-1-1",
                    recipient=("Owner", "1 Main St", "Town, NY 14424"), subject="x",
                    salutation="", blocks=tuple(Paragraph("text " * 400) for _ in range(2)),
                    closing=(), draft_note=note)
    office = Office(office_name="Office", department="", address=(), phone="", email="",
                    logo=None, signer_name="", signer_title="", signer_certification="",
                    signature_image=None, source="test")
    pdf = render_letter(letter, office, draft=True)
    pages = PdfReader(io.BytesIO(pdf)).pages
    assert len(pages) >= 2
    for page in pages:
        text = re.sub(r"\s+", " ", page.extract_text())
        assert note in text, text[-700:]
        assert "\u2026" not in text


def test_a_long_address_wraps_on_its_label_and_nothing_is_cut() -> None:
    address = ["Jane Baptiste and Robert Baptiste, Trustees (demo)",
               "4203 County Road 16 (West Lake Road)", "Canandaigua, NY 14424"]
    size, lines = label_lines(address)
    assert size <= LABEL_SIZES[0] and len(lines) > len(address)
    assert " ".join(lines) == " ".join(address)
    text = _words(labels_5160([address, ["A. Owner", "1 Main St", "Naples, NY 14512"]]))
    for line in address:
        assert line in text, line
    assert "\u2026" not in text and "A. Owner 1 Main St Naples, NY 14512" in text


def test_an_address_that_cannot_fit_is_refused_in_words() -> None:
    address = ["Owner"] + [f"Line {n} of a very long care-of address for this owner"
                           for n in range(8)]
    with pytest.raises(LabelTooLong, match="does not fit on an Avery 5160 label even in "
                                           "6-point type"):
        labels_5160([["A. Owner", "1 Main St"], address])
