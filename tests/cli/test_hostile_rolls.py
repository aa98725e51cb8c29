"""Hostile parcel rolls fed through `parcels import` as a user runs it: refused with one
sentence, exit status 2 and nothing written, before the reading grows out of bounds. The
subprocess timeout only guards against a hang."""

from __future__ import annotations

from pathlib import Path

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


def test_a_roll_of_more_parcels_than_any_program_has_is_refused(tmp_path: Path) -> None:
    roll = hostile_files.long_roll(tmp_path / "long.csv", MAX_ROWS + 1)
    data = tmp_path / "data"
    assert_refused(cli(data, "parcels", "import", str(roll)), roll,
                   "has more than 200,000 parcels")
    assert not data.exists()


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
