"""The logins of an office database opening it: who each is recorded as, which reads
only, what a town reads of the history's bookkeeping; and how an address is said."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest

from inspector_app.errors import InputError
from inspector_app.paths import DataFolder
from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.office.database import add_user, init_office
from inspector_app.services.workspace import Workspace
from inspector_app.storage import postgres
from inspector_app.storage.store import Store
from tests.pg_cluster import Cluster

TOWN = "Town of Canandaigua"
_offices = itertools.count(1)


class Office:
    def __init__(self, cluster: Cluster, name: str, desk: Path) -> None:
        self.cluster, self.name = cluster, name
        self.url = cluster.create_database(name)
        init_office(self.url, desk, user="clerk")
        with Workspace(desk, user="clerk", database=self.url) as ws:
            install_demo(ws, today=date(2026, 11, 25))
        add_user(self.url, "jreyes", role="inspector", municipality=None, full_name=None,
                 password=None)
        add_user(self.url, "mlake", role="inspector", municipality=None,
                 full_name="M. Lake", password=None)
        add_user(self.url, "ccode", role="town", municipality=TOWN, full_name="C. Code",
                 password=None)
        add_user(self.url, "kolmsted", role="office", municipality=None,
                 full_name="K. Olmsted", password=None)


@pytest.fixture(scope="module")
def office(pg_cluster: Cluster, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Office]:
    name = f"logins_{next(_offices)}"
    made = Office(pg_cluster, name, tmp_path_factory.mktemp("desk"))
    yield made
    pg_cluster.drop_database(name)


def store_as(office: Office, login: str, tmp_path: Path) -> Store:
    return Store(DataFolder(tmp_path / login), user="typed name",
                 database=office.cluster.url(office.name, user=login))


@pytest.mark.parametrize(("login", "recorded"), [
    ("kolmsted", "K. Olmsted (kolmsted)"), ("mlake", "M. Lake (mlake)"),
    ("jreyes", "jreyes"), ("ccode", "C. Code (ccode)")])
def test_each_login_opens_the_office_and_is_recorded_as_the_person_it_is(
        office: Office, tmp_path: Path, login: str, recorded: str) -> None:
    with store_as(office, login, tmp_path) as store:
        assert store.actor.user == recorded
        store.set_user("someone else")  # the login is the person, whatever is given
        assert store.actor.user == recorded
        assert store.login == login
        assert store.described == f"office database {office.name} on this computer"


def test_the_database_owner_not_recorded_as_a_person_works_under_the_name_given(
        office: Office, tmp_path: Path) -> None:
    with store_as(office, office.cluster.superuser, tmp_path) as store:
        assert store.actor.user == "typed name"


def test_a_town_login_reads_only_and_the_others_write(office: Office, tmp_path: Path) -> None:
    with store_as(office, "ccode", tmp_path) as town:
        assert town.reads_only
    with store_as(office, "jreyes", tmp_path) as inspector:
        assert not inspector.reads_only
    with Store(DataFolder(tmp_path / "folder"), user="k") as own_file:
        assert not own_file.reads_only and own_file.login is None
        assert own_file.described is None


def test_a_town_reads_what_clearings_emptied_of_its_own_parcels_only(
        office: Office, tmp_path: Path) -> None:
    with office.cluster.connect(office.name) as conn:
        parcels = conn.execute("SELECT id, sbl, municipality FROM parcels").fetchall()
        ours = next(p for p in parcels if p[2] == TOWN)
        theirs = next(p for p in parcels if p[2] != TOWN)
        for parcel_id, sbl, _ in (ours, theirs):
            row = conn.execute(
                "INSERT INTO contact_clearings (parcel_id, sbl, cleared_at, cleared_by) "
                "VALUES (%s, %s, '2026-11-25T00:00:00.000+00:00', 'office') RETURNING id",
                (parcel_id, sbl)).fetchone()
            assert row is not None
            conn.execute("INSERT INTO cleared_copies (clearing_id, table_name, row_id, "
                         "cleared) VALUES (%s, 'change_log', %s, '[\"old_value\"]')",
                         (row[0], f"row-of-{sbl}"))
    with store_as(office, "ccode", tmp_path) as town:
        seen = [r[0] for r in town.conn.execute("SELECT row_id FROM cleared_copies")]
    assert seen == [f"row-of-{ours[1]}"]


def test_an_address_is_checked_and_said_without_its_password() -> None:
    with pytest.raises(InputError) as refused:
        postgres.check_url("mysql://clerk:hunter2@officeserver/watershed")
    assert "hunter2" not in str(refused.value) and "hunter2" not in refused.value.in_app
    assert str(refused.value).startswith("--database 'mysql://clerk@officeserver/watershed'")
    assert refused.value.in_app.startswith(
        "The address 'mysql://clerk@officeserver/watershed' is not the address of a "
        "PostgreSQL office database")
    with pytest.raises(InputError) as no_database:
        postgres.check_url("postgresql://clerk@officeserver")
    assert "names no database" in no_database.value.in_app
    assert "--database" not in no_database.value.in_app
    url = postgres.with_password("postgresql://j%40x@srv:5433/w?sslmode=require", "p@ss:w/rd")
    assert url == "postgresql://j%40x:p%40ss%3Aw%2Frd@srv:5433/w?sslmode=require"
    assert postgres.shown(url) == "postgresql://j%40x@srv:5433/w?sslmode=require"
    assert postgres.described(url) == "office database w on srv:5433"
    assert postgres.described("postgresql://k@/w?host=/run/postgresql") == (
        "office database w on this computer")


def test_an_office_that_cannot_be_reached_is_said_in_one_line(tmp_path: Path) -> None:
    url = f"postgresql://k@/w?host={tmp_path / 'no-socket-here'}&port=5432"
    with pytest.raises(postgres.OfficeUnreachable) as refused:
        postgres.Connection(url)
    text = str(refused.value)
    assert "\n" not in text and "\t" not in text
    assert text.startswith(f"The office database {url} could not be opened (connection to "
                           "server on socket")
    assert "No such file or directory); check the address, the login and" in text
