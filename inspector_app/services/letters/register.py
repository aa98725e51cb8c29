"""Letters: drafts, the letter register, corrections and batch printing.

An issued letter is a legal record: its PDF bytes, SHA-256, kind, date, recipient, the
case version it was made from and who issued it are stored once and never change
(database triggers refuse it). Printing again gives the same bytes. A correction is a new
letter that names the one it replaces.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...documents.content import (
    LETTER_KINDS,
    Letter,
    LetterInputs,
    LetterRefused,
    Photo,
    build,
    describe_measurements,
    issue_problems,
    pending_refusal,
    recipient,
)
from ...domain.case import Case
from ...domain.jurisdiction import EXAMPLE_MARK, Jurisdiction
from ...domain.rules import Evaluation, LakeFinding, LetterKind, next_inspection_due
from ...errors import Cancelled, InputError, NotFoundError
from ...paths import write_atomically
from ...storage import attachments, conflicts, inspections, measurements
from ...storage import letters as letter_rows
from ...storage.cases import case_version
from ..parcel.cases import save_edit
from ..parcel.evaluation import evaluate_case, evaluate_parcel
from ..session.letterhead import office_for, wording_for

if TYPE_CHECKING:
    from ..session.session import Session

REMINDERS = {"five_year_reminder", "etu_report_reminder", "pump_out_request"}


NO_LETTER = "no letter was drafted or issued"


def law_for_letters(ws: Session, case: Case) -> Jurisdiction:
    """The parcel's law, or NoLawOnFile: no letter is ever made under another town's law."""
    return ws.law_for(case.parcel.municipality, doing=NO_LETTER)


def _last_inspection(ws: Session, parcel_id: str) -> date | None:
    day = inspections.last_date(ws.store.conn, parcel_id)
    return None if day is None else date.fromisoformat(day)


def _measurement_lines(ws: Session, parcel_id: str, lake: LakeFinding,
                       setback_ft: float) -> tuple[str, ...]:
    return describe_measurements(measurements.lake_measurements_of(ws.store.conn, parcel_id),
                                 lake, setback_ft)


def _photos(ws: Session, parcel_id: str) -> tuple[Photo, ...]:
    rows = attachments.photos_of(ws.store.conn, parcel_id)
    return tuple(Photo(ws.attachment_path(r["sha256"]), r["caption"] or r["filename"])
                 for r in rows if ws.attachment_path(r["sha256"]).exists())


def _inputs(ws: Session, sbl: str, evaluation: Evaluation, case: Case, letter_date: date,
            kind: str, *, final: bool = False,
            replaced: tuple[str, str, date] | None = None) -> LetterInputs:
    parcel_id = ws.parcel_id(sbl)
    last = _last_inspection(ws, parcel_id)
    extra: dict[str, Any] = {}
    law = law_for_letters(ws, case)
    if last is not None:
        extra["due_date"] = next_inspection_due(last, law)
    report = kind == "report_of_findings"
    from ..parcel.sketch import site_sketch
    from .attestation import attestation_block

    return LetterInputs(
        case=case, evaluation=evaluation, jurisdiction=law,
        wording=wording_for(ws), office=office_for(ws, case.parcel.municipality),
        letter_date=letter_date,
        last_inspection=last, extra=extra, mark_unconfirmed=not final, replaced=replaced,
        sketch=site_sketch(ws, case, evaluation.lake) if report else None,
        photos=_photos(ws, parcel_id) if report else (),
        measurements=_measurement_lines(ws, parcel_id, evaluation.lake, law.lake_setback_ft)
        if report else (),
        separations=tuple(
            f"{s.component.value.replace('_', ' ')} #{s.ordinal} to {s.target.replace('_', ' ')}"
            f": {s.distance_ft:,.1f} ft ({s.source})" for s in evaluation.separations)
        if report else (),
        attestation=attestation_block(ws, parcel_id, case) if report else None)


def why_not(kind: str, evaluation: Evaluation, ws: Session, sbl: str) -> str | None:
    """None when the parcel's records call for this letter; else the reason they do not."""
    if kind in {k.value for k in LetterKind}:
        if LetterKind(kind) in evaluation.letters:
            return None
        called = ", ".join(k.value for k in evaluation.letters) or "no letter"
        return f"the records call for {called}, not a {kind}"
    codes = {v.code for v in evaluation.violations}
    if kind == "etu_report_reminder" and codes & {"etu_report_late", "etu_inspection_overdue"}:
        return None
    if kind == "pump_out_request" and "holding_tank_records_missing" in codes:
        return None
    if kind == "five_year_reminder":
        from ..lists.worklists import worklists

        items = worklists(ws, as_of=evaluation.as_of, names=("five-year-inspections",))
        if any(i["sbl"] == sbl for i in items["five-year-inspections"]):
            return None
        return "the parcel is not due for its five-year inspection"
    if kind == "report_of_findings":
        return None if ws.load_case(sbl).inspection else "no inspection is recorded"
    return f"nothing on record calls for a {kind}"


