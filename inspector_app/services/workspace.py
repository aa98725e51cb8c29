"""The use cases of one data folder: the API that the CLI and the GUI both call."""

from __future__ import annotations

import contextlib
import getpass
import hashlib
import json
import mimetypes
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime
from pathlib import Path
from types import EllipsisType
from typing import TYPE_CHECKING, Any

from ..domain.case import Case
from ..domain.jurisdiction import Jurisdiction
from ..domain.rules import Decision, Evaluation, Suggestion, SuggestionStatus, evaluate
from ..domain.sbl import sbl_sort_key
from ..errors import InputError, NotFoundError
from ..paths import DataFolder, write_atomically
from ..storage.cases import case_version, load_case, parcel_id_for, save_case
from ..storage.store import Store
from .decisions import Reversal, active_decisions, decide, follow_findings, reopen
from .evaluation import Laws, NoLawFacts, NoLawOnFile, laws_for, no_law_facts
from .separations import located_things, record_lot_measurements
from .shorelines import (
    component_map_distances,
    ensure_default_layer,
    map_distance,
    record_map_measurement,
)

if TYPE_CHECKING:
    from ..geo.case_shapes import CaseShapes
    from ..storage.records import RecordWriter
    from .lots import LotLayer
    from .shorelines import ActiveLayer

USER_ENV = "INSPECTOR_APP_USER"
MAX_ATTACHMENT_BYTES = 50 * 1024 * 1024


def default_user() -> str:
    env = os.environ.get(USER_ENV, "").strip()
    if env:
        return env
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "unknown user"


@dataclass(frozen=True)
class CaseImportResult:
    sbl: str
    created: bool
    changes: int


