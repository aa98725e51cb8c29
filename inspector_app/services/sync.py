"""Field <-> office sync: enrolment, field kits, export, import, conflicts.

The office enrols each laptop, giving it an identity and its own Ed25519 private key in
a field kit, encrypted with a passphrase, with its parcels, the shoreline layer, the
jurisdiction file and the office's public key. Each side signs with its private key and
holds only the other's public key (docs/security.md). Each side exports what
the other may not have; the receiver checks the whole package, backs up, and applies it
in one transaction, field by field against the base value. A laptop keeps sending a
change until the office has acknowledged it; the office reports sequence gaps. The
office revokes a lost laptop (its packages are refused from then on), and either side
rotates its key, the new one endorsed by the old.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import sqlite3
import zipfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..errors import InputError, NotFoundError
from ..paths import DataFolder, resource, write_atomically
from ..storage.records import RecordWriter, new_id
from ..storage.store import Store, utc_now_text
from ..storage.sync_apply import (
    BYTES_REF,
    SYNCED_TABLES,
    ApplyCounts,
    ChangeApplier,
    resolution_bases,
    resolve_field,
)
from ..sync import keys, policy
from ..sync.package import (
    FORMAT,
    MAX_PACKAGE_BYTES,
    Package,
    PackageError,
    package_bytes,
    read_package,
    write_package,
    write_private,
)
from . import assignment, basemaps, lots, resolution
from .evaluation import DATA_FOLDER_JURISDICTION, DEFAULT_JURISDICTION, kit_laws, write_kit_laws
from .folder_undo import FolderUndo
from .shorelines import BUNDLED_ACCURACY_FT, BUNDLED_NAME, BUNDLED_SOURCE
from .workspace import Workspace

OFFICE, FIELD = "office", "field"
SECTION = {"parcels": "parcel", "dwellings": "dwelling", "renters": "renter",
           "components": "component", "inspections": "inspection", "systems": "system"}


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def role(ws: Workspace) -> str | None:
    return ws.store.get_meta("sync_role")


def _device(ws: Workspace, role_name: str) -> dict[str, Any] | None:
    rows = ws.store.query("SELECT * FROM devices WHERE role = ?", (role_name,))
    return rows[0] if rows else None


def _field_device(ws: Workspace, name: str) -> dict[str, Any]:
    rows = ws.store.query("SELECT * FROM devices WHERE role = 'field' AND name = ?", (name,))
    if not rows:
        raise NotFoundError(f"No laptop named {name!r} is enrolled here; `inspector-app sync "
                            "status` lists them.",
                            in_app=f"No laptop named {name!r} is enrolled here; enrol it with "
                                   "Sync > Enrol a laptop (field kit)...")
    return rows[0]


# --- enrolment -------------------------------------------------------------------------

SHARED_KEY_REFUSAL = ("was enrolled under the earlier shared-key scheme, which this version "
                      "no longer accepts; enrol the laptop again at the office (`sync enroll`, "
                      "a new name) and set it up from the new field kit")


def _office_private_key(ws: Workspace) -> str:
    """The office's private key, made (once) when it is first needed."""
    this = _device(ws, "this")
    assert this is not None
    if this["private_key"]:
        return str(this["private_key"])
    private = keys.new_private_key()
    with ws.store.transaction():
        ws.store.conn.execute("UPDATE devices SET private_key = ?, public_key = ? WHERE role = "
                              "'this' AND private_key IS NULL",
                              (private, keys.public_key(private)))
    this = _device(ws, "this")
    assert this is not None
    return str(this["private_key"])


def office_fingerprint(ws: Workspace) -> str:
    """The fingerprint of this office's public key, as `sync join` shows it."""
    return keys.fingerprint(keys.public_key(_office_private_key(ws)))


def _enrolment_parcels(ws: Workspace, parcels: list[str] | None,
                       worklist: str | None) -> list[str]:
    from .worklists import WORKLISTS, worklists

    if not parcels and not worklist:
        raise InputError("sync enroll: name the laptop's parcels with --parcels SBL,SBL or a "
                         f"work list with --worklist ({', '.join(WORKLISTS)}); a field kit "
                         "carries only the parcels assigned to that laptop.",
                         in_app="Name the laptop's parcels (tax map numbers separated by "
                                "commas); a field kit carries only the parcels assigned to "
                                "that laptop.")
    sbls = list(dict.fromkeys(parcels or []))
    if worklist:
        if worklist not in WORKLISTS:
            raise InputError(f"sync enroll: --worklist {worklist!r} is not a work list; use "
                             f"one of {', '.join(WORKLISTS)}.")
        listed = worklists(ws, as_of=ws.today(), names=(worklist,))[worklist]
        if not listed:
            raise InputError(f"sync enroll: the work list {worklist} has no parcels today; "
                             "name parcels with --parcels SBL,SBL.")
        sbls += [p["sbl"] for p in listed if p["sbl"] not in sbls]
    return sbls


def enroll(ws: Workspace, name: str, out: Path, parcels: list[str] | None, *,
           passphrase: str, worklist: str | None = None) -> dict[str, Any]:
    """Enrol a laptop: a new key pair for it, and its field kit (its private key, the
    office's public key, its parcels) encrypted with `passphrase`. The kit is written
    before the laptop is recorded, so an interrupted enrolment leaves the name free."""
    if role(ws) == FIELD:
        raise InputError("This data folder is a field laptop; only the office enrols devices.")
    name = name.strip()
    if not name:
        raise InputError("sync enroll: --device is empty; name the laptop.")
    keys.check_passphrase(passphrase)
    if ws.store.query("SELECT 1 AS x FROM devices WHERE name = ? AND role = 'field'", (name,)):
        raise InputError(f"A laptop named {name!r} is already enrolled; choose another name.")
    sbls = _enrolment_parcels(ws, parcels, worklist)
    parcel_ids = [ws.parcel_id(s) for s in sbls]
    office_private = _office_private_key(ws)
    office_public = keys.public_key(office_private)
    this = _device(ws, "this")
    assert this is not None
    device_private = keys.new_private_key()
    device_id = new_id()
    _write_kit(ws, out, passphrase, office_private,
               device={"id": device_id, "name": name, "private_key": device_private},
               office={"id": this["id"], "name": this["name"], "public_key": office_public},
               parcel_ids=parcel_ids, sbls=sbls)
    try:
        with ws.store.transaction():
            ws.store.conn.execute(
                "INSERT INTO devices (id, name, role, created_at, public_key, parcels) "
                "VALUES (?, ?, 'field', ?, ?, ?)",
                (device_id, name, _now(), keys.public_key(device_private), json.dumps(sbls)))
            ws.store.set_meta("sync_role", OFFICE)
    except BaseException:
        out.unlink(missing_ok=True)
        raise
    return {"path": str(out), "device": name, "parcels": len(sbls),
            "office_fingerprint": keys.fingerprint(office_public)}


