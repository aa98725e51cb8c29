"""Which column of a roll file gives which field of the roll.

A roll is the office's own CSV (columns named as our fields) or a county's export: the
attribute table of the New York tax parcels as the state's GIS program publishes them
(OBJECTID, COUNTY_NAME, MUNI_NAME, SWIS, PARCEL_ADDR, PRINT_KEY, SBL, CITYTOWN_NAME,
LOC_ST_NBR, LOC_STREET, LOC_UNIT, LOC_ZIP, PROP_CLASS, ..., PRIMARY_OWNER, MAIL_ADDR,
PO_BOX, MAIL_CITY, MAIL_STATE, MAIL_ZIP, ..., SWIS_SBL_ID, SWIS_PRINT_KEY_ID, CALC_ACRES)
or a county's own (PRINTKEY, SWISPRINTK, PARCELKEY, MUNI). Each field takes the first of
its known sources the file has, unless a column map (`sbl=PRINT_KEY,owner_name=OWNER`)
names its column(s); every other column is listed as not used, never a reason to refuse.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ...errors import InputError

REQUIRED = ("sbl", "municipality", "site_address", "owner_name", "mailing_address_1")
OPTIONAL = ("mailing_address_2", "mailing_address_3", "mailing_address_4", "owner_phone",
            "owner_email", "longitude", "latitude")
FIELDS = REQUIRED + OPTIONAL
DBASE_NAME_LENGTH = 10
# The state's tax-parcel export has about 60 columns and a county's own fewer; a header far
# beyond that is not a roll.
MAX_COLUMNS = 1000
MAP_FORMAT = ("FIELD=COLUMN[+COLUMN...],... (for example sbl=PRINT_KEY,owner_name=OWNER,"
              "site_address=LOC_ST_NBR+LOC_STREET)")


def header_name(raw: str) -> str:
    """A column's name as compared: any case, spaces or hyphens as underscores."""
    return re.sub(r"[\s-]+", "_", raw.strip().lower())


def _words(values: Sequence[str]) -> str:
    return " ".join(v for v in values if v)


def _city_line(values: Sequence[str]) -> str:
    """City, state and ZIP as an envelope writes them: "Pittsford, NY 14534"."""
    city, state, zip_code = values
    return ", ".join(p for p in (city, _words((state, zip_code))) if p)


@dataclass(frozen=True)
class Source:
    """The column(s) a field is read from, and how their values are put together."""

    columns: tuple[str, ...]
    join: Callable[[Sequence[str]], str] = _words

    def value(self, row: dict[str, str]) -> str:
        return self.join([row.get(c, "").strip() for c in self.columns]).strip()

    def label(self, spelled: dict[str, str]) -> str:
        return "+".join(spelled.get(c, c) for c in self.columns)


def _one(*names: str) -> tuple[Source, ...]:
    return tuple(Source((n,)) for n in names)


# The tax map number: the print key first (the county's spelling, as a person writes it),
# then the packed SBL (20 digits), then the same with the SWIS code.
_SBL_ORDER = ("print_key", "printkey", "sbl", "swis_print_key_id", "swisprintk",
              "swis_sbl_id", "parcelkey")

# Each field's known sources, best first.
KNOWN: dict[str, tuple[Source, ...]] = {
    "sbl": tuple(Source((n,)) for n in _SBL_ORDER),
    "municipality": _one("municipality", "muni_name", "citytown_name", "municipality_name",
                         "muni"),
    "site_address": (*_one("site_address", "parcel_addr"),
                     Source(("loc_st_nbr", "loc_street", "loc_unit")),
                     Source(("loc_st_nbr", "loc_street"))),
    "owner_name": (*_one("owner_name", "primary_owner", "owner", "owner1"),
                   Source(("owner_first_name", "owner_last_name"))),
    "mailing_address_1": _one("mailing_address_1", "mail_addr"),
    "mailing_address_2": _one("mailing_address_2", "po_box"),
    "mailing_address_3": (*_one("mailing_address_3"),
                          Source(("mail_city", "mail_state", "mail_zip"), _city_line)),
    "mailing_address_4": _one("mailing_address_4"),
    "owner_phone": _one("owner_phone"),
    "owner_email": _one("owner_email"),
    "longitude": _one("longitude"),
    "latitude": _one("latitude"),
}


