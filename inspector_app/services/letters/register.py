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
from dataclasses import dataclass, replace
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
    letter_dates,
    pending_refusal,
    premise_problems,
    recipient,
)
from ...domain.case import Case
from ...domain.jurisdiction import EXAMPLE_MARK, Jurisdiction
from ...domain.rules import (
    Evaluation,
    LakeFinding,
    LetterKind,
    next_inspection_due,
    separation_line,
)
from ...domain.sbl import lookup_key
from ...errors import Cancelled, InputError, NotFoundError
from ...paths import write_atomically
from ...storage import attachments, conflicts, inspections, measurements
from ...storage import letters as letter_rows
from ...storage.cases import case_version
from ..parcel.cases import save_edit
from ..parcel.evaluation import evaluate_case, evaluate_parcel
from ..session.letterhead import office_for, wording_for
from .citations import citation_warnings
from .corrections import (
    keeping_served_dates,
    refuse_replaced_again,
    what_changed,
    with_changes,
)
from .stored import copy_path, file_copy, stored_pdf

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
    from ..parcel.attachments import component_names, photo_caption

    rows = attachments.photos_of(ws.store.conn, parcel_id)
    names = component_names(ws, parcel_id)
    return tuple(Photo(ws.attachment_path(r["sha256"]), photo_caption(r),
                       marks=tuple(r["annotations"]),
                       element=names.get(r["component_id"] or ""))
                 for r in rows if ws.attachment_path(r["sha256"]).exists())


def _inputs(ws: Session, sbl: str, evaluation: Evaluation, case: Case, letter_date: date,
            kind: str, *, final: bool = False,
            replaced: tuple[str, str, date] | None = None,
            carried: frozenset[str] = frozenset()) -> LetterInputs:
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
        separations=tuple(separation_line(s, law) for s in evaluation.separations)
        if report else (),
        attestation=attestation_block(ws, parcel_id, case) if report else None,
        carried=carried, carried_on=replaced[2] if replaced is not None else None)


def why_not(kind: str, evaluation: Evaluation, ws: Session, sbl: str) -> str | None:
    """None when the parcel's records call for this letter; else the reason they do not."""
    if kind in {k.value for k in LetterKind}:
        if LetterKind(kind) in evaluation.letters:
            return None
        called = ", ".join(k.value for k in evaluation.letters) or "no letter"
        why = premise_problems(kind, evaluation, ws.law_for(
            ws.load_case(sbl).parcel.municipality).lake_setback_ft)
        return (f"the records call for {called}, not a {kind}"
                + (f" ({'; '.join(why)})" if why else ""))
    codes = {v.code for v in evaluation.violations}
    if kind == "etu_report_reminder" and codes & {"etu_report_late", "etu_inspection_overdue"}:
        return None
    if kind == "pump_out_request" and "holding_tank_records_missing" in codes:
        return None
    if kind == "five_year_reminder":
        from ..lists.worklists import worklists

        items = worklists(ws, as_of=evaluation.as_of, names=("five-year-inspections",))
        if any(lookup_key(i["sbl"]) == lookup_key(sbl)
               for i in items["five-year-inspections"]):
            return None
        why = premise_problems(kind, evaluation, ws.law_for(
            ws.load_case(sbl).parcel.municipality).lake_setback_ft)
        return ("the parcel is not due for its five-year inspection"
                + (f" ({'; '.join(why)})" if why else ""))
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
    # a correction: what it changes in the letter it replaces
    changes: tuple[str, ...] = ()

    def as_json(self) -> dict[str, Any]:
        return self.__dict__.copy()


@dataclass(frozen=True)
class IssuePlan:
    """The letters an issue would commit, made after every refusal the issue makes."""

    sbl: str
    parcel_id: str
    day: date
    version: int
    replaces: str | None
    # each letter as it would be issued, its PDF and its warnings
    letters: tuple[tuple[Letter, bytes, tuple[str, ...], dict[str, date]], ...]
    # a correction: what it changes in the corrected letter, in words
    changes: tuple[str, ...] = ()

    def as_json(self) -> dict[str, Any]:
        return {"sbl": self.sbl, "kinds": [lt.kind for lt, _, _, _ in self.letters],
                "letter_date": self.day.isoformat(), "replaces": self.replaces,
                "changes": list(self.changes)}


