"""Errors the user sees. Each message is one sentence naming what is wrong and where."""

from __future__ import annotations


class InspectorError(Exception):
    """A failure the user is told about in plain words (exit status 1).

    `str(exc)` is the message as the command line prints it. A message that sends the
    user to a command also says, as `in_app`, where the same thing is in the desktop app
    (a menu item, the parcel list's search box); the app shows that one.
    """

    exit_status = 1

    def __init__(self, *args: object, in_app: str | None = None) -> None:
        super().__init__(*args)
        self._in_app = in_app

    @property
    def in_app(self) -> str:
        """The message as the desktop app shows it."""
        return str(self) if self._in_app is None else self._in_app


class InputError(InspectorError):
    """Bad input: a file, field or argument at fault (exit status 2). Nothing was changed."""

    exit_status = 2


class RefusedWithReport(InputError):
    """Bad input refused whole, with a report of what was refused (printed on stdout as the
    command's JSON, the sentence on stderr)."""

    def __init__(self, message: str, report: object) -> None:
        super().__init__(message)
        self.report = report


class NotFoundError(InputError):
    """An SBL, layer or record that is not in the data folder."""


class Cancelled(InspectorError):
    """Long work stopped by the user before it finished; nothing was committed."""
