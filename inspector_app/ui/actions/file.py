"""The File menu: data folders and office databases, case files, reference layers
(shoreline, imagery, tax-parcel lines), measuring every parcel, a field kit, backups."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QMenu, QProgressDialog, QWidget

from ...errors import InputError
from ..context import AppContext
from .common import add_action

if TYPE_CHECKING:
    from ..data_folders import DataFolders
    from ..imports import LotReportDialog
    from ..office_databases import OfficeDatabases
    from ..workbench import Workbench


def call_with_progress(fn: Callable[..., Any], *args: Any, progress: Any, cancelled: Any,
                       **kwargs: Any) -> Any:
    """`fn(*args, **kwargs)`, passing progress and cancelled when it takes them."""
    params = inspect.signature(fn).parameters
    if "progress" in params:
        kwargs["progress"] = progress
    if "cancelled" in params:
        kwargs["cancelled"] = cancelled
    return fn(*args, **kwargs)


class FileActions:
    """`reload(then)` lists the folder's parcels again (then calls `then`); `select(sbl)`
    opens a parcel in the list; `show_layer()` says which shoreline layer is active;
    `refresh_overview()` works the work lists out again; `who_is_working()` asks who is
    working."""

    def __init__(self, ctx: AppContext, menu: QMenu, parent: QWidget, *,
                 folders: DataFolders, offices: OfficeDatabases, workbench: Workbench,
                 reload: Callable[[Callable[[], None] | None], None],
                 select: Callable[[str], None], show_layer: Callable[[], None],
                 refresh_overview: Callable[[], None],
                 who_is_working: Callable[[], None]) -> None:
        self.ctx, self.parent, self.wb = ctx, parent, workbench
        self._reload, self._select = reload, select
        self._show_layer, self._refresh_overview = show_layer, refresh_overview
        self.lot_report: LotReportDialog | None = None
        add_action(menu, "&Open data folder...", folders.open_folder)
        add_action(menu, "&New data folder...", folders.new_folder)
        menu.addMenu(folders.recent_menu)
        add_action(menu, "&Connect to office database...", offices.ask)
        menu.addMenu(offices.recent_menu)
        add_action(menu, "Who is &working...", who_is_working)
        menu.addSeparator()
        add_action(menu, "&Import case file...", self.import_case, "Ctrl+O")
        add_action(menu, "&Export case file...", self.export_case)
        add_action(menu, "Save (automatic)", self.confirm_saved, QKeySequence.StandardKey.Save)
        add_action(menu, "Import shoreline &layer...", self.import_layer)
        add_action(menu, "Import aerial &imagery...", self.import_imagery)
        add_action(menu, "Import &tax-parcel lines...", self.import_lot_lines)
        add_action(menu, "&Measure all parcels on the active layer", self.measure_all)
        add_action(menu, "Set up this laptop from a field &kit...", folders.join_kit)
        add_action(menu, "Back up the database now", self.backup)
        menu.addSeparator()
        add_action(menu, "&Quit", parent.close, QKeySequence.StandardKey.Quit)

    def _ws(self) -> Any:
        assert self.ctx.ws is not None  # the menus are off while no data folder is open
        return self.ctx.ws

    def _refresh_open_parcel(self) -> None:
        if self.wb.sbl:
            self.wb.refresh_parcel(self.wb.sbl)

    # --- case files -------------------------------------------------------------------

    def import_case(self) -> None:
        path = self.ctx.files.open_file(self.parent, "case files", "Import a case file")
        if not path:
            return
        ws, day = self._ws(), self.ctx.today()

        def done(result: Any) -> None:
            self.ctx.say(f"Imported {result.sbl}")
            self._reload(lambda: self._select(result.sbl))

        self.ctx.op(lambda: ws.import_case_file(path, today=day)).success(done).run()

    def export_case(self) -> None:
        case = self.wb.case
        if case is None:
            return
        saved = self.ctx.files.save_file(self.parent, "case files", "Export the case file",
                                         f"{case.parcel.sbl}.json", suffix=".json")
        if saved:
            path = saved[0]
            from ... import casefile

            Path(path).write_text(casefile.dumps(case), "utf-8")
            self.ctx.say(f"Exported {path}")

    def confirm_saved(self) -> None:
        if self.wb.built:
            self.wb.edits.confirm_saved()
        else:
            self.ctx.say("All changes are saved: every field is saved as you leave it.")

    # --- reference layers -------------------------------------------------------------

    def import_layer(self) -> None:
        """File > Import shoreline layer: the file, whether it lies far from the lake
        (checked on the worker first), then its name and declared accuracy."""
        from ...services.reference.shorelines import far_layer

        path = self.ctx.files.open_file(self.parent, "shoreline layers", "Shoreline layer")
        if not path:
            return
        ws = self._ws()
        self.ctx.op(lambda: far_layer(ws, path)).success(
            lambda far: self._declare_layer(path, far)).run()

    def _declare_layer(self, path: Path, far: Any) -> None:
        from .. import imports

        if far is not None and not imports.confirm_far_layer(self.parent, far.in_app):
            self.ctx.say(f"{path.name} was not imported.")
            return
        declared = imports.ask_shoreline_layer(path, self.parent)
        if declared is None:
            return
        name, accuracy = declared
        self.run_layer_import(path, name=name, accuracy_ft=accuracy, far_ok=far is not None)

    def run_layer_import(self, path: Path, *, name: str, accuracy_ft: float,
                         far_ok: bool = False) -> None:
        """Import a shoreline layer on the worker; one that lies far from the law's water
        body or from every parcel is imported only when the user says so."""
        from ...services.reference.shorelines import FarLayer, import_layer
        from ..imports import confirm_far_layer

        ws = self._ws()

        def done(layer: dict[str, Any]) -> None:
            far = " (imported although far: confirmed by you)" if layer["far_confirmed"] else ""
            self.ctx.say(f"{layer['name']} v{layer['version']} (±{layer['accuracy_ft']} ft) "
                         f"is now the active shoreline layer{far}; earlier layers and their "
                         "measurements are kept.")
            self._show_layer()
            self._refresh_open_parcel()
            self._refresh_overview()

        def failed(exc: BaseException) -> None:
            if isinstance(exc, FarLayer) and not far_ok:
                if confirm_far_layer(self.parent, exc.in_app):
                    self.run_layer_import(path, name=name, accuracy_ft=accuracy_ft,
                                          far_ok=True)
                else:
                    self.ctx.say(f"{path.name} was not imported.")
                return
            self.ctx.error(exc)

        self.ctx.op(lambda: import_layer(ws, path, name=name, accuracy_ft=accuracy_ft,
                                         far_ok=far_ok)).success(done).failure(failed).run()

    def import_imagery(self) -> None:
        """File > Import aerial imagery: a file, then its name, copy or reference, source and
        date; the import runs on the worker with a progress bar and Cancel."""
        from ..imports import IMAGERY_FILTER, ImageryImportDialog

        path = self.ctx.files.open_file(self.parent, "imagery", "Aerial imagery", IMAGERY_FILTER)
        if not path:
            return
        dialog = ImageryImportDialog(path, self.parent, today=self.ctx.today())
        if dialog.exec() != ImageryImportDialog.DialogCode.Accepted:
            return
        self.run_imagery_import(path, **dialog.values())

    def run_imagery_import(self, path: Path, *, name: str, copy: bool,
                           source: str | None = None, captured_on: Any = None
                           ) -> QProgressDialog | None:
        from ...services.reference import basemaps

        ws = self._ws()

        def work(progress: Callable[[int, int], None], cancelled: Callable[[], bool]) -> Any:
            if cancelled():
                raise InputError(f"The import of {path.name} was cancelled; nothing was "
                                 "imported.")
            return call_with_progress(basemaps.import_basemap, ws, path, progress=progress,
                                      cancelled=cancelled, name=name, copy=copy,
                                      source=source, captured_on=captured_on)

        def done(result: dict[str, Any]) -> None:
            how = "copied into the data folder" if copy else f"referred to at {path}"
            label = result.get("label") or result.get("name") or name
            self.ctx.say(f"Imagery {label} imported ({how}) and shown on the site maps.")
            self._refresh_open_parcel()

        op = self.ctx.op(work).success(done).with_progress(f"Importing {path.name}...",
                                                           self.parent)
        op.run()
        return op.progress_dialog

    def import_lot_lines(self) -> None:
        """File > Import tax-parcel lines: a file, then its name and SBL field; the report
        says how many lots matched parcels, and which did not and why."""
        from ..imports import LOTS_FILTER, LotsImportDialog

        path = self.ctx.files.open_file(self.parent, "lot lines", "Tax-parcel lines",
                                        LOTS_FILTER)
        if not path:
            return
        dialog = LotsImportDialog(path, self.parent)
        if dialog.exec() != LotsImportDialog.DialogCode.Accepted:
            return
        self.run_lots_import(path, **dialog.values())

    def run_lots_import(self, path: Path, *, name: str | None = None,
                        sbl_field: str | None = None, source: str | None = None
                        ) -> QProgressDialog | None:
        from ...services.reference import lot_lines as lots

        ws = self._ws()

        def work(progress: Callable[[int, int], None], cancelled: Callable[[], bool]) -> Any:
            return lots.import_lot_lines(ws, path, name=name, sbl_field=sbl_field,
                                         source=source, progress=progress,
                                         cancelled=cancelled)

        def done(report: dict[str, Any]) -> None:
            from ..imports import LotReportDialog

            unmatched = len(report.get("unmatched") or [])
            self.ctx.say(f"Tax-parcel lines: {report.get('matched', 0):,} of "
                         f"{report.get('features', 0):,} lot(s) matched a parcel; "
                         f"{unmatched:,} did not (see the report).")
            self.lot_report = LotReportDialog(report, self.parent)
            self.lot_report.show()
            self._refresh_open_parcel()

        op = self.ctx.op(work).success(done).with_progress(f"Importing {path.name}...",
                                                           self.parent)
        op.run()
        return op.progress_dialog

    # --- every parcel; the database -----------------------------------------------------

    def measure_all(self) -> None:
        from ...services.parcel.measure_all import measure_parcels

        ws, day = self._ws(), self.ctx.today()

        def done(r: dict[str, Any]) -> None:
            self.ctx.say(f"Measured {r['parcels']} parcel(s) on {r['layer']}: "
                         f"{r['new_measurements']} new distance(s) kept")

        self.ctx.op(lambda progress, cancelled: measure_parcels(
            ws, None, today=day, progress=progress, cancelled=cancelled)).success(
            done).with_progress("Measuring every parcel on the layer...", self.parent).run()

    def backup(self) -> None:
        ws = self._ws()
        self.ctx.op(lambda: ws.store.backup_now()).success(
            lambda path: self.ctx.say(f"Backed up to {path}")).run()
