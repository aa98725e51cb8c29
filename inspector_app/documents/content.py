"""What each letter says, built from the case, its evaluation and the office's wording.

Pure: the result is plain values that `render.py` lays out. Nothing here decides the law;
it reports the evaluation in the office's words.
"""

from __future__ import annotations

import re
import string
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from ..domain.business_days import days_after, next_business_day
from ..domain.case import Case, Component, element_names
from ..domain.fields import COMPONENT_DETAILS
from ..domain.jurisdiction import NOTICE_DEADLINES, PUMP_SHARE_VALUE, Jurisdiction
from ..domain.rules import (
    Evaluation,
    Finding,
    LakeFinding,
    Outcome,
    Suggestion,
    SuggestionStatus,
    Zone,
    finding_text,
)
from ..domain.tank import TankSolids, share_words
from ..domain.vocabulary import ComponentKind, Condition, TestResult
from ..errors import InputError
from .templates import REQUEST, LetterTemplate, Office, Wording, escape, fill

DETAILS = {spec.name: spec for spec in COMPONENT_DETAILS}
LETTER_KINDS = ("notice_of_violation", "substandard_notice", "letter_of_acknowledgement",
                "five_year_reminder", "etu_report_reminder", "pump_out_request",
                "report_of_findings")
_POSTAL_LINE = re.compile(r"\d{5}(-\d{4})?\s*$|[A-Z]\d[A-Z]\s?\d[A-Z]\d\s*$", re.I)


class LetterRefused(InputError):
    pass


class DeadlinesPassed(LetterRefused):
    """A deadline recorded for a notice is before the letter's date."""


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
    # Said on the sketch above the drawing: the distance that decides, in words, and what
    # the shoreline drawn is when it is not what decides.
    notes: tuple[str, ...] = ()
    # The parcel's lot line from the tax map (lines clipped to the window), and its label
    # ("Lot line: LAYER vN (±N ft)", named by the lot layer it comes from).
    lot: tuple[tuple[tuple[float, float], ...], ...] = ()
    lot_label: str = ""
    # Aerial imagery under the drawing (PNG bytes covering the window exactly, flattened
    # on white), and the words printed with it ("Imagery: SOURCE, DATE"); None: none.
    imagery: bytes | None = None
    imagery_label: str = ""
    # Where the parcel's photos were taken (their camera's GPS): label, position.
    photos: tuple[tuple[str, tuple[float, float]], ...] = ()


@dataclass(frozen=True)
class Photo:
    path: Path
    caption: str
    # the marks drawn over it (`domain/annotations.py`), and the component it shows as
    # `attach` names it ("septic_tank#1"): printed under that element
    marks: tuple[str, ...] = ()
    element: str | None = None


@dataclass(frozen=True, kw_only=True)
class AttestationBlock:
    """The attestation a report of findings carries: who attests, as what, their number,
    the day, and the signature image (its path and SHA-256)."""

    id: str
    name: str
    kind: str  # in words: "Design professional", ...
    number: str  # with its words: "certification no. 1983"
    attested_on: date
    inspection_date: date
    signature: Path
    signature_sha256: str


Block = Paragraph | Bullets | Table | Heading | Sketch | Photo | AttestationBlock


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
    # On every page of a draft the records do not call for: why it cannot be issued.
    draft_note: str | None = None
    # Values the jurisdiction file marks unconfirmed that this letter uses.
    unconfirmed_values: tuple[str, ...] = ()


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
    # A correction: the id, kind and date of the issued letter it replaces.
    replaced: tuple[str, str, date] | None = None
    # A report of findings: the attestation in force (None: not attested).
    attestation: AttestationBlock | None = None
    # A correction: the deadlines it carries from the letter it corrects (not recorded on
    # the case) and that letter's date; each is worded as that letter worded it.
    carried: frozenset[str] = frozenset()
    carried_on: date | None = None
    # Each date a letter may set printed as a mark naming it (`letter_dates` reads them).
    date_marks: bool = False


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


def deadlines(case: Case, j: Jurisdiction, letter_date: date) -> tuple[date, date, bool, bool]:
    """A notice's permit and completion dates, and whether each is the jurisdiction's
    default counted from the letter's date (True) or recorded on the case (False); each
    moved off a weekend or public holiday to the next business day (GCL § 25-a)."""
    n = case.notice
    permit_by = n.permit_by if n else None
    complete_by = n.complete_by if n else None
    cal = j.holiday_calendar
    return (next_business_day(permit_by, cal) if permit_by else
            days_after(letter_date, j.notice_permit_within_days, cal),
            next_business_day(complete_by, cal) if complete_by else
            days_after(letter_date, j.notice_complete_within_days, cal),
            permit_by is None, complete_by is None)


def pump_out_by(case: Case, j: Jurisdiction, letter_date: date) -> date | None:
    """The date a notice asks a discharging holding tank's pump-out record by (the
    jurisdiction file's days from the letter's date, moved off a weekend or public holiday),
    or None where no discharge is recorded."""
    obs = case.observations
    if obs is None or not obs.holding_tank_discharges:
        return None
    return days_after(letter_date, j.holding_tank_discharge_pump_within_days,
                      j.holiday_calendar)


def reply_by(i: LetterInputs) -> date:
    """The date a letter asks a reply by: the office's days from the letter's date, moved
    off a weekend or public holiday."""
    return days_after(i.letter_date, i.wording.reply_within_days,
                      i.jurisdiction.holiday_calendar)


# The dates a letter may set and state, by name, in the order a clerk reads them: the
# register keeps with an issued letter those it prints (`letter_dates`), and follow-up
# reads each of them.
LETTER_DATES = ("permit_by", "complete_by", "reply_by", "pump_out_by")
_DATE_MARK = "\u27e6{}\u27e7"

CONSTRUCTION = frozenset({"system_in_failure"})  # corrected only under a building permit
ON_SITE = frozenset({"system_in_failure", "absorption_area_encroachment",
                     "clear_water_discharge", "holding_tank_discharging",
                     })  # seen at the site; the rest are records
# Asked at once, with the pump-out record by a date of its own (`pump_out_by`).
IMMEDIATE = frozenset({"holding_tank_discharging"})
WORKS = frozenset({"absorption_area_encroachment", "clear_water_discharge"})


