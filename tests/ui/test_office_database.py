"""The app on an office database: File > Connect to office database..., the database and
the login named in the window, an address that cannot be reached, a town's login reading
its own municipality's parcels and refused any save. Driven with the real worker thread on
a throwaway PostgreSQL cluster (tests/pg_cluster.py)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QInputDialog, QMessageBox
from pytestqt.qtbot import QtBot

from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.office.database import add_user, init_office
from inspector_app.services.workspace import Workspace
from inspector_app.ui.main_window import MainWindow
from inspector_app.ui.tasks import TaskRunner
from tests.pg_cluster import Cluster

from .live import settle

TODAY = date(2026, 11, 25)
TOWN = "Town of Canandaigua"
EM = "\N{EM DASH}"
_offices = itertools.count(1)


class Office:
    """An office database with the demo parcels and three people's logins."""

    def __init__(self, cluster: Cluster, name: str, desk: Path) -> None:
        self.cluster, self.name = cluster, name
        self.url = cluster.create_database(name)
        init_office(self.url, desk, user="clerk")
        with Workspace(desk, user="clerk", database=self.url) as ws:
            install_demo(ws, today=TODAY)
            self.parcels = ws.parcels()
        add_user(self.url, "jhaldane", role="office", municipality=None,
                 full_name="J. Haldane", password=None)
        add_user(self.url, "ccode", role="town", municipality=TOWN,
                 full_name="C. Code", password=None)

    def url_for(self, login: str) -> str:
        return self.cluster.url(self.name, user=login)

    def contents(self) -> dict[str, str]:
        """Every table of the office, each as a digest of all its rows (read by the
        database's owner, whom no row-level security hides a row from)."""
        with self.cluster.connect(self.name) as conn:
            tables = [str(r[0]) for r in conn.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1")]
            out = {}
            for table in tables:
                row = conn.execute(f'SELECT count(*), md5(coalesce(string_agg(t::text, \'|\' '
                                   f'ORDER BY t::text), \'\')) FROM "{table}" t').fetchone()
                assert row is not None
                out[table] = f"{row[0]}:{row[1]}"
            return out

    def forget_summaries(self) -> None:
        """The kept summaries gone (derived data, as after a new version of the rules):
        the next work lists work every parcel out again."""
        with self.cluster.connect(self.name) as conn:
            conn.execute("DELETE FROM case_summaries")

    def owner(self, sbl: str) -> str:
        with self.cluster.connect(self.name) as conn:
            row = conn.execute("SELECT owner_name FROM parcels WHERE sbl = %s",
                               (sbl,)).fetchone()
            assert row is not None
            return str(row[0])


@pytest.fixture(scope="module")
def office(pg_cluster: Cluster, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Office]:
    name = f"ui_office_{next(_offices)}"
    made = Office(pg_cluster, name, tmp_path_factory.mktemp("office-desk"))
    yield made
    pg_cluster.drop_database(name)


@pytest.fixture
def said(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What the app told the user in message boxes (a modal box would stop the test)."""
    texts: list[str] = []

    def box(_parent: Any, _title: str, text: str, *_a: Any, **_k: Any) -> Any:
        texts.append(text)
        return QMessageBox.StandardButton.Ok

    for name in ("warning", "information", "critical"):
        monkeypatch.setattr(QMessageBox, name, staticmethod(box))
    return texts


@pytest.fixture
def settings(tmp_path: Path) -> QSettings:
    return QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The questions the app asked with an input dialog (who is working), answered."""
    questions: list[str] = []

    def answer(_parent: Any, _title: str, label: str, *_a: Any, **_k: Any) -> Any:
        questions.append(label)
        return "K. Olmsted", True

    monkeypatch.setattr(QInputDialog, "getText", staticmethod(answer))
    return questions


@pytest.fixture
def window(qtbot: QtBot, settings: QSettings, said: list[str], asked: list[str],
           tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[MainWindow]:
    """The app open on a data folder of three demo parcels, as it is before connecting
    (who is working asked for the folder, and answered)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "user-data"))  # the desks' folders
    with Workspace(tmp_path / "folder", user="clerk") as ws:
        install_demo(ws, count=3, today=TODAY)
    w = MainWindow(Workspace(tmp_path / "folder", user="k.olmsted"), runner=TaskRunner(),
                   settings=settings, ask_who=True)
    w.ctx.as_of = TODAY
    qtbot.addWidget(w)
    w.show()
    settle(w, qtbot)
    qtbot.waitUntil(lambda: w.who_label.text() == "Working: K. Olmsted")
    assert len(asked) == 1
    yield w
    w.close()  # stops the worker first
    if w.workspace is not None:
        w.workspace.close()


def file_action(w: MainWindow, text: str) -> Any:
    for action in w.menuBar().actions()[0].menu().actions():
        if action.text().replace("&", "") == text:
            return action
    raise AssertionError(f"no File > {text}")


def connect_by_dialog(w: MainWindow, qtbot: QtBot, address: str, password: str = "") -> Any:
    """File > Connect to office database..., the address typed over the one offered, and
    Connect pressed."""
    file_action(w, "Connect to office database...").trigger()
    dialog = w.offices.dialog
    assert dialog is not None and dialog.isVisible()
    dialog.address.clear()
    qtbot.keyClicks(dialog.address, address)
    if password:
        qtbot.keyClicks(dialog.password, password)
    qtbot.mouseClick(dialog.connect_button, Qt.MouseButton.LeftButton)
    return dialog


def connected(w: MainWindow, qtbot: QtBot, rows: int) -> None:
    qtbot.waitUntil(lambda: w.workspace is not None and w.workspace.store.database is not None
                    and w.model.rowCount() == rows and w.menuBar().isEnabled(),
                    timeout=30_000)
    settle(w, qtbot, timeout=30_000)


def listed(w: MainWindow) -> list[str]:
    return sorted(w.model.index(r, 0).data() for r in range(w.model.rowCount()))


def test_connecting_through_the_dialog_lists_the_office_and_names_database_and_login(
        window: MainWindow, qtbot: QtBot, office: Office, said: list[str], asked: list[str],
        settings: QSettings, tmp_path: Path) -> None:
    w = window
    address = office.url_for("jhaldane")
    connect_by_dialog(w, qtbot, address, password="not-kept-9f3")
    connected(w, qtbot, len(office.parcels))
    assert said == []
    assert listed(w) == sorted(p["sbl"] for p in office.parcels)
    desk = f"office database {office.name} on this computer {EM} J. Haldane (jhaldane)"
    assert w.windowTitle() == f"Watershed Inspector - {desk}"
    assert w.who_label.text() == desk
    assert "Connected: " + desk in w.message.text()
    assert str(tmp_path / "folder") not in w.windowTitle()
    # the login is the person: changes are recorded under the name the office gave it
    assert w.workspace is not None and w.workspace.user == "J. Haldane (jhaldane)"
    # remembered like a data folder, never with the password typed
    settings.sync()
    assert settings.value("recent_office_databases") in ([address], address)
    assert "not-kept-9f3" not in (tmp_path / "settings.ini").read_text("utf-8")
    assert all("user-data" not in str(f) for f in w.folders._recent_folders())
    w.offices.fill_recent()
    entries = w.offices.recent_menu.actions()
    assert [a.text() for a in entries] == [address.replace("&", "&&")]  # each & shown
    assert entries[0].isChecked() and not entries[0].isEnabled()
    # the dialog offers the address used last
    file_action(w, "Connect to office database...").trigger()
    assert w.offices.dialog is not None
    assert w.offices.dialog.address.text() == address
    assert w.offices.dialog.password.text() == ""
    w.offices.dialog.reject()
    # who is working is not asked: the login says it
    assert len(asked) == 1  # (the data folder's, before)
    file_action(w, "Who is working...").trigger()
    assert "the login is the person working" in said[-1] and "jhaldane" in said[-1]
    # and the folder can be opened again from the recent data folders, as before
    w.folders.fill_recent()
    back = [a for a in w.folders.recent_menu.actions() if a.isEnabled()]
    assert [a.text() for a in back] == [str((tmp_path / "folder").resolve())]
    back[0].trigger()
    qtbot.waitUntil(lambda: w.workspace is not None and w.workspace.store.database is None
                    and w.model.rowCount() == 3, timeout=30_000)
    assert w.windowTitle().endswith(str((tmp_path / "folder").resolve()))


def test_an_address_that_cannot_be_reached_is_said_and_the_folder_stays_open(
        window: MainWindow, qtbot: QtBot, office: Office, said: list[str],
        tmp_path: Path) -> None:
    w = window
    folder = w.workspace
    assert folder is not None
    before = w.windowTitle()
    nowhere = tmp_path / "no-such-socket-dir"
    address = f"postgresql://jhaldane@/{office.name}?host={nowhere}&port=5432"
    connect_by_dialog(w, qtbot, address)
    qtbot.waitUntil(lambda: bool(said) and not w.folders.switching, timeout=30_000)
    settle(w, qtbot)
    assert len(said) == 1
    assert said[0].startswith(f"The office database {address} could not be opened (")
    assert "No such file or directory" in said[0] and said[0].count(".") >= 1
    assert w.workspace is folder and w.menuBar().isEnabled() and w.panes.isEnabled()
    assert w.model.rowCount() == 3 and w.windowTitle() == before
    assert w.message.text() == (f"office database {office.name} on this computer was not "
                                f"opened; {folder.folder.root} is still open.")
    assert w.offices.recent() == []  # nothing remembered of an address never opened
    # an address that is not one is refused before anything is tried
    connect_by_dialog(w, qtbot, "officeserver/watershed")
    assert said[-1].startswith("The address 'officeserver/watershed' is not the address of "
                               "a PostgreSQL office database")
    assert "--database" not in said[-1]
    assert w.workspace is folder


def test_a_town_login_lists_its_municipality_only_and_writes_nothing_on_opening(
        window: MainWindow, qtbot: QtBot, office: Office, said: list[str]) -> None:
    w = window
    ours = sorted(p["sbl"] for p in office.parcels if p["municipality"] == TOWN)
    others = [p["sbl"] for p in office.parcels if p["municipality"] != TOWN]
    assert ours and others  # the demo has parcels of other towns
    office.forget_summaries()  # so that the town's work lists have every parcel to work out
    before = office.contents()
    connect_by_dialog(w, qtbot, office.url_for("ccode"))
    connected(w, qtbot, len(ours))
    qtbot.waitUntil(lambda: w.lists_state.text() == "Work lists up to date", timeout=30_000)
    settle(w, qtbot)
    assert said == []
    assert listed(w) == ours
    assert w.windowTitle() == (f"Watershed Inspector - office database {office.name} on this "
                               f"computer {EM} C. Code (ccode)")
    # the work lists were worked out for the town, not kept; nothing at all was written
    assert office.contents() == before
    w.search.setText(others[0])
    assert w.proxy.rowCount() == 0


def test_a_save_by_a_town_login_is_refused_in_one_sentence_and_the_form_keeps_the_input(
        window: MainWindow, qtbot: QtBot, office: Office, said: list[str]) -> None:
    w = window
    sbl = next(p["sbl"] for p in office.parcels if p["municipality"] == TOWN)
    stored_owner = office.owner(sbl)
    before = office.contents()
    connect_by_dialog(w, qtbot, office.url_for("ccode"))
    connected(w, qtbot, sum(p["municipality"] == TOWN for p in office.parcels))
    w.select(sbl)
    qtbot.waitUntil(lambda: w.form.case is not None and w.form.case.parcel.sbl == sbl,
                    timeout=30_000)
    settle(w, qtbot)
    w.form.owner_name.setText("Typed by the town")
    w.form.owner_name.editingFinished.emit()
    qtbot.waitUntil(lambda: w.problem.isVisible(), timeout=30_000)
    settle(w, qtbot)
    assert said == []  # no crash dialog: the sentence is on the form
    assert w.problem.text().startswith("The office database refused this to your login: "
                                       "permission denied for table")
    assert "nothing was changed" in w.problem.text()
    assert w.form.owner_name.text() == "Typed by the town"  # the input is kept
    assert w.form.is_dirty()
    assert office.owner(sbl) == stored_owner and office.contents() == before
    # leaving the field again tries again, and is refused again
    w.form.owner_name.editingFinished.emit()
    settle(w, qtbot)
    assert w.problem.isVisible() and "refused this to your login" in w.problem.text()
    assert w.form.owner_name.text() == "Typed by the town"
    assert office.owner(sbl) == stored_owner and office.contents() == before


def test_the_app_started_on_an_office_database_opens_it_as_the_login(
        qtbot: QtBot, office: Office, settings: QSettings, said: list[str], asked: list[str],
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`inspector-app --database URL`: run_gui opens the window on the database (the worker
    opens it behind the window), naming it and the login, asking no one's name."""
    from inspector_app.paths import office_desk_dir

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "user-data"))
    url = office.url_for("jhaldane")
    w = MainWindow(root=office_desk_dir(url), database=url, runner=TaskRunner(),
                   settings=settings, ask_who=True)
    qtbot.addWidget(w)
    assert w.windowTitle() == f"Watershed Inspector - office database {office.name} on this computer"
    w.show()
    try:
        connected(w, qtbot, len(office.parcels))
        assert said == [] and asked == []
        assert w.windowTitle() == (f"Watershed Inspector - office database {office.name} on "
                                   f"this computer {EM} J. Haldane (jhaldane)")
        assert w.offices.recent() == [url]
        assert w.folders._recent_folders() == []
    finally:
        w.close()
        if w.workspace is not None:
            w.workspace.close()


def test_a_suggested_finding_decided_by_a_town_login_is_refused_and_the_sentence_stays(
        window: MainWindow, qtbot: QtBot, office: Office, said: list[str]) -> None:
    w = window
    sbl, key = "900.01-1-3", "septic_tank_capacity/septic_tank#1"  # an undersized tank
    assert next(p for p in office.parcels if p["sbl"] == sbl)["municipality"] == TOWN
    before = office.contents()
    connect_by_dialog(w, qtbot, office.url_for("ccode"))
    connected(w, qtbot, sum(p["municipality"] == TOWN for p in office.parcels))
    w.select(sbl)
    qtbot.waitUntil(lambda: w.form.case is not None and w.form.case.parcel.sbl == sbl
                    and "Accept" in w.evaluation.toHtml(), timeout=30_000)
    settle(w, qtbot)
    w.evaluation.decided.emit(key, True, "")
    qtbot.waitUntil(lambda: w.problem.isVisible(), timeout=30_000)
    settle(w, qtbot)  # the parcel shown again as stored: the sentence stays with it
    assert said == []
    assert w.problem.isVisible()
    assert w.problem.text().startswith("The office database refused this to your login: "
                                       "permission denied for table")
    assert office.contents() == before
