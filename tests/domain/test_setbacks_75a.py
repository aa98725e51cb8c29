"""10 NYCRR Appendix 75-A, Table 2, worked by hand: every row, and notes (a), (e) and (g)
alone and (a) with (g), as the jurisdiction file states them."""

from __future__ import annotations

from dataclasses import replace

import pytest

from inspector_app.domain.fields import setback_variant
from inspector_app.domain.jurisdiction import JurisdictionError, parse_jurisdiction
from inspector_app.domain.rules import (
    Separation,
    evaluate,
    proven_short,
    required_separation_ft,
    separation_requirement,
)
from inspector_app.domain.vocabulary import ComponentKind as K
from inspector_app.paths import resource
from tests.domain.builders import AS_OF, case, component, jurisdiction

J = jurisdiction()


def sep(kind: K, target: str, distance: float = 1.0, accuracy: float = 0.0, **kw: object
        ) -> Separation:
    return Separation(component=kind, ordinal=1, target=target, distance_ft=distance,
                      accuracy_ft=accuracy, **kw)  # type: ignore[arg-type]


# (kind, variant, row as the table names it, well, lake, dwelling, property line)
ROWS = [
    (K.HOUSE_SEWER, None, "house sewer (watertight joints)", 50, 25, 3, 10),
    (K.HOUSE_SEWER, "cast_iron", "house sewer, cast iron", 25, 25, 3, 10),
    (K.SEPTIC_TANK, None, "septic tank or watertight ETU", 50, 50, 10, 10),
    (K.ENHANCED_TREATMENT_UNIT, None, "septic tank or watertight ETU", 50, 50, 10, 10),
    (K.EFFLUENT_LINE, None, "effluent line to distribution box", 50, 50, 10, 10),
    (K.DISTRIBUTION_BOX, None, "distribution box", 100, 100, 20, 10),
    (K.ABSORPTION_AREA, None, "absorption field", 100, 100, 20, 10),
    (K.ABSORPTION_AREA, "raised_or_mound", "raised or mound system", 100, 100, 20, 10),
    (K.SEEPAGE_PIT, None, "seepage pit", 150, 100, 20, 10),
    (K.SAND_FILTER, None, "intermittent sand filter", 100, 100, 20, 10),
    (K.SAND_FILTER, "watertight", "watertight sand filter", 50, 50, 10, 10),
    (K.PRIVY, None, "sanitary privy pit", 100, 50, 20, 10),
    (K.PRIVY, "watertight", "privy, watertight vault", 50, 50, 20, 10),
    (K.CESSPOOL, None, "cesspool", 200, 100, 20, 10),
]


@pytest.mark.parametrize(("kind", "variant", "row", "well", "lake", "dwelling", "line"), ROWS)
def test_each_row_of_table_2(kind: K, variant: str | None, row: str, well: float,
                             lake: float, dwelling: float, line: float) -> None:
    for target, ft in (("well", well), ("lake", lake), ("dwelling", dwelling),
                       ("property_line", line)):
        r = separation_requirement(sep(kind, target, variant=variant), J)
        assert r is not None and r.ft == ft and r.notes == ()
        assert f"{row} to {target.replace('_', ' ')}" in r.basis
        # one foot short is proven short, exactly the distance is not
        assert proven_short(sep(kind, target, ft - 0.1), r.ft)
        assert not proven_short(sep(kind, target, ft), r.ft)


def test_details_choose_the_row() -> None:
    assert setback_variant(K.HOUSE_SEWER, {"cast_iron": True}) == "cast_iron"
    assert setback_variant(K.HOUSE_SEWER, {"cast_iron": False}) is None
    assert setback_variant(K.SAND_FILTER, {"watertight": True}) == "watertight"
    assert setback_variant(K.PRIVY, {}) is None
    assert setback_variant(K.ABSORPTION_AREA, {"absorption_type": "mound"}) == \
        "raised_or_mound"
    assert setback_variant(K.ABSORPTION_AREA, {"absorption_type": "trench"}) is None


