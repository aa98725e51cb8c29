"""A jurisdiction's version of the model law: every number and citation the rules use.

Read from a TOML file (`resources/jurisdictions/`). Reading is strict: an unknown key, a
missing one or a value of the wrong kind is refused with the file, table and key named,
so a typo in an office's edited file can never quietly change a legal judgement.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from fractions import Fraction
from itertools import pairwise
from typing import Any

from .. import toml_input
from ..errors import InputError
from .business_days import NEW_YORK, HolidayCalendar, known_calendar
from .fields import SETBACK_VARIANTS
from .vocabulary import ComponentKind, TestKind

FORMAT = "watershed-inspector/jurisdiction/2"
# The first format had no `municipalities`: such a file covers the municipality it names.
FORMAT_1 = "watershed-inspector/jurisdiction/1"
EXAMPLE_MARK = "DRAFT - EXAMPLE LAW"

CITATION_KEYS = (
    "permit_required", "inspection_triggers", "system_in_failure", "within_200ft",
    "absorption_area_encroachment", "clear_water_discharge", "design_professional",
    "design_standard_75a", "design_standard_intermediate", "rate_beyond_200ft",
    "rate_within_200ft", "floor_area_bands", "minimum_bedrooms", "additional_bedrooms",
    "ahj_final_determination", "substandard_within_200ft", "greatest_extent_possible",
    "holding_tank_option", "letter_of_acknowledgement", "substandard_beyond_200ft",
    "etu_service", "holding_tank_service", "five_year_inspection",
    "first_inspection_by_watershed_inspector", "septic_tank_capacity", "setbacks",
    "replacement_in_kind", "other_approvals", "notice_of_violation", "penalties",
)
# The dates a notice of violation sets: for each, the provision that empowers the notice to
# set it and the value a default is counted by. A deadline is stated as the law's only where
# both are confirmed (`Jurisdiction.deadline_is_law`), whoever chose the date.
NOTICE_DEADLINES = {"permit_by": ("notice_of_violation", "notice.permit_within_days"),
                    "complete_by": ("notice_of_violation", "notice.complete_within_days")}
SEPARATION_TARGETS = ("well", "lake", "dwelling", "property_line")
# The notes of the separation table the rules apply, by letter (see `SetbackNotes`).
SETBACK_NOTES = ("a", "e", "g")
_ID = re.compile(r"[a-z0-9][a-z0-9-]{0,79}")


class JurisdictionError(InputError):
    pass


@dataclass(frozen=True, kw_only=True)
class Confirmation:
    """Who confirmed a provision against the law's text, from which source, and when."""

    source: str
    by: str
    on: date


@dataclass(frozen=True, kw_only=True)
class SetbackRow:
    """A row of the separation table (10 NYCRR Appendix 75-A, Table 2): the component
    kind it applies to and the variant its details choose (`fields.SETBACK_VARIANTS`;
    None: the kind's own row), the row as the table names it, where it comes from, its
    distances in feet by target, and the letters of the notes on its well distance."""

    kind: ComponentKind
    variant: str | None
    row: str
    source: str
    distances: Mapping[str, float]
    notes: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class SetbackNotes:
    """The notes of the separation table the rules apply. (a): a system upgrade and in the
    general path of drainage to a well is `drainage_path_well_ft` from it, on the rows
    that carry the note; (e): every component is `water_service_line_ft` from any water
    service line; (g): the well distances increase by `shallow_well_increase` (a fraction)
    where aquifer water enters the well less than `shallow_well_depth_ft` below grade.
    Where (a) and (g) both apply, the larger distance is required. `cites` names each
    note's source ("10 NYCRR Appendix 75-A, Table 2, note (g)")."""

    drainage_path_well_ft: float
    water_service_line_ft: float
    shallow_well_increase: float
    shallow_well_depth_ft: float
    cites: Mapping[str, str]


@dataclass(frozen=True)
class FloorAreaBand:
    max_sqft: float
    bedrooms: int


@dataclass(frozen=True, kw_only=True)
class TestPreset:
    """The water a dye or hydraulic-load test introduces: so many gallons per bedroom, at
    most `max_gal` (None: no cap), dosed at `dosing_gpm` gallons a minute."""

    gal_per_bedroom: float
    max_gal: float | None
    dosing_gpm: float


