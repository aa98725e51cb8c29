"""An office on PostgreSQL and a laptop as ever: the laptop enrolled by the office database
joins from its kit into a data folder of its own (SQLite, never a server), and the packages,
conflicts and revocation between them work as between two data folders. Run on the test
cluster whatever engine the other suites run on."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from inspector_app.paths import DATABASE_ENV, DATABASE_NAME, HOME_ENV
from inspector_app.services.office.database import init_office
from tests.sync.conftest import KIT_PASSPHRASE
from tests.test_cli import cli

AS_OF = "2026-11-25"


class Desks:
    """The office's desk (on the office database) and the laptop (its own folder)."""

    def __init__(self, capsys: pytest.CaptureFixture[str], url: str, tmp: Path) -> None:
        self.capsys, self.url, self.tmp = capsys, url, tmp
        self.desk, self.field = tmp / "desk", tmp / "field"
        self.secret = tmp / "passphrase.txt"
        self.secret.write_text(KIT_PASSPHRASE + "\n", "utf-8")

    def office(self, *args: str) -> tuple[int, Any, str]:
        return cli(self.capsys, "--database", self.url, "--data-dir", str(self.desk), *args)

    def laptop(self, *args: str) -> tuple[int, Any, str]:
        return cli(self.capsys, "--data-dir", str(self.field), *args)

    def ok(self, status_out_err: tuple[int, Any, str]) -> Any:
        status, out, err = status_out_err
        assert status == 0, err
        return out

    def edit(self, side: str, sbl: str, change: Any) -> None:
        run = self.office if side == "office" else self.laptop
        doc = self.ok(run("case", "export", sbl))
        change(doc)
        path = self.tmp / f"{side}-{sbl}.json"
        path.write_text(json.dumps(doc), "utf-8")
        self.ok(run("case", "import", str(path), "--as-of", AS_OF))


@pytest.fixture
def desks(pg_database: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
          monkeypatch: pytest.MonkeyPatch) -> Desks:
    for name in (DATABASE_ENV, HOME_ENV):
        monkeypatch.delenv(name, raising=False)
    made = Desks(capsys, pg_database, tmp_path)
    init_office(pg_database, made.desk, user="clerk")
    made.ok(made.office("demo", "--parcels", "4", "--as-of", AS_OF))
    return made


def bedrooms(count: int) -> Any:
    return lambda d: d["dwelling"].__setitem__("bedrooms", count)


def test_a_laptop_works_against_an_office_on_postgresql_as_against_a_data_folder(
        desks: Desks) -> None:
    sbls = [p["sbl"] for p in desks.ok(desks.office("parcels"))]
    # a parcel with a dwelling, for the conflict
    sbl = next(s for s in sbls if desks.ok(desks.office("case", "export", s)).get("dwelling"))
    assert not (desks.desk / DATABASE_NAME).exists()  # the office's records are its server's

    enrolled = desks.ok(desks.office(
        "sync", "enroll", "--device", "laptop-1", "--out", str(desks.tmp / "laptop-1.wikit"),
        "--parcels", ",".join([sbl, next(s for s in sbls if s != sbl)]),
        "--passphrase-file", str(desks.secret)))
    joined = desks.ok(cli(desks.capsys, "--data-dir", str(desks.field), "sync", "join",
                          str(desks.tmp / "laptop-1.wikit"), "--passphrase-file",
                          str(desks.secret)))
    assert joined == {"device": "laptop-1", "parcels": 2,
                      "office_fingerprint": enrolled["office_fingerprint"]}
    assert (desks.field / DATABASE_NAME).is_file()  # the laptop's own file, no server

    # the laptop records an inspection and a bedroom count; the office meanwhile another
    desks.edit("laptop", sbl, lambda d: d.update(inspection={
        "date": "2026-11-20", "inspector": "K. Olmsted", "reason": "complaint",
        "failure_evidence": ["effluent at surface over laterals"]}))
    desks.edit("laptop", sbl, bedrooms(5))
    desks.edit("office", sbl, bedrooms(6))
    sent = desks.ok(desks.laptop("sync", "export", "--out", str(desks.tmp / "up-1.zip")))
    assert sent["changes"] >= 2
    imported = desks.ok(desks.office("sync", "import", str(desks.tmp / "up-1.zip")))
    assert imported["applied"] >= 1 and imported["open_conflicts"] == 1
    inspections = desks.ok(desks.office("inspection", "list", sbl))
    assert "2026-11-20" in [i["date"] for i in inspections]
    assert desks.ok(desks.office("sync", "import", str(desks.tmp / "up-1.zip")))[
        "already_imported"] is True

    (conflict,) = desks.ok(desks.office("sync", "conflicts"))
    assert (conflict["sbl"], conflict["local_value"], conflict["incoming_value"]) == (sbl, 6, 5)
    desks.ok(desks.office("sync", "resolve", conflict["id"], "--take-incoming"))
    assert desks.ok(desks.office("sync", "conflicts")) == []
    assert desks.ok(desks.office("case", "export", sbl))["dwelling"]["bedrooms"] == 5
    # and back: the office's package reaches the laptop
    desks.ok(desks.office("sync", "export", "--out", str(desks.tmp / "down-1.zip")))
    desks.ok(desks.laptop("sync", "import", str(desks.tmp / "down-1.zip")))
    assert desks.ok(desks.laptop("case", "export", sbl))["dwelling"]["bedrooms"] == 5

    # the laptop is lost: its later packages are refused whole
    desks.ok(desks.office("sync", "revoke", "--device", "laptop-1", "--reason", "lost"))
    desks.edit("laptop", sbl, bedrooms(3))
    desks.ok(desks.laptop("sync", "export", "--out", str(desks.tmp / "up-2.zip")))
    before = (desks.ok(desks.office("history", sbl)), desks.ok(desks.office("sync", "status")))
    status, _, err = desks.office("sync", "import", str(desks.tmp / "up-2.zip"))
    assert status == 2 and "The laptop 'laptop-1' was revoked on" in err, err
    assert (desks.ok(desks.office("history", sbl)),
            desks.ok(desks.office("sync", "status"))) == before
    assert desks.ok(desks.office("case", "export", sbl))["dwelling"]["bedrooms"] == 5
    assert not (desks.desk / DATABASE_NAME).exists()


@pytest.mark.parametrize("given", ["option", "environment"])
def test_joining_refuses_an_office_database(desks: Desks, given: str,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    sbl = desks.ok(desks.office("parcels"))[0]["sbl"]
    desks.ok(desks.office("sync", "enroll", "--device", "laptop-1", "--out",
                          str(desks.tmp / "laptop-1.wikit"), "--parcels", sbl,
                          "--passphrase-file", str(desks.secret)))
    join = ["--data-dir", str(desks.field), "sync", "join", str(desks.tmp / "laptop-1.wikit"),
            "--passphrase-file", str(desks.secret)]
    before = desks.ok(desks.office("sync", "status"))
    if given == "option":
        status, out, err = cli(desks.capsys, "--database", desks.url, *join)
        named, unset = "--database", "without --database"
    else:
        monkeypatch.setenv(DATABASE_ENV, desks.url)
        status, out, err = cli(desks.capsys, *join)
        named, unset = DATABASE_ENV, f"with {DATABASE_ENV} unset"
    assert (status, out) == (2, None)
    assert err == (f"sync join: a laptop keeps its records in its own data folder and never "
                   f"uses an office database, so {named} is not taken here; run `sync join` "
                   f"{unset}.\n")
    assert not desks.field.exists()
    monkeypatch.delenv(DATABASE_ENV, raising=False)
    assert desks.ok(desks.office("sync", "status")) == before
