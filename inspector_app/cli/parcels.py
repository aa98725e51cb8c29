"""`parcels` and `parcels import|import-lines|lines|lines-use`: the parcel list, the
office's parcel roll and the county's lot lines."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..errors import InputError
from ..services.parcel.roll_columns import FIELDS, MAP_FORMAT, parse_map
from .common import Commands, Parser, feet, input_file, starts_a_folder, workspace


def add_parcels(commands: Commands) -> None:
    parcels = commands.add_parser("parcels", help="list parcels, or import the parcel roll")
    parcels.set_defaults(handler=_parcels)
    parcels_sub = parcels.add_subparsers(dest="parcels_command", parser_class=Parser)
    roll = parcels_sub.add_parser(
        "import", help="import the parcel roll: the office's CSV, or the county's export as "
        "it comes (CSV, Excel .xlsx, a dBASE .dbf attribute table, or the table of a "
        ".shp/.gpkg/.geojson parcel layer); all rows or none")
    starts_a_folder(roll)
    roll.add_argument("file", metavar="ROLL", type=input_file("parcel roll"),
                      help="the roll file; its first row names the columns (CSV in UTF-8, "
                           "or Windows-1252 as Excel saves it; README)")
    roll.add_argument("--map", type=_column_map, metavar="FIELD=COLUMN,...",
                      help=f"which column of the file gives which field of the roll: "
                      f"{MAP_FORMAT.replace('%', '%%')}; fields: {', '.join(FIELDS)}. "
                      "Fields not named are found by their usual names (our own, or New "
                      "York's tax-parcel exports: PRINT_KEY, SBL, SWIS_SBL_ID, MUNI_NAME, "
                      "PARCEL_ADDR, PRIMARY_OWNER, MAIL_ADDR ...); other columns are ignored "
                      "and listed")
    roll.set_defaults(handler=_parcels_import)
    lines = parcels_sub.add_parser("import-lines", help="import the county's tax-parcel "
                                   "polygons (lot lines), matched to the parcels by SBL")
    lines.add_argument("file", type=input_file("lot-line layer"),
                       help="the county's tax-parcel polygons: an ESRI Shapefile (with its "
                            ".shx, .dbf and .prj), a GeoPackage or GeoJSON")
    lines.add_argument("--sbl-field", metavar="NAME",
                       help="the field holding the tax map numbers (default: guessed)")
    lines.add_argument("--name", help="the layer's name (default: from the file's name)")
    lines.add_argument("--accuracy-ft", type=feet, default=None, metavar="N",
                       help="the lines' accuracy (default: 10 ft, a county tax map)")
    lines.add_argument("--source", help="where the file comes from (default: its name)")
    lines.set_defaults(handler=_parcels_import_lines)
    parcels_sub.add_parser("lines", help="every lot layer, the active one marked"
                           ).set_defaults(handler=_parcels_lines)
    lines_use = parcels_sub.add_parser("lines-use", help="make a lot layer the active one")
    lines_use.add_argument("layer", metavar="NAME|ID",
                           help="the lot layer's name or id, as `parcels lines` lists it")
    lines_use.set_defaults(handler=_parcels_lines_use)


def _parcels(args: argparse.Namespace) -> Any:
    with workspace(args) as ws:
        return ws.parcels()


def _column_map(text: str) -> dict[str, tuple[str, ...]]:
    try:
        return parse_map(text)
    except InputError as exc:
        raise argparse.ArgumentTypeError(str(exc).removeprefix("--map").lstrip(": ")) from None


def _parcels_import(args: argparse.Namespace) -> Any:
    from ..services.parcel.roll import apply_roll, read_roll, refuse_rejected

    parsed = read_roll(args.file, args.map)
    refuse_rejected(args.file, parsed)  # before the data folder is opened or made
    with workspace(args) as ws:
        result = apply_roll(ws.store, parsed)
    if result.ignored_columns:
        print(f"{args.file}: columns not used: {', '.join(result.ignored_columns)}.",
              file=sys.stderr)
    return result.as_json()


def _parcels_import_lines(args: argparse.Namespace) -> Any:
    from ..services.reference.lot_lines import DEFAULT_ACCURACY_FT, import_lot_lines, read_lot_file

    read_lot_file(args.file, args.sbl_field)  # refuse a bad file before the folder is opened

    def progress(done: int, total: int) -> None:
        if done == total:
            print(f"parcels import-lines: {args.file}: stored", file=sys.stderr, flush=True)

    with workspace(args) as ws:
        return import_lot_lines(
            ws, args.file, name=args.name, sbl_field=args.sbl_field,
            accuracy_ft=DEFAULT_ACCURACY_FT if args.accuracy_ft is None else args.accuracy_ft,
            source=args.source, progress=progress)


def _parcels_lines(args: argparse.Namespace) -> Any:
    from ..services.reference.lot_lines import list_lot_layers

    with workspace(args) as ws:
        return list_lot_layers(ws)


def _parcels_lines_use(args: argparse.Namespace) -> Any:
    from ..services.reference.lot_lines import activate_lot_layer

    with workspace(args) as ws:
        return activate_lot_layer(ws, args.layer)
