"""Each parcel's evaluation as of any date, kept so that the work lists need not evaluate
20,000 cases every time they are opened.

A summary holds what the work lists and the parcel list show of an evaluation: the lake
zone and distance, the outcome, whether an inspection is on record, the violations the
record makes (each with the date after which it stands: an ETU inspection or report that
falls due) and the facts the letters rest on. As of any date it gives exactly what
`evaluate` gives as of that date.

It is derived data, kept in `case_summaries` and never in the change log or a sync
package. It names what it was worked out under: the rules (this program's code and its
geometry libraries), the parcel's law (the jurisdiction file's content) and the active
shoreline layer; a summary under anything else is worked out again. A write to any row a
case is read from deletes that parcel's summary in the same transaction (the triggers of
schema version 11), so a summary on file always describes the case as stored.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields, is_dataclass, replace
from datetime import date
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from ...domain.jurisdiction import Jurisdiction
from ...domain.rules import (
    NOT_INSPECTED,
    DatedFinding,
    Evaluation,
    Finding,
    LetterKind,
    Outcome,
    Zone,
    combined_accuracy,
    letters_for,
    standing_findings,
)
from ...storage import layers
from ...storage import summaries as kept_summaries
from ...storage.cases import load_cases, stored_date
from ..parcel.evaluation import assess_case
from ..session.laws import NoLawFacts

if TYPE_CHECKING:
    from ..session.session import Session

SUMMARY_FORMAT = 4
# Parcels worked out (read, evaluated and stored) in one transaction.
CHUNK = 500


@dataclass(frozen=True, kw_only=True)
class CaseSummary:
    """A parcel's evaluation as of any date (`law` False: no law on file, nothing judged)."""

    law: bool
    distance_ft: float | None
    zone: Zone | None = None
    outcome: Outcome | None = None
    inspected: bool = True
    greatest_extent: bool = False
    findings: tuple[DatedFinding, ...] = ()
    sentence: str | None = None  # with no law on file: what is said instead
    # With no lake distance (no site geometry measured, no field distance) but a lot on the
    # active lot layer: the lot's nearest distance to the active shoreline layer's lake
    # line, a first estimate for the work lists, never the system's distance; its accuracy
    # is the lot layer's and the shoreline layer's together; `lot_layer` names the lot layer.
    lot_distance_ft: float | None = None
    lot_accuracy_ft: float | None = None
    lot_layer: str | None = None
    # What the lake distance was judged with (`evaluate`'s `lake`): the layer, its declared
    # accuracy, the capture accuracy of what was measured and what that is.
    layer: str | None = None
    layer_accuracy_ft: float | None = None
    capture_accuracy_ft: float | None = None
    measured_from: str | None = None

    def violations(self, as_of: date) -> tuple[Finding, ...]:
        return standing_findings(self.findings, as_of)

    def letters(self, as_of: date) -> tuple[LetterKind, ...]:
        assert self.outcome is not None and self.zone is not None
        return letters_for(self.outcome, self.violations(as_of), self.zone,
                           self.greatest_extent)

    @property
    def standing(self) -> str:
        """As `Evaluation.standing`."""
        assert self.outcome is not None
        if not self.inspected and self.outcome in (Outcome.ACCEPTABLE, Outcome.INCOMPLETE):
            return NOT_INSPECTED
        return self.outcome.value


def summary_of(assessed: Evaluation | NoLawFacts, *, greatest_extent: bool) -> CaseSummary:
    """The summary of an evaluation (its `dated_violations` make it hold for any date)."""
    if isinstance(assessed, NoLawFacts):
        return CaseSummary(law=False, distance_ft=assessed.lake_distance_ft,
                           sentence=assessed.sentence)
    e = assessed
    return CaseSummary(law=True, distance_ft=e.lake.distance_ft,
                       zone=e.lake.zone, outcome=e.outcome, inspected=e.inspected,
                       greatest_extent=greatest_extent, findings=e.dated_violations,
                       layer=e.lake.layer, layer_accuracy_ft=e.lake.layer_accuracy_ft,
                       capture_accuracy_ft=e.lake.capture_accuracy_ft,
                       measured_from=e.lake.component.value)


# --- stored form -----------------------------------------------------------------------

def _text(day: date | None) -> str | None:
    return None if day is None else day.isoformat()


def to_json(s: CaseSummary) -> str:
    return json.dumps({
        "format": SUMMARY_FORMAT, "law": s.law,
        "distance_ft": s.distance_ft, "zone": None if s.zone is None else s.zone.value,
        "outcome": None if s.outcome is None else s.outcome.value, "inspected": s.inspected,
        "greatest_extent": s.greatest_extent, "sentence": s.sentence,
        "lot": None if s.lot_distance_ft is None else [s.lot_distance_ft, s.lot_accuracy_ft,
                                                       s.lot_layer],
        "lake": [s.layer, s.layer_accuracy_ft, s.capture_accuracy_ft, s.measured_from],
        "findings": [[d.finding.code, d.finding.citation, d.finding.detail,
                      _text(d.finding.since), _text(d.after), _text(d.finding.cured),
                      d.finding.calls_for_notice] for d in s.findings]},
        separators=(",", ":"), allow_nan=False)


