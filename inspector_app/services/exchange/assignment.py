"""What a laptop holds: its parcels, the office packages addressed to it, and clearing
the owners' contact data of parcels it no longer has.

At the office, `assign` adds parcels to an enrolled laptop or takes them away; each change
is a new revision of the laptop's assignment, recorded with who made it and when. Every
office package is addressed to one laptop and carries, signed, that laptop's parcels now
(the assignment and its revision), and the whole records of parcels newly assigned to it
(as a field kit carries them) until the laptop says it holds that revision.

On a laptop, a package addressed to another laptop, or carrying a change or a record of a
parcel outside the assignment it states, is refused whole. The laptop keeps the newest
assignment it has seen; once a parcel is no longer assigned and the office has
acknowledged every change the laptop made to it, the laptop clears the owner's and the
renters' telephone numbers and e-mail addresses (and the renters' mailing addresses) in its
own copy, its copy of their history included. That clearing writes no change: nothing of
it travels to the office.

The assignments are kept in `device_assignments` (schema version 9), the clearings in
`contact_clearings` and `cleared_copies`.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any

from ...errors import InputError
from ...storage.sync_apply import BYTES_REF, SYNCED_TABLES
from ...sync import policy
from ...sync.package import Package, PackageError
from ..session.session import FIELD, OFFICE, Session
from .devices import field_device

# While a clearing is under way (inside its transaction), this row of `meta` lets the
# change log's contact values be set to null, and nothing else (migration 0009).
CLEARING_GUARD = "change_log_clearing"
# The contact data a laptop clears: (table, column, the value it is cleared to).
CONTACT_FIELDS = (("parcels", "owner_phone", None), ("parcels", "owner_email", None),
                  ("renters", "phone", None), ("renters", "email", None),
                  ("renters", "mailing_address", "[]"))
# History columns a package may carry for a newly assigned parcel (its `seq` is local).
_HISTORY_COLUMNS = ("change_id", "at", "user", "device_id", "table_name", "record_id",
                    "parcel_id", "op", "field", "old_value", "new_value", "record_version",
                    "device_seq")


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


# --- at the office -----------------------------------------------------------------------

def office_state(ws: Session, device_id: str) -> dict[str, Any]:
    """A laptop's assignment history at the office: `revision` (0 at enrolment), the
    parcels taken from it (`released`), those added and not yet confirmed held
    (`pending`: parcel id -> revision), the revision the laptop last said it holds, and
    every change (`events`: revision, at, user, added, removed)."""
    rows = ws.store.query("SELECT assignment_held FROM devices WHERE id = ?", (device_id,))
    laptop_revision = int(rows[0]["assignment_held"]) if rows else 0
    events = [{"revision": int(e["revision"]), "at": e["at"], "user": e["user"],
               "added": json.loads(e["added"]), "removed": json.loads(e["removed"])}
              for e in ws.store.query(
                  "SELECT revision, at, user, added, removed FROM device_assignments WHERE "
                  "device_id = ? AND parcels IS NULL ORDER BY revision", (device_id,))]
    last: dict[str, tuple[int, bool]] = {}  # parcel id -> its latest revision, added?
    for e in events:
        last.update({p: (e["revision"], True) for p in e["added"]})
        last.update({p: (e["revision"], False) for p in e["removed"]})
    return {"revision": events[-1]["revision"] if events else 0,
            "released": sorted(p for p, (_, added) in last.items() if not added),
            "pending": {p: r for p, (r, added) in last.items()
                        if added and r > laptop_revision},
            "laptop_revision": laptop_revision, "events": events}


def _named(ws: Session, parcels: list[str] | None, worklist: str | None) -> list[str]:
    from ..lists.worklists import WORKLISTS, worklists

    if not parcels and not worklist:
        raise InputError("sync assign: name the parcels with --parcels SBL,SBL or a work list "
                         f"with --worklist ({', '.join(WORKLISTS)}).")
    sbls = list(dict.fromkeys(s.strip() for s in parcels or [] if s.strip()))
    for sbl in sbls:
        ws.parcel_id(sbl)  # an unknown tax map number is refused, with where to look
    if worklist:
        if worklist not in WORKLISTS:
            raise InputError(f"sync assign: --worklist {worklist!r} is not a work list; use "
                             f"one of {', '.join(WORKLISTS)}.")
        listed = worklists(ws, as_of=ws.today(), names=(worklist,))[worklist]
        sbls += [p["sbl"] for p in listed if p["sbl"] not in sbls]
    return sbls


def assign(ws: Session, device: str, parcels: list[str] | None = None, *,
           worklist: str | None = None, remove: bool = False) -> dict[str, Any]:
    """Add parcels to an enrolled laptop (or, with `remove`, take them from it). The next
    office package to that laptop tells it, and carries the whole records of the parcels
    added; the office keeps the laptop's later changes to a parcel taken from it as
    conflicts for a person (docs/sync.md)."""
    if ws.role != OFFICE:
        raise InputError("sync assign: only the office assigns parcels, and this data folder "
                         "has enrolled no laptop.")
    target = field_device(ws, device.strip())
    if target.get("revoked_at"):
        raise InputError(f"sync assign: the laptop {target['name']!r} was revoked; its "
                         "parcels can be assigned to another laptop.")
    named = _named(ws, parcels, worklist)
    current = list(json.loads(target["parcels"]))
    if remove:
        changed = [s for s in named if s in current]
        after = [s for s in current if s not in changed]
    else:
        changed = [s for s in named if s not in current]
        after = current + changed
    result: dict[str, Any] = {"device": target["name"], "parcels": len(after),
                              "added": [] if remove else changed,
                              "removed": changed if remove else []}
    if not changed:
        return result
    revision = int(office_state(ws, target["id"])["revision"]) + 1
    ids = json.dumps([ws.parcel_id(s) for s in changed])
    with ws.store.transaction() as w:
        w.conn.execute(
            "INSERT INTO device_assignments (device_id, revision, at, user, device_name, "
            "added, removed) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (target["id"], revision, w.now, w.actor.user, target["name"],
             "[]" if remove else ids, ids if remove else "[]"))
        w.conn.execute("UPDATE devices SET parcels = ? WHERE id = ?",
                       (json.dumps(after), target["id"]))
    return {**result, "revision": revision}


def held_from(ws: Session, device_id: str, current: set[str]) -> frozenset[str]:
    """Parcels taken from a laptop (and not given back): its changes to them are received,
    but kept for a person."""
    return frozenset(set(office_state(ws, device_id)["released"]) - current)


def note_laptop_revision(ws: Session, device_id: str, revision: int) -> None:
    """The laptop says it holds this revision of its assignment (inside the import's
    transaction): the parcels added up to it no longer need their records sent."""
    state = office_state(ws, device_id)
    if revision <= int(state["laptop_revision"]) or revision > int(state["revision"]):
        return
    ws.store.conn.execute("UPDATE devices SET assignment_held = ? WHERE id = ?",
                          (revision, device_id))


def encode_row(row: Mapping[str, Any], blobs: dict[str, bytes]) -> dict[str, Any]:
    """A row as a package carries it: bytes (a letter's PDF) stand as a reference to a
    member named by their SHA-256, which joins `blobs`."""
    out = {}
    for k, v in row.items():
        if isinstance(v, bytes):
            digest = hashlib.sha256(v).hexdigest()
            blobs[digest] = v
            v = {BYTES_REF: digest}
        out[k] = v
    return out


def parcel_records(ws: Session, parcel_ids: list[str], blobs: dict[str, bytes], *,
                   active_layer: bool = False) -> list[dict[str, Any]]:
    """The rows of the synced tables for these parcels and the shoreline layers their
    measurements were taken on (and the active layer, for a field kit), with their photos'
    bytes added to `blobs`: what a field kit or an office package carries of them."""
    marks = ",".join("?" * len(parcel_ids)) or "NULL"
    records: list[dict[str, Any]] = []
    for table in sorted(SYNCED_TABLES - {"lot_measurements"}):  # measured on the laptop
        if table == "shoreline_layers":
            rows = ws.store.query(
                "SELECT * FROM shoreline_layers WHERE "
                f"{'active = 1 OR ' if active_layer else ''}id IN (SELECT shoreline_layer_id "
                f"FROM lake_measurements WHERE parcel_id IN ({marks}))", parcel_ids)
        elif table == "parcels":
            rows = ws.store.query(f"SELECT * FROM parcels WHERE id IN ({marks})", parcel_ids)
        else:
            rows = ws.store.query(f"SELECT * FROM {table} WHERE parcel_id IN ({marks})",
                                  parcel_ids)
        records += [{"table": table, "row": encode_row(r, blobs)} for r in rows]
        if table == "attachments":
            for r in rows:
                path = ws.attachment_path(r["sha256"])
                if not path.exists():
                    raise InputError(f"The photo {r['sha256'][:12]}... of parcel record "
                                     f"{r['parcel_id']} is missing from "
                                     f"{ws.folder.attachments}; restore it before exporting.")
                blobs[r["sha256"]] = path.read_bytes()
    return records


def _records_of(ws: Session, parcel_ids: list[str],
                blobs: dict[str, bytes]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The records of newly assigned parcels and their history."""
    records = parcel_records(ws, parcel_ids, blobs)
    marks = ",".join("?" * len(parcel_ids))
    history = ws.store.query(f"SELECT * FROM change_log WHERE parcel_id IN ({marks}) "
                             "ORDER BY seq", parcel_ids)
    return records, [{k: h[k] for k in _HISTORY_COLUMNS} for h in history]


def office_package(ws: Session, target: Mapping[str, Any], parcel_ids: set[str],
                   blobs: dict[str, bytes]) -> tuple[dict[str, Any], dict[str, bytes]]:
    """What an office package to one laptop adds to its manifest (the laptop it is for,
    its assignment now) and to its members (the records of parcels newly assigned, whose
    files join `blobs`)."""
    state = office_state(ws, target["id"])
    fields = {"for_device": target["id"],
              "assignment": {"revision": int(state["revision"]),
                             "parcels": sorted(parcel_ids)}}
    pending = sorted(p for p in state["pending"] if p in parcel_ids)
    if not pending:
        return fields, {}
    records, history = _records_of(ws, pending, blobs)
    return fields, {
        "records.jsonl": "\n".join(json.dumps(r, ensure_ascii=False) for r in records).encode(),
        "history.jsonl": "\n".join(json.dumps(h, ensure_ascii=False) for h in history).encode()}


# --- on a laptop -------------------------------------------------------------------------

def _held(conn: sqlite3.Connection) -> dict[str, Any] | None:
    """The newest assignment this laptop took from an office package, if any."""
    row = conn.execute(
        "SELECT revision, office_seq, parcels FROM device_assignments WHERE device_id = "
        "(SELECT id FROM devices WHERE role = 'this') AND parcels IS NOT NULL "
        "ORDER BY id DESC LIMIT 1").fetchone()
    if row is None:
        return None
    return {"revision": int(row[0]), "seq_through": int(row[1] or 0),
            "parcels": json.loads(row[2])}


def laptop_revision(ws: Session) -> int:
    """The revision of its assignment this laptop holds (0: the one of its kit)."""
    held = _held(ws.store.conn)
    return 0 if held is None else int(held["revision"])


def assigned_here(ws: Session) -> set[str]:
    """The parcels this laptop holds as assigned: the newest assignment the office sent,
    or, before any, every parcel of its kit."""
    held = _held(ws.store.conn)
    if held is not None:
        return set(held["parcels"])
    return {r["id"] for r in ws.store.query("SELECT id FROM parcels")}


def _open_clearings(conn: sqlite3.Connection) -> dict[str, int]:
    """The parcels whose contact data this copy no longer holds: parcel id -> clearing."""
    return {str(p): int(i) for p, i in conn.execute(
        "SELECT parcel_id, id FROM contact_clearings WHERE restored_at IS NULL")}


def cleared_here(ws: Session) -> set[str]:
    """The tax map numbers of the parcels whose contact data this laptop has cleared."""
    return {str(r["sbl"]) for r in ws.store.query(
        "SELECT sbl FROM contact_clearings WHERE restored_at IS NULL")}


def _lines(package: Package, member: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in package.extra.get(member, b"").splitlines()
            if line.strip()]


def _record_parcel(item: Mapping[str, Any]) -> str | None:
    row = item["row"]
    value = row.get("id") if item["table"] == "parcels" else row.get("parcel_id")
    return value if isinstance(value, str) else None


def check_office_package(ws: Session, package: Package, this: Mapping[str, Any],
                         source: str,
                         attachment_exists: Callable[[str], bool]) -> None:
    """Refuse, before anything is touched, an office package that is not addressed to
    this laptop, or that carries a change or a record of a parcel outside the assignment
    it states."""
    manifest = package.manifest

    def refuse(why: str) -> PackageError:
        return PackageError(f"{source}: {why}; the package was refused and nothing was "
                            "changed.")

    addressed = manifest.get("for_device")
    if addressed is None or "assignment" not in manifest:
        raise refuse(f"it is not addressed to this laptop ({this['name']!r}); ask the office "
                     f"for this laptop's package (`sync export --device {this['name']}`)")
    if addressed != this["id"]:
        raise refuse(f"it is addressed to another laptop (device {addressed}), not to this "
                     f"one ({this['name']!r}); ask the office for this laptop's package "
                     f"(`sync export --device {this['name']}`)")
    parcels = set(manifest["assignment"]["parcels"])
    for c in package.changes:
        if c["parcel_id"] is not None and c["parcel_id"] not in parcels:
            raise refuse(f"change {c['change_id']} ({c['op']} of {c['table']}) is for the "
                         f"parcel {c['parcel_id']}, which is not assigned to this laptop")
    records = _lines(package, "records.jsonl")
    layers = set()
    for n, item in enumerate(records, start=1):
        if not isinstance(item, dict) or set(item) != {"table", "row"} or not isinstance(
                item["row"], dict) or item["table"] not in SYNCED_TABLES:
            raise refuse(f"records.jsonl line {n} is not a record of a synchronised table")
        if item["table"] == "shoreline_layers":
            layers.add(item["row"].get("id"))
        elif _record_parcel(item) not in parcels:
            raise refuse(f"records.jsonl line {n} ({item['table']}) belongs to the parcel "
                         f"{_record_parcel(item)}, which is not assigned to this laptop")
    problem = policy.record_problem(ws.store.conn, records, blobs=package.attachments,
                                    attachment_exists=attachment_exists)
    if problem is not None:
        raise refuse(problem)
    for n, h in enumerate(_lines(package, "history.jsonl"), start=1):
        if not isinstance(h, dict) or set(h) != set(_HISTORY_COLUMNS) or (
                h["parcel_id"] not in parcels and h["record_id"] not in layers):
            raise refuse(f"history.jsonl line {n} is not the history of a parcel assigned to "
                         "this laptop")


def take_office_package(ws: Session, conn: sqlite3.Connection,
                        package: Package) -> frozenset[str]:
    """Inside the import's transaction: keep the package's assignment if it is the newest
    seen, add the records of newly assigned parcels (giving back the contact data of one
    cleared here), and return the parcels whose changes are not for this laptop (the
    package is older than the assignment held)."""
    manifest = package.manifest
    theirs = {"revision": manifest["assignment"]["revision"],
              "seq_through": manifest.get("source_seq_through", 0),
              "parcels": manifest["assignment"]["parcels"]}
    mine = _held(conn)
    if mine is None or (theirs["revision"], theirs["seq_through"]) >= (
            mine["revision"], mine["seq_through"]):
        before = set(assigned_here(ws))
        now = set(theirs["parcels"])
        if mine is None or mine["revision"] != theirs["revision"] or before != now:
            this_id, this_name = conn.execute(
                "SELECT id, name FROM devices WHERE role = 'this'").fetchone()
            conn.execute(
                "INSERT INTO device_assignments (device_id, revision, at, user, device_name, "
                "added, removed, parcels, office_seq) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (this_id, theirs["revision"], _now(), ws.store.actor.user, this_name,
                 json.dumps(sorted(now - before)), json.dumps(sorted(before - now)),
                 json.dumps(sorted(now)), theirs["seq_through"]))
        mine = theirs
    assigned = set(mine["parcels"])
    purged = _open_clearings(conn)
    restored: set[str] = set()
    records = _lines(package, "records.jsonl")
    for item in sorted(records, key=lambda r: r["table"] != "parcels"):
        table, parcel = item["table"], _record_parcel(item)
        if table != "shoreline_layers" and parcel not in assigned:
            continue
        row = {k: package.attachments[v[BYTES_REF]] if isinstance(v, dict) else v
               for k, v in item["row"].items()}
        if conn.execute(f"SELECT 1 FROM {table} WHERE id = ?", (row["id"],)).fetchone():
            if parcel is not None and parcel in purged:
                contact = [(c, row[c]) for t, c, _ in CONTACT_FIELDS if t == table and c in row]
                if contact:
                    conn.execute(f"UPDATE {table} SET {', '.join(f'{c} = ?' for c, _ in contact)}"
                                 " WHERE id = ?", [v for _, v in contact] + [row["id"]])
                    restored.add(parcel)
            continue
        names = list(row)
        conn.execute(f"INSERT INTO {table} ({', '.join(names)}) VALUES "
                     f"({', '.join('?' * len(names))})", [row[n] for n in names])
        if parcel is not None and parcel in purged:
            restored.add(parcel)
    for h in _lines(package, "history.jsonl"):
        if h["parcel_id"] is not None and h["parcel_id"] not in assigned:
            continue
        if not conn.execute("SELECT 1 FROM change_log WHERE change_id = ?",
                            (h["change_id"],)).fetchone():
            conn.execute(f"INSERT INTO change_log ({', '.join(_HISTORY_COLUMNS)}) VALUES "
                         f"({', '.join('?' * len(_HISTORY_COLUMNS))})",
                         [h[k] for k in _HISTORY_COLUMNS])
    for parcel in sorted(restored):
        conn.execute("UPDATE contact_clearings SET restored_at = ?, restored_by = ? "
                     "WHERE id = ?", (_now(), ws.store.actor.user, purged[parcel]))
    outside = {c["parcel_id"] for c in package.changes
               if c["parcel_id"] is not None and c["parcel_id"] not in assigned}
    return frozenset(outside)


