"""Each inspection is a record with its own id: the form edits the inspection it shows (a
corrected date changes that inspection's date), one entered in error is marked so and stays
on record, and a case file is matched to an inspection by its id, else by its date."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from inspector_app.__main__ import main
from inspector_app.casefile import to_document
from inspector_app.domain.labels import history_lines
from inspector_app.errors import InputError
from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.parcel import inspections
from inspector_app.services.parcel.inspection_history import parcel_inspections
from inspector_app.services.workspace import Workspace

TODAY = date(2026, 11, 25)


@pytest.fixture
def demo(workspace: Workspace) -> Workspace:
    install_demo(workspace, count=30, today=TODAY)
    return workspace


def _with_two_inspections(ws: Workspace) -> str:
    for row in ws.parcels():
        if len(inspections.listed(ws, row["sbl"])) >= 2:
            return str(row["sbl"])
    raise AssertionError("the demo has a parcel inspected twice")


def _count(ws: Workspace, sbl: str) -> int:
    return len(inspections.listed(ws, sbl))


def test_correcting_the_date_changes_that_inspection_and_adds_none(demo: Workspace) -> None:
    """The issue's steps, through the form's save path: type another date, save; undo."""
    sbl = _with_two_inspections(demo)
    parcel_id, before, _ = demo.open_for_edit(sbl)
    assert before.inspection is not None and before.inspection.id is not None
    count = _count(demo, sbl)
    day = before.inspection.date
    corrected = replace(before, inspection=replace(before.inspection,
                                                   date=day.replace(day=day.day - 1)
                                                   if day.day > 1 else day.replace(day=2)))
    after, _ = demo.save_edit(parcel_id, before, corrected, today=TODAY)
    assert _count(demo, sbl) == count
    assert after.inspection is not None
    assert (after.inspection.id, after.inspection.date) == (before.inspection.id,
                                                            corrected.inspection.date)
    words = [line.change for line in history_lines(demo.history(sbl))]
    assert any(w.startswith("Inspection date:") for w in words)
    assert not any(f"Inspection of {corrected.inspection.date} added" in w for w in words)
    # undo: the edit the other way round
    undone, _ = demo.save_edit(parcel_id, after, before, today=TODAY)
    assert undone.inspection == before.inspection and _count(demo, sbl) == count


def test_a_correction_keeps_the_inspections_in_order(demo: Workspace) -> None:
    sbl = _with_two_inspections(demo)
    parcel_id, before, version = demo.open_for_edit(sbl)
    earlier = inspections.listed(demo, sbl)[-2]
    assert before.inspection is not None
    moved = replace(before, inspection=replace(
        before.inspection, date=date.fromisoformat(earlier["date"]).replace(day=1)))
    with pytest.raises(InputError, match="would move this inspection past the inspection of"):
        demo.save_edit(parcel_id, before, moved, today=TODAY)
    same = replace(before, inspection=replace(
        before.inspection, date=date.fromisoformat(earlier["date"])))
    with pytest.raises(InputError, match="the date of another inspection"):
        demo.save_edit(parcel_id, before, same, today=TODAY)
    assert demo.case_version(sbl) == version  # nothing written


def test_a_case_file_names_the_inspection_it_updates(demo: Workspace, tmp_path: Path) -> None:
    sbl = _with_two_inspections(demo)
    doc = to_document(demo.load_case(sbl))
    count = _count(demo, sbl)
    doc["inspection"]["date"] = "2026-11-24"
    path = tmp_path / "case.json"
    path.write_text(json.dumps(doc))
    demo.import_case_file(path, today=TODAY)
    assert _count(demo, sbl) == count  # the date was corrected, by the id
    del doc["inspection"]["id"]
    doc["inspection"]["date"] = "2026-11-25"
    path.write_text(json.dumps(doc))
    demo.import_case_file(path, today=TODAY)
    assert _count(demo, sbl) == count + 1  # no id, a date not on record: a new inspection
    path.write_text(json.dumps(doc))
    demo.import_case_file(path, today=TODAY)
    assert _count(demo, sbl) == count + 1  # the same date again: that inspection
    # an id from another data folder names nothing here: matched by date
    doc["inspection"]["id"] = "00000000-0000-4000-8000-000000000000"
    path.write_text(json.dumps(doc))
    demo.import_case_file(path, today=TODAY)
    assert _count(demo, sbl) == count + 1


def test_an_inspection_entered_in_error_is_kept_marked_and_undone(demo: Workspace) -> None:
    sbl = _with_two_inspections(demo)
    listed = inspections.listed(demo, sbl)
    latest, earlier = listed[-1], listed[-2]
    with pytest.raises(InputError, match="Say why"):
        inspections.mark_entered_in_error(demo, sbl, latest["id"], reason=" ")
    marked = inspections.mark_entered_in_error(demo, sbl, latest["id"],
                                               reason="entered on the wrong parcel")
    assert marked["entered_in_error"] and marked["why"] == "entered on the wrong parcel"
    case = demo.load_case(sbl)
    assert case.inspection is not None and case.inspection.id == earlier["id"]
    assert len(inspections.listed(demo, sbl)) == len(listed)  # still on record
    judged = {r.inspection_id for r in parcel_inspections(demo, demo.parcel_id(sbl))}
    assert latest["id"] not in judged and earlier["id"] in judged
    with pytest.raises(InputError, match="already marked"):
        inspections.mark_entered_in_error(demo, sbl, latest["id"], reason="again")
    restored = inspections.restore(demo, sbl, latest["id"])
    assert not restored["entered_in_error"]
    assert demo.load_case(sbl).inspection.id == latest["id"]  # type: ignore[union-attr]
    words = [line.change for line in history_lines(demo.history(sbl))]
    assert any("entered on the wrong parcel" in w for w in words)


def test_the_command_line_lists_marks_and_restores(demo: Workspace,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    sbl = _with_two_inspections(demo)
    root = str(demo.folder.root)
    demo.close()

    def run(*args: str) -> tuple[int, Any]:
        status = main(["--data-dir", root, *args])
        out = capsys.readouterr().out
        return status, json.loads(out) if out.strip() else None

    status, listed = run("inspection", "list", sbl)
    assert status == 0 and len(listed) >= 2 and all(i["id"] for i in listed)
    status, marked = run("inspection", "entered-in-error", sbl, listed[-1]["id"], "--reason",
                         "duplicate", "--as-of", "2026-11-25")
    assert status == 0 and marked["marked_on"] == "2026-11-25"
    assert run("inspection", "entered-in-error", sbl, "no-such-id", "--reason", "x")[0] == 2
    status, restored = run("inspection", "restore", sbl, listed[-1]["id"])
    assert status == 0 and not restored["entered_in_error"]
