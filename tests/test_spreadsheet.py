"""Tables for spreadsheets: a text cell never reaches a spreadsheet as a formula."""

from __future__ import annotations

import csv
import io
from datetime import date
from pathlib import Path

import pytest
from openpyxl import load_workbook

from inspector_app.documents.spreadsheet import escape_cell, table_bytes, write_table
from inspector_app.errors import InputError

DANGEROUS = ["=HYPERLINK(\"http://x\",\"y\")", "+1+1", "-2+3", "@SUM(A1:A2)", "\tcmd",
             "\rcmd"]


@pytest.mark.parametrize("text", DANGEROUS)
def test_a_cell_that_could_start_a_formula_gets_an_apostrophe(text: str) -> None:
    assert escape_cell(text) == "'" + text


@pytest.mark.parametrize("value", ["4042 County Road 16", "Town of Gorham", "a=b", "",
                                   None, 12, -3.5, 0.0])
def test_other_cells_are_written_as_they_are(value: object) -> None:
    assert escape_cell(value) == value  # type: ignore[arg-type]


def test_csv_cells_read_back_escaped(tmp_path: Path) -> None:
    path = tmp_path / "t.csv"
    write_table(path, ["text", "number"], [[t, 7.5] for t in DANGEROUS])
    raw = path.read_bytes()
    assert raw.startswith("\ufeff".encode())  # Excel reads the UTF-8 as UTF-8
    rows = list(csv.reader(io.StringIO(raw.decode("utf-8-sig"), newline="")))
    assert rows[0] == ["text", "number"]
    assert [r[0] for r in rows[1:]] == ["'" + t for t in DANGEROUS]
    assert all(not r[0].startswith(("=", "+", "-", "@", "\t", "\r")) for r in rows)


def test_xlsx_cells_are_text_and_numbers_stay_numbers(tmp_path: Path) -> None:
    path = tmp_path / "t.xlsx"
    write_table(path, ["text", "number", "day"],
                [[t, 7.5, date(2026, 3, 1)] for t in [*DANGEROUS, "plain"]])
    sheet = load_workbook(path).active
    texts = [sheet.cell(row=i, column=1) for i in range(2, len(DANGEROUS) + 2)]
    # the text as typed, stored as text and marked as text typed after an apostrophe (XML
    # reads a carriage return back as a line feed)
    assert [c.value for c in texts] == [t.replace("\r", "\n") for t in DANGEROUS]
    assert all(c.data_type == "s" and c.quotePrefix for c in texts)
    assert all(c.data_type != "f" for row in sheet.iter_rows() for c in row)  # no formula
    plain = sheet.cell(row=len(DANGEROUS) + 2, column=1)
    assert plain.value == "plain" and not plain.quotePrefix
    assert sheet.cell(row=2, column=2).value == 7.5
    day = sheet.cell(row=2, column=3)
    assert day.is_date and day.value.date() == date(2026, 3, 1)
    assert sheet.cell(row=1, column=1).value == "text"


def test_another_suffix_is_refused_and_nothing_written(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"\.csv or \.xlsx"):
        write_table(tmp_path / "t.ods", ["a"], [["b"]])
    assert not list(tmp_path.iterdir())


def test_the_same_table_in_both_formats() -> None:
    rows = [["900.01-1-7", 150.0, None, date(2026, 3, 1)]]
    text = table_bytes(".csv", ["sbl", "ft", "none", "day"], rows).decode("utf-8-sig")
    assert text == "sbl,ft,none,day\r\n900.01-1-7,150.0,,2026-03-01\r\n"
