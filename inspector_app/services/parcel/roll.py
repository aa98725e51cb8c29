"""Importing the office's parcel roll: its own CSV, or a county's export as the county
writes it (CSV, an Excel workbook, a dBASE attribute table or a parcel layer's table).

Which column gives which field is `roll_columns`'s to say (a column map, else the names
New York's tax-parcel exports use); the columns not used are listed and ignored. A roll is
imported whole or not at all: when any row is refused, every refused row is named (its
line or row, its SBL as written, why) and nothing is imported. Importing the same file
again changes nothing.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...casefile.values import value_problem
from ...domain.sbl import SBL_EXAMPLES, is_sbl, lookup_key, sbl_key
from ...errors import InputError
from ...storage.cases import parcels_spelled_finder
from ...storage.store import Store
from ...text_input import UTF8, Decoded, decode
from .roll_columns import REQUIRED, Columns, header_name, resolve

# The lake lies around 77.3 W, 42.8 N; anything outside New York is a mistake.
NY_LON = (-80.0, -71.5)
NY_LAT = (40.4, 45.1)
EXCEL_SUFFIXES = frozenset({".xlsx", ".xlsm"})
TABLE_SUFFIXES = frozenset({".dbf", ".shp", ".gpkg", ".geojson"})
# A county around the lake has 25,000 to 60,000 parcels; the largest in the state about
# 400,000 (Suffolk), which is a county office's roll, not a watershed program's.
MAX_ROWS = 200_000


@dataclass(frozen=True)
class RejectedRow:
    line: int
    reason: str
    sbl: str = ""
    unit: str = "line"

    def describe(self) -> str:
        named = f" (SBL {self.sbl!r})" if self.sbl else ""
        return f"{self.unit} {self.line}{named}: {self.reason}"


@dataclass
class RollImportResult:
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    columns: dict[str, str] = field(default_factory=dict)
    ignored_columns: list[str] = field(default_factory=list)
    encoding: str = UTF8  # how the file's text was read

    def as_json(self) -> dict[str, Any]:
        out = {"created": self.created, "updated": self.updated, "unchanged": self.unchanged,
               "rejected": [], "columns": self.columns,
               "ignored_columns": self.ignored_columns}
        if self.encoding != UTF8:
            out["encoding"] = self.encoding  # said only when it is not the usual one
        return out


def _read_text(path: Path) -> Decoded:
    """The roll's text: UTF-8, or Windows-1252 as Excel on Windows saves a CSV."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise InputError(f"{path}: no such file.") from None
    return decode(raw, path, what="roll", save_as="\"CSV UTF-8\"", windows=True)


def _csv_words(exc: csv.Error) -> str:
    """What is wrong with a line of CSV, in words rather than the csv module's."""
    if "field larger than field limit" in str(exc):
        return ("a cell runs on for more than 131,072 characters: a double quote that opens "
                "a cell is probably never closed")
    return "its double quotes do not pair up; a quote inside a cell is written twice (\"\")"


def _coordinate(text: str, name: str, bounds: tuple[float, float]) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{name} {text!r} is not a number") from None
    if not bounds[0] <= value <= bounds[1]:
        raise ValueError(f"{name} {value} is outside New York ({bounds[0]} to {bounds[1]})")
    return value


