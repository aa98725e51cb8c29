"""An office database on PostgreSQL: made from the same migrations as a data folder's
SQLite file (`dialect` translates them), recognised before anything is written to it, and
brought to this version's schema by the same history.

`meta` holds what SQLite keeps in its header: `application` (what `APPLICATION_ID` says in
a data folder's file) and `schema_version` (SQLite's `user_version`)."""

from __future__ import annotations

from ..errors import InputError
from . import dialect
from .database import SCHEMA_VERSION, migration_statements, reference_schema
from .postgres import Connection, shown

APPLICATION = "watershed-inspector"


class OfficeNotReady(InputError):
    """The database is empty: `office init` has not been run on it."""


class DatabaseRefused(InputError):
    """The database is not an office's, is newer than this app, or (for `office init`) is
    not empty; it was left untouched."""


def schema_statements(version: int = SCHEMA_VERSION) -> list[str]:
    """PostgreSQL's statements for the schema of `version`, from the migrations."""
    objects = reference_schema(version).execute(
        "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY rowid").fetchall()
    return dialect.schema(objects)


def _tables(conn: Connection) -> list[str]:
    return [r[0] for r in conn.execute_native(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' "
        "AND table_type = 'BASE TABLE' AND table_name <> 'spatial_ref_sys'").fetchall()]


def _meta(conn: Connection, key: str) -> str | None:
    row = conn.execute_native("SELECT value FROM meta WHERE key = %s", (key,)).fetchone()
    return None if row is None else str(row[0])


def schema_version(conn: Connection) -> int:
    """The schema version of an office database; refuse one that is not ours or newer."""
    where = shown(conn.url)
    tables = _tables(conn)
    if not tables:
        raise OfficeNotReady(
            f"The database {where} holds no office yet; create it with "
            f"`inspector-app --database {where} office init`.")
    if "meta" not in tables or _meta(conn, "application") != APPLICATION:
        raise DatabaseRefused(
            f"The database {where} holds tables of another application; it was left "
            "untouched. Give the address of a Watershed Inspector office database.")
    version = int(_meta(conn, "schema_version") or 0)
    if version > SCHEMA_VERSION:
        raise DatabaseRefused(
            f"The office database {where} was written by a newer version of Watershed "
            f"Inspector (schema {version}; this version reads up to {SCHEMA_VERSION}); it "
            "was left untouched. Install the newer version of the app on this desk.")
    return version


def create(conn: Connection, *, device_id: str, device_name: str, at: str) -> int:
    """Make the office's schema in an empty database, with PostGIS; return its version."""
    if _tables(conn):
        raise DatabaseRefused(
            f"The database {shown(conn.url)} is not empty; an office is created only in an "
            "empty database, so nothing was changed. Create a new database for it "
            "(docs/office-server.md).")
    with conn.transaction():
        conn.execute_native("CREATE EXTENSION IF NOT EXISTS postgis")
        for statement in schema_statements():
            conn.execute_native(statement)
        for statement in people_and_roles(conn):
            conn.execute_native(statement)
        conn.execute_native("INSERT INTO meta (key, value) VALUES ('application', %s), "
                            "('schema_version', %s)", (APPLICATION, str(SCHEMA_VERSION)))
        conn.execute_native("INSERT INTO devices (id, name, role, created_at) VALUES "
                            "(%s, %s, 'this', %s)", (device_id, device_name, at))
    return SCHEMA_VERSION


def upgrade(conn: Connection, version: int) -> int:
    """Bring an office database of an earlier schema to this one, migration by migration,
    in one transaction."""
    if version >= SCHEMA_VERSION:
        return version
    with conn.transaction():
        for v in range(version + 1, SCHEMA_VERSION + 1):
            dialect.trigger_tables(reference_schema(v - 1).execute(
                "SELECT type, name, tbl_name, sql FROM sqlite_master").fetchall())
            for statement in migration_statements(v):
                for translated in dialect.migration_statement(statement):
                    conn.execute_native(translated)
        for statement in people_and_roles(conn):
            conn.execute_native(statement)
        conn.execute_native("UPDATE meta SET value = %s WHERE key = 'schema_version'",
                            (str(SCHEMA_VERSION),))
    return SCHEMA_VERSION


