"""The README's command table and its list of the commands that start a data folder say
what the command line does: every command is in the table, and the list is the one the
parsers declare (`cli.common.starts_a_folder`), which the contract's list is part of."""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from inspector_app.cli.common import folder_starters
from inspector_app.cli.main import build_parser

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text("utf-8")
CONTRACT = ROOT.parent / "shared" / "design" / "CLI-CONTRACT.md"
# The one command that starts a folder only sometimes (given a setting), said in words.
SOMETIMES = "(and `basemap settings` given a setting)"


def _commands(parser: argparse.ArgumentParser, words: tuple[str, ...] = ()) -> Iterator[str]:
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if words and (not subs or parser.get_default("handler") is not None):
        yield " ".join(words)
    for action in subs:
        for name, sub in action.choices.items():
            yield from _commands(sub, (*words, name))


def _table_cells() -> list[str]:
    table = README.split("| command | what it does |", 1)[1].split("\n\n", 1)[0]
    return re.findall(r"`([^`]*)`", " ".join(line.split(" | ")[0]
                                            for line in table.splitlines()[1:]))


def _named(command: str, cells: list[str]) -> bool:
    """Whether a cell writes the command: `register list [SBL]`, or as one of several,
    `office show\\|use FILE`, `jurisdiction list\\|show [...]\\|check FILE\\|use FILE`."""
    *group, last = command.split()
    for cell in cells:
        words = cell.replace("\\|", "|").split()
        if words[:len(group)] != group:
            continue
        rest = " ".join(words[len(group):])
        if re.search(rf"(^|\|){re.escape(last)}(\s|\||$)", rest):
            return True
    return False


def test_every_command_is_in_the_readmes_table() -> None:
    cells = _table_cells()
    commands = list(_commands(build_parser()))
    assert len(commands) > 60
    assert [c for c in commands if not _named(c, cells)] == []


def test_the_readmes_table_names_no_command_that_does_not_exist() -> None:
    commands = set(_commands(build_parser()))
    groups = {c.split()[0] for c in commands}
    firsts = {cell.split()[0] for cell in _table_cells() if cell}
    assert firsts - groups - {"inspector-app"} == set()


def test_the_readmes_list_of_commands_that_start_a_folder_is_the_parsers() -> None:
    row = next(line for line in README.splitlines()
               if line.startswith("| `inspector-app --data-dir DIR ...` |"))
    listed = row.split("only ", 1)[1].split(" start a new one", 1)[0]
    assert re.findall(r"`([^`]*)`", listed) == folder_starters(build_parser())
    assert SOMETIMES in row


def test_the_contracts_list_is_part_of_it() -> None:
    starters = folder_starters(build_parser())
    assert {"demo", "case import", "parcels import", "shoreline import", "sync join"} <= set(
        starters)
    if CONTRACT.exists():
        text = " ".join(CONTRACT.read_text("utf-8").split())
        said = text.split("store something into a new folder (", 1)[1]
        assert set(re.findall(r"`([^`]*)`", said.split(")", 1)[0])) <= set(starters)


def test_the_missing_folder_message_names_them_all(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from inspector_app.cli import run

    missing = tmp_path / "nowhere"
    assert run(["--data-dir", str(missing), "parcels"]) == 2
    err = capsys.readouterr().err
    for command in folder_starters(build_parser()):
        assert f"`{command}`" in err or f"{command} ROLL.csv" in err, command
    assert not missing.exists()
