"""The Records menu: the records that arrive from outside the office (§ 202-8): ETU
service reports and pump-out records sent in by providers, the template the office sends
out, the documents taken in, and the providers the office knows."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QInputDialog,
    QLabel,
    QMenu,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ..context import AppContext
from .common import add_action

if TYPE_CHECKING:
    from ...services.records.intake import IntakeResult
    from ..providers_dialog import ProvidersDialog
    from ..records_import import ImportRecordsDialog


class RecordsActions:
    """`imported(sbls)` shows the parcels whose records an import changed (the parcel
    list's work lists, the open parcel); `open_document(sha256)` opens a document taken in."""

    def __init__(self, ctx: AppContext, menu: QMenu, parent: QWidget, *,
                 imported: Callable[[list[str]], None],
                 open_document: Callable[[str], None]) -> None:
        self.ctx, self.parent = ctx, parent
        self._imported, self._open_document = imported, open_document
        self.import_dialog: ImportRecordsDialog | None = None
        self.providers_dialog: ProvidersDialog | None = None
        self.documents_dialog: DocumentsDialog | None = None
        add_action(menu, "&Import service reports...", self.import_reports)
        add_action(menu, "Write a &template...", self.write_template)
        add_action(menu, "&Documents received...", self.show_documents)
        menu.addSeparator()
        add_action(menu, "&Providers...", self.show_providers)

    def import_reports(self) -> ImportRecordsDialog:
        """Records > Import service reports: a provider's file, previewed, then stored."""
        from ..records_import import ImportRecordsDialog
        from ..window_keys import show_with_keys

        def imported(result: IntakeResult) -> None:
            self._imported(sorted({m["sbl"] for m in result.matched}))

        self.import_dialog = ImportRecordsDialog(self.ctx, self.parent, imported=imported)
        show_with_keys(self.import_dialog)
        return self.import_dialog

    def show_providers(self) -> ProvidersDialog:
        from ..providers_dialog import ProvidersDialog
        from ..window_keys import show_with_keys

        self.providers_dialog = ProvidersDialog(self.ctx, self.parent)
        show_with_keys(self.providers_dialog)
        return self.providers_dialog

    def write_template(self) -> None:
        """Records > Write a template: the file the office sends providers to fill in."""
        from ..records_import import KINDS

        labels = list(KINDS.values())
        chosen, ok = QInputDialog.getItem(self.parent, "Write a template",
                                          "Template for:", labels, 0, False)
        if not ok:
            return
        kind = next(k for k, v in KINDS.items() if v == chosen)
        picked = self.ctx.files.save_file(self.parent, "templates", "Save the template",
                                          f"{kind}-template.xlsx")
        if not picked:
            return
        path, which = picked
        if not path.suffix:
            path = path.with_suffix(".csv" if which.startswith("CSV") else ".xlsx")
        self.write_template_to(kind, path)

    def write_template_to(self, kind: str, path: Any) -> None:
        from ...services.records.provider_files import write_template

        self.ctx.op(lambda: write_template(kind, path)).success(
            lambda done: self.ctx.say(f"Wrote the template to {done['path']} (columns: "
                                      f"{', '.join(done['columns'])}).")).run()

    def show_documents(self) -> DocumentsDialog | None:
        """Records > Documents received: the files taken in, by SHA-256."""
        from ...services.records.intake import received_documents
        from ..window_keys import show_with_keys

        ws = self.ctx.ws
        if ws is None:
            return None
        self.documents_dialog = DocumentsDialog(self.parent, self._open_document)

        def shown(rows: list[dict[str, Any]]) -> None:
            if self.documents_dialog is not None:
                self.documents_dialog.show_rows(rows)

        self.ctx.op(lambda: received_documents(ws)).success(shown).run()
        show_with_keys(self.documents_dialog)
        return self.documents_dialog


DOCUMENT_COLUMNS = ("Received on", "File", "Kind", "Rows stored", "Refused", "Imported by",
                    "SHA-256")


class DocumentsDialog(QDialog):
    """The providers' files taken in; double-click (or Enter) opens one."""

    def __init__(self, parent: QWidget | None, open_document: Callable[[str], None]) -> None:
        super().__init__(parent)
        self.setWindowTitle("Documents received")
        self.rows: list[dict[str, Any]] = []
        about = QLabel("Each file a provider sent, as taken in: kept by its SHA-256 and "
                       "named by every record made from it. Double-click one to open it.")
        about.setWordWrap(True)
        self.table = QTableWidget(0, len(DOCUMENT_COLUMNS))
        self.table.setHorizontalHeaderLabels(list(DOCUMENT_COLUMNS))
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.itemActivated.connect(
            lambda item: open_document(self.rows[item.row()]["sha256"]))
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        close.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(about)
        layout.addWidget(self.table, 1)
        layout.addWidget(close)
        self.resize(900, 360)

    def show_rows(self, rows: list[dict[str, Any]]) -> None:
        from ..records_import import KINDS

        self.rows = rows
        self.table.setRowCount(len(rows))
        for r, d in enumerate(rows):
            for c, text in enumerate((d["received_on"], d["filename"],
                                      KINDS.get(d["kind"], d["kind"]), str(d["records"]),
                                      str(d["refused"]), d["imported_by"], d["sha256"])):
                item = QTableWidgetItem(str(text))
                item.setToolTip(str(text))
                self.table.setItem(r, c, item)
