"""Deciding a parcel's suggested findings, as an inspector does before issuing letters."""

from __future__ import annotations

from datetime import date

from inspector_app.domain.rules import SuggestionStatus
from inspector_app.services.workspace import Workspace


def decide_pending(ws: Workspace, sbl: str, *, accept: bool = False,
                   as_of: date | None = None) -> list[str]:
    """Accept (or, by default, reject: the record then stays as entered) every suggested
    finding still pending on the parcel; the keys decided."""
    keys = [s.key for s in ws.evaluate_parcel(sbl, as_of=as_of).suggestions
            if s.status is SuggestionStatus.PENDING]
    for key in keys:
        ws.decide_suggestion(sbl, key, accept=accept, as_of=as_of)
    return keys
