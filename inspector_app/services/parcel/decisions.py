"""The inspector's decisions on suggested findings: recorded, reversible, and kept in step
with the findings they rest on.

Accepting a suggestion writes the decision and, on the component the finding is about,
adds the finding ("<defect> (<section>)") and marks an acceptable component substandard,
all in one transaction. What that transaction changed is read back from the change log
when the decision is undone, so an undo takes away exactly what the acceptance added and
nothing a person has changed since.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from ...domain.case import Case
from ...domain.rules import (
    PUMP_KEY,
    Decision,
    Evaluation,
    Suggestion,
    SuggestionStatus,
    finding_text,
)
from ...domain.vocabulary import ComponentKind, Condition
from ...errors import InputError
from ...storage import change_log, components
from ...storage import decisions as decision_rows
from ...storage.cases import load_case
from ...storage.records import RecordWriter

TABLE = decision_rows.TABLE
Evaluator = Callable[[Case, Mapping[str, Decision]], Evaluation]


def active_decisions(conn: Any, parcel_id: str) -> dict[str, Decision]:
    """The parcel's standing decisions by suggestion key (an undone one is pending)."""
    return decision_rows.standing(conn, parcel_id)


def component_of_key(key: str) -> tuple[ComponentKind, int] | None:
    """The component a suggestion key names ("setback/absorption_area#1/lake")."""
    for part in key.split("/"):
        kind, sep, ordinal = part.partition("#")
        if sep and ordinal.isdigit():
            try:
                return ComponentKind(kind), int(ordinal)
            except ValueError:
                return None
    return None


_RANK = {Condition.ACCEPTABLE.value: 0, Condition.SUBSTANDARD.value: 1,
         Condition.FAILED.value: 2}
_BY_RANK = {rank: condition for condition, rank in _RANK.items()}


def condition_of_key(key: str) -> Condition:
    """The condition an accepted finding gives its component: a failure finding
    ("failure/...") makes it failed, a "pump the tank" finding leaves it as it is, every
    other finding makes it substandard."""
    if key.startswith(PUMP_KEY):
        return Condition.ACCEPTABLE
    return Condition.FAILED if key.startswith("failure/") else Condition.SUBSTANDARD


def _component_id(conn: Any, parcel_id: str, kind: ComponentKind | None,
                  ordinal: int | None) -> str | None:
    if kind is None or ordinal is None:
        return None
    ids = components.ids_of_kind(conn, parcel_id, kind.value)
    return ids[ordinal - 1] if len(ids) >= ordinal else None


def _logged(value: str | None) -> Any:
    return None if value is None else json.loads(value)


def _defects(value: Any) -> list[str]:
    """A component's defects from the record or the change log (stored as JSON text)."""
    if isinstance(value, str):
        value = json.loads(value)
    return list(value or [])


@dataclass(frozen=True)
class _Acceptance:
    """One acceptance as the change log has it: the decision record, and the component
    fields that the same transaction changed (field -> (seq, old, new))."""

    decision_id: str
    seq: int
    component_id: str | None
    fields: dict[str, tuple[int, Any, Any]] = field(default_factory=dict)


def _acceptances(conn: Any, parcel_id: str) -> list[_Acceptance]:
    """Every acceptance recorded on the parcel, oldest first.

    A transaction logs the decision first and then the component it changed, in rows
    numbered one after the other with one timestamp and device."""
    marks = decision_rows.logged_decisions(conn, parcel_id)
    out = []
    for seq, at, device_id, decision_id, op, new_value in marks:
        new = _logged(new_value)
        status = new.get("decision") if op == "insert" and isinstance(new, dict) else new
        if status != SuggestionStatus.ACCEPTED.value:
            continue
        component_id, version = None, None
        fields: dict[str, tuple[int, Any, Any]] = {}
        expect = seq + 1
        for r_seq, r_at, r_device, table, record_id, r_op, r_field, old, new_v, r_version in (
                change_log.entries_after(conn, seq, 64)):
            if r_seq != expect or r_at != at or r_device != device_id:
                break
            expect += 1
            if table == TABLE and record_id == decision_id:
                continue
            if table == "components" and r_op == "update" and (
                    component_id is None or (record_id, r_version) == (component_id, version)):
                component_id, version = record_id, r_version
                fields[r_field] = (r_seq, _logged(old), _logged(new_v))
                continue
            break
        out.append(_Acceptance(decision_id, seq, component_id, fields))
    return out