def _jurisdiction_text(ws: Workspace) -> str:
    own = ws.folder.root / DATA_FOLDER_JURISDICTION
    return (own if own.exists() else resource(*DEFAULT_JURISDICTION)).read_text("utf-8")


def _write_kit(ws: Workspace, out: Path, passphrase: str, office_private: str, *,
               device: dict[str, str], office: dict[str, str], parcel_ids: list[str],
               sbls: list[str]) -> None:
    blobs: dict[str, bytes] = {}
    records = assignment.parcel_records(ws, parcel_ids, blobs, active_layer=True)
    marks = ",".join("?" * len(parcel_ids)) or "NULL"
    layer_ids = [r["row"]["id"] for r in records if r["table"] == "shoreline_layers"]
    history = ws.store.query(
        f"SELECT * FROM change_log WHERE parcel_id IN ({marks}) OR record_id IN "
        f"({','.join('?' * len(layer_ids)) or 'NULL'}) ORDER BY seq", [*parcel_ids, *layer_ids])
    seq = ws.store.query("SELECT coalesce(max(seq), 0) AS s FROM change_log")[0]["s"]
    kit = {"device": device, "office": office, "parcels": sbls,
           "jurisdiction_toml": _jurisdiction_text(ws), "jurisdictions": kit_laws(ws.laws),
           "office_seq": seq}
    # the active basemap, clipped to the parcels' surroundings (none when none is active)
    imagery = basemaps.kit_imagery(ws, parcel_ids)
    if imagery is not None:
        kit["basemap"] = imagery[0]
    members = {
        "kit.json": json.dumps(kit, indent=2).encode(),
        "records.jsonl": "\n".join(json.dumps(r, ensure_ascii=False) for r in records).encode(),
        "history.jsonl": "\n".join(json.dumps(h, ensure_ascii=False) for h in history).encode(),
        **{f"attachments/{k}": v for k, v in blobs.items()},
        **({imagery[0]["member"]: imagery[1]} if imagery is not None else {}),
    }
    # the active lot layer's lots of the parcels and of their neighbours (none when none
    # is active)
    lot_lines = lots.kit_lot_lines(ws, parcel_ids)
    if lot_lines is not None:
        members["lot_lines.jsonl"] = lot_lines
    manifest = {"format": FORMAT, "kind": "field_kit", "package_id": new_id(),
                "source_device": office["id"], "source_name": office["name"],
                "created_at": _now(), "first_seq": None, "last_seq": seq,
                "counts": {"changes": 0, "attachments": len(blobs)}, "acknowledges": []}
    write_private(out, keys.seal(package_bytes(manifest, members, office_private), passphrase))


def _peek_kit(contents: bytes) -> dict[str, Any] | None:
    """The kit's own description, read only to find the key that verifies the kit."""
    try:
        with zipfile.ZipFile(io.BytesIO(contents)) as z:
            info = z.getinfo("kit.json")
            if info.file_size > 10 * 1024**2:
                return None
            kit: dict[str, Any] = json.loads(z.read(info))
            return kit
    except (KeyError, zipfile.BadZipFile, OSError, ValueError):
        return None


def _only_what_opening_wrote(store: Store) -> str | None:
    """The id of the bundled shoreline layer, if opening the folder is all that ever
    happened to it: that layer, created here and never changed, is its one change; no
    other record of any kind; never enrolled, joined or synced. Otherwise None."""
    changes = store.query("SELECT * FROM change_log")
    layers = store.query("SELECT * FROM shoreline_layers")
    if len(changes) != 1 or len(layers) != 1:
        return None
    change, layer = changes[0], layers[0]
    if not (layer["name"] == BUNDLED_NAME and layer["source"] == BUNDLED_SOURCE
            and layer["accuracy_ft"] == BUNDLED_ACCURACY_FT and layer["active"] == 1
            and layer["layer_version"] == 1 and layer["version"] == 1
            and layer["deleted_at"] is None and layer["device_id"] == store.device_id):
        return None
    if not (change["table_name"] == "shoreline_layers" and change["op"] == "insert"
            and change["record_id"] == layer["id"] and change["parcel_id"] is None
            and change["device_id"] == store.device_id):
        return None
    devices = store.query("SELECT role, secret, private_key, public_key FROM devices")
    if devices != [{"role": "this", "secret": None, "private_key": None, "public_key": None}]:
        return None
    if store.get_meta("sync_role") is not None or store.get_meta("office_seq_received"):
        return None
    # Every other table, records and sync bookkeeping alike (and any a later schema adds),
    # must be empty.
    own = {"devices", "meta", "change_log", "shoreline_layers", "_sqlite_migrations"}
    for (table,) in store.conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE "
            "'sqlite_%'").fetchall():
        if table not in own and store.conn.execute(
                f'SELECT EXISTS (SELECT 1 FROM "{table}")').fetchone()[0]:
            return None
    return str(layer["id"])


def holds_nothing_yet(store: Store) -> bool:
    """Whether a field kit may be joined into this folder: nothing recorded in it, or only
    what opening it wrote (see `_only_what_opening_wrote`)."""
    held = store.query("SELECT (SELECT count(*) FROM change_log) + (SELECT count(*) FROM "
                       "parcels) AS n")[0]["n"]
    return not held or _only_what_opening_wrote(store) is not None


def _open_kit(kit_path: Path, passphrase: str) -> bytes:
    """The field kit's contents, decrypted; nothing is touched if it cannot be opened."""
    try:
        if not kit_path.is_file():
            raise PackageError(f"{kit_path}: no such field kit file.")
        size = kit_path.stat().st_size
        if size > MAX_PACKAGE_BYTES:
            raise PackageError(f"{kit_path}: it is {size / 1e9:.1f} GB, over the "
                               f"{MAX_PACKAGE_BYTES / 1e9:.0f} GB limit of a field kit.")
        sealed = kit_path.read_bytes()
    except OSError as exc:
        raise PackageError(f"{kit_path}: cannot be read ({exc.strerror}).") from None
    if sealed.startswith(b"PK"):
        raise PackageError(f"{kit_path}: this field kit is not encrypted: it {SHARED_KEY_REFUSAL}.")
    return keys.unseal(sealed, passphrase, source=str(kit_path))