# --- people and their roles, enforced by the database ------------------------------------

ROLES = ("office", "inspector", "town")
# What an inspector's login may write: the inspection and what is found on the site, the
# decisions on suggestions, draft letters (`letters`, drafts only) and photos; never the
# roll, the letter register or the office's settings.
INSPECTOR_WRITES = ("inspections", "inspection_tests", "components", "systems", "dwellings",
                    "site_features", "site_observations", "lake_measurements",
                    "lot_measurements", "finding_decisions", "etu_services", "etu_reports",
                    "holding_tank_services", "pump_outs", "proposed_work", "attachments",
                    "letters")
# What every login that writes must also write: the change log (appended to, never
# changed), and the summaries derived from the records.
BOOKKEEPING_WRITES = ("change_log", "case_summaries")
# A device's secrets are read by the office alone; the certified inspector a laptop is
# enrolled for is not a secret (every change it sends names them).
DEVICE_COLUMNS_SHOWN = ("id", "name", "role", "created_at", "inspector_name",
                        "inspector_certification")
# Tables a town's login reads besides those of its parcels (which it reads only for its
# own municipality): the lake lines, lot layers, map images and settings the pages show,
# and the providers the records name (never the documents received: one file holds rows of
# several towns' parcels).
TOWN_READS = ("meta", "shoreline_layers", "lot_layers", "basemaps", "office_settings",
              "device_keys", "office_files", "providers")
# Tables a town's login reads through a parcel's row of another table, and which of their
# rows it sees: the history's record of which values a clearing emptied, of its own
# parcels only.
TOWN_READS_THROUGH = {"cleared_copies": "clearing_id IN (SELECT id FROM contact_clearings)"}

_OFFICE_PEOPLE = """
CREATE TABLE IF NOT EXISTS office_people (
    login TEXT PRIMARY KEY,
    full_name TEXT,
    role TEXT NOT NULL CHECK (role IN ('office', 'inspector', 'town')),
    municipality TEXT,
    added_at TEXT NOT NULL,
    added_by TEXT NOT NULL,
    CHECK ((role = 'town') = (municipality IS NOT NULL))
)"""
_PERSON_FUNCTIONS = (
    # who a login is: the person's name recorded with `office user add` and the login
    # ("M. Ortiz (mortiz)"), else the login itself
    """CREATE OR REPLACE FUNCTION office_person() RETURNS text LANGUAGE sql STABLE SECURITY DEFINER
       SET search_path = public AS $$
       SELECT coalesce((SELECT CASE WHEN full_name IS NULL THEN login
                                    ELSE full_name || ' (' || login || ')' END
                        FROM office_people WHERE login = session_user),
                       session_user::text) $$""",
    """CREATE OR REPLACE FUNCTION office_me() RETURNS TABLE (login text, full_name text, role text,
       municipality text) LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
       SELECT login, full_name, role, municipality FROM office_people
       WHERE login = session_user $$""",
    """CREATE OR REPLACE FUNCTION office_town() RETURNS text LANGUAGE sql STABLE SECURITY DEFINER
       SET search_path = public AS $$
       SELECT municipality FROM office_people WHERE login = session_user $$""",
    # the change log says who made each change as the database knows them
    """CREATE OR REPLACE FUNCTION change_log_who() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
       SET search_path = public AS $$
       BEGIN
           IF EXISTS (SELECT 1 FROM office_people WHERE login = session_user) THEN
               NEW."user" := office_person();
           END IF;
           RETURN NEW;
       END $$""",
    "DROP TRIGGER IF EXISTS change_log_who ON change_log",
    """CREATE TRIGGER change_log_who BEFORE INSERT ON change_log FOR EACH ROW
       EXECUTE FUNCTION change_log_who()""",
)


def group_role(conn: Connection, role: str) -> str:
    """The database's group role of a kind of person (roles belong to the whole server, so
    each office database names its own)."""
    return f"{conn.database_name}_{role}"


