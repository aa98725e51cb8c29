"""The files providers send the office (Chapter 202, § 202-8), declared once: each kind's
columns (their order, what each fills, how its cells read), the template the office sends
out, and the reading of a file sent back (CSV, or an Excel workbook) into rows of text."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from ...casefile.values import value_problem
from ...documents.spreadsheet import TemplateColumn, template_bytes, xlsx_rows
from ...domain import registry
from ...domain.records import RECEIVED_KINDS
from ...errors import InputError
from ...paths import UnreadableFile, read_regular_file, write_atomically
from ...text_input import decode

KINDS = tuple(RECEIVED_KINDS)
MAX_FILE_BYTES = 20 * 1024**2
MAX_ROWS = 20_000
_DATE = re.compile(r"^(\d{4}-\d{2}-\d{2})(?:[T ]00:00(?::00)?)?$")
# yes or no, as typed, or as a spreadsheet's true/false cell reads
_YES, _NO = frozenset({"yes", "y", "true"}), frozenset({"no", "n", "false"})
_US_DATE = re.compile(r"^(\d{1,2})/(\d{1,2})/(\d{4})$")


@dataclass(frozen=True)
class Column:
    """A column of a provider's file: its name, the record's field it fills (None: the
    tax map number), how its cells read, and whether a row must fill it."""

    name: str
    field: str | None
    kind: str  # "sbl", "date", "yes/no", "number", "text", "provider"
    required: bool
    instruction: str
    ahead: bool = False  # a date that may lie ahead (a contract's last day)


_SBL = Column("sbl", None, "sbl", True, "Tax map number (SBL) of the parcel, as on the "
              "tax bill, e.g. 900.01-1-36")
COLUMNS: dict[str, tuple[Column, ...]] = {
    "etu-service": (
        _SBL,
        Column("service_date", "date", "date", True, "Date of the inspection, YYYY-MM-DD"),
        Column("certification_number", "provider_number", "provider", True,
               "Your certification number as the office registered it"),
        Column("unit", "unit", "text", False, "Make and model of the unit (and serial)"),
        Column("fully_functional", "fully_functional", "yes/no", True,
               "yes if you certify the unit fully functional and operating properly, else "
               "no"),
        Column("service_contract_through", "service_contract_through", "date", True,
               "Last day of the unit's service contract, YYYY-MM-DD", ahead=True),
        Column("report_date", "report_received", "date", False,
               "Date of this report, YYYY-MM-DD (blank: the day the office receives it)"),
    ),
    "pump-out": (
        _SBL,
        Column("pump_out_date", "date", "date", True, "Date of the pump-out, YYYY-MM-DD"),
        Column("gallons", "volume_gal", "number", True, "Gallons pumped"),
        Column("hauler_permit", "hauler_permit", "provider", True,
               "Your NYSDEC septage hauler permit number as the office registered it"),
        Column("record_date", "record_received_on", "date", False,
               "Date of this record, YYYY-MM-DD (blank: the day the office receives it)"),
    ),
}


# the records each kind makes, and its workbook's sheet
TABLES = {"etu-service": "etu_reports", "pump-out": "pump_outs"}
SHEETS = {"etu-service": "ETU service reports", "pump-out": "Pump-out records"}


def check_kind(kind: str) -> None:
    if kind not in COLUMNS:
        raise InputError(f"--kind {kind!r} is not one of {', '.join(COLUMNS)}.")


def template_columns(kind: str) -> list[TemplateColumn]:
    out = []
    for c in COLUMNS[kind]:
        cell = {"sbl": "text", "provider": "text"}.get(c.kind, c.kind)
        bounds: dict[str, Any] = {}
        if cell == "number" and c.field is not None:
            spec = registry.column(TABLES[kind], c.field)
            assert spec is not None
            bounds = {"minimum": spec.spec.minimum, "maximum": spec.spec.maximum}
        out.append(TemplateColumn(c.name, c.instruction + ("" if c.required else
                                                           " (may be left blank)"),
                                  cell, **bounds))
    return out


def write_template(kind: str, out: Path) -> dict[str, Any]:
    """The template the office sends out for `kind`: CSV (the header row) or .xlsx."""
    check_kind(kind)
    suffix = out.suffix.lower()
    if suffix not in (".csv", ".xlsx"):
        raise InputError(f"--out {out}: a template is .csv or .xlsx (the ending decides).")
    write_atomically(out, template_bytes(suffix, template_columns(kind),
                                         sheet=SHEETS[kind]))
    return {"path": str(out), "kind": kind, "columns": [c.name for c in COLUMNS[kind]]}


def read_file(path: Path) -> bytes:
    try:
        return read_regular_file(path, limit=MAX_FILE_BYTES, what="provider's file")
    except FileNotFoundError:
        raise InputError(f"{path}: no such file.") from None
    except UnreadableFile as exc:
        raise InputError(str(exc)) from None


def file_rows(raw: bytes, path: Path) -> Iterator[tuple[int, list[str]]]:
    """The file's rows (the header first), each with its line (CSV) or row (workbook)."""
    suffix = path.suffix.lower()
    if suffix == ".xls":
        raise InputError(f"{path}: is an Excel 97-2003 workbook (.xls), which this app does "
                         "not read; save it from the spreadsheet as .xlsx or as CSV UTF-8.")
    if suffix == ".xlsx":
        yield from enumerate(xlsx_rows(raw, path), start=1)
        return
    if suffix not in (".csv", ".txt"):
        raise InputError(f"{path}: a provider's file is CSV (.csv) or an Excel workbook "
                         "(.xlsx); save it as one of these.")
    text, _ = decode(raw, path, what="provider's file", save_as="\"CSV UTF-8\"",
                     windows=True)
    reader = csv.reader(io.StringIO(text, newline=""))
    while True:
        try:
            cells = next(reader)
        except StopIteration:
            return
        except csv.Error:
            raise InputError(f"{path}: line {reader.line_num} is not valid CSV (its double "
                             "quotes do not pair up); nothing was imported.") from None
        yield reader.line_num, cells