def from_json(text: str) -> CaseSummary | None:
    """The stored summary, or None for one of another format (worked out again)."""
    d = json.loads(text)
    if d.get("format") != SUMMARY_FORMAT:
        return None
    return CaseSummary(
        law=d["law"], distance_ft=d["distance_ft"],
        zone=None if d["zone"] is None else Zone(d["zone"]),
        outcome=None if d["outcome"] is None else Outcome(d["outcome"]),
        inspected=d["inspected"], greatest_extent=d["greatest_extent"],
        sentence=d["sentence"],
        lot_distance_ft=None if d["lot"] is None else d["lot"][0],
        lot_accuracy_ft=None if d["lot"] is None else d["lot"][1],
        lot_layer=None if d["lot"] is None else d["lot"][2],
        layer=d["lake"][0], layer_accuracy_ft=d["lake"][1], capture_accuracy_ft=d["lake"][2],
        measured_from=d["lake"][3],
        findings=tuple(DatedFinding(finding=Finding(code=code, citation=cite, detail=detail,
                                                    since=stored_date(since),
                                                    cured=stored_date(cured),
                                                    calls_for_notice=calls),
                                    after=stored_date(after))
                       for code, cite, detail, since, after, cured, calls in d["findings"]))


# --- what a summary was worked out under ------------------------------------------------

@cache
def rules_code() -> tuple[Path, ...]:
    """The source files a summary is worked out by: this module and every module of the
    program it reaches through its imports (the evaluation, the laws, the layers, the
    geometry, the reading of cases), read from the source, imports inside functions
    included."""
    from ... import import_graph

    found = import_graph.reached([__name__])
    return tuple(path for name, path in import_graph.modules().items() if name in found)