def compose(ws: Session, sbl: str, kind: str, *, as_of: date | None = None) -> Letter:
    if kind not in LETTER_KINDS:
        raise InputError(f"{kind!r} is not a letter kind; the kinds are "
                         f"{', '.join(LETTER_KINDS)}.")
    day = as_of or ws.today()
    case = ws.load_case(sbl)
    law_for_letters(ws, case)
    evaluation = evaluate_parcel(ws, sbl, as_of=day)
    return build(kind, _inputs(ws, sbl, evaluation, case, day, kind))


def draft_pdf(ws: Session, sbl: str, kind: str, *, as_of: date | None = None) -> bytes:
    from ...documents.render import render_letter

    if kind not in LETTER_KINDS:
        raise InputError(f"{kind!r} is not a letter kind; the kinds are "
                         f"{', '.join(LETTER_KINDS)}.")
    day = as_of or ws.today()
    case = ws.load_case(sbl)
    law = law_for_letters(ws, case)
    evaluation = evaluate_parcel(ws, sbl, as_of=day)
    inputs = _inputs(ws, sbl, evaluation, case, day, kind)
    letter = build(kind, inputs)
    # a draft whose issuing would be refused says why on every page
    reason = why_not(kind, evaluation, ws, sbl)
    reasons = ([] if reason is None else [reason]) + list(issue_problems(kind, inputs))
    if kind == "report_of_findings" and reason is None:
        unattested = _unattested(ws, sbl, case, day)
        reasons += [] if unattested is None else [unattested]
    if reasons:
        from dataclasses import replace

        letter = replace(letter, draft_note=f"{inputs.wording.common['not_called_for']}: "
                                            f"{'; '.join(reasons)}.")
    return render_letter(letter, office_for(ws, case.parcel.municipality), draft=True,
                         example_law=law.example)


def set_new_deadlines(ws: Session, sbl: str, *, as_of: date | None = None) -> dict[str, Any]:
    """Record a notice's deadlines afresh, counted from `as_of` by the law's defaults, in
    place of ones already past; an attributable edit of the case."""
    from dataclasses import replace

    from ...documents.content import deadlines
    from ...domain.case import NoticeDeadlines

    day = as_of or ws.today()
    parcel_id, before, _ = ws.open_for_edit(sbl)
    permit_by, complete_by, _, _ = deadlines(replace(before, notice=None),
                                             law_for_letters(ws, before), day)
    after = replace(before, notice=NoticeDeadlines(permit_by=permit_by,
                                                   complete_by=complete_by))
    save_edit(ws, parcel_id, before, after, today=day)
    return {"sbl": sbl, "permit_by": permit_by.isoformat(),
            "complete_by": complete_by.isoformat()}


