from __future__ import annotations

from pathlib import Path

import pytest

from inspector_app.errors import InputError
from inspector_app.services.parcel.roll import apply_roll, read_roll, refuse_rejected
from inspector_app.services.workspace import Workspace

ROLL = """SBL,Municipality,Site Address,Owner Name,Mailing Address 1,Mailing Address 2,Longitude,Latitude
112.09-1-7.2,Town of Canandaigua,5150 County Road 16,Jane Roe,17 Birch Hollow Lane,"Pittsford, NY 14534",-77.3001,42.8001
98.00-1-23.100,Town of South Bristol,6120 West Lake Road,Robert Whitaker,PO Box 442,"Sarasota, FL 34236",,
not-an-sbl,Town of Gorham,1 East Lake Road,Ann Lee,1 East Lake Road,"Gorham, NY 14461",,
112.09-1-8,Town of Canandaigua,5160 County Road 16,,1 Main St,"Canandaigua, NY 14424",,
112.09-1-9,Town of Canandaigua,5170 County Road 16,Tom Hale,5170 County Road 16,"Canandaigua, NY 14424",42.8,-77.3
112.09-1-7.2,Town of Canandaigua,5150 County Road 16,Jane Roe,duplicate row,,,
112.09-1-10,Town of Canandaigua,5180 County Road 16,Sam Orr,5180 County Road 16,"Canandaigua, NY 14424",-77.3,
"""


def _write(tmp_path: Path, text: str, name: str = "roll.csv") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


GOOD = "\n".join(ROLL.splitlines()[:3]) + "\n"


def test_every_bad_row_is_named_and_none_is_imported(workspace: Workspace,
                                                     tmp_path: Path) -> None:
    parsed = read_roll(_write(tmp_path, ROLL))
    reasons = {r.line: r.reason for r in parsed.rejected}
    assert set(reasons) == {4, 5, 6, 7, 8}
    assert "not a tax map number" in reasons[4]
    assert reasons[5] == "owner_name is empty"
    assert "look swapped" in reasons[6]
    assert reasons[7] == "sbl 112.09-1-7.2 already appears on line 2"
    assert reasons[8] == "give both longitude and latitude, or neither"
    assert [r.sbl for r in parsed.rejected] == ["not-an-sbl", "112.09-1-8", "112.09-1-9",
                                                "112.09-1-7.2", "112.09-1-10"]
    with pytest.raises(InputError) as refused:
        refuse_rejected(tmp_path / "roll.csv", parsed)
    lines = str(refused.value).splitlines()
    assert lines[0] == (f"{tmp_path / 'roll.csv'}: 5 of 7 rows were refused, so nothing was "
                        "imported:")
    assert lines[2] == "  line 5 (SBL '112.09-1-8'): owner_name is empty."
    with pytest.raises(InputError, match="5 rows of the roll were refused"):
        apply_roll(workspace.store, parsed)
    assert workspace.parcels() == []


def test_a_good_roll_is_imported_whole(workspace: Workspace, tmp_path: Path) -> None:
    result = apply_roll(workspace.store, read_roll(_write(tmp_path, GOOD)))
    assert (result.created, result.updated, result.unchanged) == (2, 0, 0)
    case = workspace.load_case("112.09-1-7.2")
    assert case.parcel.owner_mailing_address == ("17 Birch Hollow Lane", "Pittsford, NY 14534")
    assert (case.parcel.longitude, case.parcel.latitude) == (-77.3001, 42.8001)


def test_reimporting_the_same_roll_changes_nothing(workspace: Workspace, tmp_path: Path) -> None:
    path = _write(tmp_path, GOOD)
    apply_roll(workspace.store, read_roll(path))
    log_size = workspace.store.query("SELECT count(*) AS n FROM change_log")[0]["n"]
    again = apply_roll(workspace.store, read_roll(path))
    assert (again.created, again.updated, again.unchanged) == (0, 0, 2)
    assert workspace.store.query("SELECT count(*) AS n FROM change_log")[0]["n"] == log_size


