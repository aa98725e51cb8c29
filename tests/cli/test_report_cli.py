"""`report program` and `report export`: JSON on stdout, files written whole, bad input
refused with status 2 and nothing written."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest
from openpyxl import load_workbook

from inspector_app.cli import run
from inspector_app.services.lists.exports import EXPORT_COLUMNS

AS_OF = "2026-11-25"


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any, str]:
    status = run(list(argv))
    out, err = capsys.readouterr()
    return status, json.loads(out) if out.strip() else None, err


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> str:
    folder = str(tmp_path_factory.mktemp("report") / "data")
    assert run(["--data-dir", folder, "demo", "--as-of", AS_OF]) == 0
    return folder


def test_program_writes_the_pdf_and_json_prints_its_figures(
        capsys: pytest.CaptureFixture[str], data: str, tmp_path: Path) -> None:
    capsys.readouterr()
    out = tmp_path / "report.pdf"
    period = ("--from", "2021-01-01", "--to", "2026-11-24", "--as-of", AS_OF)
    status, summary, _ = _cli(capsys, "--data-dir", data, "report", "program", *period,
                              "--out", str(out))
    assert status == 0 and out.read_bytes().startswith(b"%PDF")
    status, figures, _ = _cli(capsys, "--data-dir", data, "report", "program", *period,
                              "--json")
    assert status == 0 and "path" not in figures
    assert summary["inspections"] == figures["totals"]["inspections"] > 0
    assert summary["open_matters"] == len(figures["open_matters"])
    assert figures["as_of"] == AS_OF and figures["from"] == "2021-01-01"
    status, one, _ = _cli(capsys, "--data-dir", data, "report", "program", *period, "--json",
                          "--municipality", "town of gorham")
    assert status == 0 and one["municipalities"] == ["Town of Gorham"]
    assert one["totals"] == figures["by_municipality"]["Town of Gorham"]


@pytest.mark.parametrize(("argv", "message"), [
    (("--from", "2026-02-01", "--to", "2026-01-01"), "--from 2026-02-01 is after --to"),
    (("--from", "2026-01-01", "--to", "2026-11-26"), "--to 2026-11-26 is after today"),
    (("--from", "2026-01-01", "--to", "2026-02-30"), "not a date"),
    (("--from", "2026-01-01", "--to", "2026-02-01", "--municipality", "Geneva"),
     "--municipality 'Geneva' has no parcel on record"),
])
def test_bad_input_is_refused_and_nothing_written(capsys: pytest.CaptureFixture[str],
                                                  data: str, tmp_path: Path,
                                                  argv: tuple[str, ...], message: str) -> None:
    for command, name in (("program", "r.pdf"), ("export", "r.csv")):
        status, out, err = _cli(capsys, "--data-dir", data, "report", command, *argv,
                                "--as-of", AS_OF, "--out", str(tmp_path / name))
        assert status == 2 and out is None and message in err
    assert not list(tmp_path.iterdir())


def test_a_report_that_is_not_a_pdf_or_has_nowhere_to_go(capsys: pytest.CaptureFixture[str],
                                                        data: str, tmp_path: Path) -> None:
    period = ("--from", "2026-01-01", "--to", "2026-02-01", "--as-of", AS_OF)
    status, _, err = _cli(capsys, "--data-dir", data, "report", "program", *period)
    assert status == 2 and "--out FILE.pdf, or --json" in err
    status, _, err = _cli(capsys, "--data-dir", data, "report", "program", *period,
                          "--out", str(tmp_path / "r.docx"))
    assert status == 2 and "ending in .pdf" in err
    status, _, err = _cli(capsys, "--data-dir", data, "report", "export", *period,
                          "--out", str(tmp_path / "r.ods"))
    assert status == 2 and ".csv, .xlsx or .gpkg" in err
    assert not list(tmp_path.iterdir())


def test_export_has_one_row_per_inspection_in_csv_and_xlsx(
        capsys: pytest.CaptureFixture[str], data: str, tmp_path: Path) -> None:
    period = ("--from", "2021-01-01", "--to", "2026-11-24", "--as-of", AS_OF)
    status, figures, _ = _cli(capsys, "--data-dir", data, "report", "program", *period,
                              "--json")
    status, out, _ = _cli(capsys, "--data-dir", data, "report", "export", *period, "--out",
                          str(tmp_path / "i.csv"))
    assert status == 0 and out["inspections"] == figures["totals"]["inspections"]
    rows = list(csv.DictReader(io.StringIO((tmp_path / "i.csv").read_text("utf-8-sig"))))
    assert len(rows) == out["inspections"] and list(rows[0]) == list(EXPORT_COLUMNS)
    by_outcome = {k: sum(1 for r in rows if r["outcome"] == k)
                  for k in figures["totals"]["by_outcome"]}
    assert by_outcome == figures["totals"]["by_outcome"]
    failures = [r for r in rows if r["outcome"] == "failure"]
    assert failures and all("system_in_failure (§ 202-5 C" in r["violations"]
                            for r in failures)
    status, out, _ = _cli(capsys, "--data-dir", data, "report", "export", *period, "--out",
                          str(tmp_path / "i.xlsx"))
    sheet = load_workbook(tmp_path / "i.xlsx").active
    values = [[c.value for c in row] for row in sheet.iter_rows()]
    assert values[0] == list(EXPORT_COLUMNS) and len(values) == len(rows) + 1
    assert [v[0] for v in values[1:]] == [r["sbl"] for r in rows]


def test_export_escapes_a_site_address_that_would_run_as_a_formula(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    folder = str(tmp_path / "data")
    case = {"format": "watershed-inspector/case/1",
            "parcel": {"sbl": "112.09-1-7.2", "municipality": "Town of Canandaigua",
                       "site_address": "=HYPERLINK(\"http://evil\",\"5150 Rd\")",
                       "owner_name": "Jane Roe",
                       "owner_mailing_address": ["17 Birch Hollow Lane", "Pittsford, NY 14534"]},
            "dwelling": {"bedrooms": 3, "living_area_sqft": 2400},
            "components": [{"kind": "septic_tank", "condition": "acceptable"}],
            "inspection": {"date": "2026-03-01", "inspector": "@A. Inspector",
                           "reason": "conveyance", "failure_evidence": []}}
    path = tmp_path / "case.json"
    path.write_text(json.dumps(case))
    assert run(["--data-dir", folder, "case", "import", str(path), "--as-of", AS_OF]) == 0
    capsys.readouterr()
    for name in ("x.csv", "x.xlsx"):
        status, _, _ = _cli(capsys, "--data-dir", folder, "report", "export", "--from",
                            "2026-01-01", "--to", "2026-11-24", "--as-of", AS_OF, "--out",
                            str(tmp_path / name))
        assert status == 0
    (row,) = list(csv.DictReader(io.StringIO((tmp_path / "x.csv").read_text("utf-8-sig"))))
    assert row["site_address"] == "'" + case["parcel"]["site_address"]
    assert row["inspector"] == "'@A. Inspector"
    sheet = load_workbook(tmp_path / "x.xlsx").active
    cells = list(sheet.iter_rows())[1]
    assert cells[2].value == case["parcel"]["site_address"] and cells[2].data_type == "s"
    assert cells[2].quotePrefix and cells[3].is_date