@cache
def rules_key() -> str:
    """The code of `rules_code` and the versions of the libraries the distances and dates
    come from: any change to them works summaries out again."""
    from importlib.metadata import PackageNotFoundError, version

    from ... import __version__

    digest = hashlib.sha256(f"{SUMMARY_FORMAT}|{__version__}|{sys.version}".encode())
    for lib in ("shapely", "pyproj", "numpy", "python-dateutil"):
        try:
            digest.update(f"|{lib}={version(lib)}".encode())
        except PackageNotFoundError:
            digest.update(f"|{lib}=?".encode())
    if getattr(sys, "frozen", False):
        # a packaged app holds no source: its code is in the executable, which changes
        # with every build
        digest.update(Path(sys.executable).read_bytes())
        return digest.hexdigest()[:32]
    package = Path(__file__).resolve().parents[2]
    for path in rules_code():
        digest.update(str(path.relative_to(package)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:32]


def _canonical(value: object) -> object:
    """A value as plain data in one order whatever the process (sets are sorted: their
    iteration order changes from one process to the next)."""
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: _canonical(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, Mapping):
        return sorted((repr(k), _canonical(v)) for k, v in value.items())
    if isinstance(value, set | frozenset):
        return sorted(repr(_canonical(v)) for v in value)
    if isinstance(value, list | tuple):
        return [_canonical(v) for v in value]
    return repr(value)


def law_key(law: Jurisdiction | None) -> str:
    """The content of a jurisdiction file as parsed (every number, section and name)."""
    if law is None:
        return "none"
    return hashlib.sha256(json.dumps(_canonical(law)).encode()).hexdigest()[:32]


def _layer_key(ws: Session) -> str:
    """The active shoreline layer and the active lot layer (each its id and version)."""
    return "|".join("none" if found is None else f"{found[0]}:{found[1]}"
                    for found in layers.active_record_versions(ws.store.conn))


def with_lot_estimate(summary: CaseSummary, distance_ft: float, accuracy_ft: float,
                      layer: str) -> CaseSummary:
    """The summary of a parcel with no lake distance, with its lot's estimate."""
    assert summary.distance_ft is None
    return replace(summary, lot_distance_ft=distance_ft, lot_accuracy_ft=accuracy_ft,
                   lot_layer=layer)


def lot_estimate_alone(ws: Session, parcel_id: str) -> tuple[float, float, str] | None:
    """The lot's distance to the lake line, its accuracy and the lot layer's name, for one
    parcel read on its own (the reference the kept summaries are compared with)."""
    from ..reference.lot_lines import active_lot_layer
    from ..reference.shorelines import active_layer

    lots, layer = active_lot_layer(ws), active_layer(ws)
    lot = None if lots is None or layer is None else lots.lot_for(parcel_id)
    if lot is None or lots is None or layer is None:
        return None
    m = layer.lake.measure(lot.geometry)
    return (round(m.distance_ft, 2), combined_accuracy(lots.accuracy_ft, layer.accuracy_ft),
            f"{lots.name} v{lots.version}")


# --- reading and working out ------------------------------------------------------------

def summaries(ws: Session, municipalities: dict[str, str],
              progress: Callable[[int, int], None] | None = None,
              cancelled: Callable[[], bool] = lambda: False) -> dict[str, CaseSummary]:
    """The summary of each parcel named (parcel id -> its municipality as stored), from
    `case_summaries` where one is on file under the rules, law and layer in force, else
    worked out (a chunk of parcels at a time, read, evaluated and stored in one write
    transaction so that no write of another program falls between) and kept.

    `progress(done, total)` is told after each chunk worked out; when `cancelled()` turns
    true, the parcels not yet worked out are left out of the answer."""
    conn = ws.store.conn
    rules = rules_key()
    laws: dict[str, str] = {}

    def law_of(town: str) -> str:
        if town not in laws:
            laws[town] = law_key(ws.laws.for_municipality(town))
        return laws[town]

    layer = _layer_key(ws)
    whole = len(municipalities) > 2000
    stored = kept_summaries.kept(conn, None if whole else list(municipalities))
    out: dict[str, CaseSummary] = {}
    todo: list[str] = []
    for parcel_id, town in municipalities.items():
        found = stored.get(parcel_id)
        if found is not None and found[0] == rules and found[2] == layer and (
                found[1] == law_of(town)):
            summary = from_json(found[3])
            if summary is not None:
                out[parcel_id] = summary
                continue
        todo.append(parcel_id)
    for start in range(0, len(todo), CHUNK):
        if cancelled():
            break
        out.update(_work_out(ws, todo[start:start + CHUNK], rules, law_of))
        if progress is not None:
            progress(min(start + CHUNK, len(todo)), len(todo))
    return out


def prepare(ws: Session) -> None:
    """Do ahead, once, what the first summaries worked out would do first: the rules'
    digest, the geometry code, the active shoreline and lot layers and the index of every
    parcel's wells (the desktop app does it while it opens the folder, before a parcel can
    be opened, so that the first opens never wait behind it)."""
    from ...geo import case_shapes  # noqa: F401  (imported ahead)
    from ..parcel.separations import well_index
    from ..reference.lot_lines import active_lot_layer
    from ..reference.shorelines import active_layer

    rules_key()
    active_layer(ws)
    active_lot_layer(ws)
    well_index(ws)


# How long working out waits for another program's write before it works out without
# keeping (a read needs no lock; keeping a summary does).
KEEP_WAIT_S = 0.5


def _work_out(ws: Session, parcel_ids: list[str], rules: str,
              law_of: Callable[[str], str]) -> dict[str, CaseSummary]:
    from ...geo.case_shapes import measure_cases, project_cases
    from ..parcel.separations import well_index
    from ..reference.lot_lines import active_lot_layer
    from ..reference.shorelines import active_layer

    # Read, evaluated and kept under the write lock, so that no other program's write falls
    # between the read and the keep; while another program writes, worked out unkept.
    with ws.store.writing_if_free(KEEP_WAIT_S) as keep:
        conn = ws.store.conn
        cases = load_cases(conn, parcel_ids=parcel_ids)
        ids = [i for i in parcel_ids if i in cases]
        projected = project_cases(cases[i] for i in ids)
        layer = active_layer(ws)
        lots = active_lot_layer(ws)
        wells = well_index(ws)
        layer_key = _layer_key(ws)
        if layer is not None:
            measure_cases(projected, layer.lake)
        worked: dict[str, CaseSummary] = {}
        for parcel_id, shapes in zip(ids, projected, strict=True):
            case = cases[parcel_id]
            worked[parcel_id] = summary_of(
                assess_case(ws, case, layer=layer, shapes=shapes, parcel_id=parcel_id,
                               lots=lots, wells=wells),
                greatest_extent=bool(case.ahj and case.ahj.greatest_extent_possible))
        # the lots of the parcels with no lake distance, measured together
        estimated = [] if lots is None or layer is None else [
            (i, lot) for i in ids if worked[i].distance_ft is None
            and (lot := lots.lot_for(i)) is not None]
        if estimated:
            assert lots is not None and layer is not None
            accuracy = combined_accuracy(lots.accuracy_ft, layer.accuracy_ft)
            for (i, _), m in zip(estimated, layer.lake.measure_many(
                    [lot.geometry for _, lot in estimated]), strict=True):
                worked[i] = with_lot_estimate(worked[i], round(m.distance_ft, 2), accuracy,
                                              f"{lots.name} v{lots.version}")
        out: dict[str, CaseSummary] = {}
        rows = []
        for parcel_id in ids:
            case = cases[parcel_id]
            summary = out[parcel_id] = worked[parcel_id]
            rows.append((parcel_id, rules, law_of(case.parcel.municipality), layer_key,
                         to_json(summary)))
        if keep:
            kept_summaries.keep(conn, rows)
    return out
