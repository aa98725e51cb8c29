"""The command line: the headless twin of the GUI, per the public CLI contract, version 1.

Results go to stdout as one JSON document; errors go to stderr as one sentence with exit
status 2 (bad input) or 1 (anything else). Input is checked before the data folder is
opened, so a refused command leaves nothing behind.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Callable, Sequence
from datetime import date
from pathlib import Path
from typing import Any

from . import __version__, casefile
from .errors import InputError
from .paths import HOME_ENV, resolve_data_dir

Handler = Callable[[argparse.Namespace], Any]


def _as_of(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a date; write YYYY-MM-DD") from None


def _positive_count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 1 <= value <= 100_000:
        raise argparse.ArgumentTypeError(f"{value} is out of range (1 to 100000)")
    return value


def _feet(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of feet") from None
    if not 0 <= value <= 100_000:
        raise argparse.ArgumentTypeError(f"{value:g} ft is not plausible (0 to 100000)")
    return value


class _Parser(argparse.ArgumentParser):
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


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="inspector-app",
                     description="Watershed Inspector: on-site wastewater inspections under "
                                 "Chapter 202. With no command, opens the app.")
    parser.add_argument("--version", action="version", version=f"inspector-app {__version__}")
    parser.add_argument("--data-dir", metavar="DIR",
                        help="data folder (default: $INSPECTOR_APP_HOME, else the platform's "
                             "user data folder)")
    parser.add_argument("--user", metavar="NAME",
                        help="who is making changes (default: $INSPECTOR_APP_USER, else the "
                             "login name)")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser, metavar="COMMAND")

    case = sub.add_parser("case", help="import or export one case file")
    case_sub = case.add_subparsers(dest="case_command", required=True, parser_class=_Parser)
    imp = case_sub.add_parser("import", help="store a case through the normal edit path")
    imp.add_argument("file", type=Path)
    imp.add_argument("--as-of", type=_as_of, metavar="DATE")
    imp.set_defaults(handler=_case_import)
    exp = case_sub.add_parser("export", help="print the stored case of a parcel")
    exp.add_argument("sbl")
    exp.set_defaults(handler=_case_export)

    parcels = sub.add_parser("parcels", help="list parcels, or import the parcel roll")
    parcels.set_defaults(handler=_parcels)
    parcels_sub = parcels.add_subparsers(dest="parcels_command", parser_class=_Parser)
    roll = parcels_sub.add_parser("import", help="import the office's parcel roll (CSV)")
    roll.add_argument("file", type=Path)
    roll.set_defaults(handler=_parcels_import)
    lines = parcels_sub.add_parser("import-lines", help="import the county's tax-parcel "
                                   "polygons (lot lines), matched to the parcels by SBL")
    lines.add_argument("file", type=Path)
    lines.add_argument("--sbl-field", metavar="NAME",
                       help="the field holding the tax map numbers (default: guessed)")
    lines.add_argument("--name", help="the layer's name (default: from the file's name)")
    lines.add_argument("--accuracy-ft", type=_feet, default=None, metavar="N",
                       help="the lines' accuracy (default: 10 ft, a county tax map)")
    lines.add_argument("--source", help="where the file comes from (default: its name)")
    lines.set_defaults(handler=_parcels_import_lines)
    parcels_sub.add_parser("lines", help="every lot layer, the active one marked"
                           ).set_defaults(handler=_parcels_lines)
    lines_use = parcels_sub.add_parser("lines-use", help="make a lot layer the active one")
    lines_use.add_argument("layer", metavar="NAME|ID")
    lines_use.set_defaults(handler=_parcels_lines_use)

    history = sub.add_parser("history", help="every change to a parcel: who, when, old -> new")
    history.add_argument("sbl")
    history.set_defaults(handler=_history)

    attach = sub.add_parser("attach", help="attach a photo or document to a parcel")
    attach.add_argument("sbl")
    attach.add_argument("file", type=Path)
    attach.add_argument("--caption")
    attach.set_defaults(handler=_attach)

    demo = sub.add_parser("demo", help="fill the data folder with demo parcels")
    demo.add_argument("--parcels", type=_positive_count, default=None, metavar="N")
    demo.add_argument("--as-of", type=_as_of, metavar="DATE")
    demo.set_defaults(handler=_demo)

    evaluate = sub.add_parser("evaluate", help="apply the jurisdiction's rules to a case")
    evaluate.add_argument("file", type=Path, nargs="?", metavar="CASE.json")
    evaluate.add_argument("--sbl", help="evaluate the stored parcel instead of a case file")
    evaluate.add_argument("--as-of", type=_as_of, metavar="DATE")
    evaluate.set_defaults(handler=_evaluate)

    from .services.lists.worklists import WORKLISTS

    worklist = sub.add_parser("worklist", help="parcels needing attention, as of a date")
    worklist.add_argument("name", nargs="?", choices=WORKLISTS)
    worklist.add_argument("--as-of", type=_as_of, metavar="DATE")
    worklist.set_defaults(handler=_worklist)

    suggestion = sub.add_parser("suggestion", help="accept or reject a suggested finding")
    suggestion.add_argument("decision", choices=("accept", "reject"))
    suggestion.add_argument("sbl")
    suggestion.add_argument("key")
    suggestion.add_argument("--note")
    suggestion.add_argument("--as-of", type=_as_of, metavar="DATE")
    suggestion.set_defaults(handler=_suggestion)

    juris = sub.add_parser("jurisdiction", help="list, show, check or add the jurisdiction "
                                                "files (one law per municipality)")
    juris_sub = juris.add_subparsers(dest="jurisdiction_command", required=True,
                                     parser_class=_Parser)
    juris_sub.add_parser("list", help="every jurisdiction file in force and the "
                                      "municipalities it covers"
                         ).set_defaults(handler=_jurisdiction_list)
    show = juris_sub.add_parser("show", help="the rules' numbers and citations in force")
    show.add_argument("--municipality", metavar="NAME",
                      help="the law of this municipality (default: the Town of Canandaigua's)")
    show.set_defaults(handler=_jurisdiction_show)
    check = juris_sub.add_parser("check", help="check a jurisdiction file without using it")
    check.add_argument("file", type=Path)
    check.set_defaults(handler=_jurisdiction_check)
    use = juris_sub.add_parser("use", help="check a jurisdiction file and add it to this data "
                                           "folder (replacing the one with its id)")
    use.add_argument("file", type=Path)
    use.set_defaults(handler=_jurisdiction_use)

    distance = sub.add_parser("distance", help="distance from an area to a shoreline, in feet")
    distance.add_argument("--shoreline", type=Path, required=True, metavar="FILE")
    areas = distance.add_mutually_exclusive_group(required=True)
    areas.add_argument("--area", type=Path, metavar="FILE")
    areas.add_argument("--areas", type=Path, metavar="FILE")
    distance.add_argument("--accuracy-ft", type=_feet, default=None, metavar="N",
                          help="the shoreline's accuracy (default: what the file declares, "
                               "else 0 ft, said in the result)")
    distance.set_defaults(handler=_distance)

    shoreline = sub.add_parser("shoreline", help="the data folder's shoreline layers")
    shoreline_sub = shoreline.add_subparsers(dest="shoreline_command", required=True,
                                             parser_class=_Parser)
    shoreline_import = shoreline_sub.add_parser("import", help="store a layer and make it "
                                                               "active")
    shoreline_import.add_argument("file", type=Path)
    shoreline_import.add_argument("--name", required=True)
    shoreline_import.add_argument("--accuracy-ft", type=_feet, required=True, metavar="N")
    shoreline_import.add_argument("--source")
    shoreline_import.set_defaults(handler=_shoreline_import)
    shoreline_sub.add_parser("list", help="every layer, the active one marked"
                             ).set_defaults(handler=_shoreline_list)

    basemap = sub.add_parser("basemap", help="offline aerial imagery under the site map")
    basemap_sub = basemap.add_subparsers(dest="basemap_command", required=True,
                                         parser_class=_Parser)
    basemap_import = basemap_sub.add_parser(
        "import", help="store a GeoTIFF, a JPEG/PNG with world file and .prj, or an MBTiles "
                       "file and make it the active basemap")
    basemap_import.add_argument("file", type=Path)
    basemap_import.add_argument("--name", required=True)
    storage = basemap_import.add_mutually_exclusive_group()
    storage.add_argument("--copy", dest="copy", action="store_true", default=True,
                         help="keep a copy in the data folder (the default)")
    storage.add_argument("--reference", dest="copy", action="store_false",
                         help="keep only the file's path; it must stay where it is")
    basemap_import.add_argument("--source", help="who made the imagery (default: the file's "
                                                 "name)")
    basemap_import.add_argument("--date", type=_as_of, metavar="YYYY-MM-DD",
                                help="the date the imagery was captured")
    basemap_import.set_defaults(handler=_basemap_import)
    basemap_sub.add_parser("list", help="every basemap, the active one marked, and the "
                                        "imagery settings").set_defaults(handler=_basemap_list)
    basemap_use = basemap_sub.add_parser("use", help="make a basemap the active one")
    basemap_use.add_argument("basemap", metavar="NAME|ID")
    basemap_use.set_defaults(handler=_basemap_use)
    basemap_sub.add_parser("off", help="show no imagery").set_defaults(handler=_basemap_off)
    basemap_settings = basemap_sub.add_parser(
        "settings", help="the office's imagery settings: show them, or change them")
    basemap_settings.add_argument("--kit-radius-ft", metavar="N",
                                  help="imagery carried around each assigned parcel in a "
                                       "field kit (default 1000 ft)")
    basemap_settings.add_argument("--report-imagery", choices=("on", "off"),
                                  help="show the imagery in the report of findings' sketch")
    basemap_settings.set_defaults(handler=_basemap_settings)

    measure = sub.add_parser("measure", help="measure parcels on the active shoreline layer "
                                             "and keep the measurements")
    measure.add_argument("sbl", nargs="*")
    measure.add_argument("--as-of", type=_as_of, metavar="DATE")
    measure.set_defaults(handler=_measure)

    site = sub.add_parser("site", help="record where a site feature or component is")
    site.add_argument("sbl")
    site.add_argument("target", metavar="KIND",
                      help="absorption_area, holding_tank, well, watercourse, dwelling, "
                           "property_line, water_service_line, other, or component:KIND[#N]")
    how = site.add_mutually_exclusive_group(required=True)
    how.add_argument("--lonlat", metavar="PAIRS", help="typed longitude,latitude pairs")
    how.add_argument("--state-plane", metavar="PAIRS",
                     help="easting,northing pairs off a survey plan (EPSG:2261, US ft)")
    how.add_argument("--file", type=Path, help="a GeoJSON, Shapefile or GeoPackage file")
    how.add_argument("--gps", type=Path, nargs="+", metavar="LOG",
                     help="NMEA 0183 logs: each is averaged into one point or corner")
    how.add_argument("--gps-device", metavar="PORT", help="a serial GPS, e.g. /dev/ttyUSB0")
    site.add_argument("--seconds", type=float, default=10.0,
                      help="how long to average a GPS device (default 10)")
    site.add_argument("--baud", type=int, default=4800)
    site.add_argument("--accuracy-ft", type=_feet, metavar="N",
                      help="capture accuracy (default: estimated from GPS, else not recorded)")
    site.add_argument("--note")
    site.add_argument("--as-of", type=_as_of, metavar="DATE")
    site.set_defaults(handler=_site)

    gps = sub.add_parser("gps", help="average an NMEA log or a GPS device into one position")
    gps_source = gps.add_mutually_exclusive_group(required=True)
    gps_source.add_argument("--log", type=Path)
    gps_source.add_argument("--device", metavar="PORT")
    gps.add_argument("--seconds", type=float, default=10.0)
    gps.add_argument("--baud", type=int, default=4800)
    gps.set_defaults(handler=_gps)

    letters = sub.add_parser("letters", help="draft the letters a case file calls for, as PDFs")
    letters.add_argument("file", type=Path, metavar="CASE.json")
    letters.add_argument("--out", type=Path, required=True, metavar="DIR")
    letters.add_argument("--as-of", type=_as_of, metavar="DATE")
    letters.set_defaults(handler=_letters)

    report = sub.add_parser("report", help="the inspection program's reports for the "
                                           "Watershed Commission")
    report_sub = report.add_subparsers(dest="report_command", required=True,
                                       parser_class=_Parser)
    program = report_sub.add_parser("program", help="tallies, charts, the lake map and the "
                                                    "open matters of a period, as PDF")
    export = report_sub.add_parser("export", help="one row per inspection of a period, as "
                                                  "CSV or Excel (.xlsx)")
    for command in (program, export):
        command.add_argument("--from", dest="start", type=_as_of, required=True,
                             metavar="DATE", help="the period's first day")
        command.add_argument("--to", dest="end", type=_as_of, required=True, metavar="DATE",
                             help="the period's last day (included)")
        command.add_argument("--municipality", action="append", metavar="NAME",
                             help="only this municipality (repeat for several; default: all)")
        command.add_argument("--as-of", type=_as_of, metavar="DATE",
                             help="today, for the check that the period has passed "
                                  "(default: the clock's date)")
    program.add_argument("--out", type=Path, metavar="FILE.pdf",
                         help="write the PDF here (required unless --json)")
    program.add_argument("--json", action="store_true",
                         help="print the report's figures (the tallies the PDF shows)")
    program.set_defaults(handler=_report_program)
    export.add_argument("--out", type=Path, required=True, metavar="FILE.csv|FILE.xlsx")
    export.set_defaults(handler=_report_export)

    from .documents.content import LETTER_KINDS

    reg = sub.add_parser("register", help="the letter register: issue, list, print, reprint")
    reg_sub = reg.add_subparsers(dest="register_command", required=True, parser_class=_Parser)
    reg_issue = reg_sub.add_parser("issue", help="issue the letters a stored parcel calls for")
    reg_issue.add_argument("sbl")
    reg_issue.add_argument("--kind", action="extend", nargs="+", choices=LETTER_KINDS,
                           metavar="K",
                           help="issue these kinds (--kind A B or --kind A --kind B; default: "
                                "what the records call for)")
    reg_issue.add_argument("--replaces", metavar="LETTER_ID",
                           help="issue as a correction of this letter")
    reg_issue.add_argument("--as-of", type=_as_of, metavar="DATE")
    reg_issue.set_defaults(handler=_register_issue)
    reg_draft = reg_sub.add_parser("draft", help="a DRAFT of a letter for a stored parcel")
    reg_draft.add_argument("sbl")
    reg_draft.add_argument("--kind", required=True, choices=LETTER_KINDS)
    reg_draft.add_argument("--out", type=Path, required=True, metavar="FILE")
    reg_draft.add_argument("--as-of", type=_as_of, metavar="DATE")
    reg_draft.set_defaults(handler=_register_draft)
    reg_list = reg_sub.add_parser("list", help="issued letters, oldest first")
    reg_list.add_argument("sbl", nargs="?")
    reg_list.set_defaults(handler=_register_list)
    reg_pending = reg_sub.add_parser("pending", help="issued letters not yet printed")
    reg_pending.set_defaults(handler=_register_pending)
    reg_print = reg_sub.add_parser("print", help="all letters waiting to be printed, in one PDF")
    reg_print.add_argument("--out", type=Path, required=True, metavar="FILE")
    reg_print.add_argument("--labels", type=Path, metavar="FILE",
                           help="also a sheet of Avery 5160 mailing labels")
    reg_print.set_defaults(handler=_register_print)
    reg_show = reg_sub.add_parser("show", help="write an issued letter's PDF (the same bytes)")
    reg_show.add_argument("letter_id")
    reg_show.add_argument("--out", type=Path, required=True, metavar="FILE")
    reg_show.set_defaults(handler=_register_show)

    office = sub.add_parser("office", help="the letterhead and signature block in use")
    office_sub = office.add_subparsers(dest="office_command", required=True,
                                       parser_class=_Parser)
    office_sub.add_parser("show", help="the settings in use and where they come from"
                          ).set_defaults(handler=_office_show)
    office_use = office_sub.add_parser("use", help="check an office.toml and make it this "
                                                   "data folder's")
    office_use.add_argument("file", type=Path)
    office_use.set_defaults(handler=_office_use)
    wording = sub.add_parser("wording", help="the letters' wording (templates)")
    wording_sub = wording.add_subparsers(dest="wording_command", required=True,
                                         parser_class=_Parser)
    wording_use = wording_sub.add_parser("use", help="check a templates file and make it this "
                                                     "data folder's")
    wording_use.add_argument("file", type=Path)
    wording_use.set_defaults(handler=_wording_use)

    sync = sub.add_parser("sync", help="field <-> office sync by package file")
    sync_sub = sync.add_subparsers(dest="sync_command", required=True, parser_class=_Parser)
    enroll = sync_sub.add_parser("enroll", help="(office) enrol a laptop: write its field kit")
    enroll.add_argument("--device", required=True, metavar="NAME")
    enroll.add_argument("--out", type=Path, required=True, metavar="FILE")
    enroll.add_argument("--parcels", metavar="SBL,SBL", help="the laptop's parcels")
    enroll.add_argument("--worklist", metavar="NAME",
                        help="the parcels on this work list today (with or without --parcels)")
    enroll.add_argument("--passphrase-file", type=Path, metavar="FILE",
                        help="the kit's passphrase, the file's first line (default: ask)")
    enroll.set_defaults(handler=_sync_enroll)
    join = sync_sub.add_parser("join", help="(laptop) set up an empty data folder from a kit")
    join.add_argument("file", type=Path)
    join.add_argument("--passphrase-file", type=Path, metavar="FILE",
                      help="the kit's passphrase, the file's first line (default: ask)")
    join.add_argument("--fingerprint", metavar="XXXX-XXXX-XXXX-XXXX",
                      help="the office key fingerprint shown at enrolment; refuse any other")
    join.set_defaults(handler=_sync_join)
    sync_export = sync_sub.add_parser("export", help="write what the other side may not have")
    sync_export.add_argument("--out", type=Path, required=True, metavar="FILE")
    sync_export.add_argument("--device", metavar="NAME",
                             help="(office) the laptop the package is for (needed when more "
                                  "than one is enrolled): its parcels only")
    sync_export.set_defaults(handler=_sync_export)
    sync_assign = sync_sub.add_parser(
        "assign", help="(office) give an enrolled laptop more parcels, or take some away")
    sync_assign.add_argument("--device", required=True, metavar="NAME")
    sync_assign.add_argument("--parcels", metavar="SBL,SBL", help="the parcels to add or remove")
    sync_assign.add_argument("--worklist", metavar="NAME",
                             help="the parcels on this work list today (with or without "
                                  "--parcels)")
    sync_assign.add_argument("--remove", action="store_true",
                             help="take these parcels from the laptop (it clears their owners' "
                                  "contact data once the office has all its changes)")
    sync_assign.set_defaults(handler=_sync_assign)
    sync_import = sync_sub.add_parser("import", help="apply a package from the other side")
    sync_import.add_argument("file", type=Path)
    sync_import.set_defaults(handler=_sync_import)
    sync_sub.add_parser("conflicts", help="unresolved conflicts, both values side by side"
                        ).set_defaults(handler=_sync_conflicts)
    resolve = sync_sub.add_parser("resolve", help="resolve a conflict (the choice is synced)")
    resolve.add_argument("conflict_id")
    choice = resolve.add_mutually_exclusive_group(required=True)
    choice.add_argument("--keep-local", action="store_true")
    choice.add_argument("--take-incoming", action="store_true")
    choice.add_argument("--value", metavar="JSON", help="enter a value (JSON, e.g. '\"Jane Roe\"')")
    resolve.set_defaults(handler=_sync_resolve)
    sync_sub.add_parser("status", help="devices, acknowledgements, gaps, open conflicts"
                        ).set_defaults(handler=_sync_status)
    revoke = sync_sub.add_parser("revoke", help="(office) refuse every later package of a "
                                                "lost or retired laptop")
    revoke.add_argument("--device", required=True, metavar="NAME")
    revoke.add_argument("--reason", metavar="TEXT", help="why, kept with the revocation")
    revoke.set_defaults(handler=_sync_revoke)
    sync_sub.add_parser("rotate-key", help="a new signing key for this device, endorsed by "
                                           "the old one, which is deleted"
                        ).set_defaults(handler=_sync_rotate_key)

    backup = sub.add_parser("backup", help="write a backup of the database now")
    backup.set_defaults(handler=_backup)

    gui = sub.add_parser("gui", help="open the app (the same as no command)")
    gui.set_defaults(handler=None)
    return parser


def _data_dir_named(args: argparse.Namespace) -> str:
    """How the user chose the data folder, in words, for a message about it."""
    if args.data_dir:
        return "--data-dir"
    return HOME_ENV if os.environ.get(HOME_ENV) else "the default data folder"


def _check_data_dir(args: argparse.Namespace, root: Path, *, create: bool) -> None:
    """Refuse a data folder that is a file, or (unless the command makes one) missing."""
    if root.exists() and not root.is_dir():
        raise InputError(f"The data folder {root} is a file, not a folder; give "
                         f"{_data_dir_named(args)} a folder.")
    if not create and not root.exists():
        raise InputError(
            f"There is no data folder {root} (from {_data_dir_named(args)}); check its "
            f"spelling, or start one there with `inspector-app --data-dir {root} parcels "
            "import ROLL.csv` (or `case import`, `shoreline import`, `demo`, `sync join`).")


def _workspace(args: argparse.Namespace, *, create: bool = False) -> Any:
    """The data folder opened for work. Commands that store a first record or set a
    folder up (`create`: imports, demo, the `use` commands) make a folder that does not
    exist yet; the others refuse it, so that a mistyped --data-dir is not taken for a new,
    empty one."""
    from .paths import UnwritablePath
    from .services.workspace import Workspace

    root = resolve_data_dir(args.data_dir)
    _check_data_dir(args, root, create=create)
    try:
        return Workspace(root, user=args.user)
    except UnwritablePath:
        raise
    except OSError as exc:
        raise UnwritablePath(root, exc, what="folder") from None


@contextlib.contextmanager
def _settings_workspace(args: argparse.Namespace) -> Any:
    """For a command that stores nothing (`letters`, `evaluate CASE.json`): the data
    folder when there is one, else, when none was named, the bundled settings of a new
    folder, made nowhere (saying so when the folder was named)."""
    root = resolve_data_dir(args.data_dir)
    if root.exists():
        with _workspace(args) as ws:
            yield ws
        return
    if args.data_dir or os.environ.get(HOME_ENV):
        print(f"Note: there is no data folder {root} (from {_data_dir_named(args)}); the "
              "bundled jurisdiction, wording and office settings were used, and no folder "
              "was created.", file=sys.stderr)
    import tempfile

    from .services.workspace import Workspace

    with tempfile.TemporaryDirectory(prefix="inspector-app-") as scratch, \
            Workspace(Path(scratch) / "data", user=args.user) as ws:
        yield ws


def _case_import(args: argparse.Namespace) -> Any:
    today = args.as_of or date.today()
    case = casefile.read_file(args.file, today=today)
    with _workspace(args, create=True) as ws:
        result = ws.save_case(case, today=today)
    return {"sbl": result.sbl, "created": result.created}


def _case_export(args: argparse.Namespace) -> Any:
    with _workspace(args) as ws:
        return casefile.to_document(ws.load_case(args.sbl))


def _parcels(args: argparse.Namespace) -> Any:
    with _workspace(args) as ws:
        return ws.parcels()


def _parcels_import(args: argparse.Namespace) -> Any:
    from .services.parcel.roll import apply_roll, read_roll

    parsed = read_roll(args.file)
    with _workspace(args, create=True) as ws:
        result = apply_roll(ws.store, parsed)
    for row in result.rejected:
        print(f"{args.file}: line {row.line} was not imported: {row.reason}.", file=sys.stderr)
    return result.as_json()


def _parcels_import_lines(args: argparse.Namespace) -> Any:
    from .services.reference.lot_lines import DEFAULT_ACCURACY_FT, import_lot_lines, read_lot_file

    read_lot_file(args.file, args.sbl_field)  # refuse a bad file before the folder is opened

    def progress(done: int, total: int) -> None:
        if done == total:
            print(f"parcels import-lines: {args.file}: stored", file=sys.stderr, flush=True)

    with _workspace(args) as ws:
        return import_lot_lines(
            ws, args.file, name=args.name, sbl_field=args.sbl_field,
            accuracy_ft=DEFAULT_ACCURACY_FT if args.accuracy_ft is None else args.accuracy_ft,
            source=args.source, progress=progress)


def _parcels_lines(args: argparse.Namespace) -> Any:
    from .services.reference.lot_lines import list_lot_layers

    with _workspace(args) as ws:
        return list_lot_layers(ws)


def _parcels_lines_use(args: argparse.Namespace) -> Any:
    from .services.reference.lot_lines import activate_lot_layer

    with _workspace(args) as ws:
        return activate_lot_layer(ws, args.layer)


def _history(args: argparse.Namespace) -> Any:
    from .storage.records import from_sql_text

    with _workspace(args) as ws:
        rows = ws.history(args.sbl)
    for row in rows:  # lists and objects stored as JSON text are shown as JSON values
        for key in ("old_value", "new_value"):
            value = row[key]
            row[key] = ({k: from_sql_text(v) for k, v in value.items()}
                        if isinstance(value, dict) else from_sql_text(value))
    return rows


def _attach(args: argparse.Namespace) -> Any:
    if not args.file.is_file():
        raise InputError(f"{args.file}: no such file.")
    with _workspace(args) as ws:
        return ws.add_attachment(args.sbl, args.file, caption=args.caption)


def _demo(args: argparse.Namespace) -> Any:
    from .services.demo.parcels import DEFAULT_COUNT, install_demo

    count = args.parcels or DEFAULT_COUNT

    def progress(done: int, total: int) -> None:
        if total >= 1000:
            print(f"demo: {done} of {total} parcels", file=sys.stderr, flush=True)

    with _workspace(args, create=True) as ws:
        return install_demo(ws, count=count, today=args.as_of, progress=progress)


def _evaluate(args: argparse.Namespace) -> Any:
    from .services.parcel.evaluation_json import evaluation_json, no_law_json
    from .services.session.laws import NoLawFacts

    if (args.file is None) == (args.sbl is None):
        raise InputError("evaluate: give either a case file or --sbl SBL.")
    today = args.as_of or date.today()
    case = None if args.file is None else casefile.read_file(args.file, today=today)
    with (_settings_workspace(args) if case is not None else _workspace(args)) as ws:
        found = (ws.assess_case(case, as_of=today) if case is not None
                 else ws.assess_parcel(args.sbl, as_of=today))
        if isinstance(found, NoLawFacts):
            return no_law_json(found)
        municipality = (case or ws.load_case(args.sbl)).parcel.municipality
        return evaluation_json(found, ws.law_for(municipality))


def _worklist(args: argparse.Namespace) -> Any:
    from .services.lists.worklists import WORKLISTS, worklists

    with _workspace(args) as ws:
        lists = worklists(ws, as_of=args.as_of or date.today(),
                          names=(args.name,) if args.name else WORKLISTS)
    return lists[args.name] if args.name else lists


def _suggestion(args: argparse.Namespace) -> Any:
    with _workspace(args) as ws:
        s = ws.decide_suggestion(args.sbl, args.key, accept=args.decision == "accept",
                                 note=args.note, as_of=args.as_of)
    return {"sbl": args.sbl, "key": s.key, "status": s.status.value, "defect": s.defect,
            "citation": s.citation}


def _jurisdiction_json(j: Any) -> Any:
    from dataclasses import asdict

    out = asdict(j)
    out["unconfirmed_citations"] = sorted(j.unconfirmed_citations)
    out["unconfirmed_values"] = sorted(j.unconfirmed_values)
    out["setbacks_ft"] = {k.value: v for k, v in j.setbacks_ft.items()}
    return out


def _jurisdiction_show(args: argparse.Namespace) -> Any:
    with _workspace(args) as ws:
        if args.municipality is None:
            return _jurisdiction_json(ws.jurisdiction)
        return _jurisdiction_json(ws.law_for(args.municipality))


def _jurisdiction_list(args: argparse.Namespace) -> Any:
    from .services.session.laws import describe_laws

    with _workspace(args) as ws:
        return describe_laws(ws.laws)


def _jurisdiction_check(args: argparse.Namespace) -> Any:
    from .services.session.laws import load_jurisdiction_file

    return _jurisdiction_json(load_jurisdiction_file(args.file))


def _jurisdiction_use(args: argparse.Namespace) -> Any:
    from .services.session.laws import install_jurisdiction, load_jurisdiction_file

    load_jurisdiction_file(args.file)  # refuse a broken file before the data folder is opened
    with _workspace(args, create=True) as ws:
        return install_jurisdiction(ws.folder.root, args.file)


def _distance(args: argparse.Namespace) -> Any:
    from .services.reference.distances import distances

    results = distances(args.shoreline, args.areas or args.area, accuracy_ft=args.accuracy_ft,
                        batch=args.areas is not None)
    return results if args.areas is not None else results[0]


def _shoreline_import(args: argparse.Namespace) -> Any:
    from .services.reference.shorelines import import_layer, read_layer_file

    read_layer_file(args.file)  # refuse a bad file before the data folder is touched
    with _workspace(args, create=True) as ws:
        return import_layer(ws, args.file, name=args.name, accuracy_ft=args.accuracy_ft,
                            source=args.source)


def _shoreline_list(args: argparse.Namespace) -> Any:
    from .services.reference.shorelines import list_layers

    with _workspace(args) as ws:
        return [{k: layer[k] for k in ("id", "name", "source", "accuracy_ft", "version",
                                       "active", "imported_at", "kind", "vertices")}
                for layer in list_layers(ws)]


def _basemap_import(args: argparse.Namespace) -> Any:
    from .geo.rasters import inspect_raster
    from .services.reference.basemaps import import_basemap

    if args.date is not None and args.date > date.today():
        raise InputError(f"basemap import: --date {args.date.isoformat()} is in the future; "
                         "give the date the imagery was captured (YYYY-MM-DD).")
    inspect_raster(args.file.expanduser().resolve())  # refused before the folder is touched
    with _workspace(args, create=True) as ws:
        return import_basemap(ws, args.file, name=args.name, copy=args.copy,
                              source=args.source, captured_on=args.date)


def _basemap_list(args: argparse.Namespace) -> Any:
    from .services.reference.basemaps import list_basemaps, office_settings

    with _workspace(args) as ws:
        return {"basemaps": list_basemaps(ws), "settings": office_settings(ws)}


def _basemap_use(args: argparse.Namespace) -> Any:
    from .services.reference.basemaps import activate_basemap

    with _workspace(args) as ws:
        return activate_basemap(ws, args.basemap)


def _basemap_off(args: argparse.Namespace) -> Any:
    from .services.reference.basemaps import deactivate_basemap

    with _workspace(args) as ws:
        deactivate_basemap(ws)
        return {"active": None}


def _basemap_settings(args: argparse.Namespace) -> Any:
    from .services.reference.basemaps import office_settings, set_office_setting

    with _workspace(args, create=args.kit_radius_ft is not None
                    or args.report_imagery is not None) as ws:
        changes = {"kit_imagery_radius_ft": args.kit_radius_ft,
                   "report_imagery": args.report_imagery}
        given = {k: v for k, v in changes.items() if v is not None}
        if given:
            from .services.reference.basemaps import SETTINGS

            for key, value in given.items():  # all checked before any is kept
                try:
                    SETTINGS[key].parse(value)
                except ValueError as exc:
                    raise InputError(f"basemap settings: {key}: {exc}. Nothing was "
                                     "changed.") from None
            for key, value in given.items():
                set_office_setting(ws, key, value)
        return office_settings(ws)


def _measure(args: argparse.Namespace) -> Any:
    from .services.parcel.measure_all import measure_parcels

    def progress(done: int, total: int) -> None:
        if total >= 500 and (done % 500 == 0 or done == total):
            print(f"measure: {done} of {total} parcels", file=sys.stderr, flush=True)

    with _workspace(args) as ws:
        return measure_parcels(ws, args.sbl or None, today=args.as_of, progress=progress)


def _site(args: argparse.Namespace) -> Any:
    from .services.parcel import site

    site.parse_target(args.target)  # refuse a bad target before the data folder is opened
    common = {"accuracy_ft": args.accuracy_ft, "note": args.note, "today": args.as_of}
    result = _site_capture(args, site, common)
    for warning in result.get("warnings", ()):
        print(f"site: warning: {warning}.", file=sys.stderr)
    return result


def _site_capture(args: argparse.Namespace, site: Any, common: dict[str, Any]) -> Any:
    with _workspace(args) as ws:
        if args.lonlat:
            return site.set_from_lonlat(ws, args.sbl, args.target, args.lonlat, **common)
        if args.state_plane:
            from .domain.vocabulary import CaptureMethod
            from .geo.capture import parse_pairs

            return site.set_from_state_plane(ws, args.sbl, args.target,
                                             parse_pairs(args.state_plane, "--state-plane"),
                                             method=CaptureMethod.SURVEY_PLAN, **common)
        if args.file:
            return site.set_from_file(ws, args.sbl, args.target, args.file, **common)
        if args.gps:
            return site.set_from_gps_logs(ws, args.sbl, args.target, args.gps, **common)
        return site.set_from_gps_device(ws, args.sbl, args.target, args.gps_device,
                                        seconds=args.seconds, baud=args.baud, **common)


def _gps(args: argparse.Namespace) -> Any:
    from .geo import capture

    fix = (capture.average_log(args.log) if args.log else
           capture.average_device(args.device, seconds=args.seconds, baud=args.baud))
    return fix.as_json()


def _letters(args: argparse.Namespace) -> Any:
    from .paths import UnwritablePath, write_atomically
    from .services.letters.register import draft_from_case

    today = args.as_of or date.today()
    case = casefile.read_file(args.file, today=today)
    with _settings_workspace(args) as ws:
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
    from .services.letters.register import issue

    with _workspace(args) as ws:
        return [x.as_json() for x in issue(ws, args.sbl, args.kind, as_of=args.as_of,
                                           replaces=args.replaces)]


def _register_draft(args: argparse.Namespace) -> Any:
    from .paths import write_atomically
    from .services.letters.register import draft_pdf

    with _workspace(args) as ws:
        pdf = draft_pdf(ws, args.sbl, args.kind, as_of=args.as_of)
    write_atomically(args.out, pdf)
    return {"kind": args.kind, "path": str(args.out), "draft": True}


def _report_progress(what: str) -> Any:
    def progress(done: int, total: int) -> None:
        if total >= 500 and (done % 500 == 0 or done == total):
            print(f"{what}: {done} of {total} parcels", file=sys.stderr, flush=True)
    return progress


def _report_program(args: argparse.Namespace) -> Any:
    from .paths import write_atomically
    from .services.lists.program_report import program_report, program_report_pdf

    if args.out is None and not args.json:
        raise InputError("report program needs --out FILE.pdf, or --json to print the "
                         "figures.")
    if args.out is not None and args.out.suffix.lower() != ".pdf":
        raise InputError(f"--out {args.out}: the report is a PDF; give a file ending in .pdf.")
    with _workspace(args) as ws:
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
    from .services.lists.program_report import export_inspections

    with _workspace(args) as ws:
        return export_inspections(ws, args.start, args.end, args.out,
                                  municipalities=args.municipality, as_of=args.as_of,
                                  progress=_report_progress("export"))


def _register_list(args: argparse.Namespace) -> Any:
    from .services.letters.register import register

    with _workspace(args) as ws:
        return register(ws, args.sbl)


def _register_pending(args: argparse.Namespace) -> Any:
    from .services.letters.register import register

    with _workspace(args) as ws:
        return [r for r in register(ws) if r["printed_at"] is None]


def _register_print(args: argparse.Namespace) -> Any:
    from .services.letters.register import print_batch

    def progress(done: int, total: int) -> None:
        if total >= 50 and (done % 50 == 0 or done == total):
            print(f"print: {done} of {total} letters", file=sys.stderr, flush=True)

    with _workspace(args) as ws:
        return print_batch(ws, args.out, labels=args.labels, progress=progress)


def _register_show(args: argparse.Namespace) -> Any:
    from .paths import write_atomically
    from .services.letters.register import stored_pdf

    with _workspace(args) as ws:
        pdf = stored_pdf(ws, args.letter_id)
    write_atomically(args.out, pdf)
    return {"id": args.letter_id, "path": str(args.out), "bytes": len(pdf)}


def _office_show(args: argparse.Namespace) -> Any:
    from dataclasses import asdict

    from .services.letters.register import office_for

    with _workspace(args) as ws:
        return asdict(office_for(ws))


def _install(args: argparse.Namespace, name: str, check: Callable[[Path, Path], Any]) -> Any:
    """Check a settings file, then copy it atomically into the data folder."""
    from .paths import write_atomically

    check(args.file, args.file.parent)
    with _workspace(args, create=True) as ws:
        target = ws.folder.root / name
        check(args.file, ws.folder.root)
        write_atomically(target, args.file.read_bytes())
    return {"file": str(target)}


def _office_use(args: argparse.Namespace) -> Any:
    from .documents.templates import load_office
    from .paths import write_atomically
    from .services.letters.register import OFFICE_FILE

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
    from .documents.templates import load_wording
    from .services.letters.register import TEMPLATES_FILE

    return _install(args, TEMPLATES_FILE, lambda path, base: load_wording(path))


def _passphrase(args: argparse.Namespace, *, confirm: bool) -> str:
    """The field kit passphrase: the first line of --passphrase-file, or typed at the
    terminal (twice when choosing it)."""
    if args.passphrase_file is not None:
        try:
            text: str = args.passphrase_file.read_text("utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise InputError(f"--passphrase-file {args.passphrase_file}: cannot be read "
                             f"({exc}).") from None
        return text.splitlines()[0] if text else ""
    if not sys.stdin.isatty():
        raise InputError("sync: the field kit passphrase is needed; give it with "
                         "--passphrase-file FILE or run the command at a terminal.")
    import getpass

    first = getpass.getpass("Field kit passphrase: ")
    if confirm and getpass.getpass("The same passphrase again: ") != first:
        raise InputError("sync enroll: the two passphrases differ; nothing was written.")
    return first


def _sync_enroll(args: argparse.Namespace) -> Any:
    from .services.exchange import enroll

    parcels = [s.strip() for s in args.parcels.split(",") if s.strip()] if args.parcels else None
    if not parcels and not args.worklist:
        raise InputError("sync enroll: name the laptop's parcels with --parcels SBL,SBL or a "
                         "work list with --worklist NAME; a field kit carries only the "
                         "parcels assigned to that laptop.")
    passphrase = _passphrase(args, confirm=True)
    with _workspace(args) as ws:
        return enroll(ws, args.device, args.out, parcels, passphrase=passphrase,
                      worklist=args.worklist)


def _sync_join(args: argparse.Namespace) -> Any:
    from .services.exchange import join
    from .services.workspace import default_user

    passphrase = _passphrase(args, confirm=False)
    result = join(resolve_data_dir(args.data_dir), args.file, user=args.user or default_user(),
                  passphrase=passphrase, fingerprint=args.fingerprint)
    if args.fingerprint is None:
        print(f"Check that the office key fingerprint {result['office_fingerprint']} is the "
              "one the office showed when it wrote this kit.", file=sys.stderr)
    return result


def _sync_export(args: argparse.Namespace) -> Any:
    from .services.exchange import export

    with _workspace(args) as ws:
        return export(ws, args.out, device=args.device)


def _sync_assign(args: argparse.Namespace) -> Any:
    from .services.exchange.assignment import assign

    parcels = [s.strip() for s in args.parcels.split(",") if s.strip()] if args.parcels else None
    with _workspace(args) as ws:
        return assign(ws, args.device, parcels, worklist=args.worklist, remove=args.remove)


def _sync_import(args: argparse.Namespace) -> Any:
    from .services.exchange import import_package

    with _workspace(args) as ws:
        return import_package(ws, args.file)


def _sync_conflicts(args: argparse.Namespace) -> Any:
    from .services.exchange import conflicts

    with _workspace(args) as ws:
        return conflicts(ws)


def _sync_resolve(args: argparse.Namespace) -> Any:
    from .services.exchange import resolve

    value = None
    if args.value is not None:
        try:
            value = json.loads(args.value)
        except json.JSONDecodeError:
            raise InputError(f"sync resolve: --value {args.value!r} is not JSON; quote text "
                             "values, e.g. '\"Jane Roe\"'.") from None
    choice = ("keep_local" if args.keep_local else "take_incoming" if args.take_incoming
              else "enter_value")
    with _workspace(args) as ws:
        return resolve(ws, args.conflict_id, choice=choice, value=value)


def _sync_status(args: argparse.Namespace) -> Any:
    from .services.exchange import status

    with _workspace(args) as ws:
        return status(ws)


def _sync_revoke(args: argparse.Namespace) -> Any:
    from .services.exchange import revoke

    with _workspace(args) as ws:
        return revoke(ws, args.device, reason=args.reason)


def _sync_rotate_key(args: argparse.Namespace) -> Any:
    from .services.exchange import rotate_key

    with _workspace(args) as ws:
        return rotate_key(ws)


def _backup(args: argparse.Namespace) -> Any:
    with _workspace(args) as ws:
        return {"path": str(ws.store.backup_now())}


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
            from .desktop import open_app

            return open_app(resolve_data_dir(args.data_dir), user=args.user)
        result = handler(args)
    except SystemExit as exc:  # --help and --version
        return int(exc.code or 0)
    except BrokenPipeError:
        return _reader_went_away()
    except InputError as exc:
        print(str(exc), file=sys.stderr)
        return exc.exit_status
    except Exception as exc:
        from .errors import InspectorError

        if isinstance(exc, InspectorError):
            print(str(exc), file=sys.stderr)
            return exc.exit_status
        print(f"inspector-app failed unexpectedly: {type(exc).__name__}: {exc}. Nothing was "
              "committed by the failed step; please report this with the command you ran.",
              file=sys.stderr)
        return 1
    try:
        # One write: `json.dump` would make one per token (a quarter million for the work
        # lists of 20,000 parcels).
        sys.stdout.write(json.dumps(result, ensure_ascii=False, indent=2, default=str) + "\n")
        sys.stdout.flush()
    except BrokenPipeError:
        return _reader_went_away()
    return 0


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
