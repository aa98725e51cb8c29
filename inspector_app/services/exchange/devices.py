"""The devices a data folder knows (itself, its office, its enrolled laptops), their keys,
revocation and key rotation."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from ...errors import InputError, NotFoundError
from ...storage import devices
from ...sync import keys
from ...sync.package import (
    PackageError,
)
from ..session.session import FIELD, OFFICE, Session


def now_text() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def device_row(ws: Session, role_name: str) -> dict[str, Any] | None:
    return devices.by_role(ws.store.conn, role_name)


def field_device(ws: Session, name: str) -> dict[str, Any]:
    found = devices.laptop_named(ws.store.conn, name)
    if found is None:
        raise NotFoundError(f"No laptop named {name!r} is enrolled here; `inspector-app sync "
                            "status` lists them.",
                            in_app=f"No laptop named {name!r} is enrolled here; enrol it with "
                                   "Sync > Enrol a laptop (field kit)...")
    return found


# --- enrolment -------------------------------------------------------------------------


SHARED_KEY_REFUSAL = ("was enrolled under the earlier shared-key scheme, which this version "
                      "no longer accepts; enrol the laptop again at the office (`sync enroll`, "
                      "a new name) and set it up from the new field kit")


def office_private_key(ws: Session) -> str:
    """The office's private key, made (once) when it is first needed."""
    this = device_row(ws, "this")
    assert this is not None
    if this["private_key"]:
        return str(this["private_key"])
    private = keys.new_private_key()
    with ws.store.transaction() as w:
        devices.set_own_keys(w.conn, private, keys.public_key(private), replacing=None)
    this = device_row(ws, "this")
    assert this is not None
    return str(this["private_key"])


def office_fingerprint(ws: Session) -> str:
    """The fingerprint of this office's public key, as `sync join` shows it."""
    return keys.fingerprint(keys.public_key(office_private_key(ws)))


def device_by_id(ws: Session, device_id: str) -> dict[str, Any]:
    found = devices.laptop(ws.store.conn, device_id)
    assert found is not None
    return found


def parcels_of(ws: Session, device: dict[str, Any]) -> set[str]:
    """A laptop's parcels: those assigned to it (a parcel it proposed is assigned to it
    once accepted)."""
    return devices.parcel_ids_of(ws.store.conn, device)


# --- import ----------------------------------------------------------------------------


def key_status(device: dict[str, Any]) -> dict[str, Any]:
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


def refuse_revoked(ws: Session, device_id: str) -> None:
    found = devices.laptop(ws.store.conn, device_id)
    if found is not None and found["revoked_at"] is not None:
        raise PackageError(f"{_revoked_sentence(found)}; its packages are refused, and "
                           "nothing was changed. Enrol a replacement laptop under a new name "
                           "with `inspector-app sync enroll` and give it the parcels.",
                           in_app=f"{_revoked_sentence(found)}; its packages are refused, "
                                  "and nothing was changed. Enrol a replacement laptop under "
                                  "a new name with Sync > Enrol a laptop (field kit)...")


def unrevoked(device: dict[str, Any]) -> dict[str, Any]:
    if device["revoked_at"] is not None:
        raise InputError(f"{_revoked_sentence(device)}; nothing is exported to it. Enrol a "
                         "replacement laptop under a new name with `inspector-app sync "
                         "enroll`.")
    return device


def key_fields(ws: Session, device_id: str, private_key: str) -> dict[str, Any]:
    """What a package says of its signing key: the key, and the endorsements leading to it
    from this device's first key, oldest first."""
    rows = devices.endorsements(ws.store.conn, device_id)
    chain = [{"previous_key": r["endorsed_by"], "public_key": r["public_key"],
              "endorsed_at": r["endorsed_at"], "signature": r["endorsement"]} for r in rows]
    return {"signing_key": keys.public_key(private_key), "key_chain": chain}


def revoke(ws: Session, name: str, *, reason: str | None = None) -> dict[str, Any]:
    """Revoke a laptop (a lost or stolen one): every package it signs is refused from now
    on, whichever of its keys signed it. What it sent before stays; its parcels may be
    enrolled to a replacement. The row says who revoked it, when and why."""
    if ws.role != OFFICE:
        raise InputError("sync revoke: only the office revokes a laptop; this data folder "
                         f"is {'a field laptop' if ws.role == FIELD else 'not an office'}.")
    reason = (reason or "").strip() or None
    if reason is not None and len(reason) > 500:
        raise InputError(f"sync revoke: --reason is {len(reason)} characters; at most 500.")
    device = field_device(ws, name.strip())
    if device["revoked_at"] is not None:
        raise InputError(f"{_revoked_sentence(device)} already; nothing was changed.")
    with ws.store.transaction() as w:
        devices.revoke(w.conn, device["id"], at=w.now, by=w.actor.user, reason=reason)
    row = devices.laptop(ws.store.conn, device["id"])
    assert row is not None
    return {"device": row["name"], "revoked_at": row["revoked_at"],
            "revoked_by": row["revoked_by"], "reason": row["revoked_reason"],
            "parcels": json.loads(row["parcels"])}


def rotate_key(ws: Session) -> dict[str, Any]:
    """A new key pair for this device (the office, or this laptop). The old private key
    signs an endorsement of the new public key and is then deleted; the other side learns
    the new key from the endorsement in this device's next package, and packages the old
    key signed still verify with it there."""
    mode = ws.role
    if mode not in (OFFICE, FIELD):
        raise InputError("sync rotate-key: this data folder has not enrolled or joined a "
                         "laptop, so it has no sync key to rotate.")
    this = device_row(ws, "this")
    assert this is not None
    if not this["private_key"]:
        raise InputError(f"This laptop {SHARED_KEY_REFUSAL}.")
    old_private = str(this["private_key"])
    new_private = keys.new_private_key()
    new_public = keys.public_key(new_private)
    # The old private key's bytes are overwritten where the database frees them, and
    # the change goes into the database file at once.
    with ws.store.erasing(), ws.store.transaction() as w:
        link = keys.endorse(this["id"], old_private, new_public, w.now)
        devices.set_own_keys(w.conn, new_private, new_public, replacing=old_private)
        devices.endorse(w.conn, this["id"], link)
    return {"device": this["name"], "fingerprint": keys.fingerprint(new_public),
            "previous": keys.fingerprint(link["previous_key"]), "endorsed_at": w.now}
