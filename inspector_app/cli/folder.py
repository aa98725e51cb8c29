"""`demo`, `backup` and `gui`: the data folder as a whole."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .common import Commands, iso_date, positive_count, starts_a_folder, workspace


def add_demo(commands: Commands) -> None:
    demo = commands.add_parser("demo", help="fill the data folder with demo parcels")
    starts_a_folder(demo)
    demo.add_argument("--parcels", type=positive_count, default=None, metavar="N",
                      help="how many parcels, 1 to 100000 (default about forty)")
    demo.add_argument("--as-of", type=iso_date, metavar="DATE",
                      help="the day the demo's records are made up to, YYYY-MM-DD (default "
                           "today)")
    demo.set_defaults(handler=_demo)


def add_backup(commands: Commands) -> None:
    backup = commands.add_parser("backup", help="write a backup of the database now")
    backup.set_defaults(handler=_backup)


def add_gui(commands: Commands) -> None:
    gui = commands.add_parser("gui", help="open the app (the same as no command)")
    gui.set_defaults(handler=None)


def _demo(args: argparse.Namespace) -> Any:
    from ..services.demo.parcels import DEFAULT_COUNT, install_demo

    count = args.parcels or DEFAULT_COUNT

    def progress(done: int, total: int) -> None:
        if total >= 1000:
            print(f"demo: {done} of {total} parcels", file=sys.stderr, flush=True)

    with workspace(args) as ws:
        return install_demo(ws, count=count, today=args.as_of, progress=progress)


def _backup(args: argparse.Namespace) -> Any:
    with workspace(args) as ws:
        return {"path": str(ws.store.backup_now())}