def deadline_problem(case: Case, evaluation: Evaluation, letter_date: date) -> str | None:
    """Why a notice of violation cannot be issued on `letter_date` with the deadlines
    recorded for it (one already past), or None."""
    codes = {f.code for f in evaluation.violations}
    if "notice_of_violation" not in {k.value for k in evaluation.letters} or (
            case.notice is None):
        return None
    n = case.notice
    past = []
    if codes & CONSTRUCTION and n.permit_by is not None and n.permit_by < letter_date:
        past.append(f"the permit deadline (Permit by, {_date(n.permit_by)})")
    if codes & (CONSTRUCTION | WORKS) and n.complete_by is not None and (
            n.complete_by < letter_date):
        past.append(f"the completion deadline (Complete by, {_date(n.complete_by)})")
    if not past:
        return None
    return (f"{' and '.join(past)} recorded for the notice {'is' if len(past) == 1 else 'are'} "
            f"before the letter's date, {_date(letter_date)}; set new deadlines on or after "
            "that date (or clear them to count the defaults from the letter's date)")


# The value behind each deadline of a notice: {unconfirmed[VALUE]} after its date.
_DEADLINE_OF_VALUE = {value: name for name, (_, value) in NOTICE_DEADLINES.items()}


def deadlines_law(i: LetterInputs) -> dict[str, bool]:
    """Whether the letter states each notice deadline as the law's: one rule for every
    date, typed into the case, counted by default or carried by a correction from the
    letter it corrects (judged as of that letter's date): `Jurisdiction.deadline_is_law`."""
    return {name: i.jurisdiction.deadline_is_law(
        name, set_on=i.carried_on if name in i.carried else None) for name in NOTICE_DEADLINES}


def _value_use(i: LetterInputs) -> dict[str, bool]:
    """Whether the letter uses each value a letter may mark unconfirmed (a notice's
    deadline values stand for the deadline itself: unconfirmed while it is not law)."""
    return {"inspection_cycle.years": True, "worklists.due_soon_days": True,
            "holding_tank.discharge_pump_within_days": True}


def unsettled(text: str, i: LetterInputs, *, request: bool = False,
              states: Sequence[str] = ()) -> tuple[str, ...]:
    """What a sentence of the wording would state as law that the jurisdiction file does
    not confirm: the provisions it cites, the unconfirmed values it uses and, unless it is
    a `request` wording, the notice deadlines it states (its {permit_by}, {complete_by},
    their {unconfirmed[...]} marks, and those named in `states`) that are not law."""
    j, used = i.jurisdiction, _value_use(i)
    law = deadlines_law(i)
    out: list[str] = []
    stated = list(states)
    for _, name, _, _ in string.Formatter().parse(text):
        head, _, rest = (name or "").partition("[")
        key = rest.removesuffix("]")
        if head == "cite" and key in j.citations and not j.provision_confirmed(key):
            out.append(f"{j.citations[key]} ({key})")
        elif head == "unconfirmed" and key in _DEADLINE_OF_VALUE:
            stated.append(_DEADLINE_OF_VALUE[key])
        elif head in NOTICE_DEADLINES:
            stated.append(head)
        elif head == "unconfirmed" and used.get(key) and key in j.unconfirmed_values:
            out.append(key)
    if not request:
        for deadline in dict.fromkeys(stated):
            if deadline == "reply_by":  # the date the office asks a reply by: never law
                out.append("the date this office asks a reply by (reply_by)")
            elif not law[deadline]:
                provision, value = NOTICE_DEADLINES[deadline]
                out.append(f"the notice's {deadline} date ({j.citations[provision]}, {value})")
    return tuple(out)


def _say(t: LetterTemplate, key: str, v: dict[str, Any], i: LetterInputs, *,
         states: Sequence[str] = ()) -> str:
    """A sentence of the wording. In an issued letter, a sentence stating as law what the
    jurisdiction file does not confirm (`unsettled`; `states`: the deadlines it states as
    the law's besides those it names) is said in its KEY_request wording instead: the
    office's request, without that citation; refused when there is none."""
    text = t.texts[key]
    if not i.mark_unconfirmed:
        what = unsettled(text, i, states=states)
        if what:
            request = t.texts.get(key + REQUEST)
            if request is None or unsettled(request, i, request=True):
                raise LetterRefused(
                    f"Parcel {i.case.parcel.sbl}: no {t.kind} can be issued: the wording "
                    f"[{t.kind}] {key} states as law {_and(list(what))}, which the "
                    "jurisdiction file does not confirm; give it a "
                    f"{key}{REQUEST} wording that asks it as this office's request.")
            text = request
    return fill(text, v)


def _fill_settled(text: str, v: dict[str, Any], i: LetterInputs, where: str) -> str:
    """A paragraph of a list (paragraphs, closing): refused in an issued letter when it
    states as law what the jurisdiction file does not confirm."""
    what = () if i.mark_unconfirmed else unsettled(text, i)
    if what:
        raise LetterRefused(f"Parcel {i.case.parcel.sbl}: the wording's {where} states as "
                            f"law {_and(list(what))}, which the jurisdiction file does not "
                            "confirm; word it as this office's request.")
    return fill(text, v)


def _values(i: LetterInputs) -> dict[str, Any]:
    c, j = i.case, i.jurisdiction
    insp = c.inspection
    permit_by, complete_by, _, _ = deadlines(c, j, i.letter_date)
    pumped_by = pump_out_by(c, j, i.letter_date)
    mark = i.mark_unconfirmed
    unconfirmed = _value_use(i)
    law = deadlines_law(i)
    replaced = i.replaced
    values = {
        "reply_by": _date(reply_by(i)),
        "reply_within_days": i.wording.reply_within_days,
        "unconfirmed": {**{k: UNCONFIRMED if mark and used and k in j.unconfirmed_values
                            else "" for k, used in unconfirmed.items()},
                        **{value: UNCONFIRMED if mark and not law[name] else ""
                           for value, name in _DEADLINE_OF_VALUE.items()}},
        "what": "",
        "replaced_id": replaced[0][:8] if replaced else "",
        "replaced_kind": replaced[1].replace("_", " ") if replaced else "",
        "replaced_date": _date(replaced[2]) if replaced else "",
        "owner_name": c.parcel.owner_name, "site_address": c.parcel.site_address,
        "municipality": c.parcel.municipality, "sbl": c.parcel.sbl,
        "letter_date": _date(i.letter_date),
        "inspection_date": _date(insp.date if insp else None),
        "inspector": insp.inspector + (f" ({insp.inspector_certification})"
                                       if insp.inspector_certification else "")
        if insp else "[not recorded]",
        "law": j.title, "water_body": j.water_body, "authority": j.authority,
        "office_name": i.office.office_name, "permit_by": _date(permit_by),
        "complete_by": _date(complete_by),
        "complete_within_days": (complete_by - i.letter_date).days,
        "pump_out_by": _date(pumped_by),
        "pump_out_within_days": j.holding_tank_discharge_pump_within_days,
        "setback_ft": f"{j.lake_setback_ft:g}", "cycle_years": j.inspection_cycle_years,
        "report_days": j.etu_report_within_days,
        "cite": {k: j.cite(k) if i.mark_unconfirmed else j.letter_cite(k) for k in j.citations},
        "last_inspection": _date(i.last_inspection),
        "due_date": _date(i.extra.get("due_date")),
        # the sentence that prints it ends with its own full stop
        "waiver_description": ((c.ahj.waiver_description or "").strip().rstrip(".")
                               if c.ahj else "") or "[not recorded]",
        "limitations": _and([_limitation(x, i.wording) for x in c.components
                             if x.condition is Condition.SUBSTANDARD]) or "[not recorded]",
    }
    if i.date_marks:
        values.update({name: _DATE_MARK.format(name) for name in LETTER_DATES})
    return values