def join(root: Path, kit_path: Path, *, user: str, passphrase: str,
         fingerprint: str | None = None) -> dict[str, Any]:
    """Set up an empty data folder as an enrolled laptop.

    The kit opens only with the passphrase chosen at enrolment, and must be signed by the
    office whose public key it carries; the result shows that key's fingerprint for the
    person to compare with the one the office showed (`fingerprint`, when given, must
    match, or nothing is done).

    A folder that has only been opened (the app writes the bundled shoreline outline into
    a new folder) counts as empty; one with anything else in it is refused."""
    contents = _open_kit(kit_path, passphrase)
    peek = _peek_kit(contents)
    office_key = ((peek or {}).get("office") or {}).get("public_key")

    def key_for(device_id: str) -> str | None:
        office = (peek or {}).get("office") or {}
        return office_key if office.get("id") == device_id and isinstance(
            office_key, str) else None

    package = read_package(kit_path, key_for, contents=contents)
    if package.manifest["kind"] != "field_kit":
        raise PackageError(f"{kit_path}: is a change package, not a field kit.")
    kit = json.loads(package.extra["kit.json"])
    assert isinstance(office_key, str)  # read_package verified the kit with it
    shown = keys.fingerprint(office_key)
    if fingerprint is not None and fingerprint.strip().lower() != shown:
        raise PackageError(f"{kit_path}: the office key's fingerprint is {shown}, not "
                           f"{fingerprint.strip()} as expected; this kit may not come from "
                           "your office. Nothing was changed; check with the office.")
    records = [json.loads(line) for line in package.extra["records.jsonl"].splitlines()
               if line.strip()]
    history = [json.loads(line) for line in package.extra["history.jsonl"].splitlines()
               if line.strip()]
    kit_lots = None
    if "lot_lines.jsonl" in package.extra:  # checked as an import of lot lines is
        kit_lots = lots.check_kit_lot_lines(
            package.extra["lot_lines.jsonl"], where=str(kit_path),
            parcels={r["row"]["id"] for r in records if r.get("table") == "parcels"})
    imagery = None
    if "basemap" in kit:  # checked by the reader every import uses, before anything is done
        imagery = basemaps.check_kit_imagery(kit_path, kit["basemap"], package.extra)
    folder = DataFolder(root)
    # A join that fails leaves the folder as it was, so that it can be tried again.
    undo = FolderUndo(root)
    try:
        store = Store(folder, user=user)
    except BaseException:
        undo.restore()
        raise
    try:
        held = store.query("SELECT (SELECT count(*) FROM change_log) + (SELECT count(*) FROM "
                           "parcels) AS n")[0]["n"]
        opening_layer = _only_what_opening_wrote(store) if held else None
        if held and opening_layer is None:
            raise InputError(f"{root} already holds records ({held} changes); only an empty "
                             "data folder can join. Choose a new folder.",
                             in_app=f"{root} already holds records ({held} changes); only an "
                                    "empty data folder can join. Make one with File > New "
                                    "data folder..., then set up the laptop again.")
        for digest, data in package.attachments.items():
            undo.write(folder.attachments / digest[:2] / digest, data)
        with store.writing():
            conn = store.conn
            # Rows arrive table by table; foreign keys are checked when the whole kit is in.
            conn.execute("PRAGMA defer_foreign_keys = ON")
            if opening_layer is not None and any(
                    r["table"] == "shoreline_layers" and r["row"].get("active")
                    for r in records):
                # The office's active layer takes over from the outline this folder was
                # opened with; that layer stays, inactive, and the change log says who
                # retired it, as this computer was before it joined.
                retire = RecordWriter(conn, store.actor, utc_now_text(store.clock()))
                retire.update("shoreline_layers", opening_layer, {"active": 0})
                retire.flush()
            private = kit["device"]["private_key"]
            conn.execute("UPDATE devices SET id = ?, name = ?, private_key = ?, public_key = ? "
                         "WHERE role = 'this'", (kit["device"]["id"], kit["device"]["name"],
                                                 private, keys.public_key(private)))
            conn.execute("INSERT INTO devices (id, name, role, created_at, public_key) VALUES "
                         "(?, ?, 'office', ?, ?)", (kit["office"]["id"], kit["office"]["name"],
                                                    _now(), office_key))
            for item in sorted(records, key=lambda r: r["table"] != "parcels"):
                table = item["table"]
                if table not in SYNCED_TABLES:
                    raise PackageError(f"{kit_path}: names the table {table!r}.")
                row = {k: package.attachments[v[BYTES_REF]] if isinstance(v, dict) else v
                       for k, v in item["row"].items()}
                names = list(row)
                conn.execute(f"INSERT INTO {table} ({', '.join(names)}) VALUES "
                             f"({', '.join('?' * len(names))})", [row[n] for n in names])
            for h in history:
                h = {k: v for k, v in h.items() if k != "seq"}
                names = list(h)
                conn.execute(f"INSERT INTO change_log ({', '.join(names)}) VALUES "
                             f"({', '.join('?' * len(names))})", [h[n] for n in names])
            if kit_lots is not None:
                lots.take_kit_lot_lines(conn, *kit_lots)
            if imagery is not None:
                took = RecordWriter(conn, store.actor, utc_now_text(store.clock()))
                basemaps.store_kit_imagery(took, root, kit["basemap"],
                                           package.extra[kit["basemap"]["member"]], imagery,
                                           undo.write)
                took.flush()
            store.set_meta("sync_role", FIELD)
            store.set_meta("office_seq_received", str(kit["office_seq"]))
            if "jurisdictions" in kit:  # every file in force at the office
                write_kit_laws(root, kit["jurisdictions"], undo.write)
            else:
                undo.write(root / DATA_FOLDER_JURISDICTION, kit["jurisdiction_toml"].encode())
    except BaseException:
        store.close()
        undo.restore()
        raise
    store.close()
    return {"device": kit["device"]["name"], "parcels": len(kit["parcels"]),
            "office_fingerprint": shown}


# --- export ----------------------------------------------------------------------------

GAPS_LISTED = 100  # missing sequence numbers (and ranges of them) listed at most


