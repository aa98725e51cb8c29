"""The app's attestation: a signature drawn on the pad (or a scan chosen), recorded for the
report of findings; a refusal shows in the dialog's red bar and records nothing."""

from __future__ import annotations

import hashlib
from datetime import date
from pathlib import Path
from typing import Any

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QDialog
from pytestqt.qtbot import QtBot

from inspector_app.casefile import parse_document
from inspector_app.services.letters import register as letters
from inspector_app.services.workspace import Workspace
from inspector_app.ui.attestation import AttestDialog
from inspector_app.ui.context import AppContext
from inspector_app.ui.tasks import TaskRunner
from tests.attesting import signature_png
from tests.suggestions import decide_pending

TODAY = date(2026, 11, 25)
SBL = "98.00-1-23.100"


def _dialog(qtbot: QtBot, workspace: Workspace, full_case: dict[str, Any]) -> AttestDialog:
    workspace.save_case(parse_document(full_case, source="case.json", today=TODAY),
                        today=TODAY)
    decide_pending(workspace, SBL, as_of=TODAY)
    dialog = AttestDialog(AppContext(workspace, TaskRunner(synchronous=True)), SBL)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.name.setText("Pat Quinlan")
    dialog.number.setText("OTN 20417")
    return dialog


def _recorded(ws: Workspace) -> int:
    return int(ws.store.conn.execute("SELECT count(*) FROM attestations").fetchone()[0])


def test_a_signature_drawn_on_the_pad_is_recorded_and_printed(
        qtbot: QtBot, workspace: Workspace, full_case: dict[str, Any]) -> None:
    dialog = _dialog(qtbot, workspace, full_case)
    dialog.submit()  # nothing drawn yet
    assert dialog.problem.isVisible() and "Sign on the pad" in dialog.problem.text()
    assert _recorded(workspace) == 0
    pad = dialog.pad
    qtbot.mousePress(pad, Qt.MouseButton.LeftButton, pos=QPoint(30, 80))
    for x in range(40, 360, 20):
        qtbot.mouseMove(pad, QPoint(x, 80 + (25 if (x // 20) % 2 else -25)))
    qtbot.mouseRelease(pad, Qt.MouseButton.LeftButton, pos=QPoint(360, 80))
    assert not pad.is_blank()
    png = pad.png()
    dialog.submit()
    assert dialog.result() == QDialog.DialogCode.Accepted, dialog.problem.text()
    assert dialog.done_with is not None and dialog.done_with["signature_source"] == "drawn"
    assert dialog.done_with["signature_sha256"] == hashlib.sha256(png).hexdigest()
    letters.issue(workspace, SBL, ["report_of_findings"], as_of=TODAY)
    (row,) = letters.register(workspace, SBL)
    assert row["signature_sha256"] == hashlib.sha256(png).hexdigest()


def test_a_scan_that_is_not_an_image_is_refused_in_the_red_bar(
        qtbot: QtBot, workspace: Workspace, full_case: dict[str, Any],
        tmp_path: Path) -> None:
    dialog = _dialog(qtbot, workspace, full_case)
    notes = tmp_path / "signature.png"
    notes.write_text("not an image", "utf-8")
    dialog.use_scan(notes)
    dialog.submit()
    assert dialog.problem.isVisible()
    assert f"{notes}: is not a PNG or JPEG image" in dialog.problem.text()
    dialog.use_scan(tmp_path)
    dialog.submit()
    assert f"{tmp_path}: is a folder, not a signature image file." == dialog.problem.text()
    assert _recorded(workspace) == 0 and dialog.result() != QDialog.DialogCode.Accepted
    scan = tmp_path / "scan.png"
    scan.write_bytes(signature_png())
    dialog.use_scan(scan)
    dialog.number.setText("")
    dialog.submit()
    assert "licence number is blank" in dialog.problem.text()
    dialog.number.setText("OTN 20417")
    dialog.submit()
    assert dialog.result() == QDialog.DialogCode.Accepted
    assert dialog.done_with is not None and dialog.done_with["signature_file"] == "scan.png"


def test_an_inspection_from_a_certified_inspectors_laptop_is_attested_as_enrolled(
        qtbot: QtBot, workspace: Workspace, full_case: dict[str, Any],
        tmp_path: Path) -> None:
    from inspector_app.casefile import to_document
    from inspector_app.services import exchange as sync

    workspace.save_case(parse_document(full_case, source="case.json", today=TODAY),
                        today=TODAY)
    from inspector_app.services.reference.providers import add_provider

    add_provider(workspace, kind="inspector", name="R. Private", number="12345")
    kit, secret = tmp_path / "private.wikit", "kit passphrase 1"
    sync.enroll(workspace, "private-1", kit, [SBL], passphrase=secret,
                inspector="R. Private", certification="12345")
    sync.join(tmp_path / "laptop", kit, user="anyone", passphrase=secret)
    with Workspace(tmp_path / "laptop") as laptop:  # the clock the enrolment was made by
        doc = to_document(laptop.load_case(SBL))
        doc["inspection"].pop("id")
        doc["inspection"].update(date="2026-11-22", inspector="R. Private",
                                 inspector_certification="12345")
        laptop.save_case(parse_document(doc, source="edit", today=TODAY), today=TODAY)
        sync.export(laptop, tmp_path / "up.zip")
    sync.import_package(workspace, tmp_path / "up.zip")
    decide_pending(workspace, SBL, as_of=TODAY)

    dialog = AttestDialog(AppContext(workspace, TaskRunner(synchronous=True)), SBL)
    qtbot.addWidget(dialog)
    dialog.show()
    assert (dialog.name.text(), dialog.number.text()) == ("R. Private", "12345")
    assert dialog.name.isReadOnly() and dialog.number.isReadOnly()
    assert dialog.kind.currentData() == "certified_inspector" and not dialog.kind.isEnabled()
    scan = tmp_path / "scan.png"
    scan.write_bytes(signature_png())
    dialog.use_scan(scan)
    dialog.submit()
    assert dialog.result() == QDialog.DialogCode.Accepted, dialog.problem.text()
    assert dialog.done_with is not None
    assert (dialog.done_with["name"], dialog.done_with["number"]) == ("R. Private", "12345")