def parse_map(text: str) -> dict[str, tuple[str, ...]]:
    """`--map sbl=PRINT_KEY,owner_name=OWNER`: each field of the roll and its column(s)
    (several joined with "+" are put together with spaces)."""
    mapped: dict[str, tuple[str, ...]] = {}
    for entry in (e.strip() for e in text.split(",")):
        if not entry:
            continue
        field, eq, columns = entry.partition("=")
        field = header_name(field)
        names = tuple(c.strip() for c in columns.split("+"))
        if not eq or not field or not all(names):
            raise InputError(f"--map: {entry!r} is not FIELD=COLUMN; write it like "
                             f"{MAP_FORMAT}.")
        if field not in FIELDS:
            raise InputError(f"--map: {field!r} is not a field of the roll; the fields are "
                             f"{', '.join(FIELDS)}.")
        if field in mapped:
            raise InputError(f"--map names a column for {field} twice.")
        mapped[field] = names
    if not mapped:
        raise InputError(f"--map is empty; write it like {MAP_FORMAT}.")
    return mapped


@dataclass(frozen=True)
class Columns:
    """What the file's columns give: each field's source, the other columns that hold the
    tax map number (to check against it), and the columns not used."""

    sources: dict[str, Source]
    other_sbls: tuple[str, ...]
    unused: list[str]
    spelled: dict[str, str]  # compared name -> the name as the file writes it

    def describe(self) -> dict[str, str]:
        return {f: s.label(self.spelled) for f, s in self.sources.items()}


def resolve(where: str, header: Sequence[str],
            mapped: dict[str, tuple[str, ...]] | None = None) -> Columns:
    """Choose each field's column(s) from the header, the map first. Refuses a mapped
    column the file lacks, a required field no column gives, and a used column named
    twice. A header of more than MAX_COLUMNS columns is refused before it is looked at."""
    if len(header) > MAX_COLUMNS:
        raise InputError(f"{where}: its header has {len(header):,} columns; a roll has at "
                         f"most {MAX_COLUMNS:,} (a county's export has about 60), so this is "
                         "not one; nothing was imported.")
    names = [header_name(h) for h in header]
    spelled = {n: h.strip() for h, n in zip(header, names, strict=True)}
    present = set(names)
    listed = ", ".join(h.strip() for h in header) or "none"
    sources: dict[str, Source] = {}
    for field, columns in (mapped or {}).items():
        wanted = tuple(header_name(c) for c in columns)
        missing = [c for c, n in zip(columns, wanted, strict=True) if n not in present]
        if missing:
            raise InputError(f"{where}: --map names the column {missing[0]!r} for {field}, "
                             f"which the file does not have; its columns are: {listed}.")
        sources[field] = Source(wanted)
    taken = {c for s in sources.values() for c in s.columns}

    def column(known: str) -> str | None:
        """The file's column of a known name: the name itself, or its first ten letters
        (a dBASE table, as in a Shapefile, keeps no more: PRIMARY_OW, SWIS_SBL_I)."""
        for name in (known, known[:DBASE_NAME_LENGTH]):
            if name in present and name not in taken:
                return name
        return None

    for field in FIELDS:
        if field in sources:
            continue
        for known in KNOWN[field]:
            found = [column(c) for c in known.columns]
            if all(found):
                sources[field] = Source(tuple(c for c in found if c), known.join)
                taken.update(sources[field].columns)
                break
    missing_fields = [f for f in REQUIRED if f not in sources]
    if missing_fields:
        field = missing_fields[0]
        tried = " or ".join(s.label({}).upper() for s in KNOWN[field])
        raise InputError(f"{where}: no column gives the roll's {field} (tried {tried}); "
                         f"name it with --map {field}=COLUMN. The file's columns are: "
                         f"{listed}.")
    counts = Counter(names)
    twice = sorted(n for n in taken if counts[n] > 1)
    if twice:
        raise InputError(f"{where}: the header names the column {spelled[twice[0]]!r} twice.")
    others = tuple(c for c in (column(n) for n in _SBL_ORDER) if c is not None)
    unused = [spelled[n] for n in dict.fromkeys(names) if n not in taken and n not in others]
    return Columns(sources, others, unused, spelled)
