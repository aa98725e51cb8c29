"""`attest` and `attestations`: the attestation a report of findings carries (Chapter 202,
Article III), with the signature as an image file."""

from __future__ import annotations

import argparse
from typing import Any

from ..domain.records import ATTESTER_KINDS
from .common import SBL_HELP, Commands, input_file, iso_date, workspace


def add_attest(commands: Commands) -> None:
    attest = commands.add_parser(
        "attest", help="record the attestation of a parcel's report of findings by a design "
                       "professional or a certified inspector, with the signature image")
    attest.add_argument("sbl", help=SBL_HELP)
    attest.add_argument("--name", default="",
                        help="the attesting person, as signed (for an inspection recorded on "
                             "a certified inspector's laptop: that inspector, as enrolled)")
    attest.add_argument("--kind", default="", choices=ATTESTER_KINDS,
                        help="a design professional (PE or RA) or an OTN-certified inspector "
                             "(for an inspection recorded on a certified inspector's laptop: "
                             "certified_inspector unless given)")
    attest.add_argument("--number", default="",
                        help="the certification (OTN) or licence number (for an inspection "
                             "recorded on a certified inspector's laptop: as enrolled)")
    attest.add_argument("--signature", type=input_file("signature image"), required=True,
                        metavar="FILE",
                        help="the signature: a PNG or JPEG image (scanned or drawn)")
    attest.add_argument("--drawn", action="store_true",
                        help="the image was drawn on a signature pad (default: scanned)")
    attest.add_argument("--on", type=iso_date, metavar="DATE",
                        help="the day it was signed, YYYY-MM-DD (default today)")
    attest.set_defaults(handler=_attest)
    listed = commands.add_parser("attestations", help="a parcel's attestations, oldest first")
    listed.add_argument("sbl", help=SBL_HELP)
    listed.set_defaults(handler=_attestations)


def _attest(args: argparse.Namespace) -> Any:
    from ..services.letters.attestation import Attester, attest, read_signature_file

    data = read_signature_file(args.signature)
    with workspace(args) as ws:
        return attest(ws, args.sbl, Attester(args.name, args.kind, args.number), data,
                      filename=str(args.signature),
                      source="drawn" if args.drawn else "scanned", on=args.on)


def _attestations(args: argparse.Namespace) -> Any:
    from ..services.letters.attestation import attestations

    with workspace(args) as ws:
        return attestations(ws, args.sbl)