@dataclass(frozen=True)
class Reversal:
    """What undoing a decision did, and what it left as a person had made it."""

    key: str
    undone: SuggestionStatus
    finding: str  # the defect, as the decision recorded it
    component: str | None = None  # in words: "septic tank"
    removed_defect: str | None = None
    condition_restored: bool = False
    left: tuple[str, ...] = ()
    restored_to: str = Condition.ACCEPTABLE.value

    def summary(self) -> str:
        where = f" on the {self.component}" if self.component else ""
        act = "acceptance" if self.undone is SuggestionStatus.ACCEPTED else "rejection"
        text = (f"Undid the {act} of the finding{where} (\u201c{self.finding}\u201d): the "
                "suggestion is pending again.")
        done = []
        if self.removed_defect:
            done.append(f"its defect is off the {self.component}'s list")
        if self.condition_restored:
            done.append(f"the {self.component} is {self.restored_to.replace('_', ' ')} again")
        if done:
            text += " " + " and ".join(done).capitalize() + "."
        return text + "".join(f" {item}" for item in self.left)


def _row(conn: Any, parcel_id: str, key: str) -> dict[str, Any] | None:
    return decision_rows.standing_row(conn, parcel_id, key)


def _reverse(w: RecordWriter, parcel_id: str, key: str, row: Mapping[str, Any]) -> Reversal:
    """Take off the component what the decision's acceptance put there, where a person has
    not changed it since."""
    undone = SuggestionStatus(row["decision"])
    finding = str(row["defect"])
    if undone is not SuggestionStatus.ACCEPTED:
        return Reversal(key, undone, finding)
    acceptances = _acceptances(w.conn, parcel_id)
    mine = [a for a in acceptances if a.decision_id == row["id"]]
    if not mine or mine[-1].component_id is None:
        return Reversal(key, undone, finding)  # the acceptance changed no component
    accepted = mine[-1]
    assert accepted.component_id is not None
    component = w.current("components", accepted.component_id)
    words = str(component["kind"]).replace("_", " ")
    if component["deleted_at"] is not None:
        return Reversal(key, undone, finding, words,
                        left=(f"The {words} it was recorded on has been removed since.",))
    defects = _defects(component["defects"])
    left: list[str] = []
    update: dict[str, Any] = {}
    removed = None
    text = finding_text(row["defect"], row["citation"])
    if "defects" in accepted.fields:
        if text in defects:
            defects.remove(text)
            update["defects"] = defects
            removed = text
        else:
            left.append(f"The {words}'s defects no longer list \u201c{text}\u201d; they are "
                        "left as they are.")
    restored = False
    current = component["condition"]
    restored_to = Condition.ACCEPTABLE.value
    if current in (Condition.SUBSTANDARD.value, Condition.FAILED.value):
        last = change_log.last_update_of(w.conn, "components", accepted.component_id,
                                         "condition")
        setter = next((a for a in acceptances if a.component_id == accepted.component_id
                       and last is not None and a.fields.get("condition", (None,))[0] == last
                       and a.fields["condition"][2] == current
                       and _RANK.get(a.fields["condition"][1], 9) < _RANK[current]), None)
        others = {k: d for k, d in active_decisions(w.conn, parcel_id).items()
                  if k != key and d.status is SuggestionStatus.ACCEPTED
                  and _component_id(w.conn, parcel_id, *(component_of_key(k) or (None, None)))
                  == accepted.component_id}
        held = max((_RANK[condition_of_key(k).value] for k in others), default=0)
        theirs = {finding_text(d.defect, d.citation) for d in others.values()}
        before = None if setter is None or "defects" not in setter.fields else _defects(
            setter.fields["defects"][1])
        words_now = current.replace("_", " ")
        if setter is None:
            if "condition" in accepted.fields:
                left.append(f"The {words}'s condition was changed since; it stays as it is.")
        elif held >= _RANK[current]:
            left.append(f"Another accepted finding keeps the {words} {words_now}.")
        elif before is not None and [d for d in defects if d not in theirs] != [
                d for d in before if d not in theirs]:
            left.append(f"The {words} lists other defects now; it stays {words_now}.")
        else:
            restored_to = max(setter.fields["condition"][1], _BY_RANK[held],
                              key=lambda c: _RANK[c])
            update["condition"] = Condition(restored_to)
            restored = True
    if update:
        w.update("components", accepted.component_id, update)
    return Reversal(key, undone, finding, words, removed, restored, tuple(left), restored_to)