def _row_values(row: dict[str, str], labels: dict[str, str]) -> dict[str, Any]:
    """The parcel's values from one row (`row`: each field of the roll and its text;
    `labels`: the file's column(s) of each field, to name them in a refusal)."""
    def named(field_name: str) -> str:
        label = labels.get(field_name, field_name)
        return field_name if header_name(label) == field_name else f"{field_name} ({label})"

    lines = [row.get(f"mailing_address_{i}", "") for i in range(1, 5)]
    for name in REQUIRED:
        # the mailing address may begin on any of its lines (an export's PO_BOX)
        empty = not any(lines) if name == "mailing_address_1" else not row.get(name, "")
        if empty:
            raise ValueError(f"{named(name)} is empty")
    sbl = row["sbl"]
    if not is_sbl(sbl):
        raise ValueError(f"{named('sbl')} {sbl!r} is not a tax map number (write it like "
                         f"{SBL_EXAMPLES})")
    lon_text = row.get("longitude", "")
    lat_text = row.get("latitude", "")
    longitude = latitude = None
    if lon_text or lat_text:
        if not (lon_text and lat_text):
            raise ValueError("give both longitude and latitude, or neither")
        try:
            longitude = _coordinate(lon_text, "longitude", NY_LON)
            latitude = _coordinate(lat_text, "latitude", NY_LAT)
        except ValueError:
            lon_v, lat_v = (float(x) if re.fullmatch(r"-?\d+(\.\d+)?", x) else None
                            for x in (lon_text, lat_text))
            if (lon_v is not None and lat_v is not None and NY_LAT[0] <= lon_v <= NY_LAT[1]
                    and NY_LON[0] <= lat_v <= NY_LON[1]):
                raise ValueError("longitude and latitude look swapped (longitude is the "
                                 "negative one, about -77)") from None
            raise
    values: dict[str, Any] = {
        "sbl": sbl, "municipality": row["municipality"], "site_address": row["site_address"],
        "owner_name": row["owner_name"], "owner_mailing_address": [ln for ln in lines if ln],
    }
    if longitude is not None:
        values.update(longitude=longitude, latitude=latitude)
    for name in ("owner_phone", "owner_email"):
        if row.get(name, ""):
            values[name] = row[name]
    # the rules every door applies to a parcel's fields (a case file, the form, a package)
    for name, value in values.items():
        problem = value_problem("parcels", name, value, _column_words(name))
        if problem is not None:
            raise ValueError(problem)
    return values


def _column_words(column: str) -> str:
    """A parcel field named as the roll names its column."""
    return "mailing address" if column == "owner_mailing_address" else column


@dataclass
class ParsedRoll:
    rows: list[tuple[int, dict[str, Any]]]
    rejected: list[RejectedRow]
    columns: Columns | None = None
    count: int = 0  # the rows read (blank ones not counted)
    encoding: str = UTF8


# A table read from a file: its header, then each row with where it is ("line 4" of a CSV
# file, "row 4" of a workbook, "record 3" of a dBASE table).
Rows = Iterator[tuple[str, int, list[str] | str]]


def _csv_table(path: Path) -> tuple[list[str], Rows, str]:
    text, encoding = _read_text(path)
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = next(reader)
    except StopIteration:
        raise InputError(f"{path}: is empty; the first line must name the columns "
                         f"({', '.join(REQUIRED)}).") from None
    except csv.Error as exc:
        raise InputError(f"{path}: line 1 is not valid CSV ({_csv_words(exc)}).") from None

    def rows() -> Rows:
        while True:
            try:
                cells = next(reader)
            except StopIteration:
                return
            except csv.Error as exc:
                yield "line", reader.line_num, f"not valid CSV ({_csv_words(exc)})"
                continue
            yield "line", reader.line_num, cells
    return header, rows(), encoding


def _excel_table(path: Path) -> tuple[list[str], Rows, str]:
    from ...documents.spreadsheet import read_xlsx_rows

    table = read_xlsx_rows(path)
    if not table:
        raise InputError(f"{path}: its first sheet is empty; the first row must name the "
                         f"columns ({', '.join(REQUIRED)}).")
    width = len(table[0])
    while width and not table[0][width - 1]:
        width -= 1  # a formatted but empty cell at the end of the header row
    return table[0][:width], (("row", i, cells[:width] + [""] * (width - len(cells)))
                              for i, cells in enumerate(table[1:], start=2)), UTF8


def _attribute_table(path: Path) -> tuple[list[str], Rows, str]:
    from ...documents.spreadsheet import cell_text
    from ...geo.vector_files import read_attribute_table

    names, records = read_attribute_table(path)
    return names, (("record", i, [cell_text(v) for v in values])
                   for i, values in enumerate(records, start=1)), UTF8


def _table(path: Path) -> tuple[list[str], Rows, str]:
    """The file's header, its rows and how its text was read."""
    suffix = path.suffix.lower()
    if suffix == ".xls":
        raise InputError(f"{path}: is an Excel 97-2003 workbook (.xls), which this app does "
                         "not read; save it from the spreadsheet as .xlsx or as CSV UTF-8.")
    if suffix in EXCEL_SUFFIXES:
        return _excel_table(path)
    if suffix in TABLE_SUFFIXES:
        return _attribute_table(path)
    return _csv_table(path)


