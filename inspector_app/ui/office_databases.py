"""Office databases: File > Connect to office database..., the recent ones, and the words the
window says of the one open (which database, which login).

At an office database the login is the person working: who is working is not asked, and
the window names the database and the login where it names a data folder's path otherwise.
The address is remembered as typed, less any password; a password typed in the dialog is
used to connect and kept nowhere (libpq's own ~/.pgpass and $PGPASSWORD are the ways to
keep one). The desk's own folder for the database (its settings files, what it keeps of
the office's files) is `paths.office_desk_dir`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QVBoxLayout,
    QWidget,
)

from ..errors import InputError
from ..paths import office_desk_dir
from .context import AppContext

if TYPE_CHECKING:
    from ..services.workspace import Workspace
    from .data_folders import DataFolders

EXAMPLE = "postgresql://jhaldane@officeserver/watershed"


def desk_words(ws: Workspace) -> str | None:
    """"office database watershed on officeserver — J. Haldane (jhaldane)": the database
    open and who works in it as which login; None for a data folder's own file."""
    store = ws.store
    if store.described is None:
        return None
    person = store.person  # None: a login the office did not record (its administrator)
    if person is None:
        who = f"{ws.user} ({store.login})"
    else:
        who = f"{person['full_name']} ({store.login})" if person["full_name"] else str(
            store.login)
    return f"{store.described} \N{EM DASH} {who}"


class ConnectDialog(QDialog):
    """The address of an office database and, when the server asks for one, a password."""

    def __init__(self, parent: QWidget | None, address: str) -> None:
        super().__init__(parent)
        self.setWindowTitle("Connect to office database")
        self.setWindowModality(Qt.WindowModality.WindowModal)
        intro = QLabel(
            "The office database on its server, as postgresql://login@server/database.\n"
            "The login is who you are there: every change and letter is recorded with\n"
            "the name the office gave it.")
        self.address = QLineEdit(address)
        self.address.setObjectName("address")
        self.address.setPlaceholderText(EXAMPLE)
        self.address.setMinimumWidth(420)
        self.password = QLineEdit()
        self.password.setObjectName("password")
        self.password.setEchoMode(QLineEdit.EchoMode.Password)
        self.password.setPlaceholderText("only if the server asks for one")
        note = QLabel("The password is used to connect and is never stored.")
        note.setEnabled(False)
        form = QFormLayout()
        form.addRow("&Address:", self.address)
        form.addRow("&Password:", self.password)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.connect_button = buttons.addButton("&Connect",
                                                QDialogButtonBox.ButtonRole.AcceptRole)
        self.connect_button.setDefault(True)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(form)
        layout.addWidget(note)
        layout.addWidget(buttons)
        self.address.selectAll()
        self.address.setFocus()


class OfficeDatabases:
    """Connecting the window to an office database (through `folders.switch_folder`, on
    the worker: a database that refuses or cannot be reached leaves the window as it was),
    and the recent ones in the File menu."""

    RECENT_KEY = "recent_office_databases"
    RECENT_KEPT = 8

    def __init__(self, ctx: AppContext, settings: QSettings, parent: QWidget, *,
                 folders: DataFolders) -> None:
        self.ctx, self.settings, self.parent, self.folders = ctx, settings, parent, folders
        self.dialog: ConnectDialog | None = None
        self.recent_menu = QMenu("Recent office &databases", parent)
        self.recent_menu.aboutToShow.connect(self.fill_recent)
        self.fill_recent()

    def ask(self) -> ConnectDialog:
        """File > Connect to office database...: the dialog, with the address used last."""
        recent = self.recent()
        dialog = self.dialog = ConnectDialog(self.parent, recent[0] if recent else "")
        dialog.accepted.connect(
            lambda: self.connect(dialog.address.text(), dialog.password.text()))
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()
        return dialog

    def connect(self, address: str, password: str = "") -> None:
        """Open the office database at `address` in this window, as its login."""
        from ..storage import postgres

        try:
            url = postgres.check_url(address)
        except InputError as exc:
            self.ctx.error(exc)
            return
        kept = postgres.shown(url)  # a password typed into the address is not kept either
        self.folders.switch_folder(
            office_desk_dir(kept),
            database=postgres.with_password(kept, password) if password else url,
            done_text=lambda _: f"Connected: {desk_words(self.ctx.ws) if self.ctx.ws else kept}.")

    # --- recent databases --------------------------------------------------------------

    def recent(self) -> list[str]:
        value = self.settings.value(self.RECENT_KEY) or []
        return [str(v) for v in ([value] if isinstance(value, str) else value)]

    def add_recent(self, url: str) -> None:
        from ..storage.postgres import shown

        address = shown(url)
        kept = [address, *(u for u in self.recent() if u != address)]
        self.settings.setValue(self.RECENT_KEY, kept[:self.RECENT_KEPT])
        self.fill_recent()

    def fill_recent(self) -> None:
        """The last databases connected to, newest first; the one open is ticked."""
        menu = self.recent_menu
        for old in menu.actions():  # (as the recent folders: they go in the event loop)
            menu.removeAction(old)
            old.deleteLater()
        ws = self.ctx.ws
        current = None
        if ws is not None and ws.store.database is not None:
            from ..storage.postgres import shown

            current = shown(ws.store.database)
        addresses = self.recent()[:self.RECENT_KEPT]
        if not addresses:
            menu.addAction("No office databases connected to yet").setEnabled(False)
        for address in addresses:
            action = menu.addAction(address.replace("&", "&&"))  # (no shortcut letter)
            if address == current:
                action.setCheckable(True)
                action.setChecked(True)
            action.setEnabled(address != current)
            action.triggered.connect(lambda _=False, a=address: self.connect(a))
