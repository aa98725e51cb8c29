"""Importing a sync package: checked whole, backed up, applied in one transaction."""

from __future__ import annotations

import contextlib
import sqlite3
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from ...domain.case import Case
from ...storage import devices, held, proposals, sync_log
from ...storage import parcels as parcel_rows
from ...storage.database import page_cache
from ...storage.records import RecordWriter
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
from . import assignment, proposal_flow, resolution
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
        if mode not in (OFFICE, FIELD):
            return None
        found = devices.of_role(ws.store.conn, device_id, FIELD if mode == OFFICE else OFFICE)
        if found is None:
            return None
        if mode == OFFICE:
            refuse_revoked(ws, device_id)
        if not found["public_key"]:
            who = (f"The laptop {found['name']!r}" if mode == OFFICE else "This laptop")
            raise PackageError(f"{who} {SHARED_KEY_REFUSAL}; nothing was changed.")
        return str(found["public_key"])

    return key_for


def _keys_held(ws: Session) -> Any:
    """Every public key held for a sender, earlier ones included (`device_keys`)."""
    other = OFFICE if ws.role == FIELD else FIELD
    return lambda device_id: devices.keys_held(ws.store.conn, device_id, other)


def _check_policy(ws: Session, package: Package, source: Path) -> policy.Verdict:
    """Refuse the package whole if its signer may not make one of its changes, or one of
    its values is not one the records may hold (`sync.policy`); else what is held."""
    this = device_row(ws, "this")
    assert this is not None
    device = package.manifest["source_device"]
    if ws.role == OFFICE:
        found = devices.laptop(ws.store.conn, device)
        parcels = frozenset(parcels_of(ws, found)) if found else frozenset()
        # parcels taken from the laptop stay its to speak of: those changes are kept for a
        # person (`assignment`)
        parcels |= assignment.held_from(ws, device, set(parcels))
        enrolled = datetime.fromisoformat(found["created_at"]) if found else None
        # the parcels it proposed that no person accepted yet: their changes are held
        waiting = frozenset(proposals.listed(ws.store.conn, (proposals.PENDING,
                                                             proposals.REJECTED),
                                             device_id=device))
        sender = policy.Sender(device_id=device, role=FIELD, parcels=parcels,
                               enrolled_at=enrolled if enrolled is None or enrolled.tzinfo
                               else enrolled.replace(tzinfo=UTC), proposed=waiting)
    else:
        sender = policy.Sender(device_id=device, role=OFFICE)
        assignment.check_office_package(
            ws, package, this, str(source),
            attachment_exists=lambda digest: ws.attachment_path(digest).exists())
    return policy.check_package(
        ws.store.conn, package, sender=sender, receiver_id=this["id"], source=str(source),
        attachment_exists=lambda digest: ws.attachment_path(digest).exists())


def import_package(ws: Session, path: Path) -> dict[str, Any]:
    def already(package_id: str) -> bool:
        return sync_log.package_imported(ws.store.conn, package_id)

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
    verdict = _check_policy(ws, package, path)
    ws.store.backup_before("sync-import")
    this = device_row(ws, "this")
    assert this is not None
    received_at = now_text()
    cleared_before = assignment.cleared_here(ws)
    try:
        counts = _apply(ws, package, path, received_at, this, verdict)
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
                              "held": counts.held, "summary": _import_summary(counts)}
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
    if counts.held:
        text += (f"; {n(counts.held, 'change')} kept aside for a person "
                 "(`inspector-app sync held`)")
    settled = counts.conflicts - counts.open_conflicts
    if settled > 0:
        text += (f"; {n(settled, 'change')} that met a conflict "
                 f"{'was' if settled == 1 else 'were'} settled within the package itself")
    return text + "."


# Parcels a package changes whose cases are kept as read before it is applied (a case
# takes a few kilobytes); beyond this many, each case is judged as it is read.
CASES_KEPT = 10_000


def _cases_before(conn: sqlite3.Connection, parcel_ids: list[str], path: Path,
                  today: date) -> dict[str, Case | str | None]:
    """The cases of the parcels a package changes, as stored before it is applied: each
    is judged by the case-file rules only if the package leaves it reading badly
    (`_refuse_worse_cases`), so that most are read once and judged once."""
    before: dict[str, Case | str | None] = {}
    for start in range(0, len(parcel_ids), 500):
        cases = resolution.stored_cases(conn, parcel_ids[start:start + 500], str(path))
        if start >= CASES_KEPT:
            before.update((parcel_id, resolution.problem_of(case, str(path), today))
                          for parcel_id, case in cases.items())
        else:
            before.update(cases)
    return before


def _refuse_worse_cases(ws: Session, conn: sqlite3.Connection, path: Path,
                        before: dict[str, Case | str | None], judged_on: date) -> None:
    """The rules of a whole case (dates after today, one field against another) for the
    parcels a laptop's package changed: a case that reads worse than before refuses the
    package, as the same change made in the app or by a case file would be refused."""
    after = resolution.case_problems(conn, list(before), str(path), ws.today())
    for parcel_id, now in after.items():
        if now is not None and now != resolution.problem_of(before[parcel_id], str(path),
                                                            judged_on):
            sbl = parcel_rows.sbl_of(conn, parcel_id)
            raise PackageError(f"{path}: its changes to parcel {sbl or parcel_id} "
                               f"break the case-file rules ({now}); the package was refused "
                               "and nothing was changed.")


