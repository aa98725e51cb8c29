"""The Help menu: the user guide (offline) and what this app and its data folder are."""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QMenu, QMessageBox, QWidget

from ...errors import InputError
from ..context import AppContext
from .common import add_action

if TYPE_CHECKING:
    from ..guide import GuideWindow


class HelpActions:
    """`switching()` says whether the window is opening another data folder (the one
    open is then not described); `layer_text()` names the active shoreline layer."""

    def __init__(self, ctx: AppContext, menu: QMenu, parent: QWidget, *,
                 switching: Callable[[], bool], layer_text: Callable[[], str]) -> None:
        self.ctx, self.parent = ctx, parent
        self._switching, self._layer_text = switching, layer_text
        self.guide: GuideWindow | None = None
        add_action(menu, "&User guide", self.show_guide, QKeySequence.StandardKey.HelpContents)
        add_action(menu, "&About Watershed Inspector", self.show_about)

    def show_guide(self) -> None:
        from ..guide import GuideWindow, guide_candidates, guide_path
        from ..window_keys import show_with_keys

        path = guide_path()
        if path is None:
            QMessageBox.warning(self.parent, "Watershed Inspector", "The user guide is missing "
                                "from this installation (looked for "
                                f"{', '.join(map(str, guide_candidates()))}); reinstall "
                                "the app.")
            return
        if self.guide is None:
            self.guide = GuideWindow(path, self.parent)
        show_with_keys(self.guide)

    def show_about(self) -> None:
        """The app's version, and what the open data folder says about itself (its laws
        are read on the worker first)."""
        ws = None if self._switching() else self.ctx.ws
        if ws is None:
            self._about(None, "")
            return

        def rules(laws: Any) -> str:
            return "; ".join(f"{j.title} for {', '.join(j.municipalities)}"
                             + (" (an example, not adopted law)" if j.example else "")
                             for j in laws.files)

        def unreadable(exc: BaseException) -> None:
            if not isinstance(exc, InputError):
                raise exc
            self._about(ws, f"the rules file cannot be read: {exc}")

        self.ctx.op(lambda: rules(ws.laws)).success(lambda text: self._about(ws, text)
                                                    ).failure(unreadable).run()

    def _about(self, ws: Any, rules_text: str) -> None:
        import platform

        from PySide6 import __version__ as pyside_version

        from ... import __version__

        parts = [f"<b>Watershed Inspector {__version__}</b>",
                 "<p>Field inspections of on-site wastewater treatment systems.</p>"]
        if ws is not None:
            facts = [f"Data folder: {ws.folder.root}",
                     f"Changes are recorded as: {ws.store.actor.user}",
                     f"This folder's device name: {ws.store.device_name}",
                     f"Rules: {rules_text}", self._layer_text()]
            parts.append("<p>" + "<br>".join(html.escape(f) for f in facts if f) + "</p>")
        parts.append(f"<p>Python {platform.python_version()}, PySide6 {pyside_version}</p>")
        QMessageBox.about(self.parent, "About Watershed Inspector", "".join(parts))