def read_roll(path: Path, mapped: dict[str, tuple[str, ...]] | None = None) -> ParsedRoll:
    """Read and check a roll without touching the database (`mapped`: a column map,
    field -> the file's column(s))."""
    header, rows, encoding = _table(path)
    columns = resolve(str(path), header, mapped)
    labels = columns.describe()
    width = len(header)
    names = [header_name(h) for h in header]
    parsed = ParsedRoll(rows=[], rejected=[], columns=columns, encoding=encoding)
    seen: dict[tuple[str, ...], str] = {}
    for unit, line, cells in rows:
        if not isinstance(cells, str) and not any(c.strip() for c in cells):
            continue
        parsed.count += 1
        if parsed.count > MAX_ROWS:
            raise InputError(f"{path}: has more than {MAX_ROWS:,} parcels; a roll of this "
                             "program has at most that many (a county around the lake has "
                             "25,000 to 60,000), so nothing was imported.")
        if isinstance(cells, str):
            parsed.rejected.append(RejectedRow(line, cells, unit=unit))
            continue
        cells_by_name = dict(zip(names, cells, strict=False))
        row = {f: s.value(cells_by_name) for f, s in columns.sources.items()}
        written = row.get("sbl", "")
        if len(cells) != width:
            parsed.rejected.append(RejectedRow(
                line, f"has {len(cells)} cells; the header has {width}", written, unit))
            continue
        try:
            values = _row_values(row, labels)
            _same_parcel(values["sbl"], cells_by_name, columns)
        except ValueError as exc:
            parsed.rejected.append(RejectedRow(line, str(exc), written, unit))
            continue
        key = lookup_key(values["sbl"])
        if key in seen:
            parsed.rejected.append(RejectedRow(
                line, f"sbl {values['sbl']} already appears on {seen[key]}", written, unit))
            continue
        seen[key] = f"{unit} {line}"
        parsed.rows.append((line, values))
    return parsed


def _same_parcel(sbl: str, cells: dict[str, str], columns: Columns) -> None:
    """The file's other columns holding the tax map number (an export has the print key,
    the packed SBL and both with the SWIS code) must name the same parcel."""
    key = sbl_key(sbl)
    for other in columns.other_sbls:
        text = cells.get(other, "").strip()
        other_key = sbl_key(text) if text else None
        if key is not None and other_key is not None and other_key != key:
            raise ValueError(f"{columns.spelled[other]} {text!r} names another parcel than "
                             f"{sbl!r}")


def refuse_rejected(path: Path, parsed: ParsedRoll) -> None:
    """All or nothing: a roll with a refused row, or with no row at all, is refused whole,
    every refused row named."""
    if not parsed.count:
        raise InputError(f"{path}: has no parcels below its header; nothing was imported.")
    if parsed.rejected:
        lines = "\n".join(f"  {r.describe()}." for r in parsed.rejected)
        raise InputError(f"{path}: {len(parsed.rejected)} of {parsed.count} rows were "
                         f"refused, so nothing was imported:\n{lines}")


def apply_roll(store: Store, parsed: ParsedRoll) -> RollImportResult:
    """Import a roll in one transaction; a roll with any refused row imports nothing."""
    if store.get_meta("sync_role") == "field":
        raise InputError("This data folder is an enrolled laptop; only the office changes "
                         "the parcels roll. Nothing was changed.")
    if parsed.rejected:
        raise InputError(f"{len(parsed.rejected)} rows of the roll were refused; nothing was "
                         "imported.")
    result = RollImportResult(encoding=parsed.encoding)
    if parsed.columns is not None:
        result.columns = parsed.columns.describe()
        result.ignored_columns = list(parsed.columns.unused)
    with store.transaction() as w:
        # the roll's rows name different parcels (read_roll), so none of them is found
        # among the parcels another row of it adds
        parcels_spelled = parcels_spelled_finder(w.conn)
        for _, values in parsed.rows:
            found = parcels_spelled(values["sbl"])
            if len(found) > 1:
                raise InputError(f"sbl {values['sbl']} names {len(found)} parcels spelled "
                                 f"differently ({', '.join(s for _, s in found)}); nothing "
                                 "was imported.")
            parcel_id = found[0][0] if found else None
            if parcel_id is not None:
                # the stored spelling of the tax map number is kept (domain.sbl)
                values = {**values, "sbl": found[0][1]}
            if parcel_id is None:
                w.insert("parcels", values, parcel_id=None)
                result.created += 1
            elif w.update("parcels", parcel_id, values):
                result.updated += 1
            else:
                result.unchanged += 1
    return result
