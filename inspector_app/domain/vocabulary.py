"""Closed vocabularies of the case file and the record model."""

from __future__ import annotations

from enum import StrEnum


class ComponentKind(StrEnum):
    SEPTIC_TANK = "septic_tank"
    DISTRIBUTION_BOX = "distribution_box"
    ABSORPTION_AREA = "absorption_area"
    PUMP_CHAMBER = "pump_chamber"
    ENHANCED_TREATMENT_UNIT = "enhanced_treatment_unit"
    HOLDING_TANK = "holding_tank"
    HOUSE_SEWER = "house_sewer"
    SEEPAGE_PIT = "seepage_pit"
    OTHER = "other"
    # 10 NYCRR Appendix 75-A, Table 2 rows of their own: the effluent line from the tank to
    # the distribution box, a sand filter (intermittent, or in a watertight liner), and the
    # pits of older sites: a cesspool (sewage into a pit, no septic tank before it; not an
    # acceptable system for new or replacement work) and a privy (pit or watertight vault).
    EFFLUENT_LINE = "effluent_line"
    SAND_FILTER = "sand_filter"
    CESSPOOL = "cesspool"
    PRIVY = "privy"


class Condition(StrEnum):
    ACCEPTABLE = "acceptable"
    SUBSTANDARD = "substandard"
    FAILED = "failed"
    NOT_LOCATED = "not_located"


class LakeDistanceMethod(StrEnum):
    TAPE = "tape"
    SURVEY = "survey"
    RANGEFINDER = "rangefinder"


class InspectionReason(StrEnum):
    FIVE_YEAR_CYCLE = "five_year_cycle"
    CONVEYANCE = "conveyance"
    CHANGE_OF_USE = "change_of_use"
    EXPANSION = "expansion"
    COMPLAINT = "complaint"
    AHJ_ORDER = "ahj_order"
    ETU_FOLLOW_UP = "etu_follow_up"
    OTHER = "other"


class Occupancy(StrEnum):
    OCCUPIED = "occupied"
    SEASONAL = "seasonal"
    VACANT = "vacant"


class TestKind(StrEnum):
    DYE = "dye"
    HYDRAULIC_LOAD = "hydraulic_load"


class TestResult(StrEnum):
    PASS = "pass"
    FAIL = "fail"
    INCONCLUSIVE = "inconclusive"


class SiteFeatureKind(StrEnum):
    ABSORPTION_AREA = "absorption_area"
    HOLDING_TANK = "holding_tank"
    WELL = "well"
    WATERCOURSE = "watercourse"
    DWELLING = "dwelling"
    PROPERTY_LINE = "property_line"
    WATER_SERVICE_LINE = "water_service_line"
    OTHER = "other"


class CaptureMethod(StrEnum):
    TYPED_LONLAT = "typed_lonlat"
    SURVEY_PLAN = "survey_plan"
    FILE = "file"
    GPS = "gps"
    SKETCH = "sketch"
