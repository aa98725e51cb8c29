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
    PhotoFacts,
    PhotoTooLarge,
    check_photo,
    photo_facts,
    printable_photo,
    read_header,
    upright_size,
)
from ...domain.annotations import MAX_ANNOTATIONS, parse_mark
from ...domain.case import element_names
from ...errors import InputError
from ...storage import attachments as attachment_rows
from ..session.session import Session
from .site import parse_component

MAX_ATTACHMENT_BYTES = 50 * 1024 * 1024
# The largest copy of a photo written to be shown (`photo --size`).
MAX_SHOWN_SIDE_PX = 4000


def add_attachment(ws: Session, sbl: str, path: Path, *, caption: str | None = None,
                   inspection: str | None = None, component: str | None = None
                   ) -> dict[str, Any]:
    """Store a photo or document by its SHA-256 and record it on the parcel, of one of its
    inspections (by id) and one of its components (`septic_tank#1`, as the site map names
    them) when given; a photo keeps what its camera wrote in it (time and position)."""
    parcel_id = ws.parcel_id(sbl)
    inspection_id = _inspection(ws, sbl, parcel_id, inspection)
    component_id = _component(ws, sbl, parcel_id, component)
    try:
        size = path.stat().st_size
        if size > MAX_ATTACHMENT_BYTES:
            raise InputError(f"{path}: is {size / 1e6:.0f} MB; attachments are limited to "
                             f"{MAX_ATTACHMENT_BYTES // 1_000_000} MB.")
        data = path.read_bytes()
    except FileNotFoundError:
        raise InputError(f"{path}: no such file.") from None
    facts = PhotoFacts()
    if data.startswith((PNG_SIGNATURE, JPEG_SIGNATURE)):  # a photo: printable in a report
        try:
            check_photo(data)
        except PhotoTooLarge as exc:
            raise InputError(f"{path}: {exc}; save it smaller (a JPEG under "
                             f"{PHOTO_MAX_DECODE_PIXELS / 1e6:,.0f} MP) and attach that; "
                             "nothing was attached.") from None
        except ImageRefused:
            pass  # kept as a damaged file is: a report names it, unprinted
        facts = photo_facts(data, ws.clock())
    digest = hashlib.sha256(data).hexdigest()
    media_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    with ws.store.transaction() as w:
        ws.keep_file(digest, data, w)
        attachment_id = w.insert("attachments", {
            "sha256": digest, "filename": path.name, "media_type": media_type,
            "size_bytes": len(data), "caption": caption, "inspection_id": inspection_id,
            "component_id": component_id, "taken_at": facts.taken_at,
            "taken_latitude": facts.latitude, "taken_longitude": facts.longitude},
            parcel_id=parcel_id)
    return {"id": attachment_id, "sha256": digest, "filename": path.name,
            "size_bytes": len(data), "media_type": media_type,
            "inspection_id": inspection_id, "component": component,
            "taken_at": facts.taken_at, "taken_latitude": facts.latitude,
            "taken_longitude": facts.longitude}


def _inspection(ws: Session, sbl: str, parcel_id: str, inspection: str | None) -> str | None:
    if inspection is None:
        return None
    if not attachment_rows.inspection_on_parcel(ws.store.conn, parcel_id, inspection):
        raise InputError(f"Parcel {sbl} has no inspection {inspection!r} (see "
                         f"`inspection list {sbl}`); nothing was attached.")
    return inspection


def _component(ws: Session, sbl: str, parcel_id: str, component: str | None) -> str | None:
    if component is None:
        return None
    kind, ordinal = parse_component(component)
    ids = [i for i, k in attachment_rows.component_ids(ws.store.conn, parcel_id)
           if k == kind.value]
    if len(ids) < ordinal:
        raise InputError(f"Parcel {sbl} has {len(ids)} {kind.value} component(s), so no "
                         f"{kind.value}#{ordinal}; nothing was attached.")
    return ids[ordinal - 1]


def component_names(ws: Session, parcel_id: str) -> dict[str, str]:
    """The parcel's components' ids with the names `attach` takes (`septic_tank#1`)."""
    rows = attachment_rows.component_ids(ws.store.conn, parcel_id)
    return dict(zip([record_id for record_id, _ in rows],
                    element_names([kind for _, kind in rows]), strict=True))


