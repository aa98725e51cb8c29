"""Letter wording and office settings, read strictly from TOML files.

The wording (`resources/letters/templates.toml`) and the office's letterhead and signature
(`office.toml`) are the office's to edit. A placeholder the app does not know, a missing
key or a misspelt one is refused when the file is read, never printed on a letter.
"""

from __future__ import annotations

import html
import string
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import InputError


def escape(text: str) -> str:
    """Escape text for reportlab's paragraph markup (&, <, >)."""
    return html.escape(text, quote=False)

TEMPLATES_FORMAT = "watershed-inspector/letters/1"
OFFICE_FORMAT = "watershed-inspector/office/1"

PLACEHOLDERS = frozenset({
    "owner_name", "site_address", "municipality", "sbl", "letter_date", "inspection_date",
    "inspector", "law", "water_body", "authority", "office_name", "permit_by", "complete_by",
    "complete_within_days", "setback_ft", "due_date", "last_inspection", "cycle_years",
    "report_days", "cite", "waiver_description",
})

KINDS: dict[str, tuple[str, ...]] = {
    # kind -> the keys its table must have (besides title, subject, salutation,
    # paragraphs, closing)
    "notice_of_violation": ("components_heading", "corrective_action", "deadlines",
                            "renters"),
    "substandard_notice": ("components_heading",),
    "letter_of_acknowledgement": ("waiver_granted", "waiver_none", "factors_heading"),
    "five_year_reminder": (),
    "etu_report_reminder": (),
    "pump_out_request": (),
    "report_of_findings": (),
}
COMMON = ("title", "subject", "salutation", "paragraphs", "closing")
LABEL_KEYS = frozenset({
    "system_in_failure", "absorption_area_encroachment", "clear_water_discharge",
    "etu_no_service_contract", "etu_inspection_overdue", "etu_report_late",
    "holding_tank_no_hauler_contract", "holding_tank_records_missing",
    "septic_tank", "distribution_box", "absorption_area", "pump_chamber",
    "enhanced_treatment_unit", "holding_tank", "house_sewer", "seepage_pit", "other",
    "acceptable", "substandard", "failed", "not_located", "dye", "hydraulic_load",
})


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


def _check_placeholders(text: str, where: str, source: str) -> None:
    try:
        fields = [f for _, f, _, _ in string.Formatter().parse(text) if f is not None]
    except ValueError as exc:
        raise LetterTemplateError(f"{source}: {where} has a broken placeholder ({exc}); write "
                                  "placeholders as {{name}}.") from None
    for field in fields:
        name = field.split("[", 1)[0].split(".", 1)[0]
        if name not in PLACEHOLDERS:
            raise LetterTemplateError(
                f"{source}: {where} uses the unknown placeholder {{{field}}}; the "
                f"placeholders are {', '.join(sorted(PLACEHOLDERS))}.")


class _SafeValues(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return f"[{key} not recorded]"


def fill(text: str, values: Mapping[str, Any]) -> str:
    """Fill placeholders with values escaped for reportlab's paragraph markup."""
    safe = _SafeValues({k: (escape(v) if isinstance(v, str) else
                            {ck: escape(cv) for ck, cv in v.items()} if isinstance(v, dict)
                            else v) for k, v in values.items()})
    return text.format_map(safe)


def _load_toml(path: Path, kind: str) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text("utf-8"))
    except FileNotFoundError:
        raise LetterTemplateError(f"{path}: no such {kind} file.") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise LetterTemplateError(f"{path}: is not a valid {kind} file ({exc}).") from None


@dataclass(frozen=True)
class Wording:
    templates: Mapping[str, LetterTemplate]
    labels: Mapping[str, str]

    def label(self, code: str) -> str:
        return self.labels.get(code, code.replace("_", " "))


def load_wording(path: Path) -> Wording:
    source = str(path)
    raw = _load_toml(path, "letter templates")
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
    return Wording(templates=_templates(raw, source), labels=labels)


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
        for key in sorted(set(table) - expected):
            raise LetterTemplateError(f"{source}: [{kind}] has the unknown key {key!r}.")
        for key in sorted(expected - set(table)):
            raise LetterTemplateError(f"{source}: [{kind}] {key} is missing.")
        texts = {}
        for key in (*COMMON, *extra):
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


def load_office(path: Path, *, base: Path) -> Office:
    """Office settings; relative image paths are resolved against `base`."""
    source = str(path)
    raw = _load_toml(path, "office settings")
    if raw.pop("format", None) != OFFICE_FORMAT:
        raise LetterTemplateError(f"{source}: format must be {OFFICE_FORMAT!r}.")
    sections = {"letterhead": {"office_name", "department", "address", "phone", "email",
                               "logo"},
                "signature": {"name", "title", "certification", "image"}}
    for name in sorted(set(raw) - set(sections)):
        raise LetterTemplateError(f"{source}: [{name}] is not a settings table.")
    for name, keys in sections.items():
        table = raw.get(name)
        if not isinstance(table, dict):
            raise LetterTemplateError(f"{source}: the table [{name}] is missing.")
        for key in sorted(set(table) ^ keys):
            problem = "is missing" if key in keys else "is not a setting"
            raise LetterTemplateError(f"{source}: [{name}] {key} {problem}.")
    head, sign = raw["letterhead"], raw["signature"]
    if not (isinstance(head["address"], list) and head["address"]
            and all(isinstance(x, str) for x in head["address"])):
        raise LetterTemplateError(f"{source}: [letterhead] address must be a list of lines.")
    if not str(head["office_name"]).strip():
        raise LetterTemplateError(f"{source}: [letterhead] office_name is empty.")

    def image(value: str, where: str) -> Path | None:
        if not value:
            return None
        p = Path(value)
        p = p if p.is_absolute() else base / p
        if not p.is_file():
            raise LetterTemplateError(f"{source}: {where} names {p}, which does not exist.")
        if p.suffix.lower() not in (".png", ".jpg", ".jpeg"):
            raise LetterTemplateError(f"{source}: {where} must be a PNG or JPEG file.")
        return p

    return Office(office_name=head["office_name"], department=head["department"],
                  address=tuple(head["address"]), phone=head["phone"], email=head["email"],
                  logo=image(head["logo"], "[letterhead] logo"), signer_name=sign["name"],
                  signer_title=sign["title"], signer_certification=sign["certification"],
                  signature_image=image(sign["image"], "[signature] image"), source=source)
