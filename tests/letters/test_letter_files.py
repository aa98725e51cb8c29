"""A letter's file in the data folder exists only for a letter the register holds."""

from __future__ import annotations

import hashlib
import random
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from inspector_app.casefile import parse_document
from inspector_app.services.letters import register as letters
from inspector_app.services.letters import stored
from inspector_app.services.workspace import Workspace
from inspector_app.storage.records import RecordWriter
from tests.kill_points import kill_at, plan, points_of
from tests.suggestions import decide_pending

TODAY = date(2026, 11, 25)
SBL = "98.00-1-23.100"
FIXTURE = Path(__file__).parents[1] / "fixtures" / "full_case.json"


def _pdfs(root: Path) -> list[Path]:
    return sorted(p for p in (root / "letters").rglob("*.pdf") if not p.name.startswith("."))


def _unknown_files(ws: Workspace) -> list[str]:
    """Finished letter files the register does not hold with the same bytes."""
    held = {r["id"][:8]: r["sha256"] for r in letters.register(ws)}
    return [p.name for p in _pdfs(ws.folder.root)
            if held.get(p.stem.rsplit("-", 1)[1]) != hashlib.sha256(p.read_bytes()).hexdigest()]


def test_a_rolled_back_issue_leaves_no_letter_file(workspace: Workspace,
                                                   full_case: dict[str, Any],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    workspace.save_case(parse_document(full_case, source="case.json", today=TODAY),
                        today=TODAY)
    decide_pending(workspace, SBL, as_of=TODAY)

    def fail(self: RecordWriter) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(RecordWriter, "flush", fail)
    with pytest.raises(OSError):
        letters.issue(workspace, SBL, as_of=TODAY)
    monkeypatch.undo()
    assert letters.register(workspace) == []
    assert _pdfs(workspace.folder.root) == []
    (issued,) = letters.issue(workspace, SBL, as_of=TODAY)
    assert Path(issued.path).read_bytes() == letters.stored_pdf(workspace, issued.id)
    assert _unknown_files(workspace) == []


def test_a_letter_whose_file_cannot_be_written_is_still_issued(
        workspace: Workspace, full_case: dict[str, Any],
        monkeypatch: pytest.MonkeyPatch) -> None:
    workspace.save_case(parse_document(full_case, source="case.json", today=TODAY),
                        today=TODAY)
    decide_pending(workspace, SBL, as_of=TODAY)

    def full(path: Path, data: bytes) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(stored, "write_atomically", full)
    (issued,) = letters.issue(workspace, SBL, as_of=TODAY)
    assert [r["id"] for r in letters.register(workspace)] == [issued.id]
    assert any("could not be written (No space left on device)" in w for w in issued.warnings)
    monkeypatch.undo()
    assert letters.issued_copy(workspace, issued.id).read_bytes() == letters.stored_pdf(
        workspace, issued.id)


ISSUER = r"""
import json, sys
from tests import kill_points
kill_points.install()
from dataclasses import replace
from datetime import date, timedelta
from pathlib import Path
from inspector_app.casefile import parse_document
from inspector_app.services.letters import register as letters
from inspector_app.services.workspace import Workspace

ws = Workspace(Path(sys.argv[1]), user="crash-test")
today = date(2026, 11, 25)
if not ws.parcels():
    doc = json.loads(Path(sys.argv[2]).read_text("utf-8"))
    ws.save_case(parse_document(doc, source="case.json", today=today), today=today)
    for s in ws.evaluate_parcel("98.00-1-23.100", as_of=today).suggestions:
        ws.decide_suggestion("98.00-1-23.100", s.key, accept=False, as_of=today)
held = letters.register(ws)
replaced = {r["replaces"] for r in held}
in_force = [r["id"] for r in held if r["id"] not in replaced][-1:] or [None]
kill_points.start()
while True:  # the letter, then a correction of the letter in force, again and again
    # each correction a day later, after the owner's name was corrected: it changes something
    day = today + timedelta(days=len(held))
    if in_force[0] is not None:
        case = ws.load_case("98.00-1-23.100")
        ws.save_case(replace(case, parcel=replace(case.parcel,
                                                  owner_name=f"Owner No. {len(held)}")),
                     today=day)
    (issued,) = letters.issue(ws, "98.00-1-23.100", as_of=day, replaces=in_force[0])
    held.append({"id": issued.id})
    in_force = [issued.id]
    print("issued", issued.id, flush=True)
    kill_points.unit_done()
"""
# as many stops as an issue has write points (the register's statements and commit, the
# file's fsync and rename), and as many kills that let the issuer run on
KILLS = 14


@pytest.mark.slow
def test_sigkill_while_issuing_never_leaves_a_letter_the_register_lacks(
        tmp_path: Path) -> None:
    rng = random.Random(3)
    root = tmp_path / "data"
    reported: list[str] = []
    between = 0
    counts = points_of(["-c", ISSUER, str(tmp_path / "counted"), str(FIXTURE)], units=3)
    for point, pause in plan(counts, KILLS, rng):
        killed = kill_at(["-c", ISSUER, str(root), str(FIXTURE)], point, pause=pause)
        assert killed.point is not None, killed.stderr  # it issues until killed
        reported += [line.split()[1] for line in killed.lines]
        # stopped after the register holds a letter and before its file is in place
        between += pause and killed.point.startswith(("file: fsync", "file: before replace"))
        with Workspace(root, user="checker") as ws:
            assert _unknown_files(ws) == []
            held = {r["id"] for r in letters.register(ws)}
            assert set(reported) <= held, "a letter reported issued is not in the register"
    assert len(reported) > KILLS, "too few letters were issued between the kills"
    assert between, "no kill fell between a letter's commit and its file"
