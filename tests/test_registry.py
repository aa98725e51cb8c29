"""Every stored field is declared once (`domain/registry`), and the rest is derived from the
declarations: a column nothing declares fails here."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector_app.casefile import case_schema
from inspector_app.casefile.values import value_problem
from inspector_app.domain import registry
from inspector_app.domain.authority import LAPTOP_PARCEL_FIELDS, LAPTOP_TABLES
from inspector_app.services.workspace import Workspace
from inspector_app.storage.contacts import contact_fields
from inspector_app.storage.database import NOT_RECORDS
from inspector_app.storage.records import BOOKKEEPING


@pytest.fixture(scope="module")
def columns(tmp_path_factory: pytest.TempPathFactory) -> dict[str, set[str]]:
    with Workspace(tmp_path_factory.mktemp("fresh")) as ws:
        conn = ws.store.conn
        tables = [t for (t,) in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {t: {r[1] for r in conn.execute(f'PRAGMA table_info("{t}")')} for t in tables}


def test_every_table_is_a_declared_record_or_named_as_none(
        columns: dict[str, set[str]]) -> None:
    records = set(registry.RECORD_TABLES)
    assert set(columns) - NOT_RECORDS - records == set(), "a table nothing declares"
    assert records <= set(columns), "a declared record with no table"


def test_every_column_of_a_record_is_declared(columns: dict[str, set[str]]) -> None:
    for table in registry.RECORD_TABLES:
        stored = {f.column for f in registry.BY_TABLE[table].fields if f.stored}
        undeclared = columns[table] - stored - BOOKKEEPING - {"parcel_id"}
        assert not undeclared, f"{table}: {sorted(undeclared)} declared nowhere"
        assert stored - columns[table] <= {"id"}, f"{table}: declared, but no column"


def test_what_is_derived_follows_the_declarations() -> None:
    assert "sbl" not in LAPTOP_PARCEL_FIELDS and "owner_phone" in LAPTOP_PARCEL_FIELDS
    assert "letters" not in LAPTOP_TABLES and "inspections" in LAPTOP_TABLES
    assert ("renters", "mailing_address", "[]") in contact_fields()
    assert ("parcels", "owner_name", None) not in contact_fields()
    node = case_schema()["properties"]["dwelling"]["properties"]["bedrooms"]
    assert (node["minimum"], node["maximum"]) == (0, 50)
    published = Path(__file__).parent.parent / "docs" / "case-1.schema.json"
    assert json.loads(published.read_text("utf-8")) == case_schema()


@pytest.mark.parametrize("table, column, value, words", [
    ("dwellings", "bedrooms", 999, "which is not plausible; it must be between 0 and 50"),
    ("parcels", "owner_name", "W" * 300, "is too long; at most 200 allowed"),
    ("lake_measurements", "distance_ft", 1e9, "must be between 0 and 5000000"),
    ("inspections", "date", "2026-13-45", "which is not a real calendar date"),
])
def test_a_value_is_refused_in_the_same_words_at_every_door(
        table: str, column: str, value: object, words: str) -> None:
    """The declaration's check: what a sync package, a resolution, the roll, a kit and the
    form's red bar all say of the value (each naming the field its own way)."""
    field = registry.column(table, column)
    assert field is not None
    problem = value_problem(table, column, value, field.with_unit)
    assert problem is not None and problem.startswith(field.with_unit) and words in problem