def draft_from_case(ws: Session, case: Case, *, as_of: date) -> list[tuple[str, bytes]]:
    """Drafts of the letters a case file calls for, without storing anything."""
    from ...documents.render import render_letter

    law = law_for_letters(ws, case)
    evaluation = evaluate_case(ws, case, as_of=as_of)
    office = office_for(ws, case.parcel.municipality)
    wording = wording_for(ws)
    recipient(case)  # refuse an unmailable address before rendering anything
    out = []
    for kind in evaluation.letters:
        inputs = LetterInputs(case=case, evaluation=evaluation, jurisdiction=law,
                              wording=wording, office=office, letter_date=as_of)
        letter = build(kind.value, inputs)
        problems = issue_problems(kind.value, inputs)
        if problems:
            from dataclasses import replace

            letter = replace(letter, draft_note=f"{wording.common['not_called_for']}: "
                                                f"{'; '.join(problems)}.")
        out.append((kind.value, render_letter(letter, office, draft=True,
                                              example_law=law.example)))
    return out


@dataclass(frozen=True)
class IssuedLetter:
    id: str
    sbl: str
    kind: str
    letter_date: str
    sha256: str
    case_version: int
    replaces: str | None
    path: str
    warnings: tuple[str, ...]

    def as_json(self) -> dict[str, Any]:
        return self.__dict__.copy()