def _ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _parcel_tables(version: int) -> list[str]:
    ref = reference_schema(version)
    return [t for (t,) in ref.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
        "ORDER BY name").fetchall()
        if any(r[1] == "parcel_id" for r in ref.execute(f"PRAGMA table_info({t})"))]


def _tables_of(version: int) -> list[str]:
    return [t for (t,) in reference_schema(version).execute(
        "SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()]


def _all_tables(version: int) -> list[str]:
    """Every table of schema `version` but `stored_files`, whose rights are its own
    (`stored_files_rights`)."""
    return [t for (t,) in reference_schema(version).execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
        "ORDER BY name").fetchall() if t != "stored_files"]


def stored_files_rights(conn: Connection) -> list[str]:
    """Who may read and write the files' bytes: the office everything (the table's
    triggers refuse changing or removing a file), an inspector reads and adds files
    (photos, signatures), a town reads the files its own parcels' attachments and
    attestations name (their rows are those it may see) and adds none."""
    office_role, inspector, town = (_ident(group_role(conn, r)) for r in ROLES)
    return [
        f"GRANT SELECT, INSERT, UPDATE, DELETE ON stored_files TO {office_role}",
        f"GRANT SELECT, INSERT ON stored_files TO {inspector}",
        f"GRANT SELECT ON stored_files TO {town}",
        "ALTER TABLE stored_files ENABLE ROW LEVEL SECURITY",
        "DROP POLICY IF EXISTS desks ON stored_files",
        "DROP POLICY IF EXISTS town_reads ON stored_files",
        f"CREATE POLICY desks ON stored_files TO {office_role}, {inspector} USING (true) "
        "WITH CHECK (true)",
        f"CREATE POLICY town_reads ON stored_files FOR SELECT TO {town} USING ("
        "sha256 IN (SELECT sha256 FROM attachments) "
        "OR sha256 IN (SELECT signature_sha256 FROM attestations))"]


def people_and_roles(conn: Connection, version: int = SCHEMA_VERSION) -> list[str]:
    """The statements that make the office's group roles, their rights and the rows each
    may see; run by `create`, and again by `upgrade` (for the tables a migration added),
    as the database's owner. Each may be run again."""
    office_role, inspector, town = (_ident(group_role(conn, r)) for r in ROLES)
    out = [_OFFICE_PEOPLE, *_PERSON_FUNCTIONS]
    for role in (office_role, inspector, town):
        out.append(f"DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = "
                   f"'{role.strip(chr(34))}') THEN CREATE ROLE {role} NOLOGIN; END IF; END $$")
        out.append(f"GRANT USAGE ON SCHEMA public TO {role}")
    tables = _all_tables(version)
    everything = ", ".join(tables)
    out += [f"GRANT SELECT, INSERT, UPDATE, DELETE ON {everything} TO {office_role}",
            f"GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO {office_role}",
            f"GRANT SELECT ON office_people TO {office_role}"]
    secret_free = [t for t in tables if t != "devices"]
    # (of the columns schema `version` has: an office is brought forward one version after
    # another)
    devices_has = {r[1] for r in reference_schema(version).execute("PRAGMA table_info(devices)")}
    shown_columns = ", ".join(c for c in DEVICE_COLUMNS_SHOWN if c in devices_has)
    out += [f"GRANT SELECT ON {', '.join(secret_free)} TO {inspector}",
            f"GRANT SELECT ({shown_columns}) ON devices TO {inspector}",
            f"GRANT INSERT, UPDATE ON {', '.join(INSPECTOR_WRITES)} TO {inspector}",
            f"GRANT INSERT ON change_log TO {inspector}",
            f"GRANT SELECT, INSERT, UPDATE, DELETE ON case_summaries TO {inspector}",
            f"GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO {inspector}"]
    parcel_tables = _parcel_tables(version)
    town_reads = [t for t in TOWN_READS if t in tables]
    through = [t for t in TOWN_READS_THROUGH if t in tables]
    out += [f"GRANT SELECT ON {', '.join(['parcels', *parcel_tables, *town_reads, *through])} "
            f"TO {town}",
            f"GRANT SELECT ({shown_columns}) ON devices TO {town}"]
    # the rows each may see and write
    for table in ("parcels", *parcel_tables, *through):
        out.append(f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY")
        out += [f"DROP POLICY IF EXISTS {policy} ON {table}" for policy in (
            "office_all", "inspector_reads", "inspector_drafts", "inspector_drafts_changed",
            "desks", "town_reads")]
        if table == "letters":
            out += [f"CREATE POLICY office_all ON letters TO {office_role} USING (true) "
                    "WITH CHECK (true)",
                    f"CREATE POLICY inspector_reads ON letters FOR SELECT TO {inspector} "
                    "USING (true)",
                    f"CREATE POLICY inspector_drafts ON letters FOR INSERT TO {inspector} "
                    "WITH CHECK (status = 'draft')",
                    f"CREATE POLICY inspector_drafts_changed ON letters FOR UPDATE "
                    f"TO {inspector} USING (status = 'draft') WITH CHECK (status = 'draft')"]
        else:
            out.append(f"CREATE POLICY desks ON {table} TO {office_role}, {inspector} "
                       "USING (true) WITH CHECK (true)")
        where = ("lower(municipality) = lower(office_town())" if table == "parcels"
                 else TOWN_READS_THROUGH.get(table, "parcel_id IN (SELECT id FROM parcels)"))
        out.append(f"CREATE POLICY town_reads ON {table} FOR SELECT TO {town} USING ({where})")
    if "stored_files" in _tables_of(version):
        out += stored_files_rights(conn)
    out.append(f"GRANT EXECUTE ON FUNCTION office_person(), office_town(), office_me() TO "
               f"{office_role}, {inspector}, {town}")
    return out


def municipalities(conn: Connection) -> list[str]:
    return [str(r[0]) for r in conn.execute_native(
        "SELECT DISTINCT municipality FROM parcels WHERE deleted_at IS NULL ORDER BY 1")]


def me(conn: Connection) -> dict[str, str | None] | None:
    """Who the login is at this office (`office user add`), or None for one not recorded
    there (the database's owner, an administrator)."""
    row = conn.execute_native("SELECT login, full_name, role, municipality FROM "
                              "office_me()").fetchone()
    if row is None:
        return None
    return dict(zip(("login", "full_name", "role", "municipality"), row, strict=True))


def login_exists(conn: Connection, login: str) -> bool:
    return conn.execute_native("SELECT 1 FROM pg_roles WHERE rolname = %s",
                               (login,)).fetchone() is not None


def add_person(conn: Connection, *, login: str, role: str, municipality: str | None,
               full_name: str | None, password: str | None, at: str) -> None:
    """Make a login role of the kind given (a member of the office's group role) and
    record who it is; in one transaction."""
    with conn.transaction():
        if login_exists(conn, login):
            conn.execute_native(f"ALTER ROLE {_ident(login)} LOGIN")
        else:
            conn.execute_native(f"CREATE ROLE {_ident(login)} LOGIN")
        if password is not None:
            conn.execute_native(f"ALTER ROLE {_ident(login)} PASSWORD %s", (password,))
        for other in ROLES:
            if other != role:
                conn.execute_native(f"REVOKE {_ident(group_role(conn, other))} FROM "
                                    f"{_ident(login)}")
        conn.execute_native(f"GRANT {_ident(group_role(conn, role))} TO {_ident(login)}")
        conn.execute_native(f"GRANT CONNECT ON DATABASE {_ident(conn.database_name)} TO "
                            f"{_ident(login)}")
        conn.execute_native(
            "INSERT INTO office_people (login, full_name, role, municipality, added_at, "
            "added_by) VALUES (%s, %s, %s, %s, %s, session_user) ON CONFLICT (login) DO "
            "UPDATE SET full_name = excluded.full_name, role = excluded.role, "
            "municipality = excluded.municipality, added_at = excluded.added_at, "
            "added_by = excluded.added_by", (login, full_name, role, municipality, at))


def who_is(conn: Connection) -> str:
    """The person the login is, as the change log records them."""
    return str(conn.execute_native("SELECT office_person()").fetchone()[0])
