"""The report of findings is attested (Chapter 202, Article III): who, as what, their
number, the day and a signature image; issuing is refused without one in force, and the
register keeps the signature's SHA-256 with the letter."""

from __future__ import annotations

import hashlib
import io
import json
import sqlite3
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from inspector_app.__main__ import main
from inspector_app.casefile import parse_document
from inspector_app.errors import InputError
from inspector_app.services.letters import attestation as attestations
from inspector_app.services.letters import register as letters
from inspector_app.services.workspace import Workspace
from tests.attesting import attest_report, signature_png
from tests.letters.test_letters import text_of
from tests.suggestions import decide_pending

TODAY = date(2026, 11, 25)
SBL = "98.00-1-23.100"
REPORT = "report_of_findings"


@pytest.fixture
def inspected(workspace: Workspace, full_case: dict[str, Any]) -> Workspace:
    workspace.save_case(parse_document(full_case, source="case.json", today=TODAY),
                        today=TODAY)
    decide_pending(workspace, SBL, as_of=TODAY)
    return workspace


def _counts(ws: Workspace) -> tuple[int, ...]:
    conn = ws.store.conn
    return tuple(conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
                 for t in ("attestations", "letters", "change_log"))


def _images(pdf: bytes) -> int:
    return sum(len(page.images) for page in PdfReader(io.BytesIO(pdf)).pages)


def test_a_report_without_an_attestation_is_refused_and_nothing_changes(
        inspected: Workspace) -> None:
    before = _counts(inspected)
    with pytest.raises(InputError) as refused:
        letters.issue(inspected, SBL, [REPORT], as_of=TODAY)
    assert str(refused.value) == (
        f"Parcel {SBL}: no report_of_findings can be issued: the inspection of November 20, "
        "2026 is not attested by a design professional or a certified inspector; record the "
        f"attestation with `inspector-app attest {SBL} --name NAME --kind "
        "design_professional|certified_inspector --number NUMBER --signature FILE`.")
    assert "inspector-app" not in refused.value.in_app  # type: ignore[attr-defined]
    assert "Attest... on the Letters tab" in refused.value.in_app  # type: ignore[attr-defined]
    assert _counts(inspected) == before
    draft = text_of(letters.draft_pdf(inspected, SBL, REPORT, as_of=TODAY))
    assert "NOT ISSUABLE: the inspection of November 20, 2026 is not attested" in draft
    assert "Not attested." in draft


def test_an_attested_report_carries_the_attestation_and_the_register_its_digest(
        inspected: Workspace) -> None:
    signature = signature_png()
    done = attest_report(inspected, SBL, on=TODAY, name="Dana Whitfield, P.E.",
                         kind="design_professional", number="PE 089123", signature=signature)
    digest = hashlib.sha256(signature).hexdigest()
    assert done["signature_sha256"] == digest
    assert inspected.attachment_path(digest).read_bytes() == signature
    (issued,) = letters.issue(inspected, SBL, [REPORT], as_of=TODAY)
    (row,) = letters.register(inspected, SBL)
    assert (row["attestation_id"], row["signature_sha256"]) == (done["id"], digest)
    pdf = letters.stored_pdf(inspected, issued.id)
    text = text_of(pdf)
    for said in ("Attestation", "I attest that this report describes the elements of the "
                 "system, the tests performed and the distances measured as recorded for "
                 "the inspection of November 20, 2026.", "Dana Whitfield, P.E.",
                 "Design professional, licence no. PE 089123",
                 "Attested on November 25, 2026", f"Signature image SHA-256 {digest}"):
        assert said in text, said
    assert "Not attested" not in text
    assert _images(pdf) >= 1  # the signature is drawn on the page
    # an issued letter's attestation never changes
    with inspected.store.transaction() as w, pytest.raises(sqlite3.IntegrityError,
                                                           match="cannot be changed"):
        w.conn.execute("UPDATE letters SET signature_sha256 = ? WHERE id = ?",
                       ("0" * 64, issued.id))
    with pytest.raises(sqlite3.IntegrityError, match="attestation cannot be changed"):
        inspected.store.conn.execute("UPDATE attestations SET attester_number = 'x'")
    with pytest.raises(sqlite3.IntegrityError, match="attestation cannot be deleted"):
        inspected.store.conn.execute("DELETE FROM attestations")


def test_records_changed_after_the_attestation_need_a_new_one(inspected: Workspace) -> None:
    first = attest_report(inspected, SBL, on=TODAY)
    case = inspected.load_case(SBL)
    from dataclasses import replace

    assert case.inspection is not None
    inspected.save_case(replace(case, inspection=replace(case.inspection, note="re-read")),
                        today=TODAY)
    with pytest.raises(InputError, match="the records changed after Pat Quinlan attested the "
                                         "inspection of November 20, 2026 .on 2026-11-25., so "
                                         "it must be attested again"):
        letters.issue(inspected, SBL, [REPORT], as_of=TODAY)
    listed = attestations.attestations(inspected, SBL)
    assert [(a["id"], a["in_force"], a["recorded_by"]) for a in listed] == [
        (first["id"], False, "k.olmsted")]
    second = attest_report(inspected, SBL, on=TODAY)
    assert [a["in_force"] for a in attestations.attestations(inspected, SBL)] == [False, True]
    letters.issue(inspected, SBL, [REPORT], as_of=TODAY)
    assert letters.register(inspected, SBL)[0]["attestation_id"] == second["id"]


