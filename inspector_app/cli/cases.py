"""`case import|export`, `history`, `attach`, `attachments`, `annotate` and `photo`: one
parcel's case, its change log and its attachments."""

from __future__ import annotations

import argparse
from datetime import date
from pathlib import Path
from typing import Any

from .. import casefile
from ..errors import InputError
from .common import (
    CASE_FILE_HELP,
    SBL_HELP,
    Commands,
    Parser,
    input_file,
    iso_date,
    positive_count,
    starts_a_folder,
    workspace,
)


def add_case(commands: Commands) -> None:
    case = commands.add_parser("case", help="import or export one case file")
    case_sub = case.add_subparsers(dest="case_command", required=True, parser_class=Parser)
    imp = case_sub.add_parser("import", help="store a case through the normal edit path")
    starts_a_folder(imp)
    imp.add_argument("file", type=input_file("case file"), help=CASE_FILE_HELP)
    imp.add_argument("--as-of", type=iso_date, metavar="DATE",
                     help="the day taken as today, YYYY-MM-DD (default today): a date in the "
                          "case after it is refused")
    imp.set_defaults(handler=_case_import)
    exp = case_sub.add_parser("export", help="print the stored case of a parcel")
    exp.add_argument("sbl", help=SBL_HELP)
    exp.set_defaults(handler=_case_export)


def add_history(commands: Commands) -> None:
    history = commands.add_parser("history", help="every change to a parcel: who, when, "
                                                  "old -> new")
    history.add_argument("sbl", help=SBL_HELP)
    history.set_defaults(handler=_history)


def add_inspection(commands: Commands) -> None:
    inspection = commands.add_parser(
        "inspection", help="a parcel's inspections: list, mark one entered in error, undo")
    sub = inspection.add_subparsers(dest="inspection_command", required=True,
                                    parser_class=Parser)
    listed = sub.add_parser("list", help="every inspection of a parcel, with its id")
    listed.add_argument("sbl", help=SBL_HELP)
    listed.set_defaults(handler=_inspection_list)
    void = sub.add_parser("entered-in-error",
                          help="(office) mark an inspection entered in error: it stays on "
                               "record and counts no more")
    void.add_argument("sbl", help=SBL_HELP)
    void.add_argument("inspection_id", metavar="INSPECTION_ID",
                      help="the inspection's id, as `inspection list SBL` prints it")
    void.add_argument("--reason", required=True, help="why it was entered in error")
    void.add_argument("--as-of", type=iso_date, metavar="DATE",
                      help="the day the mark is recorded as made, YYYY-MM-DD (default today)")
    void.set_defaults(handler=_inspection_void)
    restore = sub.add_parser("restore", help="(office) undo the mark: the inspection counts "
                                             "again")
    restore.add_argument("sbl", help=SBL_HELP)
    restore.add_argument("inspection_id", metavar="INSPECTION_ID",
                      help="the inspection's id, as `inspection list SBL` prints it")
    restore.set_defaults(handler=_inspection_restore)


def _inspection_list(args: argparse.Namespace) -> Any:
    from ..services.parcel import inspections

    with workspace(args) as ws:
        return inspections.listed(ws, args.sbl)


def _inspection_void(args: argparse.Namespace) -> Any:
    from ..services.parcel import inspections

    with workspace(args) as ws:
        return inspections.mark_entered_in_error(ws, args.sbl, args.inspection_id,
                                                 reason=args.reason, on=args.as_of)


def _inspection_restore(args: argparse.Namespace) -> Any:
    from ..services.parcel import inspections

    with workspace(args) as ws:
        return inspections.restore(ws, args.sbl, args.inspection_id)


