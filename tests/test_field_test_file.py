"""A field test's times and observations in the case file: optional extension keys, read
strictly (real moments, not after today, an end after its start and within a day, an
observation not before its test), written back unchanged, and kept through `case import`
and `case export`."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from inspector_app.__main__ import main
from inspector_app.casefile import CaseFileError, parse_document, to_document
from tests.test_casefile import TODAY, canonical

TEST = {"kind": "hydraulic_load", "result": "pass", "volume_gal": 150, "duration_min": 50,
        "started_at": "2026-11-20T09:30", "ended_at": "2026-11-20T10:20",
        "observations": [
            {"at": "2026-11-20T10:45", "dye_seen": False, "note": "no breakout"},
            {"at": "2026-11-24", "dye_seen": True, "note": "dye at the shore",
             "place": {"type": "Point", "coordinates": [-77.2803, 42.8071]}}]}


def _with(full_case: dict[str, Any], **changes: Any) -> dict[str, Any]:
    doc = copy.deepcopy(full_case)
    doc["inspection"]["tests"] = [{**TEST, **changes}]
    return doc


def _parse(doc: dict[str, Any]) -> Any:
    return parse_document(doc, source="case.json", today=TODAY)


def test_times_and_observations_read_and_write_back(full_case: dict[str, Any]) -> None:
    doc = _with(full_case)
    case = _parse(doc)
    (test,) = case.inspection.tests
    assert (test.started_at, test.ended_at) == ("2026-11-20T09:30", "2026-11-20T10:20")
    assert [o.dye_seen for o in test.observations] == [False, True]
    assert to_document(case) == canonical(doc)


def test_a_version_1_test_needs_none_of_them(full_case: dict[str, Any]) -> None:
    doc = copy.deepcopy(full_case)
    doc["inspection"]["tests"] = [{"kind": "dye", "result": "pass"}]
    assert to_document(_parse(doc))["inspection"]["tests"] == [{"kind": "dye",
                                                                 "result": "pass"}]


@pytest.mark.parametrize(("changes", "message"), [
    ({"ended_at": "2026-11-20T09:30"},
     r"inspection\.tests\[0\]\.ended_at \(2026-11-20T09:30\) is not after started_at"),
    ({"ended_at": "2026-11-20T09:00"}, "is not after started_at"),
    ({"ended_at": "2026-11-21T09:31"}, "is more than 24 hours after started_at"),
    ({"started_at": None}, "ended_at is given without started_at"),
    ({"started_at": "2026-11-31T09:30"}, "not a real date and time of day"),
    ({"started_at": "2026-11-20T24:30"}, "not a real date and time of day"),
    ({"started_at": "2026-11-20 09:30"}, "started_at"),
    ({"started_at": "2026-11-26T09:30", "ended_at": None}, "is after today"),
    ({"observations": [{"at": "2026-11-20T09:00", "dye_seen": False}]},
     r"observations\[0\]\.at \(2026-11-20T09:00\) is before the test started"),
    ({"observations": [{"at": "2026-11-19", "dye_seen": False}]}, "before the test started"),
    ({"observations": [{"at": "2026-11-30", "dye_seen": False}]}, "after today"),
    ({"observations": [{"at": "2026-11-21", "dye_seen": "no"}]}, "dye_seen"),
    ({"observations": [{"at": "2026-11-21"}]}, "dye_seen"),
    ({"observations": [{"at": "2026-11-21", "dye_seen": True,
                        "place": {"type": "Polygon", "coordinates": []}}]}, "place"),
    ({"observations": [{"at": "2026-11-21", "dye_seen": True,
                        "place": {"type": "Point", "coordinates": [-77.3, 95.0]}}]},
     "place"),
    ({"observations": [{"at": "2026-11-21", "dye_seen": True}] * 51}, "at most 50"),
])
def test_bad_times_and_observations_are_refused_in_one_sentence(
        full_case: dict[str, Any], changes: dict[str, Any], message: str) -> None:
    doc = _with(full_case, **changes)
    doc["inspection"]["tests"][0] = {k: v for k, v in doc["inspection"]["tests"][0].items()
                                     if v is not None}
    with pytest.raises(CaseFileError, match=message):
        _parse(doc)


def test_a_date_alone_observed_on_the_test_s_day_is_not_before_it(
        full_case: dict[str, Any]) -> None:
    doc = _with(full_case, observations=[{"at": "2026-11-20", "dye_seen": False}])
    assert _parse(doc).inspection.tests[0].observations[0].at == "2026-11-20"


def _cli(data: Path, *args: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(["--data-dir", str(data), *args])
    out, err = capsys.readouterr()
    return code, out + err


def test_case_import_and_export_keep_them(tmp_path: Path, full_case: dict[str, Any],
                                          capsys: pytest.CaptureFixture[str]) -> None:
    doc = _with(full_case)
    source = tmp_path / "case.json"
    source.write_text(json.dumps(doc), "utf-8")
    data = tmp_path / "data"
    code, said = _cli(data, "case", "import", str(source), "--as-of", TODAY.isoformat(),
                      capsys=capsys)
    assert code == 0, said
    code, out = _cli(data, "case", "export", doc["parcel"]["sbl"], capsys=capsys)
    assert code == 0, out
    exported = json.loads(out)
    assert exported["inspection"]["tests"] == [canonical(TEST)]

    # a bad end is refused in one sentence with status 2, and nothing changes
    bad = _with(full_case, ended_at="2026-11-20T09:00")
    source.write_text(json.dumps(bad), "utf-8")
    code, said = _cli(data, "case", "import", str(source), "--as-of", TODAY.isoformat(),
                      capsys=capsys)
    assert code == 2 and "is not after started_at" in said
    code, out = _cli(data, "case", "export", doc["parcel"]["sbl"], capsys=capsys)
    assert json.loads(out)["inspection"]["tests"] == [canonical(TEST)]
