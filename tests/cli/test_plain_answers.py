"""Every mistake a user makes at the command line gets a plain answer: one sentence naming
the path, field or command at fault and the fix, exit status 2, and nothing changed."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from inspector_app.cli import build_parser, run
from inspector_app.paths import resource
from tests.test_cli import _tree, cli

FIXTURES = Path(__file__).parent.parent / "fixtures"
AS_OF = "2026-11-25"
SBL = "900.01-1-4"  # a demo parcel whose records call for a substandard notice




@pytest.fixture(scope="module")
def demo_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("plain") / "data"
    assert run(["--data-dir", str(root), "demo", "--as-of", AS_OF]) == 0
    return root


@pytest.fixture
def data(demo_folder: Path, tmp_path: Path) -> Path:
    """A copy of the demo folder of the test's own."""
    return Path(shutil.copytree(demo_folder, tmp_path / "data"))


# --- paths to write ----------------------------------------------------------------------

def test_an_out_file_in_a_missing_folder_is_named_with_the_fix(
        capsys: pytest.CaptureFixture[str], data: Path, tmp_path: Path) -> None:
    out = tmp_path / "no such folder" / "draft.pdf"
    status, result, err = cli(capsys, "--data-dir", str(data), "register", "draft", SBL,
                              "--kind", "substandard_notice", "--out", str(out),
                              "--as-of", AS_OF)
    assert (status, result) == (2, None)
    assert err.strip() == (f"Cannot write {out}: the folder {out.parent} does not exist; "
                           "create it first or give a path in an existing folder.")
    assert not out.parent.exists()


