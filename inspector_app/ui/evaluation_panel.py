"""The law's consequences of the case as it stands, every line with its section."""

from __future__ import annotations

from html import escape
from urllib.parse import quote, unquote

from PySide6.QtCore import QUrl, Signal
from PySide6.QtWidgets import QInputDialog, QLineEdit, QTextBrowser

from ..domain.rules import NOT_INSPECTED, Evaluation, Suggestion, SuggestionStatus
from ..domain.vocabulary import Condition
from ..services.letters.due import NEW, LetterDue
from ..services.session.laws import NoLawFacts
from . import theme as themes
from .theme import Theme


def _link(t: Theme, action: str, key: str, text: str) -> str:
    return (f"<a href='{action}:{quote(key, safe='')}' style='color:{t.link}'>"
            f"{escape(text)}</a>")


def _decision_html(t: Theme, s: Suggestion) -> str:
    d = s.decision
    if d is None:  # decided, but who and when are not known here
        return f" <i>{escape(s.status.value)}</i> " + _link(t, "undo", s.key, "Undo decision")
    line = (f"<br><b>{escape(d.status.value.capitalize())}</b> by {escape(d.decided_by)} on "
            f"{d.decided_on.isoformat()}")
    if d.note:
        line += f": \u201c{escape(d.note)}\u201d"
    line += " \u00b7 " + _link(t, "undo", s.key, "Undo decision")
    if d.status is SuggestionStatus.ACCEPTED and d.defect and d.defect != s.defect:
        line += (f"<br><span style='color:{t.muted}'>The record states it as \u201c"
                 f"{escape(d.defect)}\u201d.</span> "
                 + _link(t, "reword", s.key, "Record the current wording"))
    return line


def _distance(distance_ft: float, method: str | None, layer: str | None,
              accuracy_ft: float | None) -> str:
    """A distance to the lake line with how it was found: method, layer, accuracy."""
    return (f"{distance_ft:,.1f} ft by {escape(method or '')}"
            + (f" on {escape(layer)}" if layer else "")
            + (f", ±{accuracy_ft:,.0f} ft" if accuracy_ft else ""))


def _letters_html(t: Theme, e: Evaluation, due: tuple[LetterDue, ...] | None) -> str:
    """The letters called for, each issued one with its date and number, and the link to
    issue the first that is due (a new letter or a correction); `due` None: all new."""
    if not e.letters:
        return "none"
    standing = due if due is not None else tuple(LetterDue(k.value, NEW) for k in e.letters)
    words = [escape(d.issued_words()) for d in standing]
    first = next((d for d in standing if d.due is not None), None)
    if first is None:
        return ", ".join(words)
    text = "Issue it... (Ctrl+L)" if first.due == NEW else "Issue its correction... (Ctrl+L)"
    return ", ".join(words) + " \u00b7 " + _link(t, "issue", first.kind, text)


