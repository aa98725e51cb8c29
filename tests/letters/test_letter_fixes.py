"""What a notice of violation says of its signer, of a setback shortfall, of the design
bedrooms, of the evidence of failure and of the sections it cites."""

from __future__ import annotations

from typing import Any

from inspector_app.paths import resource
from inspector_app.services.letters import register as letters
from inspector_app.services.workspace import Workspace
from tests.letters.test_letters import TODAY, failed, text_of  # noqa: F401

SBL = "98.00-1-23.100"


def _notice(ws: Workspace) -> str:
    return text_of(letters.draft_pdf(ws, SBL, "notice_of_violation", as_of=TODAY))


def _office(ws: Workspace, name: str) -> None:
    office = resource("letters", "office.toml").read_text("utf-8")
    assert 'name = ""' in office  # the bundled settings name no signer
    (ws.folder.root / "office.toml").write_text(office.replace('name = ""', f'name = {name!r}'))


def test_no_signer_named_gives_a_line_to_sign_above_the_title(failed: Workspace  # noqa: F811
                                                               ) -> None:
    text = _notice(failed)
    assert "Sincerely, ____________________________________ Code Enforcement Officer, " \
           "Town of Canandaigua" in text


def test_the_signer_named_in_the_office_settings_is_printed(failed: Workspace  # noqa: F811
                                                            ) -> None:
    _office(failed, "Dana R. Whitfield")
    text = _notice(failed)
    assert "Sincerely, Dana R. Whitfield Code Enforcement Officer, Town of Canandaigua" in text
    assert "____" not in text
