"""`office init`, `office user add`: an office database made, and its people."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ...errors import InputError
from ...storage import office, postgres
from ...storage.records import new_id
from ...storage.store import utc_now_text
from ..workspace import Workspace

# A login: what PostgreSQL takes unquoted and what a person types without surprise.
_LOGIN = re.compile(r"^[a-z_][a-z0-9_.-]{0,62}$")


def init_office(url: str, desk_folder: Path, *, user: str | None,
                clock: Callable[[], datetime] = lambda: datetime.now(UTC)) -> dict[str, Any]:
    """Make the office's schema in an empty database and set it up as a new data folder
    is (the bundled lake line active); print what `office init` prints."""
    url = postgres.check_url(url)
    conn = postgres.Connection(url)
    try:
        version = office.create(conn, device_id=new_id(),
                                device_name=f"office database {conn.database_name}",
                                at=utc_now_text(clock()))
    finally:
        conn.close()
    with Workspace(desk_folder, user=user, clock=clock, database=url):
        pass  # a new office starts as a new data folder does
    return {"database": postgres.shown(url), "schema_version": version}


def add_user(url: str, login: str, *, role: str, municipality: str | None,
             full_name: str | None, password: str | None,
             clock: Callable[[], datetime] = lambda: datetime.now(UTC)) -> dict[str, Any]:
    """A login role for a person of the office, an inspector or a town."""
    url = postgres.check_url(url)
    if not _LOGIN.match(login):
        raise InputError(
            f"{login!r} cannot be a login name: use 1 to 63 lower-case letters, digits, "
            "'_', '.' or '-', starting with a letter or '_' (e.g. jhaldane).")
    if role not in office.ROLES:
        raise InputError(f"--role {role!r} is not one of {', '.join(office.ROLES)}.")
    if (role == "town") != (municipality is not None):
        raise InputError("--municipality is given for a town's login, and only for one: "
                         "it names the municipality whose records that login may read.")
    conn = postgres.Connection(url)
    try:
        office.schema_version(conn)
        if municipality is not None:
            known = office.municipalities(conn)
            match = [m for m in known if m.casefold() == municipality.strip().casefold()]
            if not match:
                raise InputError(
                    f"--municipality {municipality!r} names no municipality of the office's "
                    f"parcels ({', '.join(known) or 'none yet'}); give one of those.")
            municipality = match[0]
        office.add_person(conn, login=login, role=role, municipality=municipality,
                          full_name=full_name, password=password, at=utc_now_text(clock()))
        return {"user": login, "role": role, "municipality": municipality,
                "full_name": full_name, "group_role": office.group_role(conn, role),
                "password_set": password is not None}
    finally:
        conn.close()