def test_note_g_shallow_well_adds_half() -> None:
    r = separation_requirement(sep(K.ABSORPTION_AREA, "well", shallow_well=True), J)
    assert r is not None and r.ft == 150 and r.notes == ("g",)
    assert r.basis == ("150 ft: 100 ft (75-A Table 2, absorption field to well) + 50 % "
                       "(note (g): shallow well)")
    # a septic tank 50 -> 75, a seepage pit 150 -> 225; a deep well or one not known: none
    assert required_separation_ft(sep(K.SEPTIC_TANK, "well", shallow_well=True), J) == 75
    assert required_separation_ft(sep(K.SEEPAGE_PIT, "well", shallow_well=True), J) == 225
    assert required_separation_ft(sep(K.ABSORPTION_AREA, "well", shallow_well=False), J) == 100
    assert required_separation_ft(sep(K.ABSORPTION_AREA, "well"), J) == 100
    # (g) is on the well column only
    assert required_separation_ft(sep(K.ABSORPTION_AREA, "lake", shallow_well=True), J) == 100


def test_note_a_drainage_path_is_200_ft_on_its_rows() -> None:
    r = separation_requirement(sep(K.ABSORPTION_AREA, "well", drainage_path=True), J)
    assert r is not None and r.ft == 200 and r.notes == ("a",)
    assert "note (a)" in r.basis and "in place of 100 ft" in r.basis
    assert required_separation_ft(sep(K.SEEPAGE_PIT, "well", drainage_path=True), J) == 200
    # a row without note (a) keeps its distance
    assert required_separation_ft(sep(K.SEPTIC_TANK, "well", drainage_path=True), J) == 50
    assert required_separation_ft(sep(K.ABSORPTION_AREA, "well", drainage_path=False), J) == 100


def test_notes_a_and_g_together_require_the_larger() -> None:
    # absorption field: (a) 200, (g) 150: 200, not 300
    r = separation_requirement(
        sep(K.ABSORPTION_AREA, "well", shallow_well=True, drainage_path=True), J)
    assert r is not None and r.ft == 200 and r.notes == ("a", "g")
    assert r.basis.startswith("200 ft: the larger of 200 ft (note (a)")
    # seepage pit: (a) 200, (g) 225: 225
    assert required_separation_ft(
        sep(K.SEEPAGE_PIT, "well", shallow_well=True, drainage_path=True), J) == 225


def test_note_e_water_service_line_at_the_edge() -> None:
    r = separation_requirement(sep(K.SEPTIC_TANK, "water_service_line"), J)
    assert r is not None and r.ft == 10 and r.notes == ("e",)
    assert proven_short(sep(K.SEPTIC_TANK, "water_service_line", 9.9), 10)
    assert not proven_short(sep(K.SEPTIC_TANK, "water_service_line", 10.0), 10)
    # 9.9 ft measured to ±0.2 ft may be 10.1: not proven
    assert not proven_short(sep(K.SEPTIC_TANK, "water_service_line", 9.9, 0.2), 10)
    assert proven_short(sep(K.SEPTIC_TANK, "water_service_line", 9.7, 0.2), 10)
    # every row: also the house sewer and a privy
    assert required_separation_ft(sep(K.PRIVY, "water_service_line"), J) == 10


def run(c, **kw):  # type: ignore[no-untyped-def]
    return evaluate(c, J, as_of=AS_OF, **kw)


def test_suggested_findings_cite_the_row_and_the_note() -> None:
    shallow = sep(K.ABSORPTION_AREA, "well", 120.0, 5.0, shallow_well=True)
    (s,) = [x for x in run(case(), separations=[shallow]).suggestions
            if x.key.startswith("setback/")]
    assert s.key == "setback/absorption_area#1/well"
    assert s.defect.endswith("; 150 ft required: 100 ft + 50 % by note (g), shallow well")
    assert "10 NYCRR Appendix 75-A, Table 2, note (g)" in s.citation
    # what the finding records, its section included, fits a defect (200 characters)
    assert len(s.record_text) <= 200
    # the same well not known to be shallow: 120 + 5 > 100, nothing to suggest
    assert not [x for x in run(case(), separations=[replace(shallow, shallow_well=None)])
                .suggestions if x.key.startswith("setback/")]
    # two wells: the nearer one deep, the farther one in the path of drainage decides
    deep = sep(K.ABSORPTION_AREA, "well", 110.0)
    path = sep(K.ABSORPTION_AREA, "well", 150.0, drainage_path=True)
    (s,) = [x for x in run(case(), separations=[deep, path]).suggestions
            if x.key.startswith("setback/")]
    assert s.defect.endswith("; 200 ft required by note (a), in the path of drainage")
    assert "note (a)" in s.citation
    both = sep(K.SEEPAGE_PIT, "well", 150.0, shallow_well=True, drainage_path=True)
    (s,) = [x for x in run(case(), separations=[both]).suggestions
            if x.key.startswith("setback/")]
    assert s.defect.endswith("; 225 ft required: 150 ft + 50 % by note (g), more than note "
                             "(a)'s 200 ft")
    both = sep(K.ABSORPTION_AREA, "well", 150.0, shallow_well=True, drainage_path=True)
    (s,) = [x for x in run(case(), separations=[both]).suggestions
            if x.key.startswith("setback/")]
    assert s.defect.endswith("; 200 ft required by note (a), more than 150 ft by note (g)")
    line = sep(K.SEPTIC_TANK, "water_service_line", 9.9)
    (s,) = [x for x in run(case(), separations=[line]).suggestions
            if x.key.startswith("setback/")]
    assert s.key == "setback/septic_tank#1/water_service_line"
    assert s.defect.endswith("; 10 ft required by note (e), any water service line")
    assert "note (e)" in s.citation
    plain = sep(K.DISTRIBUTION_BOX, "dwelling", 15.0)
    (s,) = [x for x in run(case(), separations=[plain]).suggestions
            if x.key.startswith("setback/")]
    assert s.defect.endswith("; 20 ft required")  # the kind's own row: nothing to add
    sewer = sep(K.HOUSE_SEWER, "well", 24.0, variant="cast_iron")
    (s,) = [x for x in run(case(), separations=[sewer]).suggestions
            if x.key.startswith("setback/")]
    assert s.defect.endswith("; 25 ft required as house sewer, cast iron")