def _limitation(c: Component, wording: Wording) -> str:
    """A substandard component and what was recorded against it, in words."""
    what = wording.label(c.kind.value).lower()
    return f"{what}: {'; '.join(c.defects)}" if c.defects else f"{what} (no defect recorded)"


def _component_line(c: Component, i: LetterInputs, *, condition: str | None = None,
                    defects: Sequence[str] | None = None) -> str:
    wording = i.wording
    defects = c.defects if defects is None else defects
    text = (f"<b>{escape(wording.label(c.kind.value))}</b> "
            f"({escape(wording.label(condition or c.condition))})")
    if defects:
        text += ": " + "; ".join(escape(defect_text(d, i)) for d in defects)
    if c.note:
        text += f". <i>{escape(c.note)}</i>"
    return text


UNCONFIRMED = " (unconfirmed)"


def citation_text(citation: str, i: LetterInputs) -> str:
    """A citation as the letter prints it: a draft as the rules give it, "(unconfirmed)"
    included; an issued letter without an inferred section number
    (`Jurisdiction.letter_citation`)."""
    return citation if i.mark_unconfirmed else i.jurisdiction.letter_citation(citation)


_TRAILING_CITATION = re.compile(r"^(.*) \(([^()]*(?:\([^()]*\)[^()]*)*)\)$")


def defect_text(defect: str, i: LetterInputs) -> str:
    """A recorded defect as the letter prints it: the section an accepted finding put at
    its end ("... (10 NYCRR Appendix 75-A.6)") cited as the letter cites it."""
    found = None if i.mark_unconfirmed else _TRAILING_CITATION.match(defect)
    if found is None:
        return defect
    return f"{found.group(1)} ({citation_text(found.group(2), i)})"


_DETAIL_PREFIXES = ("on the absorption area: ", "clear water into the system: ",
                    "sewage discharging from the holding tank: ")


def finding_what(f: Finding) -> str:
    """The finding's detail without the words its label already says."""
    detail = f.detail
    for prefix in _DETAIL_PREFIXES:
        detail = detail.removeprefix(prefix)
    return detail


def _finding_line(f: Finding, i: LetterInputs) -> str:
    return (f"<b>{escape(citation_text(f.citation, i))}</b>: "
            f"{escape(i.wording.label(f.code))}: {escape(finding_what(f))}")


def _and(items: Sequence[str]) -> str:
    items = list(items)
    if not items:
        return ""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


# An action line that states no date: nothing is left to do by a date.
UNDATED_ACTIONS = frozenset({"action_etu_report_received_late"})


def _action(f: Finding, i: LetterInputs, t: LetterTemplate, v: dict[str, Any]
            ) -> tuple[str, str]:
    """What the owner must do about one finding, with its own deadline (and the wording's
    key)."""
    key, what = f"action_{f.code}", finding_what(f)
    obs = i.case.observations
    if f.code == "absorption_area_encroachment" and obs:
        what = _and(obs.absorption_area_encroachments)
    elif f.code == "clear_water_discharge" and obs:
        what = _and(obs.clear_water_connections)
    elif f.code == "holding_tank_discharging" and obs:
        what = _and(obs.holding_tank_discharges)
    elif f.code == "etu_report_late" and f.since is not None:
        inspected = f.since - timedelta(days=i.jurisdiction.etu_report_within_days + 1)
        what = inspected.isoformat()
        if f.cured is not None and f.cured <= i.letter_date:
            key = "action_etu_report_received_late"
    elif f.code == "holding_tank_records_missing" and f.since is not None:
        # it stands the day after the days allowed for the record
        what = (f.since - timedelta(
            days=i.jurisdiction.holding_tank_record_within_days + 1)).isoformat()
    return key, _say(t, key, {**v, "what": what}, i)


def _component_names(components: Sequence[Component], wording: Wording) -> list[str]:
    """Each component in words, numbered where its kind occurs more than once."""
    kinds = [x.kind for x in components]
    seen: dict[ComponentKind, int] = {}
    out = []
    for x in components:
        n = seen[x.kind] = seen.get(x.kind, 0) + 1
        name = wording.label(x.kind.value).lower()
        out.append(f"{name} #{n}" if kinds.count(x.kind) > 1 else name)
    return out


def _upgrade_key(e: Evaluation) -> str | None:
    """The action that upgrades a substandard component, as the evaluation's path for
    substandard systems has it; None where no upgrade is required."""
    path = e.substandard_path
    if path is None or not path.upgrade_required:
        return None
    if e.outcome is Outcome.FAILURE and path.zone is not Zone.WITHIN:
        return "action_substandard_in_failure"
    if path.zone is Zone.WITHIN:
        return ("action_substandard_greatest_extent" if path.greatest_extent_offered
                else "action_substandard_standards")
    return None


_REPLACED_IN_KIND = (ComponentKind.SEPTIC_TANK, ComponentKind.DISTRIBUTION_BOX)


def _failure_evidence(i: LetterInputs) -> tuple[str, ...]:
    """The evidence of failure the inspection recorded, as a notice lists it: each test it
    failed (with its volume, duration and note) and each observation."""
    insp = i.case.inspection
    if insp is None:
        return ()
    out = []
    for test in insp.tests:
        if test.result is not TestResult.FAIL:
            continue
        said = [f"{test.volume_gal:,g} gal" if test.volume_gal is not None else "",
                f"{test.duration_min:,g} min" if test.duration_min is not None else "",
                test.note or ""]
        how = "; ".join(x for x in said if x)
        out.append(escape(f"{i.wording.label(test.kind.value)}: failed"
                          + (f" ({how})" if how else "")))
    return (*out, *(escape(x) for x in insp.failure_evidence))