# The days after a recorded pump-out within which a field test proves little, when the
# file names none (unconfirmed).
TEST_AFTER_PUMP_OUT_DAYS = 30
# What a "pump the tank" suggestion rests on when the file does not say: no law of this
# chapter (no parentheses: a recorded defect keeps its section in them).
PUMP_BASIS = "office practice, not Chapter 202; usual rule: NH Env-Wq 1023.01"
PUMP_SHARE_VALUE = "septic_tank_pumping.solids_share"


# How an issued letter marks a section number the jurisdiction file does not confirm.
UNCONFIRMED_NUMBER = "section number unconfirmed"


@dataclass(frozen=True, kw_only=True)
class Jurisdiction:
    id: str
    name: str
    law: str
    water_body: str
    lake_line: str
    authority: str
    citations: Mapping[str, str]
    unconfirmed_citations: frozenset[str]
    unconfirmed_values: frozenset[str]
    lake_setback_ft: float
    gpd_per_bedroom_within: int
    gpd_per_bedroom_beyond: int
    gpd_per_additional_bedroom: int
    base_rate_bedrooms: int
    minimum_bedrooms: int
    intermediate_threshold_gpd: int
    standard_below_threshold: str
    standard_at_threshold: str
    floor_area_bands: tuple[FloorAreaBand, ...]
    floor_area_increase_over_fraction: float
    work_area_over_fraction: float
    etu_max_interval_months: int
    etu_report_within_days: int
    # § 202-8 B sets no time for sending a pump-out record: the days the office allows
    # (0 when the file names none: the record is due the day of the pump-out).
    holding_tank_record_within_days: int
    inspection_cycle_years: int
    inspection_cycle_within_ft: float
    notice_permit_within_days: int
    notice_complete_within_days: int
    due_soon_days: int
    waiver_factors: tuple[str, ...]
    septic_tank_minimum_gal: Mapping[int, int]
    septic_tank_additional_gal_per_bedroom: int
    garbage_grinder_adds_bedroom: bool
    setbacks_ft: Mapping[ComponentKind, Mapping[str, float]]
    source: str = "built in"
    # The municipalities whose parcels this law governs, as the parcel roll spells them.
    municipalities: tuple[str, ...] = ()
    # An example for trying the app out, not a town's adopted law: its letters are drafts.
    example: bool = False
    # The public holidays a date a letter sets moves off (with Saturdays and Sundays); a
    # file without a [business_days] table follows New York's (GCL § 24), unconfirmed.
    holiday_calendar: HolidayCalendar = NEW_YORK
    # The office's follow-up, not the law: a notice whose delivery is not confirmed this
    # many days after it was served (or issued, when no service is recorded) is listed.
    service_unconfirmed_days: int = 14
    # § 202-8 B allows no discharge at any time: a notice asks at once that a discharging
    # holding tank be pumped, and for the pump-out record within this many days of its date
    # (the office's practice; 0 when the file names none: by the notice's date).
    holding_tank_discharge_pump_within_days: int = 0
    # how far ahead the office looks for ETU service contracts about to end (its practice;
    # the law asks only that a contract be held)
    etu_contracts_expiring_within_days: int = 60
    # Dye and hydraulic-load tests ([field_tests]; Chapter 202 sets none): the volume
    # preset of each kind, and the days after a recorded pump-out within which a test is
    # flagged as proving little. A file without the table has no presets.
    test_presets: Mapping[TestKind, TestPreset] = field(default_factory=dict)
    test_after_pump_out_days: int = TEST_AFTER_PUMP_OUT_DAYS
    # The share of a septic tank's liquid depth taken by sludge and scum at which a "pump
    # the tank" finding is suggested, and what that rests on ([septic_tank_pumping]): the
    # office's practice after the usual rule (NH Env-Wq 1023.01, another state's), never
    # Chapter 202. A file without the table: one third, unconfirmed.
    pump_at_solids_share: Fraction = Fraction(1, 3)
    pump_basis: str = PUMP_BASIS
    # The provisions (keys of [citations]) confirmed against the law's text: the source,
    # who confirmed each and when. A provision not here is not confirmed: an issued letter
    # words it as the office's request, without its citation.
    confirmed: Mapping[str, Confirmation] = field(default_factory=dict)
    # The subject of a provision whose section number is inferred (a key of [unconfirmed]
    # citations), never the number: an issued letter prints it beside the number, marked.
    cited_as: Mapping[str, str] = field(default_factory=dict)
    # The separation table's rows by key ("absorption_area", "house_sewer.cast_iron") and
    # its notes; a file written before them has the [setbacks] distances alone.
    setback_rows: Mapping[str, SetbackRow] = field(default_factory=dict)
    setback_notes: SetbackNotes | None = None

    def setback_row(self, kind: ComponentKind, variant: str | None = None
                    ) -> SetbackRow | None:
        """The row a component's separations follow: its variant's, else its kind's."""
        if variant is not None and f"{kind.value}.{variant}" in self.setback_rows:
            return self.setback_rows[f"{kind.value}.{variant}"]
        return self.setback_rows.get(kind.value)

    def cite(self, key: str) -> str:
        """The citation for a rule, marked when its section number or the provision itself
        is not confirmed."""
        text = self.citations[key]
        return f"{text} (unconfirmed)" if not self.settled(key) else text

    def provision_confirmed(self, key: str) -> bool:
        """Whether the provision (what the law says) is confirmed; its section number may
        still be inferred."""
        return key in self.confirmed

    def settled(self, key: str) -> bool:
        """Whether both the provision and its section number are confirmed."""
        return key in self.confirmed and key not in self.unconfirmed_citations

    def letter_cite(self, key: str) -> str:
        """How an issued letter cites a provision: by its section number, and where the
        file does not confirm the number, saying so with the provision's subject as
        [cited_as] gives it, in square brackets (an insertion, never read as the section's
        title): "§ 202-5 C [Chapter 202, systems in failure; section number unconfirmed]"."""
        number = self.citations[key]
        if key not in self.unconfirmed_citations:
            return number
        subject = self.cited_as.get(key)
        return f"{number} [{subject + '; ' if subject else ''}{UNCONFIRMED_NUMBER}]"

    def letter_citation(self, citation: str) -> str:
        """A citation as the rules give it ("§ 202-5 C (unconfirmed)") as an issued letter
        prints it (`letter_cite`); a text that is no citation of the file, unchanged."""
        text = citation.removesuffix(" (unconfirmed)")
        for key in self.unconfirmed_citations:
            if self.citations.get(key) == text:
                return self.letter_cite(key)
        return text

    @property
    def chapter(self) -> str:
        """The law's chapter without its title: "Town Code Chapter 202"."""
        return self.law.split(",")[0].strip()

    def deadline_is_law(self, name: str, *, set_on: date | None = None) -> bool:
        """Whether a notice may state its deadline `name` (`permit_by`, `complete_by`) as
        the law's: the provision that empowers the notice to set it is confirmed (by
        `set_on`, the day the date was first served, where given) and so is the value a
        default is counted by. Otherwise the date is the office's request. Whether the date
        was typed into the case, counted by default or carried from a corrected letter
        does not matter."""
        provision, value = NOTICE_DEADLINES[name]
        confirmation = self.confirmed.get(provision)
        return (confirmation is not None and value not in self.unconfirmed_values
                and (set_on is None or confirmation.on <= set_on))

    @property
    def title(self) -> str:
        """The law with its town, as a letter names it: "Town of Canandaigua Town Code
        Chapter 202, ..."."""
        return f"{self.name} {self.law}"

    def covers(self, municipality: str) -> bool:
        return municipality_key(municipality) in {municipality_key(m)
                                                  for m in self.municipalities}


