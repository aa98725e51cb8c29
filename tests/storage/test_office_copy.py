"""`office import-folder`: a data folder's SQLite file copied into a new office database,
whole or not at all, and read back the same; the folder left as it was."""

from __future__ import annotations

import hashlib
import io
import json
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from PIL import Image

from inspector_app.cli import run
from inspector_app.paths import resource
from inspector_app.services.office.database import init_office
from inspector_app.storage import office_copy
from inspector_app.storage.database import SCHEMA_VERSION
from tests.pg_cluster import Cluster
from tests.templates import Templates

# the folder here is a data folder's own SQLite file, whatever engine the suites run on
pytestmark = pytest.mark.sqlite_only

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
PHOTO_SBL = "900.01-1-2"
LISTINGS = (("parcels",), ("worklist", "five-year-inspections"), ("register", "list"))


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, Any, str]:
    status = run(list(args))
    out, err = capsys.readouterr()
    return status, (json.loads(out) if out.strip() else None), err


def _photo() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (64, 48), (40, 120, 200)).save(buffer, "PNG")
    return buffer.getvalue()


def _build(folder: Path) -> None:
    """The demo, with a photo attached and a letter issued."""
    assert run(["--user", "k.olmsted", "--data-dir", str(folder), "demo"]) == 0
    photo = folder.parent / "tank.png"
    photo.write_bytes(_photo())
    assert run(["--user", "k.olmsted", "--data-dir", str(folder), "attach", PHOTO_SBL,
                str(photo), "--caption", "the tank lid"]) == 0
    settings = folder.parent / "letterhead"
    settings.mkdir()
    Image.new("RGB", (90, 90), (30, 60, 90)).save(settings / "seal.png")
    (settings / "office.toml").write_text(resource("letters", "office.toml").read_text(
        "utf-8").replace('logo = ""', 'logo = "seal.png"'), "utf-8")
    assert run(["--user", "k.olmsted", "--data-dir", str(folder), "office", "use",
                str(settings / "office.toml")]) == 0
    assert run(["--user", "k.olmsted", "--data-dir", str(folder), "register", "issue",
                PHOTO_SBL, "--kind", "five_year_reminder"]) == 0