def purge(ws: Session, conn: sqlite3.Connection, this_id: str, user: str) -> list[str]:
    """Inside the import's transaction, after the acknowledgements: clear the contact data
    of every parcel no longer assigned whose changes made here the office has all
    acknowledged, in its records and in this copy's history of them (the change log and
    the sync conflicts). A local clearing of this copy: no change is logged, none travels,
    and the office's records keep every value. Each clearing is noted here
    (`contact_clearings`: when, by whom; `cleared_copies`: which history values it
    emptied). Returns the tax map numbers cleared."""
    if ws.role != FIELD:
        raise InputError("Contact data is cleared only on a laptop; the office keeps it.")
    acknowledged = int(conn.execute("SELECT acknowledged_seq FROM devices WHERE role = "
                                    "'office'").fetchone()[0])
    assigned = assigned_here(ws)
    purged = _open_clearings(conn)
    cleared = []
    for pid, sbl in conn.execute("SELECT id, sbl FROM parcels ORDER BY sbl").fetchall():
        if pid in assigned or pid in purged:
            continue
        (mine,) = conn.execute("SELECT coalesce(max(device_seq), 0) FROM change_log WHERE "
                               "device_id = ? AND parcel_id = ?", (this_id, pid)).fetchone()
        if mine > acknowledged:
            continue  # not yet all at the office: kept until it acknowledges them
        for table, column, empty in CONTACT_FIELDS:
            key = "id" if table == "parcels" else "parcel_id"
            conn.execute(f"UPDATE {table} SET {column} = ? WHERE {key} = ?", (empty, pid))
        clearing = conn.execute(
            "INSERT INTO contact_clearings (parcel_id, sbl, cleared_at, cleared_by) "
            "VALUES (?, ?, ?, ?)", (pid, sbl, _now(), user)).lastrowid
        assert clearing is not None
        _clear_history(conn, pid, clearing)
        cleared.append(str(sbl))
    return cleared


