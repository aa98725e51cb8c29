"""A septic tank's measurements through the command line: the case file keeps them, bad
depths are refused in one sentence with nothing changed, `evaluate --sbl` works out the
solids share with its arithmetic and suggests pumping at a third, the inspector accepts or
rejects that like any suggested finding, and the report of findings prints the arithmetic."""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from inspector_app.cli import run

FULL_CASE = Path(__file__).parents[1] / "fixtures" / "full_case.json"
SBL = "98.00-1-23.100"
KEY = "pump/septic_tank#1"
ARITHMETIC = "sludge 14.5 in + scum 4 in = 18.5 in of 48 in liquid depth = 39 %"
MEASURED = {"sludge_depth_in": 14.5, "scum_depth_in": 4, "liquid_depth_in": 48,
            "scum_clearance_in": 5, "sludge_clearance_in": 11.5, "effluent_filter": True,
            "effluent_filter_cleaned": True}


def cli(capsys: pytest.CaptureFixture[str], *args: str | Path) -> tuple[int, Any, str]:
    status = run([str(a) for a in args])
    out, err = capsys.readouterr()
    return status, (json.loads(out) if out.strip().startswith(("{", "[")) else out), err


def _doc(**tank: Any) -> dict[str, Any]:
    doc: dict[str, Any] = copy.deepcopy(json.loads(FULL_CASE.read_text("utf-8")))
    doc["parcel"]["sbl"] = SBL
    doc["components"] = [
        {"kind": "septic_tank", "condition": "acceptable", "defects": [],
         "capacity_gal": 1250, **tank},
        {"kind": "distribution_box", "condition": "acceptable", "defects": []},
        {"kind": "absorption_area", "condition": "acceptable", "defects": []}]
    doc["inspection"]["failure_evidence"] = []
    doc["inspection"].pop("tests")
    for key in ("observations", "etu", "holding_tank_service"):
        doc.pop(key, None)
    return doc


def _import(capsys: pytest.CaptureFixture[str], data: Path, doc: dict[str, Any],
            path: Path) -> tuple[int, Any, str]:
    path.write_text(json.dumps(doc), "utf-8")
    return cli(capsys, "--data-dir", data, "case", "import", path)