def add_attach(commands: Commands) -> None:
    attach = commands.add_parser("attach", help="attach a photo or document to a parcel")
    attach.add_argument("sbl", help=SBL_HELP)
    attach.add_argument("file", type=input_file("attachment"),
                        help="the photo or document, any kind of file (stored by its SHA-256)")
    attach.add_argument("--caption", metavar="TEXT", help="what it shows, kept with it")
    attach.add_argument("--inspection", metavar="ID",
                        help="the inspection it was taken at (its id, as `inspections SBL` "
                             "lists it)")
    attach.add_argument("--component", metavar="KIND#N",
                        help="the component it shows, as the site map names it: "
                             "septic_tank#1 (the case's first septic tank)")
    attach.set_defaults(handler=_attach)
    listed = commands.add_parser("attachments", help="list a parcel's photos and documents, "
                                 "with their component, camera time and position, and marks")
    listed.add_argument("sbl", help=SBL_HELP)
    listed.set_defaults(handler=_attachments)
    annotate = commands.add_parser(
        "annotate", help="mark a photo with arrows, circles and words, drawn over it "
        "wherever it is shown or printed (the photo's file is never changed)")
    annotate.add_argument("sbl", help=SBL_HELP)
    annotate.add_argument("attachment_id", metavar="ATTACHMENT_ID",
                          help="the photo, as `attachments SBL` lists it")
    annotate.add_argument("--arrow", dest="marks", action="append", default=[],
                          type=_marked("arrow"), metavar="X1,Y1,X2,Y2",
                          help="an arrow from X1,Y1 pointing at X2,Y2 (pixels of the "
                               "upright photo, 0,0 at its top left); repeatable")
    annotate.add_argument("--circle", dest="marks", action="append", default=[],
                          type=_marked("circle"), metavar="X,Y,R",
                          help="a circle about X,Y of radius R pixels; repeatable")
    annotate.add_argument("--text", dest="marks", action="append", default=[],
                          type=_marked("text"), metavar="X,Y,WORDS",
                          help="words with their top left corner at X,Y; repeatable")
    annotate.add_argument("--clear", action="store_true",
                          help="remove the photo's marks first")
    annotate.set_defaults(handler=_annotate)
    photo = commands.add_parser("photo", help="write a photo as it is shown and printed: "
                                "upright, with its marks (a JPEG)")
    photo.add_argument("sbl", help=SBL_HELP)
    photo.add_argument("attachment_id", metavar="ATTACHMENT_ID",
                       help="the photo, as `attachments SBL` lists it")
    photo.add_argument("--out", type=Path, required=True, metavar="FILE",
                       help="the JPEG to write")
    photo.add_argument("--size", type=positive_count, default=1600, metavar="PX",
                       help="its longer side at most, in pixels (default 1600, at most "
                            "4000)")
    photo.set_defaults(handler=_photo)


def _case_import(args: argparse.Namespace) -> Any:
    today = args.as_of or date.today()
    case = casefile.read_file(args.file, today=today)
    with workspace(args) as ws:
        result = ws.save_case(case, today=today)
    out: dict[str, Any] = {"sbl": result.sbl, "created": result.created}
    if result.proposed:
        # a parcel not on this laptop's roll: the office decides whether it joins the roll
        out["proposed"] = True
        out["note"] = ("This parcel is not on this laptop's roll: it goes to the office as a "
                       "proposal with the next sync package; the office adds it to the roll "
                       "or rejects it.")
    return out


def _case_export(args: argparse.Namespace) -> Any:
    with workspace(args) as ws:
        return casefile.to_document(ws.load_case(args.sbl))


def _history(args: argparse.Namespace) -> Any:
    from ..storage.records import from_sql_text

    with workspace(args) as ws:
        rows = ws.history(args.sbl)
    for row in rows:  # lists and objects stored as JSON text are shown as JSON values
        for key in ("old_value", "new_value"):
            value = row[key]
            row[key] = ({k: from_sql_text(v) for k, v in value.items()}
                        if isinstance(value, dict) else from_sql_text(value))
    return rows


def _attach(args: argparse.Namespace) -> Any:
    with workspace(args) as ws:
        return ws.add_attachment(args.sbl, args.file, caption=args.caption,
                                 inspection=args.inspection, component=args.component)


def _attachments(args: argparse.Namespace) -> Any:
    with workspace(args) as ws:
        return ws.attachments(args.sbl)


def _marked(kind: str) -> Any:
    """The option's value as its mark's line (`domain/annotations.py`): `--arrow 1,2,3,4`
    is "arrow 1 2 3 4"; the marks keep the order they are given in."""
    count, form = {"arrow": (4, "X1,Y1,X2,Y2"), "circle": (3, "X,Y,R"),
                   "text": (2, "X,Y,WORDS")}[kind]

    def line(value: str) -> str:
        parts = [p.strip() for p in value.split(",", count if kind == "text" else -1)]
        if len(parts) != (count + 1 if kind == "text" else count):
            raise InputError(f"--{kind} {value!r}: give {form} (pixels of the upright "
                             "photo); nothing was changed.")
        return " ".join([kind, *parts])
    return line


def _annotate(args: argparse.Namespace) -> Any:
    marks = list(args.marks)
    if not marks and not args.clear:
        raise InputError("Give a mark (--arrow, --circle or --text) or --clear; nothing was "
                         "changed.")
    with workspace(args) as ws:
        return ws.annotate_photo(args.sbl, args.attachment_id, marks, clear=args.clear)


def _photo(args: argparse.Namespace) -> Any:
    from ..paths import write_atomically

    with workspace(args) as ws:
        data = ws.shown_photo(args.sbl, args.attachment_id, side_px=args.size)
    write_atomically(args.out, data)
    return {"path": str(args.out), "bytes": len(data)}
