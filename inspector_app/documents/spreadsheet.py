"""Tables written for spreadsheets: CSV (the standard library) or Excel .xlsx (openpyxl).

A text cell that a spreadsheet would read as a formula (starting with = + - @, a tab or a
carriage return) never reaches it as one (formula injection): in CSV it is written with a
leading apostrophe; in .xlsx every text cell is stored as text, never as a formula, and
such a cell is also marked "quote prefix", as Excel marks text typed after an apostrophe,
so that editing it later does not turn it into a formula either. Numbers stay numbers;
dates are date cells in .xlsx, ISO text in CSV.

A workbook read from outside passes the zip bounds (`zip_input`) and holds no DTD before
openpyxl opens it: a sheet that inflates to gigabytes, or one whose entities expand a
thousandfold or name a file on this computer, is refused in a sentence and never parsed.
"""

from __future__ import annotations

import csv
import io
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..paths import read_regular_file, write_atomically
from ..zip_input import ZipBounds, ZipProblem, check_members, member_chunks

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
SUFFIXES = (".csv", ".xlsx")
Cell = str | int | float | date | None
# A county's roll as a workbook is a few MB (60,000 parcels); its sheet inflates about
# tenfold. These bounds are far above that and far below what would stall the reading.
MAX_XLSX_BYTES = 100 * 1024**2
XLSX_BOUNDS = ZipBounds(members=10_000, member_bytes=1024**3, total_bytes=2 * 1024**3)
# What starts a document type declaration, in the encodings an XML member may use: its
# entities are how a workbook expands a thousandfold or reads a file of this computer.
_DTD_MARKS = tuple(mark.encode(codec) for mark in ("<!DOCTYPE", "<!ENTITY")
                   for codec in ("utf-8", "utf-16-le", "utf-16-be"))
_OVERLAP = max(len(m) for m in _DTD_MARKS)


def formula_like(value: Cell) -> bool:
    return isinstance(value, str) and value.startswith(FORMULA_STARTS)


def escape_cell(value: Cell) -> Cell:
    """The value as a CSV cell: text that could start a formula gets a leading apostrophe;
    a date is its ISO text."""
    if isinstance(value, date):
        return value.isoformat()
    if formula_like(value):
        return "'" + str(value)
    return value


def check_suffix(path: Path) -> str:
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        raise InputError(f"The export file {path} must end in .csv or .xlsx (the ending "
                         "decides the format).")
    return suffix


def table_bytes(suffix: str, header: Sequence[str], rows: Sequence[Sequence[Cell]],
                *, sheet: str = "Inspections") -> bytes:
    table = [list(header), *rows]
    if suffix == ".csv":
        text = io.StringIO(newline="")
        csv.writer(text, lineterminator="\r\n").writerows(
            ["" if v is None else escape_cell(v) for v in row] for row in table)
        return ("\ufeff" + text.getvalue()).encode("utf-8")  # the BOM: Excel reads UTF-8
    from openpyxl import Workbook
    from openpyxl.styles import Font

    book = Workbook()
    ws: Any = book.active
    ws.title = sheet
    for values in table:
        ws.append(values)
    for cell in ws[1]:
        cell.font = Font(bold=True)
    for row, values in zip(ws.iter_rows(), table, strict=True):
        for cell, value in zip(row, values, strict=True):
            if isinstance(value, str):
                cell.value = value
                cell.data_type = "s"  # text, never a formula
                if formula_like(value):
                    cell.quotePrefix = True
            elif isinstance(value, date):
                cell.number_format = "yyyy-mm-dd"
    ws.freeze_panes = "A2"
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def write_table(path: Path, header: Sequence[str], rows: Sequence[Sequence[Cell]]) -> None:
    """Write the table as CSV or .xlsx, by the path's suffix, all or nothing."""
    write_atomically(path, table_bytes(check_suffix(path), header, rows))


_EXACT = 2.0 ** 53  # the whole numbers a spreadsheet's number keeps every digit of


def cell_text(value: Any) -> str:
    """A value read from a table file as the text a person sees in it: a whole number
    without ".0" (one too long to be kept exactly in e-notation, as Excel shows it, never
    as digits it does not hold), a date as ISO text, nothing as the empty text."""
    if value is None:
        return ""
    if isinstance(value, float):
        if value != value:  # NaN: no value
            return ""
        if value.is_integer() and abs(value) < _EXACT:
            return str(int(value))
        return str(value)  # beyond 2**53 its last digits are lost: shown as "3.22089e+25"
    if isinstance(value, date):
        return value.isoformat()
    return str(value).strip()


