"""Component details, declared once.

The case file schema, the database columns and the inspection form all read this list,
so a detail is added in one place (plus a schema migration for its column).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from .vocabulary import ComponentKind as K


class FieldType(StrEnum):
    TEXT = "text"
    INTEGER = "integer"
    NUMBER = "number"
    BOOLEAN = "boolean"
    DATE = "date"
    CHOICE = "choice"


@dataclass(frozen=True, kw_only=True)
class DetailField:
    name: str
    label: str
    type: FieldType
    kinds: frozenset[K]
    unit: str | None = None
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[str, ...] = ()


_TANKS = frozenset({K.SEPTIC_TANK, K.PUMP_CHAMBER, K.HOLDING_TANK, K.ENHANCED_TREATMENT_UNIT})
_BAFFLE = ("present", "missing", "damaged", "not_observed")
_ALL = frozenset(K)

COMPONENT_DETAILS: tuple[DetailField, ...] = (
    DetailField(name="material", label="Material", type=FieldType.TEXT, kinds=_ALL),
    DetailField(name="capacity_gal", label="Capacity", type=FieldType.NUMBER, unit="gal",
                minimum=0, maximum=100_000, kinds=_TANKS),
    DetailField(name="compartments", label="Compartments", type=FieldType.INTEGER,
                minimum=1, maximum=4, kinds=_TANKS),
    DetailField(name="sludge_depth_in", label="Sludge depth", type=FieldType.NUMBER, unit="in",
                minimum=0, maximum=200, kinds=_TANKS),
    DetailField(name="scum_depth_in", label="Scum depth", type=FieldType.NUMBER, unit="in",
                minimum=0, maximum=200, kinds=_TANKS),
    DetailField(name="liquid_level", label="Liquid level vs outlet invert", type=FieldType.CHOICE,
                choices=("normal", "above_outlet", "below_outlet"), kinds=_TANKS),
    DetailField(name="inlet_baffle", label="Inlet baffle/tee", type=FieldType.CHOICE,
                choices=_BAFFLE, kinds=frozenset({K.SEPTIC_TANK})),
    DetailField(name="outlet_baffle", label="Outlet baffle/tee", type=FieldType.CHOICE,
                choices=_BAFFLE, kinds=frozenset({K.SEPTIC_TANK})),
    DetailField(name="effluent_filter", label="Effluent filter present", type=FieldType.BOOLEAN,
                kinds=frozenset({K.SEPTIC_TANK})),
    DetailField(name="cracks_or_leaks", label="Cracks or leaks", type=FieldType.BOOLEAN,
                kinds=_TANKS | {K.DISTRIBUTION_BOX}),
    DetailField(name="risers_and_lids", label="Risers and lids", type=FieldType.CHOICE,
                choices=("secure", "missing", "damaged", "buried"),
                kinds=_TANKS | {K.DISTRIBUTION_BOX}),
    DetailField(name="last_pumped", label="Last pumped", type=FieldType.DATE,
                kinds=_TANKS),
    DetailField(name="pumped_by", label="Pumped by", type=FieldType.TEXT, kinds=_TANKS),
    DetailField(name="box_level", label="Box level", type=FieldType.BOOLEAN,
                kinds=frozenset({K.DISTRIBUTION_BOX})),
    DetailField(name="solids_present", label="Solids present", type=FieldType.BOOLEAN,
                kinds=frozenset({K.DISTRIBUTION_BOX})),
    DetailField(name="standing_effluent", label="Standing effluent", type=FieldType.BOOLEAN,
                kinds=frozenset({K.DISTRIBUTION_BOX})),
    DetailField(name="absorption_type", label="Type", type=FieldType.CHOICE,
                choices=("trench", "bed", "shallow_trench", "raised", "mound", "sand_filter",
                         "other"),
                kinds=frozenset({K.ABSORPTION_AREA})),
    DetailField(name="area_sqft", label="Area", type=FieldType.NUMBER, unit="sq ft",
                minimum=0, maximum=100_000, kinds=frozenset({K.ABSORPTION_AREA, K.SEEPAGE_PIT})),
    DetailField(name="laterals", label="Laterals", type=FieldType.INTEGER, minimum=0,
                maximum=50, kinds=frozenset({K.ABSORPTION_AREA})),
    DetailField(name="ponding_in_ports", label="Ponding in ports", type=FieldType.BOOLEAN,
                kinds=frozenset({K.ABSORPTION_AREA, K.SEEPAGE_PIT})),
    DetailField(name="breakout", label="Surface breakout", type=FieldType.BOOLEAN,
                kinds=frozenset({K.ABSORPTION_AREA, K.SEEPAGE_PIT})),
    DetailField(name="wet_or_lush", label="Wet or lush areas", type=FieldType.BOOLEAN,
                kinds=frozenset({K.ABSORPTION_AREA, K.SEEPAGE_PIT})),
    DetailField(name="odor", label="Odour", type=FieldType.BOOLEAN, kinds=_ALL),
    DetailField(name="make_model", label="Make and model", type=FieldType.TEXT,
                kinds=frozenset({K.ENHANCED_TREATMENT_UNIT, K.PUMP_CHAMBER})),
    DetailField(name="alarm_tested", label="Alarm tested and working", type=FieldType.BOOLEAN,
                kinds=frozenset({K.ENHANCED_TREATMENT_UNIT, K.PUMP_CHAMBER, K.HOLDING_TANK})),
    DetailField(name="blower_running", label="Blower running", type=FieldType.BOOLEAN,
                kinds=frozenset({K.ENHANCED_TREATMENT_UNIT})),
    DetailField(name="floats_working", label="Floats working", type=FieldType.BOOLEAN,
                kinds=frozenset({K.PUMP_CHAMBER})),
    DetailField(name="location_note", label="Location", type=FieldType.TEXT, kinds=_ALL),
    # Tank measurements (the usual pumper's measures, NH Env-Wq 1023.01 and EPA's): taken
    # with a sludge judge at the outlet end. The solids share is worked out from them
    # (`rules.tank_solids`); `liquid_level` above stays what it is, a level against the
    # outlet, and is no depth.
    DetailField(name="liquid_depth_in", label="Liquid depth, bottom to surface",
                type=FieldType.NUMBER, unit="in", minimum=0, maximum=200, kinds=_TANKS),
    DetailField(name="scum_clearance_in",
                label="Scum clearance to outlet tee",
                type=FieldType.NUMBER, unit="in", minimum=0, maximum=200,
                kinds=frozenset({K.SEPTIC_TANK})),
    DetailField(name="sludge_clearance_in",
                label="Sludge clearance to outlet tee",
                type=FieldType.NUMBER, unit="in", minimum=0, maximum=200,
                kinds=frozenset({K.SEPTIC_TANK})),
    DetailField(name="effluent_filter_cleaned", label="Effluent filter cleaned",
                type=FieldType.BOOLEAN, kinds=frozenset({K.SEPTIC_TANK})),
    # which row of 10 NYCRR Appendix 75-A, Table 2 the component's separations follow
    DetailField(name="cast_iron", label="Cast iron pipe", type=FieldType.BOOLEAN,
                kinds=frozenset({K.HOUSE_SEWER})),
    DetailField(name="watertight", label="Watertight (lined or vault)", type=FieldType.BOOLEAN,
                kinds=frozenset({K.SAND_FILTER, K.PRIVY})),
)

COMPONENT_DETAIL_NAMES: tuple[str, ...] = tuple(f.name for f in COMPONENT_DETAILS)


def details_for(kind: K) -> tuple[DetailField, ...]:
    return tuple(f for f in COMPONENT_DETAILS if kind in f.kinds)


# The variants of a kind's row in the separation table (10 NYCRR Appendix 75-A, Table 2)
# and the detail values that choose each: a cast-iron house sewer, a watertight sand filter
# or privy vault, a raised or mound absorption system.
SETBACK_VARIANTS: dict[K, dict[str, tuple[str, tuple[object, ...]]]] = {
    K.HOUSE_SEWER: {"cast_iron": ("cast_iron", (True,))},
    K.SAND_FILTER: {"watertight": ("watertight", (True,))},
    K.PRIVY: {"watertight": ("watertight", (True,))},
    K.ABSORPTION_AREA: {"raised_or_mound": ("absorption_type", ("raised", "mound"))},
}


def setback_variant(kind: K, details: Mapping[str, object]) -> str | None:
    """The variant of its kind's separation row a component's details choose, if any."""
    for variant, (name, values) in SETBACK_VARIANTS.get(kind, {}).items():
        if details.get(name) in values:
            return variant
    return None
