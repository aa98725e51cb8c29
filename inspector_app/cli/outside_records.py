"""`providers add|set|list` and `records template|import|documents`: the records that
arrive from outside the office (Chapter 202, § 202-8) and who writes them."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..domain.records import PROVIDER_KINDS, RECEIVED_KINDS
from .common import Commands, Parser, input_file, iso_date, workspace


def add_providers(commands: Commands) -> None:
    providers = commands.add_parser(
        "providers", help="(office) the ETU representatives, septage haulers and private "
                          "certified inspectors whose records the office takes in")
    sub = providers.add_subparsers(dest="providers_command", required=True,
                                   parser_class=Parser)
    add = sub.add_parser("add", help="register a provider by certification or permit number")
    change = sub.add_parser("set", help="change a provider's name, company or validity")
    for command in (add, change):
        command.add_argument("--kind", required=True, choices=PROVIDER_KINDS,
                             help="an ETU manufacturer's representative, a septage hauler "
                                  "or a private certified inspector")
        command.add_argument("--number", required=True, metavar="CERT",
                             help="the certification (or NYSDEC permit) number")
        command.add_argument("--name", required=command is add, metavar="NAME",
                             help="the person's (or hauler's) name")
        command.add_argument("--company", metavar="TEXT", help="the company, if any")
        command.add_argument("--valid-through", type=iso_date, metavar="DATE",
                             help="the last day the certification or permit is valid, "
                                  "YYYY-MM-DD (records dated later are refused)")
    add.set_defaults(handler=_providers_add)
    change.set_defaults(handler=_providers_set)
    listed = sub.add_parser("list", help="the registered providers")
    listed.add_argument("--kind", choices=PROVIDER_KINDS, help="only this kind")
    listed.set_defaults(handler=_providers_list)


def _providers_add(args: argparse.Namespace) -> Any:
    from ..services.reference.providers import add_provider

    with workspace(args) as ws:
        return add_provider(ws, kind=args.kind, name=args.name, number=args.number,
                            company=args.company, valid_through=args.valid_through)


def _providers_set(args: argparse.Namespace) -> Any:
    from ..services.reference.providers import set_provider

    with workspace(args) as ws:
        return set_provider(ws, kind=args.kind, number=args.number, name=args.name,
                            company=args.company, valid_through=args.valid_through)


def _providers_list(args: argparse.Namespace) -> Any:
    from ..services.reference.providers import list_providers

    with workspace(args) as ws:
        return list_providers(ws, args.kind)


def add_records(commands: Commands) -> None:
    records = commands.add_parser(
        "records", help="(office) ETU service reports and pump-out records sent in by "
                        "providers: the template, the import, the documents taken in")
    sub = records.add_subparsers(dest="records_command", required=True, parser_class=Parser)
    template = sub.add_parser("template", help="write the template the office sends out")
    template.add_argument("--kind", required=True, choices=tuple(RECEIVED_KINDS),
                          help="ETU service reports (§ 202-8 A) or pump-out records "
                               "(§ 202-8 B)")
    template.add_argument("--out", type=Path, required=True, metavar="FILE.csv|FILE.xlsx",
                          help="the template to write: CSV (the header row) or Excel "
                               "(.xlsx: with a row saying what each column takes, and "
                               "cells checked as they are typed)")
    template.set_defaults(handler=_records_template)
    intake = sub.add_parser("import", help="take in a provider's file: all or nothing, "
                                           "unless --skip-bad")
    intake.add_argument("file", type=input_file("provider's file"), metavar="FILE",
                        help="CSV or Excel (.xlsx), with the template's columns")
    intake.add_argument("--kind", required=True, choices=tuple(RECEIVED_KINDS),
                        help="what the file holds: ETU service reports or pump-out records")
    intake.add_argument("--received", type=iso_date, metavar="DATE",
                        help="the day the file arrived, YYYY-MM-DD (default: today); a "
                             "row's own report or record date wins")
    intake.add_argument("--skip-bad", action="store_true",
                        help="store the good rows and list the refused ones")
    intake.set_defaults(handler=_records_import)
    documents = sub.add_parser("documents", help="the files taken in, by SHA-256")
    documents.set_defaults(handler=_records_documents)


def _records_template(args: argparse.Namespace) -> Any:
    from ..services.records.intake import write_template

    return write_template(args.kind, args.out)


def _records_import(args: argparse.Namespace) -> Any:
    from ..services.records.intake import import_records

    with workspace(args) as ws:
        return import_records(ws, args.file, args.kind, received=args.received,
                              skip_bad=args.skip_bad).as_json()


def _records_documents(args: argparse.Namespace) -> Any:
    from ..services.records.intake import received_documents

    with workspace(args) as ws:
        return received_documents(ws)
