"""The devices a data folder knows, as rows: itself (`this`), its office, its enrolled
laptops; their keys, the endorsements between them, revocation, acknowledgements."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from typing import Any

from .cases import parcels_spelled
from .rows import one, rows


def by_role(conn: sqlite3.Connection, role: str) -> dict[str, Any] | None:
    return one(conn, "SELECT * FROM devices WHERE role = ?", (role,))


def laptops(conn: sqlite3.Connection, *, revoked: bool | None = None) -> list[dict[str, Any]]:
    """The enrolled laptops by name (`revoked`: only those revoked, or not)."""
    where = "" if revoked is None else (" AND revoked_at IS NOT NULL" if revoked
                                        else " AND revoked_at IS NULL")
    return rows(conn, f"SELECT * FROM devices WHERE role = 'field'{where} ORDER BY name")


def laptop_named(conn: sqlite3.Connection, name: str) -> dict[str, Any] | None:
    return one(conn, "SELECT * FROM devices WHERE role = 'field' AND name = ?", (name,))


def laptop(conn: sqlite3.Connection, device_id: str) -> dict[str, Any] | None:
    return one(conn, "SELECT * FROM devices WHERE id = ? AND role = 'field'", (device_id,))


def of_role(conn: sqlite3.Connection, device_id: str, role: str) -> dict[str, Any] | None:
    return one(conn, "SELECT * FROM devices WHERE id = ? AND role = ?", (device_id, role))


def keys_held(conn: sqlite3.Connection, device_id: str, role: str) -> list[str]:
    """Every public key held for a device of this role, earlier ones included."""
    return [r[0] for r in conn.execute(
        "SELECT k.public_key FROM device_keys k JOIN devices d ON d.id = k.device_id "
        "WHERE k.device_id = ? AND d.role = ? ORDER BY k.rowid", (device_id, role))]


def endorsements(conn: sqlite3.Connection, device_id: str) -> list[dict[str, Any]]:
    """A device's keys that an earlier key endorsed, oldest first."""
    return rows(conn, "SELECT * FROM device_keys WHERE device_id = ? AND endorsement IS NOT "
                      "NULL ORDER BY rowid", (device_id,))


def set_own_keys(conn: sqlite3.Connection, private: str, public: str, *,
                 replacing: str | None) -> None:
    """This device's key pair (`replacing`: only if its private key is still that one)."""
    if replacing is None:
        conn.execute("UPDATE devices SET private_key = ?, public_key = ? WHERE role = 'this' "
                     "AND private_key IS NULL", (private, public))
    else:
        conn.execute("UPDATE devices SET private_key = ?, public_key = ? WHERE role = 'this' "
                     "AND private_key = ?", (private, public, replacing))


def endorse(conn: sqlite3.Connection, device_id: str, link: dict[str, Any]) -> None:
    """Note the endorsement of a device's key by its previous key."""
    conn.execute("UPDATE device_keys SET endorsed_by = ?, endorsed_at = ?, endorsement = ? "
                 "WHERE device_id = ? AND public_key = ?",
                 (link["previous_key"], link["endorsed_at"], link["signature"], device_id,
                  link["public_key"]))


def learn_key(conn: sqlite3.Connection, device_id: str, link: dict[str, Any]) -> None:
    """Another device's new key, with its endorsement: its current key from now on."""
    conn.execute("UPDATE devices SET public_key = ? WHERE id = ? AND role != 'this'",
                 (link["public_key"], device_id))
    endorse(conn, device_id, link)


def enrol_laptop(conn: sqlite3.Connection, *, device_id: str, name: str, at: str,
                 public_key: str, parcels: Sequence[str],
                 inspector: tuple[str, str] | None = None) -> None:
    """A laptop enrolled (`inspector`: the certified inspector's name and certification
    number it is fixed to)."""
    person, number = inspector or (None, None)
    conn.execute("INSERT INTO devices (id, name, role, created_at, public_key, parcels, "
                 "inspector_name, inspector_certification) VALUES (?, ?, 'field', ?, ?, ?, "
                 "?, ?)", (device_id, name, at, public_key, json.dumps(list(parcels)), person,
                           number))