def _gap_ranges(ws: Workspace, device_id: str) -> tuple[int, list[list[int]], int]:
    """The highest n such that changes 1..n from a device are all here; the first
    GAPS_LISTED ranges [first, last] of numbers missing below the highest one here; and
    how many numbers are missing in all. Computed from the numbers present, never by
    counting up to the highest one."""
    present = ("SELECT device_seq AS n FROM sync_received WHERE device_id = :d AND "
               "device_seq >= 1 UNION SELECT device_seq FROM change_log WHERE device_id = :d "
               "AND device_seq >= 1")
    runs = (f"WITH s AS ({present}), o AS (SELECT n, lag(n, 1, 0) OVER (ORDER BY n) AS prev "
            "FROM s) SELECT prev + 1 AS first, n - 1 AS last FROM o WHERE n > prev + 1")
    ranges = [[r["first"], r["last"]] for r in ws.store.query(
        f"{runs} ORDER BY first LIMIT {GAPS_LISTED}", {"d": device_id})]
    missing = ws.store.query(f"SELECT coalesce(sum(last - first + 1), 0) AS m FROM ({runs})",
                             {"d": device_id})[0]["m"]
    if ranges:
        through = ranges[0][0] - 1
    else:
        through = ws.store.query(f"SELECT coalesce(max(n), 0) AS t FROM ({present})",
                                 {"d": device_id})[0]["t"]
    return int(through), ranges, int(missing)


def _listed(ranges: list[list[int]]) -> list[int]:
    """The first GAPS_LISTED missing numbers of these ranges."""
    numbers: list[int] = []
    for first, last in ranges:
        numbers += range(first, min(last, first + GAPS_LISTED - len(numbers) - 1) + 1)
        if len(numbers) >= GAPS_LISTED:
            break
    return numbers


def _contiguous_through(ws: Workspace, device_id: str) -> tuple[int, list[int]]:
    """The highest n such that changes 1..n from a device are all here, and the first
    GAPS_LISTED missing numbers (`_gap_ranges` has them all, as ranges)."""
    through, ranges, _ = _gap_ranges(ws, device_id)
    return through, _listed(ranges)


def _change_line(row: dict[str, Any]) -> dict[str, Any]:
    return {"change_id": row["change_id"], "at": row["at"], "user": row["user"],
            "device_id": row["device_id"], "device_seq": row["device_seq"],
            "table": row["table_name"], "record_id": row["record_id"],
            "parcel_id": row["parcel_id"], "op": row["op"], "field": row["field"],
            "old": None if row["old_value"] is None else json.loads(row["old_value"]),
            "new": None if row["new_value"] is None else json.loads(row["new_value"]),
            "record_version": row["record_version"], "source_seq": row["seq"]}


def _blobs_for(ws: Workspace, changes: list[dict[str, Any]]) -> dict[str, bytes]:
    """The bytes every change refers to: photos by hash, letters' PDFs."""
    blobs: dict[str, bytes] = {}
    for c in changes:
        values = c["new"] if isinstance(c["new"], dict) else {}
        if c["table"] == "attachments" and c["op"] == "insert":
            path = ws.attachment_path(values["sha256"])
            if not path.exists():
                raise InputError(f"The photo {values['sha256'][:12]}... of change "
                                 f"{c['change_id']} is missing from {ws.folder.attachments}; "
                                 "restore it before exporting.")
            blobs[values["sha256"]] = path.read_bytes()
        refs = [v for v in (values.values() if values else [c["new"]])
                if isinstance(v, dict) and set(v) == {BYTES_REF}]
        for ref in refs:
            row = ws.store.query("SELECT pdf FROM letters WHERE id = ?", (c["record_id"],))
            if row and row[0]["pdf"] is not None:
                blobs[ref[BYTES_REF]] = row[0]["pdf"]
    return blobs


def _laptop_changes(ws: Workspace, device_id: str, acknowledged: int) -> list[dict[str, Any]]:
    """The laptop's changes the office has not acknowledged, at most `policy.MAX_CHANGES`:
    when there are more, each export carries the next of them after the last one's, and
    once the last are out the next export begins again at what the office acknowledged
    (so a lost package is sent again)."""
    start = max(acknowledged, int(ws.store.get_meta("export_resume_seq") or 0))
    rows = ws.store.query(
        "SELECT * FROM change_log WHERE device_id = ? AND device_seq > ? ORDER BY device_seq "
        "LIMIT ?", (device_id, start, policy.MAX_CHANGES + 1))
    full = len(rows) > policy.MAX_CHANGES
    rows = rows[:policy.MAX_CHANGES]
    resume = str(rows[-1]["device_seq"]) if full else "0"
    if resume != (ws.store.get_meta("export_resume_seq") or "0"):
        with ws.store.transaction():
            ws.store.set_meta("export_resume_seq", resume)
    return rows


def export(ws: Workspace, out: Path, *, device: str | None = None) -> dict[str, Any]:
    this = _device(ws, "this")
    assert this is not None
    acks: list[dict[str, Any]] = []
    addressed_to: tuple[dict[str, Any], set[str]] | None = None
    if role(ws) == FIELD:
        office = _device(ws, OFFICE)
        assert office is not None
        if not this["private_key"] or not office["public_key"]:
            raise InputError(f"This laptop {SHARED_KEY_REFUSAL}.")
        rows = _laptop_changes(ws, this["id"], int(office["acknowledged_seq"]))
        acks = [{"device_id": office["id"],
                 "through_seq": int(ws.store.get_meta("office_seq_received") or 0)}]
    else:
        fields = ws.store.query("SELECT * FROM devices WHERE role = 'field' AND "
                                "revoked_at IS NULL")
        targets = ([_unrevoked(_field_device(ws, device))] if device else fields)
        if role(ws) == OFFICE and len(targets) != 1:
            _refuse_unaddressed(targets)
        since = min((t["acknowledged_seq"] for t in targets), default=0)
        # A laptop holds only its kit's lot layer: lot-line measurements travel from the
        # laptops to the office, never back (a laptop measures its own).
        rows = [r for r in ws.store.query("SELECT * FROM change_log WHERE seq > ? ORDER BY "
                                          "seq", (since,)) if r["table_name"] in SYNCED_TABLES
                and r["table_name"] != "lot_measurements"]
        if len(targets) == 1:
            target = targets[0]
            ids = _parcels_of(ws, target)
            rows = [r for r in rows if r["device_id"] != target["id"]
                    and (r["parcel_id"] is None or r["parcel_id"] in ids)]
            if role(ws) == OFFICE:
                addressed_to = (target, ids)
        for t in targets:
            through, _ = _contiguous_through(ws, t["id"])
            acks.append({"device_id": t["id"], "through_seq": through})
    changes = [_change_line(r) for r in rows]
    # A resolution goes out against the value the other side sent, so that side takes it
    # as the decision on its change; the change log here keeps the value it replaced.
    bases = resolution_bases(ws.store.conn, [c["change_id"] for c in changes
                                             if c["op"] == "update"])
    for c in changes:
        if c["change_id"] in bases:
            c["old"] = bases[c["change_id"]]
    blobs = _blobs_for(ws, changes)
    # An office package is for one laptop: its assignment now, and the whole records of
    # parcels newly assigned to it; a laptop's says which assignment it holds.
    addressed: dict[str, Any] = {}
    records: dict[str, bytes] = {}
    if addressed_to is not None:
        addressed, records = assignment.office_package(ws, *addressed_to, blobs)
    elif role(ws) == FIELD:
        addressed = {"assignment_revision": assignment.laptop_revision(ws)}
    seq_through = ws.store.query("SELECT coalesce(max(seq), 0) AS s FROM change_log")[0]["s"]
    seqs = [c["device_seq"] if role(ws) == FIELD else c["source_seq"] for c in changes]
    manifest = {"format": FORMAT, "kind": "changes", "package_id": new_id(),
                "source_device": this["id"], "source_name": this["name"],
                "created_at": _now(), "first_seq": min(seqs) if seqs else None,
                "last_seq": max(seqs) if seqs else None, "source_seq_through": seq_through,
                "counts": {"changes": len(changes), "attachments": len(blobs)},
                "acknowledges": acks, **addressed}
    members = {"changes.jsonl": "\n".join(json.dumps(c, ensure_ascii=False)
                                          for c in changes).encode(),
               **{f"attachments/{k}": v for k, v in blobs.items()}, **records}
    signing_key = (this["private_key"] if role(ws) == FIELD
                   else _office_private_key(ws) if role(ws) == OFFICE else None)
    if signing_key is not None:
        manifest.update(_key_fields(ws, this["id"], signing_key))
    write_package(out, manifest, members, signing_key)
    return {"path": str(out), "changes": len(changes)}


