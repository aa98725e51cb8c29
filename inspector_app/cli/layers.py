"""`distance`, `shoreline`, `basemap`, `measure`, `site` and `gps`: the map layers, the
distances measured on them, and where a site's features are."""

from __future__ import annotations

import argparse
import sys
from datetime import date
from typing import Any

from ..domain.water_body import LAYER_NEAR_FT, PARCELS_NEAR_FT, feet_and_miles
from ..errors import InputError
from ..paths import resolve_data_dir
from .common import (
    SBL_HELP,
    Commands,
    Parser,
    feet,
    input_file,
    iso_date,
    office_database,
    starts_a_folder,
    workspace,
)

SHORELINE_HELP = ("the shoreline: GeoJSON (WGS84 or a named projected CRS), an ESRI "
                  "Shapefile with its .shx, .dbf and .prj, or a GeoPackage; polygons are the "
                  "water body, lines the lake line")
BAUD_HELP = "the serial GPS's speed in baud (default 4800, NMEA 0183's)"


def add_distance(commands: Commands) -> None:
    distance = commands.add_parser("distance", help="distance from an area to a shoreline, "
                                                    "in feet")
    distance.add_argument("--shoreline", type=input_file("shoreline layer"), required=True,
                          metavar="FILE", help=SHORELINE_HELP)
    areas = distance.add_mutually_exclusive_group(required=True)
    areas.add_argument("--area", type=input_file("area file"), metavar="FILE",
                       help="one area: GeoJSON only (a geometry, a Feature, or a "
                            "FeatureCollection of one feature), WGS84 or a named CRS")
    areas.add_argument("--areas", type=input_file("areas file"), metavar="FILE",
                       help="several areas: a GeoJSON FeatureCollection only; one result per "
                            "feature, in order, with its id")
    distance.add_argument("--accuracy-ft", type=feet, default=None, metavar="N",
                          help="the shoreline's accuracy in feet, 0 to 100000 (default: what "
                               "the file declares, else 0 ft, said in the result)")
    distance.set_defaults(handler=_distance)


def add_shoreline(commands: Commands) -> None:
    shoreline = commands.add_parser("shoreline", help="the data folder's shoreline layers")
    shoreline_sub = shoreline.add_subparsers(dest="shoreline_command", required=True,
                                             parser_class=Parser)
    shoreline_import = shoreline_sub.add_parser("import", help="store a layer and make it "
                                                               "active")
    starts_a_folder(shoreline_import)
    shoreline_import.add_argument("file", type=input_file("shoreline layer"),
                                  help=SHORELINE_HELP)
    shoreline_import.add_argument("--name", required=True, help="the layer's name, as lists "
                                                                "and the site map show it")
    shoreline_import.add_argument("--accuracy-ft", type=feet, required=True, metavar="N",
                                  help="the layer's declared horizontal accuracy in feet, 0 "
                                       "to 100000 (added to every map distance)")
    shoreline_import.add_argument("--source", metavar="TEXT",
                                  help="where the layer comes from, kept with it")
    shoreline_import.add_argument(
        "--far-ok", action="store_true",
        help=f"import the layer even though it lies more than {feet_and_miles(LAYER_NEAR_FT)} "
             "from the law's water body, or more than "
             f"{feet_and_miles(PARCELS_NEAR_FT)} from every parcel located in the data folder "
             "(without it such a layer is refused, saying how far it lies): you confirm it "
             "is the line every lake distance is to be measured to; what you confirmed is "
             "kept with the layer, with who and when, and shown by `shoreline list`")
    shoreline_import.set_defaults(handler=_shoreline_import)
    shoreline_sub.add_parser("list", help="every layer, the active one marked"
                             ).set_defaults(handler=_shoreline_list)