def _setback_findings(components: Sequence[Component], e: Evaluation
                      ) -> dict[int, tuple[str, ...]]:
    """The defects of each component (by `id`) that are accepted setback shortfalls: a
    shortfall is substandard, never part of a failure, whatever the component's condition."""
    accepted = [s for s in e.suggestions if s.key.startswith("setback/")
                and s.status is SuggestionStatus.ACCEPTED]
    out: dict[int, tuple[str, ...]] = {}
    seen: dict[ComponentKind, int] = {}
    for x in components:
        n = seen[x.kind] = seen.get(x.kind, 0) + 1
        mine = [s for s in accepted if (s.component, s.ordinal) == (x.kind, n)]
        found = tuple(d for d in x.defects if any(s.recorded_in([d]) for s in mine))
        if found:
            out[id(x)] = found
    return out


def _notice_blocks(i: LetterInputs, t: LetterTemplate, v: dict[str, Any]) -> list[Block]:
    e, c, w = i.evaluation, i.case, i.wording
    out: list[Block] = []
    on_site = [f for f in e.violations if f.code in ON_SITE and c.inspection is not None]
    records = [f for f in e.violations if f not in on_site]
    for heading, found in (("inspection_found", on_site), ("records_show", records)):
        if found:
            out.append(Paragraph(_say(t, heading, v, i)))
            out.append(Bullets(tuple(_finding_line(f, i) for f in found)))
    if not e.violations:  # a draft the record does not call for: it asserts none
        out.append(Paragraph(_say(t, "no_violations", v, i)))
    failed = [x for x in c.components if x.condition is Condition.FAILED]
    setbacks = _setback_findings(c.components, e)
    if failed:
        out.append(Paragraph(_say(t, "components_heading", v, i)))
        out.append(Bullets(tuple(
            _component_line(x, i, defects=[d for d in x.defects
                                           if d not in setbacks.get(id(x), ())])
            for x in failed)))
    codes = {f.code for f in e.violations}
    evidence = _failure_evidence(i) if "system_in_failure" in codes else ()
    if evidence:
        out.append(Paragraph(_say(t, "failure_evidence", v, i)))
        out.append(Bullets(evidence))
    substandard = [x for x in c.components if x.condition is Condition.SUBSTANDARD]
    unlocated = [x for x in c.components if x.condition is Condition.NOT_LOCATED]
    # a setback shortfall accepted on a failed component is its own substandard item
    short = [_component_line(x, i, condition=Condition.SUBSTANDARD.value, defects=[d])
             for x in failed for d in setbacks.get(id(x), ())]
    if substandard or short:
        zone = e.lake.zone.value.removesuffix("_200ft")
        path = e.substandard_path
        # § 202-7 C(1) excuses substandard components from an upgrade only while the
        # system is not in failure; § 202-7 B only where the evaluation offers it
        if zone == "beyond" and codes & CONSTRUCTION:
            key = "substandard_beyond_failure" + ("_partial" if unlocated else "")
        elif zone == "within" and not (path is not None and path.greatest_extent_offered):
            key = "substandard_within_standards"
        else:
            key = f"substandard_{zone}"
        out.append(Paragraph(_say(t, key, v, i)))
        out.append(Bullets((*short, *(_component_line(x, i) for x in substandard))))
    if unlocated:
        out.append(Paragraph(_say(t, "not_located", v, i)))
        out.append(Bullets(tuple(_component_line(x, i) for x in unlocated)))
    if not e.violations:
        out.append(Paragraph(_say(t, "renters", v, i)))
        return out
    out.append(Paragraph(t.text("actions_heading", v)))
    actions = []
    if codes & CONSTRUCTION and any(x.kind is ComponentKind.HOLDING_TANK for x in failed) and (
            not codes & IMMEDIATE):
        # § 202-8 B allows no discharge at any time: asked at once, before the repair (a
        # discharge recorded has its own line, first, saying so)
        actions.append(("action_holding_tank_failed",
                        _say(t, "action_holding_tank_failed", v, i)))
    # a discharge is stopped at once: its line comes first
    actions += [_action(f, i, t, v) for f in sorted(e.violations,
                                                    key=lambda f: f.code not in IMMEDIATE)]
    upgrade = _upgrade_key(e)
    if upgrade is not None:
        for name in _component_names(substandard, w):
            actions.append((upgrade, _say(t, upgrade, {**v, "what": name}, i)))
    out.append(Bullets(tuple(text for _, text in actions)))
    if codes & CONSTRUCTION:
        design = [_say(t, "permit", v, i)]
        kinds = list(dict.fromkeys(x.kind for x in failed))
        in_kind = [k for k in kinds if k in _REPLACED_IN_KIND]
        if in_kind:
            design.append(_say(t, "replacement_in_kind", {
                **v, "what": _and([w.label(k.value).lower() for k in in_kind])}, i))
        if ComponentKind.ABSORPTION_AREA in kinds:
            design.append(_say(t, "absorption_field_design", v, i))
        others = [k for k in kinds if k not in (*_REPLACED_IN_KIND,
                                                ComponentKind.ABSORPTION_AREA)]
        if others:
            design.append(_say(t, "other_design", {
                **v, "what": _and([w.label(k.value).lower() for k in others])}, i))
        design.append(_say(t, "other_approvals", v, i))
        out.append(Paragraph(" ".join(design)))
    dated = [t.texts[key] for key, _ in actions if key not in UNDATED_ACTIONS]
    if dated:  # the dates as the action lines give them: the law's only where all are
        stated = [name for text in dated for _, name, _, _ in string.Formatter().parse(text)
                  if name in (*NOTICE_DEADLINES, "reply_by")]
        out.append(Paragraph(_say(t, "deadlines", v, i, states=stated)))
    out.append(Paragraph(_say(t, "renters", v, i)))
    return out


def printed_text(letter: Letter) -> str:
    """The words a letter prints from its content (title, subject, salutation, each
    block's text, closing, cc), in order, as markup."""
    texts = [letter.title, letter.subject, letter.salutation]
    for block in letter.blocks:
        if isinstance(block, Paragraph | Heading):
            texts.append(block.text)
        elif isinstance(block, Bullets):
            texts += block.items
        elif isinstance(block, Table):
            texts += [*block.header, *(cell for row in block.rows for cell in row)]
    return "\n".join([*texts, *letter.closing, *letter.cc])