def issue(ws: Session, sbl: str, kinds: list[str] | None = None, *,
          as_of: date | None = None, replaces: str | None = None) -> list[IssuedLetter]:
    """Issue the letters the parcel's records call for (or those named)."""
    from ...documents.render import render_letter

    day = as_of or ws.today()
    parcel_id = ws.parcel_id(sbl)
    if conflicts.waiting_on(ws.store.conn, parcel_id):
        raise LetterRefused(f"Parcel {sbl} has unresolved sync conflicts; resolve them "
                            "(`inspector-app sync conflicts`) before issuing a letter.",
                            in_app=f"Parcel {sbl} has unresolved sync conflicts; resolve them "
                                   "(Sync > Conflicts...) before issuing a letter.")
    case = ws.load_case(sbl)
    law = law_for_letters(ws, case)
    if law.example:
        raise LetterRefused(
            f"Parcel {sbl}: the law on file for {case.parcel.municipality} ({law.source}) is an "
            "example, not the town's adopted law, so no letter can be issued under it "
            f"({NO_LETTER}); a draft marked {EXAMPLE_MARK} can be made. Add the town's own "
            "law with `inspector-app jurisdiction use FILE`.",
            in_app=f"Parcel {sbl}: the law on file for {case.parcel.municipality} is an "
                   "example, not the town's adopted law, so no letter can be issued under it; "
                   f"a draft marked {EXAMPLE_MARK} can be made.")
    evaluation = evaluate_parcel(ws, sbl, as_of=day)
    wanted = kinds or [k.value for k in evaluation.letters]
    if not wanted:
        raise InputError(f"Parcel {sbl}: the records call for no letter "
                         f"(outcome {evaluation.outcome.value}, no violations).")
    for kind in wanted:
        if kind not in LETTER_KINDS:
            raise InputError(f"{kind!r} is not a letter kind; the kinds are "
                             f"{', '.join(LETTER_KINDS)}.")
        reason = why_not(kind, evaluation, ws, sbl)
        if reason is not None:
            raise LetterRefused(f"Parcel {sbl}: no {kind} can be issued: {reason}.")
    for kind in wanted:  # before anything else is asked of the user (new deadlines)
        pending = pending_refusal(kind, evaluation, sbl)
        if pending is not None:
            raise pending
    replaced: tuple[str, str, date] | None = None
    if replaces is not None:
        old = letter_rows.letter(ws.store.conn, replaces)
        if old is None or old["status"] != "issued" or old["parcel_id"] != parcel_id:
            raise NotFoundError(f"No issued letter {replaces!r} for parcel {sbl} to correct.")
        if old["kind"] not in wanted:
            raise LetterRefused(f"Parcel {sbl}: letter {replaces[:8]} is a {old['kind']}; "
                                "a correction must be a letter of the same kind.")
        _refuse_replaced_again(ws, sbl, replaces)
        replaced = (replaces, old["kind"], date.fromisoformat(old["letter_date"]))
    if "report_of_findings" in wanted:  # attested once the findings are all decided
        unattested = _unattested(ws, sbl, case, day)
        if unattested is not None:
            raise LetterRefused(
                f"Parcel {sbl}: no report_of_findings can be issued: {unattested}; record "
                f"the attestation with `inspector-app attest {sbl} --name NAME --kind "
                "design_professional|certified_inspector --number NUMBER --signature FILE`.",
                in_app=f"Parcel {sbl}: no report of findings can be issued: {unattested}; "
                       "record the attestation with Attest... on the Letters tab.")
    office = office_for(ws, case.parcel.municipality)
    version = case_version(ws.store.conn, parcel_id)
    for kind in wanted:
        if replaced is not None and kind == replaced[1]:
            continue
        # the same kind from the same records: nothing but letters changed since it
        same = letter_rows.issued_from_same_records(ws.store.conn, parcel_id, kind)
        if same:
            first = same[0]
            raise LetterRefused(
                f"Parcel {sbl}: a {kind} was already issued from these records (letter "
                f"{first['id'][:8]}, dated {first['letter_date']}); nothing was issued. To "
                f"change it, issue a correction with --replaces {first['id']}.",
                in_app=f"Parcel {sbl}: a {kind.replace('_', ' ')} was already issued from "
                       f"these records (letter {first['id'][:8]}, dated "
                       f"{first['letter_date']}); nothing was issued.")
    rendered = []
    attested: dict[str, dict[str, str]] = {}
    for kind in wanted:
        fix = replaced if replaced is not None and kind == replaced[1] else None
        letter = build(kind, _inputs(ws, sbl, evaluation, ws.load_case(sbl), day, kind,
                                     replaced=fix))
        final = build(kind, _inputs(ws, sbl, evaluation, ws.load_case(sbl), day, kind,
                                    final=True, replaced=fix))
        values = tuple(f"uses {v}, which the jurisdiction file marks unconfirmed"
                       for v in letter.unconfirmed_values)
        rendered.append((final, render_letter(final, office, draft=False),
                         (*unconfirmed_citations(letter), *values)))
        attested[kind] = _attested(final)
    issued_at = datetime.now(UTC).isoformat(timespec="milliseconds")
    committed = []
    with ws.store.transaction() as w:
        if replaces is not None:  # corrected meanwhile by someone else: still one correction
            _refuse_replaced_again(ws, sbl, replaces, conn=w.conn)
        for letter, pdf, unconfirmed in rendered:
            digest = hashlib.sha256(pdf).hexdigest()
            letter_id = w.insert("letters", {
                "kind": letter.kind, "status": "issued", "letter_date": day,
                "recipient": list(letter.recipient), "case_version": version,
                "issued_by": w.actor.user, "issued_at": issued_at, "sha256": digest,
                "pdf": pdf, "replaces_letter_id": replaces, **attested[letter.kind]},
                parcel_id=parcel_id)
            committed.append((letter_id, letter, pdf, digest, unconfirmed))
    # The files in letters/ are written only once the register holds the letters, so that
    # no finished-looking letter exists that the register does not know.
    out = []
    for letter_id, letter, pdf, digest, unconfirmed in committed:
        warnings = [c if c.startswith("uses ") else
                    f"cites {c}, whose section number the jurisdiction file marks "
                    "unconfirmed" for c in unconfirmed]
        path = _copy_path(ws, sbl, letter.kind, day, letter_id)
        try:
            _file_copy(ws, sbl, letter.kind, day, letter_id, pdf)
        except OSError as exc:
            warnings.append(f"its copy {path} could not be written ({exc.strerror}); the "
                            "letter is issued and in the register: print it from there")
        out.append(IssuedLetter(letter_id, sbl, letter.kind, day.isoformat(), digest,
                                version, replaces, str(path), tuple(warnings)))
    return out