def test_a_changed_owner_is_an_update_with_history(workspace: Workspace, tmp_path: Path) -> None:
    apply_roll(workspace.store, read_roll(_write(tmp_path, GOOD)))
    sold = GOOD.replace("Robert Whitaker", "Linda Abbott")
    result = apply_roll(workspace.store, read_roll(_write(tmp_path, sold, "roll2.csv")))
    assert result.updated == 1
    changes = [(h["field"], h["old_value"], h["new_value"])
               for h in workspace.history("98.00-1-23.100") if h["op"] == "update"]
    assert changes == [("owner_name", "Robert Whitaker", "Linda Abbott")]


@pytest.mark.parametrize(("text", "message"), [
    ("", "is empty; the first line must name the columns"),
    ("sbl,municipality,site_address,owner_name,mailing_adress_1\n",
     "no column gives the roll's mailing_address_1 .tried MAILING_ADDRESS_1 or MAIL_ADDR.; "
     "name it with --map mailing_address_1=COLUMN. The file's columns are: sbl, "
     "municipality, site_address, owner_name, mailing_adress_1."),
    ("sbl,sbl,municipality,site_address,owner_name,mailing_address_1\n",
     "the header names the column 'sbl' twice"),
])
def test_a_bad_header_refuses_the_whole_file(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        read_roll(_write(tmp_path, text))


WINDOWS_ROLL = ("sbl,municipality,site_address,owner_name,mailing_address_1,"
                "mailing_address_2\n112.09-1-7.2,Town of Canandaigua,1 Caf\u00e9 Lane,"
                "Ren\u00e9e M\u00fcller,1 Caf\u00e9 Lane,\"Canandaigua, NY 14424\"\n")


def test_a_roll_excel_saved_on_windows_is_read_and_said_so(workspace: Workspace,
                                                           tmp_path: Path) -> None:
    path = tmp_path / "roll.csv"
    path.write_bytes(WINDOWS_ROLL.encode("cp1252"))
    result = apply_roll(workspace.store, read_roll(path))
    said = result.as_json()
    assert (said["created"], said["rejected"], said["encoding"]) == (1, [], "Windows-1252")
    parcel = workspace.load_case("112.09-1-7.2").parcel
    assert (parcel.owner_name, parcel.site_address) == ("Ren\u00e9e M\u00fcller",
                                                        "1 Caf\u00e9 Lane")


def test_a_utf8_roll_says_no_encoding(workspace: Workspace, tmp_path: Path) -> None:
    path = tmp_path / "roll.csv"
    path.write_bytes(WINDOWS_ROLL.encode("utf-8-sig"))
    assert "encoding" not in apply_roll(workspace.store, read_roll(path)).as_json()


def test_a_roll_that_is_no_text_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "roll.csv"
    path.write_bytes(b"PK\x03\x04\x14\x00" + bytes(range(256)))
    with pytest.raises(InputError, match=r"roll\.csv: is not a text file \(it holds binary "
                                         r"data, such as byte 0x03 on line 1\); give the roll "
                                         "saved as \"CSV UTF-8\"."):
        read_roll(path)
    path.write_bytes(b"sbl\n\x81\x8d\n")  # bytes that are neither UTF-8 nor Windows-1252
    with pytest.raises(InputError, match=r"is not UTF-8 text \(byte 4, on line 2, is 0x81"):
        read_roll(path)


def test_a_quote_never_closed_is_said_in_words(tmp_path: Path) -> None:
    path = tmp_path / "roll.csv"
    path.write_text("sbl,municipality,site_address,owner_name,mailing_address_1\n"
                    '112.09-1-7.2,Town of Canandaigua,"1 Lake Rd,Jane Roe,1 Lake Rd\n'
                    + "x" * 140_000 + "\n", encoding="utf-8")
    rejected = read_roll(path).rejected
    assert [r.reason for r in rejected] == [
        "not valid CSV (a cell runs on for more than 131,072 characters: a double quote that "
        "opens a cell is probably never closed)"]
