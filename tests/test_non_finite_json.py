"""NaN, Infinity and numbers too large for a float are refused in every JSON that comes from
outside (case files, sync packages, field kits, GeoJSON), naming where they are; a stored
value is never cleared by one."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from inspector_app.casefile import CaseFileError, parse_document, parse_text
from inspector_app.geo.vector_files import GeometryFileError, read_geojson_areas
from inspector_app.json_input import NonFiniteNumber, loads
from inspector_app.services.workspace import Workspace

TODAY = date(2026, 11, 25)


@pytest.mark.parametrize("text", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_a_case_file_with_a_number_that_is_not_finite_is_refused(
        workspace: Workspace, full_case: dict[str, Any], text: str) -> None:
    workspace.save_case(parse_document(full_case, source="case.json", today=TODAY),
                        today=TODAY)
    sbl = full_case["parcel"]["sbl"]
    stored = workspace.load_case(sbl).dwelling.living_area_sqft
    assert stored is not None
    doc = json.dumps(full_case).replace(
        f'"living_area_sqft": {json.dumps(full_case["dwelling"]["living_area_sqft"])}',
        f'"living_area_sqft": {text}')
    assert text in doc
    with pytest.raises(CaseFileError) as refused:
        workspace.save_case(parse_text(doc, source="case.json", today=TODAY), today=TODAY)
    assert str(refused.value) == (f"case.json: dwelling.living_area_sqft is {text}, which is "
                                  "not a finite number; write the number itself (or leave the "
                                  "field out).")
    assert workspace.load_case(sbl).dwelling.living_area_sqft == stored


def test_a_case_given_as_a_document_with_nan_is_refused(full_case: dict[str, Any]) -> None:
    full_case["components"][0]["liquid_capacity_gal"] = float("nan")
    with pytest.raises(CaseFileError, match=r"components\[0\]\.liquid_capacity_gal is NaN"):
        parse_document(full_case, source="form", today=TODAY)


def test_the_shared_reader_names_the_place() -> None:
    with pytest.raises(NonFiniteNumber) as refused:
        loads('{"a": [1, 2, {"b": -Infinity}]}')
    assert refused.value.path == ("a", 2, "b")
    assert loads('{"a": 1.5, "b": [1e308]}') == {"a": 1.5, "b": [1e308]}


def test_geojson_with_nan_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "area.geojson"
    path.write_text('{"type": "Feature", "properties": {"area_sqft": NaN}, "geometry": '
                    '{"type": "Point", "coordinates": [-77.3, 42.75]}}')
    with pytest.raises(GeometryFileError, match=r"properties\.area_sqft is NaN"):
        read_geojson_areas(path)
