"""Hostile parcel rolls fed through `parcels import` as a user runs it: refused with one
sentence, exit status 2 and nothing written, before the reading grows out of bounds. The
subprocess timeout only guards against a hang."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector_app.services.parcel.roll import MAX_ROWS
from inspector_app.services.parcel.roll_columns import MAX_COLUMNS
from tests import hostile_files
from tests.cli.test_hostile_files import assert_refused, cli


def test_a_header_of_many_columns_is_refused_before_it_is_looked_at(tmp_path: Path) -> None:
    wide = hostile_files.wide_roll(tmp_path / "wide.csv", columns=100_000)
    data = tmp_path / "data"
    assert_refused(cli(data, "parcels", "import", str(wide)), wide,
                   "its header has 100,000 columns; a roll has at most 1,000")
    assert not data.exists()


def test_a_header_within_the_bound_is_read(tmp_path: Path) -> None:
    wide = hostile_files.wide_roll(tmp_path / "wide.csv", columns=MAX_COLUMNS)
    result = cli(tmp_path / "data", "parcels", "import", str(wide))
    assert result.returncode == 0, result.stderr
    assert '"created": 1' in result.stdout


@pytest.mark.slow
def test_a_roll_of_more_parcels_than_any_program_has_is_refused(tmp_path: Path) -> None:
    roll = hostile_files.long_roll(tmp_path / "long.csv", MAX_ROWS + 1)
    data = tmp_path / "data"
    assert_refused(cli(data, "parcels", "import", str(roll)), roll,
                   "has more than 200,000 parcels")
    assert not data.exists()


@pytest.mark.slow
def test_a_county_roll_imports_and_imports_again_unchanged(tmp_path: Path) -> None:
    """60,000 parcels, the largest county around the lake: each row's parcel is found
    among the stored ones without searching them all."""
    roll = hostile_files.long_roll(tmp_path / "county.csv", 60_000)
    data = tmp_path / "data"
    first = cli(data, "parcels", "import", str(roll))
    assert first.returncode == 0, first.stderr
    assert '"created": 60000' in first.stdout
    again = cli(data, "parcels", "import", str(roll))
    assert again.returncode == 0, again.stderr
    assert '"unchanged": 60000' in again.stdout


def test_a_workbook_inflating_to_gigabytes_is_refused_from_its_index(tmp_path: Path) -> None:
    bomb = hostile_files.bomb_workbook(tmp_path / "bomb.xlsx")
    assert bomb.stat().st_size < 20 * 1024**2
    data = tmp_path / "data"
    assert_refused(cli(data, "parcels", "import", str(bomb)), bomb,
                   "xl/worksheets/sheet1.xml is 3146 MB, over the member limit")
    assert not data.exists()


def test_a_workbook_of_a_few_mb_inflating_a_thousandfold_is_refused(tmp_path: Path) -> None:
    bomb = hostile_files.bomb_workbook(tmp_path / "bomb.xlsx", mebibytes=100)
    assert_refused(cli(tmp_path / "data", "parcels", "import", str(bomb)), bomb,
                   "xl/worksheets/sheet1.xml expands", "-fold, which is not plausible")


@pytest.mark.parametrize("kind", ["billion laughs", "external entity"])
def test_a_workbook_declaring_entities_is_refused_before_it_is_parsed(tmp_path: Path,
                                                                      kind: str) -> None:
    book = hostile_files.dtd_workbook(tmp_path / "dtd.xlsx", kind)
    data = tmp_path / "data"
    assert_refused(cli(data, "parcels", "import", str(book)), book,
                   "xl/worksheets/sheet1.xml declares a document type")
    assert not data.exists()


def test_a_workbook_naming_an_undeclared_entity_is_damaged(tmp_path: Path) -> None:
    book = hostile_files.dtd_workbook(tmp_path / "entity.xlsx", "undefined entity")
    assert_refused(cli(tmp_path / "data", "parcels", "import", str(book)), book,
                   "is not an Excel workbook (.xlsx), or is damaged")


def test_the_workbook_the_hostile_ones_are_made_from_is_read(tmp_path: Path) -> None:
    book = hostile_files.bomb_workbook(tmp_path / "plain.xlsx", mebibytes=0)
    result = cli(tmp_path / "data", "parcels", "import", str(book))
    assert result.returncode == 0, result.stderr
    assert '"created": 1' in result.stdout
