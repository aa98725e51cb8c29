"""The law's consequences of the case as it stands, every line with its section."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import QUrl, Signal
from PySide6.QtWidgets import QTextBrowser

from ..domain.rules import Evaluation, SuggestionStatus


def _cite(text: str) -> str:
    return f' <span style="color:#555">({escape(text)})</span>'


def evaluation_html(e: Evaluation) -> str:
    parts = ["<h3 style='margin:0'>Evaluation</h3>",
             f"<p style='color:#555;margin-top:0'>as of {e.as_of.isoformat()}</p>"]
    outcome_color = {"failure": "#b00020", "substandard": "#9a5b00", "incomplete": "#555",
                     "acceptable": "#1b6e20"}[e.outcome.value]
    parts.append(f"<p><b>Outcome: <span style='color:{outcome_color}'>"
                 f"{escape(e.outcome.value.upper())}</span></b>"
                 + (_cite(e.outcome_citation) if e.outcome_citation else "") + "</p>")
    lake = e.lake
    if lake.distance_ft is None:
        lake_text = "distance not known"
    else:
        lake_text = (f"{lake.distance_ft:,.1f} ft by {escape(lake.method or '')}"
                     + (f" on {escape(lake.layer)}" if lake.layer else "")
                     + (f", ±{lake.accuracy_ft:,.0f} ft" if lake.accuracy_ft else ""))
    zone = lake.zone.value.replace("_", " ").replace("200ft", "200 ft")
    parts.append(f"<p><b>Lake:</b> {escape(zone)}: {lake_text}"
                 f"{_cite(lake.citation)}</p>")
    for title, d in (("Design load", e.design), ("Proposed design", e.proposed_design)):
        if d is None:
            continue
        flags = []
        if d.provisional:
            flags.append("<b style='color:#9a5b00'>provisional</b> (lake zone undetermined)")
        if d.ahj_determination_required:
            flags.append("<b style='color:#9a5b00'>AHJ determination required</b>")
        parts.append(f"<p><b>{title}:</b> {escape(d.arithmetic)}: {d.design_bedrooms} design "
                     f"bedrooms ({escape(d.basis)}), {escape(d.standard)}"
                     + (f"; {'; '.join(flags)}" if flags else "")
                     + _cite(", ".join(d.citations)) + "</p>")
    if e.triggers:
        parts.append("<p><b>Inspection triggers</b></p><ul>" + "".join(
            f"<li>{escape(t.code.replace('_', ' '))}: {escape(t.detail)}{_cite(t.citation)}"
            "</li>" for t in e.triggers) + "</ul>")
    if e.violations:
        parts.append("<p><b>Violations</b></p><ul>" + "".join(
            f"<li>{escape(v.code.replace('_', ' '))}: {escape(v.detail)}"
            + (f", since {v.since.isoformat()}" if v.since else "") + _cite(v.citation)
            + "</li>" for v in e.violations) + "</ul>")
    if e.substandard_path is not None:
        p = e.substandard_path
        parts.append(f"<p><b>Substandard system:</b> {escape(p.summary)}{_cite(p.citation)}</p>")
    if e.suggestions:
        items = []
        for s in e.suggestions:
            if s.status is SuggestionStatus.PENDING:
                actions = (f" <a href='accept:{escape(s.key)}'>Accept</a> | "
                           f"<a href='reject:{escape(s.key)}'>Reject</a>")
            else:
                actions = f" <i>{s.status.value}</i>"
            items.append(f"<li>{escape(s.component.value.replace('_', ' ') if s.component else '')}"
                         f": {escape(s.defect)}{_cite(s.citation)}{actions}</li>")
        parts.append("<p><b>Suggested findings</b></p><ul>" + "".join(items) + "</ul>")
    letters = ", ".join(k.value.replace("_", " ") for k in e.letters) or "none"
    parts.append(f"<p><b>Letters called for:</b> {escape(letters)}</p>")
    for prompt in e.prompts:
        parts.append(f"<p style='background:#fff4ce;padding:4px'>{escape(prompt)}</p>")
    return "".join(parts)


class EvaluationPanel(QTextBrowser):
    decided = Signal(str, bool)  # suggestion key, accepted

    def __init__(self) -> None:
        super().__init__()
        self.setOpenLinks(False)
        self.anchorClicked.connect(self._clicked)
        self.setMinimumWidth(240)
        self.setPlaceholderText("Select a parcel to see what Chapter 202 makes of it.")

    def show_evaluation(self, e: Evaluation | None) -> None:
        self.setHtml("" if e is None else evaluation_html(e))

    def _clicked(self, url: QUrl) -> None:
        action, _, key = url.toString().partition(":")
        if action in ("accept", "reject"):
            self.decided.emit(key, action == "accept")
