"""What each letter says, built from the case, its evaluation and the office's wording.

Pure: the result is plain values that `render.py` lays out. Nothing here decides the law;
it reports the evaluation in the office's words.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from ..domain.case import Case, Component
from ..domain.fields import COMPONENT_DETAILS
from ..domain.jurisdiction import Jurisdiction
from ..domain.rules import Evaluation, Finding
from ..domain.vocabulary import Condition
from ..errors import InputError
from .templates import Office, Wording, escape, fill

DETAILS = {spec.name: spec for spec in COMPONENT_DETAILS}
LETTER_KINDS = ("notice_of_violation", "substandard_notice", "letter_of_acknowledgement",
                "five_year_reminder", "etu_report_reminder", "pump_out_request",
                "report_of_findings")
_POSTAL_LINE = re.compile(r"\d{5}(-\d{4})?\s*$|[A-Z]\d[A-Z]\s?\d[A-Z]\d\s*$", re.I)


class LetterRefused(InputError):
    pass


@dataclass(frozen=True)
class Paragraph:
    text: str  # reportlab paragraph markup, values already escaped


@dataclass(frozen=True)
class Bullets:
    items: tuple[str, ...]


@dataclass(frozen=True)
class Table:
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    widths: tuple[float, ...]  # fractions of the text width


@dataclass(frozen=True)
class Heading:
    text: str


@dataclass(frozen=True, kw_only=True)
class Sketch:
    """A site sketch in EPSG:2261 feet, ready to draw."""

    window: tuple[float, float, float, float]  # minx, miny, maxx, maxy
    shore: tuple[tuple[tuple[float, float], ...], ...]
    band: tuple[tuple[tuple[float, float], ...], ...]  # rings of the setback band
    areas: tuple[tuple[tuple[float, float], ...], ...]
    features: tuple[tuple[str, tuple[tuple[float, float], ...]], ...]
    water: tuple[tuple[tuple[float, float], ...], ...]
    nearest: tuple[tuple[float, float], tuple[float, float]] | None
    distance_label: str
    caption: str


@dataclass(frozen=True)
class Photo:
    path: Path
    caption: str


Block = Paragraph | Bullets | Table | Heading | Sketch | Photo


@dataclass(frozen=True, kw_only=True)
class Letter:
    kind: str
    title: str
    letter_date: date
    sbl: str
    recipient: tuple[str, ...]
    subject: str
    salutation: str
    blocks: tuple[Block, ...]
    closing: tuple[str, ...]
    cc: tuple[str, ...] = ()
    signed: bool = True


@dataclass(frozen=True, kw_only=True)
class LetterInputs:
    case: Case
    evaluation: Evaluation
    jurisdiction: Jurisdiction
    wording: Wording
    office: Office
    letter_date: date
    last_inspection: date | None = None
    sketch: Sketch | None = None
    photos: tuple[Photo, ...] = ()
    # Drafts show "(unconfirmed)" after section numbers the jurisdiction file has not
    # confirmed, so the office sees them before issuing; issued letters cite plainly.
    mark_unconfirmed: bool = True
    separations: tuple[str, ...] = ()
    measurements: tuple[str, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)


def recipient(case: Case) -> tuple[str, ...]:
    """The owner's name and mailing address, refused if it cannot be mailed."""
    p = case.parcel
    lines = tuple(line.strip() for line in p.owner_mailing_address if line.strip())
    if not lines:
        raise LetterRefused(f"Parcel {p.sbl}: the owner's mailing address is missing; record "
                            "parcel.owner_mailing_address before issuing a letter.")
    if len(lines) < 2 or not _POSTAL_LINE.search(lines[-1]):
        raise LetterRefused(
            f"Parcel {p.sbl}: the owner's mailing address ({'; '.join(lines)}) has no line "
            "ending in a ZIP or postal code; complete parcel.owner_mailing_address before "
            "issuing a letter.")
    return (p.owner_name, *lines)


def _date(d: date | None) -> str:
    return "[not recorded]" if d is None else f"{d:%B} {d.day}, {d.year}"