def municipality_key(name: str) -> str:
    """A municipality's name as matched against a law's list: trimmed, case-folded and
    with runs of spaces made one."""
    return " ".join(name.split()).casefold()


class _Table:
    """One TOML table being read; every key must be used exactly as declared."""

    def __init__(self, source: str, name: str, data: Any) -> None:
        self.source, self.name = source, name
        if not isinstance(data, dict):
            raise self.error(f"[{name}] is missing or is not a table")
        self.data = data
        self.used: set[str] = set()

    def error(self, message: str) -> JurisdictionError:
        return JurisdictionError(f"{self.source}: {message}; fix the jurisdiction file.")

    def _get(self, key: str) -> Any:
        if key not in self.data:
            raise self.error(f"[{self.name}] {key} is missing" if self.name
                             else f"{key} is missing")
        self.used.add(key)
        return self.data[key]

    def text(self, key: str) -> str:
        value = self._get(key)
        if not isinstance(value, str) or not value.strip():
            raise self.error(f"[{self.name}] {key} must be non-empty text")
        return value

    def number(self, key: str, *, lo: float = 0, hi: float = 1e9, integer: bool = False
               ) -> Any:
        value = self._get(key)
        kinds = (int,) if integer else (int, float)
        if isinstance(value, bool) or not isinstance(value, kinds) or not lo <= value <= hi:
            kind = "a whole number" if integer else "a number"
            raise self.error(f"[{self.name}] {key} is {value!r}; it must be {kind} from "
                             f"{lo:g} to {hi:g}")
        return value

    def flag(self, key: str) -> bool:
        value = self._get(key)
        if not isinstance(value, bool):
            raise self.error(f"[{self.name}] {key} must be true or false")
        return value

    def texts(self, key: str) -> tuple[str, ...]:
        value = self._get(key)
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self.error(f"[{self.name}] {key} must be a list of text")
        return tuple(value)

    def table(self, key: str) -> _Table:
        name = f"{self.name}.{key}" if self.name else key
        if key not in self.data:
            raise self.error(f"the table [{name}] is missing")
        return _Table(self.source, name, self._get(key))

    def done(self) -> None:
        extra = sorted(set(self.data) - self.used)
        if extra:
            where = f"[{self.name}]" if self.name else "the top level"
            raise self.error(f"{where} has the unknown key {extra[0]!r}")