def _contact_columns(table: str) -> tuple[str, ...]:
    return tuple(c for t, c, _ in CONTACT_FIELDS if t == table)


def _null_in_place(text: str | None, key: str) -> str | None:
    """A whole record's logged values (compact JSON) with the string value of `key` set to
    null and every other byte as it was; None if it holds no such value."""
    marker = json.dumps(key) + ":"
    start = -1 if text is None else text.find(marker)
    if text is None or start < 0:
        return None
    at = start + len(marker)
    try:
        value, end = json.JSONDecoder().raw_decode(text, at)
    except ValueError:
        return None
    if not isinstance(value, str):
        return None
    return text[:at] + "null" + text[end:]


def _clear_history(conn: sqlite3.Connection, parcel_id: str, clearing: int) -> None:
    """Empty the contact values of one parcel in this copy's change log and sync
    conflicts, noting each value emptied (`cleared_copies`)."""
    def note(table: str, row_id: str, paths: list[str]) -> None:
        conn.execute("INSERT INTO cleared_copies (clearing_id, table_name, row_id, cleared) "
                     "VALUES (?, ?, ?, ?)", (clearing, table, row_id, json.dumps(paths)))

    conn.execute("INSERT INTO meta (key, value) VALUES (?, ?)", (CLEARING_GUARD, parcel_id))
    try:
        rows = conn.execute(
            "SELECT change_id, table_name, op, field, old_value, new_value FROM change_log "
            "WHERE parcel_id = ? AND table_name IN ('parcels', 'renters') AND op IN "
            "('insert', 'update') ORDER BY seq", (parcel_id,)).fetchall()
        for change_id, table, op, field, old, new in rows:
            columns = _contact_columns(table)
            if op == "update":
                paths = [k for k, v in (("old_value", old), ("new_value", new))
                         if field in columns and v is not None]
                if paths:
                    conn.execute(f"UPDATE change_log SET {', '.join(f'{k} = NULL' for k in paths)}"
                                 " WHERE change_id = ?", (change_id,))
            else:
                paths = []
                for key in columns:
                    text = _null_in_place(new, key)
                    if text is not None:
                        conn.execute("UPDATE change_log SET new_value = ? WHERE change_id = ?",
                                     (text, change_id))
                        new, paths = text, [*paths, f"new_value.{key}"]
            if paths:
                note("change_log", change_id, paths)
    finally:
        conn.execute("DELETE FROM meta WHERE key = ?", (CLEARING_GUARD,))
    for cid, table, field, *values in conn.execute(
            "SELECT id, table_name, field, base_value, local_value, incoming_value, "
            "resolved_value FROM sync_conflicts WHERE parcel_id = ?", (parcel_id,)).fetchall():
        columns = _contact_columns(table)
        names = ("base_value", "local_value", "incoming_value", "resolved_value")
        out: dict[str, str | None] = {}
        paths = []
        for name, text in zip(names, values, strict=True):
            value = None if text is None else json.loads(text)
            if field in columns and value is not None:
                out[name], paths = None, [*paths, name]
            elif isinstance(value, dict):
                keys = [k for k in columns if value.get(k) is not None]
                if keys:
                    out[name] = json.dumps({**value, **dict.fromkeys(keys)})
                    paths += [f"{name}.{k}" for k in keys]
        if out:
            conn.execute(f"UPDATE sync_conflicts SET {', '.join(f'{k} = ?' for k in out)} "
                         "WHERE id = ?", [*out.values(), cid])
            note("sync_conflicts", cid, paths)
