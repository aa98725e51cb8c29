"""The sync package: one zip file carrying changes (or a field kit) between devices.

Members: `manifest.json` (format, package id, source device, sequence range, counts,
creation time, the SHA-256 of every other member, the signing public key and the
endorsements leading to it), `signature` (the Ed25519 signature of the manifest's bytes by
the source device's private key), `changes.jsonl`, and for a field kit
`kit.json`, `records.jsonl`, `history.jsonl`; photos and documents as
`attachments/<sha256>`.

`read_package` checks everything before anyone looks inside: only known member names, no
paths, no duplicates, caps on entries, sizes and compression ratio, a strict schema for
the manifest and for every change, every hash, and the signature. Any problem raises
`PackageError` (exit status 2) and nothing has been touched.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import re
import zipfile
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any
from zlib import error as zlib_error

from ..errors import InputError
from ..json_input import NonFiniteNumber, loads, schema_check
from ..nesting import JSON_STRINGS, TooDeep, check_depth
from ..paths import UnreadableFile, UnwritablePath, read_regular_file
from ..zip_input import ZipBounds, ZipProblem, check_members, read_member
from . import keys

FORMAT = "watershed-inspector/sync/2"
# Packages and kits of the earlier format were signed with a key shared by both sides.
SHARED_KEY_FORMAT = "watershed-inspector/sync/1"
MAX_PACKAGE_BYTES = 2 * 1024**3
MAX_MEMBERS = 50_000
MAX_MEMBER_BYTES = 200 * 1024**2
MAX_TOTAL_BYTES = 4 * 1024**3
BOUNDS = ZipBounds(members=MAX_MEMBERS, member_bytes=MAX_MEMBER_BYTES,
                   total_bytes=MAX_TOTAL_BYTES)
MAX_MANIFEST_BYTES = 4 * 1024**2
FIXED_MEMBERS = ("manifest.json", "signature", "changes.jsonl", "kit.json", "records.jsonl",
                 "history.jsonl", "lot_lines.jsonl")
_ATTACHMENT = re.compile(r"\Aattachments/([0-9a-f]{64})\Z")
# A field kit's aerial imagery (a GeoTIFF), named by its SHA-256 like an attachment.
_BASEMAP = re.compile(r"\Abasemaps/([0-9a-f]{64})\Z")
_UUIDISH = {"type": "string", "pattern": r"^[0-9A-Za-z-]{8,64}$"}
_TIME = {"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?\+00:00$"}
_TABLE = {"type": "string", "pattern": r"^[a-z_]{2,40}$"}
_KEY = {"type": "string", "pattern": "^[0-9a-f]{64}$"}  # an Ed25519 public key
MAX_KEY_CHAIN = 64  # endorsements a package carries: one for each rotation of its key
_SIGNATURE = re.compile(r"[0-9a-f]{128}")  # Ed25519, hex

MANIFEST_SCHEMA = {
    "type": "object", "additionalProperties": False,
    "required": ["format", "kind", "package_id", "source_device", "source_name",
                 "created_at", "first_seq", "last_seq", "counts", "acknowledges", "members"],
    "properties": {
        "format": {"const": FORMAT},
        "kind": {"enum": ["changes", "field_kit"]},
        "package_id": _UUIDISH, "source_device": _UUIDISH,
        "source_name": {"type": "string", "maxLength": 200},
        "created_at": _TIME,
        "first_seq": {"type": ["integer", "null"], "minimum": 0},
        "last_seq": {"type": ["integer", "null"], "minimum": 0},
        "source_seq_through": {"type": "integer", "minimum": 0},
        "counts": {"type": "object", "additionalProperties": False,
                   "required": ["changes", "attachments"],
                   "properties": {"changes": {"type": "integer", "minimum": 0},
                                  "attachments": {"type": "integer", "minimum": 0}}},
        "acknowledges": {"type": "array", "maxItems": 1000, "items": {
            "type": "object", "additionalProperties": False,
            "required": ["device_id", "through_seq"],
            "properties": {"device_id": _UUIDISH,
                           "through_seq": {"type": "integer", "minimum": 0}}}},
        "members": {"type": "object", "maxProperties": MAX_MEMBERS,
                    "additionalProperties": {"type": "string", "pattern": "^[0-9a-f]{64}$"}},
        # The public key that signed the package, and the endorsements leading to it from
        # the sender's first key, oldest first (absent from packages of earlier versions).
        "signing_key": _KEY,
        "key_chain": {"type": "array", "maxItems": MAX_KEY_CHAIN, "items": {
            "type": "object", "additionalProperties": False,
            "required": ["previous_key", "public_key", "endorsed_at", "signature"],
            "properties": {"previous_key": _KEY, "public_key": _KEY, "endorsed_at": _TIME,
                           "signature": {"type": "string", "pattern": "^[0-9a-f]{128}$"}}}},
        # An office package: the one laptop it is for, and that laptop's parcels now.
        "for_device": _UUIDISH,
        "assignment": {"type": "object", "additionalProperties": False,
                       "required": ["revision", "parcels"],
                       "properties": {"revision": {"type": "integer", "minimum": 0},
                                      "parcels": {"type": "array", "maxItems": 100_000,
                                                  "items": _UUIDISH}}},
        # A laptop's package: the revision of its assignment it holds.
        "assignment_revision": {"type": "integer", "minimum": 0},
        # An office package: what the office decided on the parcels that laptop proposed.
        "proposals": {"type": "array", "maxItems": 10_000, "items": {
            "type": "object", "additionalProperties": False,
            "required": ["parcel_id", "sbl", "status", "decided_by", "decided_at", "note"],
            "properties": {"parcel_id": _UUIDISH,
                           "sbl": {"type": "string", "maxLength": 60},
                           "status": {"enum": ["accepted", "rejected"]},
                           "decided_by": {"type": "string", "maxLength": 200},
                           "decided_at": _TIME,
                           "note": {"type": ["string", "null"], "maxLength": 5000}}}},
    },
    "dependencies": {"key_chain": ["signing_key"]},
}
_JSON_VALUE: dict[str, Any] = {}  # any JSON value
_CHANGE_FIELDS = ["change_id", "at", "user", "device_id", "device_seq", "table", "record_id",
                  "parcel_id", "op", "field", "old", "new", "record_version", "source_seq"]
CHANGE_SCHEMA = {
    "type": "object", "additionalProperties": False,
    "required": _CHANGE_FIELDS,
    "properties": {
        "change_id": _UUIDISH, "at": _TIME, "user": {"type": "string", "maxLength": 200},
        "device_id": _UUIDISH, "device_seq": {"type": ["integer", "null"], "minimum": 1},
        "table": _TABLE, "record_id": _UUIDISH,
        "parcel_id": {"anyOf": [_UUIDISH, {"type": "null"}]},
        "op": {"enum": ["insert", "update", "delete"]},
        "field": {"anyOf": [{"type": "string", "pattern": r"^[a-z_0-9]{1,60}$"},
                            {"type": "null"}]},
        "old": _JSON_VALUE, "new": _JSON_VALUE,
        "record_version": {"type": "integer", "minimum": 1},
        "source_seq": {"type": "integer", "minimum": 1},
    },
    "allOf": [
        {"if": {"properties": {"op": {"const": "update"}}},
         "then": {"properties": {"field": {"type": "string"}}}},
        {"if": {"properties": {"op": {"const": "insert"}}},
         "then": {"properties": {"new": {"type": "object"}, "field": {"type": "null"}}}},
    ],
}
# Compiled once to Python code: a package of 10,000 changes is checked change by change.
_MANIFEST_VALIDATOR = schema_check(MANIFEST_SCHEMA)
_CHANGE_VALIDATOR = schema_check(CHANGE_SCHEMA)



def _whole(node: Mapping[str, Any]) -> re.Pattern[str]:
    """A node's `^...$` pattern, to match a whole text (as the schema's compiled code
    does: its `$` is an end of the text, with no newline before it)."""
    return re.compile(str(node["pattern"]).removeprefix("^").removesuffix("$") + r"\Z")


_CHANGE_KEYS = frozenset(_CHANGE_FIELDS)
_ID, _AT, _TABLE_NAME = _whole(_UUIDISH), _whole(_TIME), _whole(_TABLE)
_FIELD = _whole(CHANGE_SCHEMA["properties"]["field"]["anyOf"][0])  # type: ignore[index]


# The names a package's changes repeat (a device, its parcels and records, tables and
# fields), each matched once: a text's answer is kept, as long as it is among the last few
# thousand asked.
@lru_cache(maxsize=4096)
def _an_id(text: str) -> bool:
    return _ID.match(text) is not None


@lru_cache(maxsize=256)
def _a_table(text: str) -> bool:
    return _TABLE_NAME.match(text) is not None


@lru_cache(maxsize=1024)
def _a_field(text: str) -> bool:
    return _FIELD.match(text) is not None


def _plainly_a_change(c: Any) -> bool:
    """Whether a change passes `CHANGE_SCHEMA`, by direct tests of each of its keys (the
    schema's code raises and catches an exception for each `if` it tries, which costs
    more than the rest of a change's check). It never passes what the schema refuses;
    what it does not pass goes to the schema, for its answer and words."""
    if type(c) is not dict or c.keys() != _CHANGE_KEYS:
        return False
    op, field = c["op"], c["field"]
    if op == "update":
        if type(field) is not str or not _a_field(field):
            return False
    elif op == "insert":
        if field is not None or type(c["new"]) is not dict:
            return False
    elif op != "delete" or (field is not None and (type(field) is not str
                                                   or not _a_field(field))):
        return False
    seq, parcel, user, version, source = (c["device_seq"], c["parcel_id"], c["user"],
                                          c["record_version"], c["source_seq"])
    change, device, record, at, table = (c["change_id"], c["device_id"], c["record_id"],
                                         c["at"], c["table"])
    return (type(version) is int and version >= 1 and type(source) is int and source >= 1
            and (seq is None or (type(seq) is int and seq >= 1))
            and (parcel is None or (type(parcel) is str and _an_id(parcel)))
            and type(user) is str and len(user) <= 200
            and type(change) is str and _ID.match(change) is not None
            and type(device) is str and _an_id(device)
            and type(record) is str and _an_id(record)
            and type(at) is str and _AT.match(at) is not None
            and type(table) is str and _a_table(table))


def change_problem(change: Any) -> str | None:
    """What `CHANGE_SCHEMA` says is wrong with one change of a package, or None."""
    return None if _plainly_a_change(change) else _CHANGE_VALIDATOR(change)


# `json.loads` of a text without what it does around the reading (guessing the bytes'
# encoding, skipping white space about the value), which costs a change's line almost a
# quarter as much again as the reading
_DECODE = json.JSONDecoder().raw_decode


def _json_line(line: bytes) -> Any:
    """`json.loads(line)`: read directly where the line is plainly one JSON object in
    UTF-8 (from `{` to `}`, as `json.loads` reads such bytes), by `json.loads` itself, for
    its value or its error, where it is anything else; TooDeep, before it is read, where
    it nests too deep."""
    check_depth(line, JSON_STRINGS)
    if line[:1] == b"{" and line[-1:] == b"}" and line[1:2] != b"\x00":
        try:
            text = line.decode("utf-8", "surrogatepass")
            value, end = _DECODE(text)
        except ValueError:
            pass
        else:
            if end == len(text):
                return value
    return json.loads(line)


# What zipfile raises for damaged archives: a bad header, a bad deflate stream, a
# compression method damaged into one it does not know, a truncated member...
_UNREADABLE = (zipfile.BadZipFile, zipfile.LargeZipFile, zlib_error, OSError, ValueError,
               EOFError, NotImplementedError, RuntimeError, KeyError)


class PackageError(InputError):
    """A damaged, tampered, foreign or unsafe package. Nothing was changed."""


@dataclass
class Package:
    manifest: dict[str, Any]
    changes: list[dict[str, Any]]
    attachments: dict[str, bytes]
    extra: dict[str, bytes] = field(default_factory=dict)  # kit members
    sha256: str = ""
    already_imported: bool = False
    # Keys of the sender this data folder did not hold, each with the endorsement that
    # vouches for it, oldest first: recorded when the package is imported.
    learned_keys: list[dict[str, str]] = field(default_factory=list)


def sign(manifest_bytes: bytes, private_key: str) -> str:
    """The Ed25519 signature of the manifest's exact bytes by the sender, hex."""
    return keys.sign(manifest_bytes, private_key)


def write_private(path: Path, data: bytes) -> None:
    """Write a file atomically, readable and writable by its owner only (0600)."""
    temp = path.with_name(f".{path.name}.tmp")
    try:
        temp.unlink(missing_ok=True)
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(temp, 0o600)
        os.replace(temp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            temp.unlink(missing_ok=True)
        raise UnwritablePath(path, exc) from None


def package_bytes(manifest: dict[str, Any], members: Mapping[str, bytes],
                  private_key: str | None) -> bytes:
    """A package as bytes: members, their hashes in the manifest, the signature."""
    manifest = {**manifest, "members": {name: hashlib.sha256(data).hexdigest()
                                        for name, data in sorted(members.items())}}
    manifest_bytes = json.dumps(manifest, indent=2, sort_keys=True).encode()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as z:
        z.writestr("manifest.json", manifest_bytes)
        if private_key is not None:
            z.writestr("signature", sign(manifest_bytes, private_key))
        for name, data in sorted(members.items()):
            z.writestr(name, data)
    return buffer.getvalue()


def write_package(path: Path, manifest: dict[str, Any], members: Mapping[str, bytes],
                  private_key: str | None) -> None:
    """Write a package atomically and owner-only, signed with the sender's private key."""
    write_private(path, package_bytes(manifest, members, private_key))


def _signing_keys(manifest: Mapping[str, Any], current: str, held: Sequence[str],
                  refuse: Callable[[str], PackageError]) -> tuple[list[str],
                                                                  list[dict[str, str]]]:
    """The keys to check the signature with, and the sender's keys learned on the way.

    A package names the key that signed it. One this data folder holds for the sender (its
    current key or an earlier one) is used as it is; another only through the package's
    endorsements, each signed by the key before it, beginning at the sender's current key.
    A package of an earlier version names no key: the keys held for the sender are tried,
    the current one first."""
    known = [current, *(k for k in held if k != current)]
    claimed = manifest.get("signing_key")
    if claimed is None:
        return known, []
    if claimed in known:
        return [claimed], []
    name = manifest["source_name"]
    chain = manifest.get("key_chain", [])
    start = next((i for i, link in enumerate(chain) if link["previous_key"] == current), None)
    if start is None:
        raise refuse(f"it is signed with a key ({keys.fingerprint(claimed)}) this data "
                     f"folder does not hold for {name!r}, and no endorsement in it leads to "
                     f"that key from the one held ({keys.fingerprint(current)})")
    learned: list[dict[str, str]] = []
    for i, link in enumerate(chain[start:], start=start):
        if i > start and link["previous_key"] != chain[i - 1]["public_key"]:
            raise refuse(f"its key endorsements are broken: endorsement {i + 1} does not "
                         "continue from the key the one before it endorses")
        if not keys.endorsement_holds(manifest["source_device"], link):
            raise refuse(f"the endorsement of the key {keys.fingerprint(link['public_key'])} "
                         "is not signed by the key it replaces (forged or changed)")
        if link["public_key"] not in known:
            learned.append(dict(link))
    if chain[-1]["public_key"] != claimed:
        raise refuse(f"its key endorsements end at {keys.fingerprint(chain[-1]['public_key'])}"
                     f", not at the key that signed it ({keys.fingerprint(claimed)})")
    return [claimed], learned


def read_package(path: Path, key_for: Callable[[str], str | None],
                 already: Callable[[str], bool] = lambda package_id: False, *,
                 contents: bytes | None = None,
                 keys_held: Callable[[str], Sequence[str]] = lambda device_id: ()) -> Package:
    """Check a package completely; `key_for(device_id)` gives that device's current public
    key, or None for a device this data folder does not know, and `keys_held(device_id)`
    every key held for it, earlier ones included. `contents`, when given, are the
    package's bytes already read from `path` (a field kit, once decrypted).

    A package that `already(package_id)` says was imported is returned once its signature
    and every member's hash are checked, without its changes: it will change nothing."""
    source = str(path)

    def refuse(why: str) -> PackageError:
        return PackageError(f"{source}: {why}; the package was refused and nothing was "
                            "changed.")

    if contents is None:
        try:
            raw = read_regular_file(path, limit=MAX_PACKAGE_BYTES, what="sync package")
        except FileNotFoundError:
            raise PackageError(f"{source}: no such package file.") from None
        except UnreadableFile as exc:
            raise refuse(exc.reason) from None
    else:
        raw = contents
    if keys.is_sealed(raw):
        raise PackageError(f"{source}: is a field kit; use `inspector-app sync join` with it on "
                           "the laptop, in a new empty data folder (a kit is not imported).",
                           in_app=f"{source}: is a field kit, not a sync package; set up a new "
                                  "laptop from it with File > Set up this laptop from a field "
                                  "kit...")
    try:
        z = zipfile.ZipFile(io.BytesIO(raw))
        infos = z.infolist()
    except _UNREADABLE:
        raise refuse("it is not a sync package (not a readable zip file: damaged or "
                     "truncated)") from None
    names = [i.filename for i in infos]
    if len(infos) > MAX_MEMBERS:
        raise refuse(f"it has {len(infos)} members, over the limit of {MAX_MEMBERS}")
    if len(set(names)) != len(names):
        dup = next(n for n, count in Counter(names).items() if count > 1)
        raise refuse(f"the member {dup!r} appears twice")
    for name in names:
        if name not in FIXED_MEMBERS and not _ATTACHMENT.match(name) and not (
                _BASEMAP.match(name)):
            raise refuse(f"it holds {name!r}, which is not a member of a sync package")
    try:
        check_members(infos, BOUNDS)
    except ZipProblem as exc:
        raise refuse(str(exc)) from None
    if "manifest.json" not in names:
        raise refuse("it has no manifest.json")

    def member(name: str) -> bytes:
        try:
            return read_member(z, z.getinfo(name))
        except _UNREADABLE as exc:
            raise refuse(f"{name} cannot be read ({type(exc).__name__}: damaged)") from None

    # Nothing a sender writes is parsed before its signature is there and has a
    # signature's shape; the manifest then names the key it is checked with.
    if "signature" not in names:
        raise refuse("it is unsigned; only packages from enrolled devices are accepted")
    signature = member("signature").decode("ascii", errors="replace").strip()
    if _SIGNATURE.fullmatch(signature) is None:
        raise refuse("its signature is not an Ed25519 signature (damaged or forged)")
    manifest_bytes = member("manifest.json")
    if len(manifest_bytes) > MAX_MANIFEST_BYTES:
        raise refuse("its manifest is too large")
    try:
        manifest = loads(manifest_bytes)
    except (NonFiniteNumber, TooDeep) as exc:
        raise refuse(f"its manifest is not valid ({exc})") from None
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise refuse("its manifest is not valid JSON") from None
    if isinstance(manifest, dict) and manifest.get("format") == SHARED_KEY_FORMAT:
        raise refuse("it was written under the earlier shared-key scheme, which this version "
                     "no longer accepts; enrol the laptop again at the office with `sync "
                     "enroll` and set it up from the new field kit")
    problem = _MANIFEST_VALIDATOR(manifest)
    if problem:
        raise refuse(f"its manifest is not valid ({problem})")

    device = manifest["source_device"]
    key = key_for(device)
    if key is None:
        raise refuse(f"it comes from {manifest['source_name']!r} ({device}), a device this "
                     "data folder has not enrolled")
    candidates, learned = _signing_keys(manifest, key, keys_held(device), refuse)
    if not any(keys.verify(manifest_bytes, signature, k) for k in candidates):
        raise refuse("its signature does not match (tampered with, or signed with another "
                     "key)")

    listed = manifest["members"]
    present = set(names) - {"manifest.json", "signature"}
    if set(listed) != present:
        missing = sorted(set(listed) - present)
        extra = sorted(present - set(listed))
        raise refuse(f"its members do not match the manifest (missing: {missing[:3]}, "
                     f"unlisted: {extra[:3]})")
    data: dict[str, bytes] = {}
    for name in sorted(present):
        content = member(name)
        if hashlib.sha256(content).hexdigest() != listed[name]:
            raise refuse(f"{name} does not match its hash in the manifest (damaged)")
        data[name] = content
    if already(manifest["package_id"]):
        return Package(manifest=manifest, changes=[], attachments={}, already_imported=True,
                       sha256=hashlib.sha256(raw).hexdigest())
    attachments = {}
    images = {}
    for name, content in data.items():
        b = _BASEMAP.match(name)
        if b:
            if hashlib.sha256(content).hexdigest() != b.group(1):
                raise refuse(f"{name} does not hold the file its name promises")
            images[name] = content
        m = _ATTACHMENT.match(name)
        if m:
            if hashlib.sha256(content).hexdigest() != m.group(1):
                raise refuse(f"{name} does not hold the file its name promises")
            attachments[m.group(1)] = content

    changes = []
    for n, line in enumerate(data.get("changes.jsonl", b"").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            # NaN and infinities are left to the policy, which names the change and field
            change = _json_line(line)
        except TooDeep as exc:
            raise refuse(f"changes.jsonl line {n} is not a valid change ({exc})") from None
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise refuse(f"changes.jsonl line {n} is not valid JSON") from None
        problem = change_problem(change)
        if problem:
            raise refuse(f"changes.jsonl line {n} is not a valid change ({problem})")
        changes.append(change)
    counts = manifest["counts"]
    if counts["changes"] != len(changes) or counts["attachments"] != len(attachments):
        raise refuse(f"it holds {len(changes)} changes and {len(attachments)} attachments, "
                     f"but its manifest says {counts['changes']} and {counts['attachments']}")
    ids = [c["change_id"] for c in changes]
    if len(set(ids)) != len(ids):
        raise refuse("it lists the same change twice")
    extra_members = {k: v for k, v in data.items() if k in ("kit.json", "records.jsonl",
                                                            "history.jsonl", "lot_lines.jsonl")}
    # A lot layer comes to a laptop in its field kit only, and never from a laptop.
    if "lot_lines.jsonl" in extra_members and manifest["kind"] != "field_kit":
        raise refuse("it carries lot lines (lot_lines.jsonl), which only a field kit from the "
                     "office carries")
    # A kit has kit.json; an office package may carry the records of newly assigned
    # parcels (records.jsonl, history.jsonl) as a kit does.
    if (manifest["kind"] == "field_kit") != ("kit.json" in extra_members):
        raise refuse("its kind does not match its members")
    for name, content in extra_members.items():
        for n, line in enumerate(content.splitlines() if name != "kit.json" else [content],
                                 start=1):
            try:
                if line.strip():
                    loads(line)
            except (NonFiniteNumber, TooDeep) as exc:
                raise refuse(f"{name} line {n} is not a valid record ({exc})") from None
            except (json.JSONDecodeError, UnicodeDecodeError):
                raise refuse(f"{name} line {n} is not valid JSON") from None
    return Package(manifest=manifest, changes=changes, attachments=attachments,
                   extra={**extra_members, **images}, sha256=hashlib.sha256(raw).hexdigest(),
                   learned_keys=learned)