@pytest.fixture
def data(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    folder = tmp_path / "data"
    status, _, err = _import(capsys, folder, _doc(**MEASURED), tmp_path / "case.json")
    assert status == 0, err
    return folder


def _tank(capsys: pytest.CaptureFixture[str], data: Path) -> dict[str, Any]:
    status, out, err = cli(capsys, "--data-dir", data, "case", "export", SBL)
    assert status == 0, err
    return dict(out["components"][0])


def _evaluate(capsys: pytest.CaptureFixture[str], data: Path) -> dict[str, Any]:
    status, out, err = cli(capsys, "--data-dir", data, "evaluate", "--sbl", SBL,
                           "--as-of", "2026-12-01")
    assert status == 0, err
    return dict(out)


def test_the_measurements_make_the_round_trip(capsys: pytest.CaptureFixture[str],
                                              data: Path) -> None:
    tank = _tank(capsys, data)
    assert {k: tank.get(k) for k in MEASURED} == MEASURED


def test_evaluate_shows_the_share_with_its_arithmetic_and_suggests_pumping(
        capsys: pytest.CaptureFixture[str], data: Path) -> None:
    e = _evaluate(capsys, data)
    [tank] = e["tanks"]
    assert tank["component"] == "septic_tank" and tank["ordinal"] == 1
    assert tank["arithmetic"] == ARITHMETIC
    assert (tank["solids_depth_in"], tank["liquid_depth_in"]) == (18.5, 48)
    assert tank["solids_percent"] == 39 and tank["pump_at_share"] == "1/3"
    assert tank["pump_suggested"] is True
    assert tank["pump_basis"].endswith("(unconfirmed)")
    [s] = [s for s in e["suggested_findings"] if s["key"] == KEY]
    assert s["status"] == "pending" and s["condition"] == "acceptable"
    assert ARITHMETIC in s["defect"]
    assert "NH Env-Wq 1023.01" in s["citation"] and "§" not in s["citation"]


@pytest.mark.parametrize("change, words", [
    ({"sludge_depth_in": 40, "scum_depth_in": 10},
     "components[0].liquid_depth_in (48 in) is less than the sludge depth (40 in) and the "
     "scum depth (10 in) together (50 in)"),
    ({"liquid_depth_in": 250}, "components[0].liquid_depth_in"),
    ({"scum_clearance_in": -1}, "components[0].scum_clearance_in"),
    ({"sludge_depth_in": 201}, "components[0].sludge_depth_in"),
])
def test_bad_depths_are_refused_in_one_sentence_and_change_nothing(
        capsys: pytest.CaptureFixture[str], data: Path, tmp_path: Path,
        change: dict[str, Any], words: str) -> None:
    before = _tank(capsys, data)
    status, out, err = _import(capsys, data, _doc(**{**MEASURED, **change}),
                               tmp_path / "bad.json")
    assert status == 2 and not out
    assert words in err
    assert len([line for line in err.strip().splitlines() if line.strip()]) == 1
    assert _tank(capsys, data) == before


def test_a_pump_chamber_has_no_clearance_to_an_outlet_tee(
        capsys: pytest.CaptureFixture[str], data: Path, tmp_path: Path) -> None:
    doc = _doc(**MEASURED)
    doc["components"].append({"kind": "pump_chamber", "condition": "acceptable",
                              "defects": [], "liquid_depth_in": 30, "scum_clearance_in": 3})
    status, _, err = _import(capsys, data, doc, tmp_path / "chamber.json")
    assert status == 2
    assert "components[3].scum_clearance_in does not apply to a pump_chamber" in err


def test_rejecting_leaves_the_tank_and_accepting_records_the_finding_on_it(
        capsys: pytest.CaptureFixture[str], data: Path) -> None:
    before = _tank(capsys, data)
    status, out, err = cli(capsys, "--data-dir", data, "suggestion", "reject", SBL, KEY,
                           "--note", "pumped the week after")
    assert status == 0, err
    assert out["status"] == "rejected"
    assert _tank(capsys, data) == before
    assert [s["status"] for s in _evaluate(capsys, data)["suggested_findings"]
            if s["key"] == KEY] == ["rejected"]
    status, out, err = cli(capsys, "--data-dir", data, "suggestion", "accept", SBL, KEY)
    assert status == 0, err
    assert out["status"] == "accepted"
    tank = _tank(capsys, data)
    assert tank["condition"] == "acceptable"  # a tank to pump is not substandard
    [defect] = tank["defects"]
    assert defect.startswith(f"pump the tank: {ARITHMETIC}, at or above one third (33 %)")
    assert defect.endswith("(office practice, not Chapter 202; usual rule: NH Env-Wq "
                           "1023.01)")
    assert _evaluate(capsys, data)["outcome"] == "acceptable"


def test_below_a_third_nothing_is_suggested(capsys: pytest.CaptureFixture[str],
                                            data: Path, tmp_path: Path) -> None:
    status, _, err = _import(capsys, data, _doc(**{**MEASURED, "sludge_depth_in": 11.9}),
                             tmp_path / "less.json")
    assert status == 0, err
    e = _evaluate(capsys, data)
    assert e["tanks"][0]["arithmetic"] == ("sludge 11.9 in + scum 4 in = 15.9 in of 48 in "
                                           "liquid depth = 33 %")
    assert e["tanks"][0]["pump_suggested"] is False
    assert not [s for s in e["suggested_findings"] if s["key"].startswith("pump/")]


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs poppler's pdftotext")
def test_the_report_of_findings_prints_the_arithmetic(
        capsys: pytest.CaptureFixture[str], data: Path, tmp_path: Path) -> None:
    pdf = tmp_path / "report.pdf"
    status, _, err = cli(capsys, "--data-dir", data, "register", "draft", SBL, "--kind",
                         "report_of_findings", "--out", pdf, "--as-of", "2026-12-01")
    assert status == 0, err
    text = " ".join(subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True,
                                   text=True, check=True).stdout.split())
    assert "Tank solids" in text
    assert (f"Septic tank 1: {ARITHMETIC}; at or above one third (33 %) of the liquid depth, "
            "pumping is suggested (office practice, not Chapter 202; usual rule: NH Env-Wq "
            "1023.01; the share is not confirmed by the Town).") in text