def letter_dates(kind: str, i: LetterInputs) -> dict[str, date]:
    """The dates a letter of this kind sets and states, by name (`LETTER_DATES`): those
    its text prints, and no other. The letter is composed once more with each date printed
    as a mark naming it; the marks found in its text are the dates it states. What the
    register keeps with an issued letter and follow-up reads."""
    from dataclasses import replace

    text = printed_text(build(kind, replace(i, date_marks=True)))
    permit_by, complete_by, _, _ = deadlines(i.case, i.jurisdiction, i.letter_date)
    day = {"permit_by": permit_by, "complete_by": complete_by, "reply_by": reply_by(i),
           "pump_out_by": pump_out_by(i.case, i.jurisdiction, i.letter_date)}
    return {name: when for name in LETTER_DATES
            if (when := day[name]) is not None and _DATE_MARK.format(name) in text}


def _values_used(kind: str, i: LetterInputs) -> list[str]:
    """The jurisdiction values (by their [unconfirmed] names) a letter of this kind uses."""
    if kind == "five_year_reminder":
        return ["inspection_cycle.years"]
    if kind != "notice_of_violation":
        return []
    codes = {f.code for f in i.evaluation.violations}
    _, _, permit_default, complete_default = deadlines(i.case, i.jurisdiction, i.letter_date)
    out = []
    if codes & CONSTRUCTION and permit_default:
        out.append("notice.permit_within_days")
    if codes & (CONSTRUCTION | WORKS) and complete_default:
        out.append("notice.complete_within_days")
    if codes & IMMEDIATE:
        out.append("holding_tank.discharge_pump_within_days")
    return out


def acknowledgement_missing(case: Case, j: Jurisdiction) -> tuple[str, ...]:
    """What a letter of acknowledgement (§ 202-7 B(3)) needs on record and lacks."""
    ahj = case.ahj
    missing = []
    weighed = {f.factor for f in (ahj.factors_weighed if ahj else ())}
    for factor in j.waiver_factors:
        if factor[1:2] not in weighed:
            missing.append(f"the finding on factor {factor[:3]} of "
                           f"{j.citations['greatest_extent_possible']}")
    if ahj is None or ahj.waiver_granted is None:
        missing.append("the decision whether a local waiver is granted (Local waiver granted)")
    if ahj is None or not ahj.determined_by:
        missing.append("who made the determination (Determined by)")
    if ahj is None or ahj.determined_on is None:
        missing.append("the date of the determination (Determined on)")
    number = bool(ahj and ahj.permit_number)
    issued = bool(ahj and ahj.permit_issued_on)
    if not number and not issued:
        missing.append("the building permit's number and date (Permit number, Permit issued on)")
    elif not number:
        missing.append("the building permit's number (Permit number)")
    elif not issued:
        missing.append("the date the building permit was issued (Permit issued on)")
    return tuple(missing)


def acknowledgement_determined(case: Case) -> bool:
    """Whether the record holds the AHJ's determination (§ 202-7 B(3)): that the system
    meets § 202-6 to the greatest extent possible, who made it and when."""
    a = case.ahj
    return bool(a and a.greatest_extent_possible and a.determined_by and a.determined_on)


_SHORT = {"the decision whether a local waiver is granted (Local waiver granted)":
          "the waiver decision",
          "who made the determination (Determined by)": "who made the determination",
          "the date of the determination (Determined on)": "when it was made"}


def _missing_in_short(missing: Sequence[str]) -> str:
    """What an acknowledgement lacks, in short: the factor findings taken together, and
    without the names of the form's fields, which the refusal to issue gives."""
    factors = [m for m in missing if m.startswith("the finding on factor ")]
    rest = [m for m in missing if m not in factors]
    if factors:
        letters = [m.removeprefix("the finding on factor ").split(" of ", 1)[0]
                   for m in factors]
        of = factors[0].split(" of ", 1)[1]
        rest.insert(0, f"the finding on factor {letters[0]} of {of}" if len(letters) == 1
                    else f"the findings on factors {_and(letters)} of {of}")
    return _and([_SHORT.get(m, re.sub(r" \([A-Z][^()]*\)$", "", m)) for m in rest])


# Kinds that state the system's findings (its failed and substandard components, its
# condition): issued only once the inspector has decided every suggested finding.
LISTS_FINDINGS = frozenset({"notice_of_violation", "substandard_notice",
                            "letter_of_acknowledgement", "report_of_findings"})


def pending_suggestions(kind: str, evaluation: Evaluation) -> tuple[Suggestion, ...]:
    """The suggested findings still awaiting the inspector's decision that a letter of
    this kind would leave out (one whose acceptance would change nothing leaves nothing
    out)."""
    if kind not in LISTS_FINDINGS:
        return ()
    return tuple(s for s in evaluation.suggestions
                 if s.status is SuggestionStatus.PENDING and s.changes_record)


def suggestion_words(s: Suggestion) -> str:
    """A suggested finding in words: its component, what it says and its section."""
    where = ""
    if s.component is not None:
        where = s.component.value.replace("_", " ") + (
            f" #{s.ordinal}" if s.ordinal is not None else "") + ": "
    return f"{where}{finding_text(s.defect, s.section or s.citation)}"


def _awaiting(n: int) -> str:
    return "a suggested finding awaits" if n == 1 else f"{n} suggested findings await"


def pending_refusal(kind: str, evaluation: Evaluation, sbl: str) -> LetterRefused | None:
    """Why a letter of this kind cannot be issued while suggested findings are undecided,
    naming them and how to decide them; None when none is pending."""
    pending = pending_suggestions(kind, evaluation)
    if not pending:
        return None
    one = len(pending) == 1
    them = "it" if one else "them"
    head = (f"Parcel {sbl}: no {kind.replace('_', ' ')} can be issued while "
            f"{_awaiting(len(pending))} the inspector's decision, since the letter would "
            f"state the system's findings without {them}: ")
    each = "it" if one else "each"
    return LetterRefused(
        head + "; ".join(f"{suggestion_words(s)} (key {s.key})" for s in pending)
        + f". Accept or reject {each} with `inspector-app suggestion accept {sbl} KEY` or "
        f"`inspector-app suggestion reject {sbl} KEY`, then issue the letter.",
        in_app=head + "; ".join(suggestion_words(s) for s in pending)
        + f". Accept or reject {each} under Suggested findings in the Evaluation panel, then "
        "issue the letter.")