def _device_by_id(ws: Workspace, device_id: str) -> dict[str, Any]:
    return ws.store.query("SELECT * FROM devices WHERE id = ? AND role = 'field'",
                          (device_id,))[0]


def _refuse_unaddressed(targets: list[dict[str, Any]]) -> None:
    """An office package is addressed to one laptop: refuse to guess which."""
    if not targets:
        raise InputError("sync export: no laptop is enrolled here (or every one was revoked); "
                         "an office package is for one laptop. Enrol one with `inspector-app "
                         "sync enroll`.",
                         in_app="No laptop is enrolled here (or every one was revoked); an "
                                "office package is for one laptop. Enrol one with Sync > "
                                "Enrol a laptop (field kit)...")
    names = ", ".join(sorted(t["name"] for t in targets))
    raise InputError(f"sync export: {len(targets)} laptops are enrolled here ({names}); an "
                     "office package carries one laptop's parcels only. Name the laptop with "
                     "--device NAME.",
                     in_app=f"{len(targets)} laptops are enrolled here ({names}); an office "
                            "package carries one laptop's parcels only. Choose the laptop to "
                            "write it for.")


def _parcels_of(ws: Workspace, device: dict[str, Any]) -> set[str]:
    """A laptop's parcels: those assigned at enrolment and those it created itself."""
    sbls = json.loads(device["parcels"])
    marks = ",".join("?" * len(sbls)) or "NULL"
    assigned = {r["id"] for r in ws.store.query(
        f"SELECT id FROM parcels WHERE sbl IN ({marks})", sbls)}
    created = {r["record_id"] for r in ws.store.query(
        "SELECT record_id FROM change_log WHERE device_id = ? AND table_name = 'parcels' AND "
        "op = 'insert'", (device["id"],))}
    return assigned | created


# --- import ----------------------------------------------------------------------------

def _key_lookup(ws: Workspace) -> Any:
    """The public key a sender's packages are checked with: at the office, an enrolled
    laptop's; on a laptop, its office's. A device enrolled under the shared-key scheme
    has none and is refused with the way out."""
    mode = role(ws)

    def key_for(device_id: str) -> str | None:
        if mode == OFFICE:
            rows = ws.store.query("SELECT name, public_key FROM devices WHERE id = ? AND "
                                  "role = 'field'", (device_id,))
        elif mode == FIELD:
            rows = ws.store.query("SELECT name, public_key FROM devices WHERE id = ? AND "
                                  "role = 'office'", (device_id,))
        else:
            return None
        if not rows:
            return None
        if mode == OFFICE:
            _refuse_revoked(ws, device_id)
        if not rows[0]["public_key"]:
            who = (f"The laptop {rows[0]['name']!r}" if mode == OFFICE else "This laptop")
            raise PackageError(f"{who} {SHARED_KEY_REFUSAL}; nothing was changed.")
        return str(rows[0]["public_key"])

    return key_for


def _keys_held(ws: Workspace) -> Any:
    """Every public key held for a sender, earlier ones included (`device_keys`)."""
    other = OFFICE if role(ws) == FIELD else FIELD

    def keys_held(device_id: str) -> list[str]:
        return [r["public_key"] for r in ws.store.query(
            "SELECT k.public_key FROM device_keys k JOIN devices d ON d.id = k.device_id "
            "WHERE k.device_id = ? AND d.role = ? ORDER BY k.rowid", (device_id, other))]

    return keys_held


def _learn_keys(conn: sqlite3.Connection, package: Package) -> None:
    """Record the sender's new keys, each with its endorsement, in the import's
    transaction: the sender's current key becomes the last of them."""
    device = package.manifest["source_device"]
    for link in package.learned_keys:
        conn.execute("UPDATE devices SET public_key = ? WHERE id = ? AND role != 'this'",
                     (link["public_key"], device))
        conn.execute("UPDATE device_keys SET endorsed_by = ?, endorsed_at = ?, endorsement = ? "
                     "WHERE device_id = ? AND public_key = ?",
                     (link["previous_key"], link["endorsed_at"], link["signature"], device,
                      link["public_key"]))


def _check_policy(ws: Workspace, package: Package, source: Path) -> None:
    """Refuse the package whole if its signer may not make one of its changes, or one of
    its values is not one the records may hold (`sync.policy`)."""
    this = _device(ws, "this")
    assert this is not None
    device = package.manifest["source_device"]
    if role(ws) == OFFICE:
        rows = ws.store.query("SELECT * FROM devices WHERE id = ? AND role = 'field'",
                              (device,))
        parcels = frozenset(_parcels_of(ws, rows[0])) if rows else frozenset()
        # parcels taken from the laptop stay its to speak of: those changes are kept for a
        # person (`assignment`)
        parcels |= assignment.held_from(ws, device, set(parcels))
        enrolled = datetime.fromisoformat(rows[0]["created_at"]) if rows else None
        sender = policy.Sender(device_id=device, role=FIELD, parcels=parcels,
                               enrolled_at=enrolled if enrolled is None or enrolled.tzinfo
                               else enrolled.replace(tzinfo=UTC))
    else:
        sender = policy.Sender(device_id=device, role=OFFICE)
        assignment.check_office_package(
            ws, package, this, str(source),
            attachment_exists=lambda digest: ws.attachment_path(digest).exists())
    policy.check_package(ws.store.conn, package, sender=sender, receiver_id=this["id"],
                         source=str(source),
                         attachment_exists=lambda digest: ws.attachment_path(digest).exists())


