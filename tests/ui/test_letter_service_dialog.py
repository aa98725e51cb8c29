"""Recording in the app how an issued letter was served, that its delivery was confirmed or
that it came back: the Letters tab's Record service... dialog, driven as a user would, on
the window's worker; refusals in the dialog's red bar, with nothing recorded."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QDialog, QWidget
from pytestqt.qtbot import QtBot

from inspector_app.services.letters import register as letter_service
from inspector_app.ui.letter_service_dialog import LetterServiceDialog
from inspector_app.ui.letters_tab import LettersTab
from inspector_app.ui.main_window import MainWindow
from tests.ui.test_letters_tab import (
    SBL,
    Prompts,
    idle,
    issued_already,
    prompts,
    window,
)

__all__ = ["prompts", "window"]  # the fixtures, used by name


def click(qtbot: QtBot, widget: QWidget) -> None:
    qtbot.mouseClick(widget, Qt.MouseButton.LeftButton)


def open_service(tab: LettersTab, window: MainWindow, qtbot: QtBot) -> LetterServiceDialog:
    """The issued letter picked in the register, then Record service... clicked."""
    item = tab.register.item(0)
    qtbot.mouseClick(tab.register.viewport(), Qt.MouseButton.LeftButton,
                     pos=tab.register.visualItemRect(item).center())
    qtbot.waitUntil(lambda: tab.current_letter_id is not None and tab.service_button
                    .isEnabled(), timeout=15000)
    idle(window, qtbot)
    click(qtbot, tab.service_button)
    dialog = tab.service_dialog
    assert dialog is not None
    qtbot.waitExposed(dialog)
    dialog.activateWindow()
    qtbot.waitUntil(dialog.isActiveWindow)
    return dialog


def choose(combo: object, data: str) -> None:
    from PySide6.QtWidgets import QComboBox

    assert isinstance(combo, QComboBox)
    combo.setCurrentIndex(combo.findData(data))  # as picked from its list


def type_date(qtbot: QtBot, dialog: LetterServiceDialog, text: str) -> None:
    field = dialog.day
    qtbot.mouseClick(field.lineEdit(), Qt.MouseButton.LeftButton, pos=QPoint(4, 5))
    qtbot.waitUntil(lambda: field.lineEdit().selectedText() == field.text())
    qtbot.keyClicks(field, text)
    assert field.date().toString("yyyy-MM-dd") == text


def record(dialog: LetterServiceDialog, window: MainWindow, qtbot: QtBot) -> None:
    click(qtbot, dialog.record)
    qtbot.waitUntil(lambda: dialog.problem.isVisible()
                    or dialog.result() == QDialog.DialogCode.Accepted, timeout=15000)
    idle(window, qtbot)


def events(window: MainWindow) -> int:
    ws = window.workspace
    return int(window.runner.wait(lambda: ws.store.conn.execute(
        "SELECT count(*) FROM letter_service").fetchone()[0]))


def register_text(tab: LettersTab) -> str:
    return tab.register.item(0).text()


def test_certified_mail_then_its_return_receipt(window: MainWindow, qtbot: QtBot,
                                                prompts: Prompts) -> None:
    tab = issued_already(window, qtbot)
    letter_id = letter_service.register(window.workspace, SBL)[0]["id"]
    assert register_text(tab).endswith("; not served yet)")
    dialog = open_service(tab, window, qtbot)
    assert dialog.windowTitle() == f"Service of letter {letter_id[:8]}"
    choose(dialog.method, "certified_mail")
    assert dialog.article.isVisible() and not dialog.to.isVisible()
    record(dialog, window, qtbot)
    # refused before anything is written: the red bar, nothing recorded, the dialog open
    assert dialog.problem.text() == "Serving by certified mail needs its article number."
    assert events(window) == 0 and dialog.isVisible()
    qtbot.keyClicks(dialog.article, "7019 0700 0000 1234 5678")
    type_date(qtbot, dialog, "2026-11-27")
    click(qtbot, dialog.record)
    assert not dialog.record.isEnabled()  # on the worker: one click, one record
    qtbot.waitUntil(lambda: dialog.result() == QDialog.DialogCode.Accepted, timeout=15000)
    qtbot.waitUntil(lambda: "served 2026-11-27" in register_text(tab), timeout=15000)
    idle(window, qtbot)
    assert register_text(tab).endswith(
        "; served 2026-11-27 by certified mail no. 70190700000012345678)")
    assert window.message.text() == (f"Recorded for letter {letter_id[:8]}: served "
                                     "2026-11-27 by certified mail no. 70190700000012345678.")

    dialog = open_service(tab, window, qtbot)
    choose(dialog.what, "delivered")
    assert dialog.signed_by.isVisible() and not dialog.method.isVisible()
    qtbot.keyClicks(dialog.signed_by, "R. Whitaker")
    type_date(qtbot, dialog, "2026-11-26")
    record(dialog, window, qtbot)
    assert dialog.problem.text() == (f"The date of delivery 2026-11-26 is before letter "
                                     f"{letter_id[:8]} was served (2026-11-27).")
    # the dialog grew to show the refusal whole: no field squeezed under its own height
    for field in (dialog.signed_by, dialog.day):
        assert field.height() >= field.minimumSizeHint().height()
    assert dialog.height() >= dialog.minimumSizeHint().height()
    assert events(window) == 1
    type_date(qtbot, dialog, "2026-11-30")
    record(dialog, window, qtbot)
    assert dialog.result() == QDialog.DialogCode.Accepted, dialog.problem.text()
    qtbot.waitUntil(lambda: "delivered" in register_text(tab), timeout=15000)
    assert register_text(tab).endswith(
        "; served 2026-11-27 by certified mail no. 70190700000012345678; delivered "
        "2026-11-30, signed by R. Whitaker)")
    (row,) = letter_service.register(window.workspace, SBL)
    assert row["service"]["state"] == "delivered"
    assert row["service"]["delivered"] == {
        "event": "delivered", "signed_by": "R. Whitaker", "event_date": "2026-11-30",
        "recorded_by": "k.olmsted", "created_at": row["service"]["delivered"]["created_at"]}


def test_a_delivery_or_a_return_with_nothing_served_is_refused_in_the_red_bar(
        window: MainWindow, qtbot: QtBot, prompts: Prompts) -> None:
    tab = issued_already(window, qtbot)
    letter_id = letter_service.register(window.workspace, SBL)[0]["id"]
    dialog = open_service(tab, window, qtbot)
    choose(dialog.what, "delivered")
    record(dialog, window, qtbot)
    assert dialog.problem.text() == (f"Letter {letter_id[:8]} has no service recorded; record "
                                     "how it was served first (Record service..., Served).")
    choose(dialog.what, "returned")
    assert not dialog.problem.isVisible()  # another event: the old refusal goes
    record(dialog, window, qtbot)
    assert dialog.problem.text() == ("Say why the letter came back, as the post office "
                                     "marked it.")
    qtbot.keyClicks(dialog.reason, "Attempted - not known")
    record(dialog, window, qtbot)
    assert dialog.problem.text() == (f"Letter {letter_id[:8]} has no service by mail "
                                     "recorded; only a mailed letter comes back undelivered.")
    assert events(window) == 0
    assert register_text(tab).endswith("; not served yet)")
    dialog.reject()


def test_first_class_mail_that_came_back_then_a_hand_delivery(
        window: MainWindow, qtbot: QtBot, prompts: Prompts) -> None:
    tab = issued_already(window, qtbot)
    dialog = open_service(tab, window, qtbot)
    type_date(qtbot, dialog, "2026-11-26")
    record(dialog, window, qtbot)  # first-class mail, the first way offered
    qtbot.waitUntil(lambda: "served 2026-11-26 by first class mail" in register_text(tab),
                    timeout=15000)
    dialog = open_service(tab, window, qtbot)
    choose(dialog.what, "returned")
    qtbot.keyClicks(dialog.reason, "Attempted - not known")
    type_date(qtbot, dialog, "2026-11-30")
    record(dialog, window, qtbot)
    qtbot.waitUntil(lambda: "came back" in register_text(tab), timeout=15000)
    assert register_text(tab).endswith("; served 2026-11-26 by first class mail; came back "
                                       "2026-11-30 (Attempted - not known))")
    dialog = open_service(tab, window, qtbot)
    choose(dialog.method, "hand_delivery")
    assert dialog.to.isVisible() and not dialog.article.isVisible()
    qtbot.keyClicks(dialog.to, "Robin  Whitaker ")
    type_date(qtbot, dialog, "2026-12-01")
    record(dialog, window, qtbot)
    qtbot.waitUntil(lambda: "in hand" in register_text(tab), timeout=15000)
    assert register_text(tab).endswith(
        "; served 2026-12-01 by hand delivery to Robin Whitaker, delivered in hand)")
