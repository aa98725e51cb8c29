"""The Sync menu: packages out and in, conflicts side by side, enrolling a laptop."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtWidgets import QInputDialog, QMenu, QMessageBox, QWidget

from ..context import AppContext
from .common import add_action

if TYPE_CHECKING:
    from ..dialogs import ConflictsDialog, EnrollDialog
    from ..fingerprint import FingerprintDialog
    from ..proposals import WaitingDialog


class SyncActions:
    """`reload()` lists the folder's parcels again after a package is applied."""

    def __init__(self, ctx: AppContext, menu: QMenu, parent: QWidget, *,
                 reload: Callable[[], None]) -> None:
        self.ctx, self.parent, self._reload = ctx, parent, reload
        self.fingerprint: FingerprintDialog | None = None  # shown after enrolling a laptop
        add_action(menu, "&Export a package...", self.export_package, "Ctrl+E")
        add_action(menu, "&Import a package...", self.import_package, "Ctrl+I")
        add_action(menu, "&Conflicts...", self.show_conflicts)
        add_action(menu, "&Waiting for a person (parcels from the field, changes kept "
                   "aside)...", self.show_waiting)
        add_action(menu, "E&nrol a laptop (field kit)...", self.enroll)

    def export_package(self) -> None:
        saved = self.ctx.files.save_file(self.parent, "sync packages", "Export a sync package "
                                         "(USB drive or shared folder)",
                                         "inspector-package.zip", suffix=".zip")
        ws = self.ctx.ws
        if not saved or ws is None:
            return
        path = saved[0]
        from ...services import exchange as sync

        def export(device: str | None) -> None:
            self.ctx.op(lambda: sync.export(ws, Path(path), device=device)).success(
                lambda r: self.ctx.say(f"Exported {r['changes']} change(s) to {r['path']}")
            ).run()

        def known(status: dict[str, Any]) -> None:
            # an office package is for one laptop: with several, the person names it
            laptops = [d["device"] for d in status.get("devices", []) if not d.get("revoked")]
            device = None
            if status["role"] == "office" and len(laptops) > 1:
                device, ok = QInputDialog.getItem(
                    self.parent, "Export a sync package", "The package is for the laptop "
                    "(it carries that laptop's parcels only):", laptops, 0, False)
                if not ok:
                    return
            export(device)

        self.ctx.op(lambda: sync.status(ws)).success(known).run()

    def import_package(self) -> None:
        from ...services import exchange as sync

        path = self.ctx.files.open_file(self.parent, "sync packages", "Import a sync package")
        ws = self.ctx.ws
        if path is not None and ws is not None:
            self.ctx.op(lambda progress, cancelled: sync.import_package(ws, path)
                        ).success(self._imported).with_progress(
                "Checking and applying the package...", self.parent).run()

    def _imported(self, result: dict[str, Any]) -> None:
        # Only conflicts still open once the whole package is in need a decision: one that
        # a later change in the same package settled (the other side's resolution, or its
        # coming round to the value here) does not.
        waiting = 0 if result["already_imported"] else int(result.get("open_conflicts", 0))
        if result["already_imported"]:
            text = "This package was imported before; nothing was applied again."
        else:
            text = (f"Applied {result['applied']} change(s); {waiting} conflict(s) need a "
                    "decision (Sync > Conflicts...)." if waiting else
                    f"Applied {result['applied']} change(s); no conflicts need a decision.")
            if result.get("held"):
                text += (f" {result['held']} change(s) were kept aside for a person (Sync > "
                         "Waiting for a person...).")
        self._reload()
        self.ctx.say(text)
        if not self.ctx.runner.synchronous:
            QMessageBox.information(self.parent, "Sync package imported", text)
        if waiting:
            self.show_conflicts()

    def show_conflicts(self) -> ConflictsDialog:
        from ..dialogs import ConflictsDialog

        dialog = ConflictsDialog(self.ctx, self.parent)
        if not self.ctx.runner.synchronous:
            dialog.exec()
        return dialog

    def show_waiting(self) -> WaitingDialog:
        from ..proposals import WaitingDialog

        dialog = WaitingDialog(self.ctx, self.parent)
        if not self.ctx.runner.synchronous:
            dialog.exec()
        return dialog

    def enroll(self) -> EnrollDialog:
        from ..dialogs import EnrollDialog

        dialog = EnrollDialog(self.ctx, self.parent, done=self._enrolled)
        if not self.ctx.runner.synchronous:
            dialog.exec()
        return dialog

    def _enrolled(self, result: dict[str, Any]) -> None:
        from ..fingerprint import show_fingerprint

        done = f"Field kit for {result['device']} written to {result['path']}."
        self.ctx.say(f"{done} Office key fingerprint: {result['office_fingerprint']}.")
        self.fingerprint = show_fingerprint(self.parent, done=done, enrolled=True,
                                            fingerprint=result["office_fingerprint"])