def test_a_cesspool_is_suggested_as_not_acceptable() -> None:
    c = case(components=(component("septic_tank", capacity_gal=1500),
                         component("cesspool")))
    (s,) = [x for x in run(c).suggestions if x.key.startswith("cesspool/")]
    assert s.key == "cesspool/cesspool#1" and s.component is K.CESSPOOL
    assert "not allowed for new or replacement work" in s.defect
    assert "§ 202-6 A" in s.citation


def test_the_file_refuses_an_unknown_variant_or_note() -> None:
    path = resource("jurisdictions", "town-of-canandaigua-ch202.toml")
    text = path.read_text("utf-8")
    bad = text.replace('"house_sewer.cast_iron"', '"house_sewer.copper"')
    with pytest.raises(JurisdictionError, match="'copper' is not a variant of house_sewer"):
        parse_jurisdiction(bad, source="x")
    bad = text.replace('notes = ["a"] }\n"absorption_area', 'notes = ["z"] }\n"absorption_area')
    with pytest.raises(JurisdictionError, match="notes names 'z'"):
        parse_jurisdiction(bad, source="x")
    # every figure not read from a public text is marked unconfirmed
    assert "setback_notes.a_and_g_combined" in J.unconfirmed_values
    assert "setbacks.cesspool" in J.unconfirmed_values


def test_a_well_whose_unknown_conditions_would_decide_is_prompted() -> None:
    # 120 ft from an absorption field: enough for 100 ft, short of 150 ft (g) and 200 ft (a)
    e = run(case(), separations=[sep(K.ABSORPTION_AREA, "well", 120.0, source="site map")])
    (p,) = [x for x in e.prompts if x.startswith("The well")]
    assert p.startswith("The well 120.0 ft from absorption area #1 (site map) is far enough "
                        "for 100 ft, but 150 ft if aquifer water enters it less than 50 ft "
                        "below grade (note (g)) and 200 ft if the system is upgrade and in "
                        "the general path of drainage to it (note (a))")
    assert p.endswith(": record the well's conditions.")
    # recorded deep: only the path of drainage is left to ask
    e = run(case(), separations=[sep(K.ABSORPTION_AREA, "well", 120.0, source="site map",
                                     shallow_well=False)])
    (p,) = [x for x in e.prompts if x.startswith("The well")]
    assert "note (g)" not in p and "200 ft if the system is upgrade" in p
    # a neighbour's well brings its depth only: no path of drainage to ask of it
    e = run(case(), separations=[sep(K.ABSORPTION_AREA, "well", 120.0,
                                     source="well on parcel 1.-1-1")])
    (p,) = [x for x in e.prompts if x.startswith("The well")]
    assert "note (g)" in p and "note (a)" not in p
    assert not [x for x in run(case(), separations=[
        sep(K.ABSORPTION_AREA, "well", 210.0, source="site map")]).prompts
        if x.startswith("The well")]
    # short already: the suggestion says so, no prompt
    assert not [x for x in run(case(), separations=[
        sep(K.ABSORPTION_AREA, "well", 90.0, source="site map")]).prompts
        if x.startswith("The well")]
