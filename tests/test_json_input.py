"""A schema check compiled without its problems' details passes and refuses what the
detailed one does."""

from __future__ import annotations

import re
from typing import Any

import pytest

from inspector_app.json_input import _const_as_enum, check_finite, find_non_finite, schema_check

SCHEMA: dict[str, Any] = {
    "type": "object", "additionalProperties": False, "required": ["format", "const"],
    "properties": {
        "format": {"const": "case/1"},
        "const": {"type": "array", "items": {"anyOf": [{"const": None}, {"enum": ["const"]}]}},
        "n": {"type": "integer", "minimum": 1, "examples": [{"const": 2}]},
    },
}


def test_a_const_is_written_as_a_one_word_enum_and_nothing_else_changes() -> None:
    plain = _const_as_enum(SCHEMA)
    assert plain["properties"]["format"] == {"enum": ["case/1"]}
    assert plain["properties"]["const"]["items"]["anyOf"] == [{"enum": [None]},
                                                              {"enum": ["const"]}]
    assert plain["properties"]["n"] == SCHEMA["properties"]["n"]
    assert plain["required"] == ["format", "const"]
    with pytest.raises(ValueError):
        _const_as_enum({"anyOf": [{"const": 1, "enum": [1, 2]}]})


@pytest.mark.parametrize("doc", [
    {"format": "case/1", "const": []}, {"format": "case/1", "const": [None, "const"], "n": 3},
    {"format": "case/2", "const": []}, {"format": "case/1", "const": ["x"]},
    {"format": "case/1", "const": [], "n": 0}, {"format": "case/1"}, {"format": "case/1",
                                                                       "const": [], "x": 1},
    [], "case/1", None,
])
def test_the_check_without_details_gives_the_same_answers(doc: Any) -> None:
    detailed, plain = schema_check(SCHEMA), schema_check(SCHEMA, detailed=False)
    assert (detailed(doc) is None) == (plain(doc) is None)


@pytest.mark.parametrize("value", [
    1.0, float("nan"), [1, [2.5, {"a": float("inf")}]], {"a": (1, float("-inf"))},
    {"a": [1, 2, {"b": "c"}]}, [], {}, None, "NaN",
])
def test_a_value_passes_the_finite_check_exactly_when_nothing_is_found(value: Any) -> None:
    found = find_non_finite(value)
    if found is None:
        check_finite(value)
    else:
        with pytest.raises(type(found), match=re.escape(str(found))):
            check_finite(value)
