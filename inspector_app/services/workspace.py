"""A data folder opened for work, with the use cases of one parcel as methods: the one
object the command line and the desktop app hold.

`Session` (services/session) is the folder itself and what every service below reads; this
adds, on top of every service, the parcel's use cases as methods, each a call into the
service that does it."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from ..domain.case import Case
from ..domain.rules import Decision, Evaluation, Suggestion, SuggestionStatus
from ..paths import USER_ENV
from .parcel import attachments as parcel_attachments
from .parcel import cases, evaluation
from .parcel.cases import CaseImportResult
from .parcel.decisions import Reversal
from .parcel.history import changes
from .reference.shorelines import ensure_default_layer
from .session.laws import NoLawFacts
from .session.session import Session, default_user, login_name, working_name

__all__ = ["USER_ENV", "CaseImportResult", "Workspace", "default_user", "login_name",
           "working_name"]


class Workspace(Session):
    """A data folder opened for work."""

    def __init__(self, root: Path, *, user: str | None = None,
                 clock: Callable[[], datetime] = lambda: datetime.now(UTC),
                 database: str | None = None) -> None:
        super().__init__(root, user=user, clock=clock, database=database)
        ensure_default_layer(self)

    def __enter__(self) -> Workspace:
        return self

    # --- cases -------------------------------------------------------------------------

    def import_case_file(self, path: Path, *, today: date | None = None) -> CaseImportResult:
        return cases.import_case_file(self, path, today=today)

    def save_case(self, case: Case, *, today: date | None = None) -> CaseImportResult:
        return cases.store_case(self, case, today=today)

    def save_edit(self, parcel_id: str, before: Case, after: Case, *,
                  today: date | None = None) -> tuple[Case, int]:
        return cases.save_edit(self, parcel_id, before, after, today=today)

    # --- rules -------------------------------------------------------------------------

    def evaluate_case(self, case: Case, *, as_of: date | None = None) -> Evaluation:
        return evaluation.evaluate_case(self, case, as_of=as_of)

    def assess_case(self, case: Case, *, as_of: date | None = None, **reuse: Any
                    ) -> Evaluation | NoLawFacts:
        return evaluation.assess_case(self, case, as_of=as_of, **reuse)

    def assess_parcel(self, sbl: str, *, as_of: date | None = None
                      ) -> Evaluation | NoLawFacts:
        return evaluation.assess_parcel(self, sbl, as_of=as_of)

    def evaluate_parcel(self, sbl: str, *, as_of: date | None = None) -> Evaluation:
        return evaluation.evaluate_parcel(self, sbl, as_of=as_of)

    def decisions(self, sbl: str) -> dict[str, SuggestionStatus]:
        return evaluation.decisions(self, sbl)

    def decision_records(self, sbl: str) -> dict[str, Decision]:
        return evaluation.decision_records(self, sbl)

    def decide_suggestion(self, sbl: str, key: str, *, accept: bool, note: str | None = None,
                          as_of: date | None = None) -> Suggestion:
        return evaluation.decide_suggestion(self, sbl, key, accept=accept, note=note,
                                            as_of=as_of)

    def reopen_suggestion(self, sbl: str, key: str) -> Reversal:
        return evaluation.reopen_suggestion(self, sbl, key)

    # --- history and attachments -------------------------------------------------------

    def history(self, sbl: str) -> list[dict[str, Any]]:
        return changes(self, sbl)

    def add_attachment(self, sbl: str, path: Path, *, caption: str | None = None,
                       inspection: str | None = None, component: str | None = None
                       ) -> dict[str, Any]:
        return parcel_attachments.add_attachment(self, sbl, path, caption=caption,
                                                 inspection=inspection, component=component)

    def annotate_photo(self, sbl: str, attachment_id: str, add: list[str], *,
                       clear: bool = False) -> dict[str, Any]:
        return parcel_attachments.annotate(self, sbl, attachment_id, add, clear=clear)

    def shown_photo(self, sbl: str, attachment_id: str, *, side_px: int) -> bytes:
        return parcel_attachments.shown_photo(self, sbl, attachment_id, side_px=side_px)

    def photo_size(self, sbl: str, attachment_id: str) -> tuple[int, int]:
        return parcel_attachments.photo_size(self, sbl, attachment_id)

    def attachments(self, sbl: str) -> list[dict[str, Any]]:
        return parcel_attachments.attachments(self, sbl)
