from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from inspector_app.casefile import parse_document, to_document
from inspector_app.services import exchange as sync
from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.workspace import Workspace

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
              "sync_packages", "sync_conflicts", "devices", "attachments"]
    return {t: ws.store.query(f"SELECT * FROM {t} ORDER BY rowid") for t in tables}


@pytest.fixture
def pair(tmp_path: Path) -> Iterator[Pair]:
    office = Workspace(tmp_path / "office", user="clerk")
    install_demo(office, count=6, today=TODAY)
    sbls = [p["sbl"] for p in office.parcels()][:3]
    sync.enroll(office, "laptop-1", tmp_path / "kit.zip", sbls, passphrase=KIT_PASSPHRASE)
    sync.join(tmp_path / "field", tmp_path / "kit.zip", user="k.olmsted",
              passphrase=KIT_PASSPHRASE)
    field = Workspace(tmp_path / "field", user="k.olmsted")
    yield Pair(office, field, tmp_path, sbls)
    office.close()
    field.close()
