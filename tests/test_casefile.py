from __future__ import annotations

import copy
import json
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from inspector_app import casefile
from inspector_app.casefile import (
    CaseFileError,
    case_schema,
    parse_document,
    schema,
    to_document,
    values,
)

TODAY = date(2026, 11, 25)
DOCS = Path(__file__).parent.parent / "docs"


def canonical(doc: Any) -> Any:
    """A case as export writes it: no null keys, integral floats as ints."""
    if isinstance(doc, dict):
        return {k: canonical(v) for k, v in doc.items() if v is not None}
    if isinstance(doc, list):
        return [canonical(v) for v in doc]
    if isinstance(doc, float) and doc.is_integer():
        return int(doc)
    return doc


def parse(doc: dict[str, Any]) -> Any:
    return parse_document(doc, source="case.json", today=TODAY)


def test_contract_example_reads_and_writes_back(contract_case: dict[str, Any]) -> None:
    assert to_document(parse(contract_case)) == canonical(contract_case)


def test_full_case_reads_and_writes_back(full_case: dict[str, Any]) -> None:
    assert to_document(parse(full_case)) == canonical(full_case)


def test_published_schema_matches_the_validator() -> None:
    published = json.loads((DOCS / "case-1.schema.json").read_text("utf-8"))
    assert published == case_schema()


def _broken(base: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    doc = copy.deepcopy(base)
    *parents, last = path.split(".")
    node: Any = doc
    for part in parents:
        node = node[int(part)] if part.isdigit() else node[part]
    if value is _DELETE:
        del node[last]
    else:
        node[int(last) if last.isdigit() else last] = value
    return doc


_DELETE = object()


@pytest.mark.parametrize(("path", "value", "message"), [
    ("parcel.ownr_name", "x", "parcel has the unknown key \"ownr_name\""),
    ("components.0.sludge_depth", 3, "components[0] has the unknown key \"sludge_depth\""),
    ("extra", 1, "the top level has the unknown key \"extra\""),
    ("parcel.sbl", _DELETE, "parcel.sbl is missing"),
    ("parcel.sbl", "Lot 7", "parcel.sbl is the text \"Lot 7\", which is not a tax map number"),
    ("dwelling.bedrooms", "3", "dwelling.bedrooms must be a whole number, not the text \"3\""),
    ("dwelling.bedrooms", 2.5, "dwelling.bedrooms must be a whole number, not 2.5"),
    ("dwelling.bedrooms", -1, "dwelling.bedrooms is -1, which is not plausible"),
    ("dwelling.living_area_sqft", 1e7, "dwelling.living_area_sqft is 10000000.0, which is not "
                                       "plausible; it must be between 0 and 100000"),
    ("dwelling.building_area_sqft", 1000, "dwelling.building_area_sqft (1000 sq ft) is smaller "
                                          "than living_area_sqft"),
    ("components.0.condition", "bad", "components[0].condition is the text \"bad\"; it must be "
                                      "one of: acceptable, substandard, failed, not_located"),
    ("components.0.kind", "outhouse", "components[0].kind is the text \"outhouse\""),
    ("inspection.date", "2026-02-30", "inspection.date is \"2026-02-30\", which is not a real "
                                      "calendar date"),
    ("inspection.date", "11/20/2026", "inspection.date is the text \"11/20/2026\"; write dates "
                                      "as YYYY-MM-DD"),
    ("inspection.date", "2026-12-01", "inspection.date is 2026-12-01, which is after today "
                                      "(2026-11-25)"),
    ("etu.inspections.0.report_received", "2025-08-01",
     "etu.inspections[0].report_received (2025-08-01) is before the inspection date"),
    ("holding_tank_service.pump_outs.0.date", "2027-06-01",
     "holding_tank_service.pump_outs[0].date is 2027-06-01, which is after today"),
    ("site.lake_distance_method", _DELETE, "site.lake_distance_method is missing"),
    ("site.lake_distance_method", "pacing", "site.lake_distance_method is the text \"pacing\""),
    ("site.absorption_area", {"type": "Point", "coordinates": [-77.3, 42.8]},
     "site.absorption_area is a GeoJSON \"Point\"; it must be one of: Polygon, MultiPolygon"),
    ("site.absorption_area", {"type": "Polygon", "coordinates": [[[-77.3, 42.8], [-77.2, 42.8],
                                                                   [-77.2, 42.9]]]},
     "site.absorption_area.coordinates[0] is not a closed ring"),
    ("site.absorption_area", {"type": "Polygon", "coordinates": [[[4700000, 1100000],
                                                                   [4700100, 1100000],
                                                                   [4700100, 1100100],
                                                                   [4700000, 1100000]]]},
     "is [4700000, 1100000], which is not a WGS84 longitude/latitude"),
    ("notice.complete_by", "2026-12-01", "notice.complete_by (2026-12-01) is before "
                                         "notice.permit_by"),
    ("parcel.owner_mailing_address", [], "parcel.owner_mailing_address is empty"),
    ("parcel.owner_name", "   ", "parcel.owner_name is blank"),
    ("components.0.laterals", 4, "components[0].laterals does not apply to a septic_tank"),
    ("format", "watershed-inspector/case/2", "format is the text "
                                             "\"watershed-inspector/case/2\"; this app reads"),
    ("ahj.permit_number", "P" * 61, "ahj.permit_number is too long; at most 60 allowed"),
    ("ahj.permit_number", " ", "ahj.permit_number is blank; fill it in"),
    ("ahj.permit_issued_on", "2026-12-01", "ahj.permit_issued_on is 2026-12-01, which is "
                                           "after today (2026-11-25)"),
    ("ahj.permit_issued_on", "2026-02-30", "ahj.permit_issued_on is \"2026-02-30\", which is "
                                           "not a real calendar date"),
])
def test_bad_fields_are_refused_by_name(full_case: dict[str, Any], path: str, value: Any,
                                        message: str) -> None:
    with pytest.raises(CaseFileError) as caught:
        parse(_broken(full_case, path, value))
    text = str(caught.value)
    assert text.startswith("case.json: ")
    assert message in text
    assert text.endswith(".")


def test_a_version_1_ahj_determination_needs_no_extension_keys(
        contract_case: dict[str, Any]) -> None:
    # CLI-CONTRACT.md: `dwelling.ahj_design_bedrooms` is optional and the app's own keys
    # (`ahj_design_by`, ...) are extensions that another office's file does not carry.
    doc = copy.deepcopy(contract_case)
    doc["dwelling"] = {"bedrooms": 4, "living_area_sqft": 4600, "ahj_design_bedrooms": 6}
    case = parse(doc)
    assert case.dwelling is not None
    assert (case.dwelling.ahj_design_bedrooms, case.dwelling.ahj_design_by) == (6, None)


def test_the_building_permit_is_an_optional_extension(full_case: dict[str, Any],
                                                     contract_case: dict[str, Any]) -> None:
    ahj = parse(full_case).ahj
    assert ahj is not None
    assert (ahj.permit_number, ahj.permit_issued_on) == ("BP-2026-0147", date(2026, 11, 24))
    assert to_document(parse(full_case))["ahj"]["permit_issued_on"] == "2026-11-24"
    doc = copy.deepcopy(contract_case)
    doc["ahj"] = {"greatest_extent_possible": True}  # a version-1 determination, no permit
    plain = parse(doc).ahj
    assert plain is not None and (plain.permit_number, plain.permit_issued_on) == (None, None)
    assert "permit_number" not in to_document(parse(doc))["ahj"]


def test_several_problems_are_counted(full_case: dict[str, Any]) -> None:
    doc = _broken(_broken(full_case, "dwelling.bedrooms", "x"), "parcel.owner_name", 5)
    with pytest.raises(CaseFileError, match=r": has 2 problems: \(1\) .*; \(2\) "):
        parse(doc)


def test_notice_deadlines_may_be_in_the_future(full_case: dict[str, Any]) -> None:
    case = parse(full_case)
    assert case.notice.permit_by == date(2027, 1, 15)


def test_file_level_refusals(tmp_path: Path) -> None:
    bad_json = tmp_path / "bad.json"
    bad_json.write_text('{"format": "watershed-inspector/case/1",\n "parcel": }')
    with pytest.raises(CaseFileError, match=r"bad\.json: is not valid JSON \(line 2, column 12"):
        casefile.read_file(bad_json, today=TODAY)

    latin1 = tmp_path / "latin1.json"
    latin1.write_bytes('{"owner": "Ren\u00e9e"}'.encode("latin-1"))
    with pytest.raises(CaseFileError, match="is not UTF-8 text"):
        casefile.read_file(latin1, today=TODAY)

    dup = tmp_path / "dup.json"
    dup.write_text('{"format": "watershed-inspector/case/1", "format": "x"}')
    with pytest.raises(CaseFileError, match="the key \"format\" appears twice"):
        casefile.read_file(dup, today=TODAY)

    with pytest.raises(CaseFileError, match="no such case file"):
        casefile.read_file(tmp_path / "missing.json", today=TODAY)

    array = tmp_path / "array.json"
    array.write_text("[]")
    with pytest.raises(CaseFileError, match="is not a case file"):
        casefile.read_file(array, today=TODAY)


def test_utf8_with_byte_order_mark_is_read(tmp_path: Path, contract_case: dict[str, Any]) -> None:
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(contract_case).encode())
    assert casefile.read_file(path, today=TODAY).parcel.owner_name == "Jane Roe"