def _values(i: LetterInputs) -> dict[str, Any]:
    c, j = i.case, i.jurisdiction
    insp = c.inspection
    permit_by = (c.notice.permit_by if c.notice and c.notice.permit_by else
                 i.letter_date + timedelta(days=j.notice_permit_within_days))
    complete_by = (c.notice.complete_by if c.notice and c.notice.complete_by else
                   i.letter_date + timedelta(days=j.notice_complete_within_days))
    return {
        "owner_name": c.parcel.owner_name, "site_address": c.parcel.site_address,
        "municipality": c.parcel.municipality, "sbl": c.parcel.sbl,
        "letter_date": _date(i.letter_date),
        "inspection_date": _date(insp.date if insp else None),
        "inspector": insp.inspector + (f" ({insp.inspector_certification})"
                                       if insp.inspector_certification else "")
        if insp else "[not recorded]",
        "law": j.law, "water_body": j.water_body, "authority": j.authority,
        "office_name": i.office.office_name, "permit_by": _date(permit_by),
        "complete_by": _date(complete_by),
        "complete_within_days": (complete_by - i.letter_date).days,
        "setback_ft": f"{j.lake_setback_ft:g}", "cycle_years": j.inspection_cycle_years,
        "report_days": j.etu_report_within_days,
        "cite": {k: j.cite(k) if i.mark_unconfirmed else j.citations[k] for k in j.citations},
        "last_inspection": _date(i.last_inspection),
        "due_date": _date(i.extra.get("due_date")),
        "waiver_description": (c.ahj.waiver_description or "") if c.ahj else "",
    }


def _component_line(c: Component, wording: Wording) -> str:
    text = f"<b>{escape(wording.label(c.kind.value))}</b> ({escape(wording.label(c.condition))})"
    if c.defects:
        text += ": " + "; ".join(escape(d) for d in c.defects)
    if c.note:
        text += f". <i>{escape(c.note)}</i>"
    return text


UNCONFIRMED = " (unconfirmed)"


def citation_text(citation: str, mark_unconfirmed: bool) -> str:
    return citation if mark_unconfirmed else citation.removesuffix(UNCONFIRMED)


def _finding_line(f: Finding, wording: Wording, mark: bool) -> str:
    return (f"<b>{escape(citation_text(f.citation, mark))}</b>: {escape(wording.label(f.code))} "
            f"({escape(f.detail)})")


def build(kind: str, i: LetterInputs) -> Letter:
    if kind not in LETTER_KINDS:
        raise LetterRefused(f"{kind!r} is not a letter kind; the kinds are "
                            f"{', '.join(LETTER_KINDS)}.")
    t = i.wording.templates[kind]
    v = _values(i)
    blocks: list[Block] = [Paragraph(fill(p, v)) for p in t.paragraphs]
    e, c = i.evaluation, i.case
    cc: tuple[str, ...] = ()
    if kind == "notice_of_violation":
        blocks.append(Bullets(tuple(_finding_line(f, i.wording, i.mark_unconfirmed)
                                    for f in e.violations)))
        failing = [x for x in c.components
                   if x.condition in (Condition.FAILED, Condition.SUBSTANDARD)]
        if failing:
            blocks.append(Paragraph(t.text("components_heading", v)))
            blocks.append(Bullets(tuple(_component_line(x, i.wording) for x in failing)))
        blocks += [Paragraph(t.text(k, v)) for k in ("corrective_action", "deadlines",
                                                     "renters")]
        cc = tuple(r.name for r in c.parcel.renters)
    elif kind == "substandard_notice":
        if t.texts["components_heading"]:
            blocks.append(Paragraph(t.text("components_heading", v)))
        blocks.append(Bullets(tuple(_component_line(x, i.wording) for x in c.components
                                    if x.condition is Condition.SUBSTANDARD)))
    elif kind == "letter_of_acknowledgement":
        ahj = c.ahj
        blocks.append(Paragraph(t.text("waiver_granted" if ahj and ahj.waiver_granted
                                       else "waiver_none", v)))
        blocks.append(Paragraph(t.text("factors_heading", v)))
        findings = {f.factor: f.finding for f in (ahj.factors_weighed if ahj else ())}
        items = []
        for factor in i.jurisdiction.waiver_factors:
            letter = factor[1:2]
            item = escape(factor)
            if letter in findings:
                item += f": <i>{escape(findings[letter])}</i>"
            items.append(item)
        blocks.append(Bullets(tuple(items)))
        if ahj and (ahj.determined_by or ahj.determined_on):
            by = escape(ahj.determined_by or "[not recorded]")
            blocks.append(Paragraph(f"Determination by {by} on {_date(ahj.determined_on)}."))
    elif kind in ("etu_report_reminder", "pump_out_request"):
        prefix = "etu_" if kind == "etu_report_reminder" else "holding_tank_"
        blocks.append(Bullets(tuple(_finding_line(f, i.wording, i.mark_unconfirmed)
                                    for f in e.violations if f.code.startswith(prefix))))
    elif kind == "report_of_findings":
        blocks += _report_blocks(i)
    closing = tuple(fill(p, v) for p in t.closing)
    return Letter(kind=kind, title=fill(t.texts["title"], v), letter_date=i.letter_date,
                  sbl=c.parcel.sbl, recipient=recipient(c), subject=fill(t.texts["subject"], v),
                  salutation=fill(t.texts["salutation"], v), blocks=tuple(blocks),
                  closing=closing, cc=cc, signed=kind != "report_of_findings")


