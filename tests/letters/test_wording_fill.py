"""Filling a text of the wording substitutes names and interprets nothing else."""

from __future__ import annotations

import pytest

from inspector_app.documents.templates import LetterTemplateError, fill


def test_names_are_filled_escaped() -> None:
    assert fill("Dear {owner_name}:", {"owner_name": "Roe & <Sons>"}) == (
        "Dear Roe &amp; &lt;Sons&gt;:")
    assert fill("{cite[permit_required]}, {setback_ft} ft", {
        "cite": {"permit_required": "§ 202-5 & 6"}, "setback_ft": 100}) == (
        "§ 202-5 &amp; 6, 100 ft")
    assert fill("{{literal}} {sbl}", {"sbl": "1.-1-1"}) == "{literal} 1.-1-1"


def test_a_value_not_given_says_so() -> None:
    assert fill("Dear {owner_name}:", {}) == "Dear [owner_name not recorded]:"
    assert fill("{cite[penalties]}", {"cite": {}}) == "[cite[penalties] not recorded]"


@pytest.mark.parametrize("text", ["{owner_name:W>2000000}", "{owner_name!r}",
                                  "{owner_name:{sbl}}"])
def test_a_format_or_conversion_is_refused_not_interpreted(text: str) -> None:
    with pytest.raises(LetterTemplateError, match="a placeholder is a name only"):
        fill(text, {"owner_name": "Roe", "sbl": "9" * 9})
