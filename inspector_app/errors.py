"""Errors the user sees. Each message is one sentence naming what is wrong and where."""

from __future__ import annotations


class InspectorError(Exception):
    """A failure the user is told about in plain words (exit status 1)."""

    exit_status = 1


class InputError(InspectorError):
    """Bad input: a file, field or argument at fault (exit status 2). Nothing was changed."""

    exit_status = 2


class NotFoundError(InputError):
    """An SBL, layer or record that is not in the data folder."""
