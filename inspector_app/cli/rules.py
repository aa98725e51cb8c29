"""`evaluate`, `worklist`, `suggestion` and `jurisdiction`: the law applied to a case, to
the office's parcels, and the jurisdiction files that hold it."""

from __future__ import annotations

import argparse
from datetime import date
from typing import Any

from .. import casefile
from ..errors import InputError
from .common import (
    AS_OF_HELP,
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


def add_evaluate(commands: Commands) -> None:
    evaluate = commands.add_parser("evaluate", help="apply the jurisdiction's rules to a case")
    evaluate.add_argument("file", type=input_file("case file"), nargs="?", metavar="CASE.json",
                          help=f"{CASE_FILE_HELP}; or give --sbl")
    evaluate.add_argument("--sbl", help="evaluate the stored parcel instead of a case file: "
                                        f"{SBL_HELP}")
    evaluate.add_argument("--as-of", type=iso_date, metavar="DATE", help=AS_OF_HELP)
    evaluate.set_defaults(handler=_evaluate)


def add_worklist(commands: Commands) -> None:
    from ..services.lists.worklists import WORKLISTS

    worklist = commands.add_parser("worklist", help="parcels needing attention, as of a date")
    worklist.add_argument("name", nargs="?", choices=WORKLISTS,
                          help="one work list (default: all of them)")
    worklist.add_argument("--as-of", type=iso_date, metavar="DATE", help=AS_OF_HELP)
    worklist.set_defaults(handler=_worklist)


def add_suggestion(commands: Commands) -> None:
    suggestion = commands.add_parser("suggestion", help="accept or reject a suggested finding")
    suggestion.add_argument("decision", choices=("accept", "reject"),
                            help="accept (the component is marked substandard; a \"pump the "
                                 "tank\" finding leaves its condition) or reject")
    suggestion.add_argument("sbl", help=SBL_HELP)
    suggestion.add_argument("key", help="the suggested finding's key, as `evaluate --sbl SBL` "
                                        "lists it under suggested_findings (e.g. "
                                        "septic_tank_capacity/septic_tank#1)")
    suggestion.add_argument("--note", metavar="TEXT", help="why, kept with the decision")
    suggestion.add_argument("--as-of", type=iso_date, metavar="DATE", help=AS_OF_HELP)
    suggestion.set_defaults(handler=_suggestion)


def add_jurisdiction(commands: Commands) -> None:
    juris = commands.add_parser("jurisdiction", help="list, show, check or add the "
                                                     "jurisdiction files (one law per "
                                                     "municipality)")
    juris_sub = juris.add_subparsers(dest="jurisdiction_command", required=True,
                                     parser_class=Parser)
    juris_sub.add_parser("list", help="every jurisdiction file in force and the "
                                      "municipalities it covers"
                         ).set_defaults(handler=_jurisdiction_list)
    show = juris_sub.add_parser("show", help="the rules' numbers and citations in force")
    show.add_argument("--municipality", metavar="NAME",
                      help="the law of this municipality (default: the Town of Canandaigua's)")
    show.set_defaults(handler=_jurisdiction_show)
    check = juris_sub.add_parser("check", help="check a jurisdiction file without using it")
    check.add_argument("file", type=input_file("jurisdiction file"),
                       help="a jurisdiction file (TOML, docs/jurisdictions.md)")
    check.set_defaults(handler=_jurisdiction_check)
    use = juris_sub.add_parser("use", help="check a jurisdiction file and add it to this data "
                                           "folder (replacing the one with its id)")
    starts_a_folder(use)
    use.add_argument("file", type=input_file("jurisdiction file"),
                     help="a jurisdiction file (TOML, docs/jurisdictions.md); it replaces the "
                          "file of the same id")
    use.set_defaults(handler=_jurisdiction_use)


def _evaluate(args: argparse.Namespace) -> Any:
    from ..services.parcel.evaluation_json import evaluation_json, no_law_json
    from ..services.session.laws import NoLawFacts

    if (args.file is None) == (args.sbl is None):
        raise InputError("evaluate: give either a case file or --sbl SBL.")
    today = args.as_of or date.today()
    case = None if args.file is None else casefile.read_file(args.file, today=today)
    with (settings_workspace(args) if case is not None else workspace(args)) as ws:
        found = (ws.assess_case(case, as_of=today) if case is not None
                 else ws.assess_parcel(args.sbl, as_of=today))
        if isinstance(found, NoLawFacts):
            return no_law_json(found)
        municipality = (case or ws.load_case(args.sbl)).parcel.municipality
        return evaluation_json(found, ws.law_for(municipality))


def _worklist(args: argparse.Namespace) -> Any:
    from ..services.lists.worklists import WORKLISTS, worklists

    with workspace(args) as ws:
        lists = worklists(ws, as_of=args.as_of or date.today(),
                          names=(args.name,) if args.name else WORKLISTS)
    return lists[args.name] if args.name else lists


def _suggestion(args: argparse.Namespace) -> Any:
    with workspace(args) as ws:
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
    del out["confirmed"]
    out["provisions"] = {
        key: {"citation": text,
              "section_confirmed": key not in j.unconfirmed_citations,
              "issued_letters_cite": j.letter_cite(key),
              "confirmed": None if key not in j.confirmed else {
                  "source": j.confirmed[key].source, "by": j.confirmed[key].by,
                  "on": j.confirmed[key].on.isoformat()}}
        for key, text in j.citations.items()}
    return out


def _jurisdiction_show(args: argparse.Namespace) -> Any:
    with workspace(args) as ws:
        if args.municipality is None:
            return _jurisdiction_json(ws.jurisdiction)
        return _jurisdiction_json(ws.law_for(args.municipality))


def _jurisdiction_list(args: argparse.Namespace) -> Any:
    from ..services.session.laws import describe_laws

    with workspace(args) as ws:
        return describe_laws(ws.laws)


def _jurisdiction_check(args: argparse.Namespace) -> Any:
    from ..services.session.laws import load_jurisdiction_file

    return _jurisdiction_json(load_jurisdiction_file(args.file))


def _jurisdiction_use(args: argparse.Namespace) -> Any:
    from ..services.session.laws import load_jurisdiction_file, use_jurisdiction

    load_jurisdiction_file(args.file)  # refuse a broken file before the data folder is opened
    with workspace(args) as ws:
        return use_jurisdiction(ws, args.file)
