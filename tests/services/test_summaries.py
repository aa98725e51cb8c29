"""The kept evaluation summaries are never stale: every change of a case, of the law in
force, of the shoreline layer, of the rules or of the date gives the lists of a parcel
evaluated afresh."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, timedelta
from pathlib import Path

import pytest
import shapely.affinity

from inspector_app.domain.vocabulary import Condition
from inspector_app.paths import resource
from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.lists import summaries as module
from inspector_app.services.lists.overview import overview, overview_one_by_one
from inspector_app.services.lists.worklists import worklists, worklists_one_by_one
from inspector_app.services.reference.shorelines import BUNDLED_FILE, import_layer
from inspector_app.services.session.laws import DEFAULT_JURISDICTION, use_jurisdiction
from inspector_app.services.workspace import Workspace
from inspector_app.storage.cases import _CASE_TABLES

TODAY = date(2026, 11, 25)
DATES = (date(2019, 3, 1), TODAY, TODAY + timedelta(days=400), TODAY + timedelta(days=2200))

# Tables with a parcel's rows that a case is not read from (the work lists read the letters,
# requests and conflicts themselves, each time; lot lines never change, and a summary names the
# lot layer it was worked out under).
NOT_READ_BY_A_CASE = {"letters", "letter_service", "finding_decisions", "attachments",
                      "sync_conflicts", "attestations",
                      "device_assignments", "contact_clearings", "cleared_copies",
                      "change_log", "case_summaries", "lot_lines", "lot_measurements",
                      # changes kept aside for a person are not applied to any case
                      "held_changes", "parcel_proposals",
                      # the requests work list reads the requests and inspections itself
                      "inspection_requests"}


@pytest.fixture
def demo(workspace: Workspace) -> Workspace:
    install_demo(workspace, count=40, today=TODAY)
    return workspace


def _kept(ws: Workspace) -> dict[str, str]:
    return dict(ws.store.conn.execute("SELECT parcel_id, summary FROM case_summaries"))


def _same_as_afresh(ws: Workspace, as_of: date = TODAY) -> dict[str, list[dict[str, object]]]:
    fast = worklists(ws, as_of=as_of)
    assert fast == worklists_one_by_one(ws, as_of=as_of)
    assert overview(ws, as_of=as_of) == overview_one_by_one(ws, as_of=as_of)
    return fast


def test_every_table_a_case_is_read_from_makes_its_summary_stale(demo: Workspace) -> None:
    conn = demo.store.conn
    read = {"parcels", "inspection_tests", *_CASE_TABLES}
    with_parcels = {t for (t,) in conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%'")
        if t == "parcels" or "parcel_id" in {c[1] for c in conn.execute(
            f"PRAGMA table_info({t})")}}
    assert read <= with_parcels
    assert with_parcels - read - NOT_READ_BY_A_CASE == set(), "a new table: is it read?"
    triggers = {name for (name,) in conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'trigger'")}
    for table in read:
        for op in ("insert", "update", "delete"):
            assert f"case_summaries_stale_{table}_{op}" in triggers, (table, op)


def test_summaries_are_kept_and_read_back_unchanged(demo: Workspace,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    first = _same_as_afresh(demo)
    kept = _kept(demo)
    assert len(kept) == 40
    worked: list[int] = []
    original = module._work_out
    monkeypatch.setattr(module, "_work_out",
                        lambda ws, ids, *a: worked.append(len(ids)) or original(ws, ids, *a))
    assert worklists(demo, as_of=TODAY) == first
    assert worked == [] and _kept(demo) == kept


def test_a_kept_summary_holds_for_every_date(demo: Workspace) -> None:
    worklists(demo, as_of=DATES[0])  # kept as of one date, read as of the others
    lists = [_same_as_afresh(demo, day) for day in DATES]
    assert lists[0] != lists[-1]
    etu = [sum(len(i["violations"]) for i in x["etu-reports"]) for x in lists]
    assert etu[0] < etu[1]  # ETU inspections and reports falling due with the date


def test_an_edit_deletes_the_parcels_summary_in_its_own_transaction(demo: Workspace) -> None:
    before = _same_as_afresh(demo)
    sbl = next(i["sbl"] for i in before["five-year-inspections"])
    assert [r["outcome"] for r in overview(demo, as_of=TODAY, sbls=[sbl])] != ["failure"]
    parcel_id = demo.parcel_id(sbl)
    case = demo.load_case(sbl)
    failed = replace(case, components=tuple(replace(c, condition=Condition.FAILED)
                                            for c in case.components))
    demo.save_case(failed, today=TODAY)
    assert parcel_id not in _kept(demo) and len(_kept(demo)) == 39
    _same_as_afresh(demo)
    assert [r["outcome"] for r in overview(demo, as_of=TODAY, sbls=[sbl])] == ["failure"]


def test_a_write_that_bypasses_the_services_still_makes_the_summary_stale(
        demo: Workspace) -> None:
    _same_as_afresh(demo)
    conn = demo.store.conn
    parcel_id, = conn.execute("SELECT parcel_id FROM components WHERE deleted_at IS NULL "
                              "AND condition != 'failed' LIMIT 1").fetchone()
    with demo.store.writing():
        conn.execute("UPDATE components SET condition = 'failed' WHERE parcel_id = ?",
                     (parcel_id,))
    assert parcel_id not in _kept(demo)
    _same_as_afresh(demo)
    with demo.store.writing():
        conn.execute("UPDATE parcels SET municipality = 'Town of Gorham' WHERE id = ?",
                     (parcel_id,))
    assert parcel_id not in _kept(demo)
    assert len(_same_as_afresh(demo)["no-law-on-file"]) >= 1


def test_a_new_law_in_force_is_worked_out_again(demo: Workspace, tmp_path: Path) -> None:
    before = _same_as_afresh(demo)
    text = resource(*DEFAULT_JURISDICTION).read_text("utf-8")
    shorter = text.replace("years = 5          #", "years = 3          #", 1).replace(
        "report_within_days = 10", "report_within_days = 30", 1)
    assert "years = 3" in shorter and "report_within_days = 30" in shorter
    (tmp_path / "law.toml").write_text(shorter, "utf-8")
    use_jurisdiction(demo, tmp_path / "law.toml")
    with Workspace(demo.folder.root, user="clerk") as again:
        after = _same_as_afresh(again, TODAY + timedelta(days=400))
        assert after != worklists_one_by_one(demo, as_of=TODAY + timedelta(days=400))
        assert after["five-year-inspections"] != before["five-year-inspections"]
        assert after["etu-reports"] != before["etu-reports"]  # held in the summaries


def test_a_new_shoreline_layer_is_worked_out_again(demo: Workspace) -> None:
    _same_as_afresh(demo)
    kept = _kept(demo)
    import_layer(demo, resource(*BUNDLED_FILE), name="Second", accuracy_ft=400)
    _same_as_afresh(demo)
    assert _kept(demo) != kept  # the zones under the coarser layer


def test_a_new_lot_layer_is_worked_out_again(demo: Workspace, tmp_path: Path) -> None:
    from inspector_app.services.reference.lot_lines import active_lot_layer, import_lot_lines
    from tests.services.lot_files import write_lots

    # a parcel with no lake distance, so that its lot's distance is given as an estimate
    sbl = next(p["sbl"] for p in demo.parcels() if demo.load_case(p["sbl"]).site)
    demo.save_case(replace(demo.load_case(sbl), site=None), today=TODAY)

    def estimate() -> object:
        return {i["sbl"]: i["lot_estimate"] for i in
                _same_as_afresh(demo)["lake-distance-needed"]}[sbl]

    before = estimate()
    assert isinstance(before, dict) and before["layer"].startswith("Invented demo lot")
    kept = _kept(demo)
    layer = active_lot_layer(demo)
    assert layer is not None
    lots = {p["sbl"]: lot.geometry for p in demo.parcels()
            if (lot := layer.lot_for(demo.parcel_id(p["sbl"]))) is not None}
    lots[sbl] = shapely.affinity.translate(lots[sbl], 20_000, 20_000)
    import_lot_lines(demo, write_lots(tmp_path / "lots.gpkg", list(lots.values()), list(lots)),
                     name="County lots", accuracy_ft=3)
    after = estimate()
    assert isinstance(after, dict) and after["layer"] == "County lots v1"
    assert after["distance_ft"] != before["distance_ft"]
    assert after["accuracy_ft"] == before["accuracy_ft"] - layer.accuracy_ft + 3
    assert _kept(demo) != kept


def test_other_rules_or_another_format_are_worked_out_again(
        demo: Workspace, monkeypatch: pytest.MonkeyPatch) -> None:
    _same_as_afresh(demo)
    conn = demo.store.conn
    with demo.store.writing():
        conn.execute("UPDATE case_summaries SET summary = replace(summary, ?, "
                     "'\"format\":0')", (f'"format":{module.SUMMARY_FORMAT}',))
    worked: list[int] = []
    original = module._work_out
    monkeypatch.setattr(module, "_work_out",
                        lambda ws, ids, *a: worked.append(len(ids)) or original(ws, ids, *a))
    _same_as_afresh(demo)
    assert sum(worked) == 40
    monkeypatch.setattr(module, "rules_key", lambda: "other rules")
    worked.clear()
    _same_as_afresh(demo)
    assert sum(worked) == 40
    assert {k for (k,) in conn.execute("SELECT rules_key FROM case_summaries")} == {
        "other rules"}


def test_while_another_program_writes_the_lists_are_worked_out_and_not_kept(
        demo: Workspace) -> None:
    """Keeping a summary needs the write lock, so that no write of another program falls
    between reading a case and keeping its summary; without it the lists are still made."""
    other = Workspace(demo.folder.root, user="another desk")
    holding = other.store.writing()
    holding.__enter__()
    try:
        assert worklists(demo, as_of=TODAY) == worklists_one_by_one(demo, as_of=TODAY)
        assert _kept(demo) == {}
    finally:
        holding.__exit__(None, None, None)
        other.close()
    _same_as_afresh(demo)
    assert len(_kept(demo)) == 40


def test_a_packaged_app_keys_its_summaries_on_its_executable(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A packaged (frozen) app holds no source to read: the executable, which every build
    changes, stands for its code."""
    import sys

    from inspector_app.services.lists.summaries import rules_key

    exe = tmp_path / "inspector-app"
    exe.write_bytes(b"build 1")
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "executable", str(exe))
    rules_key.cache_clear()
    try:
        first = rules_key()
        rules_key.cache_clear()
        assert rules_key() == first
        exe.write_bytes(b"build 2")
        rules_key.cache_clear()
        assert rules_key() != first
    finally:
        rules_key.cache_clear()
