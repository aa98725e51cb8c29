"""Setting up a laptop from its field kit."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path
from typing import Any

from ...domain.certified import certified_person
from ...errors import InputError
from ...json_input import loads
from ...paths import DataFolder
from ...storage import devices, folder_state, received_records
from ...storage.received_records import HISTORY_COLUMNS
from ...storage.records import RecordWriter
from ...storage.store import Store, utc_now_text
from ...storage.sync_apply import (
    BYTES_REF,
    SYNCED_TABLES,
)
from ...sync import keys, policy
from ...sync.package import (
    MAX_PACKAGE_BYTES,
    PackageError,
    read_package,
)
from ...zip_input import read_member
from ..reference import basemaps
from ..reference import lot_kits as lots
from ..reference.shorelines import BUNDLED_ACCURACY_FT, BUNDLED_NAME, BUNDLED_SOURCE
from ..session.folder_undo import FolderUndo
from ..session.laws import DATA_FOLDER_JURISDICTION, write_kit_laws
from ..session.session import FIELD, working_name
from .devices import SHARED_KEY_REFUSAL, now_text


def _peek_kit(contents: bytes) -> dict[str, Any] | None:
    """The kit's own description, read only to find the key that verifies the kit."""
    try:
        with zipfile.ZipFile(io.BytesIO(contents)) as z:
            info = z.getinfo("kit.json")
            if info.file_size > 10 * 1024**2:
                return None
            kit: dict[str, Any] = loads(read_member(z, info))
            return kit
    except (KeyError, zipfile.BadZipFile, OSError, ValueError):
        return None


def _history_problem(history: list[Any], records: list[Any]) -> str | None:
    """What is wrong with a kit's history, if anything: each entry a change-log row of one
    of the kit's parcels or of a layer it carries."""
    parcels = {r["row"].get("id") for r in records if r.get("table") == "parcels"}
    layers = {r["row"].get("id") for r in records if r.get("table") == "shoreline_layers"}
    wanted = set(HISTORY_COLUMNS)
    for n, h in enumerate(history, start=1):
        if not isinstance(h, dict) or set(h) - {"seq"} != wanted or (
                h["parcel_id"] not in parcels and h["record_id"] not in layers):
            return (f"history.jsonl line {n} is not the history of one of the kit's parcels "
                    "or layers")
    return None


def _only_what_opening_wrote(store: Store) -> str | None:
    """The id of the bundled shoreline layer, if opening the folder is all that ever
    happened to it: that layer, created here and never changed, is its one change; no
    other record of any kind; never enrolled, joined or synced. Otherwise None."""
    changes = folder_state.every_change(store.conn)
    layers = folder_state.every_shoreline_layer(store.conn)
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
    if not devices.keyless_this(store.conn):
        return None
    if store.get_meta("sync_role") is not None or store.get_meta("office_seq_received"):
        return None
    # Every other table, records and sync bookkeeping alike (and any a later schema adds),
    # must be empty.
    own = {"devices", "meta", "change_log", "shoreline_layers", "_sqlite_migrations"}
    if set(folder_state.tables_holding_rows(store.conn)) - own:
        return None
    return str(layer["id"])


def holds_nothing_yet(store: Store) -> bool:
    """Whether a field kit may be joined into this folder: nothing recorded in it, or only
    what opening it wrote (see `_only_what_opening_wrote`)."""
    held = folder_state.records_held(store.conn)
    return not held or _only_what_opening_wrote(store) is not None


