"""Tables written for spreadsheets: CSV (the standard library) or Excel .xlsx (openpyxl).

A text cell that a spreadsheet would read as a formula (starting with = + - @, a tab or a
carriage return) is written with a leading apostrophe, so opening the file never runs
anything (formula injection); in .xlsx every text cell is also stored as text, never as
a formula. Numbers stay numbers.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .errors import InputError
from .paths import write_atomically

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
SUFFIXES = (".csv", ".xlsx")
Cell = str | int | float | None


def escape_cell(value: Cell) -> Cell:
    """The value as written: text that could start a formula gets a leading apostrophe."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def check_suffix(path: Path, *, option: str = "--out") -> str:
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        raise InputError(f"{option} {path}: the file must end in .csv or .xlsx (it decides "
                         "the format).")
    return suffix


def table_bytes(suffix: str, header: Sequence[str], rows: Sequence[Sequence[Cell]],
                *, sheet: str = "Inspections") -> bytes:
    cells = [[escape_cell(v) for v in row] for row in [list(header), *rows]]
    if suffix == ".csv":
        text = io.StringIO(newline="")
        csv.writer(text, lineterminator="\r\n").writerows(
            ["" if v is None else v for v in row] for row in cells)
        return ("\ufeff" + text.getvalue()).encode("utf-8")  # the BOM: Excel reads UTF-8
    from openpyxl import Workbook
    from openpyxl.styles import Font

    book = Workbook()
    ws: Any = book.active
    ws.title = sheet
    for row in cells:
        ws.append(row)
    for cell in ws[1]:
        cell.font = Font(bold=True)
    for row in ws.iter_rows():
        for cell in row:
            if isinstance(cell.value, str):
                cell.data_type = "s"  # text, never a formula
    ws.freeze_panes = "A2"
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def write_table(path: Path, header: Sequence[str], rows: Sequence[Sequence[Cell]]) -> None:
    """Write the table as CSV or .xlsx, by the path's suffix, all or nothing."""
    write_atomically(path, table_bytes(check_suffix(path), header, rows))
