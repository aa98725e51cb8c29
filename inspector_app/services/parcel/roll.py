"""Importing the office's parcel roll from CSV.

Good rows are imported in one transaction; each bad row is reported with its line
number and reason. Importing the same file again changes nothing.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...casefile.values import value_problem
from ...domain.sbl import SBL_EXAMPLES, is_sbl, lookup_key
from ...errors import InputError
from ...storage.cases import parcels_spelled
from ...storage.store import Store
from ...text_input import UTF8, Decoded, decode

REQUIRED = ("sbl", "municipality", "site_address", "owner_name", "mailing_address_1")
OPTIONAL = ("mailing_address_2", "mailing_address_3", "mailing_address_4", "owner_phone",
            "owner_email", "longitude", "latitude")
# The lake lies around 77.3 W, 42.8 N; anything outside New York is a mistake.
NY_LON = (-80.0, -71.5)
NY_LAT = (40.4, 45.1)


@dataclass(frozen=True)
class RejectedRow:
    line: int
    reason: str


@dataclass
class RollImportResult:
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    rejected: list[RejectedRow] = field(default_factory=list)
    encoding: str = UTF8  # how the file's text was read

    def as_json(self) -> dict[str, Any]:
        out = {"created": self.created, "updated": self.updated, "unchanged": self.unchanged,
               "rejected": [{"line": r.line, "reason": r.reason} for r in self.rejected]}
        if self.encoding != UTF8:
            out["encoding"] = self.encoding  # said only when it is not the usual one
        return out


def _header_name(raw: str) -> str:
    return re.sub(r"[\s-]+", "_", raw.strip().lower())


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


def _row_values(row: dict[str, str]) -> dict[str, Any]:
    for name in REQUIRED:
        if not row.get(name, "").strip():
            raise ValueError(f"{name} is empty")
    sbl = row["sbl"].strip()
    if not is_sbl(sbl):
        raise ValueError(f"sbl {sbl!r} is not a tax map number (write it like "
                         f"{SBL_EXAMPLES})")
    lon_text = row.get("longitude", "").strip()
    lat_text = row.get("latitude", "").strip()
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
    lines = [row.get(f"mailing_address_{i}", "").strip() for i in range(1, 5)]
    values: dict[str, Any] = {
        "sbl": sbl, "municipality": row["municipality"].strip(),
        "site_address": row["site_address"].strip(), "owner_name": row["owner_name"].strip(),
        "owner_mailing_address": [line for line in lines if line],
    }
    if longitude is not None:
        values.update(longitude=longitude, latitude=latitude)
    for name in ("owner_phone", "owner_email"):
        if row.get(name, "").strip():
            values[name] = row[name].strip()
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
    encoding: str = UTF8


def read_roll(path: Path) -> ParsedRoll:
    """Read and check a roll without touching the database."""
    text, encoding = _read_text(path)
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = next(reader)
    except StopIteration:
        raise InputError(f"{path}: is empty; the first line must name the columns "
                         f"({', '.join(REQUIRED)}).") from None
    except csv.Error as exc:
        raise InputError(f"{path}: line 1 is not valid CSV ({_csv_words(exc)}).") from None
    names = [_header_name(h) for h in header]
    unknown = [h for h, n in zip(header, names, strict=True) if n not in REQUIRED + OPTIONAL]
    if unknown:
        raise InputError(f"{path}: line 1 has the unknown column {unknown[0]!r}; the columns "
                         f"are {', '.join(REQUIRED)} and optionally {', '.join(OPTIONAL)}.")
    missing = [n for n in REQUIRED if n not in names]
    if missing:
        raise InputError(f"{path}: line 1 lacks the column {missing[0]!r}; the required "
                         f"columns are {', '.join(REQUIRED)}.")
    duplicates = {n for n in names if names.count(n) > 1}
    if duplicates:
        raise InputError(f"{path}: line 1 names the column {sorted(duplicates)[0]!r} twice.")

    parsed = ParsedRoll(rows=[], rejected=[], encoding=encoding)
    seen: dict[tuple[str, ...], int] = {}
    while True:
        try:
            cells = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            parsed.rejected.append(RejectedRow(reader.line_num,
                                               f"not valid CSV ({_csv_words(exc)})"))
            continue
        line = reader.line_num
        if not any(c.strip() for c in cells):
            continue
        if len(cells) != len(names):
            parsed.rejected.append(RejectedRow(
                line, f"has {len(cells)} cells; the header has {len(names)}"))
            continue
        try:
            values = _row_values(dict(zip(names, cells, strict=True)))
        except ValueError as exc:
            parsed.rejected.append(RejectedRow(line, str(exc)))
            continue
        key = lookup_key(values["sbl"])
        if key in seen:
            parsed.rejected.append(RejectedRow(
                line, f"sbl {values['sbl']} already appears on line {seen[key]}"))
            continue
        seen[key] = line
        parsed.rows.append((line, values))
    return parsed


def apply_roll(store: Store, parsed: ParsedRoll) -> RollImportResult:
    """Import the good rows of a roll in one transaction."""
    if store.get_meta("sync_role") == "field":
        raise InputError("This data folder is an enrolled laptop; only the office changes "
                         "the parcels roll. Nothing was changed.")
    result = RollImportResult(rejected=list(parsed.rejected), encoding=parsed.encoding)
    with store.transaction() as w:
        for _, values in parsed.rows:
            found = parcels_spelled(w.conn, values["sbl"])
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