def check_issue(ws: Session, sbl: str, kinds: list[str] | None = None, *,
                as_of: date | None = None, replaces: str | None = None) -> IssuePlan:
    """Everything `issue` refuses, checked without issuing (conflicts, example law,
    letters the records do not call for, pending suggestions, a letter already issued,
    a correction of a replaced letter or one that changes nothing); the letters it would
    issue, made. Nothing is written."""
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
            said = f"Parcel {sbl}: no {kind} can be issued: {reason}."
            # in the app, the letters' names in words, not the command line's codes
            raise LetterRefused(said, in_app=re.sub(
                "|".join(sorted(LETTER_KINDS, key=len, reverse=True)),
                lambda m: m.group(0).replace("_", " "), said))
    for kind in wanted:  # before anything else is asked of the user (new deadlines)
        pending = pending_refusal(kind, evaluation, sbl)
        if pending is not None:
            raise pending
    replaced: tuple[str, str, date] | None = None
    if replaces is not None:
        from .service import letter_id_for

        replaces = letter_id_for(ws, replaces)
        old = letter_rows.letter(ws.store.conn, replaces)
        if old is None or old["status"] != "issued" or old["parcel_id"] != parcel_id:
            raise NotFoundError(f"No issued letter {replaces!r} for parcel {sbl} to correct.")
        if old["kind"] not in wanted:
            raise LetterRefused(f"Parcel {sbl}: letter {replaces[:8]} is a {old['kind']}; "
                                "a correction must be a letter of the same kind.")
        refuse_replaced_again(ws, sbl, replaces)
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
        if _refuse_repeat(ws, sbl, kind, day):
            continue  # a reminder following up one whose date has passed
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
    changed: tuple[str, ...] = ()
    for kind in wanted:
        fix = replaced if replaced is not None and kind == replaced[1] else None
        stored, carried = ws.load_case(sbl), frozenset[str]()
        if fix is not None:
            stored, carried = keeping_served_dates(ws, stored, fix[0])
        letter = build(kind, _inputs(ws, sbl, evaluation, stored, day, kind, replaced=fix,
                                     carried=carried))
        inputs = _inputs(ws, sbl, evaluation, stored, day, kind, final=True, replaced=fix,
                         carried=carried)
        final = build(kind, inputs)
        if fix is not None:  # made as an original letter, its dates worded as the correction's
            plain = build(kind, replace(inputs, replaced=None))
            changed = what_changed(ws, sbl, fix, render_letter(plain, office, draft=False),
                                    day)
            final = with_changes(final, fix, changed)
        values = tuple(f"uses {v}, which the jurisdiction file marks unconfirmed"
                       for v in letter.unconfirmed_values)
        rendered.append((final, render_letter(final, office, draft=False),
                         (*citation_warnings(letter, final, law), *values),
                         letter_dates(kind, inputs)))
    return IssuePlan(sbl, parcel_id, day, version, replaces, tuple(rendered), changed)


def _asked_by(ws: Session, sbl: str, earlier: dict[str, Any]) -> date | None:
    """The date a reminder asked the owner to act by: the reply date it printed, else (a
    five-year reminder sent before the inspection fell due) the due date it printed."""
    if earlier["reply_by"] is not None:
        return date.fromisoformat(earlier["reply_by"])
    last = _last_inspection(ws, ws.parcel_id(sbl))
    if earlier["kind"] == "five_year_reminder" and last is not None:
        return next_inspection_due(last, law_for_letters(ws, ws.load_case(sbl)))
    return None


def _refuse_repeat(ws: Session, sbl: str, kind: str, day: date) -> bool:
    """A letter of a kind already in force for the parcel's inspection (issued on or after
    it, not replaced) is refused, naming it: to change it, it is corrected. A reminder may
    follow one up once the date that one asked the owner to act by has passed (True: this
    is such a follow-up); before, it is refused naming that date."""
    earlier = in_force_since_inspection(ws, sbl, kind)
    if earlier is None:
        return False
    short, when, full = earlier["id"][:8], earlier["letter_date"], earlier["id"]
    if kind in REMINDERS:
        by = _asked_by(ws, sbl, earlier)
        if by is not None and day > by:
            return True
        until = ("" if by is None else
                 f" and asks the owner to act by {by.isoformat()}, after which a reminder may "
                 "follow it up")
        raise LetterRefused(
            f"Parcel {sbl}: {kind} {short} of {when} is in force{until}, so nothing was "
            f"issued; to change it, issue a correction with --replaces {full}.",
            in_app=f"Parcel {sbl}: the {kind.replace('_', ' ')} {short} of {when} is in "
                   f"force{until}, so nothing was issued; to change it, issue its correction.")
    raise LetterRefused(
        f"Parcel {sbl}: {kind} {short} of {when} is already in force for this inspection, so "
        f"nothing was issued; to change it, issue a correction with --replaces {full}.",
        in_app=f"Parcel {sbl}: the {kind.replace('_', ' ')} {short} of {when} is already in "
               "force for this inspection, so nothing was issued; to change it, issue its "
               "correction.")