def decide(w: RecordWriter, parcel_id: str, suggestion: Suggestion, *, accept: bool,
           note: str | None, user: str, day: date) -> Decision:
    """Record a decision (a new one, or a revision of the standing one). An accepted finding
    marks its component substandard with the finding. A standing acceptance is first undone
    (what it added is taken off), so that every acceptance is one transaction of its own
    that an undo can read back."""
    existing = _row(w.conn, parcel_id, suggestion.key)
    status = SuggestionStatus.ACCEPTED if accept else SuggestionStatus.REJECTED
    note = (note or "").strip() or None
    values = {"suggestion_key": suggestion.key, "decision": status,
              "defect": suggestion.defect, "citation": suggestion.section,
              "decided_by": user, "decided_on": day, "note": note}
    if existing is not None and existing["decision"] == SuggestionStatus.ACCEPTED:
        _reverse(w, parcel_id, suggestion.key, existing)
        if accept:  # accepted again (reworded, or with another note): a new decision
            w.delete(TABLE, existing["id"])
            existing = None
    if existing is not None:
        w.update(TABLE, existing["id"], values)
    else:
        w.insert(TABLE, values, parcel_id=parcel_id)
    if accept:
        component_id = _component_id(w.conn, parcel_id, suggestion.component,
                                     suggestion.ordinal)
        if component_id is not None:
            component = w.current("components", component_id)
            defects = _defects(component["defects"])
            update: dict[str, Any] = {}
            # A finding the component already states (in these or other words) is not
            # added again.
            if not suggestion.recorded_in(defects):
                update["defects"] = [*defects, suggestion.record_text]
            # Accepting raises the condition to the finding's (acceptable -> substandard ->
            # failed), never lowers it; a component not located stays so.
            if _RANK.get(component["condition"], 9) < _RANK[suggestion.condition.value]:
                update["condition"] = suggestion.condition
            if update:
                w.update("components", component_id, update)
    return Decision(status=status, decided_by=user, decided_on=day, note=note,
                    defect=suggestion.defect, citation=suggestion.section)


def reopen(w: RecordWriter, parcel_id: str, key: str) -> Reversal:
    """Undo the standing decision: the suggestion is pending again. The decision record is
    kept, marked deleted, with its history."""
    row = _row(w.conn, parcel_id, key)
    if row is None:
        raise InputError(f"Suggested finding {key!r} has no decision to undo: it is already "
                         "pending.")
    reversal = _reverse(w, parcel_id, key, row)
    w.delete(TABLE, row["id"])
    return reversal


def follow_findings(w: RecordWriter, parcel_id: str, evaluate: Evaluator) -> int:
    """Bring accepted findings up to date with the record they rest on: when a suggestion's
    wording changes (a new measurement, capacity or bedroom count), the decision and the
    defect on the component change with it, as recorded changes. Returns how many."""
    decisions = active_decisions(w.conn, parcel_id)
    if not any(d.status is SuggestionStatus.ACCEPTED for d in decisions.values()):
        return 0
    evaluation = evaluate(load_case(w.conn, parcel_id), decisions)
    followed = 0
    for s in evaluation.suggestions:
        d = s.decision
        if d is None or d.status is not SuggestionStatus.ACCEPTED or (
                (d.defect, d.citation) == (s.defect, s.section)):
            continue
        row = _row(w.conn, parcel_id, s.key)
        assert row is not None
        w.update(TABLE, row["id"], {"defect": s.defect, "citation": s.section})
        component_id = _component_id(w.conn, parcel_id, s.component, s.ordinal)
        if component_id is not None:
            defects = _defects(w.current("components", component_id)["defects"])
            earlier = finding_text(d.defect, d.citation)
            if earlier in defects:
                if s.record_text in defects:
                    defects.remove(earlier)
                else:
                    defects[defects.index(earlier)] = s.record_text
                w.update("components", component_id, {"defects": defects})
        followed += 1
    return followed
