"""Tax map numbers (SBL: section-block-lot), read in every spelling New York uses.

One reader for every door (typed in the app, case files, rolls, lot layers, kits and every
lookup). It takes

* the print key as counties write it: section[.subsection]-block[.subblock]-lot[.sublot]
  with an optional suffix (-NNN or letters), each part zero-padded or not, a section
  without a subsection written with its point and nothing after it ("13.-3-1");
* the same with the municipality's six-digit SWIS code before it ("503689-18.-4-11",
  "503689 18.-4-11");
* the packed SBL of the state's Real Property System: 20 characters, section (3),
  subsection (3), block (4), lot (3), sublot (3), suffix (4), each right-aligned and
  zero-filled, with, in the 26-character form, the SWIS code (6) before them
  ("50368901800000040110000000" is 503689, 18.-4-11);
* and, as before, the older looser form of the case files (letters in a block or lot,
  a "/" part), which only matches itself.

Every spelling reduces to one key (`sbl_key`): each part as a number without its leading
zeros, an absent subsection, sub-block or sub-lot as 0 and an all-zero suffix as none.
"13.-3-1", "13.00-3-1", "013.000-0003-001" and "00000001300000030010000000" therefore
name the same parcel: the packed SBL the print key is printed from holds "000" for the
subsection in both spellings (docs/lots.md, "Tax map numbers"). What is stored is the
spelling the parcel was first given; a lookup by any other spelling finds it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

# The parts of the forms, written once; the Python reader and the case file's JSON
# schema pattern (`SBL_PATTERN`, ECMA-262 and Python alike) are both built from them.
_SWIS_PART = r"([0-9]{6})[-\s_/:]+"
_PRINT_KEY_PART = (r"([0-9]{1,4})(?:\.([0-9]{0,4}))?-([0-9]{1,5})(?:\.([0-9]{0,4}))?"
                   r"-([0-9]{1,5})(?:\.([0-9]{0,4}))?(?:-([0-9A-Za-z]{1,4}))?")
_PACKED_PART = r"([0-9]{6})?([0-9]{3})([0-9]{3})([0-9]{4})([0-9]{3})([0-9]{3})([0-9A-Za-z]{4})"
_LOOSE_PART = (r"[0-9]+(?:\.[0-9A-Za-z]+)?-[0-9A-Za-z]+-[0-9A-Za-z]+(?:\.[0-9A-Za-z]+)*"
               r"(?:/[0-9A-Za-z.]+)?")


def _plain(part: str) -> str:
    """A part without its capturing groups (for the schema pattern)."""
    return re.sub(r"\((?!\?)", "(?:", part)


SBL_PATTERN = (f"^(?:(?:{_plain(_SWIS_PART)})?(?:{_plain(_PRINT_KEY_PART)}|"
               f"{_plain(_LOOSE_PART)})|{_plain(_PACKED_PART)})$")
SBL_EXAMPLES = "112.09-1-7.2, 13.-3-1, 503689-18.-4-11 or the 26-digit SBL"

_SWIS = re.compile(r"\A" + _SWIS_PART + r"(?=\d)")
_PRINT_KEY = re.compile(r"\A" + _PRINT_KEY_PART + r"\Z")
_PACKED = re.compile(r"\A" + _PACKED_PART + r"\Z")
_WHOLE = re.compile(SBL_PATTERN)

Key = tuple[str, ...]


def is_sbl(text: str) -> bool:
    """Whether the text, as it would be stored, is a tax map number in one of the forms."""
    return _WHOLE.match(text) is not None


def sbl_sort_key(text: str) -> str:
    """Order with numbers numerically: 900.01-1-2 before 900.01-1-10."""
    return re.sub(r"\d+", lambda m: m.group().zfill(10), text.casefold())


def _number(part: str | None) -> str:
    return str(int(part)) if part else "0"


def sbl_key(text: str | None) -> Key | None:
    """The parts of a tax map number, each as a number without its leading zeros (an
    absent subsection, sub-block or sub-lot is 0, an all-zero suffix none), so that
    "098.00-1-12", "98.-1-12", "98.00-01-012", "098.000-0001-012.000", "322089-98.-1-12"
    and "32208909800000010120000000" give the same key and nothing else does: two numbers
    with the same key name the same section, block and lot. A SWIS prefix and spaces are
    set aside. None for text that is not a New York tax map number."""
    if text is None:
        return None
    flat = text.strip().upper()
    packed = _PACKED.match(flat)
    if packed is not None:
        _, section, sub, block, lot, sublot, suffix = packed.groups()
        return (_number(section), _number(sub), _number(block), "0", _number(lot),
                _number(sublot), suffix.lstrip("0"))
    flat = re.sub(r"\s+", "", _SWIS.sub("", flat))
    m = _PRINT_KEY.match(flat)
    if m is None:
        return None
    section, sub, block, subblock, lot, sublot, suffix = m.groups()
    return (_number(section), _number(sub), _number(block), _number(subblock), _number(lot),
            _number(sublot), "" if suffix is None else suffix.lstrip("0"))


def lookup_key(text: str) -> Key:
    """The key a lookup compares: `sbl_key`, or for text of no New York form, the text
    itself without spaces and case (so such a number still finds itself)."""
    key = sbl_key(text)
    return key if key is not None else ("", re.sub(r"\s+", "", text).casefold())


def sbl_swis(text: str | None) -> str | None:
    """The six-digit SWIS code written before a tax map number (or packed into it)."""
    if text is None:
        return None
    flat = text.strip()
    packed = _PACKED.match(flat.upper())
    if packed is not None:
        return packed.group(1)
    m = _SWIS.match(flat)
    return None if m is None else m.group(1)


def sbl_hints(text: str) -> tuple[str, ...]:
    """Pieces every spelling of this number contains (its section and lot as numbers),
    for narrowing a search before comparing keys; none for a number of no New York form."""
    key = sbl_key(text)
    return () if key is None else (key[0], key[4])


def matching(text: str, known: Iterable[str]) -> list[str]:
    """The known spellings that name the same tax map number as `text`, the identical
    spelling first when it is among them."""
    want = lookup_key(text)
    same = [s for s in known if lookup_key(s) == want]
    return sorted(same, key=lambda s: (s != text.strip(), sbl_sort_key(s)))


def _order(part: str) -> tuple[int, int | str]:
    return (0, int(part)) if part.isdigit() else (1, part)


def closest(text: str, known: Iterable[str]) -> list[str]:
    """The known tax map numbers nearest to one that is not among them: of those that
    agree with it on the most leading parts, the nearest below and the nearest above on
    the first part that differs ("18.-4-12" gives 18.-4-11 and 18.-4-13)."""
    want = sbl_key(text)
    spelled = sorted(set(known), key=sbl_sort_key)
    if want is None or not spelled:
        import difflib

        return difflib.get_close_matches(text.strip(), spelled, n=2, cutoff=0.6)
    scored: list[tuple[int, str, Key]] = []
    for s in spelled:
        key = sbl_key(s)
        if key is None or key == want:
            continue
        same = next(i for i in range(len(want)) if key[i] != want[i])
        scored.append((same, s, key))
    if not scored:
        return []
    depth = max(d for d, _, _ in scored)
    group = [(s, key) for d, s, key in scored if d == depth]
    target = _order(want[depth])
    below = [(s, k) for s, k in group if _order(k[depth]) < target]
    above = [(s, k) for s, k in group if _order(k[depth]) > target]
    out = []
    if below:
        out.append(max(below, key=lambda sk: (_order(sk[1][depth]), sk[1]))[0])
    if above:
        out.append(min(above, key=lambda sk: (_order(sk[1][depth]), sk[1]))[0])
    return out
