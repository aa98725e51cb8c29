"""Tax map numbers (SBL: section-block-lot)."""

from __future__ import annotations

import re


def sbl_sort_key(text: str) -> str:
    """Order with numbers numerically: 900.01-1-2 before 900.01-1-10."""
    return re.sub(r"\d+", lambda m: m.group().zfill(10), text.casefold())


# A tax map number as counties write it: section[.subsection]-block[.subblock]-lot[.sublot]
# with an optional suffix (-NNN or a letter), each part zero-padded or not; before it, at
# times, the six-digit SWIS code of the municipality.
_SWIS = re.compile(r"\A(\d{6})[\s_/:]+(?=\d)")
_PRINT_KEY = re.compile(
    r"\A(\d{1,4})(?:\.(\d{0,4}))?-(\d{1,5})(?:\.(\d{0,4}))?-(\d{1,5})(?:\.(\d{0,4}))?"
    r"(?:-([0-9A-Z]{1,4}))?\Z")


def sbl_key(text: str | None) -> tuple[str, ...] | None:
    """The parts of a tax map number, each as a number without its leading zeros (an
    absent subsection or sub-lot is 0), so that "098.00-1-12", "98.-1-12", "98.00-01-012"
    and "098.000-0001-012.000" give the same key and nothing else does: two numbers with
    the same key name the same section, block and lot. A SWIS prefix and spaces are set
    aside. None for text that is not a tax map number of this form."""
    if text is None:
        return None
    flat = _SWIS.sub("", text.strip().upper())
    flat = re.sub(r"\s+", "", flat)
    m = _PRINT_KEY.match(flat)
    if m is None:
        return None
    section, sub, block, subblock, lot, sublot, suffix = m.groups()

    def number(part: str | None) -> str:
        return str(int(part)) if part else "0"

    return (number(section), number(sub), number(block), number(subblock), number(lot),
            number(sublot), "" if suffix is None else suffix.lstrip("0") or "0")


def sbl_swis(text: str | None) -> str | None:
    """The six-digit SWIS code written before a tax map number, if any."""
    m = None if text is None else _SWIS.match(text.strip())
    return None if m is None else m.group(1)
