"""A seeded soak run of the desktop app: hundreds of user actions in one process.

Run it in a child process (`python -X faulthandler tests/ui/soak_driver.py ...`) so that a
crash ends only the child. It starts the app exactly as `inspector-app --data-dir D` does
(the real worker thread, the app's own error hook) and, once the parcels are listed,
drives the visible, enabled widgets with QtTest: clicks on parcel rows and tabs, typing
into the form's fields and leaving them with Tab, Shift+Tab or Enter, wheel turns over
combo boxes, spin boxes and date fields that do not have the focus, picking combo items,
selecting components, the Edit menu's Undo and Redo, and harmless buttons. Nothing that
prints, issues, imports, exports, deletes, removes or quits is touched, and neither is
anything that opens a file dialog.

Every action has its own random generator, derived from the seed and its number, so a
seed replays the same choices while the window looks the same. Each action is written to
the log before it runs (the last line names the action a crash happened in), every SBL
the run selected is appended to the `--selected` file as soon as it is selected, and the
last line on stdout is a JSON summary. The exit status is the app's, or 3 when the run saw
an uncaught exception or a message box that names an internal error.
"""

from __future__ import annotations

import argparse
import faulthandler
import json
import os
import random
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

DENY_WORDS = ("print", "issue", "import", "export", "delete", "remove", "erase", "purge",
              "quit", "exit", "close", "open", "save", "browse", "send", "e-mail", "upload",
              "back up", "backup", "restore", "measure all", "gps", "type", "join", "enrol",
              "resolve", "accept", "reject", "sign")
HANG_SECONDS = 30
EXIT_SECONDS = 15

# Plausible entries with a few edge cases, as an inspector's fingers produce them.
NUMBERS = ("0", "1", "2", "3", "4", "5", "12", "150", "180.5", "1500", "2400", "-1", "99999",
           "1e9", "abc", "", " 7 ", "3,5", "0.0")
WORDS = ("Smith", "Olmsted", "12 Lake Rd", "Canandaigua", "Town of Gorham", "NY 14424",
         "sunny, 60 °F", "rain", "k.olmsted", "CERT-2231", "none", "ä ö ü", "O'Brien",
         "x" * 80, "", "   ", "555-0134", "someone@example.org", "2026-11-03", "2026-02-30",
         "yesterday", "42")
LINES = ("dye, pass, 150, 30", "hydraulic_load, fail, 400, 120", "dye, maybe", "ponding",
         "sewage odor near the leach field", "2026-05-01, 2026-05-20", "2026-05-01,",
         "2025-09-12, yes", "2025-09-12, no", "not a date, yes", "roof drain",
         "patio over the absorption area", "Ann Renter | 4 Elm St | Geneva, NY 14456",
         "Bob | ", "", "line one\nline two")
DATES = ("20261103", "20250101", "19990615", "20301231", "00000000", "2026")


def _words(text: str) -> list[str]:
    return text.replace("&", "").casefold().replace("...", " ").split()


def denied(*texts: str) -> bool:
    """Whether a button or menu item with these texts (label, tooltip, name) is off-limits."""
    for text in texts:
        flat = " ".join(_words(text))
        if not flat:
            continue
        if text.rstrip().endswith("...") or text.rstrip().endswith("…"):
            return True  # opens a dialog: a file, a printer, a form of its own
        for word in DENY_WORDS:
            if flat.startswith(word) or f" {word}" in f" {flat}":
                return True
    return False


