"""The program report's PDF: the letters' font alone, embedded; charts drawing exactly the
figures `--json` prints; every page drawn; no owner's name anywhere."""

from __future__ import annotations

import io
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader
from reportlab.graphics.charts.barcharts import VerticalBarChart
from reportlab.graphics.charts.lineplots import LinePlot

from inspector_app.documents.preview import render_pages
from inspector_app.documents.program_pdf import STACK, charts
from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.lists.program_report import (
    ProgramReport,
    program_report,
    program_report_pdf,
)
from inspector_app.services.workspace import Workspace

TODAY = date(2026, 11, 25)
START, END = date(2021, 1, 1), date(2026, 11, 24)


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Workspace]:
    with Workspace(tmp_path_factory.mktemp("program") / "data", user="clerk") as ws:
        install_demo(ws, today=TODAY)
        yield ws


@pytest.fixture(scope="module")
def report(demo: Workspace) -> ProgramReport:
    return program_report(demo, START, END, as_of=TODAY)


@pytest.fixture(scope="module")
def pdf(demo: Workspace, report: ProgramReport) -> bytes:
    return program_report_pdf(demo, report)


def _fonts(reader: PdfReader) -> dict[str, bool]:
    """Each font the pages use: its name and whether its file is embedded."""
    found: dict[str, bool] = {}

    def visit(resources: Any) -> None:
        fonts = resources.get("/Font") or {}
        for ref in fonts.values():
            font = ref.get_object()
            descriptor = font.get("/FontDescriptor")
            embedded = descriptor is not None and any(
                k in descriptor.get_object() for k in ("/FontFile", "/FontFile2", "/FontFile3"))
            found[str(font["/BaseFont"])] = embedded
        for ref in (resources.get("/XObject") or {}).values():
            inner = ref.get_object().get("/Resources")
            if inner is not None:
                visit(inner.get_object())

    for page in reader.pages:
        visit(page["/Resources"].get_object())
    return found


def test_only_the_letters_font_is_used_and_it_is_embedded(pdf: bytes) -> None:
    fonts = _fonts(PdfReader(io.BytesIO(pdf)))
    assert {name.split("+")[-1] for name in fonts} == {"BitstreamVeraSans-Roman",
                                                      "BitstreamVeraSans-Bold"}
    assert all(fonts.values())
    assert b"Helvetica" not in pdf


def _chart(drawing: Any, kind: type) -> Any:
    (found,) = [c for c in drawing.contents if isinstance(c, kind)]
    return found


def test_each_chart_draws_the_figures_the_json_prints(report: ProgramReport) -> None:
    f = report.figures
    drawn = charts(f)
    months = f["charts"]["inspections_per_month"]
    bars = _chart(drawn["inspections_per_month"], VerticalBarChart)
    assert bars.data == [[m[k] for m in months] for k in STACK]
    assert sum(map(sum, bars.data)) == f["totals"]["inspections"] > 0
    rate = f["charts"]["failure_rate"]
    bars = _chart(drawn["failure_rate"], VerticalBarChart)
    assert bars.data == [[rate["within_200ft"]["percent"], rate["beyond_200ft"]["percent"]]]
    assert rate["within_200ft"]["inspections"] + rate["beyond_200ft"]["inspections"] <= (
        f["totals"]["inspections"])
    line = _chart(drawn["overdue_five_year"], LinePlot)
    assert line.data == [[(i, m["overdue"]) for i, m in
                          enumerate(f["charts"]["overdue_five_year"])]]
    assert [m["month"] for m in f["charts"]["overdue_five_year"]] == [m["month"]
                                                                      for m in months]


def test_every_page_is_drawn_and_the_first_holds_the_tallies(pdf: bytes,
                                                              report: ProgramReport) -> None:
    reader = PdfReader(io.BytesIO(pdf))
    pages = render_pages(pdf, dpi=40)
    assert len(pages) == len(reader.pages) >= 4
    for page in pages:  # not blank: some pixels well away from white
        assert sum(1 for i in range(0, len(page.rgb), 3) if page.rgb[i] < 128) > 200
    first = reader.pages[0].extract_text()
    assert "Septic system inspection program report" in first
    count = report.figures["by_municipality"]["Town of Canandaigua"]["inspections"]
    assert f"Inspections in the period {count}" in first.replace("\n", " ")
    assert f"Page 1 of {len(reader.pages)}" in first


def test_no_owner_name_appears_in_the_report(demo: Workspace, pdf: bytes) -> None:
    text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)
    owners = [r["owner_name"] for r in demo.store.query("SELECT owner_name FROM parcels")]
    assert owners and not [o for o in owners if o in text]
    assert "900.01-1-7" in text  # the open matters name parcels by SBL


def test_the_map_marks_each_parcel_inspected_in_the_period(report: ProgramReport) -> None:
    f = report.figures
    assert len(f["map"]) + len(f["map_without_location"]) == (
        f["totals"]["systems_inspected"]["parcels"])
    assert {p["outcome"] for p in f["map"]} <= set(STACK)


def test_the_same_report_gives_the_same_bytes(demo: Workspace, report: ProgramReport,
                                              pdf: bytes, tmp_path: Path) -> None:
    assert program_report_pdf(demo, report) == pdf


def test_the_open_matters_dates_are_never_broken(report: ProgramReport, pdf: bytes) -> None:
    import re

    from inspector_app.documents.program_pdf import WIDTH, open_matters_table

    since = {str(m["since"]) for m in report.figures["open_matters"]}
    assert since, "the demo has open matters"
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    for day in since:
        assert re.search(rf"(?<!\d){re.escape(day)}(?!\d)", text), day
    # no date's digits run onto a line of their own
    assert not re.search(r"\d{4}-\d{2}-\d?\n\d", text)
    table = open_matters_table({"open_matters": [
        {"sbl": "1-1-1", "site_address": "x", "municipality": "y", "matter": "z",
         "since": "2026-10-29", "section": None}]})
    assert abs(sum(table._colWidths) - WIDTH) < 0.01