def import_package(ws: Workspace, path: Path) -> dict[str, Any]:
    def already(package_id: str) -> bool:
        return bool(ws.store.query("SELECT 1 AS x FROM sync_packages WHERE package_id = ?",
                                   (package_id,)))

    package = read_package(path, _key_lookup(ws), already, keys_held=_keys_held(ws))
    manifest = package.manifest
    if manifest["kind"] != "changes":
        raise PackageError(f"{path}: is a field kit; use `inspector-app sync join` with it on "
                           "the laptop, in a new empty data folder (a kit is not imported).",
                           in_app=f"{path}: is a field kit, not a sync package; set up a new "
                                  "laptop from it with File > Set up this laptop from a field "
                                  "kit...")
    if package.already_imported:
        return {"applied": 0, "already_imported": True, "conflicts": 0}
    _check_policy(ws, package, path)
    ws.store.backup_now("before-sync-import")
    this = _device(ws, "this")
    assert this is not None
    received_at = _now()
    cleared_before = assignment.cleared_here(ws)
    try:
        counts = _apply(ws, package, path, received_at, this)
    except sqlite3.IntegrityError as exc:
        raise PackageError(f"{path}: its changes do not fit this data folder's records "
                           f"({exc}); the package was refused and nothing was changed.") from None
    # "conflicts": received changes that met a conflict; "open_conflicts": those conflicts
    # that still need a person's decision once the whole package is in
    result: dict[str, Any] = {"applied": counts.applied, "already_imported": False,
                              "conflicts": counts.conflicts,
                              "open_conflicts": counts.open_conflicts,
                              "same_value": counts.same_value,
                              "skipped": counts.skipped, "already_had": counts.already,
                              "summary": _import_summary(counts)}
    if role(ws) == OFFICE:
        _, ranges, missing = _gap_ranges(ws, manifest["source_device"])
        result.update(gaps=_listed(ranges), gap_ranges=ranges, missing_changes=missing)
    else:
        # parcels no longer assigned whose owners' contact data this copy cleared
        result["contact_data_cleared"] = sorted(assignment.cleared_here(ws) - cleared_before)
    return result


def _import_summary(counts: ApplyCounts) -> str:
    """The import in one sentence: what was applied, and whether any conflict waits."""
    def n(count: int, word: str) -> str:
        return f"{count} {word}{'' if count == 1 else 's'}"

    text = f"{n(counts.applied, 'change')} applied; "
    if counts.open_conflicts:
        verb = "waits" if counts.open_conflicts == 1 else "wait"
        text += (f"{n(counts.open_conflicts, 'conflict')} {verb} for a decision "
                 "(`inspector-app sync conflicts`)")
    else:
        text += "no conflict waits for a decision"
    settled = counts.conflicts - counts.open_conflicts
    if settled > 0:
        text += (f"; {n(settled, 'change')} that met a conflict "
                 f"{'was' if settled == 1 else 'were'} settled within the package itself")
    return text + "."


def _refuse_worse_cases(ws: Workspace, conn: sqlite3.Connection, path: Path,
                        before: dict[str, str | None]) -> None:
    """The rules of a whole case (dates after today, one field against another) for the
    parcels a laptop's package changed: a case that reads worse than before refuses the
    package, as the same change made in the app or by a case file would be refused."""
    after = resolution.case_problems(conn, list(before), str(path), ws.today())
    for parcel_id, was in before.items():
        now = after[parcel_id]
        if now is not None and now != was:
            sbl = conn.execute("SELECT sbl FROM parcels WHERE id = ?", (parcel_id,)).fetchone()
            raise PackageError(f"{path}: its changes to parcel {sbl[0] if sbl else parcel_id} "
                               f"break the case-file rules ({now}); the package was refused "
                               "and nothing was changed.")


def _write_attachments(ws: Workspace, package: Package) -> list[Path]:
    """Write the package's files this data folder does not hold yet; the new ones."""
    written: list[Path] = []
    for digest, data in package.attachments.items():
        target = ws.attachment_path(digest)
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            write_atomically(target, data)
            written.append(target)
    return written


def _removed_on_failure(paths: list[Path]) -> Any:
    """An exit step: files written for an import whose records did not go in (the
    transaction rolled back) are taken out again."""
    def remove(failed: type[BaseException] | None, *_: Any) -> bool:
        if failed is not None:
            for target in paths:
                target.unlink(missing_ok=True)
        return False

    return remove


def _apply(ws: Workspace, package: Package, path: Path, received_at: str,
           this: dict[str, Any]) -> ApplyCounts:
    manifest = package.manifest
    with contextlib.ExitStack() as stack, ws.store.transaction() as w:
        w.conn.execute("PRAGMA defer_foreign_keys = ON")
        held: frozenset[str] = frozenset()
        outside: frozenset[str] = frozenset()
        if role(ws) == OFFICE:
            held = assignment.held_from(ws, manifest["source_device"], _parcels_of(
                ws, _device_by_id(ws, manifest["source_device"])))
        else:
            # the records of newly assigned parcels go in first, with their history
            outside = assignment.take_office_package(ws, w.conn, package)
        mine = [c for c in package.changes if c["parcel_id"] not in outside]
        applier = ChangeApplier(w.conn, package_id=manifest["package_id"],
                                received_at=received_at, blobs=package.attachments, held=held)
        applier.counts.skipped += len(package.changes) - len(mine)
        touched = sorted({c["parcel_id"] for c in mine if c["parcel_id"]}) \
            if role(ws) == OFFICE else []
        before = resolution.case_problems(w.conn, touched, str(path), ws.today())
        try:
            applier.prepare([c["change_id"] for c in mine])
            for change in mine:
                applier.apply(change)
            applier.finish()
        except ValueError as exc:
            raise PackageError(f"{path}: {exc}; the package was refused and nothing was "
                               "changed.") from None
        _refuse_worse_cases(ws, w.conn, path, before)
        # every check passed: the package's photos and documents go in with its records
        written = _write_attachments(ws, package)
        stack.push(_removed_on_failure(written))
        counts = applier.counts
        _learn_keys(w.conn, package)
        for ack in manifest["acknowledges"]:
            if role(ws) == OFFICE:
                w.conn.execute("UPDATE devices SET acknowledged_seq = max(acknowledged_seq, ?) "
                               "WHERE id = ? AND role = 'field'",
                               (ack["through_seq"], manifest["source_device"]))
            elif ack["device_id"] == this["id"]:
                w.conn.execute("UPDATE devices SET acknowledged_seq = max(acknowledged_seq, ?) "
                               "WHERE role = 'office'", (ack["through_seq"],))
        if role(ws) == FIELD and "source_seq_through" in manifest:
            current = int(ws.store.get_meta("office_seq_received") or 0)
            ws.store.set_meta("office_seq_received",
                              str(max(current, manifest["source_seq_through"])))
        if role(ws) == FIELD:
            assignment.purge(ws, w.conn, this["id"], w.actor.user)
        elif "assignment_revision" in manifest:
            assignment.note_laptop_revision(ws, manifest["source_device"],
                                            manifest["assignment_revision"])
        w.conn.execute(
            "INSERT INTO sync_packages (package_id, device_id, imported_at, imported_by, "
            "changes, applied, conflicts, sha256) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (manifest["package_id"], manifest["source_device"], received_at, w.actor.user,
             len(package.changes), counts.applied, counts.conflicts, package.sha256))
    return counts


