"""Letter wording and office settings, read strictly from TOML files.

The wording (`resources/letters/templates.toml`) and the office's letterhead and signature
(`office.toml`) are the office's to edit. A placeholder the app does not know, a missing
key or a misspelt one is refused when the file is read, never printed on a letter. A
placeholder is a name only (`{owner_name}`, `{cite[KEY]}`): a format or conversion
(`{owner_name:>2000000}`, `{owner_name!r}`) is refused when the file is read, and never
interpreted when a letter is filled. The images the settings name are read from their
headers (`images.py`) and refused when too large, before any letter prints them.
"""

from __future__ import annotations

import difflib
import html
import string
from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from functools import lru_cache
from pathlib import Path
from typing import Any

from .. import toml_input
from ..domain.jurisdiction import CITATION_KEYS
from ..errors import InputError
from .images import ImageRefused, check_image_file


def escape(text: str) -> str:
    """Escape text for reportlab's paragraph markup (&, <, >)."""
    return html.escape(text, quote=False)

TEMPLATES_FORMAT = "watershed-inspector/letters/1"
OFFICE_FORMAT = "watershed-inspector/office/1"

PLACEHOLDERS = frozenset({
    "owner_name", "site_address", "municipality", "sbl", "letter_date", "inspection_date",
    "inspector", "law", "water_body", "authority", "office_name", "permit_by", "complete_by",
    "complete_within_days", "setback_ft", "due_date", "last_inspection", "cycle_years",
    "report_days", "cite", "waiver_description", "limitations",
    # a date the office asks for (not the law's), whether a value is unconfirmed, the
    # finding an action line is about, and the letter a correction replaces
    "reply_by", "reply_within_days", "unconfirmed", "what", "replaced_kind", "replaced_date",
    "replaced_id", "title",
    # the date a notice asks a discharging holding tank's pump-out record by, and its days
    "pump_out_by", "pump_out_within_days",
})
# A key's wording as the office's request, for an issued letter where the key's own states
# as law a provision (or a value) the jurisdiction file does not confirm: KEY_request.
REQUEST = "_request"

# The jurisdiction values a letter may mark "(unconfirmed)": {unconfirmed[KEY]}.
UNCONFIRMED_VALUE_KEYS = ("notice.permit_within_days", "notice.complete_within_days",
                          "inspection_cycle.years", "worklists.due_soon_days",
                          "holding_tank.discharge_pump_within_days")

KINDS: dict[str, tuple[str, ...]] = {
    # kind -> the keys its table must have (besides title, subject, salutation,
    # paragraphs, closing)
    "notice_of_violation": (
        "inspection_found", "records_show", "no_violations", "components_heading",
        "failure_evidence",
        "substandard_within", "substandard_within_standards", "substandard_beyond",
        "substandard_beyond_failure", "substandard_beyond_failure_partial",
        "substandard_undetermined", "not_located", "actions_heading",
        "action_system_in_failure", "action_holding_tank_failed",
        "action_holding_tank_discharging",
        "action_substandard_standards", "action_substandard_greatest_extent",
        "action_substandard_in_failure", "action_absorption_area_encroachment",
        "action_clear_water_discharge", "action_etu_no_service_contract",
        "action_etu_inspection_overdue", "action_etu_report_late",
        "action_etu_report_received_late", "action_holding_tank_no_hauler_contract",
        "action_holding_tank_records_missing", "permit", "replacement_in_kind",
        "absorption_field_design", "other_design", "other_approvals", "deadlines",
        "renters"),
    "substandard_notice": ("found", "beyond", "beyond_not_shown", "components_heading",
                           "components_heading_partial", "not_located", "no_upgrade",
                           "in_failure", "share", "share_partial"),
    "letter_of_acknowledgement": ("within", "within_not_shown", "determination",
                                  "determination_not_recorded", "waiver_granted",
                                  "waiver_none", "factors_heading"),
    "five_year_reminder": ("cycle", "cycle_not_shown", "due", "overdue"),
    "etu_report_reminder": (),
    "pump_out_request": (),
    "report_of_findings": (),
}
# Keys added to a kind's wording after offices may have copied the bundled file: one an
# office's own file lacks is taken from the bundled wording (`load_wording(later_from=)`)
# rather than stopping every letter of that kind. A new key goes here when it is added.
LATER_KEYS: dict[str, tuple[str, ...]] = {
    "notice_of_violation": ("failure_evidence", "action_holding_tank_discharging"),
    "labels": ("effluent_line", "sand_filter", "cesspool", "privy"),
}
COMMON = ("title", "subject", "salutation", "paragraphs", "closing")
# [common]: wording every kind shares, and the office's own reply period.
COMMON_TEXTS = ("corrected_title", "corrects", "not_called_for")
LABEL_KEYS = frozenset({
    "system_in_failure", "absorption_area_encroachment", "clear_water_discharge",
    "etu_no_service_contract", "etu_inspection_overdue", "etu_report_late",
    "holding_tank_no_hauler_contract", "holding_tank_records_missing",
    "holding_tank_discharging", "septic_tank", "distribution_box", "absorption_area",
    "pump_chamber",
    "enhanced_treatment_unit", "holding_tank", "house_sewer", "seepage_pit", "other",
    "effluent_line", "sand_filter", "cesspool", "privy",
    "acceptable", "substandard", "failed", "not_located", "dye", "hydraulic_load",
})


