"""`report program|export`: the inspection program's reports for the Watershed
Commission."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..errors import InputError
from .common import Commands, Parser, iso_date, workspace


def add_report(commands: Commands) -> None:
    report = commands.add_parser("report", help="the inspection program's reports for the "
                                                "Watershed Commission")
    report_sub = report.add_subparsers(dest="report_command", required=True,
                                       parser_class=Parser)
    program = report_sub.add_parser("program", help="tallies, charts, the lake map and the "
                                                    "open matters of a period, as PDF")
    export = report_sub.add_parser("export", help="one row per inspection of a period, as "
                                                  "CSV or Excel (.xlsx), or the systems "
                                                  "inspected as GIS layers (GeoPackage)")
    for command in (program, export):
        _add_period(command)
    program.add_argument("--out", type=Path, metavar="FILE.pdf",
                         help="write the PDF here (required unless --json)")
    program.add_argument("--json", action="store_true",
                         help="print the report's figures (the tallies the PDF shows)")
    program.set_defaults(handler=_report_program)
    export.add_argument("--out", type=Path, required=True,
                        metavar="FILE.csv|FILE.xlsx|FILE.gpkg",
                        help="the file to write: CSV, Excel or GeoPackage, by its suffix")
    export.add_argument("--format", metavar="csv|xlsx|gpkg",
                        help="the format (default: the --out file's suffix, which must agree)")
    export.add_argument("--public", action="store_true",
                        help="leave out the owners' and renters' names, mailing addresses, "
                             "phones and e-mails (the GeoPackage's parcels layer)")
    export.set_defaults(handler=_report_export)


def _add_period(command: argparse.ArgumentParser) -> None:
    """The options both reports take: the period, the municipalities, and today."""
    command.add_argument("--from", dest="start", type=iso_date, required=True,
                         metavar="DATE", help="the period's first day, YYYY-MM-DD")
    command.add_argument("--to", dest="end", type=iso_date, required=True, metavar="DATE",
                         help="the period's last day (included), YYYY-MM-DD")
    command.add_argument("--municipality", action="append", metavar="NAME",
                         help="only this municipality (repeat for several; default: all)")
    command.add_argument("--as-of", type=iso_date, metavar="DATE",
                         help="the day taken as today, YYYY-MM-DD, for the check that the "
                              "period has passed (default: the clock's date)")


def _report_progress(what: str) -> Any:
    def progress(done: int, total: int) -> None:
        if total >= 500 and (done % 500 == 0 or done == total):
            print(f"{what}: {done} of {total} parcels", file=sys.stderr, flush=True)
    return progress


def _report_program(args: argparse.Namespace) -> Any:
    from ..paths import write_atomically
    from ..services.lists.program_report import program_report, program_report_pdf

    if args.out is None and not args.json:
        raise InputError("report program needs --out FILE.pdf, or --json to print the "
                         "figures.")
    if args.out is not None and args.out.suffix.lower() != ".pdf":
        raise InputError(f"--out {args.out}: the report is a PDF; give a file ending in .pdf.")
    with workspace(args) as ws:
        report = program_report(ws, args.start, args.end, municipalities=args.municipality,
                                as_of=args.as_of, progress=_report_progress("report"))
        pdf = None if args.out is None else program_report_pdf(ws, report)
    if pdf is not None:
        write_atomically(args.out, pdf)
    if args.json:
        return {**report.figures, **({} if args.out is None else {"path": str(args.out)})}
    totals = report.figures["totals"]
    return {"path": str(args.out), "from": report.figures["from"], "to": report.figures["to"],
            "municipalities": report.figures["municipalities"],
            "inspections": totals["inspections"],
            "open_matters": len(report.figures["open_matters"])}


def _report_export(args: argparse.Namespace) -> Any:
    from ..services.lists.exports import export_format, export_inspections

    chosen = export_format(args.out, args.format)
    with workspace(args) as ws:
        return export_inspections(ws, args.start, args.end, args.out, format=chosen,
                                  public=args.public,
                                  municipalities=args.municipality, as_of=args.as_of,
                                  progress=_report_progress("export"))
