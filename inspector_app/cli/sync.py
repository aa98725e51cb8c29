"""`sync ...`: field <-> office sync by package file, and the field kits that enrol a
laptop."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..json_input import loads
from ..paths import DATABASE_ENV, UnreadableFile, resolve_data_dir
from .common import Commands, Parser, input_file, starts_a_folder, workspace


def add_sync(commands: Commands) -> None:
    sync = commands.add_parser("sync", help="field <-> office sync by package file")
    sync_sub = sync.add_subparsers(dest="sync_command", required=True, parser_class=Parser)
    _add_kits(sync_sub)
    _add_packages(sync_sub)
    _add_devices(sync_sub)
    _add_proposals(sync_sub)


def _add_proposals(sync_sub: Commands) -> None:
    """`sync proposals|accept|reject|held`: what waits for a person."""
    sync_sub.add_parser("proposals", help="parcels laptops found in the field, and what "
                                          "was decided").set_defaults(handler=_sync_proposals)
    accept = sync_sub.add_parser("accept", help="(office) add a proposed parcel to the roll "
                                                "and assign it to its laptop")
    accept.add_argument("parcel", metavar="SBL",
                        help="the proposed parcel's SBL, as `sync proposals` lists it")
    accept.set_defaults(handler=_sync_accept)
    reject = sync_sub.add_parser("reject", help="(office) refuse a proposed parcel; its "
                                                "laptop is told why")
    reject.add_argument("parcel", metavar="SBL",
                        help="the proposed parcel's SBL, as `sync proposals` lists it")
    reject.add_argument("--reason", required=True, metavar="TEXT",
                        help="why, told to the laptop that proposed it")
    reject.set_defaults(handler=_sync_reject)
    sync_sub.add_parser("held", help="changes kept aside for a person, with why"
                        ).set_defaults(handler=_sync_held)


def _sync_proposals(args: argparse.Namespace) -> Any:
    from ..services.exchange import proposal_flow

    with workspace(args) as ws:
        return proposal_flow.listed(ws)


def _sync_accept(args: argparse.Namespace) -> Any:
    from ..services.exchange import proposal_flow

    with workspace(args) as ws:
        return proposal_flow.accept(ws, args.parcel)


def _sync_reject(args: argparse.Namespace) -> Any:
    from ..services.exchange import proposal_flow

    with workspace(args) as ws:
        return proposal_flow.reject(ws, args.parcel, reason=args.reason)


def _sync_held(args: argparse.Namespace) -> Any:
    from ..services.exchange import proposal_flow

    with workspace(args) as ws:
        return proposal_flow.kept_aside(ws)


def _add_kits(sync_sub: Commands) -> None:
    """`sync enroll` and `sync join`: a laptop set up from a field kit."""
    enroll = sync_sub.add_parser("enroll", help="(office) enrol a laptop: write its field kit")
    enroll.add_argument("--device", required=True, metavar="NAME",
                        help="the new laptop's name, unique at this office")
    enroll.add_argument("--out", type=Path, required=True, metavar="FILE",
                        help="the field kit to write, named NAME.wikit (encrypted with the "
                             "passphrase; a file that only `sync join` opens)")
    enroll.add_argument("--parcels", metavar="SBL,SBL", help="the laptop's parcels")
    enroll.add_argument("--worklist", metavar="NAME",
                        help="the parcels on this work list today (with or without --parcels)")
    enroll.add_argument("--passphrase-file", type=input_file("passphrase file"), metavar="FILE",
                        help="the kit's passphrase, the file's first line (default: ask)")
    enroll.add_argument("--inspector", metavar="FULL NAME",
                        help="a private certified inspector's laptop: the inspector, as every "
                             "change made on it is recorded (with --certification)")
    enroll.add_argument("--certification", metavar="NUMBER",
                        help="the inspector's certification number, as the providers "
                             "register holds it (with --inspector)")
    enroll.set_defaults(handler=_sync_enroll)
    join = sync_sub.add_parser("join", help="(laptop) set up an empty data folder from a kit")
    starts_a_folder(join)  # the kit's folder is made by joining, not by `workspace`
    join.add_argument("file", type=input_file("field kit"),
                      help="the field kit the office wrote for this laptop (`sync enroll`): "
                           "NAME.wikit, read by its content, so a kit an earlier version "
                           "wrote as .zip joins too")
    join.add_argument("--passphrase-file", type=input_file("passphrase file"), metavar="FILE",
                      help="the kit's passphrase, the file's first line (default: ask)")
    join.add_argument("--fingerprint", metavar="XXXX-XXXX-XXXX-XXXX",
                      help="the office key fingerprint shown at enrolment; refuse any other")
    join.set_defaults(handler=_sync_join)


def _add_packages(sync_sub: Commands) -> None:
    """`sync export|assign|import|conflicts|resolve`: the packages and what they carry."""
    sync_export = sync_sub.add_parser("export", help="write what the other side may not have")
    sync_export.add_argument("--out", type=Path, required=True, metavar="FILE",
                             help="the package to write (a signed zip file)")
    sync_export.add_argument("--device", metavar="NAME",
                             help="(office) the laptop the package is for (needed when more "
                                  "than one is enrolled): its parcels only")
    sync_export.set_defaults(handler=_sync_export)
    sync_assign = sync_sub.add_parser(
        "assign", help="(office) give an enrolled laptop more parcels, or take some away")
    sync_assign.add_argument("--device", required=True, metavar="NAME",
                             help="the enrolled laptop's name")
    sync_assign.add_argument("--parcels", metavar="SBL,SBL", help="the parcels to add or remove")
    sync_assign.add_argument("--worklist", metavar="NAME",
                             help="the parcels on this work list today (with or without "
                                  "--parcels)")
    sync_assign.add_argument("--remove", action="store_true",
                             help="take these parcels from the laptop (it clears their owners' "
                                  "contact data once the office has all its changes)")
    sync_assign.set_defaults(handler=_sync_assign)
    sync_import = sync_sub.add_parser("import", help="apply a package from the other side")
    sync_import.add_argument("file", type=input_file("sync package"),
                             help="a package the other side wrote with `sync export`")
    sync_import.set_defaults(handler=_sync_import)
    sync_sub.add_parser("conflicts", help="unresolved conflicts, both values side by side"
                        ).set_defaults(handler=_sync_conflicts)
    resolve = sync_sub.add_parser("resolve", help="resolve a conflict (the choice is synced)")
    resolve.add_argument("conflict_id", metavar="CONFLICT_ID",
                         help="the conflict's id, as `sync conflicts` lists it")
    choice = resolve.add_mutually_exclusive_group(required=True)
    choice.add_argument("--keep-local", action="store_true", help="keep the value here")
    choice.add_argument("--take-incoming", action="store_true",
                        help="take the value from the other side")
    choice.add_argument("--value", metavar="JSON", help="enter a value (JSON, e.g. '\"Jane Roe\"')")
    resolve.set_defaults(handler=_sync_resolve)


def _add_devices(sync_sub: Commands) -> None:
    """`sync status|revoke|rotate-key`: the devices and their keys."""
    sync_sub.add_parser("status", help="devices, acknowledgements, gaps, open conflicts"
                        ).set_defaults(handler=_sync_status)
    revoke = sync_sub.add_parser("revoke", help="(office) refuse every later package of a "
                                                "lost or retired laptop")
    revoke.add_argument("--device", required=True, metavar="NAME",
                        help="the enrolled laptop's name")
    revoke.add_argument("--reason", metavar="TEXT", help="why, kept with the revocation")
    revoke.set_defaults(handler=_sync_revoke)
    sync_sub.add_parser("rotate-key", help="a new signing key for this device, endorsed by "
                                           "the old one, which is deleted"
                        ).set_defaults(handler=_sync_rotate_key)


def _passphrase(args: argparse.Namespace, *, confirm: bool) -> str:
    """The field kit passphrase: the first line of --passphrase-file, or typed at the
    terminal (twice when choosing it)."""
    if args.passphrase_file is not None:
        from ..text_input import decode

        try:
            raw = args.passphrase_file.read_bytes()
        except OSError as exc:
            raise UnreadableFile(args.passphrase_file, f"cannot be read ({exc.strerror}); "
                                 "copy it to a local disk and try again") from None
        text = decode(raw, args.passphrase_file, what="passphrase file",
                      save_as="UTF-8 text").text
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
    from ..services.exchange import enroll

    if (args.inspector is None) != (args.certification is None):
        given, missing = (("--inspector", "--certification") if args.certification is None
                          else ("--certification", "--inspector"))
        raise InputError(f"sync enroll: {given} was given without {missing}; a certified "
                         "inspector's laptop names both the inspector and their certification "
                         "number.")
    parcels = [s.strip() for s in args.parcels.split(",") if s.strip()] if args.parcels else None
    if not parcels and not args.worklist:
        raise InputError("sync enroll: name the laptop's parcels with --parcels SBL,SBL or a "
                         "work list with --worklist NAME; a field kit carries only the "
                         "parcels assigned to that laptop.")
    passphrase = _passphrase(args, confirm=True)
    with workspace(args) as ws:
        return enroll(ws, args.device, args.out, parcels, passphrase=passphrase,
                      worklist=args.worklist, inspector=args.inspector,
                      certification=args.certification)


def _sync_join(args: argparse.Namespace) -> Any:
    from ..services.exchange import join
    from ..services.workspace import default_user, working_name

    _laptop_only(args)
    user = working_name(default_user() if args.user is None else args.user)
    passphrase = _passphrase(args, confirm=False)
    result = join(resolve_data_dir(args.data_dir), args.file, user=user,
                  passphrase=passphrase, fingerprint=args.fingerprint)
    if args.fingerprint is None:
        print(f"Check that the office key fingerprint {result['office_fingerprint']} is the "
              "one the office showed when it wrote this kit.", file=sys.stderr)
    return result


def _laptop_only(args: argparse.Namespace) -> None:
    """`sync join` sets up a laptop, whose records are its data folder's own file: an office
    database named to it is refused before anything is asked or made."""
    named = ("--database" if getattr(args, "database", None)
             else DATABASE_ENV if os.environ.get(DATABASE_ENV) else None)
    if named is not None:
        unset = "without --database" if named == "--database" else f"with {named} unset"
        raise InputError(f"sync join: a laptop keeps its records in its own data folder and "
                         f"never uses an office database, so {named} is not taken here; run "
                         f"`sync join` {unset}.")


def _sync_export(args: argparse.Namespace) -> Any:
    from ..services.exchange import export

    with workspace(args) as ws:
        return export(ws, args.out, device=args.device)


def _sync_assign(args: argparse.Namespace) -> Any:
    from ..services.exchange.assignment import assign

    parcels = [s.strip() for s in args.parcels.split(",") if s.strip()] if args.parcels else None
    with workspace(args) as ws:
        return assign(ws, args.device, parcels, worklist=args.worklist, remove=args.remove)


def _sync_import(args: argparse.Namespace) -> Any:
    from ..services.exchange import import_package

    with workspace(args) as ws:
        return import_package(ws, args.file)


def _sync_conflicts(args: argparse.Namespace) -> Any:
    from ..services.exchange import conflicts

    with workspace(args) as ws:
        return conflicts(ws)


def _sync_resolve(args: argparse.Namespace) -> Any:
    from ..services.exchange import resolve

    value = None
    if args.value is not None:
        try:
            value = loads(args.value)
        except ValueError:
            raise InputError(f"sync resolve: --value {args.value!r} is not JSON; quote text "
                             "values, e.g. '\"Jane Roe\"'.") from None
    choice = ("keep_local" if args.keep_local else "take_incoming" if args.take_incoming
              else "enter_value")
    with workspace(args) as ws:
        return resolve(ws, args.conflict_id, choice=choice, value=value)


def _sync_status(args: argparse.Namespace) -> Any:
    from ..services.exchange import status

    with workspace(args) as ws:
        return status(ws)


def _sync_revoke(args: argparse.Namespace) -> Any:
    from ..services.exchange import revoke

    with workspace(args) as ws:
        return revoke(ws, args.device, reason=args.reason)


def _sync_rotate_key(args: argparse.Namespace) -> Any:
    from ..services.exchange import rotate_key

    with workspace(args) as ws:
        return rotate_key(ws)