def _unattested(ws: Session, sbl: str, case: Case, day: date) -> str | None:
    from .attestation import missing_attestation

    return missing_attestation(ws, ws.parcel_id(sbl), case, day)


def _attested(letter: Letter) -> dict[str, str]:
    """The attestation a letter carries and its signature's SHA-256, for the register."""
    from ...documents.content import AttestationBlock

    for block in letter.blocks:
        if isinstance(block, AttestationBlock):
            return {"attestation_id": block.id, "signature_sha256": block.signature_sha256}
    return {}


def _refuse_replaced_again(ws: Session, sbl: str, replaces: str, *, conn: Any = None) -> None:
    """A letter is corrected once: a correction of one already replaced is refused, naming
    the letter in force (the last of its corrections) to correct instead."""
    def replacement(letter_id: str) -> tuple[str, str] | None:
        return letter_rows.replacement_of(conn or ws.store.conn, letter_id)

    first = replacement(replaces)
    if first is None:
        return
    current, seen = first, {replaces}
    while current[0] not in seen:
        seen.add(current[0])
        later = replacement(current[0])
        if later is None:
            break
        current = later
    via = "" if current == first else (f", itself since corrected; the letter in force is "
                                       f"{current[0][:8]}, dated {current[1]}")
    raise LetterRefused(
        f"Parcel {sbl}: letter {replaces[:8]} was already replaced by letter {first[0][:8]} "
        f"(dated {first[1]}){via}; nothing was issued. To correct the correction, issue with "
        f"--replaces {current[0]}.",
        in_app=f"Parcel {sbl}: letter {replaces[:8]} was already replaced by letter "
               f"{first[0][:8]} (dated {first[1]}){via}; nothing was issued. To correct it, "
               f"correct letter {current[0][:8]} instead.")


_UNCONFIRMED = re.compile(r"((?:§|10 NYCRR|Chapter)[^<>()]*?(?:\([^<>()]*\)[^<>()]*?)*) "
                          r"\(unconfirmed\)")


def unconfirmed_citations(letter: Letter) -> tuple[str, ...]:
    """The unconfirmed citations a letter's draft shows, in order, once each."""
    texts = [letter.subject, *letter.closing]
    for block in letter.blocks:
        texts += [*getattr(block, "items", ()), getattr(block, "text", "")]
    found: dict[str, None] = {}
    for text in texts:
        for match in _UNCONFIRMED.finditer(text.replace("<b>", "").replace("</b>", "")):
            found[match.group(1).strip()] = None
    return tuple(found)


def _file_copy(ws: Session, sbl: str, kind: str, day: date, letter_id: str,
               pdf: bytes) -> Path:
    """A convenience copy in the data folder's letters/ of a letter the register holds
    (committed); the register is the record."""
    path = _copy_path(ws, sbl, kind, day, letter_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, pdf)
    return path


def _copy_path(ws: Session, sbl: str, kind: str, day: date, letter_id: str) -> Path:
    folder = ws.folder.letters / sbl.replace("/", "_")
    return folder / f"{day.isoformat()}-{kind}-{letter_id[:8]}.pdf"


def register(ws: Session, sbl: str | None = None) -> list[dict[str, Any]]:
    rows = letter_rows.register(ws.store.conn, None if sbl is None else ws.parcel_id(sbl))
    for r in rows:
        r["recipient"] = json.loads(r["recipient"])
        r["replaces"] = r.pop("replaces_letter_id")
    return rows


