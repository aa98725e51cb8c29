"""Photos and documents attached to a parcel, kept by their SHA-256."""

from __future__ import annotations

import hashlib
import mimetypes
from pathlib import Path
from typing import Any

from ...documents.images import (
    JPEG_SIGNATURE,
    PHOTO_MAX_DECODE_PIXELS,
    PNG_SIGNATURE,
    ImageRefused,
    PhotoTooLarge,
    check_photo,
)
from ...errors import InputError
from ...storage import attachments as attachment_rows
from ..session.session import Session

MAX_ATTACHMENT_BYTES = 50 * 1024 * 1024


def add_attachment(ws: Session, sbl: str, path: Path, *, caption: str | None = None
                   ) -> dict[str, Any]:
    """Store a photo or document by its SHA-256 and record it on the parcel."""
    parcel_id = ws.parcel_id(sbl)
    try:
        size = path.stat().st_size
        if size > MAX_ATTACHMENT_BYTES:
            raise InputError(f"{path}: is {size / 1e6:.0f} MB; attachments are limited to "
                             f"{MAX_ATTACHMENT_BYTES // 1_000_000} MB.")
        data = path.read_bytes()
    except FileNotFoundError:
        raise InputError(f"{path}: no such file.") from None
    if data.startswith((PNG_SIGNATURE, JPEG_SIGNATURE)):  # a photo: printable in a report
        try:
            check_photo(data)
        except PhotoTooLarge as exc:
            raise InputError(f"{path}: {exc}; save it smaller (a JPEG under "
                             f"{PHOTO_MAX_DECODE_PIXELS / 1e6:,.0f} MP) and attach that; "
                             "nothing was attached.") from None
        except ImageRefused:
            pass  # kept as a damaged file is: a report names it, unprinted
    digest = hashlib.sha256(data).hexdigest()
    media_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    with ws.store.transaction() as w:
        ws.keep_file(digest, data, w)
        attachment_id = w.insert("attachments", {
            "sha256": digest, "filename": path.name, "media_type": media_type,
            "size_bytes": len(data), "caption": caption}, parcel_id=parcel_id)
    return {"id": attachment_id, "sha256": digest, "filename": path.name,
            "size_bytes": len(data), "media_type": media_type}


def attachments(ws: Session, sbl: str) -> list[dict[str, Any]]:
    return attachment_rows.attachments_of(ws.store.conn, ws.parcel_id(sbl))
