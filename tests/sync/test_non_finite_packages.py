"""A sync package or field kit holding NaN or an infinity is refused whole, naming where
the value is; nothing stored changes."""

from __future__ import annotations

from typing import Any

import pytest

from inspector_app.services import exchange as sync
from inspector_app.services.exchange import assignment
from inspector_app.sync.package import PackageError

from .conftest import KIT_PASSPHRASE, Pair
from .test_hostile_packages import Contents, hostile


@pytest.mark.parametrize("from_office", [False, True], ids=["laptop-to-office",
                                                             "office-to-laptop"])
def test_a_package_with_nan_changes_nothing(pair: Pair, from_office: bool) -> None:
    sender, receiver = (pair.office, pair.field) if from_office else (pair.field, pair.office)
    sbl = pair.sbls[0]
    stored = receiver.load_case(sbl).dwelling.living_area_sqft
    pair.edit(sender, sbl, lambda d: d["dwelling"].update(living_area_sqft=2345))

    def nan(_: Pair, contents: Contents) -> None:
        (change,) = [c for c in contents.changes if c.get("field") == "living_area_sqft"]
        change["new"] = float("nan")

    path = hostile(pair, nan, from_office=from_office)
    with pytest.raises(PackageError, match=r"not a finite number"):
        sync.import_package(receiver, path)
    assert receiver.load_case(sbl).dwelling.living_area_sqft == stored


def test_a_field_kit_with_nan_is_refused(pair: Pair, monkeypatch: pytest.MonkeyPatch) -> None:
    real = assignment.encode_row

    def with_nan(row: dict[str, Any], blobs: dict[str, bytes]) -> dict[str, Any]:
        out = real(row, blobs)
        if "living_area_sqft" in out:
            out["living_area_sqft"] = float("nan")
        return out

    monkeypatch.setattr(assignment, "encode_row", with_nan)
    kit = pair.tmp / "nan-kit.zip"
    sync.enroll(pair.office, "laptop-nan", kit, pair.sbls[:1], passphrase=KIT_PASSPHRASE)
    with pytest.raises(PackageError, match=r"records\.jsonl line \d+ .*living_area_sqft is NaN"):
        sync.join(pair.tmp / "field-nan", kit, user="k", passphrase=KIT_PASSPHRASE)
    assert not (pair.tmp / "field-nan" / "inspector.sqlite").exists()