def _zip_member_names(data: bytes) -> set[str]:
    """The names in a zip file (none when it cannot be read as one)."""
    import io
    import zipfile

    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            return set(z.namelist())
    except (zipfile.BadZipFile, OSError, ValueError):
        return set()


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
        if _zip_member_names(sealed) & {"manifest.json"}:
            raise PackageError(f"{kit_path}: this field kit is not encrypted: it "
                               f"{SHARED_KEY_REFUSAL}.")
        raise PackageError(f"{kit_path}: is a zip file, not a field kit; give the file the "
                           "office wrote for this laptop with Enrol a laptop (`sync enroll`).")
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
    inspector = _kit_inspector(kit, kit_path)
    records = [json.loads(line) for line in package.extra["records.jsonl"].splitlines()
               if line.strip()]
    history = [json.loads(line) for line in package.extra["history.jsonl"].splitlines()
               if line.strip()]
    kit_lots = None
    if "lot_lines.jsonl" in package.extra:  # checked as an import of lot lines is
        kit_lots = lots.check_kit_lot_lines(
            package.extra["lot_lines.jsonl"], where=str(kit_path),
            parcels={r["row"]["id"] for r in records if r.get("table") == "parcels"})
    folder = DataFolder(root)
    # A join that fails leaves the folder as it was, so that it can be tried again.
    undo = FolderUndo(root)
    try:
        store = Store(folder, user=user)
    except BaseException:
        undo.restore()
        raise
    try:
        held = folder_state.records_held(store.conn)
        opening_layer = _only_what_opening_wrote(store) if held else None
        if held and opening_layer is None:
            raise InputError(f"{root} already holds records ({held} changes); only an empty "
                             "data folder can join. Choose a new folder.",
                             in_app=f"{root} already holds records ({held} changes); only an "
                                    "empty data folder can join. Make one with File > New "
                                    "data folder..., then set up the laptop again.")
        imagery = None
        if "basemap" in kit:  # checked by the reader every import uses, in a work folder
            # of the data folder, before anything is written
            imagery = basemaps.check_kit_imagery(kit_path, kit["basemap"], package.extra,
                                                 root)
        # The kit's records pass the checks a package's records pass, before anything is
        # written: a kit is refused like a package.
        problem = policy.record_problem(store.conn, records, blobs=package.attachments,
                                        attachment_exists=lambda digest: False)
        if problem is None:
            problem = _history_problem(history, records)
        if problem is not None:
            raise PackageError(f"{kit_path}: {problem}; the field kit was refused and nothing "
                               "was changed.")
        for digest, data in package.attachments.items():
            undo.write(folder.attachments / digest[:2] / digest, data)
        with store.writing(), store.foreign_keys_at_commit():
            conn = store.conn
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
            devices.become_laptop(conn, device_id=kit["device"]["id"],
                                  name=kit["device"]["name"], private_key=private,
                                  public_key=keys.public_key(private),
                                  office_id=kit["office"]["id"],
                                  office_name=kit["office"]["name"], office_key=office_key,
                                  at=now_text(), inspector=inspector)
            for item in sorted(records, key=lambda r: r["table"] != "parcels"):
                table = item["table"]
                if table not in SYNCED_TABLES:
                    raise PackageError(f"{kit_path}: names the table {table!r}.")
                row = {k: package.attachments[v[BYTES_REF]] if isinstance(v, dict) else v
                       for k, v in item["row"].items()}
                received_records.take(conn, table, row)
            received_records.take_history(conn, history)
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
            "office_fingerprint": shown,
            **({} if inspector is None else {"inspector": inspector[0],
                                             "certification": inspector[1],
                                             "recorded_as": certified_person(*inspector)})}


def _kit_inspector(kit: dict[str, Any], kit_path: Path) -> tuple[str, str] | None:
    """The certified inspector the kit fixes the laptop to (name, certification number),
    or None for a laptop of the office."""
    given = kit.get("inspector")
    if given is None:
        return None
    if (not isinstance(given, dict) or set(given) != {"name", "certification"}
            or not all(isinstance(v, str) and v.strip() and v.isprintable()
                       for v in given.values())):
        raise PackageError(f"{kit_path}: its inspector is not a name and a certification "
                           "number; the field kit was refused and nothing was changed.")
    try:
        working_name(certified_person(given["name"], given["certification"]))
    except InputError:
        raise PackageError(f"{kit_path}: its inspector's name is not a name the records can "
                           "hold; the field kit was refused and nothing was changed.") from None
    return given["name"], given["certification"]


# --- export ----------------------------------------------------------------------------