def parse_jurisdiction(text: str, *, source: str) -> Jurisdiction:
    try:
        raw = toml_input.loads(text)
    except toml_input.TomlProblem as exc:
        raise JurisdictionError(f"{source}: {exc}; fix the jurisdiction file.") from None
    top = _Table(source, "", raw)
    file_format = top._get("format")
    if file_format not in (FORMAT, FORMAT_1):
        raise top.error(f"format must be {FORMAT!r}")

    info = top.table("jurisdiction")
    ident: dict[str, Any] = {k: info.text(k) for k in (
        "id", "name", "law", "water_body", "lake_line", "authority")}
    if not _ID.fullmatch(ident["id"]):
        raise info.error(f"[jurisdiction] id is {ident['id']!r}; it must be lower-case "
                         "letters, digits and hyphens (it names the file in a data folder)")
    if file_format == FORMAT or "municipalities" in info.data:
        names = info.texts("municipalities")
        if not names or not all(n.strip() for n in names):
            raise info.error("[jurisdiction] municipalities must list the municipalities "
                             "this law covers, each a non-empty name")
        ident["municipalities"] = tuple(" ".join(n.split()) for n in names)
    else:
        ident["municipalities"] = (ident["name"],)
    ident["example"] = info.flag("example") if "example" in info.data else False
    info.done()

    cites = top.table("citations")
    citations = {k: cites.text(k) for k in CITATION_KEYS}
    cites.done()

    unconfirmed = top.table("unconfirmed")
    unconfirmed_citations = frozenset(unconfirmed.texts("citations"))
    unconfirmed_values = frozenset(unconfirmed.texts("values"))
    # A file without [confirmed] (written before provisions were confirmed) confirms none.
    has_provisions = "provisions" in unconfirmed.data or "confirmed" in top.data
    unconfirmed_provisions = (frozenset(unconfirmed.texts("provisions")) if has_provisions
                              else frozenset(CITATION_KEYS))
    unconfirmed.done()
    for name, keys in (("citations", unconfirmed_citations),
                       ("provisions", unconfirmed_provisions)):
        unknown = sorted(keys - set(CITATION_KEYS))
        if unknown:
            raise unconfirmed.error(f"[unconfirmed] {name} names {unknown[0]!r}, which is not "
                                    "a citation key")
    confirmed = _confirmations(top, has_provisions)
    cited_as: dict[str, str] = {}
    if "cited_as" in top.data:
        table = top.table("cited_as")
        for key in list(table.data):
            if key not in unconfirmed_citations:
                raise table.error(f"[cited_as] {key!r} is not listed in [unconfirmed] "
                                  "citations: a confirmed section number is cited as it is")
            cited_as[key] = table.text(key)
            if citations[key] in cited_as[key]:
                raise table.error(f"[cited_as] {key} is {cited_as[key]!r}, which prints the "
                                  f"section number {citations[key]!r} it is to leave out: cite "
                                  "the chapter and the provision's subject")
        table.done()
    for key in CITATION_KEYS:
        if has_provisions and (key in confirmed) == (key in unconfirmed_provisions):
            raise unconfirmed.error(
                f"the provision {key!r} must be either confirmed ([confirmed.{key}] with its "
                "source, by and on) or listed in [unconfirmed] provisions, not "
                + ("both" if key in confirmed else "neither"))
    if ident["example"]:
        missing = [k for k in CITATION_KEYS if k not in unconfirmed_citations]
        if missing:
            raise unconfirmed.error(
                f"an example law must list every citation in [unconfirmed] citations; "
                f"{missing[0]!r} is not listed")

    lake = top.table("lake")
    lake_setback_ft = lake.number("setback_ft", lo=1, hi=10_000)
    lake.done()

    design = top.table("design")
    bands_raw = design._get("floor_area_bands")
    if not isinstance(bands_raw, list) or not bands_raw:
        raise design.error("[design] floor_area_bands must be a list of [[design.floor_area_"
                           "bands]] tables")
    bands = []
    for i, entry in enumerate(bands_raw):
        band = _Table(source, f"design.floor_area_bands #{i + 1}", entry)
        bands.append(FloorAreaBand(max_sqft=band.number("max_sqft", lo=1, hi=100_000),
                                   bedrooms=band.number("bedrooms", lo=1, hi=50, integer=True)))
        band.done()
    for a, b in pairwise(bands):
        if not (b.max_sqft > a.max_sqft and b.bedrooms > a.bedrooms):
            raise design.error("[design] floor_area_bands must rise in both max_sqft and "
                               "bedrooms, in order")
    values = {
        "gpd_per_bedroom_within": design.number("gpd_per_bedroom_within", lo=1, hi=1000,
                                                integer=True),
        "gpd_per_bedroom_beyond": design.number("gpd_per_bedroom_beyond", lo=1, hi=1000,
                                                integer=True),
        "gpd_per_additional_bedroom": design.number("gpd_per_additional_bedroom", lo=1,
                                                    hi=1000, integer=True),
        "base_rate_bedrooms": design.number("base_rate_bedrooms", lo=1, hi=50, integer=True),
        "minimum_bedrooms": design.number("minimum_bedrooms", lo=1, hi=50, integer=True),
        "intermediate_threshold_gpd": design.number("intermediate_threshold_gpd", lo=1,
                                                    hi=1_000_000, integer=True),
        "standard_below_threshold": design.text("standard_below_threshold"),
        "standard_at_threshold": design.text("standard_at_threshold"),
    }
    design.done()

    triggers = top.table("triggers")
    values["floor_area_increase_over_fraction"] = triggers.number(
        "floor_area_increase_over_fraction", lo=0, hi=10)
    values["work_area_over_fraction"] = triggers.number("work_area_over_fraction", lo=0, hi=10)
    triggers.done()

    etu = top.table("etu")
    values["etu_max_interval_months"] = etu.number("max_interval_months", lo=1, hi=120,
                                                   integer=True)
    values["etu_report_within_days"] = etu.number("report_within_days", lo=0, hi=365,
                                                  integer=True)
    if "contracts_expiring_within_days" in etu.data:  # files written before it: 60 days
        values["etu_contracts_expiring_within_days"] = etu.number(
            "contracts_expiring_within_days", lo=1, hi=365, integer=True)
    etu.done()

    # Optional: files written before it was introduced have no [holding_tank] table.
    holding = top.table("holding_tank") if "holding_tank" in top.data else _Table(
        source, "holding_tank", {"record_within_days": 0})
    values["holding_tank_record_within_days"] = holding.number(
        "record_within_days", lo=0, hi=365, integer=True)
    if "discharge_pump_within_days" in holding.data:  # files written before it: 0 days
        values["holding_tank_discharge_pump_within_days"] = holding.number(
            "discharge_pump_within_days", lo=0, hi=30, integer=True)
    holding.done()

    if "field_tests" in top.data:
        tests = top.table("field_tests")
        values["test_after_pump_out_days"] = tests.number("after_pump_out_days", lo=0,
                                                          hi=365, integer=True)
        presets: dict[TestKind, TestPreset] = {}
        for key in list(tests.data):
            if key == "after_pump_out_days":
                continue
            try:
                test_kind = TestKind(key)
            except ValueError:
                raise tests.error(f"[field_tests] {key!r} is not a kind of test") from None
            row = tests.table(key)
            presets[test_kind] = TestPreset(
                gal_per_bedroom=row.number("gal_per_bedroom", lo=1, hi=1000),
                max_gal=row.number("max_gal", lo=1, hi=10_000) if "max_gal" in row.data
                else None,
                dosing_gpm=row.number("dosing_gpm", lo=0.1, hi=100))
            row.done()
        values["test_presets"] = presets
        tests.done()
    else:
        unconfirmed_values |= {"field_tests.after_pump_out_days"}

    cycle = top.table("inspection_cycle")
    values["inspection_cycle_years"] = cycle.number("years", lo=1, hi=50, integer=True)
    values["inspection_cycle_within_ft"] = cycle.number("within_ft", lo=1, hi=10_000)
    cycle.done()

    notice = top.table("notice")
    values["notice_permit_within_days"] = notice.number("permit_within_days", lo=1, hi=3650,
                                                        integer=True)
    values["notice_complete_within_days"] = notice.number("complete_within_days", lo=1,
                                                          hi=3650, integer=True)
    notice.done()

    worklists = top.table("worklists")
    values["due_soon_days"] = worklists.number("due_soon_days", lo=0, hi=3650, integer=True)
    if "service_unconfirmed_days" in worklists.data:  # files written before it: 14 days
        values["service_unconfirmed_days"] = worklists.number(
            "service_unconfirmed_days", lo=1, hi=365, integer=True)
    worklists.done()

    within = top.table("substandard_within")
    values["waiver_factors"] = within.texts("waiver_factors")
    within.done()

    tank = top.table("septic_tank")
    pairs = tank._get("minimum_gal_by_bedrooms")
    if (not isinstance(pairs, list) or not pairs or not all(
            isinstance(p, list) and len(p) == 2 and all(isinstance(x, int) for x in p)
            for p in pairs)):
        raise tank.error("[septic_tank] minimum_gal_by_bedrooms must be a list of "
                         "[bedrooms, gallons] pairs")
    minimum_gal = {int(b): int(g) for b, g in pairs}
    if sorted(minimum_gal) != list(range(1, max(minimum_gal) + 1)):
        raise tank.error("[septic_tank] minimum_gal_by_bedrooms must list every bedroom count "
                         "from 1 up, once each")
    values["septic_tank_additional_gal_per_bedroom"] = tank.number(
        "additional_gal_per_bedroom", lo=0, hi=10_000, integer=True)
    values["garbage_grinder_adds_bedroom"] = tank.flag("garbage_grinder_adds_bedroom")
    tank.done()

    setbacks_table = top.table("setbacks")
    setbacks: dict[ComponentKind, dict[str, float]] = {}
    setback_rows: dict[str, SetbackRow] = {}
    for key in list(setbacks_table.data):
        kind_name, _, variant = key.partition(".")
        try:
            kind = ComponentKind(kind_name)
        except ValueError:
            raise setbacks_table.error(f"[setbacks] {key!r} is not a component kind") from None
        if variant and variant not in SETBACK_VARIANTS.get(kind, {}):
            known = ", ".join(SETBACK_VARIANTS.get(kind, {})) or "none"
            raise setbacks_table.error(f"[setbacks] {key!r}: {variant!r} is not a variant of "
                                       f"{kind_name} (its variants: {known})")
        row = setbacks_table.table(key)
        distances = {t: row.number(t, lo=0, hi=10_000) for t in SEPARATION_TARGETS}
        if not variant:
            setbacks[kind] = distances
        notes = row.texts("notes") if "notes" in row.data else ()
        for letter in notes:
            if letter not in SETBACK_NOTES:
                raise row.error(f"[setbacks] {key} notes names {letter!r}; the notes the "
                                f"rules apply are {', '.join(SETBACK_NOTES)}")
        setback_rows[key] = SetbackRow(
            kind=kind, variant=variant or None, distances=distances, notes=notes,
            row=row.text("row") if "row" in row.data else kind_name.replace("_", " "),
            source=row.text("source") if "source" in row.data else "75-A Table 2")
        row.done()
    setbacks_table.done()
    if "septic_tank_pumping" in top.data:
        pumping = top.table("septic_tank_pumping")
        values["pump_at_solids_share"] = _share(pumping, "solids_share")
        values["pump_basis"] = pumping.text("basis")
        if "(" in values["pump_basis"] or ")" in values["pump_basis"]:
            raise pumping.error("[septic_tank_pumping] basis must not hold parentheses (a "
                                "recorded finding keeps its basis in them)")
        pumping.done()
    else:
        unconfirmed_values |= {PUMP_SHARE_VALUE}
    for key in setback_rows:
        if "." in key and key.partition(".")[0] not in setback_rows:
            raise setbacks_table.error(f"[setbacks] {key!r} has no row of its kind")
    setback_notes = None
    if "setback_notes" in top.data:
        table = top.table("setback_notes")
        cites = table.table("cite")
        setback_notes = SetbackNotes(
            drainage_path_well_ft=table.number("drainage_path_well_ft", lo=0, hi=10_000),
            water_service_line_ft=table.number("water_service_line_ft", lo=0, hi=10_000),
            shallow_well_increase=table.number("shallow_well_increase_percent", lo=0,
                                               hi=1000) / 100,
            shallow_well_depth_ft=table.number("shallow_well_depth_ft", lo=0, hi=10_000),
            cites={letter: cites.text(letter) for letter in SETBACK_NOTES})
        cites.done()
        table.done()
    if "business_days" in top.data:
        days = top.table("business_days")
        values["holiday_calendar"] = HolidayCalendar(
            calendar=days.text("calendar"), not_holidays=days.texts("not_public_holidays"),
            sunday_holiday_next_day=days.flag("sunday_holiday_next_day"))
        days.done()
        if not known_calendar(values["holiday_calendar"].calendar):
            raise days.error(f"[business_days] calendar is "
                             f"{values['holiday_calendar'].calendar!r}, which the holiday "
                             "library does not know; name a country and state as \"US-NY\"")
    else:
        unconfirmed_values |= {"business_days.calendar"}
    top.done()

    if values["minimum_bedrooms"] > values["base_rate_bedrooms"]:
        raise design.error("[design] minimum_bedrooms cannot exceed base_rate_bedrooms")
    if bands[-1].bedrooms != values["base_rate_bedrooms"]:
        raise design.error("[design] the last floor-area band must have base_rate_bedrooms "
                           "bedrooms")

    return Jurisdiction(
        **ident, citations=citations, unconfirmed_citations=unconfirmed_citations,
        unconfirmed_values=unconfirmed_values, lake_setback_ft=lake_setback_ft,
        floor_area_bands=tuple(bands), septic_tank_minimum_gal=minimum_gal,
        setbacks_ft=setbacks, source=source, confirmed=confirmed, cited_as=cited_as,
        setback_rows=setback_rows, setback_notes=setback_notes, **values)


