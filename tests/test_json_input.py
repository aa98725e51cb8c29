"""The finite check finds what `find_non_finite` finds."""

from __future__ import annotations

import re
from typing import Any

import pytest

from inspector_app.json_input import check_finite, find_non_finite


@pytest.mark.parametrize("value", [
    1.0, float("nan"), [1, [2.5, {"a": float("inf")}]], {"a": (1, float("-inf"))},
    {"a": [1, 2, {"b": "c"}]}, [], {}, None, "NaN",
])
def test_a_value_passes_the_finite_check_exactly_when_nothing_is_found(value: Any) -> None:
    found = find_non_finite(value)
    if found is None:
        check_finite(value)
    else:
        with pytest.raises(type(found), match=re.escape(str(found))):
            check_finite(value)
