"""Evaluating cases under the law of each parcel's municipality, and the contract's JSON.

A data folder holds several jurisdiction files, each naming the municipalities it covers:
the bundled ones (`resources/jurisdictions/`), the folder's `jurisdictions/*.toml` (one
with a bundled file's id replaces it) and, from earlier versions, its single
`jurisdiction.toml`. A parcel whose municipality no file covers has no law on file: the
app then reports what the record says and makes no judgement under any law.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from functools import cached_property
from pathlib import Path
from typing import Any

from ...domain.case import Case, Component, Inspection, Observations
from ...domain.jurisdiction import (
    Jurisdiction,
    JurisdictionError,
    municipality_key,
    parse_jurisdiction,
)
from ...domain.rules import (
    MapDistance,
    capture_accuracy,
    combined_accuracy,
    measured_capture,
)
from ...errors import InputError
from ...paths import UnreadableFile, read_regular_file, resources_dir
from ...text_input import decode
from ...toml_input import MAX_TOML_BYTES

DEFAULT_JURISDICTION = ("jurisdictions", "town-of-canandaigua-ch202.toml")
DEFAULT_JURISDICTION_ID = "town-of-canandaigua-ch202"
DATA_FOLDER_JURISDICTION = "jurisdiction.toml"  # the single file of earlier versions
DATA_FOLDER_JURISDICTIONS = "jurisdictions"
NO_LAW_ON_FILE = "no_law_on_file"


def load_jurisdiction_file(path: Path) -> Jurisdiction:
    try:
        raw = read_regular_file(path, limit=MAX_TOML_BYTES, what="jurisdiction file")
    except FileNotFoundError:
        raise JurisdictionError(f"{path}: no such jurisdiction file.") from None
    except UnreadableFile as exc:
        raise JurisdictionError(str(exc)) from None
    text = decode(raw, path, what="jurisdiction file", save_as="UTF-8 text",
                  error=JurisdictionError).text
    return parse_jurisdiction(text, source=str(path))


def _municipality_words(municipality: str) -> str:
    return " ".join(municipality.split()) or "this parcel (no municipality is recorded)"


def no_law_sentence(municipality: str) -> str:
    return (f"No law on file for {_municipality_words(municipality)}: no jurisdiction file "
            "covers this municipality, so nothing is judged under any law (no lake zone, "
            "design load, finding or letter); the record and its measurements are shown as "
            "recorded")


class NoLawOnFile(InputError):
    """The parcel's municipality has no law on file; nothing was judged or written."""

    def __init__(self, municipality: str, *, doing: str = "") -> None:
        base = no_law_sentence(municipality) + (f"; {doing}" if doing else "")
        super().__init__(f"{base}. Add the town's law with `inspector-app jurisdiction use "
                         "FILE`.",
                         in_app=f"{base}. The office adds the town's law to the data folder "
                                "(inspector-app jurisdiction use FILE).")
        self.municipality = municipality


@dataclass(frozen=True)
class Laws:
    """The jurisdiction files in force in one data folder."""

    files: tuple[Jurisdiction, ...]

    @cached_property
    def _by_municipality(self) -> dict[str, Jurisdiction]:
        """Each municipality's file, by `municipality_key` (the first file naming it)."""
        found: dict[str, Jurisdiction] = {}
        for j in self.files:
            for m in j.municipalities:
                found.setdefault(municipality_key(m), j)
        return found

    def for_municipality(self, municipality: str) -> Jurisdiction | None:
        return self._by_municipality.get(municipality_key(municipality))

    def by_id(self, ident: str) -> Jurisdiction | None:
        return next((j for j in self.files if j.id == ident), None)

    @property
    def default(self) -> Jurisdiction:
        """The bundled Town of Canandaigua law as in force here (or the first file)."""
        return self.by_id(DEFAULT_JURISDICTION_ID) or self.files[0]