# A text of the wording: at most this long, with at most this many placeholders (the
# bundled wording's longest is under 600 characters, with at most 6).
MAX_TEXT_CHARS = 4000
MAX_TEXT_PLACEHOLDERS = 40


class LetterTemplateError(InputError):
    pass


@dataclass(frozen=True)
class LetterTemplate:
    kind: str
    texts: Mapping[str, str]
    paragraphs: tuple[str, ...]
    closing: tuple[str, ...]

    def text(self, key: str, values: Mapping[str, Any]) -> str:
        return fill(self.texts[key], values)


@dataclass(frozen=True, kw_only=True)
class Office:
    office_name: str
    department: str
    address: tuple[str, ...]
    phone: str
    email: str
    logo: Path | None
    signer_name: str
    signer_title: str
    signer_certification: str
    signature_image: Path | None
    source: str

    @property
    def signature_lines(self) -> tuple[str, ...]:
        """The lines under "Sincerely," and the signature: the signer's printed name, else a
        line to sign on, never a blank; then the title and certification where given."""
        name = self.signer_name.strip() or SIGN_HERE
        return tuple(x for x in (name, self.signer_title.strip(),
                                 self.signer_certification.strip()) if x)


# Printed where the office settings name no signer: a line to sign on, over the title.
SIGN_HERE = "_" * 36


def _check_placeholders(text: str, where: str, source: str) -> None:
    if len(text) > MAX_TEXT_CHARS:
        raise LetterTemplateError(f"{source}: {where} is {len(text):,} characters long; a "
                                  f"text of the wording is at most {MAX_TEXT_CHARS:,}.")
    try:
        parts = _parts(text)
    except ValueError as exc:
        raise LetterTemplateError(f"{source}: {where} has a broken placeholder ({exc}); write "
                                  "placeholders as {{name}}.") from None
    fields = [(f, spec, conversion) for _, f, spec, conversion in parts if f is not None]
    if len(fields) > MAX_TEXT_PLACEHOLDERS:
        raise LetterTemplateError(f"{source}: {where} has {len(fields):,} placeholders; a "
                                  f"text of the wording has at most {MAX_TEXT_PLACEHOLDERS}.")
    for field, spec, conversion in fields:
        name = field.split("[", 1)[0].split(".", 1)[0]
        if name not in PLACEHOLDERS:
            raise LetterTemplateError(
                f"{source}{_line_of(source, field)}: {where} uses the unknown placeholder "
                f"{{{field}}}; the placeholders are {', '.join(sorted(PLACEHOLDERS))}.")
        rest = field[len(name):]
        key = rest[1:-1] if rest.startswith("[") and rest.endswith("]") else None
        if name == "cite" and (key is None or "[" in key or key not in CITATION_KEYS):
            raise LetterTemplateError(
                f"{source}{_line_of(source, field)}: {where} cites {{{field}}}, which names no "
                f"citation; {_keys_hint('cite', key, CITATION_KEYS)}.")
        if name == "unconfirmed" and (key is None or key not in UNCONFIRMED_VALUE_KEYS):
            raise LetterTemplateError(
                f"{source}{_line_of(source, field)}: {where} has {{{field}}}, which names no "
                f"value; {_keys_hint('unconfirmed', key, UNCONFIRMED_VALUE_KEYS)}.")
        if name not in ("cite", "unconfirmed") and rest:
            raise LetterTemplateError(
                f"{source}{_line_of(source, field)}: {where} has the placeholder {{{field}}}; "
                f"write it as {{{name}}}, with nothing after the name.")
        if spec or conversion is not None:
            written = _written(field, spec, conversion)
            raise LetterTemplateError(
                f"{source}{_line_of(source, written)}: {where} has the placeholder "
                f"{{{written}}}; a placeholder is a name only: write it as {{{field}}}, with "
                "no format or conversion after it.")


