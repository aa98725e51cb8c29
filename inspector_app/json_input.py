"""JSON that comes from outside the app: case files, sync packages and field kits, GeoJSON.

Python's json module reads NaN, Infinity and -Infinity, and a number too large for a float
as infinity. None of them is a value a record can hold (SQLite stores NaN as NULL, which
would clear the field), so every reader of outside JSON reads it with `loads`, which
refuses them and says where the value is (and so a whole number of more digits than Python
reads, which would otherwise end in Python's words), and refuses a text nesting deeper than
`nesting.MAX_DEPTH` before parsing it (`nesting.TooDeep`, a ValueError).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from typing import Any

from .nesting import JSON_STRINGS, MAX_DIGITS, TooManyDigits, check_depth

Path = tuple[str | int, ...]


class NonFiniteNumber(ValueError):
    """A number that is not finite: NaN, Infinity, -Infinity or one too large."""

    def __init__(self, path: Path, text: str) -> None:
        self.path = path
        self.text = text
        super().__init__(f"{where(path)} is {text}, which is not a finite number; write the "
                         "number itself (or leave the field out)")


class LongNumber(NonFiniteNumber):
    """A whole number of more than `nesting.MAX_DIGITS` digits."""

    def __init__(self, path: Path, text: str) -> None:
        super().__init__(path, text)
        self.args = (str(TooManyDigits(len(text.lstrip("-")), where(path))),)


def where(path: Sequence[str | int]) -> str:
    """A path into a document as the case-file messages write it: `dwelling.bedrooms`,
    `components[0].kind`."""
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "the top level"


class _Refused:
    __slots__ = ("long", "text")

    def __init__(self, text: str, long: bool = False) -> None:
        self.text = text
        self.long = long


def _text(value: float) -> str:
    return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")


def find_non_finite(value: Any, path: Path = ()) -> NonFiniteNumber | None:
    """The first number in `value` (dicts, lists, numbers) that is not finite, or None."""
    if isinstance(value, _Refused):
        return (LongNumber if value.long else NonFiniteNumber)(path, value.text)
    if isinstance(value, float) and not math.isfinite(value):
        return NonFiniteNumber(path, _text(value))
    if isinstance(value, dict):
        for key, item in value.items():
            found = find_non_finite(item, (*path, str(key)))
            if found is not None:
                return found
    elif isinstance(value, list | tuple):
        for n, item in enumerate(value):
            found = find_non_finite(item, (*path, n))
            if found is not None:
                return found
    return None


def _all_finite(value: Any) -> bool:
    """Whether `find_non_finite` finds nothing in `value`, without making the path to
    each value it passes."""
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, dict):
        for item in value.values():
            if not _all_finite(item):
                return False
    elif isinstance(value, list | tuple):
        for item in value:
            if not _all_finite(item):
                return False
    return not isinstance(value, _Refused)


def check_finite(value: Any) -> None:
    """Raise NonFiniteNumber for the first number in `value` that is not finite."""
    if _all_finite(value):
        return
    found = find_non_finite(value)
    if found is not None:
        raise found


def loads(text: str | bytes, **kwargs: Any) -> Any:
    """`json.loads`, refusing NaN, Infinity, -Infinity and numbers too large for a float
    (NonFiniteNumber, a ValueError, naming where the value is), whole numbers of more than
    MAX_DIGITS digits (LongNumber, a NonFiniteNumber), and a text nesting too deep
    (TooDeep, a ValueError, before it is parsed)."""
    check_depth(text, JSON_STRINGS)
    refused = False

    def constant(name: str) -> _Refused:
        nonlocal refused
        refused = True
        return _Refused(name)

    def number(digits: str) -> float | _Refused:
        value = float(digits)
        return value if math.isfinite(value) else constant(digits)

    def whole(digits: str) -> int | _Refused:
        nonlocal refused
        if len(digits) - digits.startswith("-") <= MAX_DIGITS:
            return int(digits)
        refused = True
        return _Refused(digits, long=True)

    doc = json.loads(text, parse_constant=constant, parse_float=number, parse_int=whole,
                     **kwargs)
    if refused:
        check_finite(doc)
    return doc


def schema_check(schema: dict[str, Any], *, detailed: bool = True
                 ) -> Callable[[Any], str | None]:
    """A JSON schema compiled by `fastjsonschema` (draft 7 and earlier keywords): the
    first problem it finds in a document, in at most 200 characters, or None. Compiled on
    first use. Not `detailed`, for a caller that asks only whether a document passes: its
    code leaves out of each problem the value and the part of the schema it broke, and
    compiles in less than half the time."""
    compiled: list[Callable[[Any], Any]] = []

    def check(doc: Any) -> str | None:
        import fastjsonschema

        if not compiled:
            compiled.append(_compiled(schema, detailed))
        try:
            compiled[0](doc)
        except fastjsonschema.JsonSchemaValueException as error:
            return str(error.message)[:200]
        return None
    return check


def _compiled(schema: dict[str, Any], detailed: bool) -> Callable[[Any], Any]:
    import fastjsonschema

    if not detailed:
        try:
            plain = _const_as_enum(schema)
        except ValueError:
            pass
        else:
            return fastjsonschema.compile(plain, detailed_exceptions=False)
    return fastjsonschema.compile(schema)


# Keywords whose value maps names to schemas, and those whose value is data.
_NAMED = frozenset({"properties", "patternProperties", "$defs", "definitions"})
_DATA = frozenset({"enum", "const", "default", "examples"})


def _const_as_enum(schema: Any) -> Any:
    """The schema with each `{"const": x}` written `{"enum": [x]}`, which says the same
    (`fastjsonschema` cannot make the code of a const without the details of its problem);
    ValueError for a part that has both."""
    if isinstance(schema, list):
        return [_const_as_enum(part) for part in schema]
    if not isinstance(schema, dict):
        return schema
    if "const" in schema and "enum" in schema:
        raise ValueError("a part of the schema has both const and enum")
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "const":
            out["enum"] = [value]
        elif key in _DATA:
            out[key] = value
        elif key in _NAMED and isinstance(value, dict):
            out[key] = {name: _const_as_enum(part) for name, part in value.items()}
        else:
            out[key] = _const_as_enum(value)
    return out
