"""The case file's refusals in words: one sentence naming the file and the field."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from jsonschema.exceptions import ValidationError, best_match

from ..domain.field_spec import DATE_PATTERN, NOT_BLANK, SBL_PATTERN
from ..domain.sbl import SBL_EXAMPLES
from ..domain.units import plain_number
from ..errors import InputError


class CaseFileError(InputError):
    pass


def field_path(parts: Sequence[str | int]) -> str:
    out = ""
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "the top level"


def describe(value: Any) -> str:
    """A value as a message quotes it: `the text "x"`, `true`, `null`, `a list`."""
    if isinstance(value, str):
        return f"the text {json.dumps(value)}"
    if isinstance(value, bool):
        return f"{str(value).lower()}"
    if value is None:
        return "null"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    return json.dumps(value)


_TYPE_WORDS = {"integer": "a whole number", "number": "a number", "string": "text",
               "boolean": "true or false", "object": "an object", "array": "a list",
               "null": "null"}


def schema_message(error: ValidationError) -> str:
    where = field_path(list(error.absolute_path))
    v = error.validator
    if v == "additionalProperties":
        allowed = sorted(error.schema.get("properties", {}))
        extra = sorted(set(error.instance) - set(allowed))
        return (f"{where} has the unknown key {json.dumps(extra[0])}; check its spelling "
                f"(allowed keys: {', '.join(allowed)})")
    if v == "required":
        missing = re.findall(r"'([^']+)' is a required property", error.message)
        name = missing[0] if missing else error.message
        full = field_path([*error.absolute_path, name])
        return f"{full} is missing; it is required"
    if v == "type":
        types = error.validator_value if isinstance(error.validator_value, list) else [
            error.validator_value]
        wanted = " or ".join(_TYPE_WORDS.get(str(t), str(t)) for t in types)
        return f"{where} must be {wanted}, not {describe(error.instance)}"
    if v in ("enum", "const"):
        options = error.validator_value if v == "enum" else [error.validator_value]
        shown = ", ".join(str(o) for o in options if o is not None)
        return f"{where} is {describe(error.instance)}; it must be one of: {shown}"
    if v in ("minimum", "maximum"):
        lo = error.schema.get("minimum")
        hi = error.schema.get("maximum")
        return (f"{where} is {describe(error.instance)}, which is not plausible; it must be "
                f"between {_bound(lo)} and {_bound(hi)}")
    if v == "pattern":
        if error.validator_value == DATE_PATTERN:
            return f"{where} is {describe(error.instance)}; write dates as YYYY-MM-DD"
        if error.validator_value == SBL_PATTERN:
            return (f"{where} is {describe(error.instance)}, which is not a tax map number; "
                    f"write it like {SBL_EXAMPLES}")
        if error.validator_value == NOT_BLANK:
            return f"{where} is blank; fill it in"
        return f"{where} is {describe(error.instance)}, which is not in the expected form"
    if v in ("minLength", "minItems"):
        return f"{where} is empty; it must have at least {error.validator_value} entry"
    if v in ("maxLength", "maxItems"):
        return f"{where} is too long; at most {error.validator_value} allowed"
    return f"{where}: {error.message}"


def _bound(value: float) -> str:
    """A bound as people write it: 50, 0.5, 5000000 (not 5e+06)."""
    return str(plain_number(value)) if abs(value) < 1e15 else f"{value:g}"


def fail(source: str, message: str) -> CaseFileError:
    return CaseFileError(f"{source}: {message}.")


# A case file with many problems is told the first this many of them, so each can be fixed
# in one go; the rest are counted.
SHOWN_PROBLEMS = 20


def problems_message(errors: list[ValidationError]) -> str:
    """Every problem the schema finds, the most telling first, then in the file's order."""
    first = best_match(errors)
    assert first is not None
    rest = sorted((e for e in errors if e is not first),
                  key=lambda e: [str(part) for part in e.absolute_path])
    messages = list(dict.fromkeys(schema_message(e) for e in (first, *rest)))
    if len(messages) == 1:
        return messages[0]
    shown = messages[:SHOWN_PROBLEMS]
    listed = "; ".join(f"({n}) {m}" for n, m in enumerate(shown, start=1))
    more = len(messages) - len(shown)
    tail = f"; and {more} more, shown once these are fixed" if more else ""
    return f"has {len(messages)} problems: {listed}{tail}"
