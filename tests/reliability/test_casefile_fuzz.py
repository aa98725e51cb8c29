"""Damaged case files: a Case or a clean refusal naming the file, never anything else."""

from __future__ import annotations

import copy
import json
from datetime import date
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from inspector_app.casefile import CaseFileError, parse_document, parse_text

FULL = json.loads((Path(__file__).parents[1] / "fixtures" / "full_case.json").read_text())
TODAY = date(2026, 11, 25)

values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**12, 10**12)
    | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner,
                                                                 max_size=3),
    max_leaves=6)


def _paths(doc: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out += _paths(v, (*prefix, i))
    return out


PATHS = _paths(FULL)[1:]


@settings(max_examples=300, deadline=None)
@given(picks=st.lists(st.tuples(st.sampled_from(PATHS), st.booleans(), values), min_size=1,
                      max_size=4))
def test_mutated_case_files_are_read_or_refused_cleanly(picks: list[Any]) -> None:
    doc = copy.deepcopy(FULL)
    for path, delete, value in picks:
        node: Any = doc
        try:
            for key in path[:-1]:
                node = node[key]
            if delete and isinstance(node, dict):
                node.pop(path[-1], None)
            else:
                node[path[-1]] = value
        except (KeyError, IndexError, TypeError):
            continue  # an earlier mutation removed this place
    try:
        parse_document(doc, source="fuzz.json", today=TODAY)
    except CaseFileError as exc:
        assert str(exc).startswith("fuzz.json: ")


@settings(max_examples=200, deadline=None)
@given(cut=st.integers(0, 4000), junk=st.binary(max_size=20))
def test_truncated_and_garbled_text_is_refused_cleanly(cut: int, junk: bytes) -> None:
    text = json.dumps(FULL)
    garbled = text[:cut] + junk.decode("latin-1") + text[cut:][:cut]
    try:
        parse_text(garbled, source="fuzz.json", today=TODAY)
    except CaseFileError as exc:
        assert str(exc).startswith("fuzz.json: ")