class Workspace:
    """A data folder opened for work."""

    def __init__(self, root: Path, *, user: str | None = None,
                 clock: Callable[[], datetime] = lambda: datetime.now(UTC)) -> None:
        self.folder = DataFolder(root)
        self.clock = clock
        self.store = Store(self.folder, user=user or default_user(), clock=clock)
        self._laws: Laws | None = None
        ensure_default_layer(self)

    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> Workspace:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def today(self) -> date:
        return self.clock().astimezone().date()

    # --- cases -------------------------------------------------------------------------

    def import_case_file(self, path: Path, *, today: date | None = None) -> CaseImportResult:
        from .. import casefile

        case = casefile.read_file(path, today=today or self.today())
        return self.save_case(case, today=today)

    def save_case(self, case: Case, *, today: date | None = None) -> CaseImportResult:
        day = today or self.today()
        with self.store.transaction() as w:
            known = parcel_id_for(w.conn, case.parcel.sbl)
            moved = known is None or located_things(load_case(w.conn, known)) != (
                located_things(case))
            parcel_id, created = save_case(w, case, today=day)
            record_map_measurement(w, self, parcel_id, case, day)
            if moved:
                record_lot_measurements(w, self, parcel_id, case, day)
            self._follow_findings(w, parcel_id, day)
            changes = w.pending_changes
        return CaseImportResult(sbl=case.parcel.sbl, created=created, changes=changes)

    def save_edit(self, parcel_id: str, before: Case, after: Case, *,
                  today: date | None = None) -> tuple[Case, int]:
        """Write what changed from `before` to `after` onto the parcel as it is stored now.

        `parcel_id` is the parcel the edit was made on: an edit never lands on another
        parcel. A value that changed meanwhile elsewhere is kept; one changed both here and
        elsewhere is refused (EditConflict) and nothing is written. Returns the stored case
        and its version after the save."""
        from .. import casefile
        from ..domain.edits import EditConflict, apply_case_edit

        day = today or self.today()
        with self.store.transaction() as w:
            current = parcel_id_for(w.conn, before.parcel.sbl)
            if current != parcel_id:
                raise InputError(f"Parcel {before.parcel.sbl} is no longer the record this "
                                 "form was opened on; nothing was saved. Open it again.")
            stored = load_case(w.conn, parcel_id)
            try:
                merged = apply_case_edit(stored, before, after)
            except EditConflict as exc:
                raise InputError(f"Not saved: {exc}. The form now shows the stored values."
                                 ) from None
            if merged != stored:
                # The same gate as a case file: type, range, vocabulary, dates, cross-field
                # (what the stored record already lacked is not the edit's fault).
                found = casefile.new_problem(stored, merged, source="The form", today=day)
                if found is not None:
                    raise InputError(found)
                save_case(w, merged, today=day)
                record_map_measurement(w, self, parcel_id, merged, day)
                if located_things(stored) != located_things(merged):
                    record_lot_measurements(w, self, parcel_id, merged, day)
                self._follow_findings(w, parcel_id, day)
        return load_case(self.store.conn, parcel_id), case_version(self.store.conn, parcel_id)

    def open_for_edit(self, sbl: str) -> tuple[str, Case, int]:
        """The parcel's id, case and version, read together."""
        parcel_id = self.parcel_id(sbl)
        return (parcel_id, load_case(self.store.conn, parcel_id),
                case_version(self.store.conn, parcel_id))

    def parcel_id(self, sbl: str) -> str:
        parcel_id = parcel_id_for(self.store.conn, sbl.strip())
        if parcel_id is None:
            raise NotFoundError(f"No parcel with SBL {sbl!r} in {self.folder.root}; "
                                "`inspector-app parcels` lists the SBLs.",
                                in_app=f"No parcel with SBL {sbl!r} in {self.folder.root}; "
                                       "find it with the search box above the parcel list "
                                       "(Edit > Find parcel).")
        return parcel_id

    def load_case(self, sbl: str) -> Case:
        return load_case(self.store.conn, self.parcel_id(sbl))

    def case_version(self, sbl: str) -> int:
        return case_version(self.store.conn, self.parcel_id(sbl))

    # --- rules -------------------------------------------------------------------------

    @property
    def laws(self) -> Laws:
        """The jurisdiction files in force in this data folder."""
        if self._laws is None:
            self._laws = laws_for(self.folder.root)
        return self._laws

    @property
    def jurisdiction(self) -> Jurisdiction:
        """The Town of Canandaigua law as in force here. A parcel's law is
        `law_for(municipality)`: use that for anything said about a parcel."""
        return self.laws.default

    def law_for(self, municipality: str, *, doing: str = "") -> Jurisdiction:
        """The law of a municipality; NoLawOnFile when no file covers it."""
        found = self.laws.for_municipality(municipality)
        if found is None:
            raise NoLawOnFile(municipality, doing=doing)
        return found

    def evaluate_case(self, case: Case, *, as_of: date | None = None) -> Evaluation:
        """Evaluate a case that is not (or not yet) stored under its municipality's law
        (NoLawOnFile when there is none)."""
        return self._evaluate(case, as_of=as_of, decisions={})

    def _evaluate(self, case: Case, *, as_of: date | None,
                  decisions: Mapping[str, SuggestionStatus | Decision],
                  layer: ActiveLayer | EllipsisType | None = ...,
                  shapes: CaseShapes | None = None, parcel_id: str | None = None,
                  lots: LotLayer | EllipsisType | None = ...) -> Evaluation:
        from ..geo.case_shapes import CaseShapes
        from ..geo.setbacks import separations
        from .separations import separation_inputs

        law = self.law_for(case.parcel.municipality)
        if shapes is None:
            shapes = CaseShapes(case)  # each geometry projected once for every distance
        found = map_distance(self, case, layer=layer, shapes=shapes)
        inputs = separation_inputs(self, case, shapes, law=law, parcel_id=parcel_id,
                                   lots=lots)
        return evaluate(case, law, as_of=as_of or self.today(),
                        map_distance=None if found is None else found[0],
                        separations=separations(case, shapes, lot=inputs.lot,
                                                wells=inputs.wells), decisions=decisions,
                        component_distances=component_map_distances(self, case, layer=layer,
                                                                    shapes=shapes))

    def assess_case(self, case: Case, *, as_of: date | None = None,
                    layer: ActiveLayer | EllipsisType | None = ...,
                    shapes: CaseShapes | None = None, parcel_id: str | None = None,
                    lots: LotLayer | EllipsisType | None = ...) -> Evaluation | NoLawFacts:
        """The evaluation under the parcel's law, or, with no law on file, the record's
        facts and measurements with no judgement. `layer` and `lots`, when given, are the
        active shoreline and lot layers as read once for many cases; `shapes`, the case's
        geometries as projected together with other cases'; `parcel_id`, the stored
        parcel's id."""
        if self.laws.for_municipality(case.parcel.municipality) is None:
            found = map_distance(self, case, layer=layer, shapes=shapes)
            return no_law_facts(case, as_of=as_of or self.today(),
                                map_distance=None if found is None else found[0])
        return self._evaluate(case, as_of=as_of, decisions={}, layer=layer, shapes=shapes,
                              parcel_id=parcel_id, lots=lots)

    def assess_parcel(self, sbl: str, *, as_of: date | None = None
                      ) -> Evaluation | NoLawFacts:
        case = self.load_case(sbl)
        if self.laws.for_municipality(case.parcel.municipality) is None:
            return self.assess_case(case, as_of=as_of)
        return self.evaluate_parcel(sbl, as_of=as_of)

    def decisions(self, sbl: str) -> dict[str, SuggestionStatus]:
        rows = self.store.query(
            "SELECT suggestion_key, decision FROM finding_decisions WHERE parcel_id = ? AND "
            "deleted_at IS NULL", (self.parcel_id(sbl),))
        return {r["suggestion_key"]: SuggestionStatus(r["decision"]) for r in rows}

    def decision_records(self, sbl: str) -> dict[str, Decision]:
        """The standing decisions on the parcel's suggested findings: who, when, why."""
        return active_decisions(self.store.conn, self.parcel_id(sbl))

    def evaluate_parcel(self, sbl: str, *, as_of: date | None = None) -> Evaluation:
        """Evaluate a stored parcel, with the inspector's decisions on suggested findings."""
        return self._evaluate(self.load_case(sbl), as_of=as_of,
                              decisions=self.decision_records(sbl))

    def decide_suggestion(self, sbl: str, key: str, *, accept: bool, note: str | None = None,
                          as_of: date | None = None) -> Suggestion:
        """Record the inspector's decision, with an optional note; an accepted finding marks
        the component substandard with the finding and its section, in the same
        transaction. Deciding again revises the decision (rejecting an accepted finding
        takes off what its acceptance added)."""
        day = as_of or self.today()
        evaluation = self.evaluate_parcel(sbl, as_of=day)
        found = {s.key: s for s in evaluation.suggestions}
        if key not in found:
            offered = ", ".join(found) or "none"
            raise InputError(f"Parcel {sbl} has no suggested finding {key!r} (suggested now: "
                             f"{offered}).")
        suggestion = found[key]
        parcel_id = self.parcel_id(sbl)
        with self.store.transaction() as w:
            decision = decide(w, parcel_id, suggestion, accept=accept, note=note,
                              user=self.store.actor.user, day=day)
        return replace(suggestion, status=decision.status, decision=decision)

    def reopen_suggestion(self, sbl: str, key: str) -> Reversal:
        """Undo the decision on a suggested finding: it is pending again, and what its
        acceptance added to the component is taken off where nobody has changed it since.
        One transaction; the change log records who and when."""
        parcel_id = self.parcel_id(sbl)
        with self.store.transaction() as w:
            return reopen(w, parcel_id, key)

    def _follow_findings(self, w: RecordWriter, parcel_id: str, day: date) -> None:
        # With no law on file the evaluation refuses before any write: accepted findings
        # stay as they were recorded.
        with contextlib.suppress(NoLawOnFile):
            follow_findings(w, parcel_id, lambda case, decisions: self._evaluate(
                case, as_of=day, decisions=decisions))

    # --- parcels -----------------------------------------------------------------------

    def parcels(self) -> list[dict[str, Any]]:
        rows = self.store.query(
            "SELECT sbl, municipality, site_address, owner_name FROM parcels "
            "WHERE deleted_at IS NULL")
        return sorted(rows, key=lambda r: sbl_sort_key(r["sbl"]))

    def has_demo_parcels(self) -> bool:
        return bool(self.store.query(
            "SELECT EXISTS (SELECT 1 FROM parcels WHERE is_demo = 1 AND deleted_at IS NULL)"
            " AS yes")[0]["yes"])

    def history(self, sbl: str) -> list[dict[str, Any]]:
        """Every change to the parcel's records, oldest first: who, when, where, old -> new."""
        rows = self.store.query(
            "SELECT c.seq, c.at, c.user, d.name AS device, c.table_name, c.record_id, c.op, "
            "c.field, c.old_value, c.new_value, c.record_version FROM change_log c "
            "LEFT JOIN devices d ON d.id = c.device_id WHERE c.parcel_id = ? ORDER BY c.seq",
            (self.parcel_id(sbl),))
        for row in rows:
            for key in ("old_value", "new_value"):
                row[key] = None if row[key] is None else json.loads(row[key])
        # values this laptop cleared from its copy of the history (`assignment.purge`)
        from .assignment import CLEARED

        by_seq = {r["seq"]: r for r in rows}
        for mark in self.store.query(
                "SELECT c.seq, k.cleared FROM cleared_copies k JOIN change_log c ON "
                "c.change_id = k.row_id WHERE k.table_name = 'change_log' AND c.parcel_id = ?",
                (self.parcel_id(sbl),)):
            row = by_seq[mark["seq"]]
            for path in json.loads(mark["cleared"]):
                key, _, name = path.partition(".")
                if not name:
                    row[key] = CLEARED
                elif isinstance(row[key], dict):
                    row[key][name] = CLEARED
        return rows

    # --- attachments -------------------------------------------------------------------

    def add_attachment(self, sbl: str, path: Path, *, caption: str | None = None
                       ) -> dict[str, Any]:
        """Store a photo or document by its SHA-256 and record it on the parcel."""
        parcel_id = self.parcel_id(sbl)
        try:
            size = path.stat().st_size
            if size > MAX_ATTACHMENT_BYTES:
                raise InputError(f"{path}: is {size / 1e6:.0f} MB; attachments are limited to "
                                 f"{MAX_ATTACHMENT_BYTES // 1_000_000} MB.")
            data = path.read_bytes()
        except FileNotFoundError:
            raise InputError(f"{path}: no such file.") from None
        digest = hashlib.sha256(data).hexdigest()
        target = self.attachment_path(digest)
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            write_atomically(target, data)
        media_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        with self.store.transaction() as w:
            attachment_id = w.insert("attachments", {
                "sha256": digest, "filename": path.name, "media_type": media_type,
                "size_bytes": len(data), "caption": caption}, parcel_id=parcel_id)
        return {"id": attachment_id, "sha256": digest, "filename": path.name,
                "size_bytes": len(data), "media_type": media_type}

    def attachment_path(self, digest: str) -> Path:
        return self.folder.attachments / digest[:2] / digest

    def attachments(self, sbl: str) -> list[dict[str, Any]]:
        return self.store.query(
            "SELECT id, sha256, filename, media_type, size_bytes, caption, created_at "
            "FROM attachments WHERE parcel_id = ? AND deleted_at IS NULL ORDER BY created_at",
            (self.parcel_id(sbl),))
