"""Importing a sync package: checked whole, backed up, applied in one transaction."""

from __future__ import annotations

import contextlib
import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ...paths import write_atomically
from ...storage.sync_apply import (
    ApplyCounts,
    ChangeApplier,
)
from ...sync import policy
from ...sync.package import (
    Package,
    PackageError,
    read_package,
)
from ..session.session import FIELD, OFFICE, Session
from . import assignment, resolution
from .devices import (
    SHARED_KEY_REFUSAL,
    device_by_id,
    device_row,
    now_text,
    parcels_of,
    refuse_revoked,
)
from .outgoing import gap_ranges, listed_gaps


def _key_lookup(ws: Session) -> Any:
    """The public key a sender's packages are checked with: at the office, an enrolled
    laptop's; on a laptop, its office's. A device enrolled under the shared-key scheme
    has none and is refused with the way out."""
    mode = ws.role

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
            refuse_revoked(ws, device_id)
        if not rows[0]["public_key"]:
            who = (f"The laptop {rows[0]['name']!r}" if mode == OFFICE else "This laptop")
            raise PackageError(f"{who} {SHARED_KEY_REFUSAL}; nothing was changed.")
        return str(rows[0]["public_key"])

    return key_for


def _keys_held(ws: Session) -> Any:
    """Every public key held for a sender, earlier ones included (`device_keys`)."""
    other = OFFICE if ws.role == FIELD else FIELD

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


def _check_policy(ws: Session, package: Package, source: Path) -> None:
    """Refuse the package whole if its signer may not make one of its changes, or one of
    its values is not one the records may hold (`sync.policy`)."""
    this = device_row(ws, "this")
    assert this is not None
    device = package.manifest["source_device"]
    if ws.role == OFFICE:
        rows = ws.store.query("SELECT * FROM devices WHERE id = ? AND role = 'field'",
                              (device,))
        parcels = frozenset(parcels_of(ws, rows[0])) if rows else frozenset()
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


def import_package(ws: Session, path: Path) -> dict[str, Any]:
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
    this = device_row(ws, "this")
    assert this is not None
    received_at = now_text()
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
    if ws.role == OFFICE:
        _, ranges, missing = gap_ranges(ws, manifest["source_device"])
        result.update(gaps=listed_gaps(ranges), gap_ranges=ranges, missing_changes=missing)
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


def _refuse_worse_cases(ws: Session, conn: sqlite3.Connection, path: Path,
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


def _write_attachments(ws: Session, package: Package) -> list[Path]:
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


def _apply(ws: Session, package: Package, path: Path, received_at: str,
           this: dict[str, Any]) -> ApplyCounts:
    manifest = package.manifest
    with contextlib.ExitStack() as stack, ws.store.transaction() as w:
        w.conn.execute("PRAGMA defer_foreign_keys = ON")
        held: frozenset[str] = frozenset()
        outside: frozenset[str] = frozenset()
        if ws.role == OFFICE:
            held = assignment.held_from(ws, manifest["source_device"], parcels_of(
                ws, device_by_id(ws, manifest["source_device"])))
        else:
            # the records of newly assigned parcels go in first, with their history
            outside = assignment.take_office_package(ws, w.conn, package)
        mine = [c for c in package.changes if c["parcel_id"] not in outside]
        applier = ChangeApplier(w.conn, package_id=manifest["package_id"],
                                received_at=received_at, blobs=package.attachments, held=held)
        applier.counts.skipped += len(package.changes) - len(mine)
        touched = sorted({c["parcel_id"] for c in mine if c["parcel_id"]}) \
            if ws.role == OFFICE else []
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
            if ws.role == OFFICE:
                w.conn.execute("UPDATE devices SET acknowledged_seq = max(acknowledged_seq, ?) "
                               "WHERE id = ? AND role = 'field'",
                               (ack["through_seq"], manifest["source_device"]))
            elif ack["device_id"] == this["id"]:
                w.conn.execute("UPDATE devices SET acknowledged_seq = max(acknowledged_seq, ?) "
                               "WHERE role = 'office'", (ack["through_seq"],))
        if ws.role == FIELD and "source_seq_through" in manifest:
            current = int(ws.store.get_meta("office_seq_received") or 0)
            ws.store.set_meta("office_seq_received",
                              str(max(current, manifest["source_seq_through"])))
        if ws.role == FIELD:
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