@pytest.mark.parametrize(("change", "message"), [
    ({"kind": "surveyor"}, "'surveyor' is not a kind of attesting person; the kinds are "
                           "design_professional, certified_inspector"),
    ({"name": "  "}, "The attesting person's name is blank"),
    ({"number": " "}, "Pat Quinlan's certification number is blank"),
    ({"name": "K.  Olmsted", "number": "OTN 2218"},
     "K. Olmsted is recorded as the inspector with certification 'OTN 2217', not 'OTN 2218'"),
    ({"on": date(2026, 11, 19)}, "The attestation date 2026-11-19 is before the inspection "
                                 "it attests .2026-11-20."),
    ({"on": date(2026, 11, 26)}, "The attestation date 2026-11-26 is after today"),
    ({"signature": signature_png(ink=(250, 250, 250))},
     "signature.png: shows no signature .the image is blank."),
    ({"signature": b"%PDF-1.4 not a picture"}, "signature.png: is not a PNG or JPEG image"),
])
def test_an_attestation_wanting_anything_is_refused(inspected: Workspace,
                                                    change: dict[str, Any],
                                                    message: str) -> None:
    before = _counts(inspected)
    with pytest.raises(InputError, match=message):
        attest_report(inspected, SBL, **change)
    assert _counts(inspected) == before


def test_the_inspector_own_number_is_accepted_as_written_either_way(
        inspected: Workspace) -> None:
    done = attest_report(inspected, SBL, name="K. Olmsted", number="2217")
    assert done["number"] == "2217"


def test_a_gif_is_not_a_signature(inspected: Workspace) -> None:
    from PIL import Image

    out = io.BytesIO()
    Image.new("L", (100, 40), 0).save(out, "GIF")
    with pytest.raises(InputError, match="is a GIF image; a signature must be a PNG or JPEG"):
        attest_report(inspected, SBL, signature=out.getvalue())


def _cli(folder: Path, *args: str) -> int:
    return main(["--user", "clerk", "--data-dir", str(folder), *args])


def test_the_command_line_attests_and_refuses_files_it_cannot_use(
        inspected: Workspace, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    folder = inspected.folder.root
    inspected.close()
    good = tmp_path / "sig.png"
    good.write_bytes(signature_png())
    text = tmp_path / "notes.png"
    text.write_text("not an image", "utf-8")
    base = ["attest", SBL, "--name", "Pat Quinlan", "--kind", "certified_inspector",
            "--number", "OTN 20417", "--on", "2026-11-24"]
    capsys.readouterr()
    for path, said in ((tmp_path, f"{tmp_path}: is a folder, not a file; give the path of "
                                  "the signature image itself, inside that folder."),
                       (tmp_path / "none.png", f"{tmp_path / 'none.png'}: no such signature "
                                               "image; check its name"),
                       (text, f"{text}: is not a PNG or JPEG image (or it is damaged)")):
        assert _cli(folder, *base, "--signature", str(path)) == 2
        err = capsys.readouterr().err
        assert said in err and err.count("\n") == 1, err
    real_open = Path.open

    def denied(self: Path, *a: Any, **k: Any) -> Any:
        if self == good:
            raise PermissionError(13, "Permission denied", str(self))
        return real_open(self, *a, **k)

    monkeypatch.setattr(Path, "open", denied)
    assert _cli(folder, *base, "--signature", str(good)) == 2
    assert f"{good}: cannot be read (permission denied)." in capsys.readouterr().err
    monkeypatch.undo()
    assert _cli(folder, "attestations", SBL) == 0
    assert json.loads(capsys.readouterr().out) == []
    assert _cli(folder, *base, "--signature", str(good), "--drawn") == 0
    done = json.loads(capsys.readouterr().out)
    assert (done["signature_source"], done["signature_file"], done["attested_on"]) == (
        "drawn", "sig.png", "2026-11-24")
    assert done["signature_sha256"] == hashlib.sha256(good.read_bytes()).hexdigest()
    assert _cli(folder, "register", "issue", SBL, "--kind", REPORT, "--as-of",
                "2026-11-25") == 0
    capsys.readouterr()
    assert _cli(folder, "register", "list", SBL) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert row["signature_sha256"] == done["signature_sha256"]
    assert row["attestation_id"] == done["id"]


def test_a_report_dated_before_its_attestation_is_refused(inspected: Workspace) -> None:
    attest_report(inspected, SBL, on=TODAY)
    with pytest.raises(InputError, match="its attestation by Pat Quinlan is dated 2026-11-25, "
                                         "after the report's date 2026-11-24"):
        letters.issue(inspected, SBL, [REPORT], as_of=date(2026, 11, 24))
    assert letters.register(inspected, SBL) == []