def check_laws(files: Iterable[Jurisdiction]) -> Laws:
    """Refuse two files with one id, or two files claiming one municipality."""
    seen_ids: dict[str, Jurisdiction] = {}
    seen_names: dict[str, tuple[str, Jurisdiction]] = {}
    for j in files:
        if j.id in seen_ids:
            raise JurisdictionError(
                f"{j.source} and {seen_ids[j.id].source} both have the id {j.id!r}; keep one "
                "of them or give each its own id.")
        seen_ids[j.id] = j
        for name in j.municipalities:
            key = municipality_key(name)
            if key in seen_names and seen_names[key][1].id != j.id:
                other_name, other = seen_names[key]
                raise JurisdictionError(
                    f"{j.source} ({j.id}) and {other.source} ({other.id}) both claim the "
                    f"municipality {other_name!r}; a municipality has one law: take it out of "
                    "one of the two files.")
            seen_names[key] = (name, j)
    if not seen_ids:
        raise JurisdictionError("No jurisdiction file is in force; reinstall the app.")
    return Laws(tuple(sorted(seen_ids.values(), key=lambda j: j.id)))


def bundled_files() -> list[Path]:
    return sorted((resources_dir() / "jurisdictions").glob("*.toml"))


def folder_files(data_dir: Path) -> list[Path]:
    """The data folder's own jurisdiction files, the earlier single file first."""
    legacy = data_dir / DATA_FOLDER_JURISDICTION
    return ([legacy] if legacy.is_file() else []) + sorted(
        p for p in (data_dir / DATA_FOLDER_JURISDICTIONS).glob("*.toml") if p.is_file())


def laws_from(bundled: Iterable[Jurisdiction], own: Iterable[Jurisdiction]) -> Laws:
    """The bundled files, each replaced by the folder's file of the same id."""
    by_id = {j.id: j for j in bundled}
    own_list = list(own)
    if own_list:
        check_laws(own_list)  # two of the folder's own files with one id are refused
    by_id.update({j.id: j for j in own_list})
    return check_laws(by_id.values())


def laws_for(data_dir: Path | None) -> Laws:
    """The laws in force in a data folder (None: the bundled files alone)."""
    bundled = [load_jurisdiction_file(p) for p in bundled_files()]
    own = [] if data_dir is None else [load_jurisdiction_file(p) for p in folder_files(data_dir)]
    return laws_from(bundled, own)


def jurisdiction_for(data_dir: Path) -> Jurisdiction:
    """The Town of Canandaigua law as in force in the data folder."""
    return laws_for(data_dir).default


def describe_laws(laws: Laws) -> list[dict[str, Any]]:
    """`jurisdiction list`: every file in force, by id."""
    return [{"id": j.id, "name": j.name, "law": j.title, "municipalities": list(j.municipalities),
             "source": j.source, "example": j.example} for j in laws.files]


def install_jurisdiction(data_dir: Path, path: Path) -> dict[str, Any]:
    """Check a jurisdiction file, then add it to the data folder, or replace the one with
    its id. Refused (and nothing written) when it is broken or claims a municipality
    another file in force covers."""
    from ...paths import write_atomically

    new = load_jurisdiction_file(path)
    data = path.read_bytes()
    if parse_jurisdiction(data.decode("utf-8", "replace"), source=str(path)) != new:
        raise JurisdictionError(f"{path}: changed while it was being read; run the command "
                                "again.")
    own_paths = folder_files(data_dir)
    own = [load_jurisdiction_file(p) for p in own_paths]
    replaced = next((p for p, j in zip(own_paths, own, strict=True) if j.id == new.id), None)
    target = replaced or data_dir / DATA_FOLDER_JURISDICTIONS / f"{new.id}.toml"
    kept = [j for j in own if j.id != new.id]
    bundled = [load_jurisdiction_file(p) for p in bundled_files()]
    laws_from(bundled, [*kept, new])  # a refusal names the file given and the one in force
    target.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(target, data)
    replaces = (str(replaced) if replaced is not None else
                "the bundled file" if any(j.id == new.id for j in bundled) else None)
    return {"id": new.id, "name": new.name, "law": new.title,
            "municipalities": list(new.municipalities), "file": str(target),
            "replaces": replaces, "example": new.example}


