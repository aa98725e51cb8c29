"""The data folder's letterhead, signer and letters' wording: its own files, else the
bundled ones (`office use`, `wording use` install them)."""

from __future__ import annotations

from ...documents.templates import Office, Wording, load_office, load_wording
from ...paths import resource
from .session import Session

OFFICE_FILE = "office.toml"
TEMPLATES_FILE = "letter-templates.toml"


def wording_for(ws: Session) -> Wording:
    """The folder's own wording (a key added to the app since it was installed taken from
    the bundled wording), else the bundled wording."""
    own, bundled = ws.folder.root / TEMPLATES_FILE, resource("letters", "templates.toml")
    return load_wording(own if own.exists() else bundled, later_from=bundled)


def office_for(ws: Session, municipality: str | None = None) -> Office:
    """The letterhead and signer: the municipality's own section of office.toml, else its
    law's, else the default."""
    own = ws.folder.root / OFFICE_FILE
    law = None if municipality is None else ws.laws.for_municipality(municipality)
    return load_office(own if own.exists() else resource("letters", "office.toml"),
                       base=ws.folder.root, municipality=municipality,
                       jurisdiction_id=None if law is None else law.id)
