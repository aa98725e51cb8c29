"""The documents taken in from providers, as the records that name them show them: the file
name by SHA-256 (the form's tables and the history), a copy to open under its own name, and
what the form's tables mark (late reports, units not certified functional, lapsed
contracts). On the demo of Friday, December 4, 2026, taken in the next day."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from inspector_app.domain.labels import history_lines
from inspector_app.errors import InputError
from inspector_app.services.records.documents import (
    case_documents,
    document_copy,
    history_documents,
    named,
    record_facts,
)
from inspector_app.services.records.intake import import_records
from inspector_app.services.workspace import Workspace
from tests.services.test_outside_records import ETU, REP, TANKS, _csv, ws

__all__ = ["ws"]  # the fixture, used by name

HAULER = "8-3230-00114"


def _import(ws: Workspace, tmp_path: Path) -> tuple[str, str]:
    etu = _csv(tmp_path / "weaver-november.csv", "etu-service", [
        [ETU[0], "2026-11-20", REP, "Norweco Singulair 960", "yes", "2027-11-30",
         "2026-11-24"],
        [ETU[1], "2026-11-02", REP, "Jet 1500", "no", "2026-12-20", "2026-11-25"]])
    tank = _csv(tmp_path / "bristol.csv", "pump-out", [
        [TANKS[0], "2026-11-28", "1000", HAULER, "2026-12-01"]])
    import_records(ws, etu, "etu-service")
    import_records(ws, tank, "pump-out")
    return (hashlib.sha256(etu.read_bytes()).hexdigest(),
            hashlib.sha256(tank.read_bytes()).hexdigest())


def test_a_case_names_its_documents_and_the_office_knows_their_file_names(
        ws: Workspace, tmp_path: Path) -> None:
    etu_sha, tank_sha = _import(ws, tmp_path)
    case = ws.load_case(ETU[1])
    assert case_documents(case) == [etu_sha]
    assert case_documents(ws.load_case(TANKS[0])) == [tank_sha]
    found = named(ws, [etu_sha, tank_sha, "0" * 64, "not a sha"])
    assert {sha: d["filename"] for sha, d in found.items()} == {
        etu_sha: "weaver-november.csv", tank_sha: "bristol.csv"}
    assert found[etu_sha]["received_on"] == "2026-12-05"
    assert found[etu_sha]["records"] == 2
    facts = record_facts(ws, case)
    assert facts["documents"].keys() == {etu_sha}
    assert facts["etu_report_within_days"] == 10  # the demo's law
    assert isinstance(facts["record_within_days"], int)


def test_a_copy_to_open_under_its_own_name_holds_the_bytes_taken_in(
        ws: Workspace, tmp_path: Path) -> None:
    etu_sha, _ = _import(ws, tmp_path)
    copy = document_copy(ws, etu_sha)
    assert copy.name.endswith("weaver-november.csv")
    assert copy.read_bytes() == (tmp_path / "weaver-november.csv").read_bytes()
    with pytest.raises(InputError, match="No document with SHA-256 000000000000"):
        document_copy(ws, "0" * 64)


@pytest.mark.sqlite_only
def test_a_stored_file_that_no_longer_matches_is_not_opened(
        ws: Workspace, tmp_path: Path) -> None:
    etu_sha, _ = _import(ws, tmp_path)
    ws.attachment_path(etu_sha).write_bytes(b"changed")
    with pytest.raises(InputError, match="no longer matches its SHA-256"):
        document_copy(ws, etu_sha)


def test_the_history_names_the_document_by_its_file_name(ws: Workspace,
                                                         tmp_path: Path) -> None:
    etu_sha, _ = _import(ws, tmp_path)
    rows = ws.history(ETU[1])
    documents = history_documents(ws, rows)
    assert documents == {etu_sha: "weaver-november.csv"}
    said = [line.change for line in history_lines(rows, documents=documents)]
    assert any(f"Report received as: weaver-november.csv (SHA-256 {etu_sha[:12]}" in s
               for s in said), said
    bare = [line.change for line in history_lines(rows)]
    assert any(etu_sha in s for s in bare) and not any("weaver-november.csv" in s
                                                         for s in bare)


def test_a_files_kind_is_the_template_whose_columns_it_names(tmp_path: Path) -> None:
    from inspector_app.services.records.provider_files import kind_of

    assert kind_of(_csv(tmp_path / "a.csv", "etu-service", [])) == "etu-service"
    assert kind_of(_csv(tmp_path / "b.csv", "pump-out", [])) == "pump-out"
    (tmp_path / "c.csv").write_text("sbl,service_date\n900.01-1-8,2026-11-20\n", "utf-8")
    assert kind_of(tmp_path / "c.csv") is None
    (tmp_path / "d.csv").write_text("", "utf-8")
    assert kind_of(tmp_path / "d.csv") is None
