"""How deep a JSON or TOML text nests, measured before it is parsed.

Python's json and tomllib read nested arrays and objects (inline tables) by recursion, so a
200 KB file of `[` x 100,000 then `]` x 100,000 ends in RecursionError, not in a sentence.
Every reader of outside JSON (`json_input.loads`) and TOML (`toml_input.loads`) first counts
the brackets outside strings (and, in TOML, comments) and refuses a text that nests deeper
than MAX_DEPTH, which no file this app reads or writes comes near (a GeoJSON multipolygon
in a feature collection nests 8 levels).
"""

from __future__ import annotations

import json
import re
from array import array
from itertools import accumulate

MAX_DEPTH = 64

# A JSON string, its escapes included.
JSON_STRINGS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)
# TOML's strings (multi-line first) and comments: none of their brackets nest anything.
TOML_STRINGS = re.compile(r'"""(?:\\.|[^\\])*?"""|\'\'\'.*?\'\'\'|"[^"\\\n]*(?:\\.[^"\\\n]*)*"'
                          r"|'[^'\n]*'|#[^\n]*", re.S)
_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")
# An opening bracket one level down, a closing one up (as signed bytes).
_STEPS = bytes.maketrans(b"[{]}", b"\x01\x01\xff\xff")


class TooDeep(ValueError):
    """A text that nests deeper than MAX_DEPTH."""

    def __init__(self, depth: int) -> None:
        self.depth = depth
        super().__init__(f"the file nests {depth:,} levels deep; at most {MAX_DEPTH} are "
                         "taken")


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


def _decoded(data: bytes) -> str:
    """Bytes as json.loads reads them (UTF-8, -16 or -32 by their first bytes)."""
    return data.decode(json.detect_encoding(data), "replace")