def add_basemap(commands: Commands) -> None:
    basemap = commands.add_parser("basemap", help="offline aerial imagery under the site map")
    basemap_sub = basemap.add_subparsers(dest="basemap_command", required=True,
                                         parser_class=Parser)
    _add_basemap_import(basemap_sub)
    basemap_sub.add_parser("list", help="every basemap, the active one marked, and the "
                                        "imagery settings").set_defaults(handler=_basemap_list)
    basemap_use = basemap_sub.add_parser("use", help="make a basemap the active one")
    basemap_use.add_argument("basemap", metavar="NAME|ID",
                             help="the basemap's name or id, as `basemap list` lists it")
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


def _add_basemap_import(basemap_sub: Commands) -> None:
    basemap_import = basemap_sub.add_parser(
        "import", help="store a GeoTIFF, a JPEG/PNG with world file and .prj, or an MBTiles "
                       "file and make it the active basemap")
    starts_a_folder(basemap_import)
    basemap_import.add_argument("file", type=input_file("basemap image"),
                                help="a GeoTIFF (any CRS), a JPEG or PNG with its world file "
                                     "and .prj, or an MBTiles file of raster tiles")
    basemap_import.add_argument("--name", required=True,
                                help="the basemap's name, as lists and the site map show it")
    storage = basemap_import.add_mutually_exclusive_group()
    storage.add_argument("--copy", dest="copy", action="store_true", default=None,
                         help="keep a copy in the data folder (the default, but at an office "
                              "database)")
    storage.add_argument("--reference", dest="copy", action="store_false",
                         help="keep only the file's path; it must stay where it is (the "
                              "default at an office database: a path every desk reaches)")
    basemap_import.add_argument("--source", help="who made the imagery (default: the file's "
                                                 "name)")
    basemap_import.add_argument("--date", type=iso_date, metavar="YYYY-MM-DD",
                                help="the date the imagery was captured")
    basemap_import.set_defaults(handler=_basemap_import)


def add_measure(commands: Commands) -> None:
    measure = commands.add_parser("measure", help="measure parcels on the active shoreline "
                                                  "layer and keep the measurements")
    measure.add_argument("sbl", nargs="*",
                         help=f"the parcels to measure (default: all); {SBL_HELP}")
    measure.add_argument("--as-of", type=iso_date, metavar="DATE",
                         help="the day the measurements are recorded on, YYYY-MM-DD (default "
                              "today)")
    measure.set_defaults(handler=_measure)


def add_site(commands: Commands) -> None:
    site = commands.add_parser("site", help="record where a site feature or component is")
    site.add_argument("sbl", help=SBL_HELP)
    site.add_argument("target", metavar="KIND",
                      help="absorption_area, holding_tank, well, watercourse, dwelling, "
                           "property_line, water_service_line, other, or component:KIND[#N]")
    how = site.add_mutually_exclusive_group(required=True)
    how.add_argument("--lonlat", metavar="PAIRS",
                     help="typed longitude,latitude pairs in decimal degrees (WGS84), "
                          "separated by spaces or semicolons: -77.3,42.8")
    how.add_argument("--state-plane", metavar="PAIRS",
                     help="easting,northing pairs off a survey plan, in US survey feet (NY "
                          "State Plane Central, EPSG:2261)")
    how.add_argument("--file", type=input_file("geometry file"),
                     help="a GeoJSON file, an ESRI Shapefile (with its .shx, .dbf and .prj) or "
                          "a GeoPackage")
    how.add_argument("--gps", type=input_file("NMEA log"), nargs="+", metavar="LOG",
                     help="NMEA 0183 logs (GGA sentences, checksums optional): for a point "
                          "(a well, a tank, a component) all are averaged together into the "
                          "one point; for a line or an area each is one point or corner, in "
                          "order. A log recorded on the move (its fixes spread wider than a "
                          "receiver standing still scatters) is refused, the limit named")
    how.add_argument("--gps-device", metavar="PORT", help="a serial GPS, e.g. /dev/ttyUSB0")
    site.add_argument("--seconds", type=float, default=10.0,
                      help="how long to average a GPS device, in seconds (default 10)")
    site.add_argument("--baud", type=int, default=4800, help=BAUD_HELP)
    site.add_argument("--accuracy-ft", type=feet, metavar="N",
                      help="the capture accuracy in feet, 0 to 100000 (default: estimated from "
                           "GPS, else not recorded)")
    site.add_argument("--note", metavar="TEXT", help="a note kept with the position")
    site.add_argument("--as-of", type=iso_date, metavar="DATE",
                      help="the day the position is recorded on, YYYY-MM-DD (default today)")
    site.set_defaults(handler=_site)