def _write_attachments(ws: Session, package: Package, w: RecordWriter) -> list[Path]:
    """Keep the package's files with its records (`Session.keep_file`); the copies written
    in the folder that it did not hold yet."""
    written = [ws.keep_file(digest, data, w) for digest, data in package.attachments.items()]
    return [p for p in written if p is not None]


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
           this: dict[str, Any], verdict: policy.Verdict) -> ApplyCounts:
    manifest = package.manifest
    sender = manifest["source_device"]
    # a package's thousands of log rows and their indexes: a page cache of its own
    with page_cache(ws.store.conn, mib=64), contextlib.ExitStack() as stack, \
            ws.store.transaction() as w, ws.store.foreign_keys_at_commit():
        held: frozenset[str] = frozenset()
        outside: frozenset[str] = frozenset()
        if ws.role == OFFICE:
            held = assignment.held_from(ws, sender, parcels_of(ws, device_by_id(ws, sender)))
        else:
            # the records of newly assigned parcels go in first, with their history, and
            # what the office decided on this laptop's proposals
            outside = assignment.take_office_package(ws, w.conn, package)
            proposal_flow.learn_decisions(w.conn, manifest.get("proposals", ()))
        mine = [c for c in package.changes if c["parcel_id"] not in outside]
        aside, mine = _kept_aside(w.conn, mine, verdict, package_id=manifest["package_id"],
                                  received_at=received_at)
        applier = ChangeApplier(w.conn, package_id=manifest["package_id"],
                                received_at=received_at, blobs=package.attachments, held=held)
        applier.counts.skipped += len(package.changes) - len(mine) - aside[0] - aside[1]
        applier.counts.held = aside[0]
        applier.counts.already += aside[1]
        touched = sorted({c["parcel_id"] for c in mine if c["parcel_id"]}) \
            if ws.role == OFFICE else []
        judged_on = ws.today()
        before = _cases_before(w.conn, touched, path, judged_on)
        try:
            applier.prepare(mine)
            for change in mine:
                applier.apply(change)
            applier.finish()
        except ValueError as exc:
            raise PackageError(f"{path}: {exc}; the package was refused and nothing was "
                               "changed.") from None
        _refuse_worse_cases(ws, w.conn, path, before, judged_on)
        # every check passed: the package's photos and documents go in with its records
        written = _write_attachments(ws, package, w)
        stack.push(_removed_on_failure(written))
        counts = applier.counts
        for link in package.learned_keys:
            devices.learn_key(w.conn, sender, link)
        for ack in manifest["acknowledges"]:
            if ws.role == OFFICE:
                devices.note_acknowledged(w.conn, by_laptop=sender,
                                          through_seq=ack["through_seq"])
            elif ack["device_id"] == this["id"]:
                devices.note_acknowledged(w.conn, by_laptop=None,
                                          through_seq=ack["through_seq"])
        if ws.role == FIELD and "source_seq_through" in manifest:
            current = int(ws.store.get_meta("office_seq_received") or 0)
            ws.store.set_meta("office_seq_received",
                              str(max(current, manifest["source_seq_through"])))
        if ws.role == FIELD:
            assignment.purge(ws, w.conn, this["id"], w.actor.user)
        elif "assignment_revision" in manifest:
            assignment.note_laptop_revision(ws, sender, manifest["assignment_revision"])
        sync_log.record_package(w.conn, package_id=manifest["package_id"], device_id=sender,
                                at=received_at, by=w.actor.user, changes=len(package.changes),
                                applied=counts.applied, conflicts=counts.conflicts,
                                sha256=package.sha256)
    return counts


def _kept_aside(conn: sqlite3.Connection, changes: list[dict[str, Any]],
                verdict: policy.Verdict, *, package_id: str, received_at: str
                ) -> tuple[tuple[int, int], list[dict[str, Any]]]:
    """Hold the changes no one may apply without a person: at the office, those of the
    parcels a laptop proposed (noting each new proposal); on a laptop, a change from the
    office that its rules refuse, and what follows it on the same record. Returns ((held
    now, held before), the changes to apply)."""
    proposed = verdict.proposed
    refused = dict(verdict.refused)
    refused_records: set[tuple[str, str]] = set()
    aside: list[dict[str, Any]] = []
    rest: list[dict[str, Any]] = []
    for c in changes:
        record = (c["table"], c["record_id"])
        if c["parcel_id"] in proposed:
            aside.append(c)
            if c["table"] == "parcels" and c["op"] == "insert":
                proposals.record(conn, parcel_id=c["record_id"],
                                 sbl=str((c["new"] or {}).get("sbl")), device_id=c["device_id"],
                                 proposed_at=c["at"], proposed_by=c["user"])
        elif c["change_id"] in refused or record in refused_records:
            refused.setdefault(c["change_id"], "it follows a change of the same record that "
                                               "was kept aside")
            refused_records.add(record)
            aside.append(c)
        else:
            rest.append(c)
    before = held.known(conn, [c["change_id"] for c in aside])
    new = [c for c in aside if c["change_id"] not in before]
    held.hold(conn, [c for c in new if c["parcel_id"] in proposed], package_id=package_id,
              received_at=received_at, reason=held.PROPOSAL)
    held.hold(conn, [c for c in new if c["parcel_id"] not in proposed],
              package_id=package_id, received_at=received_at, reason=held.REFUSED,
              problems=refused)
    return (len(new), len(before)), rest


# --- conflicts -------------------------------------------------------------------------
