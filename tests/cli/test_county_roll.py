"""`parcels import` takes the county's tax-parcel export as the county writes it: the New
York attribute-table names recognised, other columns listed and ignored, a column map for
the rest, CSV, Excel and dBASE alike, and all rows or none."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from inspector_app.cli import run

EXPORT = Path(__file__).parents[1] / "fixtures" / "rolls" / "nys_tax_parcels_export.csv"
USED = {"sbl": "PRINT_KEY", "municipality": "MUNI_NAME", "site_address": "PARCEL_ADDR",
        "owner_name": "PRIMARY_OWNER", "mailing_address_1": "MAIL_ADDR",
        "mailing_address_2": "PO_BOX", "mailing_address_3": "MAIL_CITY+MAIL_STATE+MAIL_ZIP"}


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, Any, str]:
    status = run([str(a) for a in args])
    out, err = capsys.readouterr()
    return status, (json.loads(out) if out.strip() else None), err


def _rows() -> list[list[str]]:
    with EXPORT.open(newline="", encoding="utf-8") as f:
        return list(csv.reader(f))


def _write_csv(path: Path, rows: list[list[str]]) -> Path:
    with path.open("w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows(rows)
    return path


def _write_xlsx(path: Path, rows: list[list[str]]) -> Path:
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    assert sheet is not None
    for row in rows:  # numbers as Excel keeps them: ZIP codes and values as numbers
        sheet.append([int(c) if c.isdigit() and not c.startswith("0") else c for c in row])
    book.save(path)
    return path


def _write_dbf(path: Path, rows: list[list[str]]) -> Path:
    """A dBASE table as a GIS program exports one: names cut to ten letters."""
    import pyogrio.raw

    header, data = rows[0], rows[1:]
    names = [h[:10] for h in header]
    assert len(set(names)) == len(names)
    columns = [np.array([r[i] for r in data], dtype=object) for i in range(len(header))]
    pyogrio.raw.write(path, geometry=None, field_data=columns, fields=names,
                      driver="ESRI Shapefile", geometry_type=None, crs=None)
    return path


WRITERS = {"csv": _write_csv, "xlsx": _write_xlsx, "dbf": _write_dbf}


@pytest.mark.parametrize("kind", sorted(WRITERS))
def test_the_county_export_is_imported_as_it_comes(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, kind: str) -> None:
    roll = WRITERS[kind](tmp_path / f"ontario.{kind}", _rows())
    data = tmp_path / "d"
    status, out, err = cli(capsys, "--data-dir", data, "parcels", "import", roll)
    assert status == 0, err
    assert (out["created"], out["updated"], out["unchanged"]) == (6, 0, 0)
    cut = (lambda n: n[:10]) if kind == "dbf" else (lambda n: n)
    assert out["columns"] == {f: "+".join(cut(c) for c in cols.split("+"))
                              for f, cols in USED.items()}
    ignored = out["ignored_columns"]
    assert ignored[:3] == ["OBJECTID", cut("COUNTY_NAME"), "SWIS"]
    assert "SBL" not in ignored and cut("SWIS_SBL_ID") not in ignored  # checked, not ignored
    assert len(ignored) == 57 - 9 - 3  # nine columns used, three SBL columns checked
    assert err.startswith(f"{roll}: columns not used: OBJECTID, {cut('COUNTY_NAME')}, SWIS, ")

    status, parcels, _ = cli(capsys, "--data-dir", data, "parcels")
    by_sbl = {p["sbl"]: p for p in parcels}
    # the county's spelling is kept
    assert sorted(by_sbl) == ["1.-1-1", "112.09-1-7.2", "13.-3-1", "13.-3-2", "18.-4-17.2",
                              "98.-1-12"]
    assert by_sbl["13.-3-1"]["owner_name"] == "HALDANE, THOMAS J"
    assert by_sbl["13.-3-1"]["site_address"] == "4455 West Lake Rd"
    status, case, _ = cli(capsys, "--data-dir", data, "case", "export", "322089-13.-3-2")
    assert status == 0
    assert case["parcel"]["sbl"] == "13.-3-2"
    assert case["parcel"]["owner_mailing_address"] == ["PO Box 442", "Sarasota, FL 34236"]

    # the same export again changes nothing
    status, out, _ = cli(capsys, "--data-dir", data, "parcels", "import", roll)
    assert (status, out["created"], out["unchanged"]) == (0, 0, 6)


def _refused(rows: list[list[str]]) -> list[list[str]]:
    header = rows[0]
    at = {n: header.index(n) for n in ("PRINT_KEY", "PRIMARY_OWNER", "SBL")}
    rows = [list(r) for r in rows]
    rows[2][at["PRINT_KEY"]] = "13.-3-1X"                # not a tax map number
    rows[4][at["PRIMARY_OWNER"]] = ""                     # no owner
    rows[5][at["SBL"]] = "01800000040190020000"          # SBL of another lot than 18.-4-17.2
    for name in ("PRINT_KEY", "SBL", "SWIS_SBL_ID", "SWIS_PRINT_KEY_ID"):  # the first again
        rows[6][header.index(name)] = rows[1][header.index(name)]
    rows[6][at["PRINT_KEY"]] = "112.9-1-7.2"
    return rows


@pytest.mark.parametrize("kind", sorted(WRITERS))
def test_a_refused_row_imports_nothing_names_every_row_and_creates_no_folder(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, kind: str) -> None:
    roll = WRITERS[kind](tmp_path / f"ontario.{kind}", _refused(_rows()))
    data = tmp_path / "d"
    status, out, err = cli(capsys, "--data-dir", data, "parcels", "import", roll)
    assert (status, out) == (2, None)
    unit, first = {"csv": ("line", 2), "xlsx": ("row", 2), "dbf": ("record", 1)}[kind]
    owner, sbl = ("PRIMARY_OW", "SBL") if kind == "dbf" else ("PRIMARY_OWNER", "SBL")
    assert err.splitlines() == [
        f"{roll}: 4 of 6 rows were refused, so nothing was imported:",
        f"  {unit} {first + 1} (SBL '13.-3-1X'): sbl (PRINT_KEY) '13.-3-1X' is not a tax map "
        "number (write it like 112.09-1-7.2, 13.-3-1, 503689-18.-4-11 or the 26-digit SBL).",
        f"  {unit} {first + 3} (SBL '98.-1-12'): owner_name ({owner}) is empty.",
        f"  {unit} {first + 4} (SBL '18.-4-17.2'): {sbl} '01800000040190020000' names another "
        "parcel than '18.-4-17.2'.",
        f"  {unit} {first + 5} (SBL '112.9-1-7.2'): sbl 112.9-1-7.2 already appears on "
        f"{unit} {first}.",
    ]
    assert not data.exists()


def test_an_existing_folder_is_left_as_it_was(capsys: pytest.CaptureFixture[str],
                                              tmp_path: Path) -> None:
    data = tmp_path / "d"
    assert cli(capsys, "--data-dir", data, "demo", "--parcels", "5")[0] == 0
    before = cli(capsys, "--data-dir", data, "parcels")[1]
    roll = _write_csv(tmp_path / "roll.csv", _refused(_rows()))
    assert cli(capsys, "--data-dir", data, "parcels", "import", roll)[0] == 2
    assert cli(capsys, "--data-dir", data, "parcels")[1] == before


def test_a_roll_with_no_rows_is_refused_and_creates_no_folder(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    roll = _write_csv(tmp_path / "roll.csv", _rows()[:1])
    status, _, err = cli(capsys, "--data-dir", tmp_path / "d", "parcels", "import", roll)
    assert status == 2
    assert err.strip() == f"{roll}: has no parcels below its header; nothing was imported."
    assert not (tmp_path / "d").exists()


def test_a_column_map_names_the_columns_of_a_file_with_other_names(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    roll = tmp_path / "town.csv"
    roll.write_text("Tax Map No,Town,House,Street,Owner Of Record,Mail 1,Mail 2,Notes\n"
                    "13.-3-1,Town of Canandaigua,4455,West Lake Rd,Thomas Haldane,"
                    "4455 West Lake Rd,\"Canandaigua, NY 14424\",dock permit 2019\n",
                    encoding="utf-8")
    data = tmp_path / "d"
    status, _, err = cli(capsys, "--data-dir", data, "parcels", "import", roll)
    assert status == 2
    assert err.strip().startswith(f"{roll}: no column gives the roll's sbl (tried PRINT_KEY "
                                  "or PRINTKEY or SBL or ")
    assert err.strip().endswith("name it with --map sbl=COLUMN. The file's columns are: Tax "
                                "Map No, Town, House, Street, Owner Of Record, Mail 1, Mail 2, "
                                "Notes.")
    assert not data.exists()
    status, out, err = cli(
        capsys, "--data-dir", data, "parcels", "import", roll, "--map",
        "sbl=Tax Map No,municipality=town,site_address=House+Street,"
        "owner_name=Owner Of Record,mailing_address_1=Mail 1,mailing_address_2=Mail 2")
    assert status == 0, err
    assert out["columns"]["site_address"] == "House+Street"
    assert out["ignored_columns"] == ["Notes"]
    case = cli(capsys, "--data-dir", data, "case", "export", "13.00-3-1")[1]
    assert case["parcel"]["site_address"] == "4455 West Lake Rd"
    assert case["parcel"]["sbl"] == "13.-3-1"


def test_a_map_overrides_a_recognised_column(capsys: pytest.CaptureFixture[str],
                                             tmp_path: Path) -> None:
    roll = _write_csv(tmp_path / "roll.csv", _rows())
    status, out, _ = cli(capsys, "--data-dir", tmp_path / "d", "parcels", "import", roll,
                         "--map", "sbl=SWIS_PRINT_KEY_ID,site_address=LOC_ST_NBR+LOC_STREET")
    assert status == 0
    assert out["columns"]["sbl"] == "SWIS_PRINT_KEY_ID"
    assert "PARCEL_ADDR" in out["ignored_columns"]
    parcels = cli(capsys, "--data-dir", tmp_path / "d", "parcels")[1]
    assert "322089 13.-3-1" in {p["sbl"] for p in parcels}


@pytest.mark.parametrize(("option", "message"), [
    ("sbl", "argument --map: 'sbl' is not FIELD=COLUMN; write it like FIELD=COLUMN"),
    ("owner=PRIMARY_OWNER", "argument --map: 'owner' is not a field of the roll; the fields "
     "are sbl, municipality, site_address, owner_name, mailing_address_1"),
    ("sbl=PRINT_KEY,sbl=SBL", "argument --map: names a column for sbl twice."),
    ("owner_name=OWNER_NAME", "--map names the column 'OWNER_NAME' for owner_name, which the "
     "file does not have; its columns are: OBJECTID, COUNTY_NAME, "),
])
def test_a_bad_map_is_one_sentence_and_changes_nothing(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, option: str, message: str) -> None:
    status, _, err = cli(capsys, "--data-dir", tmp_path / "d", "parcels", "import", EXPORT,
                         "--map", option)
    assert status == 2
    assert message in err
    assert not (tmp_path / "d").exists()


def test_a_packed_sbl_excel_kept_as_a_number_is_refused_not_guessed(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Excel keeps 15 digits of a number: a 26-digit SBL stored as one has lost its lot."""
    roll = _write_xlsx(tmp_path / "roll.xlsx", _rows())
    status, _, err = cli(capsys, "--data-dir", tmp_path / "d", "parcels", "import", roll,
                         "--map", "sbl=SWIS_SBL_ID")
    assert status == 2
    assert ("  row 3 (SBL '3.220890130000003e+25'): sbl (SWIS_SBL_ID) '3.220890130000003e+25' "
            "is not a tax map number") in err
    assert not (tmp_path / "d").exists()


@pytest.mark.parametrize(("name", "content", "message"), [
    ("roll.xlsx", b"OBJECTID,PRINT_KEY\n1,13.-3-1\n", "is not an Excel workbook (.xlsx), or is "
     "damaged; save it again from the spreadsheet as .xlsx or as CSV UTF-8."),
    ("roll.xls", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "is an Excel 97-2003 workbook (.xls), "
     "which this app does not read; save it from the spreadsheet as .xlsx or as CSV UTF-8."),
    ("roll.dbf", b"garbage", "cannot be read as a dBASE table, an ESRI Shapefile, a GeoPackage "
     "or GeoJSON (the file is damaged, or is not what its name says)."),
])
def test_a_file_that_is_not_what_its_name_says_is_one_sentence(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str, content: bytes,
        message: str) -> None:
    roll = tmp_path / name
    roll.write_bytes(content)
    status, _, err = cli(capsys, "--data-dir", tmp_path / "d", "parcels", "import", roll)
    assert (status, err.strip()) == (2, f"{roll}: {message}")
    assert not (tmp_path / "d").exists()