def issue_problems(kind: str, i: LetterInputs) -> tuple[str, ...]:
    """Why issuing this letter on its date would be refused, in short, for the pages of a
    draft; () when nothing on record stands in the way."""
    out = []
    if kind == "letter_of_acknowledgement":
        missing = acknowledgement_missing(i.case, i.jurisdiction)
        if missing:
            out.append(f"the record does not yet hold {_missing_in_short(missing)}")
    if kind == "notice_of_violation":
        problem = deadline_problem(i.case, i.evaluation, i.letter_date)
        if problem is not None:
            out.append(problem)
    pending = pending_suggestions(kind, i.evaluation)
    if pending:
        on = list(dict.fromkeys(suggestion_words(s).split(": ", 1)[0] for s in pending
                                if s.component is not None))
        out.append(f"{_awaiting(len(pending))} the inspector's decision"
                   + (f" (on the {_and(on)})" if on else ""))
    return tuple(out)


def build(kind: str, i: LetterInputs) -> Letter:
    if kind not in LETTER_KINDS:
        raise LetterRefused(f"{kind!r} is not a letter kind; the kinds are "
                            f"{', '.join(LETTER_KINDS)}.")
    t = i.wording.templates[kind]
    v = _values(i)
    blocks: list[Block] = [Paragraph(_fill_settled(p, v, i, f"[{kind}] paragraphs #{n}"))
                           for n, p in enumerate(t.paragraphs, 1)]
    e, c = i.evaluation, i.case
    cc: tuple[str, ...] = ()
    if kind == "notice_of_violation":
        problem = deadline_problem(c, e, i.letter_date)
        if problem is not None:
            if not i.mark_unconfirmed:  # issuing: never a deadline already past
                raise DeadlinesPassed(f"Parcel {c.parcel.sbl}: no notice_of_violation can be "
                                      f"issued: {problem}.")
            n = c.notice
            for key in ("permit_by", "complete_by"):
                recorded = getattr(n, key)
                if recorded is not None and recorded < i.letter_date:
                    v[key] = f"[a new date: the recorded {_date(recorded)} has passed]"
        blocks += _notice_blocks(i, t, v)
        cc = tuple(r.name for r in c.parcel.renters)
    elif kind == "substandard_notice":
        blocks += _substandard_notice_blocks(i, t, v)
    elif kind == "five_year_reminder":
        due = i.extra.get("due_date")
        blocks.append(Paragraph(_say(t, "cycle" if e.lake.zone is Zone.WITHIN
                                     else "cycle_not_shown", v, i)))
        # a due date already past on the letter's date is said to be past, never "due by"
        overdue = isinstance(due, date) and due < i.letter_date
        if e.lake.zone is Zone.WITHIN:  # a due date only where the cycle applies
            blocks.append(Paragraph(_say(t, "overdue" if overdue else "due", v, i)))
    elif kind == "letter_of_acknowledgement":
        ahj = c.ahj
        premise = e.lake.zone is Zone.WITHIN and any(
            x.condition is Condition.SUBSTANDARD for x in c.components)
        blocks.append(Paragraph(_say(t, "within" if premise else "within_not_shown", v, i)))
        blocks.append(Paragraph(_say(t, "determination" if acknowledgement_determined(c)
                                     else "determination_not_recorded", v, i)))
        if ahj is not None and ahj.waiver_granted is not None:
            blocks.append(Paragraph(_say(t, "waiver_granted" if ahj.waiver_granted
                                         else "waiver_none", v, i)))
        blocks.append(Paragraph(_say(t, "factors_heading", v, i)))
        findings = {f.factor: f.finding for f in (ahj.factors_weighed if ahj else ())}
        items = []
        for factor in i.jurisdiction.waiver_factors:
            letter = factor[1:2]
            item = escape(factor)
            item += (f": <i>{escape(findings[letter])}</i>" if letter in findings
                     else ": [no finding recorded]")
            items.append(item)
        blocks.append(Bullets(tuple(items)))
        if ahj and (ahj.determined_by or ahj.determined_on):
            by = escape(ahj.determined_by or "[not recorded]")
            blocks.append(Paragraph(f"Determination by {by} on {_date(ahj.determined_on)}."))
        if ahj and (ahj.permit_number or ahj.permit_issued_on):
            number = escape(ahj.permit_number or "[not recorded]")
            blocks.append(Paragraph(f"Building permit: number {number}, issued on "
                                    f"{_date(ahj.permit_issued_on)}."))
        missing = acknowledgement_missing(c, i.jurisdiction)
        if missing and not i.mark_unconfirmed:
            raise LetterRefused(f"Parcel {c.parcel.sbl}: no letter_of_acknowledgement can be "
                                f"issued until the record holds {'; '.join(missing)}.")
    elif kind in ("etu_report_reminder", "pump_out_request"):
        prefix = "etu_" if kind == "etu_report_reminder" else "holding_tank_"
        blocks.append(Bullets(tuple(_finding_line(f, i)
                                    for f in e.violations if f.code.startswith(prefix))))
    elif kind == "report_of_findings":
        blocks += _report_blocks(i)
    if kind == "substandard_notice":
        blocks += _substandard_notice_closing(i, t, v)
    closing = tuple(_fill_settled(p, v, i, f"[{kind}] closing #{n}")
                    for n, p in enumerate(t.closing, 1))
    title = fill(t.texts["title"], v)
    if i.replaced is not None:
        common = i.wording.common
        title = fill(common["corrected_title"], {**v, "title": title})
        blocks.insert(0, Paragraph(fill(common["corrects"], v)))
    used = [k for k in _values_used(kind, i) if k in i.jurisdiction.unconfirmed_values]
    return Letter(kind=kind, title=title, letter_date=i.letter_date,
                  sbl=c.parcel.sbl, recipient=recipient(c), subject=fill(t.texts["subject"], v),
                  salutation=fill(t.texts["salutation"], v), blocks=tuple(blocks),
                  closing=closing, cc=cc, signed=kind != "report_of_findings",
                  unconfirmed_values=tuple(used))


def _substandard_notice_blocks(i: LetterInputs, t: LetterTemplate, v: dict[str, Any]
                               ) -> list[Block]:
    """§ 202-7 C(1): the letter listing the substandard components. Its premises (found
    substandard, more than the setback from the lake) are stated only where the record
    shows them; components not located are named as not evaluated, and the list is then
    not said to be complete."""
    e, c = i.evaluation, i.case
    out: list[Block] = []
    if e.outcome is Outcome.SUBSTANDARD:
        out.append(Paragraph(_say(t, "found", v, i)))
    out.append(Paragraph(_say(t, "beyond" if e.lake.zone is Zone.BEYOND
                              else "beyond_not_shown", v, i)))
    unlocated = [x for x in c.components if x.condition is Condition.NOT_LOCATED]
    complete = not unlocated and e.lake.zone is Zone.BEYOND
    out.append(Paragraph(_say(t, "components_heading" if complete
                              else "components_heading_partial", v, i)))
    out.append(Bullets(tuple(_component_line(x, i) for x in c.components
                             if x.condition is Condition.SUBSTANDARD)))
    if unlocated:
        out.append(Paragraph(_say(t, "not_located", v, i)))
        out.append(Bullets(tuple(_component_line(x, i) for x in unlocated)))
    return out