@lru_cache(maxsize=1024)
def _parts(text: str) -> tuple[tuple[str, str | None, str | None, str | None], ...]:
    """A text of the wording as `string.Formatter().parse` reads it: (literal text,
    placeholder, format, conversion) in turn; ValueError when a brace is unmatched."""
    return tuple(string.Formatter().parse(text))


def _written(field: str, spec: str | None, conversion: str | None) -> str:
    """A placeholder as the file writes it, e.g. `owner_name!r:>20`."""
    return field + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "")


def _keys_hint(name: str, key: str | None, keys: tuple[str, ...]) -> str:
    """How to write {name[KEY]}: the nearest right key, else every key."""
    close = difflib.get_close_matches(key or "", keys, n=1)
    if close:
        return f"the nearest that does is {{{name}[{close[0]}]}}"
    return f"write {{{name}[KEY]}} with KEY one of {', '.join(keys)}"


def _line_of(source: str, field: str) -> str:
    """", line N" of the file where the placeholder first appears (empty if not found)."""
    try:
        text = Path(source).read_text("utf-8")
    except (OSError, UnicodeDecodeError):
        return ""
    at = text.find("{" + field)
    return "" if at < 0 else f", line {text.count(chr(10), 0, at) + 1}"


def fill(text: str, values: Mapping[str, Any]) -> str:
    """Fill placeholders with values escaped for reportlab's paragraph markup: each
    `{name}` (or `{name[KEY]}`) by its value as text, nothing else interpreted. A value not
    given is "[name not recorded]"; a placeholder with a format or conversion, which no
    wording that was read can hold, is refused (LetterTemplateError)."""
    out: list[str] = []
    for literal, field, spec, conversion in _parts(text):
        out.append(literal)
        if field is None:
            continue
        if spec or conversion is not None:
            raise LetterTemplateError(
                f"The wording has the placeholder {{{_written(field, spec, conversion)}}}; a "
                f"placeholder is a name only: write it as {{{field}}} (`wording use`).")
        name, _, key = field.partition("[")
        if name not in values:
            out.append(f"[{name} not recorded]")
            continue
        value = values[name]
        if key:
            value = value.get(key.removesuffix("]"), f"[{field} not recorded]") if isinstance(
                value, Mapping) else f"[{field} not recorded]"
        out.append(escape(value) if isinstance(value, str) else str(value))
    return "".join(out)


def _load_toml(path: Path, kind: str) -> dict[str, Any]:
    try:
        return toml_input.read(path, what=f"{kind} file")
    except FileNotFoundError:
        raise LetterTemplateError(f"{path}: no such {kind} file.") from None
    except toml_input.TomlProblem as exc:
        raise LetterTemplateError(f"{path}: {exc}; fix the {kind} file in a text "
                                  "editor.") from None


@dataclass(frozen=True)
class Wording:
    templates: Mapping[str, LetterTemplate]
    labels: Mapping[str, str]
    common: Mapping[str, str] = dataclass_field(default_factory=dict)
    # The office's request (not the law's): days from the letter's date it asks a missing
    # report, record or contract to be sent within.
    reply_within_days: int = 30

    def label(self, code: str) -> str:
        return self.labels.get(code, code.replace("_", " "))


