"""The program report counts the inspection requests of its parcels: received in the
period, answered by an inspection dated in it, and open past their due date at its end
(worked out by hand below)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from inspector_app.services.lists.program_report import program_report, program_report_pdf
from inspector_app.services.parcel.requests import add_request, cancel_request
from inspector_app.services.workspace import Workspace
from tests.services.program_fixture import CANANDAIGUA, TickingClock, case_doc

OK = [("septic_tank", "acceptable"), ("absorption_area", "acceptable")]


@pytest.fixture
def ws(tmp_path: Path) -> Iterator[Workspace]:
    """10-1-1 and 10-1-2 inspected 2024-01-10 and -11; on 2024-02-01 three requests: A (10-1-1, due
    2024-03-01), B (10-1-2, due 2024-02-10), C (10-1-1, due 2024-08-01); 10-1-1 inspected
    again 2024-02-20 (answering A and C, not B); D (10-1-2) requested 2024-05-01 and
    cancelled 2024-05-02."""
    clock = TickingClock(datetime(2024, 1, 1, tzinfo=UTC))
    opened = Workspace(tmp_path / "data", user="m.ortiz", clock=clock)

    def inspect(sbl: str, day: str) -> None:
        clock.day(date.fromisoformat(day))
        path = tmp_path / f"{sbl}-{day}.json"
        path.write_text(json.dumps(case_doc(sbl, CANANDAIGUA, day, "conveyance", OK,
                                            distance_ft=150)), "utf-8")
        opened.import_case_file(path)

    inspect("10-1-1", "2024-01-10")
    inspect("10-1-2", "2024-01-11")
    clock.day(date(2024, 2, 1))
    add_request(opened, "10-1-1", reason="conveyance", due=date(2024, 3, 1))
    add_request(opened, "10-1-2", reason="complaint", due=date(2024, 2, 10))
    add_request(opened, "10-1-1", reason="conveyance", due=date(2024, 8, 1))
    inspect("10-1-1", "2024-02-20")
    clock.day(date(2024, 5, 1))
    d = add_request(opened, "10-1-2", reason="complaint", due=date(2024, 7, 1))
    clock.day(date(2024, 5, 2))
    cancel_request(opened, d["id"], reason="complaint withdrawn")
    clock.day(date(2025, 1, 15))
    yield opened
    opened.close()


@pytest.mark.parametrize(("start", "end", "counted"), [
    ("2024-02-01", "2024-03-31", (3, 2, 1)),  # A, B, C received; A and C answered; B past
    ("2024-04-01", "2024-12-31", (1, 0, 1)),  # D received (then cancelled); B still past
    ("2023-01-01", "2024-01-31", (0, 0, 0)),  # before any request
    ("2024-02-01", "2024-02-10", (3, 0, 0)),  # B falls due on the last day: not yet past
])
def test_the_report_counts_requests_received_answered_and_open_past_due(
        ws: Workspace, start: str, end: str, counted: tuple[int, int, int]) -> None:
    figures = program_report(ws, date.fromisoformat(start), date.fromisoformat(end)).figures
    want = dict(zip(("received", "answered", "open_past_due_at_end"), counted, strict=True))
    assert figures["totals"]["requests"] == want
    assert figures["by_municipality"][CANANDAIGUA]["requests"] == want


def test_the_pdf_prints_the_request_counts(ws: Workspace) -> None:
    from pypdf import PdfReader

    report = program_report(ws, date(2024, 2, 1), date(2024, 3, 31))
    pdf = program_report_pdf(ws, report)
    path = ws.folder.root / "report.pdf"
    path.write_bytes(pdf)
    text = " ".join(" ".join((page.extract_text() or "").split())
                    for page in PdfReader(path).pages)
    assert "Inspection requests" in text
    assert "Answered by an inspection in the period" in text
    assert "Open and past due at the period's end" in text
