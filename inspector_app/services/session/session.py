"""A data folder opened for work: its database, its clock, who is working and the laws in
force. Every service takes a session; nothing here reaches up to the services that use it.
"""

from __future__ import annotations

import getpass
import hashlib
from collections.abc import Callable
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from ...casefile.values import stored_problem
from ...domain.case import Case
from ...domain.jurisdiction import Jurisdiction
from ...domain.sbl import closest
from ...errors import InputError, NotFoundError
from ...paths import USER_ENV, DataFolder, given_user, write_atomically
from ...storage import parcels as parcel_rows
from ...storage import stored_files
from ...storage.cases import case_version, load_case, parcel_id_for
from ...storage.records import RecordWriter
from ...storage.store import Store
from . import settings_files
from .laws import Laws, NoLawOnFile, laws_for

OFFICE, FIELD = "office", "field"


NAME_MAX = 80


def login_name() -> str:
    """The login of this computer's account: only ever a default for who is working."""
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "unknown user"


def default_user() -> str:
    return given_user() or login_name()


def working_name(name: str) -> str:
    """`name` as recorded for who is working, or InputError with the one sentence."""
    text = name.strip()
    if 0 < len(text) <= NAME_MAX and text.isprintable():
        return text
    shown = f"{text[:NAME_MAX]}..." if len(text) > NAME_MAX else text
    why = ("no name was given" if not text else
           f"{shown!r} is longer than {NAME_MAX} characters" if len(text) > NAME_MAX else
           f"{shown!r} holds a character that cannot be printed")
    raise InputError(f"Who is working must be a name of 1 to {NAME_MAX} characters, and "
                     f"{why}; give it with --user NAME or ${USER_ENV}.",
                     in_app=f"Who is working must be a name of 1 to {NAME_MAX} characters, "
                            f"and {why}; type the name of the person working.")


class Session:
    """A data folder opened for work."""

    def __init__(self, root: Path, *, user: str | None = None,
                 clock: Callable[[], datetime] = lambda: datetime.now(UTC),
                 database: str | None = None) -> None:
        self.folder = DataFolder(root)
        self.clock = clock
        who = working_name(default_user() if user is None else user)
        self.store = Store(self.folder, user=who, clock=clock, values_check=stored_problem,
                           database=database)
        if database is not None:
            settings_files.fetch(self)  # this desk's copies of the office's settings files
        self._laws: Laws | None = None

    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def today(self) -> date:
        return self.clock().astimezone().date()

    @property
    def user(self) -> str:
        """Who is working: recorded on every change, decision and letter made here."""
        return self.store.actor.user

    def set_user(self, name: str) -> str:
        """Record the changes made from now on as `name` (checked as `--user` is). On a
        certified inspector's laptop the person is fixed: another name is refused."""
        name = working_name(name)
        fixed = self.store.fixed_person
        if fixed is not None and name != fixed:
            raise InputError(f"This laptop was enrolled for the certified inspector {fixed}; "
                             "every change made here is recorded as that person, and no one "
                             "else can work on it.")
        self.store.set_user(name)
        return self.store.actor.user

    @property
    def role(self) -> str | None:
        """`office` once this folder enrolled a laptop, `field` once it joined from a kit,
        else None."""
        return self.store.get_meta("sync_role")

    # --- the laws in force -------------------------------------------------------------

    @property
    def laws(self) -> Laws:
        """The jurisdiction files in force in this data folder."""
        if self._laws is None:
            self._laws = laws_for(self.folder.root)
        return self._laws

    @property
    def jurisdiction(self) -> Jurisdiction:
        """The Town of Canandaigua law as in force here. A parcel's law is
        `law_for(municipality)`: use that for anything said about a parcel."""
        return self.laws.default

    def law_for(self, municipality: str, *, doing: str = "") -> Jurisdiction:
        """The law of a municipality; NoLawOnFile when no file covers it."""
        found = self.laws.for_municipality(municipality)
        if found is None:
            raise NoLawOnFile(municipality, doing=doing)
        return found

    @property
    def records_place(self) -> str:
        """Where the records are, in words: the data folder, or the office database."""
        if self.store.database is None:
            return str(self.folder.root)
        return f"the office database {self.store.where}"

    # --- parcels -----------------------------------------------------------------------

    def parcel_id(self, sbl: str) -> str:
        """The parcel of this tax map number, in any spelling (`domain.sbl`)."""
        parcel_id = parcel_id_for(self.store.conn, sbl.strip())
        if parcel_id is None:
            near = closest(sbl, parcel_rows.ids_by_sbl(self.store.conn))
            hint = f"; the closest: {', '.join(near)}" if near else ""
            raise NotFoundError(f"No parcel with SBL {sbl!r} in {self.records_place}{hint}; "
                                "`inspector-app parcels` lists the SBLs.",
                                in_app=f"No parcel with SBL {sbl!r} in {self.records_place}"
                                       f"{hint}; find it with the search box above the "
                                       "parcel list (Edit > Find parcel).")
        return parcel_id

    def stored_sbl(self, sbl: str) -> str:
        """The parcel's tax map number as stored, from any spelling (refused as
        `parcel_id` refuses an unknown one)."""
        spelled = parcel_rows.sbl_of(self.store.conn, self.parcel_id(sbl))
        assert spelled is not None
        return spelled

    def load_case(self, sbl: str) -> Case:
        return load_case(self.store.conn, self.parcel_id(sbl))

    def case_version(self, sbl: str) -> int:
        return case_version(self.store.conn, self.parcel_id(sbl))

    def open_for_edit(self, sbl: str) -> tuple[str, Case, int]:
        """The parcel's id, case and version, read together."""
        parcel_id = self.parcel_id(sbl)
        return (parcel_id, load_case(self.store.conn, parcel_id),
                case_version(self.store.conn, parcel_id))

    def parcels(self) -> list[dict[str, Any]]:
        return parcel_rows.listed(self.store.conn)

    def has_demo_parcels(self) -> bool:
        return parcel_rows.has_demo(self.store.conn)

    # --- the files records name by SHA-256 (photos, documents, signatures) --------------

    def attachment_path(self, digest: str) -> Path:
        """Where the file of that SHA-256 is read: the data folder's attachments/AB/ABCD...
        At an office database the file is the database's, and the desk's folder holds a
        copy of it, fetched when it is missing or no longer matches its SHA-256 (the path
        is given all the same when the database holds no such file either)."""
        path = self.folder.attachments / digest[:2] / digest
        if self.store.database is None or _holds(path, digest):
            return path
        data = stored_files.stored(self.store.conn, digest)
        if data is not None and hashlib.sha256(data).hexdigest() == digest:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_atomically(path, data)
        return path

    def keep_file(self, digest: str, data: bytes, writer: RecordWriter) -> Path | None:
        """Keep a file by its SHA-256 with the records that name it: at an office database
        in the database, in the writer's transaction (and a copy in the desk's folder),
        else in the data folder. The copy written when it is new (for a caller to take
        out again should the records not go in), else None."""
        if self.store.database is not None:
            stored_files.store(writer.conn, digest, data, writer.now)
        target = self.folder.attachments / digest[:2] / digest
        if target.exists():
            return None
        target.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(target, data)
        return target


def _holds(path: Path, digest: str) -> bool:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest() == digest
    except OSError:
        return False