def load_wording(path: Path, *, later_from: Path | None = None) -> Wording:
    """The letters' wording in `path`. With `later_from` (the bundled wording), a key of
    LATER_KEYS that the file lacks is taken from there."""
    source = str(path)
    raw = _load_toml(path, "letter templates")
    if later_from is not None and later_from != path:
        bundled = _load_toml(later_from, "letter templates")
        for kind, keys in LATER_KEYS.items():
            table, fallback = raw.get(kind), bundled.get(kind)
            if isinstance(table, dict) and isinstance(fallback, dict):
                for key in keys:
                    if key not in table and key in fallback:
                        table[key] = fallback[key]
    if raw.pop("format", None) != TEMPLATES_FORMAT:
        raise LetterTemplateError(f"{source}: format must be {TEMPLATES_FORMAT!r}.")
    labels = raw.pop("labels", None)
    if not isinstance(labels, dict):
        raise LetterTemplateError(f"{source}: the table [labels] is missing.")
    for key in sorted(set(labels) ^ LABEL_KEYS):
        problem = "is missing" if key in LABEL_KEYS else "is not a code the app uses"
        raise LetterTemplateError(f"{source}: [labels] {key} {problem}.")
    if not all(isinstance(v, str) and v.strip() for v in labels.values()):
        raise LetterTemplateError(f"{source}: every [labels] entry must be non-empty text.")
    common = raw.pop("common", None)
    if not isinstance(common, dict):
        raise LetterTemplateError(f"{source}: the table [common] is missing.")
    expected = {*COMMON_TEXTS, "reply_within_days"}
    for key in sorted(set(common) ^ expected):
        problem = "is missing" if key in expected else "is not a key the app uses"
        raise LetterTemplateError(f"{source}: [common] {key} {problem}.")
    days = common.pop("reply_within_days")
    if isinstance(days, bool) or not isinstance(days, int) or not 1 <= days <= 365:
        raise LetterTemplateError(f"{source}: [common] reply_within_days is {days!r}; it must "
                                  "be a whole number of days from 1 to 365.")
    for key in COMMON_TEXTS:
        if not isinstance(common[key], str) or not common[key].strip():
            raise LetterTemplateError(f"{source}: [common] {key} must be non-empty text.")
        _check_placeholders(common[key], f"[common] {key}", source)
    return Wording(templates=_templates(raw, source), labels=labels, common=common,
                   reply_within_days=days)


def _templates(raw: dict[str, Any], source: str) -> dict[str, LetterTemplate]:
    unknown = sorted(set(raw) - set(KINDS))
    if unknown:
        raise LetterTemplateError(f"{source}: [{unknown[0]}] is not a letter kind; the kinds "
                                  f"are {', '.join(KINDS)}.")
    out = {}
    for kind, extra in KINDS.items():
        table = raw.get(kind)
        if not isinstance(table, dict):
            raise LetterTemplateError(f"{source}: the table [{kind}] is missing.")
        expected = set(COMMON) | set(extra)
        requests = {key + REQUEST for key in extra} & set(table)  # optional, each checked
        for key in sorted(set(table) - expected - requests):
            raise LetterTemplateError(f"{source}: [{kind}] has the unknown key {key!r}.")
        for key in sorted(expected - set(table)):
            raise LetterTemplateError(f"{source}: [{kind}] {key} is missing.")
        texts = {}
        for key in (*COMMON, *extra, *sorted(requests)):
            value = table[key]
            if key in ("paragraphs", "closing"):
                if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                    raise LetterTemplateError(f"{source}: [{kind}] {key} must be a list of "
                                              "text.")
                for i, v in enumerate(value):
                    _check_placeholders(v, f"[{kind}] {key} #{i + 1}", source)
            else:
                if not isinstance(value, str):
                    raise LetterTemplateError(f"{source}: [{kind}] {key} must be text.")
                _check_placeholders(value, f"[{kind}] {key}", source)
                texts[key] = value
        out[kind] = LetterTemplate(kind=kind, texts=texts, paragraphs=tuple(table["paragraphs"]),
                                   closing=tuple(table["closing"]))
    return out


