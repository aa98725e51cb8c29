"""`office init`, `office import-folder`, `office user add`: the office database on a
PostgreSQL server (docs/office-server.md)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..errors import InputError
from .common import Parser, desk_folder, office_database


def add_office_database(office_sub: Any) -> None:
    init = office_sub.add_parser(
        "init", help="make an empty office database on a PostgreSQL server (with --database)")
    init.set_defaults(handler=_init)
    copy = office_sub.add_parser(
        "import-folder", help="copy a data folder's records into an empty office database")
    copy.add_argument("folder", metavar="DATA_DIR",
                      help="the data folder to copy (left unchanged)")
    copy.set_defaults(handler=_import_folder)
    user = office_sub.add_parser("user", help="the people who log in to the office database")
    user_sub = user.add_subparsers(dest="user_command", required=True, parser_class=Parser)
    add = user_sub.add_parser("add", help="a login for a person, with what it may do")
    add.add_argument("name", metavar="NAME", help="the login name (e.g. jhaldane)")
    add.add_argument("--role", required=True, choices=("office", "inspector", "town"),
                     help="office: everything; inspector: inspections, site, decisions and "
                          "drafts, not the roll or the register; town: reads its "
                          "municipality's parcels, inspections and letters, writes nothing")
    add.add_argument("--municipality", metavar="NAME",
                     help="for a town's login: the municipality whose records it reads")
    add.add_argument("--full-name", metavar="TEXT",
                     help="the person's name, as changes and letters record them "
                          "(default: the login)")
    add.add_argument("--password-stdin", action="store_true",
                     help="read the login's password from the first line of standard input "
                          "(else the server's own authentication applies)")
    add.set_defaults(handler=_user_add)


def _needs_database(args: argparse.Namespace) -> str:
    database = office_database(args)
    if database is None:
        raise InputError(f"`office {args.office_command}` works on an office database: give "
                         "--database postgresql://USER@SERVER/DATABASE (or set "
                         "INSPECTOR_APP_DATABASE).")
    return database


def _init(args: argparse.Namespace) -> Any:
    from ..services.office.database import init_office

    return init_office(_needs_database(args), desk_folder(args), user=args.user)


def _import_folder(args: argparse.Namespace) -> Any:
    from ..services.office.copy import import_folder

    return import_folder(_needs_database(args), args.folder)


def _user_add(args: argparse.Namespace) -> Any:
    from ..services.office.database import add_user

    password = None
    if args.password_stdin:
        line = sys.stdin.readline().rstrip("\r\n")
        if not line:
            raise InputError("--password-stdin was given but standard input held no "
                             "password; nothing was changed.")
        password = line
    full_name = args.full_name.strip() if args.full_name else None
    if full_name is not None and not 1 <= len(full_name) <= 80:
        raise InputError("--full-name takes 1 to 80 characters.")
    return add_user(_needs_database(args), args.name, role=args.role,
                    municipality=args.municipality, full_name=full_name, password=password)