def _report_blocks(i: LetterInputs) -> list[Block]:
    c, e, w = i.case, i.evaluation, i.wording
    out: list[Block] = [Heading("System elements")]
    rows = []
    for comp in c.components:
        d = comp.details
        kind = w.label(comp.kind.value)
        if d.get("absorption_type"):
            kind += f", {d['absorption_type']}".replace("_", " ")
        if d.get("material"):
            kind += f", {d['material']}"
        capacity = (f"{d['capacity_gal']:,g} gal" if "capacity_gal" in d else
                    f"{d['area_sqft']:,g} sq ft" if "area_sqft" in d else "-")
        location = str(d.get("location_note") or ("located on site map" if comp.geometry
                                                  else "-"))
        observed = [_detail_text(name, val) for name, val in d.items()
                    if name not in ("absorption_type", "material", "capacity_gal", "area_sqft",
                                    "location_note")]
        function = "; ".join([*comp.defects, *observed, *([comp.note] if comp.note else [])])
        rows.append(tuple(escape(x) for x in (kind, capacity, location,
                                               w.label(comp.condition), function or "-")))
    out.append(Table(("Element", "Capacity", "Location", "Condition", "Functionality"),
                     tuple(rows), (0.19, 0.11, 0.17, 0.15, 0.38)))
    insp = c.inspection
    if insp and insp.tests:
        out.append(Heading("Tests"))
        out.append(Table(("Test", "Volume", "Duration", "Result", "Note"), tuple(
            tuple(escape(x) for x in (
                w.label(t.kind.value),
                "-" if t.volume_gal is None else f"{t.volume_gal:,g} gal",
                "-" if t.duration_min is None else f"{t.duration_min:,g} min",
                t.result.value, t.note or "-")) for t in insp.tests),
            (0.22, 0.14, 0.14, 0.14, 0.36)))
    if insp and insp.failure_evidence:
        out.append(Heading("Evidence of failure"))
        out.append(Bullets(tuple(escape(x) for x in insp.failure_evidence)))
    out.append(Heading("Measured distances"))
    lines = [escape(m) for m in i.measurements] or ["No distance to the lake line is recorded."]
    lines += [escape(s) for s in i.separations]
    out.append(Bullets(tuple(lines)))
    out.append(Heading("Determination"))
    verdict = f"Outcome: <b>{escape(e.outcome.value)}</b>"
    if e.outcome_citation:
        verdict += f" ({escape(citation_text(e.outcome_citation, i.mark_unconfirmed))})"
    design = e.design
    if design is not None:
        verdict += (f". Design load: {escape(design.arithmetic)} "
                    f"({design.design_bedrooms} design bedrooms, {escape(design.standard)}"
                    f"{', provisional' if design.provisional else ''}).")
    out.append(Paragraph(verdict))
    if i.sketch is not None:
        out.append(i.sketch)  # drawn under its own heading, kept on one page
    if i.photos:
        out.append(Heading("Photographs"))
        out.extend(i.photos)
    return out


def _detail_text(name: str, value: object) -> str:
    spec = DETAILS.get(name)
    label = spec.label if spec else name.replace("_", " ")
    if isinstance(value, bool):
        text = "yes" if value else "no"
    elif isinstance(value, float | int):
        text = f"{value:,g}" + (f" {spec.unit}" if spec and spec.unit else "")
    else:
        text = str(value).replace("_", " ")
    return f"{label}: {text}"


def describe_measurements(rows: Sequence[dict[str, Any]]) -> tuple[str, ...]:
    """One line per stored lake distance: value, method, layer, accuracy, who, when."""
    out = []
    for r in rows:
        line = f"{r['distance_ft']:,.1f} ft to the lake line by {r['method']}"
        if r.get("layer"):
            line += f" on {r['layer']}"
        if r.get("accuracy_ft") is not None:
            line += f" (±{r['accuracy_ft']:,g} ft)"
        line += f", {r['measured_by']}, {r['measured_on']}"
        out.append(line)
    return tuple(out)
