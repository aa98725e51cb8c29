from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from inspector_app.casefile import parse_document, to_document
from inspector_app.services import exchange as sync
from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.workspace import Workspace
from tests.templates import Templates

TODAY = date(2026, 11, 25)
KIT_PASSPHRASE = "kit passphrase 1"


@dataclass
class Pair:
    office: Workspace
    field: Workspace
    tmp: Path
    sbls: list[str]

    def edit(self, ws: Workspace, sbl: str, change: Any) -> None:
        doc = to_document(ws.load_case(sbl))
        change(doc)
        ws.save_case(parse_document(json.loads(json.dumps(doc)), source="edit", today=TODAY),
                     today=TODAY)

    def up(self, name: str = "up.zip") -> dict[str, Any]:
        path = self.tmp / name
        sync.export(self.field, path)
        return sync.import_package(self.office, path)

    def down(self, name: str = "down.zip") -> dict[str, Any]:
        path = self.tmp / name
        sync.export(self.office, path)
        return sync.import_package(self.field, path)


def state(ws: Workspace) -> dict[str, Any]:
    """Everything a package could change, to prove a refusal changed nothing."""
    tables = ["parcels", "dwellings", "components", "change_log", "sync_received",
              "sync_packages", "sync_conflicts", "devices", "attachments", "letters",
              "letter_service", "attestations", "inspection_requests"]
    return {t: ws.store.query(f"SELECT * FROM {t} ORDER BY rowid") for t in tables}


def copied_pair(templates: Templates, tmp_path: Path, *, parcels: int = 6,
                laptop: int | Sequence[str] = 3) -> Pair:
    """An office (`office/`) with `parcels` demo parcels, and laptop-1 enrolled for the first
    `laptop` of them (or those named) and joined (`field/`, from `kit.zip`): built once per
    test run for each shape (the demo, the scrypt of the kit, the join take a second or two)
    and copied into `tmp_path`. The copies are one office and its one laptop, as built; a
    test that needs another laptop or a fresh enrolment makes its own."""

    def build(root: Path) -> None:
        with Workspace(root / "office", user="clerk") as office:
            install_demo(office, count=parcels, today=TODAY)
            sbls = _laptop_parcels(office)
            sync.enroll(office, "laptop-1", root / "kit.zip", sbls, passphrase=KIT_PASSPHRASE)
        sync.join(root / "field", root / "kit.zip", user="k.olmsted",
                  passphrase=KIT_PASSPHRASE)

    def _laptop_parcels(office: Workspace) -> list[str]:
        if isinstance(laptop, int):
            return [p["sbl"] for p in office.parcels()][:laptop]
        return list(laptop)

    shape = laptop if isinstance(laptop, int) else ",".join(laptop)
    templates.copy(f"pair-{parcels}-{shape}", build, tmp_path)
    office = Workspace(tmp_path / "office", user="clerk")
    field = Workspace(tmp_path / "field", user="k.olmsted")
    return Pair(office, field, tmp_path, _laptop_parcels(office))


@pytest.fixture
def pair(tmp_path: Path, templates: Templates) -> Iterator[Pair]:
    made = copied_pair(templates, tmp_path)
    yield made
    made.office.close()
    made.field.close()