# --- conflicts -------------------------------------------------------------------------

def _value(text: str | None) -> Any:
    return None if text is None else json.loads(text)


def conflicts(ws: Workspace) -> list[dict[str, Any]]:
    rows = ws.store.query(
        "SELECT c.*, p.sbl, d.name AS device FROM sync_conflicts c "
        "LEFT JOIN parcels p ON p.id = c.parcel_id LEFT JOIN devices d ON d.id = c.device_id "
        "WHERE c.resolved_at IS NULL ORDER BY c.received_at, c.id")
    return [{"sbl": r["sbl"], "field": f"{SECTION.get(r['table_name'], r['table_name'])}."
                                       f"{r['field']}",
             "local_value": _value(r["local_value"]),
             "incoming_value": _value(r["incoming_value"]),
             "id": r["id"], "table": r["table_name"], "record_id": r["record_id"],
             "base_value": _value(r["base_value"]), "device": r["device"] or r["device_id"],
             "incoming_user": r["incoming_user"], "incoming_at": r["incoming_at"]}
            for r in rows]


def open_conflicts(ws: Workspace, parcel_id: str) -> int:
    return int(ws.store.query("SELECT count(*) AS n FROM sync_conflicts WHERE parcel_id = ? "
                              "AND resolved_at IS NULL", (parcel_id,))[0]["n"])


def field_label(conflict: dict[str, Any]) -> str:
    """A conflict's field in words, as a `conflicts` entry names it: "Bedrooms"."""
    return resolution.label(conflict["table"], resolution.column_of(conflict["field"]))


def value_text(conflict: dict[str, Any], which: str = "local_value") -> str:
    """One of a conflict's values as a person would type it ("1 Main St; Naples NY")."""
    return resolution.as_text(conflict["table"], resolution.column_of(conflict["field"]),
                              conflict[which])


def _shown(value: Any) -> Any:
    if isinstance(value, bytes):
        return {BYTES_REF: hashlib.sha256(value).hexdigest()}
    return value


def resolve(ws: Workspace, conflict_id: str, *, choice: str, value: Any = None,
            text: str | None = None) -> dict[str, Any]:
    """Settle a conflict: keep the value here, take the other side's, or enter one.

    A value entered (`value`, or `text` as typed, read as the field's type) or taken from
    the other side must be one a case file could hold (`resolution`); one that is not is
    refused in words and changes nothing."""
    rows = ws.store.query("SELECT * FROM sync_conflicts WHERE id = ?", (conflict_id,))
    if not rows:
        raise NotFoundError(f"No conflict {conflict_id!r}; `inspector-app sync conflicts` "
                            "lists them.",
                            in_app=f"No conflict {conflict_id!r}; Sync > Conflicts... lists "
                                   "the open ones.")
    c = rows[0]
    if c["resolved_at"] is not None:
        raise InputError(f"Conflict {conflict_id} was already resolved by {c['resolved_by']} "
                         f"at {c['resolved_at']}.")
    if choice not in ("keep_local", "take_incoming", "enter_value"):
        raise InputError(f"{choice!r} is not a resolution (keep_local, take_incoming, "
                         "enter_value).")
    table, field = c["table_name"], c["field"]
    if choice == "enter_value" and text is not None and not field.startswith("("):
        value = resolution.from_text(table, field, text)
    incoming = _value(c["incoming_value"])
    today = ws.today()
    with ws.store.transaction() as w:
        if field == "(deleted)" and _value(c["local_value"]) == "deleted":
            # removed here, edited on the other side: the removal stays, or a person adds
            # the record again with the edit (a removed record is not brought back)
            if choice != "keep_local":
                raise InputError(
                    "This record was removed here while it was edited on the other device; "
                    "keep the removal, or add the record again in the case with the value "
                    f"from the other device ({_value(c['incoming_value'])}).")
            chosen: Any = "deleted"
        elif field == "(deleted)":
            if choice == "take_incoming":
                resolution.delete(w, table=table, record_id=c["record_id"], today=today)
            elif choice == "enter_value":
                raise InputError("A deleted-versus-edited conflict is resolved by keeping the "
                                 "record or deleting it, not by a value.")
            chosen = "deleted" if choice == "take_incoming" else "kept"
        elif field == "(record)":
            if choice != "keep_local":
                raise InputError("A record created on both sides keeps the local record; "
                                 "re-enter anything from the other one by hand.")
            chosen = "kept"
        else:
            def write(stored: Any) -> None:
                resolve_field(w, table=table, record_id=c["record_id"], field=field,
                              value=stored, conflict_id=conflict_id)

            if choice == "keep_local":
                chosen = w.current(table, c["record_id"])[field]
                write(chosen)
            else:
                chosen = resolution.put(
                    w, table=table, record_id=c["record_id"], column=field,
                    value=incoming if choice == "take_incoming" else value, today=today,
                    write=write)
        chosen = _shown(chosen)
        w.conn.execute("UPDATE sync_conflicts SET resolved_at = ?, resolved_by = ?, "
                       "resolution = ?, resolved_value = ? WHERE id = ?",
                       (w.now, w.actor.user, choice, json.dumps(chosen), conflict_id))
    return {"id": conflict_id, "resolution": choice, "value": chosen}


