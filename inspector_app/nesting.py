"""How deep a JSON or TOML text nests, measured before it is parsed.

Python's json and tomllib read nested arrays and objects (inline tables) by recursion, so a
200 KB file of `[` x 100,000 then `]` x 100,000 ends in RecursionError, not in a sentence.
Every reader of outside JSON (`json_input.loads`) and TOML (`toml_input.loads`) first counts
the brackets outside strings (and, in TOML, comments) and refuses a text that nests deeper
than MAX_DEPTH, which no file this app reads or writes comes near (a GeoJSON multipolygon
in a feature collection nests 8 levels).

A TOML dotted key (`a.b.c = 1`) or table header (`[a.b.c]`) nests a table per part, and
tomllib makes a key of n parts in n-squared steps (a 200 KB key of 100,000 parts takes
minutes and gigabytes), so `check_toml_depth` counts the parts of the longest key as levels
too.
"""

from __future__ import annotations

import json
import re
from array import array
from itertools import accumulate

MAX_DEPTH = 64
# Python's own bound on the digits of an integer it reads from text (its default); no
# number a file of this app holds comes near it.
MAX_DIGITS = 4300

# A JSON string, its escapes included.
JSON_STRINGS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)
# TOML's strings (multi-line first) and comments: none of their brackets nest anything.
TOML_STRINGS = re.compile(r'"""(?:\\.|[^\\])*?"""|\'\'\'.*?\'\'\'|"[^"\\\n]*(?:\\.[^"\\\n]*)*"'
                          r"|'[^'\n]*'|#[^\n]*", re.S)
_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")
# What a TOML key is made of once its strings are one letter: bare keys and dots, with the
# spaces and tabs TOML allows around a dot. A value has at most one dot (1.5, 07:32:00.25).
_KEY_CHAINS = re.compile(r"[A-Za-z0-9_.\- \t]+")
# An opening bracket one level down, a closing one up (as signed bytes).
_STEPS = bytes.maketrans(b"[{]}", b"\x01\x01\xff\xff")


class TooDeep(ValueError):
    """A text that nests deeper than MAX_DEPTH."""

    def __init__(self, depth: int) -> None:
        self.depth = depth
        super().__init__(f"the file nests {depth:,} levels deep; at most {MAX_DEPTH} are "
                         "taken")


class TooManyDigits(ValueError):
    """A whole number of more than MAX_DIGITS digits."""

    def __init__(self, digits: int, where: str = "") -> None:
        self.digits = digits
        super().__init__(f"{where + ' is ' if where else 'it holds '}a number of "
                         f"{digits:,} digits; at most {MAX_DIGITS:,} are taken")


_DIGIT_RUNS = re.compile(r"[0-9_]+")


def longest_number(text: str) -> int:
    """The digits of the longest run of digits (and TOML's `_`) in `text`."""
    return max((len(run.replace("_", "")) for run in _DIGIT_RUNS.findall(text)), default=0)


def depth(text: str, strings: re.Pattern[str]) -> int:
    """The deepest nesting of brackets in `text` outside what `strings` matches."""
    marks = _NOT_BRACKETS.sub("", strings.sub("", text)).encode("ascii")
    return max(0, max(accumulate(array("b", marks.translate(_STEPS))), default=0))


def check_depth(text: str | bytes, strings: re.Pattern[str]) -> None:
    """Raise TooDeep when `text` nests deeper than MAX_DEPTH. A text with no more opening
    brackets than that is passed without a scan."""
    if isinstance(text, bytes | bytearray):
        if text.count(b"[") + text.count(b"{") <= MAX_DEPTH:
            return
        text = _decoded(bytes(text))
    elif text.count("[") + text.count("{") <= MAX_DEPTH:
        return
    found = depth(text, strings)
    if found > MAX_DEPTH:
        raise TooDeep(found)


def key_parts(text: str) -> int:
    """The parts of the longest dotted key (or table header) in a TOML `text`."""
    if text.count(".") < MAX_DEPTH:
        return text.count(".") + 1
    plain = TOML_STRINGS.sub(lambda m: "" if m.group().startswith("#") else "s", text)
    return 1 + max((chain.count(".") for chain in _KEY_CHAINS.findall(plain)), default=0)


def check_toml_depth(text: str) -> None:
    """Raise TooDeep when a TOML `text` nests deeper than MAX_DEPTH, in brackets or in the
    parts of a dotted key."""
    parts = key_parts(text)
    if parts > MAX_DEPTH:
        raise TooDeep(parts)
    check_depth(text, TOML_STRINGS)


def _decoded(data: bytes) -> str:
    """Bytes as json.loads reads them (UTF-8, -16 or -32 by their first bytes)."""
    return data.decode(json.detect_encoding(data), "replace")
