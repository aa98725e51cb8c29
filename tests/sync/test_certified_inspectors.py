"""A private certified inspector's laptop (Chapter 202, Article III): enrolled at the office
for that inspector and their certification number, every change made on it is recorded as
that person; their inspections count for the five-year cycle; the report of findings of an
inspection recorded there is attested by them as enrolled; the laptop's parcels bound it as
any laptop's. Through the command line, on either engine (the office on PostgreSQL with
INSPECTOR_TEST_ENGINE=postgresql)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from inspector_app.errors import InputError
from inspector_app.paths import DATABASE_ENV, HOME_ENV
from inspector_app.services import exchange as sync
from inspector_app.services.workspace import Workspace
from inspector_app.sync.package import PackageError
from tests.attesting import signature_png
from tests.sync.conftest import KIT_PASSPHRASE, Pair, state
from tests.sync.test_hostile_packages import edit_unassigned_parcel, hostile
from tests.test_cli import cli

AS_OF = "2026-11-25"
INSPECTOR, NUMBER = "R. Private", "12345"
RECORDED_AS = "R. Private (NYS OWTTN cert 12345)"


class Sides:
    """The office (a data folder, or an office database on PostgreSQL) and the inspector's
    laptop (its own folder), driven through the command line."""

    def __init__(self, capsys: pytest.CaptureFixture[str], tmp: Path) -> None:
        self.capsys, self.tmp = capsys, tmp
        self.office_dir, self.field_dir = tmp / "office", tmp / "field"
        self.secret = tmp / "passphrase.txt"
        self.secret.write_text(KIT_PASSPHRASE + "\n", "utf-8")
        self.kit = tmp / "private.wikit"

    def office(self, *args: str) -> tuple[int, Any, str]:
        return cli(self.capsys, "--user", "clerk", "--data-dir", str(self.office_dir), *args)

    def laptop(self, *args: str, user: str = "someone else") -> tuple[int, Any, str]:
        return cli(self.capsys, "--user", user, "--data-dir", str(self.field_dir), *args)

    @staticmethod
    def ok(status_out_err: tuple[int, Any, str]) -> Any:
        status, out, err = status_out_err
        assert status == 0, err
        return out

    def enroll(self, *extra: str, device: str = "private-1",
               kit: Path | None = None) -> tuple[int, Any, str]:
        return self.office("sync", "enroll", "--device", device, "--out",
                           str(kit or self.kit), "--parcels", ",".join(self.sbls),
                           "--passphrase-file", str(self.secret), *extra)

    def join(self) -> Any:
        return self.ok(self.laptop("sync", "join", str(self.kit), "--passphrase-file",
                                   str(self.secret), "--fingerprint", self.fingerprint))

    def inspect(self, sbl: str, day: str) -> None:
        """A new inspection of `sbl` recorded on the laptop, as the inspector's case file."""
        doc = self.ok(self.laptop("case", "export", sbl))
        inspection = doc["inspection"]
        inspection.pop("id")
        inspection.update(date=day, inspector=INSPECTOR, inspector_certification=NUMBER,
                          reason="five_year_cycle")
        path = self.tmp / f"inspection-{sbl}.json"
        path.write_text(json.dumps(doc), "utf-8")
        self.ok(self.laptop("case", "import", str(path), "--as-of", AS_OF))

    def up(self, name: str = "up.zip") -> Any:
        self.ok(self.laptop("sync", "export", "--out", str(self.tmp / name)))
        return self.ok(self.office("sync", "import", str(self.tmp / name)))

    sbls: list[str]
    fingerprint: str


def _due(sides: Sides, sbl: str, as_of: str) -> dict[str, Any] | None:
    listed = sides.ok(sides.office("worklist", "five-year-inspections", "--as-of", as_of))
    return next((p for p in listed if p["sbl"] == sbl), None)


@pytest.fixture
def sides(tmp_path: Path, capsys: pytest.CaptureFixture[str],
          monkeypatch: pytest.MonkeyPatch) -> Sides:
    for name in (DATABASE_ENV, HOME_ENV):
        monkeypatch.delenv(name, raising=False)
    made = Sides(capsys, tmp_path)
    made.ok(made.office("demo", "--parcels", "12", "--as-of", AS_OF))
    # a parcel on the five-year work list (inspected before, now due), and another
    # inspected one
    due = made.ok(made.office("worklist", "five-year-inspections", "--as-of", AS_OF))
    first = next(p["sbl"] for p in due if p["last_inspection"])
    second = next(p["sbl"] for p in made.ok(made.office("parcels")) if p["sbl"] != first
                  and "inspection" in made.ok(made.office("case", "export", p["sbl"])))
    made.sbls = [first, second]
    # the providers register: the inspector, one whose certification lapsed, and a hauler
    for kind, name, number, through in (("inspector", INSPECTOR, NUMBER, "2099-12-31"),
                                        ("inspector", "L. Lapsed", "20001", "2020-06-30"),
                                        ("hauler", "H. Hauler", "30003", "2099-12-31")):
        made.ok(made.office("providers", "add", "--kind", kind, "--name", name, "--number",
                            number, "--valid-through", through))
    return made


