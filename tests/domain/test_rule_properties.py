"""Properties the law's arithmetic must have, whatever the inputs."""

from __future__ import annotations

import json
import random
from datetime import date
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from inspector_app.casefile import parse_document
from inspector_app.domain.rules import Zone, design_load, evaluate
from inspector_app.services.parcel.evaluation_json import evaluation_json
from tests.domain.builders import jurisdiction

J = jurisdiction()
FULL = json.loads((Path(__file__).parents[1] / "fixtures" / "full_case.json").read_text())

bedrooms = st.integers(min_value=0, max_value=40)
areas = st.floats(min_value=0, max_value=20_000, allow_nan=False)
zones = st.sampled_from(list(Zone))


@given(b=bedrooms, extra_b=st.integers(0, 10), a=areas, extra_a=st.floats(0, 10_000),
       zone=zones)
def test_more_bedrooms_or_floor_area_never_lowers_the_load(b: int, extra_b: int, a: float,
                                                          extra_a: float, zone: Zone) -> None:
    base = design_load(bedrooms=b, living_area_sqft=a, zone=zone, j=J)
    bigger = design_load(bedrooms=b + extra_b, living_area_sqft=a + extra_a, zone=zone, j=J)
    assert bigger.design_load_gpd >= base.design_load_gpd
    assert bigger.design_bedrooms >= base.design_bedrooms


@given(b=bedrooms, a=areas)
def test_within_the_setback_never_designs_less_than_beyond(b: int, a: float) -> None:
    within = design_load(bedrooms=b, living_area_sqft=a, zone=Zone.WITHIN, j=J)
    beyond = design_load(bedrooms=b, living_area_sqft=a, zone=Zone.BEYOND, j=J)
    assert within.design_load_gpd > beyond.design_load_gpd
    assert within.design_bedrooms == beyond.design_bedrooms >= 2


def _shuffled(value: Any, rng: random.Random) -> Any:
    if isinstance(value, dict):
        keys = list(value)
        rng.shuffle(keys)
        return {k: _shuffled(value[k], rng) for k in keys}
    if isinstance(value, list):
        return [_shuffled(v, rng) for v in value]
    return value


@settings(max_examples=50)
@given(seed=st.integers(0, 2**32 - 1))
def test_the_result_never_depends_on_key_order(seed: int) -> None:
    today = date(2026, 11, 25)
    expected = evaluation_json(evaluate(parse_document(FULL, source="a", today=today), J,
                                        as_of=today), J)
    shuffled = _shuffled(FULL, random.Random(seed))
    got = evaluation_json(evaluate(parse_document(shuffled, source="a", today=today), J,
                                   as_of=today), J)
    assert got == expected