def _substandard_notice_closing(i: LetterInputs, t: LetterTemplate, v: dict[str, Any]
                                ) -> list[Block]:
    """§ 202-7 C(1)'s "not required to upgrade" only for a system the record places
    beyond the setback and not in failure; the advice to share the letter only where it
    lists every substandard component."""
    e, c = i.evaluation, i.case
    unlocated = any(x.condition is Condition.NOT_LOCATED for x in c.components)
    out: list[Block] = []
    if e.outcome is Outcome.FAILURE:
        out.append(Paragraph(_say(t, "in_failure", v, i)))
    elif e.lake.zone is Zone.BEYOND:
        out.append(Paragraph(_say(t, "no_upgrade", v, i)))
    if unlocated:
        out.append(Paragraph(_say(t, "share_partial", v, i)))
    elif e.lake.zone is Zone.BEYOND and e.outcome is Outcome.SUBSTANDARD:
        out.append(Paragraph(_say(t, "share", v, i)))
    return out


def premise_problems(kind: str, e: Evaluation, setback_ft: float) -> tuple[str, ...]:
    """What the record says against the premises of a letter of this kind (for the note on
    a draft the record does not call for)."""
    lake = e.lake
    if lake.distance_ft is not None:
        where = (f"the record places the system {lake.distance_ft:,.1f} ft from the lake "
                 f"line" + (f" (±{lake.accuracy_ft:,g} ft)" if lake.accuracy_ft else ""))
    else:
        where = "no distance to the lake line is on record"
    zone = {Zone.WITHIN: f"{where}, within {setback_ft:g} ft",
            Zone.BEYOND: f"{where}, more than {setback_ft:g} ft away",
            Zone.UNDETERMINED: f"{where}, which does not settle which side of "
                               f"{setback_ft:g} ft it is on"}[lake.zone]
    out = []
    if kind == "substandard_notice":
        if lake.zone is not Zone.BEYOND:
            out.append(zone)
        if e.outcome is Outcome.FAILURE:
            out.append("the system is in failure, so an upgrade is required")
        elif e.outcome is not Outcome.SUBSTANDARD:
            out.append("no component is recorded substandard")
    elif kind in ("letter_of_acknowledgement", "five_year_reminder"):
        if lake.zone is not Zone.WITHIN:
            out.append(zone)
        if kind == "letter_of_acknowledgement" and e.outcome is not Outcome.SUBSTANDARD:
            out.append(f"the outcome is {e.outcome.value}, not substandard")
    elif kind == "notice_of_violation" and not e.violations and (
            e.outcome is not Outcome.FAILURE):
        out.append("no violation is on record")
    return tuple(out)


def _report_blocks(i: LetterInputs) -> list[Block]:
    c, e, w = i.case, i.evaluation, i.wording
    out: list[Block] = [Heading("System elements")]
    rows = []
    drawn = _site_geometry(c)
    for comp in c.components:
        d = comp.details
        kind = w.label(comp.kind.value)
        if d.get("absorption_type"):
            kind += f", {d['absorption_type']}".replace("_", " ")
        if d.get("material"):
            kind += f", {d['material']}"
        capacity = (f"{d['capacity_gal']:,g} gal" if "capacity_gal" in d else
                    f"{d['area_sqft']:,g} sq ft" if "area_sqft" in d else "-")
        geometry = comp.geometry if comp.geometry is not None else drawn.pop(comp.kind, None)
        location = "; ".join(x for x in (str(d.get("location_note") or ""),
                                         position_text(geometry)) if x) or "not recorded"
        observed = [_detail_text(name, val) for name, val in d.items()
                    if name not in ("absorption_type", "material", "capacity_gal", "area_sqft",
                                    "location_note")]
        function = "; ".join([*comp.defects, *observed, *([comp.note] if comp.note else [])])
        rows.append(tuple(escape(x) for x in (kind, capacity, location,
                                               w.label(comp.condition), function or "-")))
    kinds = {comp.kind for comp in c.components}
    for left, geometry in drawn.items():  # drawn on the site map, no component recorded
        if left not in kinds:
            rows.append(tuple(escape(x) for x in (
                f"{w.label(left.value)} (drawn on the site map)", "-",
                position_text(geometry) or "drawn", "not recorded",
                "no component recorded for it")))
    out.append(Table(("Element", "Capacity", "Location", "Condition", "Functionality"),
                     tuple(rows), (0.19, 0.11, 0.17, 0.15, 0.38)))
    out.extend(_element_photos(c, i))
    if e.tanks:
        out.append(Heading("Tank solids"))
        out.append(Bullets(tuple(escape(solids_line(kind, n, t, i.jurisdiction, w))
                                 for kind, n, t in e.tanks)))
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
        out.extend(_test_record_blocks(i))
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
        verdict += f" ({escape(citation_text(e.outcome_citation, i))})"
    elif e.outcome is Outcome.SUBSTANDARD and e.lake.zone is Zone.UNDETERMINED:
        cite = i.jurisdiction.cite if i.mark_unconfirmed else i.jurisdiction.letter_cite
        verdict += (f" (whether {escape(cite('substandard_within_200ft') or '')} or "
                    f"{escape(cite('substandard_beyond_200ft') or '')} applies is not settled: "
                    "the distance to the lake line is undetermined)")
    design = e.design
    if design is not None:
        verdict += (f". Design load: {escape(design.arithmetic)} "
                    f"({design.design_bedrooms} design bedrooms, {escape(design.standard)}"
                    f"{', provisional' if design.provisional else ''}).")
    out.append(Paragraph(verdict))
    if i.sketch is not None:
        out.append(i.sketch)  # drawn under its own heading, kept on one page
    placed = element_names([comp.kind for comp in c.components])
    others = [p for p in i.photos if p.element not in placed]
    if others:
        out.append(Heading("Photographs"))
        out.extend(others)
    out.append(Heading("Attestation"))
    if i.attestation is None:
        out.append(Paragraph("<b>Not attested.</b> This report is issued only once a design "
                             "professional or an on-site training network certified inspector "
                             "attests it."))
    else:
        out.append(i.attestation)
    return out