def use_jurisdiction(ws: Any, path: Path) -> dict[str, Any]:
    """`jurisdiction use FILE`: the file added to the data folder's laws, or, at an office
    database, to the office's for every desk (`settings_files.publish`)."""
    from .settings_files import publish

    done = install_jurisdiction(ws.folder.root, path)
    publish(ws)
    return done


def kit_laws(laws: Laws) -> list[dict[str, str]]:
    """Every jurisdiction file in force, for a field kit: id and text."""
    return [{"id": j.id, "toml": Path(j.source).read_text("utf-8")} for j in laws.files]


def write_kit_laws(data_dir: Path, entries: Any, write: Any) -> list[str]:
    """Check a field kit's jurisdiction files as one set, then write each into the data
    folder's jurisdictions/ with `write(path, bytes)`. Returns the ids."""
    if not isinstance(entries, list) or not all(
            isinstance(e, dict) and isinstance(e.get("toml"), str) for e in entries):
        raise JurisdictionError("The field kit's jurisdiction files are not a list of files; "
                                "ask the office for a new kit.")
    folder = data_dir / DATA_FOLDER_JURISDICTIONS
    parsed = []
    for n, entry in enumerate(entries, start=1):
        j = parse_jurisdiction(entry["toml"], source=f"the field kit's jurisdiction file #{n}")
        parsed.append((j, entry["toml"]))
    check_laws(j for j, _ in parsed)
    for j, text in parsed:
        write(folder / f"{j.id}.toml", text.encode("utf-8"))
    return [j.id for j, _ in parsed]


@dataclass(frozen=True, kw_only=True)
class NoLawFacts:
    """What the app says of a parcel whose municipality has no law on file: the record and
    its measurements, no judgement under any law."""

    as_of: date
    municipality: str
    sentence: str
    lake_distance_ft: float | None
    lake_source: str | None  # field | map | None
    lake_method: str | None
    lake_accuracy_ft: float | None
    lake_layer: str | None
    components: tuple[Component, ...]
    # the parts of `lake_accuracy_ft`: the layer's and the capture's (None with no distance)
    lake_layer_accuracy_ft: float | None = None
    lake_capture_accuracy_ft: float | None = None
    inspection: Inspection | None
    observations: Observations | None = None
    status: str = NO_LAW_ON_FILE


def no_law_facts(case: Case, *, as_of: date, map_distance: MapDistance | None) -> NoLawFacts:
    site = case.site
    distance: dict[str, Any] = {"lake_distance_ft": None, "lake_source": None,
                                "lake_method": None, "lake_accuracy_ft": None,
                                "lake_layer": None}
    if site is not None and site.lake_distance_ft is not None:
        distance = {"lake_distance_ft": site.lake_distance_ft, "lake_source": "field",
                    "lake_method": site.lake_distance_method.value
                    if site.lake_distance_method else None,
                    "lake_accuracy_ft": 0.0, "lake_layer": None,
                    "lake_layer_accuracy_ft": 0.0, "lake_capture_accuracy_ft": 0.0}
    elif site is not None and map_distance is not None and (
            site.absorption_area is not None or site.holding_tank is not None):
        captured = capture_accuracy(measured_capture(site))
        distance = {"lake_distance_ft": map_distance.distance_ft, "lake_source": "map",
                    "lake_method": "map",
                    "lake_accuracy_ft": combined_accuracy(map_distance.accuracy_ft, captured),
                    "lake_layer": f"{map_distance.layer_name} v{map_distance.layer_version}",
                    "lake_layer_accuracy_ft": map_distance.accuracy_ft,
                    "lake_capture_accuracy_ft": captured}
    return NoLawFacts(as_of=as_of, municipality=case.parcel.municipality,
                      sentence=no_law_sentence(case.parcel.municipality) + ".",
                      components=case.components, inspection=case.inspection,
                      observations=case.observations, **distance)