def evaluation_html(e: Evaluation, t: Theme | None = None,
                    due: tuple[LetterDue, ...] | None = None) -> str:
    t = t or themes.active()

    def cite(text: str) -> str:
        return f" <span style='color:{t.muted}'>({escape(text)})</span>"

    parts = ["<h3 style='margin:0'>Evaluation</h3>",
             f"<p style='color:{t.muted};margin-top:0'>as of {e.as_of.isoformat()}</p>"]
    standing = e.standing
    shown = "not inspected" if standing == NOT_INSPECTED else standing
    parts.append(f"<p><b>Outcome: <span style='color:{t.outcome_colour(standing)}'>"
                 f"{escape(shown.upper())}</span></b>"
                 + (cite(e.outcome_citation) if e.outcome_citation else "") + "</p>")
    if not e.inspected:
        parts.append(f"<p style='color:{t.muted}'>No inspection is on record"
                     + (": nothing here says whether the system is acceptable."
                        if standing == NOT_INSPECTED else
                        "; the outcome rests on the component records alone.") + "</p>")
    # The letter the records call for, and what awaits the inspector's decision (a
    # letter waits on it), come first.
    parts.append(f"<p><b>Letters called for:</b> {_letters_html(t, e, due)}</p>")
    if e.suggestions:
        items = []
        for s in e.suggestions:
            if s.status is SuggestionStatus.PENDING:
                actions = (" " + _link(t, "accept", s.key, "Accept") + " | "
                           + _link(t, "reject", s.key, "Reject"))
            else:
                actions = _decision_html(t, s)
            colour = t.failure if s.condition.value == "failed" else t.substandard
            if s.component is not None:
                component = s.component.value.replace("_", " ")
                accepting = (f"accepting marks it {s.condition.value}"
                             if s.condition is not Condition.ACCEPTABLE else
                             "accepting records it; the condition stays")
            else:  # the office's decision on a lapse cured since: does a notice report it
                component = "a lapse cured since"
                accepting = "accepting reports it in the notice as cured"
            marks = (f" <b style='color:{colour}'>({escape(accepting)})</b>"
                     if s.status is SuggestionStatus.PENDING else "")
            items.append(f"<li>{escape(component)}: {escape(s.defect)}{cite(s.citation)}"
                         f"{marks}{actions}</li>")
        parts.append("<p><b>Suggested findings</b></p><ul>" + "".join(items) + "</ul>")
    lake = e.lake
    lake_text = ("distance not known" if lake.distance_ft is None else
                 _distance(lake.distance_ft, lake.method, lake.layer, lake.accuracy_ft))
    zone = lake.zone.value.replace("_", " ").replace("200ft", "200 ft")
    parts.append(f"<p><b>Lake:</b> {escape(zone)}: {lake_text}{cite(lake.citation)}</p>")
    for title, d in (("Design load", e.design), ("Proposed design", e.proposed_design)):
        if d is None:
            continue
        flags = []
        if d.provisional:
            flags.append(f"<b style='color:{t.substandard}'>provisional</b> (design-load "
                         "zone undetermined)")
        if d.ahj_determination_required:
            flags.append(f"<b style='color:{t.substandard}'>AHJ determination required</b>")
        parts.append(f"<p><b>{title}:</b> {escape(d.arithmetic)}: {d.design_bedrooms} design "
                     f"bedrooms ({escape(d.basis)}), {escape(d.standard)}"
                     + (f"; {'; '.join(flags)}" if flags else "")
                     + cite(", ".join(d.citations))
                     + (f"<br>Rate decided by {escape(d.zone_basis.detail)}"
                        if d.zone_basis is not None and title == "Design load" else "")
                     + "</p>")
    if e.triggers:
        parts.append("<p><b>Inspection triggers</b></p><ul>" + "".join(
            f"<li>{escape(tr.code.replace('_', ' '))}: {escape(tr.detail)}{cite(tr.citation)}"
            "</li>" for tr in e.triggers) + "</ul>")
    if e.violations:
        parts.append("<p><b>Violations</b></p><ul>" + "".join(
            f"<li>{escape(v.code.replace('_', ' '))}: {escape(v.detail)}"
            + (f", since {v.since.isoformat()}" if v.since else "") + cite(v.citation)
            + "</li>" for v in e.violations) + "</ul>")
    if e.substandard_path is not None:
        p = e.substandard_path
        parts.append(f"<p><b>Substandard system:</b> {escape(p.summary)}{cite(p.citation)}</p>")
    if e.unsupported:
        parts.append("<p><b>Accepted findings the record no longer bears out</b></p><ul>"
                     + "".join(f"<li>{escape(s.defect)}{cite(s.citation)}"
                               f"{_decision_html(t, s)}</li>" for s in e.unsupported)
                     + "</ul>")
    parts += _field_tests_html(t, e)
    for prompt in e.prompts:
        parts.append(f"<p style='background:{t.prompt.background};color:{t.prompt.text};"
                     f"padding:4px'>{escape(prompt)}</p>")
    return "".join(parts)


def _field_tests_html(t: Theme, e: Evaluation) -> list[str]:
    """A field test soon after a pump-out, warned of; and the volume preset of each kind
    of test at this dwelling, with its arithmetic. Each is the office's practice, marked
    unconfirmed while the jurisdiction file lists it so."""
    unconfirmed = f" <span style='color:{t.substandard}'>(unconfirmed)</span>"
    out = [f"<p style='background:{t.prompt.background};color:{t.prompt.text};padding:4px'>"
           f"<b>Field test {w.test + 1}:</b> {escape(w.text)}"
           f"{unconfirmed if w.unconfirmed else ''}</p>" for w in e.test_warnings]
    if e.test_presets:
        out.append("<p><b>Field test presets</b></p><ul>" + "".join(
            f"<li>{escape(p.kind.value.replace('_', '-'))}: {escape(p.arithmetic)}"
            f"{unconfirmed if p.unconfirmed else ''}</li>" for p in e.test_presets) + "</ul>")
    return out