def stored_pdf(ws: Session, letter_id: str) -> bytes:
    """An issued letter's bytes, checked against the hash stored when it was issued."""
    row = letter_rows.issued_pdf(ws.store.conn, letter_id)
    if row is None:
        raise NotFoundError(f"No issued letter {letter_id!r} in the register.")
    pdf: bytes = row["pdf"]
    if hashlib.sha256(pdf).hexdigest() != row["sha256"]:
        raise InputError(f"Letter {letter_id}: its stored bytes no longer match the hash "
                         "recorded when it was issued; restore the database from a backup.")
    return pdf


def print_batch(ws: Session, out: Path, *, labels: Path | None = None,
                progress: Callable[[int, int], None] | None = None,
                cancelled: Callable[[], bool] = lambda: False) -> dict[str, Any]:
    """Every issued letter not yet printed, in one PDF (and a sheet of labels).

    The letters are marked printed only once the files are written; a cancelled batch
    writes nothing and marks nothing."""
    from ...documents.render import LabelTooLong, labels_5160, merge

    pending = [r for r in register(ws) if r["printed_at"] is None]
    if not pending:
        return {"letters": 0, "path": None, "labels": None}
    pdfs = []
    for n, row in enumerate(pending, start=1):
        if cancelled():
            raise Cancelled("Printing was cancelled; no letter was marked printed.")
        pdfs.append(stored_pdf(ws, row["id"]))
        if progress is not None:
            progress(n, len(pending))
    sheet = None
    if labels is not None:  # laid out before any file is written
        try:
            sheet = labels_5160([r["recipient"] for r in pending])
        except LabelTooLong as exc:
            raise InputError(f"No labels or letters were written: {exc}.") from None
    write_atomically(out, merge(pdfs))
    if labels is not None and sheet is not None:
        write_atomically(labels, sheet)
    stamp = datetime.now(UTC).isoformat(timespec="milliseconds")
    with ws.store.transaction() as w:
        for row in pending:
            w.update("letters", row["id"], {"printed_at": stamp})
    return {"letters": len(pending), "path": str(out),
            "labels": None if labels is None else str(labels),
            "ids": [r["id"] for r in pending]}


def mark_printed(ws: Session, letter_id: str) -> dict[str, Any]:
    """Record that an issued letter was printed, as `print_batch` does, so that the batch
    of pending letters leaves it out. Only the printed stamp is written, through the record
    writer (attributable, in the change log); the letter's content is not touched. A draft
    is not a letter of the register and is refused. A letter printed before keeps the time
    it was first printed. Returns the letter's id, its printed time and whether it was
    printed before."""
    row = letter_rows.printing(ws.store.conn, letter_id)
    if row is None:
        raise NotFoundError(f"No letter {letter_id!r} in the register.")
    if row["status"] != "issued":
        raise InputError(f"Letter {letter_id[:8]} is a draft, not an issued letter; only an "
                         "issued letter is marked printed.")
    if row["printed_at"] is not None:
        return {"id": letter_id, "printed_at": row["printed_at"], "before": True}
    stamp = datetime.now(UTC).isoformat(timespec="milliseconds")
    with ws.store.transaction() as w:
        w.update("letters", letter_id, {"printed_at": stamp})
    return {"id": letter_id, "printed_at": stamp, "before": False}


def preview_pages(pdf: bytes, *, dpi: float = 96) -> list[Any]:
    """Pages of a letter as pictures, for a preview window or a printer."""
    from ...documents.preview import render_pages

    return render_pages(pdf, dpi=dpi)


def issued_copy(ws: Session, letter_id: str) -> Path:
    """A file of an issued letter (the register's bytes) for the system's PDF viewer."""
    pdf = stored_pdf(ws, letter_id)
    row = letter_rows.where_filed(ws.store.conn, letter_id)
    return _file_copy(ws, row["sbl"], row["kind"], date.fromisoformat(row["letter_date"]),
                      letter_id, pdf)