_YES_NO = {"yes": True, "no": False, "unknown": None}


def _yes_no(text: str) -> bool | None:
    if text not in _YES_NO:
        raise argparse.ArgumentTypeError(f"{text!r} is not yes, no or unknown")
    return _YES_NO[text]


def add_well_conditions(commands: Commands) -> None:
    well = commands.add_parser(
        "well-conditions", help="record a well's conditions that change its separations "
                                "(10 NYCRR Appendix 75-A, Table 2, notes (a) and (g))")
    well.add_argument("sbl", help=SBL_HELP)
    well.add_argument("--well", type=int, default=1, metavar="N",
                      help="which of the parcel's wells, counted from 1 in the order they "
                           "were located (default 1)")
    well.add_argument("--shallow-aquifer", type=_yes_no, default=..., metavar="yes|no|unknown",
                      help="aquifer water enters the well less than 50 ft below grade: its "
                           "separations increase by 50 %% (note (g))")
    well.add_argument("--drainage-path", type=_yes_no, default=..., metavar="yes|no|unknown",
                      help="the system is upgrade and in the general path of drainage to the "
                           "well: 200 ft on the rows that carry note (a)")
    well.add_argument("--as-of", type=iso_date, metavar="DATE",
                      help="the day the conditions are recorded on, YYYY-MM-DD (default today)")
    well.set_defaults(handler=_well_conditions)


def _well_conditions(args: argparse.Namespace) -> Any:
    from ..errors import InputError
    from ..services.parcel.site import set_well_conditions

    if args.shallow_aquifer is ... and args.drainage_path is ...:
        raise InputError("well-conditions: give --shallow-aquifer, --drainage-path or both.")
    if args.well < 1:
        raise InputError(f"well-conditions: --well is {args.well}; wells are counted from 1.")
    with workspace(args) as ws:
        return set_well_conditions(ws, args.sbl, args.well,
                                   shallow_aquifer=args.shallow_aquifer,
                                   drainage_path=args.drainage_path, today=args.as_of)


def add_gps(commands: Commands) -> None:
    gps = commands.add_parser("gps", help="average an NMEA log or a GPS device into one "
                                          "position")
    gps_source = gps.add_mutually_exclusive_group(required=True)
    gps_source.add_argument("--log", type=input_file("NMEA log"), metavar="FILE",
                            help="an NMEA 0183 log (the text file a GPS receiver writes: $GPGGA "
                                 "and $GPRMC sentences)")
    gps_source.add_argument("--device", metavar="PORT",
                            help="a serial GPS, e.g. /dev/ttyUSB0 or COM3")
    gps.add_argument("--seconds", type=float, default=10.0,
                     help="how long to average the device, in seconds (default 10)")
    gps.add_argument("--baud", type=int, default=4800, help=BAUD_HELP)
    gps.set_defaults(handler=_gps)


def _distance(args: argparse.Namespace) -> Any:
    from ..services.reference.distances import distances

    results = distances(args.shoreline, args.areas or args.area, accuracy_ft=args.accuracy_ft,
                        batch=args.areas is not None)
    return results if args.areas is not None else results[0]


def _shoreline_import(args: argparse.Namespace) -> Any:
    from ..services.reference.shorelines import FarLayer, far_finding, import_layer, read_layer_file

    lake, _ = read_layer_file(args.file)  # refuse a bad file before the data folder is touched
    if not args.far_ok and not resolve_data_dir(args.data_dir).exists():
        from ..services.session.laws import laws_for

        # A new folder has the bundled laws and no parcels: judged before it is made.
        finding = far_finding(lake, laws_for(None), [])
        if finding is not None:
            raise FarLayer(args.file, finding)
    with workspace(args) as ws:
        return import_layer(ws, args.file, name=args.name, accuracy_ft=args.accuracy_ft,
                            source=args.source, far_ok=args.far_ok)


