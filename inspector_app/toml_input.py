"""TOML that comes from outside the app: jurisdiction files, the letters' wording, the
office's settings. `read` refuses a file over MAX_TOML_BYTES without reading it all, and
`loads` a text nesting deeper than `nesting.MAX_DEPTH` (in brackets or in a dotted key's
parts) before tomllib (which reads nested arrays and inline tables by recursion, and dotted
keys in steps growing with the square of their parts) sees it, and says a number too long
for Python to read in words. Every problem is a `TomlProblem`, a
ValueError whose words complete "FILE: ..."."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from .errors import InputError
from .nesting import MAX_DIGITS, TooDeep, TooManyDigits, check_toml_depth, longest_number
from .paths import UnreadableFile, read_regular_file
from .text_input import decode, toml_problem

# The bundled wording is 30 KB, a jurisdiction file 10 KB.
MAX_TOML_BYTES = 1024**2


class TomlProblem(ValueError):
    """A TOML text that cannot be read: too large, nesting too deep, not UTF-8 or not TOML.
    Its words complete "FILE: ..." ("is not valid TOML (...)")."""


def loads(text: str) -> dict[str, Any]:
    """`tomllib.loads`, with the nesting measured first."""
    try:
        check_toml_depth(text)
        return tomllib.loads(text)
    except TooDeep as exc:
        raise TomlProblem(str(exc)) from None
    except tomllib.TOMLDecodeError as exc:
        raise TomlProblem(toml_problem(exc)) from None
    except ValueError:
        # tomllib reads a whole number with int(), which refuses more than MAX_DIGITS
        digits = longest_number(text)
        if digits <= MAX_DIGITS:
            raise
        raise TomlProblem(str(TooManyDigits(digits))) from None


def read(path: Path, *, what: str) -> dict[str, Any]:
    """The TOML file at `path` (`what` names it: "jurisdiction file"); FileNotFoundError
    when there is none."""
    try:
        raw = read_regular_file(path, limit=MAX_TOML_BYTES, what=what)
    except UnreadableFile as exc:
        raise TomlProblem(exc.reason) from None
    try:
        text = decode(raw, path, what=what, save_as="UTF-8 text").text
    except InputError as exc:
        raise TomlProblem(str(exc).removeprefix(f"{path}: ").rstrip(".")) from None
    return loads(text)