def no_law_html(f: NoLawFacts, t: Theme | None = None) -> str:
    """A parcel with no law on file: said first, then what the record says, unjudged."""
    t = t or themes.active()
    parts = ["<h3 style='margin:0'>Evaluation</h3>",
             f"<p style='color:{t.muted};margin-top:0'>as of {f.as_of.isoformat()}</p>",
             f"<p style='background:{t.prompt.background};color:{t.prompt.text};padding:4px'>"
             f"<b>{escape(f.sentence)}</b></p>"]
    lake = ("no distance to the lake line is recorded or measured"
            if f.lake_distance_ft is None else
            _distance(f.lake_distance_ft, f.lake_method, f.lake_layer, f.lake_accuracy_ft))
    parts.append(f"<p><b>Lake (measured, not judged):</b> {lake}</p>")
    insp = f.inspection
    parts.append("<p><b>Inspection on record:</b> " + (
        "none" if insp is None else f"{insp.date.isoformat()} by {escape(insp.inspector)}")
        + "</p>")
    if insp is not None and insp.failure_evidence:
        parts.append("<p><b>Evidence recorded:</b> "
                     + escape("; ".join(insp.failure_evidence)) + "</p>")
    obs = f.observations
    for label, items in (("On the absorption area", obs.absorption_area_encroachments if obs
                          else ()),
                         ("Clear water into the system", obs.clear_water_connections if obs
                          else ()),
                         ("Sewage discharging from the holding tank",
                          obs.holding_tank_discharges if obs else ())):
        if items:
            parts.append(f"<p><b>{label} (observed):</b> {escape(', '.join(items))}</p>")
    if f.components:
        parts.append("<p><b>Components as recorded</b></p><ul>" + "".join(
            f"<li>{escape(c.kind.value.replace('_', ' '))}: "
            f"{escape(c.condition.value.replace('_', ' '))}"
            + (f" ({escape('; '.join(c.defects))})" if c.defects else "") + "</li>"
            for c in f.components) + "</ul>")
    parts.append("<p><b>Letters called for:</b> none (no law on file)</p>")
    return "".join(parts)


class EvaluationPanel(QTextBrowser):
    decided = Signal(str, bool, str)  # suggestion key, accepted, note ("" for none)
    undone = Signal(str)  # suggestion key whose decision is to be undone
    issue_requested = Signal(str)  # the kind of letter called for, to be issued

    def __init__(self) -> None:
        super().__init__()
        self.setOpenLinks(False)
        self.anchorClicked.connect(self._clicked)
        self.setMinimumWidth(240)
        self.setPlaceholderText("Select a parcel to see what its law makes of it.")
        self.evaluation: Evaluation | None = None
        self.no_law: NoLawFacts | None = None
        # the letters called for, each with whether it is due (None: not known)
        self.due: tuple[LetterDue, ...] | None = None

    def show_evaluation(self, e: Evaluation | NoLawFacts | None,
                        due: tuple[LetterDue, ...] | None = None) -> None:
        self.no_law = e if isinstance(e, NoLawFacts) else None
        self.evaluation = None if isinstance(e, NoLawFacts) else e
        self.due = due
        self.setHtml("" if e is None else no_law_html(e) if isinstance(e, NoLawFacts)
                     else evaluation_html(e, due=due))

    def restyle(self) -> None:
        """Render again in the active theme's colours."""
        self.show_evaluation(self.no_law or self.evaluation, self.due)

    def _suggestion(self, key: str) -> Suggestion | None:
        e = self.evaluation
        found = [s for s in (*e.suggestions, *e.unsupported) if s.key == key] if e else []
        return found[0] if found else None

    def _clicked(self, url: QUrl) -> None:
        action, _, quoted = url.toString().partition(":")
        key = unquote(quoted)
        if action in ("accept", "reject"):
            accept = action == "accept"
            note, ok = QInputDialog.getText(
                self, "Accept the finding" if accept else "Reject the finding",
                "Note for the record (optional), e.g. how it was confirmed:",
                QLineEdit.EchoMode.Normal, "")
            if ok:
                self.decided.emit(key, accept, note.strip())
        elif action == "reword":
            s = self._suggestion(key)
            kept = s.decision.note if s is not None and s.decision is not None else None
            self.decided.emit(key, True, kept or "")
        elif action == "undo":
            self.undone.emit(key)
        elif action == "issue":
            self.issue_requested.emit(key)