def _shoreline_list(args: argparse.Namespace) -> Any:
    from ..services.reference.shorelines import list_layers

    with workspace(args) as ws:
        return [{k: layer[k] for k in ("id", "name", "source", "accuracy_ft", "version",
                                       "active", "imported_at", "kind", "vertices",
                                       "far_confirmed")}
                for layer in list_layers(ws)]


def _basemap_import(args: argparse.Namespace) -> Any:
    from ..services.reference.basemaps import check_importable, import_basemap

    if args.date is not None and args.date > date.today():
        raise InputError(f"basemap import: --date {args.date.isoformat()} is in the future; "
                         "give the date the imagery was captured (YYYY-MM-DD).")
    # refused before the folder is touched (a copy, unless at an office database)
    copy = args.copy if args.copy is not None else office_database(args) is None
    check_importable(args.file.expanduser().resolve(), copy=copy)
    with workspace(args) as ws:
        return import_basemap(ws, args.file, name=args.name, copy=args.copy,
                              source=args.source, captured_on=args.date)


def _basemap_list(args: argparse.Namespace) -> Any:
    from ..services.reference.basemaps import list_basemaps, office_settings

    with workspace(args) as ws:
        return {"basemaps": list_basemaps(ws), "settings": office_settings(ws)}


def _basemap_use(args: argparse.Namespace) -> Any:
    from ..services.reference.basemaps import activate_basemap

    with workspace(args) as ws:
        return activate_basemap(ws, args.basemap)


def _basemap_off(args: argparse.Namespace) -> Any:
    from ..services.reference.basemaps import deactivate_basemap

    with workspace(args) as ws:
        deactivate_basemap(ws)
        return {"active": None}


def _basemap_settings(args: argparse.Namespace) -> Any:
    from ..services.reference.basemaps import office_settings, set_office_setting

    # Given a setting, it stores one, and so starts a folder; only shown, it refuses one.
    args.starts_folder = args.kit_radius_ft is not None or args.report_imagery is not None
    with workspace(args) as ws:
        changes = {"kit_imagery_radius_ft": args.kit_radius_ft,
                   "report_imagery": args.report_imagery}
        given = {k: v for k, v in changes.items() if v is not None}
        if given:
            from ..services.reference.basemaps import SETTINGS

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
    from ..services.parcel.measure_all import measure_parcels

    def progress(done: int, total: int) -> None:
        if total >= 500 and (done % 500 == 0 or done == total):
            print(f"measure: {done} of {total} parcels", file=sys.stderr, flush=True)

    with workspace(args) as ws:
        return measure_parcels(ws, args.sbl or None, today=args.as_of, progress=progress)


def _site(args: argparse.Namespace) -> Any:
    from ..services.parcel import site

    site.parse_target(args.target)  # refuse a bad target before the data folder is opened
    common = {"accuracy_ft": args.accuracy_ft, "note": args.note, "today": args.as_of}
    result = _site_capture(args, site, common)
    for warning in result.get("warnings", ()):
        print(f"site: warning: {warning}.", file=sys.stderr)
    for note in result.get("notes", ()):
        print(f"site: note: {note}.", file=sys.stderr)
    return result


def _site_capture(args: argparse.Namespace, site: Any, common: dict[str, Any]) -> Any:
    with workspace(args) as ws:
        if args.lonlat:
            return site.set_from_lonlat(ws, args.sbl, args.target, args.lonlat, **common)
        if args.state_plane:
            from ..domain.vocabulary import CaptureMethod
            from ..geo.capture import parse_pairs

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
    from ..geo import capture

    fix = (capture.average_log(args.log) if args.log else
           capture.average_device(args.device, seconds=args.seconds, baud=args.baud))
    if fix.note:
        print(f"gps: note: {fix.note}.", file=sys.stderr)
    return fix.as_json()
