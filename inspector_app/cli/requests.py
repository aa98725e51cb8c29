"""`requests add|list|cancel`: inspections requested of the office ahead of a date (a
conveyance's closing, a complaint), answered by the parcel's next inspection."""

from __future__ import annotations

import argparse
from typing import Any

from ..domain.requests import REQUEST_REASONS
from .common import AS_OF_HELP, SBL_HELP, Commands, Parser, iso_date, workspace


def add_requests(commands: Commands) -> None:
    requests = commands.add_parser(
        "requests", help="inspections requested ahead of a date (a conveyance's closing, a "
                         "complaint): take one, list them, cancel one withdrawn")
    sub = requests.add_subparsers(dest="requests_command", required=True, parser_class=Parser)
    add = sub.add_parser("add", help="take a request of an inspection of a parcel (office)")
    add.add_argument("sbl", help=SBL_HELP)
    add.add_argument("--reason", required=True, choices=REQUEST_REASONS,
                     help="why the inspection is asked for, in an inspection's own words")
    add.add_argument("--due", required=True, type=iso_date, metavar="DATE",
                     help="the day the inspection is needed by (a closing date), YYYY-MM-DD")
    add.add_argument("--requested-by", metavar="TEXT",
                     help="who asked for it (a name: the buyer's attorney, the neighbour)")
    add.set_defaults(handler=_add)
    listed = sub.add_parser("list", help="the requests by due date (default: the open ones)")
    which = listed.add_mutually_exclusive_group()
    which.add_argument("--open", dest="which", action="store_const", const="open",
                       help="only the open requests (the default)")
    which.add_argument("--all", dest="which", action="store_const", const="all",
                       help="every request, with the inspection that answered it or its "
                            "cancellation")
    listed.add_argument("--sbl", help=SBL_HELP)
    listed.add_argument("--as-of", type=iso_date, metavar="DATE", help=AS_OF_HELP)
    listed.set_defaults(handler=_list, which="open")
    cancel = sub.add_parser("cancel", help="record a request withdrawn (the closing fell "
                                           "through, the complaint was withdrawn); office")
    cancel.add_argument("id", help="the request's id, as `requests list` shows it")
    cancel.add_argument("--reason", required=True, metavar="TEXT",
                        help="why it was withdrawn, in words")
    cancel.set_defaults(handler=_cancel)


def _add(args: argparse.Namespace) -> Any:
    from ..services.parcel.requests import add_request

    with workspace(args) as ws:
        return add_request(ws, args.sbl, reason=args.reason, due=args.due,
                           requested_by=args.requested_by)


def _list(args: argparse.Namespace) -> Any:
    from ..services.parcel.requests import list_requests

    with workspace(args) as ws:
        return list_requests(ws, which=args.which, sbl=args.sbl, as_of=args.as_of)


def _cancel(args: argparse.Namespace) -> Any:
    from ..services.parcel.requests import cancel_request

    with workspace(args) as ws:
        return cancel_request(ws, args.id, reason=args.reason)
