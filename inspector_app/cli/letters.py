"""`letters`, `register`, `office` and `wording`: the letters drafted from a case, the
register of issued letters, and the letterhead and wording they are written with."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

from .. import casefile
from .common import (
    CASE_FILE_HELP,
    SBL_HELP,
    Commands,
    Parser,
    input_file,
    iso_date,
    settings_workspace,
    starts_a_folder,
    workspace,
)
from .office_db import add_office_database

LETTER_ID_HELP = ("the letter's id, as `register list` prints it (its first 8 characters are "
                  "enough)")


def add_letters(commands: Commands) -> None:
    letters = commands.add_parser("letters", help="draft the letters a case file calls for, "
                                                  "as PDFs")
    letters.add_argument("file", type=input_file("case file"), metavar="CASE.json",
                         help=CASE_FILE_HELP)
    letters.add_argument("--out", type=Path, required=True, metavar="DIR",
                         help="the folder to write the PDFs in")
    letters.add_argument("--as-of", type=iso_date, metavar="DATE",
                         help="the letters' date and the day to judge as of, YYYY-MM-DD "
                              "(default today)")
    letters.set_defaults(handler=_letters)


def add_register(commands: Commands) -> None:
    reg = commands.add_parser("register", help="the letter register: issue, list, print, "
                                               "reprint")
    reg_sub = reg.add_subparsers(dest="register_command", required=True, parser_class=Parser)
    _add_register_writing(reg_sub)
    reg_list = reg_sub.add_parser("list", help="issued letters, oldest first")
    reg_list.add_argument("sbl", nargs="?", help=f"one parcel's letters (default: all); "
                                                 f"{SBL_HELP}")
    reg_list.set_defaults(handler=_register_list)
    reg_pending = reg_sub.add_parser("pending", help="issued letters not yet printed")
    reg_pending.set_defaults(handler=_register_pending)
    reg_print = reg_sub.add_parser("print", help="all letters waiting to be printed, in one "
                                                 "PDF")
    reg_print.add_argument("--out", type=Path, required=True, metavar="FILE",
                           help="the PDF to write the letters in")
    reg_print.add_argument("--labels", type=Path, metavar="FILE",
                           help="also a sheet of Avery 5160 mailing labels")
    reg_print.set_defaults(handler=_register_print)
    reg_show = reg_sub.add_parser("show", help="write an issued letter's PDF (the same bytes)")
    reg_show.add_argument("letter_id", metavar="LETTER_ID", help=LETTER_ID_HELP)
    reg_show.add_argument("--out", type=Path, required=True, metavar="FILE",
                          help="the PDF to write")
    reg_show.set_defaults(handler=_register_show)
    _add_register_service(reg_sub)


def _add_register_writing(reg_sub: Commands) -> None:
    """`register issue` and `register draft`: the commands that write a letter."""
    from ..documents.content import LETTER_KINDS

    reg_issue = reg_sub.add_parser("issue", help="issue the letters a stored parcel calls for")
    reg_issue.add_argument("sbl", help=SBL_HELP)
    reg_issue.add_argument("--kind", action="extend", nargs="+", choices=LETTER_KINDS,
                           metavar="K",
                           help="issue these kinds (--kind A B or --kind A --kind B; default: "
                                "what the records call for)")
    reg_issue.add_argument("--replaces", metavar="LETTER_ID",
                           help="issue as a correction of this letter")
    reg_issue.add_argument("--as-of", type=iso_date, metavar="DATE",
                           help="the letters' date and the day to judge as of, YYYY-MM-DD "
                                "(default today)")
    reg_issue.set_defaults(handler=_register_issue)
    reg_draft = reg_sub.add_parser("draft", help="a DRAFT of a letter for a stored parcel")
    reg_draft.add_argument("sbl", help=SBL_HELP)
    reg_draft.add_argument("--kind", required=True, choices=LETTER_KINDS,
                           help="the kind of letter")
    reg_draft.add_argument("--out", type=Path, required=True, metavar="FILE",
                           help="the PDF to write")
    reg_draft.add_argument("--as-of", type=iso_date, metavar="DATE",
                           help="the letter's date and the day to judge as of, YYYY-MM-DD "
                                "(default today)")
    reg_draft.set_defaults(handler=_register_draft)


def _add_register_service(reg_sub: Commands) -> None:
    """`register serve`, `register delivered` and `register returned`: what became of an
    issued letter."""
    from ..domain.records import SERVICE_METHODS

    serve = reg_sub.add_parser("serve", help="record how and when an issued letter was served")
    serve.add_argument("letter_id", metavar="LETTER_ID", help=LETTER_ID_HELP)
    serve.add_argument("--method", required=True, choices=SERVICE_METHODS,
                       help="how it was served")
    serve.add_argument("--on", required=True, type=iso_date, metavar="DATE",
                       help="the day it was served, YYYY-MM-DD")
    serve.add_argument("--article", metavar="NUMBER",
                       help="certified mail: the article number")
    serve.add_argument("--to", metavar="NAME", help="hand delivery: to whom")
    serve.add_argument("--where", metavar="PLACE", help="posting: where it was posted")
    serve.set_defaults(handler=_register_serve)
    got = reg_sub.add_parser("delivered", help="record that a served letter's delivery was "
                                               "confirmed (a return receipt)")
    got.add_argument("letter_id", metavar="LETTER_ID", help=LETTER_ID_HELP)
    got.add_argument("--on", required=True, type=iso_date, metavar="DATE",
                     help="the day it was delivered, YYYY-MM-DD (as the return receipt says)")
    got.add_argument("--signed-by", metavar="NAME", help="who signed the return receipt")
    got.set_defaults(handler=_register_delivered)
    back = reg_sub.add_parser("returned", help="record that a mailed letter came back "
                                               "undelivered")
    back.add_argument("letter_id", metavar="LETTER_ID", help=LETTER_ID_HELP)
    back.add_argument("--on", required=True, type=iso_date, metavar="DATE",
                      help="the day it came back, YYYY-MM-DD")
    back.add_argument("--reason", required=True, metavar="WHY",
                      help="why, as the post office marked it (e.g. unclaimed)")
    back.set_defaults(handler=_register_returned)


def _register_serve(args: argparse.Namespace) -> Any:
    from ..services.letters.service import serve

    with workspace(args) as ws:
        return serve(ws, args.letter_id, method=args.method, on=args.on,
                     article=args.article, to=args.to, where=args.where)


def _register_delivered(args: argparse.Namespace) -> Any:
    from ..services.letters.service import delivered

    with workspace(args) as ws:
        return delivered(ws, args.letter_id, on=args.on, signed_by=args.signed_by)


def _register_returned(args: argparse.Namespace) -> Any:
    from ..services.letters.service import returned

    with workspace(args) as ws:
        return returned(ws, args.letter_id, on=args.on, reason=args.reason)


def add_office(commands: Commands) -> None:
    office = commands.add_parser("office", help="the letterhead and signature block in use; "
                                                "the office database on a server")
    office_sub = office.add_subparsers(dest="office_command", required=True,
                                       parser_class=Parser)
    office_sub.add_parser("show", help="the settings in use and where they come from"
                          ).set_defaults(handler=_office_show)
    office_use = office_sub.add_parser("use", help="check an office.toml and make it this "
                                                   "data folder's")
    starts_a_folder(office_use)
    office_use.add_argument("file", type=input_file("office settings file"),
                            help="an office.toml: letterhead and signature block "
                                 "(docs/letters.md)")
    office_use.set_defaults(handler=_office_use)
    add_office_database(office_sub)


def add_wording(commands: Commands) -> None:
    wording = commands.add_parser("wording", help="the letters' wording (templates)")
    wording_sub = wording.add_subparsers(dest="wording_command", required=True,
                                         parser_class=Parser)
    wording_use = wording_sub.add_parser("use", help="check a templates file and make it this "
                                                     "data folder's")
    starts_a_folder(wording_use)
    wording_use.add_argument("file", type=input_file("templates file"),
                             help="a templates.toml: the letters' wording (docs/letters.md)")
    wording_use.set_defaults(handler=_wording_use)


def _letters(args: argparse.Namespace) -> Any:
    from ..paths import UnwritablePath, write_atomically
    from ..services.letters.register import draft_from_case

    today = args.as_of or date.today()
    case = casefile.read_file(args.file, today=today)
    with settings_workspace(args) as ws:
        drafts = draft_from_case(ws, case, as_of=today)
    try:
        args.out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UnwritablePath(args.out, exc, what="folder") from None
    out = []
    stem = case.parcel.sbl.replace("/", "_")
    for kind, pdf in drafts:
        path = args.out / f"{stem}_{kind}.pdf"
        write_atomically(path, pdf)
        out.append({"kind": kind, "path": str(path)})
    return out


def _register_issue(args: argparse.Namespace) -> Any:
    from ..services.letters.register import issue

    with workspace(args) as ws:
        return [x.as_json() for x in issue(ws, args.sbl, args.kind, as_of=args.as_of,
                                           replaces=args.replaces)]


def _register_draft(args: argparse.Namespace) -> Any:
    from ..paths import write_atomically
    from ..services.letters.register import draft_pdf

    with workspace(args) as ws:
        pdf = draft_pdf(ws, args.sbl, args.kind, as_of=args.as_of)
    write_atomically(args.out, pdf)
    return {"kind": args.kind, "path": str(args.out), "draft": True}


def _register_list(args: argparse.Namespace) -> Any:
    from ..services.letters.register import register

    with workspace(args) as ws:
        return register(ws, args.sbl)


def _register_pending(args: argparse.Namespace) -> Any:
    from ..services.letters.register import register

    with workspace(args) as ws:
        return [r for r in register(ws) if r["printed_at"] is None]


def _register_print(args: argparse.Namespace) -> Any:
    from ..services.letters.register import print_batch

    def progress(done: int, total: int) -> None:
        if total >= 50 and (done % 50 == 0 or done == total):
            print(f"print: {done} of {total} letters", file=sys.stderr, flush=True)

    with workspace(args) as ws:
        return print_batch(ws, args.out, labels=args.labels, progress=progress)


def _register_show(args: argparse.Namespace) -> Any:
    from ..paths import write_atomically
    from ..services.letters.service import letter_id_for
    from ..services.letters.stored import stored_pdf

    with workspace(args) as ws:
        letter_id = letter_id_for(ws, args.letter_id)
        pdf = stored_pdf(ws, letter_id)
    write_atomically(args.out, pdf)
    return {"id": letter_id, "path": str(args.out), "bytes": len(pdf)}


def _office_show(args: argparse.Namespace) -> Any:
    from dataclasses import asdict

    from ..services.session.letterhead import office_for

    with workspace(args) as ws:
        return asdict(office_for(ws))


def _install(args: argparse.Namespace, name: str, check: Callable[[Path, Path], Any]) -> Any:
    """Check a settings file, then copy it atomically into the data folder."""
    from ..paths import write_atomically

    check(args.file, args.file.parent)
    from ..services.session.settings_files import publish

    with workspace(args) as ws:
        target = ws.folder.root / name
        check(args.file, ws.folder.root)
        write_atomically(target, args.file.read_bytes())
        publish(ws)  # at an office database, for every desk
    return {"file": str(target)}


def _office_use(args: argparse.Namespace) -> Any:
    from ..documents.templates import load_office
    from ..paths import write_atomically
    from ..services.session.letterhead import OFFICE_FILE

    office = load_office(args.file, base=args.file.parent)
    images = [p for p in (office.logo, office.signature_image) if p is not None]

    def check(path: Path, base: Path) -> Any:
        if base != args.file.parent:  # bring relative images along into the data folder
            for image in images:
                relative = image.relative_to(args.file.parent) if image.is_relative_to(
                    args.file.parent) else None
                if relative is not None:
                    (base / relative).parent.mkdir(parents=True, exist_ok=True)
                    write_atomically(base / relative, image.read_bytes())
        return load_office(path, base=base)

    return _install(args, OFFICE_FILE, check)


def _wording_use(args: argparse.Namespace) -> Any:
    from ..documents.templates import load_wording
    from ..paths import resource
    from ..services.session.letterhead import TEMPLATES_FILE

    bundled = resource("letters", "templates.toml")
    return _install(args, TEMPLATES_FILE,
                    lambda path, base: load_wording(path, later_from=bundled))