def _column(cell: str) -> str:
    """A header cell as a column's name ("Service Date" is service_date)."""
    return cell.strip().lower().replace(" ", "_")


def kind_of(path: Path) -> str | None:
    """The kind whose template's columns the file's first row names, or None."""
    first = next(file_rows(read_file(path), path), None)
    names = {_column(c) for c in first[1]} - {""} if first else set()
    return next((k for k, columns in COLUMNS.items()
                 if names == {c.name for c in columns}), None)


def header_columns(path: Path, kind: str, cells: Sequence[str]) -> list[str | None]:
    """Each of the file's columns as this kind's column name (None: a blank column)."""
    wanted = [c.name for c in COLUMNS[kind]]
    names = [_column(c) or None for c in cells]
    while names and names[-1] is None:
        names.pop()
    other = [n for n in names if n is not None and n not in wanted]
    missing = [n for n in wanted if n not in names]
    repeated = sorted({n for n in names if n is not None and names.count(n) > 1})
    if other or missing or repeated:
        said = "; ".join(x for x in (
            f"it has no column {', '.join(missing)}" if missing else "",
            f"{', '.join(other)} {'is not a column' if len(other) == 1 else 'are not columns'}"
            f" of {kind} records" if other else "",
            f"{', '.join(repeated)} appears twice" if repeated else "") if x)
        raise InputError(f"{path}: the first row must name the {kind} template's columns "
                         f"({', '.join(wanted)}): {said}. Nothing was imported "
                         f"(`records template --kind {kind}` writes the template).")
    return names


def cell_date(text: str, name: str) -> date:
    """A date as the template asks (YYYY-MM-DD; a workbook's date cell reads so), or as
    a spreadsheet in the United States saves one into CSV (M/D/YYYY)."""
    iso, us = _DATE.match(text), _US_DATE.match(text)
    try:
        if iso is not None:
            return date.fromisoformat(iso.group(1))
        if us is not None:
            month, day, year = (int(g) for g in us.groups())
            return date(year, month, day)
        raise ValueError
    except ValueError:
        raise ValueError(f"{name} {text!r} is not a date written YYYY-MM-DD") from None


def cell_value(column: Column, text: str, table: str) -> Any:
    if column.kind == "date":
        return cell_date(text, column.name)
    if column.kind == "yes/no":
        word = text.strip().lower()
        if word not in _YES | _NO:
            raise ValueError(f"{column.name} {text!r} is not yes or no")
        return word in _YES
    if column.kind == "number":
        try:
            value = float(text.replace(",", ""))
        except ValueError:
            raise ValueError(f"{column.name} {text!r} is not a number") from None
        assert column.field is not None
        problem = value_problem(table, column.field, value, column.name)
        if problem is not None:
            raise ValueError(problem)
        return value
    assert column.field is not None
    problem = value_problem(table, column.field, text, column.name)
    if problem is not None:
        raise ValueError(problem)
    return text
