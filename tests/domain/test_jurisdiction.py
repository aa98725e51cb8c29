from __future__ import annotations

from dataclasses import replace

import pytest

from inspector_app.domain.case import AhjDetermination, FactorFinding
from inspector_app.domain.jurisdiction import JurisdictionError, parse_jurisdiction
from inspector_app.domain.rules import evaluate
from inspector_app.paths import resource
from tests.domain.builders import AS_OF, case, component

BUNDLED = resource("jurisdictions", "town-of-canandaigua-ch202.toml").read_text("utf-8")


def _parse(text: str):
    return parse_jurisdiction(text, source="town.toml")


def test_bundled_file_holds_the_law_s_numbers() -> None:
    j = _parse(BUNDLED)
    assert (j.lake_setback_ft, j.gpd_per_bedroom_within, j.gpd_per_bedroom_beyond,
            j.gpd_per_additional_bedroom, j.minimum_bedrooms,
            j.intermediate_threshold_gpd) == (200, 150, 130, 110, 2, 1000)
    assert [(b.max_sqft, b.bedrooms) for b in j.floor_area_bands] == [
        (1200, 2), (2250, 3), (3300, 4), (4050, 5)]
    assert (j.floor_area_increase_over_fraction, j.work_area_over_fraction) == (0.25, 0.5)
    assert (j.etu_max_interval_months, j.etu_report_within_days,
            j.inspection_cycle_years) == (12, 10, 5)
    assert j.cite("rate_within_200ft") == "§ 202-6 C(2)"
    assert j.cite("system_in_failure") == "§ 202-5 C (unconfirmed)"


def test_another_towns_file_changes_the_results_without_code() -> None:
    south_bristol = (BUNDLED.replace("§ 202-", "§ 120-")
                     .replace("gpd_per_bedroom_within = 150", "gpd_per_bedroom_within = 160")
                     .replace('id = "town-of-canandaigua-ch202"', 'id = "south-bristol-ch120"'))
    j = _parse(south_bristol)
    limited = AhjDetermination(factors_weighed=(FactorFinding(
        factor="(d)", finding="the lot is 60 ft deep between the road and the lake"),))
    e = evaluate(case(lake_ft=120, components=(component("septic_tank", "substandard"),),
                      ahj=limited), j, as_of=AS_OF)
    assert e.design.gpd_per_bedroom == 160
    assert e.design.citations[0] == "§ 120-6 C(2)"
    assert e.substandard_path.citation == "§ 120-7 B"


@pytest.mark.parametrize(("change", "message"), [
    (("setback_ft = 200\n", "setback_ft = 200\nsetbak_ft = 10\n"),
     "[lake] has the unknown key 'setbak_ft'"),
    (("gpd_per_bedroom_within = 150", "gpd_per_bedroom_within = \"150\""),
     "[design] gpd_per_bedroom_within is '150'; it must be a whole number from 1 to 1000"),
    (("gpd_per_bedroom_within = 150      # § 202-6 C(2)\n", ""),
     "[design] gpd_per_bedroom_within is missing"),
    (("max_sqft = 2250", "max_sqft = 1100"), "floor_area_bands must rise"),
    (('rate_within_200ft = "§ 202-6 C(2)"', 'rate_within_200ft = ""'),
     "[citations] rate_within_200ft must be non-empty text"),
    (('"setbacks"]', '"setbacks", "no_such_rule"]'), "'no_such_rule', which is not a citation"),
    (("septic_tank = { row = ", "septic_tonk = { row = "),
     "[setbacks] 'septic_tonk' is not a component kind"),
    (("[[design.floor_area_bands]]\nmax_sqft = 1200", "[[design.floor_area_bands]]\nmax_sqft = 1200\nbedrooms_x = 1"),
     "[design.floor_area_bands #1] has the unknown key 'bedrooms_x'"),
    (("format = ", "format = 1\nold_format = "), "format must be"),
    (("[etu]", "[etu"), "is not valid TOML"),
])
def test_a_broken_file_is_refused_by_table_and_key(change: tuple[str, str], message: str
                                                   ) -> None:
    old, new = change
    assert old in BUNDLED
    with pytest.raises(JurisdictionError) as caught:
        _parse(BUNDLED.replace(old, new, 1))
    assert str(caught.value).startswith("town.toml: ")
    assert message in str(caught.value)
    assert str(caught.value).endswith("fix the jurisdiction file.")


def test_replace_keeps_the_value_object_frozen() -> None:
    j = _parse(BUNDLED)
    with pytest.raises(AttributeError):
        j.lake_setback_ft = 100  # type: ignore[misc]
    assert replace(j, lake_setback_ft=100).lake_setback_ft == 100
