"""A column's compiled check says of a value what the schema validator says of it: it never
passes a value `value_problem` refuses, and a value it does not pass gets the validator's
words."""

from __future__ import annotations

import json
from typing import Any

from inspector_app.casefile.values import (
    _plain_check,
    declared_problem,
    field_schema,
    stored_problem,
    value_problem,
)
from inspector_app.domain import registry

PLAIN: list[Any] = [
    None, True, False, 0, 1, -1, 2, 7, 0.5, 3.0, -0.0, 1e9, 1e9 + 1, 1e10, 2**60, float("nan"),
    float("inf"), "", " ", "a", "A b", "x" * 60, "x" * 61, "x" * 200, "x" * 201, "x" * 5001,
    "5", "yes", "2026-02-28", "2026-02-30", "2026-2-28", "2026-02-28\n", "2026-11-25T10:00:00+00:00",
    "[]", "[\"a\"]", "[\"a\", \"b\"]", "[\"\"]", "[\" \"]", "[1, 2.5]", "[true]", "[null]",
    "null", "{}", "[\"a\"", json.dumps(["a"] * 7), json.dumps(["a"] * 13),
    json.dumps(["x" * 201]), [], ["a"], [" "], ["a"] * 7, ["a"] * 101, [1.5, 2], [True], [None],
    [float("nan")], {}, {"a": 1},
]


def _values(table: str, column: str) -> list[Any]:
    node = field_schema(table, column) or {}
    found = list(PLAIN)
    for part in (node, node.get("items") or {}):
        found += [v for v in part.get("enum", ()) if v is not None]
        found += [f"{v} " for v in part.get("enum", ()) if isinstance(v, str)]
        for bound in ("minimum", "maximum"):
            if bound in part:
                found += [part[bound], part[bound] - 1, part[bound] + 1, part[bound] + 0.5,
                          float(part[bound])]
        for bound in ("minLength", "maxLength"):
            if bound in part:
                found += ["y" * part[bound], "y" * (part[bound] + 1),
                          "y" * max(part[bound] - 1, 0)]
    field = registry.column(table, column)
    assert field is not None
    found += list(field.vocabulary or ())
    return found


def _columns() -> list[tuple[str, str]]:
    return [(section.table, f.column) for section in registry.SECTIONS if section.table
            for f in section.fields if f.column and registry.column(section.table, f.column)]


def test_the_compiled_checks_agree_with_the_schema_validator() -> None:
    compiled = 0
    for table, column in _columns():
        passes = _plain_check(table, column)
        if passes is None:
            continue
        compiled += 1
        field = registry.column(table, column)
        assert field is not None
        for value in _values(table, column):
            said = value_problem(table, column, value, field.with_unit)
            if passes(value):
                assert said is None, (table, column, value, said)
            assert declared_problem(table, column, value, field.with_unit) == said, (
                table, column, value)
            if not isinstance(value, dict):
                assert stored_problem(table, column, value) == said, (table, column, value)
    assert compiled > 150


def test_a_list_of_text_is_checked_by_its_compiled_check() -> None:
    passes = _plain_check("parcels", "owner_mailing_address")
    assert passes is not None
    assert passes('["1 Main St","Naples, NY 14512"]') and passes(["1 Main St"])
    assert not passes("[]") and not passes('[" "]') and not passes(None)
    assert declared_problem("parcels", "owner_mailing_address", "[]", "Mailing address") \
        == value_problem("parcels", "owner_mailing_address", "[]", "Mailing address")
