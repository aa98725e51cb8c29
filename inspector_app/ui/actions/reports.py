"""The Reports menu: the program report to the Watershed Commission."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QMenu, QWidget

from ..context import AppContext
from .common import add_action

if TYPE_CHECKING:
    from ..reports import ProgramReportDialog


class ReportsActions:
    def __init__(self, ctx: AppContext, menu: QMenu, parent: QWidget) -> None:
        self.ctx, self.parent = ctx, parent
        self.program_report_dialog: ProgramReportDialog | None = None
        add_action(menu, "Program report...", self.show_program_report)

    def show_program_report(self) -> ProgramReportDialog:
        """Reports > Program report: the report to the Watershed Commission for a period,
        previewed, saved as a PDF, its inspections exported."""
        from ..reports import ProgramReportDialog
        from ..window_keys import show_with_keys

        shown = self.program_report_dialog
        if shown is not None and not shown.closed:
            shown.raise_()
            shown.activateWindow()
            return shown
        if shown is not None:
            shown.deleteLater()
        self.program_report_dialog = ProgramReportDialog(self.ctx, self.parent)
        show_with_keys(self.program_report_dialog)
        return self.program_report_dialog

    def close_report(self) -> None:
        """Another data folder is coming: the report's job, cancelled, lets nothing
        through to the switch."""
        report = self.program_report_dialog
        if report is not None and not report.closed:
            report.reject()