class Soak:
    def __init__(self, args: argparse.Namespace) -> None:
        from PySide6.QtCore import QTimer

        self.args = args
        self.seed = args.seed
        self.total = args.actions
        self.done = 0
        self.window: Any = None
        self.failures: list[str] = []
        self.notes: list[str] = []
        self.message_boxes: list[str] = []
        self.wheel_changed = 0
        self.kinds: dict[str, int] = {}
        self.selected: list[str] = []
        self.log = open(args.log, "a", encoding="utf-8") if args.log else None  # noqa: SIM115
        Path(args.selected).write_text("", "utf-8")
        self.started = time.monotonic()
        self.finishing = False
        self.busy_since: float | None = None
        self.current = "start"
        # Message boxes and other modal dialogs run their own event loop inside the
        # action that opened them; this timer answers them from inside that loop.
        self.modal_timer = QTimer()
        self.modal_timer.setInterval(60)
        self.modal_timer.timeout.connect(self.answer_modals)
        self.modal_timer.start()

    # --- bookkeeping ------------------------------------------------------------------

    def say(self, text: str) -> None:
        if self.log is not None:
            self.log.write(text + "\n")
            self.log.flush()

    def fail(self, text: str) -> None:
        self.failures.append(text)
        print(f"soak: FAIL {text}", file=sys.stderr, flush=True)

    def note_selected(self) -> None:
        w = self.window
        for sbl in (getattr(w, "sbl", None), getattr(getattr(w, "case", None), "parcel",
                                                     None)):
            value = sbl if isinstance(sbl, str) else getattr(sbl, "sbl", None)
            if value and value not in self.selected:
                self.selected.append(value)
                with open(self.args.selected, "a", encoding="utf-8") as f:
                    f.write(value + "\n")

    # --- start ------------------------------------------------------------------------

    def wait_for_window(self) -> None:
        from PySide6.QtCore import QTimer
        from PySide6.QtWidgets import QApplication

        from inspector_app.ui.main_window import MainWindow

        if self.window is None:
            for w in QApplication.topLevelWidgets():
                if isinstance(w, MainWindow):
                    self.window = w
        w = self.window
        ready = (w is not None and w.workspace is not None and w.centralWidget().isEnabled()
                 and w.model.rowCount() > 0 and not w.runner.pending)
        if not ready:
            if time.monotonic() - self.started > 60:
                self.fail("the window did not list the parcels within 60 s")
                QApplication.exit(3)
                return
            QTimer.singleShot(50, self.wait_for_window)
            return
        app_hook = sys.excepthook  # the app's own: prints the traceback, shows a box

        def hook(kind: Any, exc: Any, tb: Any) -> None:
            self.fail(f"uncaught {kind.__name__} during {self.current}: {exc}")
            app_hook(kind, exc, tb)

        sys.excepthook = hook
        w.activateWindow()
        w.raise_()
        self.say(f"soak: seed {self.seed}, {self.total} actions, "
                 f"{w.model.rowCount()} parcels")
        QTimer.singleShot(100, self.step)

    # --- the loop ---------------------------------------------------------------------

    def step(self) -> None:
        from PySide6.QtCore import Qt, QTimer
        from PySide6.QtTest import QTest
        from PySide6.QtWidgets import QApplication

        if self.finishing:
            return
        faulthandler.dump_traceback_later(HANG_SECONDS, exit=True)
        if QApplication.activeModalWidget() is not None:
            QTimer.singleShot(50, self.step)
            return
        w = self.window
        # Wait for the worker's answer before the next action, as a user mostly does; after
        # 3 s act anyway, as an impatient one does.
        if w.runner.pending:
            now = time.monotonic()
            self.busy_since = self.busy_since or now
            if now - self.busy_since < 3.0:
                QTimer.singleShot(10, self.step)
                return
        self.busy_since = None
        popup = QApplication.activePopupWidget()
        if popup is not None:  # a list or menu left open: Escape closes it
            QTest.keyClick(popup, Qt.Key.Key_Escape)
        if QApplication.activeWindow() is not w:
            w.activateWindow()
        if self.done >= self.total:
            self.finish()
            return
        n = self.done + 1
        rng = random.Random(f"{self.seed}:{n}")
        self.note_selected()
        kind, action = self.choose(rng)
        self.kinds[kind] = self.kinds.get(kind, 0) + 1
        self.current = f"#{n} {kind}"
        self.say(f"#{n} {kind}")
        try:
            what = action(rng)
        except Exception as exc:  # a widget vanished under the action: note, carry on
            what = f"skipped ({type(exc).__name__}: {exc})"
            self.notes.append(f"#{n} {kind}: {what}")
        self.say(f"#{n}   {what}")
        self.done = n
        self.note_selected()
        QTimer.singleShot(rng.randint(5, 40), self.step)

    def finish(self) -> None:
        from PySide6.QtWidgets import QApplication

        self.finishing = True
        self.note_selected()
        faulthandler.cancel_dump_traceback_later()
        self.say(f"soak: {self.done} actions in {time.monotonic() - self.started:.1f} s; "
                 "closing the window")
        # From here on the app must exit by itself; if it does not, say where it hangs.
        faulthandler.dump_traceback_later(EXIT_SECONDS, exit=True)
        self.window.close()
        for other in QApplication.topLevelWidgets():
            if other.isVisible() and other is not self.window:
                other.close()

    # --- choosing ---------------------------------------------------------------------

    def choose(self, rng: random.Random) -> tuple[str, Callable[[random.Random], str]]:
        actions: list[tuple[str, int, Callable[[random.Random], str]]] = [
            ("row", 14, self.click_row),
            ("row-keys", 4, self.row_keys),
            ("tab", 8, self.click_tab),
            ("type", 30, self.type_into_field),
            ("wheel", 10, self.wheel_unfocused),
            ("combo", 8, self.pick_combo_item),
            ("component", 8, self.click_component),
            ("undo", 5, lambda r: self.edit_menu(r, "undo")),
            ("redo", 4, lambda r: self.edit_menu(r, "redo")),
            ("undo-keys", 2, self.undo_keys),
            ("checkbox", 3, self.click_checkbox),
            ("button", 4, self.click_button),
            ("search", 2, self.search),
        ]
        kinds = [a[0] for a in actions]
        weights = [a[1] for a in actions]
        kind = rng.choices(kinds, weights)[0]
        return kind, dict((a[0], a[2]) for a in actions)[kind]

    def visible(self, cls: Any) -> list[Any]:
        """The visible, enabled widgets of a class in the main window, in a stable order."""
        w = self.window
        return [x for x in w.findChildren(cls)
                if x.isVisible() and x.isEnabled() and x.window() is w]

    @staticmethod
    def scroll_area(widget: Any) -> Any:
        from PySide6.QtWidgets import QScrollArea

        parent = widget.parentWidget()
        while parent is not None:
            if isinstance(parent, QScrollArea):
                return parent
            parent = parent.parentWidget()
        return None

    def bring_into_view(self, widget: Any) -> None:
        area = self.scroll_area(widget)
        if area is not None:
            area.ensureWidgetVisible(widget, 20, 20)  # as a user scrolls the page

    @staticmethod
    def name(widget: Any) -> str:
        """A widget by class and label, for the log."""
        from PySide6.QtWidgets import QFormLayout, QGroupBox

        label = ""
        parent = widget.parentWidget()
        layout = parent.layout() if parent is not None else None
        if isinstance(layout, QFormLayout):
            for row in range(layout.rowCount()):
                field = layout.itemAt(row, QFormLayout.ItemRole.FieldRole)
                if field is not None and field.widget() is widget:
                    item = layout.itemAt(row, QFormLayout.ItemRole.LabelRole)
                    if item is not None and item.widget() is not None:
                        label = item.widget().text()
        group = ""
        while parent is not None:
            if isinstance(parent, QGroupBox):
                group = parent.title()
                break
            parent = parent.parentWidget()
        text = label or getattr(widget, "text", lambda: "")()
        return f"{type(widget).__name__} '{text}'" + (f" in '{group}'" if group else "")

    # --- actions ----------------------------------------------------------------------

    def click_row(self, rng: random.Random) -> str:
        from PySide6.QtCore import Qt
        from PySide6.QtTest import QTest

        table = self.window.table
        model = table.model()
        if not model.rowCount():
            return self.search_clear()
        row = rng.randrange(model.rowCount())
        index = model.index(row, rng.randrange(max(model.columnCount(), 1)))
        table.scrollTo(index)
        rect = table.visualRect(index)
        self.say(f"#{self.done + 1}   clicking parcel row {row} ({model.index(row, 0).data()})")
        QTest.mouseClick(table.viewport(), Qt.MouseButton.LeftButton,
                         Qt.KeyboardModifier.NoModifier, rect.center())
        return f"parcel row {row} ({model.index(row, 0).data()})"

    def row_keys(self, rng: random.Random) -> str:
        from PySide6.QtCore import Qt
        from PySide6.QtTest import QTest

        table = self.window.table
        if not table.hasFocus():
            self.click_row(rng)
        keys = [rng.choice((Qt.Key.Key_Down, Qt.Key.Key_Up, Qt.Key.Key_PageDown,
                            Qt.Key.Key_Home)) for _ in range(rng.randint(1, 4))]
        for key in keys:
            QTest.keyClick(table, key)
        return "keys " + ",".join(Qt.Key(k).name.removeprefix("Key_") for k in keys)

    def click_tab(self, rng: random.Random) -> str:
        from PySide6.QtCore import Qt
        from PySide6.QtTest import QTest
        from PySide6.QtWidgets import QTabBar

        bars = [b for b in self.visible(QTabBar) if b.count()]
        if not bars:
            return "no tab bar"
        bar = rng.choice(bars)
        index = 0 if rng.random() < 0.4 else rng.randrange(bar.count())
        if not bar.isTabEnabled(index):
            return f"tab {bar.tabText(index)!r} is disabled"
        QTest.mouseClick(bar, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                         bar.tabRect(index).center())
        return f"tab {bar.tabText(index)!r}"

    def fields(self) -> list[Any]:
        from PySide6.QtWidgets import (
            QAbstractSpinBox,
            QComboBox,
            QLineEdit,
            QPlainTextEdit,
        )

        found = []
        for x in self.visible(QLineEdit):
            if x.isReadOnly() or isinstance(x.parentWidget(), QAbstractSpinBox | QComboBox):
                continue
            if x is self.window.search:
                continue  # the search box has an action of its own
            found.append(x)
        found += [x for x in self.visible(QAbstractSpinBox) if not x.isReadOnly()]
        found += [x for x in self.visible(QPlainTextEdit) if not x.isReadOnly()]
        return found

    def type_into_field(self, rng: random.Random) -> str:
        from PySide6.QtCore import QPoint, Qt
        from PySide6.QtTest import QTest
        from PySide6.QtWidgets import (
            QAbstractSpinBox,
            QApplication,
            QDateTimeEdit,
            QPlainTextEdit,
        )

        fields = self.fields()
        if not fields:
            return self.click_tab(rng)
        field = rng.choice(fields)
        self.bring_into_view(field)
        # Click into the text, clear of a spin box's arrows.
        QTest.mouseClick(field, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                         QPoint(min(12, field.width() // 3), field.height() // 2))
        focus = QApplication.focusWidget()
        if focus is None:
            return f"{self.name(field)} took no focus"
        if isinstance(field, QDateTimeEdit):
            text = rng.choice(DATES)
        elif isinstance(field, QAbstractSpinBox):
            text = rng.choice(NUMBERS)
        elif isinstance(field, QPlainTextEdit):
            text = rng.choice(LINES)
        else:
            placeholder = field.placeholderText().casefold()
            if "yyyy" in placeholder:
                text = rng.choice(("2026-11-03", "2025-06-30", "2026-13-01", "soon", ""))
            else:
                text = rng.choice(WORDS + NUMBERS)
        if rng.random() < 0.8:  # replace what is there; otherwise add to it
            QTest.keyClick(focus, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
        for n, line in enumerate(text.split("\n")):
            if n:
                QTest.keyClick(QApplication.focusWidget() or focus, Qt.Key.Key_Return)
            if line:
                type_text(QApplication.focusWidget() or focus, line)
        leave = rng.choice(("Tab", "Tab", "Shift+Tab", "Enter"))
        if leave == "Enter" and isinstance(field, QPlainTextEdit):
            leave = "Tab"
        target = QApplication.focusWidget()
        if target is not None:
            self.say(f"#{self.done + 1}   typed {text!r} into {self.name(field)}; "
                     f"leaving with {leave}")
            if leave == "Tab":
                QTest.keyClick(target, Qt.Key.Key_Tab)
            elif leave == "Shift+Tab":
                QTest.keyClick(target, Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier)
            else:
                QTest.keyClick(target, Qt.Key.Key_Return)
        return f"typed {text!r} into {self.name(field)}, then {leave}"

    def wheel_unfocused(self, rng: random.Random) -> str:
        from PySide6.QtCore import QPoint, QPointF, Qt
        from PySide6.QtGui import QWheelEvent
        from PySide6.QtWidgets import QAbstractSpinBox, QApplication, QComboBox

        widgets = [x for x in self.visible(QComboBox) + self.visible(QAbstractSpinBox)
                   if not x.hasFocus()]
        if not widgets:
            return "nothing to wheel over"
        widget = rng.choice(widgets)
        self.bring_into_view(widget)
        before = self.value(widget)
        notches = rng.choice((-1, 1, -2, 3))
        pos = QPointF(widget.width() / 2, widget.height() / 2)
        event = QWheelEvent(pos, QPointF(widget.mapToGlobal(pos.toPoint())), QPoint(0, 0),
                            QPoint(0, 120 * notches), Qt.MouseButton.NoButton,
                            Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)
        name = self.name(widget)
        self.say(f"#{self.done + 1}   wheel {notches:+d} over {name}")
        QApplication.sendEvent(widget, event)
        after = self.value(widget)
        if after != before:
            self.wheel_changed += 1
            return f"wheel {notches:+d} over {name}: CHANGED {before!r} -> {after!r}"
        return f"wheel {notches:+d} over {name}: unchanged"

    @staticmethod
    def value(widget: Any) -> Any:
        from PySide6.QtWidgets import QComboBox

        try:
            return widget.currentText() if isinstance(widget, QComboBox) else widget.text()
        except RuntimeError:
            return None  # deleted by the event

    def pick_combo_item(self, rng: random.Random) -> str:
        from PySide6.QtCore import Qt
        from PySide6.QtTest import QTest
        from PySide6.QtWidgets import QComboBox

        combos = [c for c in self.visible(QComboBox) if c.count()]
        if not combos:
            return "no combo box"
        combo = rng.choice(combos)
        self.bring_into_view(combo)
        name = self.name(combo)
        index = rng.randrange(combo.count())
        QTest.mouseClick(combo, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                         combo.rect().center())
        view = combo.view()
        if view.isVisible():
            # In the open list, walk to the item with the arrow keys and press Enter (a
            # mouse release this soon after the list opened is ignored, as Qt intends).
            self.say(f"#{self.done + 1}   picking item {index} ({combo.itemText(index)!r}) "
                     f"in {name}")
            steps = index - combo.currentIndex()
            key = Qt.Key.Key_Down if steps > 0 else Qt.Key.Key_Up
            for _ in range(abs(steps)):
                QTest.keyClick(view, key)
            QTest.keyClick(view, Qt.Key.Key_Return)
            if view.isVisible():
                QTest.keyClick(view, Qt.Key.Key_Escape)
            return f"picked item {index} ({combo.itemText(index)!r}) in {name}"
        # No list opened: choose with the keyboard, as on a focused combo box.
        key = rng.choice((Qt.Key.Key_Down, Qt.Key.Key_Up))
        QTest.keyClick(combo, key)
        return f"{Qt.Key(key).name} in {name}"

    def click_component(self, rng: random.Random) -> str:
        from PySide6.QtCore import Qt
        from PySide6.QtTest import QTest

        table = getattr(getattr(self.window, "form", None), "components", None)
        if table is None or not table.isVisible() or not table.rowCount():
            return self.click_tab(rng)
        self.bring_into_view(table)
        row = rng.randrange(table.rowCount())
        index = table.model().index(row, rng.randrange(table.columnCount()))
        table.scrollTo(index)
        self.say(f"#{self.done + 1}   clicking component row {row}")
        QTest.mouseClick(table.viewport(), Qt.MouseButton.LeftButton,
                         Qt.KeyboardModifier.NoModifier, table.visualRect(index).center())
        return f"component row {row} ({table.model().index(row, 0).data()})"

    def edit_menu(self, rng: random.Random, which: str) -> str:
        from PySide6.QtWidgets import QMenu

        for menu in self.window.menuBar().findChildren(QMenu):
            if menu.title().replace("&", "").casefold() != "edit":
                continue
            for action in menu.actions():
                text = action.text().replace("&", "")
                if text.casefold().startswith(which):
                    if not action.isEnabled():
                        return f"Edit > {text} is disabled"
                    self.say(f"#{self.done + 1}   Edit > {text}")
                    action.trigger()  # what choosing it in the open menu does
                    return f"Edit > {text}"
        return f"no Edit > {which}"

    def undo_keys(self, rng: random.Random) -> str:
        from PySide6.QtCore import Qt
        from PySide6.QtTest import QTest
        from PySide6.QtWidgets import QApplication

        target = QApplication.focusWidget() or self.window
        key = rng.choice((Qt.Key.Key_Z, Qt.Key.Key_Y))
        QTest.keyClick(target, key, Qt.KeyboardModifier.ControlModifier)
        return f"Ctrl+{Qt.Key(key).name.removeprefix('Key_')} in {type(target).__name__}"

    def click_checkbox(self, rng: random.Random) -> str:
        from PySide6.QtCore import Qt
        from PySide6.QtTest import QTest
        from PySide6.QtWidgets import QCheckBox

        boxes = [b for b in self.visible(QCheckBox) if not denied(b.text(), b.toolTip())]
        if not boxes:
            return "no check box"
        box = rng.choice(boxes)
        self.bring_into_view(box)
        self.say(f"#{self.done + 1}   clicking {self.name(box)}")
        QTest.mouseClick(box, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                         box.rect().center())
        return f"clicked {self.name(box)}"

    def click_button(self, rng: random.Random) -> str:
        from PySide6.QtCore import Qt
        from PySide6.QtTest import QTest
        from PySide6.QtWidgets import QPushButton

        buttons = [b for b in self.visible(QPushButton)
                   if not denied(b.text(), b.toolTip(), b.objectName())]
        if not buttons:
            return "no button that may be pressed"
        button = rng.choice(buttons)
        self.bring_into_view(button)
        text = button.text()
        self.say(f"#{self.done + 1}   pressing {text!r}")
        QTest.mouseClick(button, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                         button.rect().center())
        return f"button {text!r}"

    def search(self, rng: random.Random) -> str:
        from PySide6.QtCore import Qt
        from PySide6.QtTest import QTest

        box = self.window.search
        model = self.window.model
        if box.text() or rng.random() < 0.3:
            return self.search_clear()
        row = model.rows[rng.randrange(len(model.rows))]
        text = rng.choice((row["sbl"][:8], str(row.get("owner_name") or "").split(" ")[-1],
                           "zzz-nothing"))
        QTest.mouseClick(box, Qt.MouseButton.LeftButton)
        type_text(box, text)
        return f"searched {text!r}"

    def search_clear(self) -> str:
        from PySide6.QtCore import Qt
        from PySide6.QtTest import QTest

        box = self.window.search
        QTest.mouseClick(box, Qt.MouseButton.LeftButton)
        QTest.keyClick(box, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
        QTest.keyClick(box, Qt.Key.Key_Delete)
        return "cleared the search"

    # --- dialogs ----------------------------------------------------------------------

    def answer_modals(self) -> None:
        from PySide6.QtWidgets import QApplication, QDialog, QMessageBox

        box = QApplication.activeModalWidget()
        if box is None:
            return
        where = self.current
        if isinstance(box, QMessageBox):
            text = f"{box.windowTitle()}: {box.text()} {box.informativeText()}".strip()
            self.message_boxes.append(f"{where}: {text}")
            self.say(f"  message box: {text!r}")
            if _names_an_internal_error(text):
                self.fail(f"a message box names an internal error during {where}: {text}")
            button = box.defaultButton() or box.escapeButton()
            if button is not None:
                button.click()
            else:
                box.reject()
        elif isinstance(box, QDialog):
            self.say(f"  dialog {type(box).__name__} {box.windowTitle()!r}: rejected")
            box.reject()


def type_text(widget: Any, text: str) -> None:
    """Keystrokes for `text`; letters beyond ASCII arrive as a keyboard layout sends them
    (a key event that carries the character), which QTest.keyClicks cannot do."""
    from PySide6.QtCore import QEvent, Qt
    from PySide6.QtGui import QKeyEvent
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    for ch in text:
        if ch.isascii():
            QTest.keyClicks(widget, ch)
            continue
        for kind in (QEvent.Type.KeyPress, QEvent.Type.KeyRelease):
            QApplication.sendEvent(widget, QKeyEvent(kind, Qt.Key.Key_unknown,
                                                     Qt.KeyboardModifier.NoModifier, ch))


def _names_an_internal_error(text: str) -> bool:
    import re

    return bool(re.search(r"\b[A-Z]\w*(Error|Exception)\b|Traceback|Something went wrong",
                          text))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", type=Path, required=True)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--actions", type=int, default=500)
    parser.add_argument("--selected", type=Path, required=True,
                        help="file that receives every SBL the run selected, one a line")
    parser.add_argument("--log", type=Path, help="file that receives every action")
    parser.add_argument("--user", default="soak.run")
    args = parser.parse_args(argv)

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    # The app's QSettings start empty and the user's own are left alone.
    os.environ.setdefault("XDG_CONFIG_HOME", tempfile.mkdtemp(prefix="soak-config-"))

    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from inspector_app import cli

    app = QApplication([sys.argv[0]])
    soak = Soak(args)

    def thread_hook(hook_args: Any) -> None:
        traceback.print_exception(hook_args.exc_type, hook_args.exc_value,
                                  hook_args.exc_traceback)
        soak.fail(f"uncaught exception in thread {hook_args.thread!r}")

    def unraisable_hook(hook_args: Any) -> None:
        traceback.print_exception(hook_args.exc_type, hook_args.exc_value,
                                  hook_args.exc_traceback)
        soak.fail(f"unraisable exception: {hook_args.err_msg}")

    threading.excepthook = thread_hook
    sys.unraisablehook = unraisable_hook
    QTimer.singleShot(0, soak.wait_for_window)
    # Exactly what `inspector-app --data-dir D` runs; the app installs its own error hook.
    status = cli.run(["--data-dir", str(args.data_dir), "--user", args.user])
    faulthandler.cancel_dump_traceback_later()
    del app
    if soak.done < soak.total:
        soak.fail(f"the app quit after {soak.done} of {soak.total} actions")
    print(json.dumps({"seed": soak.seed, "actions": soak.done, "status": status,
                      "seconds": round(time.monotonic() - soak.started, 1),
                      "kinds": soak.kinds, "selected": soak.selected,
                      "wheel_changed_unfocused": soak.wheel_changed,
                      "message_boxes": soak.message_boxes, "skipped": soak.notes,
                      "failures": soak.failures}),
          flush=True)
    if status:
        return status
    return 3 if soak.failures else 0


if __name__ == "__main__":
    sys.exit(main())
