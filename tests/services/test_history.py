"""A parcel's history shows every sync-conflict decision, including one that wrote nothing."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from inspector_app.casefile import parse_document, to_document
from inspector_app.domain.labels import history_lines
from inspector_app.services import exchange as sync
from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.parcel.history import parcel_history
from inspector_app.services.workspace import Workspace

TODAY = date(2026, 11, 25)
SBL = "900.01-1-3"


@dataclass
class Offices:
    office: Workspace
    field: Workspace
    tmp: Path


def _edit(ws: Workspace, change: Callable[[dict[str, Any]], None]) -> None:
    doc = to_document(ws.load_case(SBL))
    change(doc)
    ws.save_case(parse_document(json.loads(json.dumps(doc)), source="edit", today=TODAY),
                 today=TODAY)


@pytest.fixture
def pair(tmp_path: Path) -> Iterator[Offices]:
    office = Workspace(tmp_path / "office", user="clerk")
    install_demo(office, count=4, today=TODAY)
    sync.enroll(office, "laptop", tmp_path / "kit.zip", [SBL], passphrase="kit passphrase 1")
    sync.join(tmp_path / "field", tmp_path / "kit.zip", user="r.vance",
              passphrase="kit passphrase 1")
    field = Workspace(tmp_path / "field", user="r.vance")
    yield Offices(office, field, tmp_path)
    office.close()
    field.close()


def _removed_there_edited_here(pair: Offices) -> dict[str, Any]:
    """The laptop removes the last component; the office meanwhile edits its note."""
    _edit(pair.field, lambda d: d.__setitem__("components", d["components"][:-1]))
    sync.export(pair.field, pair.tmp / "up.zip")
    _edit(pair.office, lambda d: d["components"][-1].__setitem__("note", "checked again"))
    sync.import_package(pair.office, pair.tmp / "up.zip")
    (conflict,) = sync.conflicts(pair.office)
    assert conflict["field"].endswith("(deleted)")
    return conflict


def test_keeping_a_record_the_other_side_removed_is_in_the_history(pair: Offices) -> None:
    conflict = _removed_there_edited_here(pair)
    log_before = len(pair.office.history(SBL))
    sync.resolve(pair.office, conflict["id"], choice="keep_local")
    assert len(pair.office.history(SBL)) == log_before  # the decision wrote no change
    rows = parcel_history(pair.office, SBL)
    decision = rows[-1]
    assert (decision["op"], decision["user"]) == ("resolution", "clerk")
    assert decision["device"] == pair.office.store.device_name
    newest = history_lines(rows)[0]
    assert newest.op == "resolution"
    assert newest.change.startswith("Sync conflict resolved: ")
    assert newest.change == ("Sync conflict resolved: Absorption area kept; its removal by "
                             "r.vance on laptop was not applied")


def test_taking_the_removal_marks_the_removal_as_the_decision(pair: Offices) -> None:
    conflict = _removed_there_edited_here(pair)
    sync.resolve(pair.office, conflict["id"], choice="take_incoming")
    rows = parcel_history(pair.office, SBL)
    assert rows[-1]["op"] == "delete" and rows[-1]["resolution"]["choice"] == "take_incoming"
    assert len(rows) == len(pair.office.history(SBL))  # no row added: the removal is marked
    newest = history_lines(rows)[0]
    assert newest.change == ("Sync conflict resolved: Absorption area removed, as r.vance "
                             "on laptop had removed it")
