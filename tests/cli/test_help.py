"""Every option and argument of every command says what it takes: a help text, with the
format of a date and the unit of a distance, and every command's --help renders."""

from __future__ import annotations

import argparse
from collections.abc import Iterator

from inspector_app.cli.common import iso_date
from inspector_app.cli.main import build_parser


def _walk(parser: argparse.ArgumentParser, words: tuple[str, ...] = ()
          ) -> Iterator[tuple[tuple[str, ...], argparse.ArgumentParser, argparse.Action]]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _walk(sub, (*words, name))
        else:
            yield words, parser, action


def _name(words: tuple[str, ...], action: argparse.Action) -> str:
    return f"{' '.join(words) or 'inspector-app'} {'/'.join(action.option_strings) or action.dest}"


ARGUMENTS = [(words, action) for words, _, action in _walk(build_parser())
             if not isinstance(action, argparse._HelpAction | argparse._VersionAction)]


def test_the_walk_finds_the_commands() -> None:
    names = {_name(words, action) for words, action in ARGUMENTS}
    assert {"inspector-app --data-dir", "distance --accuracy-ft", "worklist --as-of",
            "sync resolve conflict_id", "suggestion key"} <= names
    assert len(ARGUMENTS) > 140


def test_every_option_and_argument_has_help() -> None:
    missing = [_name(words, action) for words, action in ARGUMENTS
               if not (action.help or "").strip() or action.help == argparse.SUPPRESS]
    assert missing == []


def test_every_date_says_its_format() -> None:
    unsaid = [_name(words, action) for words, action in ARGUMENTS
              if action.type is iso_date and "YYYY-MM-DD" not in f"{action.help} {action.metavar}"]
    assert unsaid == []


def test_every_distance_says_its_unit() -> None:
    unsaid = [_name(words, action) for words, action in ARGUMENTS
              if any(o.endswith("-ft") for o in action.option_strings)
              and not any(unit in (action.help or "") for unit in (" feet", " ft"))]
    assert unsaid == []


def test_every_as_of_says_what_day_it_fixes_and_its_default() -> None:
    for words, action in ARGUMENTS:
        if "--as-of" in action.option_strings:
            assert "default" in (action.help or "") and "day" in (action.help or ""), (
                _name(words, action))


def test_the_areas_of_distance_are_said_to_be_geojson_only() -> None:
    helps = {_name(words, action): action.help or "" for words, action in ARGUMENTS}
    assert "GeoJSON only" in helps["distance --area"]
    assert "GeoJSON FeatureCollection only" in helps["distance --areas"]
    assert "evaluate --sbl SBL" in helps["suggestion key"]


def test_every_commands_help_renders() -> None:
    seen = set()
    for words, parser, _ in _walk(build_parser()):
        if words not in seen:
            seen.add(words)
            assert parser.format_help().strip(), words