@pytest.fixture
def joined(sides: Sides) -> Sides:
    enrolled = sides.ok(sides.enroll("--inspector", INSPECTOR, "--certification", NUMBER))
    sides.fingerprint = enrolled["office_fingerprint"]
    return sides


def test_the_kit_names_the_inspector_and_the_office_keeps_them_with_the_laptop(
        joined: Sides) -> None:
    listed = joined.ok(joined.office("sync", "status"))["devices"]
    assert [(d["device"], d["inspector"], d["certification"], d["recorded_as"])
            for d in listed] == [("private-1", INSPECTOR, NUMBER, RECORDED_AS)]
    got = joined.join()
    assert (got["device"], got["inspector"], got["certification"], got["recorded_as"]) == (
        "private-1", INSPECTOR, NUMBER, RECORDED_AS)
    status = joined.ok(joined.laptop("sync", "status"))
    assert (status["inspector"], status["certification"]) == (INSPECTOR, NUMBER)


def test_a_laptop_of_the_office_names_no_inspector(sides: Sides) -> None:
    enrolled = sides.ok(sides.enroll())
    assert "inspector" not in enrolled
    listed = sides.ok(sides.office("sync", "status"))["devices"]
    assert "inspector" not in listed[0] and "certification" not in listed[0]


@pytest.mark.parametrize("given, says", [
    (("--inspector", INSPECTOR), "--inspector was given without --certification"),
    (("--certification", NUMBER), "--certification was given without --inspector"),
    (("--inspector", INSPECTOR, "--certification", "99999"),
     "the inspector's certification '99999' is not registered with the office"),
    (("--inspector", "L. Lapsed", "--certification", "20001"),
     "the inspector's certification 20001 (L. Lapsed) was valid through 2020-06-30"),
    (("--inspector", "H. Hauler", "--certification", "30003"),
     "the inspector's certification '30003' is not registered with the office"),
    (("--inspector", "J. Other", "--certification", NUMBER),
     "holds certification 12345 for R. Private, not J. Other"),
    (("--inspector", "R" * 70, "--certification", NUMBER), "is longer than 80 characters"),
])
def test_an_inspector_without_a_usable_certification_is_refused_and_nothing_is_written(
        sides: Sides, given: tuple[str, ...], says: str) -> None:
    status, out, err = sides.enroll(*given)
    assert status == 2 and out is None
    assert says in err and len(err.strip().splitlines()) == 1
    assert not sides.kit.exists()
    assert sides.ok(sides.office("sync", "status"))["devices"] == []


def test_what_the_laptop_records_is_the_inspectors_and_moves_the_five_year_date(
        joined: Sides) -> None:
    joined.join()
    sbl = joined.sbls[0]
    before = _due(joined, sbl, AS_OF)
    assert before is not None and before["due"] <= AS_OF
    joined.inspect(sbl, "2026-11-20")
    assert joined.up()["applied"] == 1
    # the change log at the office names the inspector and their number, on their laptop
    history = joined.ok(joined.office("history", sbl))
    made = [h for h in history if h["table_name"] == "inspections" and h["op"] == "insert"
            and h["new_value"]["date"] == "2026-11-20"]
    assert [(h["user"], h["device"]) for h in made] == [(RECORDED_AS, "private-1")]
    # the parcel leaves the work list, and is back on it, due five years on
    assert _due(joined, sbl, AS_OF) is None
    again = _due(joined, sbl, "2031-11-21")
    assert again is not None and again["status"] == "overdue"
    assert (again["due"], again["last_inspection"]) == ("2031-11-20", "2026-11-20")


def test_the_person_on_the_laptop_cannot_be_someone_else(joined: Sides) -> None:
    joined.join()
    with Workspace(joined.field_dir, user="K. Olmsted") as ws:
        assert ws.user == RECORDED_AS
        with pytest.raises(InputError, match="enrolled for the certified inspector"):
            ws.set_user("K. Olmsted")
        assert ws.set_user(RECORDED_AS) == RECORDED_AS
        assert ws.user == RECORDED_AS