def inspector_of(conn: sqlite3.Connection, device_id: str) -> tuple[str, str] | None:
    """The certified inspector a device (this one, or an enrolled laptop) is fixed to: name
    and certification number, or None."""
    row = one(conn, "SELECT inspector_name, inspector_certification FROM devices WHERE "
                    "id = ? AND inspector_name IS NOT NULL", (device_id,))
    return None if row is None else (row["inspector_name"], row["inspector_certification"])


def become_laptop(conn: sqlite3.Connection, *, device_id: str, name: str, private_key: str,
                  public_key: str, office_id: str, office_name: str, office_key: str,
                  at: str, inspector: tuple[str, str] | None = None) -> None:
    """A folder joining from a kit takes the laptop's identity (and the certified
    inspector it is fixed to, if any) and knows its office."""
    person, number = inspector or (None, None)
    conn.execute("UPDATE devices SET id = ?, name = ?, private_key = ?, public_key = ?, "
                 "inspector_name = ?, inspector_certification = ? WHERE role = 'this'",
                 (device_id, name, private_key, public_key, person, number))
    conn.execute("INSERT INTO devices (id, name, role, created_at, public_key) VALUES "
                 "(?, ?, 'office', ?, ?)", (office_id, office_name, at, office_key))


def revoke(conn: sqlite3.Connection, device_id: str, *, at: str, by: str,
           reason: str | None) -> None:
    conn.execute("UPDATE devices SET revoked_at = ?, revoked_by = ?, revoked_reason = ? "
                 "WHERE id = ? AND revoked_at IS NULL", (at, by, reason, device_id))


def set_parcels(conn: sqlite3.Connection, device_id: str, sbls: Sequence[str]) -> None:
    conn.execute("UPDATE devices SET parcels = ? WHERE id = ?",
                 (json.dumps(list(sbls)), device_id))


def note_acknowledged(conn: sqlite3.Connection, *, by_laptop: str | None,
                      through_seq: int) -> None:
    """The other side has everything of ours through this number: a laptop (at the office)
    or the office (`by_laptop` None, on a laptop)."""
    if by_laptop is not None:
        conn.execute("UPDATE devices SET acknowledged_seq = max(acknowledged_seq, ?) "
                     "WHERE id = ? AND role = 'field'", (through_seq, by_laptop))
    else:
        conn.execute("UPDATE devices SET acknowledged_seq = max(acknowledged_seq, ?) "
                     "WHERE role = 'office'", (through_seq,))


def note_assignment_held(conn: sqlite3.Connection, device_id: str, revision: int) -> None:
    conn.execute("UPDATE devices SET assignment_held = ? WHERE id = ?", (revision, device_id))


# Tax map numbers named in one statement (SQLite's default limit of parameters is 999).
_SBLS_AT_ONCE = 900


def parcel_ids_of(conn: sqlite3.Connection, device: dict[str, Any]) -> set[str]:
    """A laptop's parcels at the office: those of its assignment, by tax map number in
    any spelling (`domain.sbl`). The numbers stored exactly so are read together; each
    other one is looked up alone, as `parcels_spelled` does."""
    sbls = list(dict.fromkeys(json.loads(device["parcels"])))
    exact: dict[str, str] = {}
    for start in range(0, len(sbls), _SBLS_AT_ONCE):
        part = sbls[start:start + _SBLS_AT_ONCE]
        exact.update((str(r[1]), str(r[0])) for r in conn.execute(
            "SELECT id, sbl FROM parcels WHERE deleted_at IS NULL AND sbl IN "
            f"({','.join('?' * len(part))})", part))
    return {exact[sbl] for sbl in sbls if sbl in exact} | {
        pid for sbl in sbls if sbl not in exact for pid, _ in parcels_spelled(conn, sbl)}


def keyless_this(conn: sqlite3.Connection) -> bool:
    """Whether this folder's only device is itself, with no key: never enrolled or joined."""
    found = rows(conn, "SELECT role, secret, private_key, public_key FROM devices")
    return found == [{"role": "this", "secret": None, "private_key": None,
                      "public_key": None}]
