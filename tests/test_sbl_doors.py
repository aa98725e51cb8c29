"""Every door reads a tax map number the same way (domain.sbl): New York's print keys,
a section without a subsection ("13.-3-1"), a SWIS prefix and the packed 26-digit SBL."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from inspector_app.casefile import SBL_PATTERN
from inspector_app.cli import run
from inspector_app.domain.sbl import closest, is_sbl, sbl_key, sbl_swis

FULL_CASE = Path(__file__).parent / "fixtures" / "full_case.json"
HEADER = "sbl,municipality,site_address,owner_name,mailing_address_1\n"


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, Any, str]:
    status = run(list(args))
    out, err = capsys.readouterr()
    return status, (json.loads(out) if out.strip() else None), err


def _roll(tmp_path: Path, *sbls: str, owner: str = "A. Owner") -> Path:
    path = tmp_path / f"roll{len(list(tmp_path.iterdir()))}.csv"
    path.write_text(HEADER + "".join(f"{s},Town of Gorham,1 Lake Rd,{owner},PO Box 1\n"
                                     for s in sbls), encoding="utf-8")
    return path


def _case(tmp_path: Path, sbl: str) -> Path:
    doc = json.loads(FULL_CASE.read_text(encoding="utf-8"))
    doc["parcel"]["sbl"] = sbl
    path = tmp_path / f"case{len(list(tmp_path.iterdir()))}.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


@pytest.mark.parametrize("text, key", [
    ("13.-3-1", ("13", "0", "3", "0", "1", "0", "")),
    ("13.00-3-1", ("13", "0", "3", "0", "1", "0", "")),
    ("98.-1-12", ("98", "0", "1", "0", "12", "0", "")),
    ("18.-4-17.2", ("18", "0", "4", "0", "17", "2", "")),
    ("1.-1-1", ("1", "0", "1", "0", "1", "0", "")),
    ("503689-18.-4-11", ("18", "0", "4", "0", "11", "0", "")),
    # SWIS 503689, section 018, subsection 000, block 0004, lot 011, sublot 000, suffix 0000
    ("50368901800000040110000000", ("18", "0", "4", "0", "11", "0", "")),
    ("10901100010230020000", ("109", "11", "1", "0", "23", "2", "")),
    ("112.09-1-7.2", ("112", "9", "1", "0", "7", "2", "")),
    ("098.00-1-12-1", ("98", "0", "1", "0", "12", "0", "1")),
])
def test_each_form_reads_to_its_parts(text: str, key: tuple[str, ...]) -> None:
    assert sbl_key(text) == key
    assert is_sbl(text) and re.search(SBL_PATTERN, text)


def test_the_swis_code_is_read_from_a_prefix_or_the_packed_form() -> None:
    assert sbl_swis("503689-18.-4-11") == "503689"
    assert sbl_swis("50368901800000040110000000") == "503689"
    assert sbl_swis("18.-4-11") is None


def test_what_is_not_a_tax_map_number_is_refused() -> None:
    for text in ("Lot 7", "13-3", "5036890180000004011000000", "18.-4-11 x", ""):
        assert not is_sbl(text) and sbl_key(text) is None, text


def test_a_near_miss_names_the_neighbours() -> None:
    known = ["18.-4-11", "18.-4-13", "18.-4-30", "18.-5-12", "98.-1-12"]
    assert closest("18.-4-12", known) == ["18.-4-11", "18.-4-13"]
    assert closest("18.-4-40", known) == ["18.-4-30"]
    assert closest("18.-6-1", known) == ["18.-5-12"]


def test_parcels_import_takes_the_county_print_keys_and_keeps_their_spelling(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = str(tmp_path / "d")
    roll = _roll(tmp_path, "13.-3-1", "98.-1-12", "18.-4-17.2", "1.-1-1", "503689-18.-4-11")
    status, out, err = cli(capsys, "--data-dir", data, "parcels", "import", str(roll))
    assert (status, out["created"], out["rejected"]) == (0, 5, []), err
    status, out, _ = cli(capsys, "--data-dir", data, "parcels")
    assert sorted(p["sbl"] for p in out) == sorted(
        ["13.-3-1", "98.-1-12", "18.-4-17.2", "1.-1-1", "503689-18.-4-11"])
    # the same parcels in other spellings: matched, updated, never added, spelling kept
    again = _roll(tmp_path, "13.00-3-1", "50368901800000040110000000", owner="B. Owner")
    status, out, _ = cli(capsys, "--data-dir", data, "parcels", "import", str(again))
    assert (status, out["created"], out["updated"]) == (0, 0, 2)
    status, out, _ = cli(capsys, "--data-dir", data, "parcels")
    assert {p["sbl"]: p["owner_name"] for p in out}["13.-3-1"] == "B. Owner"
    assert len(out) == 5


def test_a_roll_naming_one_parcel_twice_in_two_spellings_is_refused(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    roll = _roll(tmp_path, "13.-3-1", "013.00-3-001")
    status, out, err = cli(capsys, "--data-dir", str(tmp_path / "d"), "parcels", "import",
                           str(roll))
    assert (status, out) == (2, None)
    assert err.splitlines()[1] == ("  line 3 (SBL '013.00-3-001'): sbl 013.00-3-001 already "
                                   "appears on line 2.")
    assert not (tmp_path / "d").exists()


@pytest.mark.parametrize("spelling", ["18.-4-11", "503689-18.-4-11",
                                      "50368901800000040110000000", "18.00-04-011"])
def test_case_import_and_every_lookup_find_the_parcel_by_any_spelling(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, spelling: str) -> None:
    data = str(tmp_path / "d")
    status, out, err = cli(capsys, "--data-dir", data, "case", "import",
                           str(_case(tmp_path, "18.-4-11")), "--as-of", "2026-11-25")
    assert (status, out["created"]) == (0, True), err
    status, out, err = cli(capsys, "--data-dir", data, "case", "export", spelling)
    assert status == 0 and out["parcel"]["sbl"] == "18.-4-11", err
    status, out, err = cli(capsys, "--data-dir", data, "evaluate", "--sbl", spelling,
                           "--as-of", "2026-11-25")
    assert status == 0, err
    # a case file in another spelling lands on the same parcel and keeps the stored one
    status, out, err = cli(capsys, "--data-dir", data, "case", "import",
                           str(_case(tmp_path, spelling)), "--as-of", "2026-11-25")
    assert (status, out["created"]) == (0, False), err
    status, out, _ = cli(capsys, "--data-dir", data, "parcels")
    assert [p["sbl"] for p in out] == ["18.-4-11"]


def test_a_lookup_that_misses_names_the_closest(capsys: pytest.CaptureFixture[str],
                                                tmp_path: Path) -> None:
    data = str(tmp_path / "d")
    roll = _roll(tmp_path, "18.-4-11", "18.-4-13", "98.-1-12")
    assert cli(capsys, "--data-dir", data, "parcels", "import", str(roll))[0] == 0
    status, _, err = cli(capsys, "--data-dir", data, "case", "export", "18.-4-12")
    assert status == 2
    assert "No parcel with SBL '18.-4-12'" in err
    assert "the closest: 18.-4-11, 18.-4-13;" in err


def test_a_case_file_with_no_tax_map_number_is_refused_naming_the_forms(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = tmp_path / "d"
    status, _, err = cli(capsys, "--data-dir", str(data), "case", "import",
                         str(_case(tmp_path, "18-4")), "--as-of", "2026-11-25")
    assert status == 2
    assert "which is not a tax map number; write it like 112.09-1-7.2, 13.-3-1" in err


def test_storage_finds_a_parcel_by_any_spelling_beyond_the_command_line(
        workspace: Any) -> None:
    """The roll check of a proposal, a laptop's parcels at the office and the conflict
    history all go through the one key, not the text as stored."""
    from inspector_app.storage import change_log, devices
    from inspector_app.storage import parcels as parcel_rows

    with workspace.store.transaction() as w:
        w.insert("parcels", {"sbl": "13.00-3-1", "municipality": "Town of Gorham",
                             "site_address": "1 Lake Rd", "owner_name": "A. Owner",
                             "owner_mailing_address": ["PO Box 1"]}, parcel_id=None)
    conn = workspace.store.conn
    pid = workspace.parcel_id("13.00-3-1")
    for spelling in ("13.-3-1", "503689-13.-3-1", "50368901300000030010000000"):
        assert parcel_rows.has_sbl(conn, spelling)
        assert devices.parcel_ids_of(conn, {"parcels": json.dumps([spelling])}) == {pid}
        assert workspace.stored_sbl(spelling) == "13.00-3-1"
    assert not parcel_rows.has_sbl(conn, "13.-3-2")
    assert devices.parcel_ids_of(conn, {"parcels": json.dumps(["13.-3-2"])}) == set()
    assert change_log.resolved_conflicts(conn, pid) == []


def test_a_laptops_parcels_found_together_by_exact_and_other_spellings(
        workspace: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from inspector_app.storage import devices

    stored = [f"13.00-3-{n}" for n in range(1, 6)]
    with workspace.store.transaction() as w:
        for sbl in stored:
            w.insert("parcels", {"sbl": sbl, "municipality": "Town of Gorham",
                                 "site_address": "1 Lake Rd", "owner_name": "A. Owner",
                                 "owner_mailing_address": ["PO Box 1"]}, parcel_id=None)
    ids = {sbl: workspace.parcel_id(sbl) for sbl in stored}
    monkeypatch.setattr(devices, "_SBLS_AT_ONCE", 2)  # the exact ones in several reads
    assignment = [*stored[:4], "13.-3-5", "13.-3-9", stored[0]]
    assert devices.parcel_ids_of(workspace.store.conn,
                                 {"parcels": json.dumps(assignment)}) == set(ids.values())
    assert devices.parcel_ids_of(workspace.store.conn, {"parcels": json.dumps(
        ["13.-3-2", "13.00-3-9"])}) == {ids["13.00-3-2"]}


def test_assigning_by_another_spelling_names_the_parcel_as_stored(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = str(tmp_path / "d")
    roll = _roll(tmp_path, "13.-3-1", "98.-1-12")
    assert cli(capsys, "--data-dir", data, "parcels", "import", str(roll))[0] == 0
    secret = tmp_path / "pass.txt"
    secret.write_text("correct horse battery staple\n")
    status, out, err = cli(capsys, "--data-dir", data, "sync", "enroll", "--device", "L1",
                           "--out", str(tmp_path / "kit"), "--parcels",
                           "503689-13.-3-1,013.00-3-001", "--passphrase-file", str(secret))
    assert status == 0, err
    assert out["parcels"] == 1  # one parcel, however often and however it is spelled
    status, out, err = cli(capsys, "--data-dir", data, "sync", "assign", "--device", "L1",
                           "--parcels", "13.00-3-1", "--remove")
    assert status == 0, err
    assert out["removed"] == ["13.-3-1"]