def load_office(path: Path, *, base: Path, municipality: str | None = None,
                jurisdiction_id: str | None = None) -> Office:
    """Office settings; relative image paths are resolved against `base`.

    The top-level [letterhead] and [signature] are the default. A section
    [municipalities."Town of X"] (or [jurisdictions."ID"], by the jurisdiction file's id)
    with its own [letterhead] and [signature] is used for that municipality's parcels;
    every section is checked whichever is asked for."""
    source = str(path)
    raw = _load_toml(path, "office settings")
    if raw.pop("format", None) != OFFICE_FORMAT:
        raise LetterTemplateError(f"{source}: format must be {OFFICE_FORMAT!r}.")
    groups = {name: raw.pop(name) for name in ("municipalities", "jurisdictions")
              if name in raw}
    chosen = {"": _office(raw, source=source, base=base, where="")}
    wanted = {"municipalities": None if municipality is None else _name_key(municipality),
              "jurisdictions": jurisdiction_id}
    for group, entries in groups.items():
        if not isinstance(entries, dict):
            raise LetterTemplateError(f"{source}: [{group}] must hold one table per "
                                      f"{group[:-1]}, e.g. [{group}.\"NAME\".letterhead].")
        for key, table in entries.items():
            where = f'{group}."{key}"'
            if not isinstance(table, dict):
                raise LetterTemplateError(f"{source}: [{where}] must be a table.")
            office = _office(dict(table), source=source, base=base, where=f"{where}.")
            name = _name_key(key) if group == "municipalities" else key
            if wanted[group] is not None and name == wanted[group]:
                chosen[group] = office
    # the municipality's own section, else its law's, else the default
    return chosen.get("municipalities") or chosen.get("jurisdictions") or chosen[""]


def _name_key(name: str) -> str:
    return " ".join(name.split()).casefold()


def _office(raw: dict[str, Any], *, source: str, base: Path, where: str) -> Office:
    sections = {"letterhead": {"office_name", "department", "address", "phone", "email",
                               "logo"},
                "signature": {"name", "title", "certification", "image"}}
    for name in sorted(set(raw) - set(sections)):
        raise LetterTemplateError(f"{source}: [{where}{name}] is not a settings table.")
    for name, keys in sections.items():
        table = raw.get(name)
        if not isinstance(table, dict):
            raise LetterTemplateError(f"{source}: the table [{where}{name}] is missing.")
        for key in sorted(set(table) ^ keys):
            problem = "is missing" if key in keys else "is not a setting"
            raise LetterTemplateError(f"{source}: [{where}{name}] {key} {problem}.")
    head, sign = raw["letterhead"], raw["signature"]
    if not (isinstance(head["address"], list) and head["address"]
            and all(isinstance(x, str) for x in head["address"])):
        raise LetterTemplateError(f"{source}: [{where}letterhead] address must be a list of "
                                  "lines.")
    if not str(head["office_name"]).strip():
        raise LetterTemplateError(f"{source}: [{where}letterhead] office_name is empty.")

    def image(value: str, key: str) -> Path | None:
        if not value:
            return None
        p = Path(value)
        p = p if p.is_absolute() else base / p
        if not p.is_file():
            raise LetterTemplateError(f"{source}: [{where}{key} names {p}, which does not "
                                      "exist.")
        if p.suffix.lower() not in (".png", ".jpg", ".jpeg"):
            raise LetterTemplateError(f"{source}: [{where}{key} must be a PNG or JPEG file.")
        try:
            check_image_file(p)
        except ImageRefused as exc:
            raise LetterTemplateError(f"{source}: [{where}{key} {p} {exc}.") from None
        except FileNotFoundError:
            raise LetterTemplateError(f"{source}: [{where}{key} names {p}, which does not "
                                      "exist.") from None
        return p

    return Office(office_name=head["office_name"], department=head["department"],
                  address=tuple(head["address"]), phone=head["phone"], email=head["email"],
                  logo=image(head["logo"], "letterhead] logo"), signer_name=sign["name"],
                  signer_title=sign["title"], signer_certification=sign["certification"],
                  signature_image=image(sign["image"], "signature] image"),
                  source=source if not where else f"{source} [{where.rstrip('.')}]")