def _signature(sides: Sides) -> Path:
    path = sides.tmp / "signature.png"
    path.write_bytes(signature_png())
    return path


def test_the_report_of_findings_is_attested_by_the_inspector_as_enrolled(
        joined: Sides) -> None:
    joined.join()
    sbl = joined.sbls[0]
    joined.inspect(sbl, "2026-11-20")
    joined.up()
    sign = str(_signature(joined))
    # another number, or another certified inspector, is refused and nothing is recorded
    for given, says in ((("--number", "99999"), "enrolled with certification '12345', not "
                                               "'99999'"),
                        (("--name", "J. Other", "--kind", "certified_inspector", "--number",
                          "777"), "attested as a certified inspector by R. Private only")):
        status, _, err = joined.office("attest", sbl, "--signature", sign, "--drawn",
                                       "--on", AS_OF, *given)
        assert status == 2 and says in err
    assert joined.ok(joined.office("attestations", sbl)) == []
    # the name, kind and number come from the enrolment
    made = joined.ok(joined.office("attest", sbl, "--signature", sign, "--drawn",
                                   "--on", AS_OF))
    assert (made["name"], made["kind"], made["number"]) == (INSPECTOR, "certified_inspector",
                                                            NUMBER)
    # given as enrolled (the number in another spelling), it is stated as enrolled
    again = joined.ok(joined.office("attest", sbl, "--signature", sign, "--on", AS_OF,
                                    "--name", "r. private", "--number", "OTN 12345"))
    assert (again["name"], again["number"]) == (INSPECTOR, NUMBER)
    listed = joined.ok(joined.office("attestations", sbl))
    assert [(a["name"], a["number"], a["in_force"]) for a in listed] == [
        (INSPECTOR, NUMBER, False), (INSPECTOR, NUMBER, True)]
    drafted = joined.ok(joined.office("register", "draft", sbl, "--kind", "report_of_findings",
                                      "--out", str(joined.tmp / "rof.pdf"), "--as-of", AS_OF))
    assert drafted["draft"] is True


def test_an_inspection_recorded_at_the_office_needs_the_attester_named(
        joined: Sides) -> None:
    sbl = joined.sbls[1]
    sign = str(_signature(joined))
    status, _, err = joined.office("attest", sbl, "--signature", sign, "--on", AS_OF)
    assert status == 2 and "kind is not given" in err
    made = joined.ok(joined.office("attest", sbl, "--signature", sign, "--on", AS_OF,
                                   "--name", "Pat Quinlan", "--kind", "certified_inspector",
                                   "--number", "OTN 20417"))
    assert (made["name"], made["number"]) == ("Pat Quinlan", "OTN 20417")


def test_a_design_professional_may_still_attest_an_inspectors_inspection(
        joined: Sides) -> None:
    joined.join()
    sbl = joined.sbls[0]
    joined.inspect(sbl, "2026-11-20")
    joined.up()
    made = joined.ok(joined.office("attest", sbl, "--signature", str(_signature(joined)),
                                   "--on", AS_OF, "--name", "D. Engineer", "--kind",
                                   "design_professional", "--number", "PE 081234"))
    assert (made["name"], made["kind"]) == ("D. Engineer", "design_professional")


def test_a_change_outside_the_inspectors_parcels_is_refused_whole(joined: Sides) -> None:
    joined.join()
    joined.inspect(joined.sbls[0], "2026-11-20")
    with Workspace(joined.office_dir, user="clerk") as office, \
            Workspace(joined.field_dir) as field:
        pair = Pair(office=office, field=field, tmp=joined.tmp, sbls=joined.sbls)
        forged = hostile(pair, edit_unassigned_parcel)
        before = state(office)
        with pytest.raises(PackageError, match="not assigned to this laptop"):
            sync.import_package(office, forged)
        assert state(office) == before


def test_a_revoked_inspectors_laptop_is_refused(joined: Sides) -> None:
    joined.join()
    joined.ok(joined.office("sync", "revoke", "--device", "private-1", "--reason",
                            "certification lapsed"))
    joined.inspect(joined.sbls[0], "2026-11-20")
    joined.ok(joined.laptop("sync", "export", "--out", str(joined.tmp / "late.zip")))
    status, _, err = joined.office("sync", "import", str(joined.tmp / "late.zip"))
    assert status == 2 and "was revoked" in err and "certification lapsed" in err
    assert _due(joined, joined.sbls[0], AS_OF) is not None