def read_xlsx_rows(path: Path) -> list[list[str]]:
    """The first sheet of an Excel .xlsx workbook, row by row, each cell as text (rows
    numbered as Excel numbers them: the first is row 1)."""
    try:
        raw = read_regular_file(path, limit=MAX_XLSX_BYTES, what="workbook")
    except FileNotFoundError:
        raise InputError(f"{path}: no such file.") from None
    return xlsx_rows(raw, path)


def xlsx_rows(raw: bytes, path: Path) -> list[list[str]]:
    """`read_xlsx_rows` of a workbook's bytes already read (`path` names it in words)."""
    from openpyxl import load_workbook

    damaged = InputError(f"{path}: is not an Excel workbook (.xlsx), or is damaged; save it "
                         "again from the spreadsheet as .xlsx or as CSV UTF-8.")
    try:
        _check_workbook(zipfile.ZipFile(io.BytesIO(raw)))
    except ZipProblem as exc:
        raise InputError(f"{path}: {exc}; save it again from the spreadsheet as .xlsx or "
                         "as CSV UTF-8.") from None
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError,
            NotImplementedError, RuntimeError):
        raise damaged from None
    try:
        book = load_workbook(io.BytesIO(raw), read_only=True, data_only=True)
    except Exception:  # openpyxl's words name its own innards: say what the user can do
        raise damaged from None
    try:
        sheet = book.worksheets[0]
        return [[cell_text(v) for v in row] for row in sheet.iter_rows(values_only=True)]
    except SyntaxError:  # the XML parser's ParseError: a sheet that is not well formed
        raise damaged from None
    finally:
        book.close()


def _check_workbook(z: zipfile.ZipFile) -> None:
    """Raise ZipProblem for a workbook past the zip bounds, or with a document type
    declaration in any member (no spreadsheet writes one)."""
    infos = z.infolist()
    check_members(infos, XLSX_BOUNDS)
    for info in infos:
        tail = b""
        for chunk in member_chunks(z, info):
            piece = tail + chunk
            if any(mark in piece for mark in _DTD_MARKS):
                raise ZipProblem(f"{info.filename} declares a document type (<!DOCTYPE or "
                                 "<!ENTITY), which no spreadsheet writes and this app does "
                                 "not read")
            tail = piece[-_OVERLAP:]


@dataclass(frozen=True)
class TemplateColumn:
    """A column of a template the office sends out: its name, what to write in it, and the
    cells a workbook accepts there (`kind`: "date", "yes/no", "number" or "text")."""

    name: str
    instruction: str
    kind: str
    minimum: float | None = None
    maximum: float | None = None


def template_bytes(suffix: str, columns: Sequence[TemplateColumn], *, sheet: str,
                   rows: int = 500) -> bytes:
    """A template as CSV (the header row alone) or .xlsx: the header row, one row saying
    what each column takes, and `rows` rows of cells typed and validated as the columns
    say (a date, yes or no, a number in range), so that a spreadsheet refuses a wrong
    value as it is typed."""
    if suffix == ".csv":
        return table_bytes(suffix, [c.name for c in columns], [])
    from openpyxl import Workbook
    from openpyxl.styles import Alignment, Font
    from openpyxl.utils import get_column_letter
    from openpyxl.worksheet.datavalidation import DataValidation

    book = Workbook()
    ws: Any = book.active
    ws.title = sheet
    ws.append([c.name for c in columns])
    ws.append([c.instruction for c in columns])
    for cell in ws[1]:
        cell.font = Font(bold=True)
    for cell in ws[2]:
        cell.font = Font(italic=True)
        cell.alignment = Alignment(wrap_text=True, vertical="top")
        cell.data_type = "s"
    first, last = 3, 2 + rows
    for i, c in enumerate(columns, start=1):
        letter = get_column_letter(i)
        ws.column_dimensions[letter].width = max(14, len(c.name) + 4)
        cells = f"{letter}{first}:{letter}{last}"
        if c.kind == "date":
            rule = DataValidation(type="date", operator="greaterThan", formula1="1")
            fmt = "yyyy-mm-dd"
        elif c.kind == "yes/no":
            rule = DataValidation(type="list", formula1='"yes,no"')
            fmt = "@"
        elif c.kind == "number":
            rule = DataValidation(type="decimal", operator="between",
                                  formula1=f"{c.minimum:g}", formula2=f"{c.maximum:g}")
            fmt = "General"
        else:
            rule, fmt = None, "@"
        if rule is not None:
            rule.error = c.instruction
            rule.errorTitle = c.name
            rule.showErrorMessage = True
            ws.add_data_validation(rule)
            rule.add(cells)
        for (cell,) in ws.iter_rows(min_row=first, max_row=last, min_col=i, max_col=i):
            cell.number_format = fmt
    ws.freeze_panes = "A3"
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()
