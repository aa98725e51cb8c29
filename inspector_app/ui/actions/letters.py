"""The Letters menu: every letter waiting to be printed, in one PDF with its labels."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QMenu, QWidget

from ..context import AppContext
from .common import add_action


class LettersActions:
    def __init__(self, ctx: AppContext, menu: QMenu, parent: QWidget, *,
                 issue_called_for: Callable[[], None]) -> None:
        self.ctx, self.parent = ctx, parent
        add_action(menu, "&Issue the letter called for...", issue_called_for, "Ctrl+L")
        add_action(menu, "&Print all pending letters...", self.print_pending, "Ctrl+P")

    def print_pending(self) -> None:
        from ...services.letters import register

        saved = self.ctx.files.save_file(self.parent, "letters", "All pending letters in one "
                                         "PDF", "letters-to-print.pdf", suffix=".pdf")
        ws = self.ctx.ws
        if not saved or ws is None:
            return
        path = saved[0]
        labels = Path(path).with_name(Path(path).stem + "-labels.pdf")

        def done(r: dict[str, Any]) -> None:
            self.ctx.say(f"{r['letters']} letter(s) in {r['path']}; labels in {r['labels']}"
                         if r["letters"] else "No letters are waiting to be printed.")

        self.ctx.op(lambda progress, cancelled: register.print_batch(
            ws, Path(path), labels=labels, progress=progress, cancelled=cancelled)).success(
            done).with_progress("Putting the pending letters together...", self.parent).run()