def taken_words(row: dict[str, Any]) -> str:
    """What a photo's camera wrote, in words: "taken 2026-11-20 10:42 UTC-05:00 at
    42.87117° N, 77.27500° W"; "" when it wrote neither."""
    out = []
    if row.get("taken_at"):
        text = str(row["taken_at"])
        day, clock, offset = text[:10], text[11:16], text[19:]
        out.append(f"taken {day} {clock}" + (f" UTC{offset}" if offset else ""))
    lat, lon = row.get("taken_latitude"), row.get("taken_longitude")
    if lat is not None and lon is not None:
        out.append(f"at {abs(lat):.5f}° {'N' if lat >= 0 else 'S'}, "
                   f"{abs(lon):.5f}° {'E' if lon >= 0 else 'W'}")
    return " ".join(out)


def photo_caption(row: dict[str, Any]) -> str:
    """A photo's caption as shown and printed: its own words (else its file's name), then
    when and where its camera says it was taken."""
    taken = taken_words(row)
    own = str(row.get("caption") or row["filename"])
    return f"{own} ({taken})" if taken else own


def attachments(ws: Session, sbl: str) -> list[dict[str, Any]]:
    """The parcel's attachments, each with its component named as `attach` names it."""
    parcel_id = ws.parcel_id(sbl)
    names = component_names(ws, parcel_id)
    return [{**r, "component": names.get(r["component_id"] or "")}
            for r in attachment_rows.attachments_of(ws.store.conn, parcel_id)]


def photos_taken(ws: Session, sbl: str) -> list[dict[str, Any]]:
    """The parcel's photos whose camera wrote where they were taken."""
    return [r for r in attachment_rows.photos_of(ws.store.conn, ws.parcel_id(sbl))
            if r["taken_latitude"] is not None and r["taken_longitude"] is not None]


def _photo_row(ws: Session, sbl: str, attachment_id: str) -> dict[str, Any]:
    found = attachment_rows.attachment(ws.store.conn, ws.parcel_id(sbl), attachment_id)
    if found is None:
        raise InputError(f"Parcel {sbl} has no attachment {attachment_id!r} (see "
                         f"`attachments {sbl}`).")
    if found["media_type"] not in ("image/jpeg", "image/png"):
        raise InputError(f"Attachment {attachment_id} is a {found['media_type']} file, not "
                         "a photo; only a photo is marked.")
    return found


def annotate(ws: Session, sbl: str, attachment_id: str, add: list[str], *,
             clear: bool = False) -> dict[str, Any]:
    """Add marks (`domain/annotations.py`) to a photo's layer of marks, after clearing it
    when asked; the photo's file is never touched."""
    for line in add:
        try:
            parse_mark(line)
        except ValueError as exc:
            raise InputError(f"{exc}; nothing was changed.") from None
    found = _photo_row(ws, sbl, attachment_id)
    marks = [*([] if clear else found["annotations"]), *add]
    if len(marks) > MAX_ANNOTATIONS:
        raise InputError(f"A photo holds at most {MAX_ANNOTATIONS} marks; this would make "
                         f"{len(marks)}. Nothing was changed.")
    with ws.store.transaction() as w:
        w.update("attachments", attachment_id, {"annotations": marks})
    return {"id": attachment_id, "sha256": found["sha256"], "annotations": marks}


def photo_size(ws: Session, sbl: str, attachment_id: str) -> tuple[int, int]:
    """The photo's width and height in pixels as it stands upright: the marks' pixels."""
    found = _photo_row(ws, sbl, attachment_id)
    data = ws.attachment_path(found["sha256"]).read_bytes()
    try:
        return upright_size(read_header(data), photo_facts(data, ws.clock()).orientation)
    except ImageRefused as exc:
        raise InputError(f"{found['filename']}: {exc}.") from None


def shown_photo(ws: Session, sbl: str, attachment_id: str, *, side_px: int) -> bytes:
    """The photo as it is shown and printed: a JPEG, upright, at most `side_px` a side,
    with its marks drawn over it."""
    if not 16 <= side_px <= MAX_SHOWN_SIDE_PX:
        raise InputError(f"A photo's copy is 16 to {MAX_SHOWN_SIDE_PX:,} px on its longer "
                         f"side, not {side_px:,}; nothing was written.")
    found = _photo_row(ws, sbl, attachment_id)
    try:
        return printable_photo(ws.attachment_path(found["sha256"]),
                               tuple(found["annotations"]), side_px=side_px)
    except ImageRefused as exc:
        raise InputError(f"{found['filename']}: {exc}.") from None
