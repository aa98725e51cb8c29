"""A septic tank's solids share, worked by hand, and the "pump the tank" suggestion it makes
at the jurisdiction's share (one third by default: the office's practice, unconfirmed)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from inspector_app.domain.jurisdiction import (
    PUMP_SHARE_VALUE,
    JurisdictionError,
    parse_jurisdiction,
)
from inspector_app.domain.rules import Suggestion, evaluate
from inspector_app.domain.tank import TankSolids, depth_problem
from inspector_app.domain.vocabulary import Condition
from inspector_app.paths import resource

from .builders import AS_OF, case, component, jurisdiction

J = jurisdiction()


def _pump(*components_: object, j: object = J) -> list[Suggestion]:
    e = evaluate(case(components=tuple(components_)),  # type: ignore[arg-type]
                 j, as_of=AS_OF)  # type: ignore[arg-type]
    return [s for s in e.suggestions if s.key.startswith("pump/")]


def test_the_share_is_worked_with_its_arithmetic() -> None:
    t = TankSolids.of({"sludge_depth_in": 14, "scum_depth_in": 4, "liquid_depth_in": 48})
    # 18 / 48 = 0.375: 38 % (halves round up)
    assert t.share == Fraction(3, 8)
    assert t.percent == 38
    assert t.arithmetic == "sludge 14 in + scum 4 in = 18 in of 48 in liquid depth = 38 %"


def test_decimal_depths_are_added_as_typed() -> None:
    # 10.1 + 5.9 is 16 exactly, which is a third of 48: binary floats would miss it
    t = TankSolids.of({"sludge_depth_in": 10.1, "scum_depth_in": 5.9, "liquid_depth_in": 48})
    assert t.share == Fraction(1, 3)
    assert t.arithmetic == "sludge 10.1 in + scum 5.9 in = 16 in of 48 in liquid depth = 33 %"


def test_exactly_one_third_suggests_pumping() -> None:
    found = _pump(component("septic_tank", capacity_gal=1250, sludge_depth_in=12,
                            scum_depth_in=4, liquid_depth_in=48))
    assert len(found) == 1
    s = found[0]
    assert s.key == "pump/septic_tank#1"
    assert s.defect == ("pump the tank: sludge 12 in + scum 4 in = 16 in of 48 in liquid "
                        "depth = 33 %, at or above one third (33 %)")
    # the office's practice, never a section of Chapter 202; marked while unconfirmed
    assert s.citation == ("office practice, not Chapter 202; usual rule: NH Env-Wq 1023.01 "
                          "(unconfirmed)")
    assert "202-" not in s.citation and "§" not in s.citation
    assert s.section == "office practice, not Chapter 202; usual rule: NH Env-Wq 1023.01"
    # accepting records the finding and leaves the tank's condition as it is
    assert s.condition is Condition.ACCEPTABLE
    assert len(s.record_text) <= 200


def test_just_under_one_third_does_not_suggest() -> None:
    # 15.99 in of 48 in is 33.3 %, just under a third
    assert _pump(component("septic_tank", capacity_gal=1250, sludge_depth_in=11.99,
                           scum_depth_in=4, liquid_depth_in=48)) == []


def test_no_liquid_depth_means_no_share_and_no_suggestion() -> None:
    tank = component("septic_tank", capacity_gal=1250, sludge_depth_in=30, scum_depth_in=10)
    assert _pump(tank) == []
    e = evaluate(case(components=(tank,)), J, as_of=AS_OF)
    [(kind, ordinal, t)] = e.tanks
    assert (kind, ordinal, t.share) == ("septic_tank", 1, None)
    assert t.arithmetic == "no solids share: the liquid depth is not recorded"
    zero = TankSolids.of({"sludge_depth_in": 0, "scum_depth_in": 0, "liquid_depth_in": 0})
    assert zero.share is None and zero.arithmetic == "no solids share: the liquid depth is 0 in"
    only = TankSolids.of({"liquid_depth_in": 48})
    assert only.arithmetic == ("no solids share: the sludge depth and the scum depth are not "
                               "recorded")


def test_a_tank_without_depths_is_not_listed() -> None:
    e = evaluate(case(), J, as_of=AS_OF)
    assert e.tanks == ()


def test_the_second_septic_tank_is_named_by_its_ordinal_and_pump_chambers_are_not_judged(
        ) -> None:
    found = _pump(component("septic_tank", capacity_gal=1250, sludge_depth_in=1,
                            scum_depth_in=1, liquid_depth_in=48),
                  component("pump_chamber", sludge_depth_in=30, scum_depth_in=10,
                            liquid_depth_in=48),
                  component("septic_tank", capacity_gal=1250, sludge_depth_in=20,
                            scum_depth_in=10, liquid_depth_in=48))
    assert [s.key for s in found] == ["pump/septic_tank#2"]


def test_the_share_comes_from_the_jurisdiction() -> None:
    tank = component("septic_tank", capacity_gal=1250, sludge_depth_in=15, scum_depth_in=5,
                     liquid_depth_in=48)  # 20 / 48 = 41.7 %
    assert _pump(tank, j=replace(J, pump_at_solids_share=Fraction(1, 2))) == []
    [s] = _pump(tank, j=replace(J, pump_at_solids_share=Fraction(2, 5)))
    assert s.defect.endswith("at or above 2/5 (40 %)")
    confirmed = replace(J, unconfirmed_values=J.unconfirmed_values - {PUMP_SHARE_VALUE})
    [s] = _pump(tank, j=confirmed)
    assert not s.citation.endswith("(unconfirmed)")


def test_sludge_and_scum_deeper_than_the_liquid_is_named() -> None:
    problem = depth_problem({"sludge_depth_in": 40, "scum_depth_in": 10,
                             "liquid_depth_in": 48})
    assert problem == ("liquid_depth_in",
                       "(48 in) is less than the sludge depth (40 in) and the scum depth "
                       "(10 in) together (50 in); sludge and scum lie within the liquid depth")
    assert depth_problem({"sludge_depth_in": 38, "scum_depth_in": 10,
                          "liquid_depth_in": 48}) is None
    assert depth_problem({"sludge_depth_in": 40, "scum_depth_in": 10}) is None


BUNDLED = resource("jurisdictions", "town-of-canandaigua-ch202.toml").read_text("utf-8")


def test_the_bundled_file_sets_one_third_unconfirmed() -> None:
    assert J.pump_at_solids_share == Fraction(1, 3)
    assert PUMP_SHARE_VALUE in J.unconfirmed_values
    assert "NH Env-Wq 1023.01" in J.pump_basis


def test_a_file_without_the_table_takes_one_third_unconfirmed() -> None:
    start = BUNDLED.index("\n[septic_tank_pumping]\n")
    end = BUNDLED.index("\n[setbacks]\n")
    older = parse_jurisdiction(BUNDLED[:start] + BUNDLED[end:], source="older.toml")
    assert older.pump_at_solids_share == Fraction(1, 3)
    assert PUMP_SHARE_VALUE in older.unconfirmed_values


@pytest.mark.parametrize("value, said", [
    ('"0"', "'0'; it must be a share above 0 and at most 1"),
    ("1.5", "1.5; it must be a share above 0 and at most 1"),
    ('"a third"', "'a third'; it must be a share above 0 and at most 1"),
    ("true", "True; it must be a share above 0 and at most 1"),
])
def test_a_share_out_of_bounds_is_refused_in_words(value: str, said: str) -> None:
    text = BUNDLED.replace('solids_share = "1/3"', f"solids_share = {value}")
    with pytest.raises(JurisdictionError) as caught:
        parse_jurisdiction(text, source="edited.toml")
    assert f"[septic_tank_pumping] solids_share is {said}" in str(caught.value)


def test_a_number_is_read_exactly() -> None:
    text = BUNDLED.replace('solids_share = "1/3"', "solids_share = 0.33")
    assert parse_jurisdiction(text, source="x").pump_at_solids_share == Fraction(33, 100)


def test_a_basis_in_brackets_is_refused() -> None:
    text = BUNDLED.replace('basis = "office practice, not Chapter 202; usual rule: NH Env-Wq '
                           '1023.01"', 'basis = "office practice (NH)"')
    with pytest.raises(JurisdictionError, match="must not hold parentheses"):
        parse_jurisdiction(text, source="x")
