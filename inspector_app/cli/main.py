"""The top-level parser, built from the command groups, and the running of a command.

Results go to stdout as one JSON document; errors go to stderr as one sentence with exit
status 2 (bad input) or 1 (anything else).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence

from .. import __version__
from ..errors import InputError, RefusedWithReport
from . import (
    attest,
    cases,
    folder,
    layers,
    letters,
    outside_records,
    parcels,
    reports,
    requests,
    rules,
    sync,
)
from .common import Commands, Handler, Parser, desk_folder, folder_starters, office_database


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="inspector-app",
                    description="Watershed Inspector: on-site wastewater inspections under "
                                "Chapter 202. With no command, opens the app.")
    parser.add_argument("--version", action="version", version=f"inspector-app {__version__}")
    parser.add_argument("--data-dir", metavar="DIR",
                        help="data folder (default: $INSPECTOR_APP_HOME, else the platform's "
                             "user data folder)")
    parser.add_argument("--database", metavar="URL",
                        help="the office database on a PostgreSQL server, e.g. "
                             "postgresql://clerk@officeserver/watershed (default: "
                             "$INSPECTOR_APP_DATABASE; without it, the data folder's own "
                             "file; docs/office-server.md)")
    parser.add_argument("--user", metavar="NAME",
                        help="who is working: recorded on every change, decision and "
                             "letter (1 to 80 characters; default: $INSPECTOR_APP_USER, "
                             "else the login name; the app asks once per data folder)")
    _add_commands(parser.add_subparsers(dest="command", parser_class=Parser,
                                        metavar="COMMAND"))
    parser.set_defaults(folder_starters=tuple(folder_starters(parser)))
    return parser


def _add_commands(commands: Commands) -> None:
    """Every command, in the order `--help` lists them and the messages about a missing or
    mistyped command name them."""
    cases.add_case(commands)
    parcels.add_parcels(commands)
    cases.add_history(commands)
    cases.add_inspection(commands)
    cases.add_attach(commands)
    folder.add_demo(commands)
    rules.add_evaluate(commands)
    rules.add_worklist(commands)
    requests.add_requests(commands)
    rules.add_suggestion(commands)
    rules.add_jurisdiction(commands)
    layers.add_distance(commands)
    layers.add_shoreline(commands)
    layers.add_basemap(commands)
    layers.add_measure(commands)
    layers.add_site(commands)
    layers.add_well_conditions(commands)
    layers.add_gps(commands)
    letters.add_letters(commands)
    reports.add_report(commands)
    outside_records.add_providers(commands)
    outside_records.add_records(commands)
    letters.add_register(commands)
    attest.add_attest(commands)
    letters.add_office(commands)
    letters.add_wording(commands)
    sync.add_sync(commands)
    folder.add_backup(commands)
    folder.add_gui(commands)


_COORDINATE_OPTIONS = ("--lonlat", "--state-plane")


def _attach_coordinates(argv: Sequence[str]) -> list[str]:
    """`--lonlat -77.3,42.8`: a negative longitude is a value, not an option."""
    out: list[str] = []
    args = list(argv)
    i = 0
    while i < len(args):
        if args[i] in _COORDINATE_OPTIONS and i + 1 < len(args) and args[i + 1][:2] in (
                *(f"-{d}" for d in "0123456789"), "-."):
            out.append(f"{args[i]}={args[i + 1]}")
            i += 2
            continue
        out.append(args[i])
        i += 1
    return out


def run(argv: Sequence[str] | None = None) -> int:
    """Run a command; return the exit status. Opens the GUI when no command is given."""
    parser = build_parser()
    try:
        args = parser.parse_args(_attach_coordinates(sys.argv[1:] if argv is None else argv))
        handler: Handler | None = getattr(args, "handler", None)
        if handler is None:
            from ..desktop import open_app

            return open_app(desk_folder(args), user=args.user, database=office_database(args))
        result = handler(args)
    except SystemExit as exc:  # --help and --version
        return int(exc.code or 0)
    except BrokenPipeError:
        return _reader_went_away()
    except RefusedWithReport as exc:
        result, status = exc.report, exc.exit_status
        print(str(exc), file=sys.stderr)
    except InputError as exc:
        print(str(exc), file=sys.stderr)
        return exc.exit_status
    except Exception as exc:
        return _failed(exc)
    else:
        status = 0
    try:
        # One write: `json.dump` would make one per token (a quarter million for the work
        # lists of 20,000 parcels).
        sys.stdout.write(json.dumps(result, ensure_ascii=False, indent=2, default=str) + "\n")
        sys.stdout.flush()
    except BrokenPipeError:
        return _reader_went_away()
    return status


def _failed(exc: Exception) -> int:
    """A command that failed other than on its input: the error's own sentence, or, for an
    error the program did not foresee, one saying so."""
    from ..errors import InspectorError

    if isinstance(exc, InspectorError):
        print(str(exc), file=sys.stderr)
        return exc.exit_status
    print(f"inspector-app failed unexpectedly: {type(exc).__name__}: {exc}. Nothing was "
          "committed by the failed step; please report this with the command you ran.",
          file=sys.stderr)
    return 1


def _reader_went_away() -> int:
    """The program reading the output stopped early (`| head`): stop quietly, with
    nothing more written to the closed pipe, not even when Python flushes it at exit."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass
    return 1
