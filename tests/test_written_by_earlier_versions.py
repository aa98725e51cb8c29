"""Data written by earlier versions of the app still opens, joins and syncs.

tests/fixtures/written_by_<version>_schema_<n>/ holds what one released version wrote
(README.md there says how, from which commit): an office data folder after a demo and the
enrolment of laptop L1, the field kit and its passphrase, the laptop's folder after joining
and editing, and one sync package each way. The code under test must read all of them as
that version's users left them: every parcel loads as a case, the history reads, the kit
joins, and the packages import (once).

Everything goes through the command line (`inspector_app.__main__.main`), never through
internal modules, so that these tests hold across refactors. The folders are copied
before use: the pinned files are never opened in place.

Sync checks compare a package's times with now (at most 1 day ahead, at most 5 years
behind): the package tests need a clock within 5 years of the pin's date (README.md).
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from inspector_app.__main__ import main

FIXTURES = Path(__file__).parent / "fixtures"
AS_OF = "2025-06-01"


@dataclass(frozen=True)
class Pinned:
    """What a pinned folder holds, as its README.md says."""

    folder: str
    commit: str
    office_parcels: int
    laptop_parcels: tuple[str, ...]
    fingerprint: str
    # the laptop's edit (in laptop-1.zip) and the office's (in office-1.zip): SBL, field
    # of the case file's section, value before, value after
    laptop_edits: tuple[tuple[str, str, str, Any, Any], ...]
    office_edits: tuple[tuple[str, str, str, Any, Any], ...]
    photo_sha256: str

    @property
    def path(self) -> Path:
        return FIXTURES / self.folder


PINNED = [
    Pinned(
        folder="written_by_v0_1_0_schema_12",
        commit="c6a07a4a11de8873af9cbcddb0408131db949aee",
        office_parcels=40,
        laptop_parcels=("900.01-1-1", "900.01-1-7"),
        fingerprint="1e8e-1439-8adc-1903",
        laptop_edits=(("900.01-1-1", "parcel", "owner_phone", "585-555-8182", "585-555-0142"),
                      ("900.01-1-1", "dwelling", "bedrooms", 4, 5)),
        office_edits=(("900.01-1-7", "parcel", "owner_phone", "585-555-6085", "585-555-0177"),
                      ("900.01-1-7", "dwelling", "bedrooms", 3, 4)),
        photo_sha256="002b053ea4e594a64efc4b3f1348a77d15771215914486ab2faff3d4006771b2",
    ),
]
IDS = [p.folder for p in PINNED]


class Cli:
    def __init__(self, capsys: pytest.CaptureFixture[str]) -> None:
        self.capsys = capsys

    def run(self, data: Path, *args: str | Path) -> tuple[int, Any, str]:
        self.capsys.readouterr()
        status = main(["--user", "pin.checker", "--data-dir", str(data),
                       *[str(a) for a in args]])
        out, err = self.capsys.readouterr()
        return status, json.loads(out) if out.strip() else None, err

    def __call__(self, data: Path, *args: str | Path) -> Any:
        status, printed, err = self.run(data, *args)
        assert status == 0, f"{' '.join(map(str, args))}: exit {status}: {err}"
        return printed


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Cli:
    return Cli(capsys)


def _copy(pinned: Pinned, name: str, tmp_path: Path) -> Path:
    source = pinned.path / name
    assert (source / "inspector.sqlite").is_file(), f"{source} is missing"
    return Path(shutil.copytree(source, tmp_path / name))


def _join(cli: Cli, pinned: Pinned, folder: Path) -> Any:
    return cli(folder, "sync", "join", pinned.path / "kit.wik", "--passphrase-file",
               pinned.path / "passphrase.txt", "--fingerprint", pinned.fingerprint)


def _value(cli: Cli, folder: Path, sbl: str, section: str, field: str) -> Any:
    return cli(folder, "case", "export", sbl)[section][field]


def test_every_pinned_folder_is_tested() -> None:
    folders = sorted(p.name for p in FIXTURES.glob("written_by_*") if p.is_dir())
    assert folders == sorted(IDS)
    for pinned in PINNED:
        assert pinned.commit in (pinned.path / "README.md").read_text("utf-8")
        # each database whole in its file: checkpointed, and never opened in place since
        # (even a read-only open leaves -wal and -shm files beside it)
        leftovers = [p.name for p in pinned.path.rglob("*")
                     if p.name.endswith(("-wal", "-shm", "-journal"))]
        assert not leftovers, f"{pinned.folder}: SQLite files beside a database: {leftovers}"


@pytest.mark.parametrize("pinned", PINNED, ids=IDS)
@pytest.mark.parametrize("which", ["office", "laptop"])
def test_a_pinned_folder_opens(pinned: Pinned, which: str, cli: Cli, tmp_path: Path) -> None:
    folder = _copy(pinned, which, tmp_path)
    parcels = cli(folder, "parcels")
    sbls = [p["sbl"] for p in parcels]
    if which == "office":
        assert len(sbls) == pinned.office_parcels
        assert set(pinned.laptop_parcels) <= set(sbls)
    else:
        assert sorted(sbls) == sorted(pinned.laptop_parcels)
    for sbl in sbls:
        case = cli(folder, "case", "export", sbl)
        assert case["format"] == "watershed-inspector/case/1"
        assert case["parcel"]["sbl"] == sbl
        history = cli(folder, "history", sbl)
        assert history and history[0]["op"] == "insert"
        assert all(e["seq"] < f["seq"] for e, f in pairwise(history))
    # the laptop's edit is in the laptop's folder, as it was made, and not at the office
    for sbl, section, field, before, after in pinned.laptop_edits:
        assert _value(cli, folder, sbl, section, field) == (
            after if which == "laptop" else before)
    if which == "laptop":
        changes = {(e["table_name"], e["field"], e["user"], json.dumps(e["new_value"]))
                   for e in cli(folder, "history", pinned.laptop_edits[0][0])}
        assert ("parcels", "owner_phone", "field.inspector",
                json.dumps(pinned.laptop_edits[0][4])) in changes
        status = cli(folder, "sync", "status")
        assert (status["role"], status["device"], status["waiting_to_send"]) == (
            "field", "L1", 3)
    # and the rules read it
    worklists = cli(folder, "worklist", "--as-of", AS_OF)
    assert isinstance(worklists, dict) and worklists


@pytest.mark.parametrize("pinned", PINNED, ids=IDS)
def test_the_pinned_kit_joins_an_empty_folder(pinned: Pinned, cli: Cli,
                                              tmp_path: Path) -> None:
    laptop = tmp_path / "laptop"
    joined = _join(cli, pinned, laptop)
    assert (joined["device"], joined["parcels"], joined["office_fingerprint"]) == (
        "L1", len(pinned.laptop_parcels), pinned.fingerprint)
    assert sorted(p["sbl"] for p in cli(laptop, "parcels")) == sorted(pinned.laptop_parcels)
    for sbl in pinned.laptop_parcels:
        assert cli(laptop, "case", "export", sbl)["parcel"]["sbl"] == sbl
    for sbl, section, field, before, _ in pinned.office_edits + pinned.laptop_edits:
        assert _value(cli, laptop, sbl, section, field) == before


@pytest.mark.parametrize("pinned", PINNED, ids=IDS)
def test_the_pinned_kit_refuses_a_wrong_passphrase_or_fingerprint(
        pinned: Pinned, cli: Cli, tmp_path: Path) -> None:
    wrong = tmp_path / "wrong.txt"
    wrong.write_text("not the passphrase\n", "utf-8")
    status, _, err = cli.run(tmp_path / "laptop", "sync", "join", pinned.path / "kit.wik",
                             "--passphrase-file", wrong)
    assert status == 2 and "passphrase is wrong" in err
    status, _, err = cli.run(tmp_path / "laptop2", "sync", "join", pinned.path / "kit.wik",
                             "--passphrase-file", pinned.path / "passphrase.txt",
                             "--fingerprint", "0000-0000-0000-0000")
    assert status == 2 and f"fingerprint is {pinned.fingerprint}" in err
    assert not (tmp_path / "laptop").exists() and not (tmp_path / "laptop2").exists()
    # and the pinned passphrase and fingerprint are the right ones
    assert _join(cli, pinned, tmp_path / "laptop3")["device"] == "L1"


@pytest.mark.parametrize("pinned", PINNED, ids=IDS)
def test_the_pinned_laptop_package_imports_at_the_pinned_office(
        pinned: Pinned, cli: Cli, tmp_path: Path) -> None:
    office = _copy(pinned, "office", tmp_path)
    package = pinned.path / "laptop-1.zip"
    status, applied, err = cli.run(office, "sync", "import", package)
    assert status == 0, err
    assert applied["applied"] > 0 and applied["already_imported"] is False
    assert (applied["conflicts"], applied["open_conflicts"], applied["gaps"]) == (0, 0, [])
    for sbl, section, field, _, after in pinned.laptop_edits:
        assert _value(cli, office, sbl, section, field) == after
    photos = [e for e in cli(office, "history", pinned.laptop_edits[0][0])
              if e["table_name"] == "attachments"]
    assert [p["new_value"]["sha256"] for p in photos] == [pinned.photo_sha256]
    assert cli(office, "sync", "conflicts") == []
    again = cli(office, "sync", "import", package)
    assert (again["applied"], again["already_imported"]) == (0, True)


@pytest.mark.parametrize("pinned", PINNED, ids=IDS)
def test_the_pinned_office_package_imports_on_a_joined_laptop(
        pinned: Pinned, cli: Cli, tmp_path: Path) -> None:
    laptop = tmp_path / "laptop"
    _join(cli, pinned, laptop)
    package = pinned.path / "office-1.zip"
    status, applied, err = cli.run(laptop, "sync", "import", package)
    assert status == 0, err
    assert applied["applied"] > 0 and applied["already_imported"] is False
    assert (applied["conflicts"], applied["open_conflicts"]) == (0, 0)
    for sbl, section, field, _, after in pinned.office_edits:
        assert _value(cli, laptop, sbl, section, field) == after
    again = cli(laptop, "sync", "import", package)
    assert (again["applied"], again["already_imported"]) == (0, True)


@pytest.mark.parametrize("pinned", PINNED, ids=IDS)
def test_the_pinned_laptop_and_office_sync_both_ways(pinned: Pinned, cli: Cli,
                                                     tmp_path: Path) -> None:
    """The pinned laptop takes the pinned office package (its own edit stays), and a
    package today's code writes at the pinned office acknowledges the laptop's changes."""
    laptop = _copy(pinned, "laptop", tmp_path)
    office = _copy(pinned, "office", tmp_path)
    applied = cli(laptop, "sync", "import", pinned.path / "office-1.zip")
    assert applied["applied"] > 0 and (applied["conflicts"], applied["open_conflicts"]) == (
        0, 0)
    for sbl, section, field, _, after in pinned.office_edits + pinned.laptop_edits:
        assert _value(cli, laptop, sbl, section, field) == after
    again = cli(laptop, "sync", "import", pinned.path / "office-1.zip")
    assert (again["applied"], again["already_imported"]) == (0, True)

    cli(office, "sync", "import", pinned.path / "laptop-1.zip")
    reply = tmp_path / "office-2.zip"
    cli(office, "sync", "export", "--device", "L1", "--out", reply)
    cli(laptop, "sync", "import", reply)
    status = cli(laptop, "sync", "status")
    assert (status["acknowledged_by_office"], status["waiting_to_send"]) == (3, 0)
    # and what the laptop sends now, the office has already
    follow_up = tmp_path / "laptop-2.zip"
    cli(laptop, "sync", "export", "--out", follow_up)
    assert cli(office, "sync", "import", follow_up)["applied"] == 0
