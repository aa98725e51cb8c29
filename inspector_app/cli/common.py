"""What the command groups share: the parser class, the argument types and the data
folder opened for a command."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any, TypeAlias

from ..domain.sbl import SBL_EXAMPLES
from ..errors import InputError
from ..paths import HOME_ENV, readable_file, resolve_data_dir

Handler = Callable[[argparse.Namespace], Any]

# The help of the arguments many commands share, each said once.
SBL_HELP = f"the parcel's tax map number (SBL), in any spelling the county uses: {SBL_EXAMPLES}"
AS_OF_HELP = "the day to judge as of, YYYY-MM-DD (default today)"
CASE_FILE_HELP = ("a case file: JSON in the format watershed-inspector/case/1 "
                  "(docs/case-file.md)")


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # one clear sentence, exit status 2
        self.print_usage(sys.stderr)
        raise InputError(f"{self.prog}: {self._plain(message)}.")

    def _plain(self, message: str) -> str:
        """argparse's message about a missing or unknown command, in the commands' own
        words rather than the parser's internal names for them."""
        for action in self._actions:
            if not isinstance(action, argparse._SubParsersAction):
                continue
            names = list(action.choices)
            listed = f"{', '.join(names[:-1])} or {names[-1]}" if len(names) > 1 else names[0]
            for name in {action.dest, action.metavar} - {None, argparse.SUPPRESS}:
                if message == f"the following arguments are required: {name}":
                    return f"say which command: {listed} (see `{self.prog} --help`)"
                prefix = f"argument {name}: invalid choice: "
                if message.startswith(prefix):
                    given = message[len(prefix):].split(" (choose from")[0]
                    return f"{given} is not a command; the commands are {listed}"
        return message


#: What a command group adds its commands to.
Commands: TypeAlias = "argparse._SubParsersAction[Parser]"


def input_file(what: str) -> Callable[[str], Path]:
    """The type of an argument naming a file the command reads (`what`: "parcel roll",
    "NMEA log"...): checked by `readable_file` as the arguments are read, so that a missing
    or unreadable file, or a folder given for one, is one sentence and exit status 2
    before any data folder is opened or made."""
    def check(text: str) -> Path:
        return readable_file(Path(text).expanduser(), what=what)

    check.__name__ = what
    check.reads = what  # type: ignore[attr-defined]  # how a test finds every such argument
    return check


def iso_date(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a date; write YYYY-MM-DD") from None


def positive_count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 1 <= value <= 100_000:
        raise argparse.ArgumentTypeError(f"{value} is out of range (1 to 100000)")
    return value


def feet(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of feet") from None
    if not 0 <= value <= 100_000:
        raise argparse.ArgumentTypeError(f"{value:g} ft is not plausible (0 to 100000)")
    return value


def _data_dir_named(args: argparse.Namespace) -> str:
    """How the user chose the data folder, in words, for a message about it."""
    if args.data_dir:
        return "--data-dir"
    return HOME_ENV if os.environ.get(HOME_ENV) else "the default data folder"


def starts_a_folder(parser: argparse.ArgumentParser) -> None:
    """Declare that a command stores a first record or sets a folder up (the imports,
    `demo`, the `use` commands, `sync join`): it makes a data folder that does not exist
    yet, where every other command refuses one (`workspace`). The list of such commands
    the messages and the README give is read from these declarations (`folder_starters`)."""
    parser.set_defaults(starts_folder=True)


def folder_starters(parser: argparse.ArgumentParser, words: tuple[str, ...] = ()
                    ) -> list[str]:
    """The commands that start a data folder, as typed ("parcels import"), in the order
    `--help` lists them."""
    found = [" ".join(words)] if words and parser.get_default("starts_folder") else []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found += folder_starters(sub, (*words, name))
    return found


def _check_data_dir(args: argparse.Namespace, root: Path) -> None:
    """Refuse a data folder that is a file, or (unless the command makes one) missing."""
    if root.exists() and not root.is_dir():
        raise InputError(f"The data folder {root} is a file, not a folder; give "
                         f"{_data_dir_named(args)} a folder.")
    if not getattr(args, "starts_folder", False) and not root.exists():
        others = [f"`{c}`" for c in getattr(args, "folder_starters", ()) if c != "parcels import"]
        listed = (f" (or {', '.join(others[:-1])} or {others[-1]})" if len(others) > 1
                  else f" (or {others[0]})" if others else "")
        raise InputError(
            f"There is no data folder {root} (from {_data_dir_named(args)}); check its "
            f"spelling, or start one there with `inspector-app --data-dir {root} parcels "
            f"import ROLL.csv`{listed}.")


def office_database(args: argparse.Namespace) -> str | None:
    """The office database named by --database, else by $INSPECTOR_APP_DATABASE; None for
    the data folder's own file."""
    from ..paths import DATABASE_ENV
    from ..storage.postgres import check_url

    given = getattr(args, "database", None) or os.environ.get(DATABASE_ENV) or None
    return None if given is None else check_url(given)


def desk_folder(args: argparse.Namespace) -> Path:
    """The data folder: with an office database, this desk's own folder for it (its
    settings files and what it keeps of the office's files), named after the database
    unless --data-dir or $INSPECTOR_APP_HOME names one."""
    from ..paths import office_desk_dir

    database = office_database(args)
    if database is None or args.data_dir or os.environ.get(HOME_ENV):
        return resolve_data_dir(args.data_dir)
    return office_desk_dir(database)


def workspace(args: argparse.Namespace) -> Any:
    """The data folder opened for work. A command declared to start a folder
    (`starts_a_folder`) makes one that does not exist yet; the others refuse it, so that a
    mistyped --data-dir is not taken for a new, empty one."""
    from ..paths import UnwritablePath
    from ..services.workspace import Workspace

    database = office_database(args)
    root = desk_folder(args)
    if database is None:
        _check_data_dir(args, root)
    try:
        return Workspace(root, user=args.user, database=database)
    except UnwritablePath:
        raise
    except OSError as exc:
        raise UnwritablePath(root, exc, what="folder") from None


@contextlib.contextmanager
def settings_workspace(args: argparse.Namespace) -> Any:
    """For a command that stores nothing (`letters`, `evaluate CASE.json`): the data
    folder when there is one, else, when none was named, the bundled settings of a new
    folder, made nowhere (saying so when the folder was named)."""
    root = desk_folder(args)
    if root.exists() or office_database(args) is not None:
        with workspace(args) as ws:
            yield ws
        return
    if args.data_dir or os.environ.get(HOME_ENV):
        print(f"Note: there is no data folder {root} (from {_data_dir_named(args)}); the "
              "bundled jurisdiction, wording and office settings were used, and no folder "
              "was created.", file=sys.stderr)
    import tempfile

    from ..services.workspace import Workspace

    with tempfile.TemporaryDirectory(prefix="inspector-app-") as scratch, \
            Workspace(Path(scratch) / "data", user=args.user) as ws:
        yield ws
