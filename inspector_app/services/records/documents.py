"""The documents taken in from providers, as the records that name them by SHA-256 show
them: a document's file name and when it arrived, and a copy of it to open."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

from ...domain.case import Case
from ...domain.field_spec import SHA256_PATTERN
from ...errors import InputError
from ...paths import write_atomically
from ...storage import providers as stored
from ..session.session import Session

_SHA256 = re.compile(SHA256_PATTERN)


def case_documents(case: Case) -> list[str]:
    """The SHA-256s of the documents a case's ETU inspections and pump-outs name."""
    found = [x.document for x in (case.etu.inspections if case.etu else ())]
    found += [x.document for x in (case.holding_tank_service.pump_outs
                                   if case.holding_tank_service else ())]
    return sorted({d for d in found if d})


def named(ws: Session, sha256s: list[str]) -> dict[str, dict[str, Any]]:
    """Each document taken in among `sha256s`, by SHA-256: its file name, kind, the day it
    was received, the rows stored and refused (a SHA-256 the office never took in is left
    out)."""
    wanted = sorted({s for s in sha256s if s and _SHA256.match(s)})
    return {sha: {"sha256": sha, "filename": r["filename"], "kind": r["kind"],
                  "received_on": r["received_on"], "records": r["records"],
                  "refused": r["refused"]}
            for sha, r in stored.documents(ws.store.conn, wanted).items()}


def document_copy(ws: Session, sha256: str) -> Path:
    """A copy of a document taken in, under its own file name, for the system's viewer:
    the data folder's received/ (the stored file, named by its SHA-256, is the record)."""
    row = stored.document(ws.store.conn, sha256) if _SHA256.match(sha256) else None
    if row is None:
        raise InputError(f"No document with SHA-256 {sha256[:12]}... was taken in; "
                         "nothing to open.")
    source = ws.attachment_path(sha256)
    try:
        data = source.read_bytes()
    except OSError:
        raise InputError(f"The file of {row['filename']} (SHA-256 {sha256[:12]}...) is not "
                         f"in the data folder ({source}); restore it from a backup.") from None
    if hashlib.sha256(data).hexdigest() != sha256:
        raise InputError(f"The file of {row['filename']} in the data folder ({source}) no "
                         "longer matches its SHA-256; restore it from a backup.")
    name = Path(str(row["filename"])).name or "document"
    target = ws.folder.root / "received" / f"{sha256[:12]}-{name}"
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(target, data)
    return target


def record_facts(ws: Session, case: Case) -> dict[str, Any]:
    """What the form's tables of a parcel's ETU inspections and pump-outs show beside the
    records: the documents they name (`named`) and the days the parcel's law allows for a
    report or record to reach the office (None: no law on file)."""
    law = ws.laws.for_municipality(case.parcel.municipality)
    return {"documents": named(ws, case_documents(case)),
            "etu_report_within_days": law.etu_report_within_days if law else None,
            "record_within_days": law.holding_tank_record_within_days if law else None}


def history_documents(ws: Session, rows: list[dict[str, Any]]) -> dict[str, str]:
    """The file names of the documents a parcel's change log names, by SHA-256."""
    from ...domain.labels import DOCUMENT_FIELDS

    found: list[str] = []
    for row in rows:
        table = row.get("table_name")
        if (table, row.get("field")) in DOCUMENT_FIELDS:
            found += [v for v in (row.get("old_value"), row.get("new_value"))
                      if isinstance(v, str)]
        elif row.get("op") == "insert" and isinstance(row.get("new_value"), dict) and \
                (table, "document") in DOCUMENT_FIELDS:
            value = row["new_value"].get("document")
            if isinstance(value, str):
                found.append(value)
    return {sha: str(d["filename"]) for sha, d in named(ws, found).items()}
