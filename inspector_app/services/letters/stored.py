"""Issued letters as stored: their bytes, checked against the hash kept when each was
issued, and the convenience copies in the data folder's letters/ (the register is the
record)."""

from __future__ import annotations

import hashlib
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from ...errors import InputError, NotFoundError
from ...paths import write_atomically
from ...storage import letters as letter_rows
from .service import letter_id_for

if TYPE_CHECKING:
    from ..session.session import Session


def stored_pdf(ws: Session, letter_id: str) -> bytes:
    """An issued letter's bytes, checked against the hash stored when it was issued; the
    letter named by its id or its short id."""
    letter_id = letter_id_for(ws, letter_id)
    row = letter_rows.issued_pdf(ws.store.conn, letter_id)
    if row is None:
        raise NotFoundError(f"No issued letter {letter_id!r} in the register.")
    pdf: bytes = row["pdf"]
    if hashlib.sha256(pdf).hexdigest() != row["sha256"]:
        raise InputError(f"Letter {letter_id}: its stored bytes no longer match the hash "
                         "recorded when it was issued; restore the database from a backup.")
    return pdf


def file_copy(ws: Session, sbl: str, kind: str, day: date, letter_id: str,
               pdf: bytes) -> Path:
    """A convenience copy in the data folder's letters/ of a letter the register holds
    (committed); the register is the record."""
    path = copy_path(ws, sbl, kind, day, letter_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, pdf)
    return path


def copy_path(ws: Session, sbl: str, kind: str, day: date, letter_id: str) -> Path:
    folder = ws.folder.letters / sbl.replace("/", "_")
    return folder / f"{day.isoformat()}-{kind}-{letter_id[:8]}.pdf"
