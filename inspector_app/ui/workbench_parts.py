"""What the workbench's helpers (the form's saves, the site map's edits) use of it, as a
protocol: they are made by the workbench and need not import it."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from PySide6.QtGui import QUndoStack
    from PySide6.QtWidgets import QLabel, QWidget

    from ..domain.case import Case
    from .context import AppContext
    from .forms import CaseForm
    from .site_map import SiteMap


class Writes(Protocol):
    """The writes of the open parcel on their way, and an edit saved again when undone or
    redone (`case_edits.CaseEdits`)."""

    def started(self) -> None: ...
    def landed(self, sbl: str, parcel_id: str, case: Case | None) -> None: ...
    def save_edit(self, parcel_id: str, before: Case, after: Case, *,
                  saved: Callable[[], None] | None = None,
                  refused: Callable[[], None] | None = None) -> None: ...
    def drop_obsolete(self) -> None: ...


class WorkbenchParts(Protocol):
    ctx: AppContext
    form: CaseForm
    site: SiteMap
    undo_stack: QUndoStack
    settings: Any
    problem: QLabel
    sbl: str | None
    parcel_id: str | None
    wanted: str | None

    @property
    def edits(self) -> Writes: ...
    @property
    def case(self) -> Case | None: ...
    def window(self) -> QWidget: ...
    def show_problem(self, text: str) -> None: ...
    def open_parcel(self, sbl: str) -> None: ...
    def refresh_parcel(self, sbl: str) -> None: ...
    def show_case(self, case: Case, *, same_record: bool = False) -> None: ...
    def load_failed(self, sbl: str, exc: BaseException) -> None: ...