_PROBES = (None, True, 0, -1, 2.5, 10**12, "", "x" * 3000, "2026-02-30", [], {}, ["a"])


def _leaves(doc: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    if isinstance(doc, dict):
        return [path] + [p for k, v in doc.items() for p in _leaves(v, (*path, k))]
    if isinstance(doc, list):
        return [path] + [p for i, v in enumerate(doc) for p in _leaves(v, (*path, i))]
    return [path]


def test_the_quick_schema_check_never_passes_what_the_validator_refuses(
        full_case: dict[str, Any]) -> None:
    """The compiled check decides alone only when it passes a document: every place of a
    full case set to each of a dozen kinds of value gets the validator's own answer."""
    refused = 0
    for path in _leaves(full_case)[1:]:
        for probe in _PROBES:
            doc = copy.deepcopy(full_case)
            at = doc
            for part in path[:-1]:
                at = at[part]
            at[path[-1]] = probe
            wrong = bool(list(schema.VALIDATOR.iter_errors(doc)))
            refused += wrong
            assert not (schema.PASSES(doc) and wrong), (path, probe)
    assert refused > 500  # most of the probes are refused
    node = case_schema()["properties"]["dwelling"]["properties"]["bedrooms"]
    passes, _ = values._field_checks(node)
    assert [passes(v) for v in (3, True, 2.5, "3", None)] == [True, False, False, False,
                                                               False]