def _test_record_blocks(i: LetterInputs) -> list[Block]:
    """Beside the tests' table, what more is recorded of each test: its times, the volume
    preset it followed, what was seen at the test and at later visits, and a warning that
    a test soon after a pump-out proves little. Nothing where none is recorded."""
    insp, e, w = i.case.inspection, i.evaluation, i.wording
    if insp is None:
        return []
    presets = {p.kind: p for p in e.test_presets}
    warned = {t.test: t for t in e.test_warnings}
    out: list[Block] = []
    for n, t in enumerate(insp.tests):
        lines = []
        if t.started_at:
            lines.append("Started " + t.started_at.replace("T", " ")
                         + (f", ended {t.ended_at.replace('T', ' ')}" if t.ended_at else ""))
        preset = presets.get(t.kind)
        if preset is not None and t.volume_gal == preset.volume_gal:
            lines.append(f"Volume as the office's preset: {preset.arithmetic}")
        for o in t.observations:
            where = position_text(o.place)
            lines.append(f"Observed {o.at.replace('T', ' ')}: "
                         + ("dye seen" if o.dye_seen else "no dye seen")
                         + (f" at {where}" if where else "") + (f"; {o.note}" if o.note else ""))
        warning = warned.get(n)
        if warning is not None:
            lines.append("<b>Warning:</b> " + escape(
                warning.text[0].upper() + warning.text[1:]
                + (" (the number of days is the office's practice, not the law's)"
                   if warning.unconfirmed else "")))
        if lines:
            out.append(Paragraph(f"<b>Test {n + 1}: {escape(w.label(t.kind.value))}</b>"))
            out.append(Bullets(tuple(x if x.startswith("<b>") else escape(x)
                                     for x in lines)))
    return out


def _element_photos(case: Case, i: LetterInputs) -> list[Block]:
    """Each component's photos under its own heading ("Photographs: septic tank #1")."""
    out: list[Block] = []
    for name in element_names([comp.kind for comp in case.components]):
        photos = [p for p in i.photos if p.element == name]
        if photos:
            kind, _, number = name.partition("#")
            out.append(Heading(f"Photographs: {escape(i.wording.label(kind))} #{number}"))
            out.extend(photos)
    return out


def solids_line(kind: str, ordinal: int, t: TankSolids, j: Jurisdiction,
                wording: Wording) -> str:
    """A tank's solids share with its arithmetic and what the office does at it: "Septic
    tank 1: sludge 14 in + scum 4 in = 18 in of 48 in liquid depth = 38 %; at or above one
    third (33 %) of the liquid depth, pumping is suggested (office practice, ...)"."""
    head = f"{wording.label(kind)} {ordinal}: {t.arithmetic}"
    at = share_words(j.pump_at_solids_share)
    if t.share is None:
        return f"{head}."
    said = (f"at or above {at} of the liquid depth, pumping is suggested"
            if t.reaches(j.pump_at_solids_share) else
            f"below the {at} of the liquid depth at which pumping is suggested")
    unconfirmed = PUMP_SHARE_VALUE in j.unconfirmed_values
    basis = j.pump_basis + ("; the share is not confirmed by the Town" if unconfirmed else "")
    return f"{head}; {said} ({basis})."


def _site_geometry(case: Case) -> dict[ComponentKind, Any]:
    """Where the site record draws the absorption area and the holding tank: the position
    of the first such component that has none of its own."""
    site = case.site
    if site is None:
        return {}
    out = {ComponentKind.ABSORPTION_AREA: site.absorption_area,
           ComponentKind.HOLDING_TANK: site.holding_tank}
    return {k: g for k, g in out.items() if g is not None}


def position_text(geometry: Any) -> str:
    """A captured position in words: latitude and longitude (WGS84), for a point its own,
    for a line or area how many points it has and the mean of its vertices (a ring's
    closing point counted once)."""
    if not isinstance(geometry, dict):
        return ""
    points: list[Any] = []

    def walk(c: Any) -> None:
        if isinstance(c, list | tuple) and len(c) >= 2 and all(
                isinstance(x, int | float) for x in c[:2]):
            points.append(c)
        elif isinstance(c, list | tuple):
            for x in c:
                walk(x)

    coordinates = geometry.get("coordinates")
    if geometry.get("type") == "Polygon" and isinstance(coordinates, list | tuple):
        for ring in coordinates:
            ring = list(ring) if isinstance(ring, list | tuple) else []
            walk(ring[:-1] if len(ring) > 3 and ring[0] == ring[-1] else ring)
    else:
        walk(coordinates)
    if not points:
        return ""
    lon = sum(p[0] for p in points) / len(points)
    lat = sum(p[1] for p in points) / len(points)
    where = (f"{abs(lat):.5f}° {'N' if lat >= 0 else 'S'}, "
             f"{abs(lon):.5f}° {'W' if lon < 0 else 'E'}")
    kind = str(geometry.get("type") or "")
    if kind == "Point":
        return where
    shape = {"Polygon": "area", "MultiPolygon": "area", "LineString": "line",
             "MultiLineString": "line"}.get(kind, "shape")
    return f"{shape}, {len(points)} points, centred at {where}"


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


def describe_measurements(rows: Sequence[dict[str, Any]], lake: LakeFinding | None = None,
                          setback_ft: float | None = None) -> tuple[str, ...]:
    """One line per stored lake distance: value, method, layer, accuracy, who, when. Where
    a field measurement decides (`lake`, the evaluation's finding), that one says so and
    each map distance says it is not used; a map coarser than the setback says coarse."""
    field = lake is not None and lake.source == "field" and lake.distance_ft is not None
    out = []
    for r in rows:
        line = f"{r['distance_ft']:,.1f} ft to the lake line by {r['method']}"
        if r.get("layer"):
            line += f" on {r['layer']}"
        if r.get("accuracy_ft") is not None:
            line += f" (±{r['accuracy_ft']:,g} ft)"
        if r.get("capture_accuracy_ft"):
            line += f", measured from an area captured to ±{r['capture_accuracy_ft']:,g} ft"
        line += f", {r['measured_by']}, {r['measured_on']}"
        if field and lake is not None and r["method"] == "map":
            accuracy = r.get("accuracy_ft")
            coarse = setback_ft is not None and accuracy is not None and accuracy > setback_ft
            line += (f" ({'coarse map' if coarse else 'map'}; not used: the field measurement "
                     "decides)")
        elif field and lake is not None and r["method"] == lake.method and (
                float(r["distance_ft"]) == lake.distance_ft):
            line += " (decides)"
        out.append(line)
    return tuple(out)