def _share(table: _Table, key: str) -> Fraction:
    """A share from 0 to 1 exclusive of 0: a fraction as text ("1/3", kept exact) or a
    number (0.33)."""
    value = table._get(key)
    try:
        share = (Fraction(value.strip()) if isinstance(value, str)
                 else None if isinstance(value, bool) else Fraction(repr(value)))
    except (ValueError, ZeroDivisionError, TypeError):
        share = None
    if share is None or not 0 < share <= 1:
        raise table.error(f"[{table.name}] {key} is {value!r}; it must be a share above 0 and "
                          "at most 1, as a fraction (\"1/3\") or a number (0.33)")
    return share


def _confirmations(top: _Table, required: bool) -> dict[str, Confirmation]:
    """[confirmed.KEY] tables: each provision confirmed, with its source, by and on."""
    if "confirmed" not in top.data:
        if required:
            raise top.error("the table [confirmed] is missing (each confirmed provision "
                            "with its source, by and on)")
        return {}
    table = top.table("confirmed")
    out = {}
    for key in list(table.data):
        if key not in CITATION_KEYS:
            raise table.error(f"[confirmed] {key!r} is not a citation key")
        entry = table.table(key)
        on = entry._get("on")
        if not isinstance(on, date) or isinstance(on, datetime):
            raise entry.error(f"[confirmed.{key}] on must be a date (YYYY-MM-DD)")
        out[key] = Confirmation(source=entry.text("source"), by=entry.text("by"), on=on)
        entry.done()
    table.done()
    return out
