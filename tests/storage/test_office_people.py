"""An office database's people, as the database itself enforces them: a town's login reads
its own municipality's records and writes nothing, an inspector's does not touch the roll
or the register, and no one, not even the office's own login in a raw SQL session, alters
an issued letter or the change log. Every change says the person the login is."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from inspector_app.cli.main import run
from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.office.database import add_user, init_office
from inspector_app.services.workspace import Workspace
from tests.pg_cluster import Cluster

GORHAM = "Town of Gorham"
GORHAM_SBL = "900.01-1-36"
CANANDAIGUA_SBL = "900.01-1-7"


class Office:
    def __init__(self, cluster: Cluster, name: str, desks: Path) -> None:
        self.cluster, self.name, self.desks = cluster, name, desks
        self.admin_url = cluster.url(name)

    def url(self, login: str | None = None) -> str:
        return self.cluster.url(self.name, user=login)

    def sql(self, login: str | None = None) -> psycopg.Connection[Any]:
        """A raw SQL session, as psql would open it."""
        return psycopg.connect(self.url(login), autocommit=True)

    def cli(self, capsys: pytest.CaptureFixture[str], login: str | None, *args: str
            ) -> tuple[int, Any, str]:
        capsys.readouterr()
        status = run(["--database", self.url(login), "--data-dir",
                      str(self.desks / (login or "admin")), *args])
        out, err = capsys.readouterr()
        try:
            parsed = json.loads(out) if out.strip() else None
        except ValueError:
            parsed = out
        return status, parsed, err

    def count(self, table: str) -> int:
        with self.sql() as conn:
            return int(conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0])  # type: ignore[index]


@pytest.fixture(scope="module")
def office(pg_cluster: Cluster, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Office]:
    """A demo office with one issued letter, and a login of each kind."""
    name = "people_office"
    pg_cluster.create_database(name, postgis=False)
    desks = tmp_path_factory.mktemp("desks")
    o = Office(pg_cluster, name, desks)
    init_office(o.admin_url, desks / "admin", user="admin")
    with Workspace(desks / "admin", user="admin", database=o.admin_url) as ws:
        install_demo(ws)
    assert run(["--database", o.admin_url, "--data-dir", str(desks / "admin"), "register",
                "issue", CANANDAIGUA_SBL]) == 0
    add_user(o.admin_url, "gorham_ceo", role="town", municipality="town of gorham",
             full_name="R. Whitcomb", password=None)
    add_user(o.admin_url, "jhaldane", role="inspector", municipality=None,
             full_name="J. Haldane", password=None)
    add_user(o.admin_url, "clerk", role="office", municipality=None, full_name="M. Ortiz",
             password=None)
    yield o
    pg_cluster.drop_database(name)


def _refused(conn: psycopg.Connection[Any], sql: str) -> str:
    with pytest.raises(psycopg.Error) as caught:
        conn.execute(sql)
    return str(caught.value)


def test_a_town_reads_only_its_own_municipality_in_a_raw_sql_session(office: Office) -> None:
    with office.sql("gorham_ceo") as town, office.sql() as admin:
        seen = town.execute("SELECT DISTINCT municipality FROM parcels").fetchall()
        assert seen == [(GORHAM,)]
        all_of_gorham = admin.execute("SELECT count(*) FROM parcels WHERE municipality = %s",
                                      (GORHAM,)).fetchone()
        assert town.execute("SELECT count(*) FROM parcels").fetchone() == all_of_gorham
        # inspections and letters: only those of its parcels
        theirs = admin.execute(
            "SELECT count(*) FROM inspections i JOIN parcels p ON p.id = i.parcel_id "
            "WHERE p.municipality = %s", (GORHAM,)).fetchone()
        assert town.execute("SELECT count(*) FROM inspections").fetchone() == theirs
        assert admin.execute("SELECT count(*) FROM letters").fetchone() == (1,)
        assert town.execute("SELECT count(*) FROM letters").fetchone() == (0,)
        assert town.execute("SELECT count(*) FROM parcels WHERE sbl = %s",
                            (CANANDAIGUA_SBL,)).fetchone() == (0,)
        # and it writes nothing, nor reads a device's secrets
        for sql in ("UPDATE parcels SET owner_name = 'x'",
                    "DELETE FROM inspections",
                    "INSERT INTO meta (key, value) VALUES ('k', 'v')",
                    "UPDATE letters SET recipient = 'x'",
                    "SELECT private_key FROM devices"):
            assert "permission denied" in _refused(town, sql)
    assert office.count("parcels") == 40


def test_a_town_in_the_app_sees_its_parcels_and_is_refused_a_change(
        office: Office, capsys: pytest.CaptureFixture[str]) -> None:
    status, parcels, _ = office.cli(capsys, "gorham_ceo", "parcels")
    assert status == 0 and {p["municipality"] for p in parcels} == {GORHAM}
    status, _, err = office.cli(capsys, "gorham_ceo", "evaluate", "--sbl", CANANDAIGUA_SBL)
    assert status == 2 and f"No parcel with SBL '{CANANDAIGUA_SBL}'" in err
    status, _, _ = office.cli(capsys, "gorham_ceo", "worklist", "five-year-inspections")
    assert status == 0
    before = office.count("change_log")
    status, _, err = office.cli(capsys, "gorham_ceo", "suggestion", "accept", GORHAM_SBL,
                                "anything")
    assert status == 2 and err.count("\n") == 1, err
    status, case, _ = office.cli(capsys, "gorham_ceo", "case", "export", GORHAM_SBL)
    assert status == 0
    changed = office.desks / "changed.json"
    case["parcel"]["owner_name"] = "Somebody Else"
    changed.write_text(json.dumps(case), "utf-8")
    status, _, err = office.cli(capsys, "gorham_ceo", "case", "import", str(changed))
    assert status == 2
    assert err.startswith("The office database refused this to your login: permission "
                          "denied") and err.count("\n") == 1, err
    assert office.count("change_log") == before


def test_an_inspector_records_work_but_not_the_roll_or_the_register(
        office: Office, capsys: pytest.CaptureFixture[str]) -> None:
    status, case, _ = office.cli(capsys, "jhaldane", "case", "export", CANANDAIGUA_SBL)
    assert status == 0
    roll = dict(case, parcel=dict(case["parcel"], owner_name="Somebody Else"))
    path = office.desks / "roll.json"
    path.write_text(json.dumps(roll), "utf-8")
    status, _, err = office.cli(capsys, "jhaldane", "case", "import", str(path))
    assert status == 2 and "permission denied for table parcels" in err
    with office.sql("jhaldane") as inspector:
        assert "row-level security" in _refused(
            inspector, "INSERT INTO letters (id, parcel_id, created_at, updated_at, device_id,"
                       " kind, recipient, letter_date, status, case_version) SELECT 'x', "
                       "parcel_id, created_at, updated_at, device_id, kind, recipient, "
                       "letter_date, 'issued', case_version FROM letters LIMIT 1")
        assert "permission denied" in _refused(inspector, "INSERT INTO letter_service "
                                                          "(id) VALUES ('x')")
        assert "permission denied" in _refused(inspector, "SELECT private_key FROM devices")


def test_no_one_alters_an_issued_letter_or_the_change_log_even_in_raw_sql(
        office: Office) -> None:
    with office.sql("clerk") as clerk:
        (letter_id, sha) = clerk.execute(
            "SELECT id, sha256 FROM letters WHERE status = 'issued'").fetchone()  # type: ignore[misc]
        for sql in (f"UPDATE letters SET recipient = 'Someone' WHERE id = '{letter_id}'",
                    f"UPDATE letters SET pdf = NULL WHERE id = '{letter_id}'",
                    f"DELETE FROM letters WHERE id = '{letter_id}'"):
            assert "an issued letter cannot be" in _refused(clerk, sql)
        assert "append-only" in _refused(clerk, "UPDATE change_log SET \"user\" = 'x'")
        assert "append-only" in _refused(clerk, "DELETE FROM change_log")
        # the desks' roles do not own the tables: the guards cannot be taken off
        for sql in ("ALTER TABLE letters DISABLE TRIGGER ALL",
                    "DROP TRIGGER letters_issued_immutable ON letters",
                    "ALTER TABLE letters DISABLE ROW LEVEL SECURITY"):
            assert "must be owner" in _refused(clerk, sql)
        assert clerk.execute("SELECT sha256 FROM letters WHERE id = %s",
                             (letter_id,)).fetchone() == (sha,)


def test_every_change_records_the_person_the_login_is(
        office: Office, capsys: pytest.CaptureFixture[str]) -> None:
    with office.sql("clerk") as clerk:
        clerk.execute(
            "INSERT INTO change_log (change_id, at, \"user\", device_id, table_name, "
            "record_id, parcel_id, op, field, old_value, new_value, record_version) "
            "SELECT 'raw-1', '2026-12-05T00:00:00.000+00:00', 'Somebody Pretending', "
            "device_id, 'parcels', id, id, 'update', 'note', NULL, NULL, version FROM "
            "parcels LIMIT 1")
        assert clerk.execute("SELECT \"user\" FROM change_log WHERE change_id = 'raw-1'"
                             ).fetchone() == ("M. Ortiz (clerk)",)
    status, case, _ = office.cli(capsys, "clerk", "case", "export", GORHAM_SBL)
    changed = office.desks / "clerk.json"
    case["parcel"]["owner_phone"] = "585-555-0100"
    changed.write_text(json.dumps(case), "utf-8")
    status, _, err = office.cli(capsys, "clerk", "case", "import", str(changed))
    assert status == 0, err
    status, history, _ = office.cli(capsys, "clerk", "history", GORHAM_SBL)
    assert history[-1]["user"] == "M. Ortiz (clerk)"


def test_requests_are_taken_by_the_office_read_by_inspectors_and_by_a_town_for_its_own(
        office: Office, capsys: pytest.CaptureFixture[str]) -> None:
    from datetime import date, timedelta

    due = (date.today() + timedelta(days=21)).isoformat()
    taken = {}
    for sbl in (GORHAM_SBL, CANANDAIGUA_SBL):
        status, out, err = office.cli(capsys, "clerk", "requests", "add", sbl, "--reason",
                                      "conveyance", "--due", due)
        assert status == 0, err
        taken[sbl] = out["id"]
    status, listed, _ = office.cli(capsys, "jhaldane", "requests", "list")
    assert status == 0 and {r["id"] for r in listed} >= set(taken.values())
    status, listed, _ = office.cli(capsys, "gorham_ceo", "requests", "list", "--all")
    assert status == 0 and [r["id"] for r in listed] == [taken[GORHAM_SBL]]
    with office.sql("gorham_ceo") as town:
        assert town.execute("SELECT id FROM inspection_requests").fetchall() == [
            (taken[GORHAM_SBL],)]
        assert "permission denied" in _refused(town, "UPDATE inspection_requests SET due = "
                                                     "'2030-01-01'")
    before = office.count("inspection_requests"), office.count("change_log")
    for login, sbl in (("jhaldane", CANANDAIGUA_SBL), ("gorham_ceo", GORHAM_SBL)):
        status, _, err = office.cli(capsys, login, "requests", "add", sbl,
                                    "--reason", "complaint", "--due", due)
        assert status == 2 and "permission denied" in err and err.count("\n") == 1, err
        status, _, err = office.cli(capsys, login, "requests", "cancel",
                                    taken[GORHAM_SBL], "--reason", "withdrawn")
        assert status == 2 and err.count("\n") == 1, err
    assert (office.count("inspection_requests"), office.count("change_log")) == before