def issue(ws: Session, sbl: str, kinds: list[str] | None = None, *,
          as_of: date | None = None, replaces: str | None = None) -> list[IssuedLetter]:
    """Issue the letters the parcel's records call for (or those named)."""
    plan = check_issue(ws, sbl, kinds, as_of=as_of, replaces=replaces)
    sbl, parcel_id, day, version = plan.sbl, plan.parcel_id, plan.day, plan.version
    replaces, rendered = plan.replaces, plan.letters
    issued_at = datetime.now(UTC).isoformat(timespec="milliseconds")
    committed = []
    with ws.store.transaction() as w:
        if replaces is not None:  # corrected meanwhile by someone else: still one correction
            refuse_replaced_again(ws, sbl, replaces, conn=w.conn)
        for letter, pdf, unconfirmed, dates in rendered:
            digest = hashlib.sha256(pdf).hexdigest()
            letter_id = w.insert("letters", {
                "kind": letter.kind, "status": "issued", "letter_date": day,
                "recipient": list(letter.recipient), "case_version": version,
                "issued_by": w.actor.user, "issued_at": issued_at, "sha256": digest,
                "pdf": pdf, "replaces_letter_id": replaces,
                **{name: d.isoformat() for name, d in dates.items()},
                **_attested(letter)}, parcel_id=parcel_id)
            committed.append((letter_id, letter, pdf, digest, unconfirmed))
    # The files in letters/ are written only once the register holds the letters, so that
    # no finished-looking letter exists that the register does not know.
    out = []
    for letter_id, letter, pdf, digest, unconfirmed in committed:
        warnings = list(unconfirmed)
        path = copy_path(ws, sbl, letter.kind, day, letter_id)
        try:
            file_copy(ws, sbl, letter.kind, day, letter_id, pdf)
        except OSError as exc:
            warnings.append(f"its copy {path} could not be written ({exc.strerror}); the "
                            "letter is issued and in the register: print it from there")
        out.append(IssuedLetter(letter_id, sbl, letter.kind, day.isoformat(), digest,
                                version, replaces, str(path), tuple(warnings),
                                plan.changes if replaces is not None else ()))
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


def register(ws: Session, sbl: str | None = None) -> list[dict[str, Any]]:
    """The issued letters, oldest first; each with the dates it set as served (`permit_by`,
    `complete_by`, `reply_by`, `pump_out_by`, where they come from) and whether it is in
    force (no issued letter replaces it) and, if not, which letter replaced it; and how it
    was served."""
    from ..lists.served import service_of
    from ..parcel.served import DATE_NAMES, served

    rows = letter_rows.register(ws.store.conn, None if sbl is None else ws.parcel_id(sbl))
    service = service_of(ws, [r["id"] for r in rows])
    replaced_by = {r["replaces_letter_id"]: r["id"] for r in rows
                   if r["replaces_letter_id"] is not None}
    for r in rows:
        r["recipient"] = json.loads(r["recipient"])
        r["replaces"] = r.pop("replaces_letter_id")
        dates = served(ws, r["id"])
        if dates is not None:
            shown = dates.as_json()
            for name in (*DATE_NAMES, "dates_from"):
                r[name] = shown[name]
        r["in_force"] = r["id"] not in replaced_by
        r["replaced_by"] = replaced_by.get(r["id"])
        r["service"] = service[r["id"]].as_json()
    return rows


def in_force_since_inspection(ws: Session, sbl: str, kind: str) -> dict[str, Any] | None:
    """The parcel's issued letter of this kind that no letter replaces, dated on or after
    its last inspection (any, when none is recorded): the one a new letter of the kind
    would correct. None when there is none."""
    rows = register(ws, sbl)
    replaced = {r["replaces"] for r in rows}
    last = _last_inspection(ws, ws.parcel_id(sbl))
    found = [r for r in rows if r["kind"] == kind and r["id"] not in replaced
             and (last is None or r["letter_date"] >= last.isoformat())]
    return found[-1] if found else None


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
    from .service import letter_id_for

    letter_id = letter_id_for(ws, letter_id)
    pdf = stored_pdf(ws, letter_id)
    row = letter_rows.where_filed(ws.store.conn, letter_id)
    return file_copy(ws, row["sbl"], row["kind"], date.fromisoformat(row["letter_date"]),
                      letter_id, pdf)