@pytest.fixture
def folder(templates: Templates, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    built = templates.copy("office-copy-demo", _build, tmp_path / "folder")
    capsys.readouterr()
    return built


@pytest.fixture
def office(pg_database: str, tmp_path: Path) -> str:
    init_office(pg_database, tmp_path / "desk-init", user="o.clerk")
    return pg_database


def _hashes(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def _office_counts(url: str) -> dict[str, int]:
    with psycopg.connect(url) as conn:
        return {t: conn.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0]  # type: ignore[index]
                for t in office_copy.tables()}


def _import(capsys: pytest.CaptureFixture[str], url: str, desk: Path, source: Path | str
            ) -> tuple[int, Any, str]:
    return _cli(capsys, "--user", "o.clerk", "--database", url, "--data-dir", str(desk),
                "office", "import-folder", str(source))


def test_the_demo_folder_is_copied_whole_and_reads_back_the_same(
        folder: Path, office: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = _hashes(folder)
    status, out, err = _import(capsys, office, tmp_path / "desk", folder)
    assert status == 0, err
    assert _hashes(folder) == before, "the folder copied was changed"
    assert out["same"] is True and out["database"] == office
    assert out["folder"] == str(folder.resolve())
    tables = {t["table"]: t for t in out["tables"]}
    assert list(tables) == list(office_copy.tables())
    source = sqlite3.connect(f"file:{folder / 'inspector.sqlite'}?mode=ro", uri=True)
    counted = _office_counts(office)
    for name, t in tables.items():
        assert t["same"] and t["sqlite_digest"] == t["postgresql_digest"], name
        rows = source.execute(f'SELECT count(*) FROM "{name}"').fetchone()[0]
        assert t["rows"] == rows, name
        # the office keeps its own two meta keys; the photo is in stored_files; each copy
        # of imagery named as a reference is recorded (storage and path)
        extra = {"meta": 2, "stored_files": 1, "office_files": 2,
                 "change_log": 2 * len(out["basemaps_referred"])}.get(name, 0)
        assert counted[name] == rows + extra, name
    assert tables["parcels"]["rows"] == 40 and tables["change_log"]["rows"] > 500
    assert tables["letters"]["rows"] == 1 and tables["attachments"]["rows"] == 1
    assert tables["stored_files"]["rows"] == 0  # a folder keeps its files in attachments/
    assert out["files"] == {"stored": 1, "bytes": len(_photo()), "damaged": [], "missing": []}
    # the letterhead and its seal, kept for every desk
    assert out["settings_files"] == [
        {"path": name, "sha256": hashlib.sha256((folder / name).read_bytes()).hexdigest()}
        for name in ("office.toml", "seal.png")]
    # the folder's own device is the office's, so the change log's device ids name it
    this = source.execute("SELECT id FROM devices WHERE role = 'this'").fetchone()[0]
    with psycopg.connect(office) as conn:
        assert conn.execute("SELECT id FROM devices WHERE role = 'this'").fetchall() == [
            (this,)]
        # the identity columns go on after the folder's numbers (the changes naming the
        # imagery where it lies are the first the office numbers)
        top = source.execute("SELECT max(seq) FROM change_log").fetchone()[0]
        assert conn.execute("SELECT last_value FROM pg_sequences WHERE sequencename = "
                            "pg_get_serial_sequence('change_log', 'seq')::regclass::name"
                            ).fetchone() == (top + 2 * len(out["basemaps_referred"]),)
    source.close()

    # the office, opened by a desk of its own, lists what the folder lists
    desk = tmp_path / "desk"
    for command in LISTINGS:
        status, there, err = _cli(capsys, "--data-dir", str(folder), *command)
        assert status == 0, err
        status, here, err = _cli(capsys, "--database", office, "--data-dir", str(desk),
                                 *command)
        assert status == 0, err
        assert here == there, command
    status, listed, _ = _cli(capsys, "--data-dir", str(folder), "register", "list")
    (letter,) = listed
    for where, flags in (("folder", ("--data-dir", str(folder))),
                         ("office", ("--database", office, "--data-dir", str(desk)))):
        status, _, err = _cli(capsys, *flags, "register", "show", letter["id"], "--out",
                              str(tmp_path / f"{where}.pdf"))
        assert status == 0, err
    assert (tmp_path / "office.pdf").read_bytes() == (tmp_path / "folder.pdf").read_bytes()
    for name in ("office.toml", "seal.png"):  # the desk works from copies of them
        assert (desk / name).read_bytes() == (folder / name).read_bytes()


def _refused(capsys: pytest.CaptureFixture[str], office: str, desk: Path, source: Path,
             words: str) -> None:
    counts = _office_counts(office)
    before = _hashes(source) if source.is_dir() else None
    status, out, err = _import(capsys, office, desk, source)
    assert status == 2 and out is None
    message = err.strip()
    assert words in message and "nothing was copied" in message
    assert len(message.splitlines()) == 1 and message.count(". ") == 0, message
    assert _office_counts(office) == counts, "something was copied"
    if before is not None:
        assert _hashes(source) == before


def test_an_office_holding_records_is_refused(
        folder: Path, office: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _import(capsys, office, tmp_path / "desk", folder)[0] == 0
    _refused(capsys, office, tmp_path / "desk", folder, "already holds records (")
    _, _, err = _import(capsys, office, tmp_path / "desk", folder)
    assert "40 rows of parcels" in err


def test_a_laptops_folder_is_refused(folder: Path, office: str, tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    conn = sqlite3.connect(folder / "inspector.sqlite")
    conn.execute("INSERT INTO meta (key, value) VALUES ('sync_role', 'field')")
    conn.commit()
    conn.close()
    _refused(capsys, office, tmp_path / "desk", folder, "is a laptop's data folder")


def test_what_is_not_a_data_folder_is_refused(
        office: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _refused(capsys, office, tmp_path / "desk", tmp_path / "nowhere", "is not a folder")
    (tmp_path / "empty").mkdir()
    _refused(capsys, office, tmp_path / "desk", tmp_path / "empty",
             "is not a Watershed Inspector data folder")
    (tmp_path / "other").mkdir()
    sqlite3.connect(tmp_path / "other" / "inspector.sqlite").execute(
        "CREATE TABLE t (x)").connection.close()
    _refused(capsys, office, tmp_path / "desk", tmp_path / "other",
             "is not a Watershed Inspector database")


def test_a_newer_or_older_folder_is_refused(
        folder: Path, office: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    conn = sqlite3.connect(folder / "inspector.sqlite")
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    _refused(capsys, office, tmp_path / "desk", folder, "newer version")
    older = tmp_path / "older"
    older.mkdir()
    conn = sqlite3.connect(older / "inspector.sqlite")
    conn.executescript((FIXTURES / f"schema_v{SCHEMA_VERSION - 1}.sql").read_text("utf-8"))
    conn.close()
    _refused(capsys, office, tmp_path / "desk", older, "open it once with this version first")


def test_a_table_read_back_differently_rolls_back_everything(
        folder: Path, office: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    real = office_copy.office_rows

    def one_row_short(conn: Any, table: str) -> Iterator[tuple[Any, ...]]:
        rows = list(real(conn, table))
        return iter(rows[1:] if table == "inspections" else rows)

    monkeypatch.setattr(office_copy, "office_rows", one_row_short)
    counts = _office_counts(office)
    status, out, err = _import(capsys, office, tmp_path / "desk", folder)
    assert status == 1 and out is None
    assert "inspections read back differently" in err and "nothing was copied" in err
    assert _office_counts(office) == counts
    with psycopg.connect(office) as conn:  # its triggers are on again
        assert conn.execute("SELECT count(*) FROM pg_trigger WHERE NOT tgisinternal AND "
                            "tgenabled = 'D'").fetchone() == (0,)


def test_a_file_that_no_longer_matches_its_name_is_named_and_not_stored(
        folder: Path, office: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    digest = next(p for p in (folder / "attachments").rglob("*") if p.is_file())
    shutil.copy(digest, digest.with_name("0" * 64))
    (digest.parent.parent / "00").mkdir()
    shutil.move(digest.with_name("0" * 64), digest.parent.parent / "00" / ("0" * 64))
    status, out, err = _import(capsys, office, tmp_path / "desk", folder)
    assert status == 0, err
    assert out["files"]["damaged"] == [f"attachments/00/{'0' * 64}"]
    assert out["files"]["stored"] == 1


def test_a_photo_attached_at_one_desk_is_read_at_another_with_an_empty_folder(
        folder: Path, office: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from inspector_app.services.workspace import Workspace

    assert _import(capsys, office, tmp_path / "desk-a", folder)[0] == 0
    # the folder's photo, copied into the office, at a desk that never saw the folder
    with Workspace(tmp_path / "desk-b", user="j.haldane", database=office) as ws:
        (copied,) = ws.attachments(PHOTO_SBL)
        assert ws.attachment_path(copied["sha256"]).read_bytes() == _photo()
    # a new photo attached at desk A: in the database with its record, read at desk C
    new_photo = tmp_path / "lid.jpg"
    Image.new("RGB", (32, 32), (200, 10, 10)).save(new_photo, "JPEG")
    with psycopg.connect(office) as conn:
        top = conn.execute("SELECT max(seq) FROM change_log").fetchone()[0]  # type: ignore[index]
    status, added, err = _cli(capsys, "--user", "o.clerk", "--database", office,
                              "--data-dir", str(tmp_path / "desk-a"), "attach", PHOTO_SBL,
                              str(new_photo))
    assert status == 0, err
    with psycopg.connect(office) as conn:
        assert conn.execute("SELECT size_bytes FROM stored_files WHERE sha256 = %s",
                            (added["sha256"],)).fetchone() == (new_photo.stat().st_size,)
        # numbered after the folder's last change
        assert conn.execute("SELECT min(seq) FROM change_log WHERE seq > %s",
                            (top,)).fetchone() == (top + 1,)
    desk_c = tmp_path / "desk-c"
    with Workspace(desk_c, user="j.haldane", database=office) as ws:
        path = ws.attachment_path(added["sha256"])
        assert path.is_relative_to(desk_c)
        assert path.read_bytes() == new_photo.read_bytes()
        # a copy at a desk damaged: fetched again from the database
        path.write_bytes(b"not the photo")
        assert ws.attachment_path(added["sha256"]).read_bytes() == new_photo.read_bytes()
        # a file the database does not hold: a path that is not there
        assert not ws.attachment_path("f" * 64).exists()


def test_an_inspector_adds_files_and_a_town_reads_only_its_parcels(
        folder: Path, office: str, pg_cluster: Cluster, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    from inspector_app.services.workspace import Workspace

    assert _import(capsys, office, tmp_path / "desk", folder)[0] == 0
    name = office.split("?")[0].rsplit("/", 1)[-1]
    logins = {"inspector": f"{name}_insp", "canandaigua": f"{name}_cdga",
              "gorham": f"{name}_gorham"}
    for who, args in (("inspector", ("--role", "inspector")),
                      ("canandaigua", ("--role", "town", "--municipality",
                                       "Town of Canandaigua")),
                      ("gorham", ("--role", "town", "--municipality", "Town of Gorham"))):
        status, _, err = _cli(capsys, "--database", office, "office", "user", "add",
                              logins[who], *args)
        assert status == 0, err
    photo = tmp_path / "outlet.png"
    Image.new("RGB", (20, 20), (0, 90, 0)).save(photo, "PNG")
    status, added, err = _cli(capsys, "--database", pg_cluster.url(name, logins["inspector"]),
                              "--data-dir", str(tmp_path / "inspector"), "attach", PHOTO_SBL,
                              str(photo))
    assert status == 0, err
    for who, sees in (("canandaigua", True), ("gorham", False)):
        with Workspace(tmp_path / who, database=pg_cluster.url(name, logins[who])) as ws:
            found = ws.attachment_path(added["sha256"])
            assert found.exists() is sees, who
            if sees:
                assert found.read_bytes() == photo.read_bytes()
    with psycopg.connect(pg_cluster.url(name, logins["gorham"])) as conn, \
            pytest.raises(psycopg.errors.InsufficientPrivilege):
        conn.execute("INSERT INTO stored_files (sha256, bytes, size_bytes, stored_at) "
                     "VALUES (%s, %s, 1, 'now')", ("e" * 64, b"x"))


def test_the_folders_copies_of_imagery_are_named_where_they_lie(
        folder: Path, office: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    copies = sorted((folder / "basemaps").glob("*.tif"))
    assert copies, "the demo folder keeps its imagery as a copy"
    status, done, err = _import(capsys, office, tmp_path / "desk", folder)
    assert status == 0, err
    assert [Path(b["file"]) for b in done["basemaps_referred"]] == [
        p.resolve() for p in copies]
    status, listed, _ = _cli(capsys, "--database", office, "--data-dir",
                             str(tmp_path / "other-desk"), "basemap", "list")
    assert [(b["storage"], b["problem"]) for b in listed["basemaps"]] == [
        ("reference", None)]