def test_an_out_file_under_a_file_and_an_out_folder_given_as_a_file(
        capsys: pytest.CaptureFixture[str], data: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "notes.txt"
    blocker.write_text("a file, not a folder")
    status, _, err = cli(capsys, "--data-dir", str(data), "register", "draft", SBL, "--kind",
                         "substandard_notice", "--out", str(blocker / "draft.pdf"))
    assert status == 2
    assert err.strip() == (f"Cannot write {blocker / 'draft.pdf'}: {blocker} is a file, not a "
                           "folder; give the path of a file in a folder.")
    status, _, err = cli(capsys, "--data-dir", str(data), "register", "draft", SBL, "--kind",
                         "substandard_notice", "--out", str(tmp_path))
    assert status == 2
    assert err.strip() == (f"Cannot write {tmp_path}: it is a folder; add the name of the "
                           "file to write in it.")
    status, _, err = cli(capsys, "--data-dir", str(data), "letters",
                         str(FIXTURES / "contract_example_case.json"), "--out", str(blocker),
                         "--as-of", AS_OF)
    assert status == 2
    assert err.strip() == (f"Cannot write {blocker}: {blocker} is a file, not a folder; give "
                           "the path of a folder.")
    assert blocker.read_text() == "a file, not a folder"
    assert ".tmp" not in err and "unexpectedly" not in err


def test_a_field_kit_to_a_missing_folder_enrols_nothing(
        capsys: pytest.CaptureFixture[str], data: Path, tmp_path: Path) -> None:
    phrase = tmp_path / "phrase"
    phrase.write_text("correct horse battery staple\n")
    before = _tree(data)
    kit = tmp_path / "gone" / "laptop.kit"
    status, _, err = cli(capsys, "--data-dir", str(data), "sync", "enroll", "--device", "lap",
                         "--out", str(kit), "--parcels", SBL, "--passphrase-file", str(phrase))
    assert status == 2
    assert err.strip() == (f"Cannot write {kit}: the folder {kit.parent} does not exist; "
                           "create it first or give a path in an existing folder.")
    after = _tree(data)
    assert {k for k in after if not k.startswith("backups")} == {
        k for k in before if not k.startswith("backups")}
    _, status_out, _ = cli(capsys, "--data-dir", str(data), "sync", "status")
    assert "lap" not in json.dumps(status_out)


# --- the data folder -----------------------------------------------------------------------

def test_a_missing_data_folder_is_refused_and_not_created(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    typo = tmp_path / "dta"
    for command in (["parcels"], ["history", SBL], ["register", "list"], ["sync", "status"],
                    ["shoreline", "list"], ["worklist"]):
        status, out, err = cli(capsys, "--data-dir", str(typo), *command)
        assert (status, out) == (2, None), command
        assert err.strip() == (
            f"There is no data folder {typo} (from --data-dir); check its spelling, or start "
            f"one there with `inspector-app --data-dir {typo} parcels import ROLL.csv` (or "
            "`case import`, `demo`, `jurisdiction use`, `shoreline import`, `basemap import`, "
            "`office use`, `wording use` or `sync join`).")
    assert not typo.exists()


def test_commands_that_store_nothing_create_nothing(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    typo = tmp_path / "dta"
    case = str(FIXTURES / "contract_example_case.json")
    status, out, err = cli(capsys, "--data-dir", str(typo), "evaluate", case, "--as-of", AS_OF)
    assert status == 0 and out["outcome"]
    assert f"there is no data folder {typo} (from --data-dir)" in err
    status, out, err = cli(capsys, "--data-dir", str(typo), "letters", case, "--out",
                           str(tmp_path / "letters"), "--as-of", AS_OF)
    assert status == 0, err
    assert all(Path(x["path"]).is_file() for x in out)
    assert not typo.exists()


def test_a_data_folder_that_is_a_file_or_under_one(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    blocker = tmp_path / "data"
    blocker.write_text("")
    status, _, err = cli(capsys, "--data-dir", str(blocker), "parcels")
    assert status == 2
    assert err.strip() == (f"The data folder {blocker} is a file, not a folder; give "
                           "--data-dir a folder.")
    status, _, err = cli(capsys, "--data-dir", str(blocker / "new"), "demo")
    assert status == 2
    assert err.strip() == (f"Cannot write {blocker / 'new'}: {blocker} is a file, not a "
                           "folder; give the path of a folder.")
    assert blocker.read_text() == ""


# --- wording ---------------------------------------------------------------------------------

def _wording_with(tmp_path: Path, old: str, new: str) -> tuple[Path, int]:
    """The bundled wording with its first use of `old` (past the comments) made `new`,
    and the line that is on."""
    text = resource("letters", "templates.toml").read_text("utf-8")
    head, sep, body = text.partition("\nformat = ")
    assert old in body
    text = head + sep + body.replace(old, new, 1)
    path = tmp_path / "templates.toml"
    path.write_text(text, "utf-8")
    return path, text[:text.index(new)].count("\n") + 1


def test_a_misspelt_citation_key_is_refused_naming_file_line_and_key(
        capsys: pytest.CaptureFixture[str], data: Path, tmp_path: Path) -> None:
    path, line = _wording_with(tmp_path, "{cite[permit_required]}", "{cite[permit_requird]}")
    before = _tree(data)
    status, _, err = cli(capsys, "--data-dir", str(data), "wording", "use", str(path))
    assert status == 2
    assert err.startswith(f"{path}, line {line}: [")
    assert err.strip().endswith("cites {cite[permit_requird]}, which names no citation; the "
                                "nearest that does is {cite[permit_required]}.")
    assert _tree(data) == before


def test_an_unknown_unconfirmed_value_and_a_key_on_a_plain_placeholder(
        capsys: pytest.CaptureFixture[str], data: Path, tmp_path: Path) -> None:
    path, line = _wording_with(tmp_path, "{unconfirmed[inspection_cycle.years]}",
                               "{unconfirmed[cycle]}")
    status, _, err = cli(capsys, "--data-dir", str(data), "wording", "use", str(path))
    assert status == 2 and f"{path}, line {line}: " in err
    assert "has {unconfirmed[cycle]}, which names no value; write {unconfirmed[KEY]}" in err
    path, line = _wording_with(tmp_path, "Dear {owner_name}:", "Dear {owner_name[0]}:")
    status, _, err = cli(capsys, "--data-dir", str(data), "wording", "use", str(path))
    assert status == 2 and f"{path}, line {line}: " in err
    assert "write it as {owner_name}, with nothing after the name." in err


# --- history -----------------------------------------------------------------------------

def test_history_prints_lists_and_objects_as_json_values(
        capsys: pytest.CaptureFixture[str], demo_folder: Path) -> None:
    status, rows, _ = cli(capsys, "--data-dir", str(demo_folder), "history", SBL)
    assert status == 0
    parcel = next(r for r in rows if r["table_name"] == "parcels" and r["op"] == "insert")
    address = parcel["new_value"]["owner_mailing_address"]
    assert isinstance(address, list) and address and all(isinstance(x, str) for x in address)
    assert parcel["new_value"]["owner_name"].endswith("(demo)")  # text stays text


# --- coordinates and files -------------------------------------------------------------------

def test_a_state_plane_point_far_from_the_lake_is_kept_with_a_warning(
        capsys: pytest.CaptureFixture[str], data: Path) -> None:
    status, out, err = cli(capsys, "--data-dir", str(data), "site", SBL, "well",
                           "--state-plane", "1011165,1020000", "--as-of", AS_OF)
    assert status == 0
    warning = ("the location is about 70.0 mi (more than 15 mi) from Canandaigua Lake, "
               "outside the area this app serves; it was stored as given: check the "
               "coordinates and record it again if they are wrong")
    assert out["warnings"] == [warning]
    assert err.strip() == f"site: warning: {warning}."
    status, out, err = cli(capsys, "--data-dir", str(data), "site", SBL, "well",
                           "--state-plane", "625000,1020000", "--as-of", AS_OF)
    assert status == 0 and "warnings" not in out and err == ""


def test_a_file_type_gdal_does_not_know_is_told_what_is_read(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    odd = tmp_path / "shore.xyz"
    odd.write_text("hello\n")
    table = tmp_path / "shore.csv"
    table.write_text("a,b\n1,2\n")
    area = tmp_path / "area.geojson"
    area.write_text('{"type": "Point", "coordinates": [-77.3, 42.8]}')
    for shoreline in (odd, table):
        status, _, err = cli(capsys, "distance", "--shoreline", str(shoreline), "--area",
                             str(area))
        assert status == 2
        assert err.strip() == (
            f"{shoreline}: is not a file type this app reads; give a GeoJSON file (.geojson "
            "or .json), an ESRI Shapefile (.shp, with its .shx, .dbf and .prj beside it) or a "
            "GeoPackage (.gpkg).")


def test_a_file_that_is_not_nmea_is_not_told_to_wait_for_a_fix(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("walked the site\nno GPS today\n")
    status, _, err = cli(capsys, "gps", "--log", str(notes))
    assert status == 2
    assert err.strip() == (f"{notes}: is not an NMEA 0183 log (no line is a sentence such as "
                           "$GPGGA,...); give the log file the GPS receiver wrote.")


def test_a_field_kit_imported_at_the_office_says_where_it_goes(
        capsys: pytest.CaptureFixture[str], data: Path, tmp_path: Path) -> None:
    phrase = tmp_path / "phrase"
    phrase.write_text("correct horse battery staple\n")
    kit = tmp_path / "laptop.kit"
    status, _, err = cli(capsys, "--data-dir", str(data), "sync", "enroll", "--device", "lap",
                         "--out", str(kit), "--parcels", SBL, "--passphrase-file", str(phrase))
    assert status == 0, err
    status, _, err = cli(capsys, "--data-dir", str(data), "sync", "import", str(kit))
    assert status == 2
    assert err.strip() == (f"{kit}: is a field kit; use `inspector-app sync join` with it on "
                           "the laptop, in a new empty data folder (a kit is not imported).")


# --- the command line itself -------------------------------------------------------------

def test_a_missing_or_unknown_sub_command_is_named_in_the_commands_words(
        capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = cli(capsys, "case")
    assert status == 2
    assert err.splitlines()[-1] == ("inspector-app case: say which command: import or export "
                                    "(see `inspector-app case --help`).")
    status, _, err = cli(capsys, "sync", "imprt")
    assert status == 2
    assert err.splitlines()[-1].startswith("inspector-app sync: 'imprt' is not a command; the "
                                           "commands are enroll, join, export")
    assert "_command" not in err


def test_register_issue_takes_kinds_both_ways() -> None:
    parser = build_parser()
    kinds = ["substandard_notice", "notice_of_violation"]
    spaced = parser.parse_args(["register", "issue", SBL, "--kind", *kinds])
    repeated = parser.parse_args(["register", "issue", SBL, "--kind", kinds[0], "--kind",
                                  kinds[1]])
    assert spaced.kind == repeated.kind == kinds
    assert parser.parse_args(["register", "issue", SBL]).kind is None


def test_a_case_file_shows_every_problem(capsys: pytest.CaptureFixture[str],
                                         tmp_path: Path) -> None:
    doc = json.loads((FIXTURES / "full_case.json").read_text())
    doc["dwelling"]["bedrooms"] = "x"
    doc["parcel"]["owner_name"] = 5
    doc["inspection"]["inspector"] = 7
    bad = tmp_path / "case.json"
    bad.write_text(json.dumps(doc))
    status, _, err = cli(capsys, "evaluate", str(bad))
    assert status == 2
    assert err.startswith(f"{bad}: has 3 problems: (1) ")
    for part in ('dwelling.bedrooms must be a whole number, not the text "x"',
                 "parcel.owner_name must be text, not 5", "inspection.inspector must be text"):
        assert part in err
    many = {**doc, "components": [{"kind": "septic_tank", "condition": n} for n in range(25)]}
    bad.write_text(json.dumps(many))
    status, _, err = cli(capsys, "evaluate", str(bad))
    assert status == 2
    assert "(20) " in err and "(21) " not in err
    assert err.strip().endswith("more, shown once these are fixed.")


@pytest.mark.parametrize(("name", "why"), [
    ("   ", "no name was given"),
    ("x" * 81, "is longer than 80 characters"),
    ("J.\tHaldane", "holds a character that cannot be printed"),
])
def test_a_user_that_is_no_name_is_refused_and_nothing_changes(
        capsys: pytest.CaptureFixture[str], data: Path, name: str, why: str) -> None:
    before = _tree(data)
    status, out, err = cli(capsys, "--user", name, "--data-dir", str(data), "suggestion",
                           "reject", "900.01-1-5", "septic_tank_capacity/septic_tank#1",
                           "--as-of", "2026-11-25")
    assert (status, out) == (2, None)
    assert err.startswith("Who is working must be a name of 1 to 80 characters, and ")
    assert why in err and err.strip().endswith("give it with --user NAME or "
                                                "$INSPECTOR_APP_USER.")
    assert len(err.strip().splitlines()) == 1
    assert _tree(data) == before


def test_the_user_named_is_recorded_on_the_decision_and_its_change(
        capsys: pytest.CaptureFixture[str], data: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("INSPECTOR_APP_USER", "K. Olmsted")
    status, _, err = cli(capsys, "--user", " J. Haldane ", "--data-dir", str(data), "suggestion",
                         "reject", "900.01-1-5", "septic_tank_capacity/septic_tank#1",
                         "--as-of", "2026-11-25")
    assert status == 0, err
    status, history, _ = cli(capsys, "--data-dir", str(data), "history", "900.01-1-5")
    assert status == 0
    decided = [h for h in history if h["table_name"] == "finding_decisions"]
    assert [h["user"] for h in decided] == ["J. Haldane"]