def status(ws: Workspace) -> dict[str, Any]:
    this = _device(ws, "this")
    assert this is not None
    out: dict[str, Any] = {"role": role(ws), "device": this["name"], "device_id": this["id"],
                           "key_fingerprint": (keys.fingerprint(this["public_key"])
                                               if this["public_key"] else None)}
    if role(ws) == FIELD:
        office = _device(ws, OFFICE)
        assert office is not None
        mine = ws.store.query("SELECT coalesce(max(device_seq), 0) AS n FROM change_log "
                              "WHERE device_id = ? AND device_seq IS NOT NULL",
                              (this["id"],))[0]["n"]
        out.update(office=office["name"], changes_made=mine,
                   acknowledged_by_office=office["acknowledged_seq"],
                   waiting_to_send=mine - office["acknowledged_seq"])
    else:
        devices = []
        for d in ws.store.query("SELECT * FROM devices WHERE role = 'field' ORDER BY name"):
            through, ranges, missing = _gap_ranges(ws, d["id"])
            devices.append({"device": d["name"], "received_through": through,
                            "gaps": _listed(ranges), "gap_ranges": ranges,
                            "missing_changes": missing,
                            "parcels": len(json.loads(d["parcels"])),
                            "office_changes_acknowledged": d["acknowledged_seq"],
                            **_key_status(d)})
        out["devices"] = devices
    out["open_conflicts"] = len(conflicts(ws))
    return out


# --- revoking a laptop, rotating a key -------------------------------------------------

def _key_status(device: dict[str, Any]) -> dict[str, Any]:
    """What `sync status` says of a laptop's key and revocation."""
    out: dict[str, Any] = {"key_fingerprint": (keys.fingerprint(device["public_key"])
                                               if device["public_key"] else None),
                           "revoked": device["revoked_at"] is not None}
    if device["revoked_at"] is not None:
        out.update(revoked_at=device["revoked_at"], revoked_by=device["revoked_by"],
                   revoked_reason=device["revoked_reason"])
    return out


def _revoked_sentence(device: dict[str, Any]) -> str:
    why = f" ({device['revoked_reason']})" if device["revoked_reason"] else ""
    return (f"The laptop {device['name']!r} was revoked on {device['revoked_at'][:10]} by "
            f"{device['revoked_by']}{why}")


def _refuse_revoked(ws: Workspace, device_id: str) -> None:
    rows = ws.store.query("SELECT * FROM devices WHERE id = ? AND role = 'field' AND "
                          "revoked_at IS NOT NULL", (device_id,))
    if rows:
        raise PackageError(f"{_revoked_sentence(rows[0])}; its packages are refused, and "
                           "nothing was changed. Enrol a replacement laptop under a new name "
                           "with `inspector-app sync enroll` and give it the parcels.",
                           in_app=f"{_revoked_sentence(rows[0])}; its packages are refused, "
                                  "and nothing was changed. Enrol a replacement laptop under "
                                  "a new name with Sync > Enrol a laptop (field kit)...")


def _unrevoked(device: dict[str, Any]) -> dict[str, Any]:
    if device["revoked_at"] is not None:
        raise InputError(f"{_revoked_sentence(device)}; nothing is exported to it. Enrol a "
                         "replacement laptop under a new name with `inspector-app sync "
                         "enroll`.")
    return device


def _key_fields(ws: Workspace, device_id: str, private_key: str) -> dict[str, Any]:
    """What a package says of its signing key: the key, and the endorsements leading to it
    from this device's first key, oldest first."""
    rows = ws.store.query(
        "SELECT * FROM device_keys WHERE device_id = ? AND endorsement IS NOT NULL "
        "ORDER BY rowid", (device_id,))
    chain = [{"previous_key": r["endorsed_by"], "public_key": r["public_key"],
              "endorsed_at": r["endorsed_at"], "signature": r["endorsement"]} for r in rows]
    return {"signing_key": keys.public_key(private_key), "key_chain": chain}


def revoke(ws: Workspace, name: str, *, reason: str | None = None) -> dict[str, Any]:
    """Revoke a laptop (a lost or stolen one): every package it signs is refused from now
    on, whichever of its keys signed it. What it sent before stays; its parcels may be
    enrolled to a replacement. The row says who revoked it, when and why."""
    if role(ws) != OFFICE:
        raise InputError("sync revoke: only the office revokes a laptop; this data folder "
                         f"is {'a field laptop' if role(ws) == FIELD else 'not an office'}.")
    reason = (reason or "").strip() or None
    if reason is not None and len(reason) > 500:
        raise InputError(f"sync revoke: --reason is {len(reason)} characters; at most 500.")
    device = _field_device(ws, name.strip())
    if device["revoked_at"] is not None:
        raise InputError(f"{_revoked_sentence(device)} already; nothing was changed.")
    with ws.store.transaction() as w:
        w.conn.execute("UPDATE devices SET revoked_at = ?, revoked_by = ?, revoked_reason = ? "
                       "WHERE id = ? AND revoked_at IS NULL",
                       (w.now, w.actor.user, reason, device["id"]))
    row = ws.store.query("SELECT * FROM devices WHERE id = ?", (device["id"],))[0]
    return {"device": row["name"], "revoked_at": row["revoked_at"],
            "revoked_by": row["revoked_by"], "reason": row["revoked_reason"],
            "parcels": json.loads(row["parcels"])}


def rotate_key(ws: Workspace) -> dict[str, Any]:
    """A new key pair for this device (the office, or this laptop). The old private key
    signs an endorsement of the new public key and is then deleted; the other side learns
    the new key from the endorsement in this device's next package, and packages the old
    key signed still verify with it there."""
    mode = role(ws)
    if mode not in (OFFICE, FIELD):
        raise InputError("sync rotate-key: this data folder has not enrolled or joined a "
                         "laptop, so it has no sync key to rotate.")
    this = _device(ws, "this")
    assert this is not None
    if not this["private_key"]:
        raise InputError(f"This laptop {SHARED_KEY_REFUSAL}.")
    old_private = str(this["private_key"])
    new_private = keys.new_private_key()
    new_public = keys.public_key(new_private)
    conn = ws.store.conn
    # The old private key's bytes are overwritten where the database frees them.
    conn.execute("PRAGMA secure_delete = ON")
    with ws.store.transaction() as w:
        link = keys.endorse(this["id"], old_private, new_public, w.now)
        w.conn.execute("UPDATE devices SET private_key = ?, public_key = ? WHERE role = 'this' "
                       "AND private_key = ?", (new_private, new_public, old_private))
        w.conn.execute("UPDATE device_keys SET endorsed_by = ?, endorsed_at = ?, "
                       "endorsement = ? WHERE device_id = ? AND public_key = ?",
                       (link["previous_key"], link["endorsed_at"], link["signature"],
                        this["id"], new_public))
    # Into the database file now (a reader holding it back leaves it to the next one).
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return {"device": this["name"], "fingerprint": keys.fingerprint(new_public),
            "previous": keys.fingerprint(link["previous_key"]), "endorsed_at": w.now}
