"""Damaged, tampered and foreign packages: the only outcome is a clean refusal."""

from __future__ import annotations

import io
import json
import shutil
import tempfile
import warnings
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from inspector_app.services import exchange as sync
from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.exchange import incoming
from inspector_app.services.workspace import Workspace
from inspector_app.sync.package import PackageError, read_package
from tests.sync.conftest import KIT_PASSPHRASE, TODAY, state


class Setup:
    def __init__(self, root: Path) -> None:
        self.root = root
        office = Workspace(root / "office", user="clerk")
        install_demo(office, count=4, today=TODAY)
        sbls = [p["sbl"] for p in office.parcels()]
        sync.enroll(office, "laptop", root / "kit.zip", sbls, passphrase=KIT_PASSPHRASE)
        office.close()
        sync.join(root / "field", root / "kit.zip", user="k.olmsted",
                  passphrase=KIT_PASSPHRASE)
        field = Workspace(root / "field", user="k.olmsted")
        photo = root / "p.jpg"
        photo.write_bytes(b"\xff\xd8 photo bytes " * 40)
        field.add_attachment(sbls[0], photo, caption="tank")
        with field.store.transaction() as w:
            pid = field.parcel_id(sbls[1])
            w.update("parcels", pid, {"owner_name": "Changed In The Field"})
        sync.export(field, root / "good.zip")
        field.close()
        self.good = (root / "good.zip").read_bytes()
        self.office = Workspace(root / "office", user="clerk")
        self.key_for = incoming._key_lookup(self.office)
        self.original = read_package(root / "good.zip", self.key_for)


@pytest.fixture(scope="module")
def setup() -> Iterator[Setup]:
    with tempfile.TemporaryDirectory() as tmp:
        s = Setup(Path(tmp))
        yield s
        s.office.close()


def _members(data: bytes) -> list[tuple[str, bytes]]:
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        return [(i.filename, z.read(i)) for i in z.infolist()]


def _zip(members: list[tuple[str, bytes]]) -> bytes:
    buffer = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # duplicate names are the point of some damage
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z:
            for name, content in members:
                z.writestr(name, content)
    return buffer.getvalue()


def damage(good: bytes, how: str, n: int, m: int) -> bytes:
    members = _members(good)
    if how == "truncate":
        return good[: n % len(good)]
    if how == "flip":
        i = n % len(good)
        return good[:i] + bytes([good[i] ^ (m % 255 + 1)]) + good[i + 1:]
    if how == "drop":
        del members[n % len(members)]
        return _zip(members)
    if how == "duplicate":
        members.append(members[n % len(members)])
        return _zip(members)
    if how == "rewrite_manifest":
        index = next(i for i, (name, _) in enumerate(members) if name == "manifest.json")
        manifest = json.loads(members[index][1])
        field = ["package_id", "counts", "source_name", "created_at", "acknowledges"][n % 5]
        manifest[field] = {"package_id": "0" * 36, "counts": {"changes": m, "attachments": 0},
                           "source_name": "laptop (edited)", "created_at":
                           "2030-01-01T00:00:00+00:00", "acknowledges": []}[field]
        members[index] = ("manifest.json", json.dumps(manifest).encode())
        return _zip(members)
    if how == "forge_signature":
        index = next(i for i, (name, _) in enumerate(members) if name == "signature")
        members[index] = ("signature", f"{m:064x}".encode())
        return _zip(members)
    if how == "edit_changes":
        index = next(i for i, (name, _) in enumerate(members) if name == "changes.jsonl")
        content = members[index][1].replace(b"Changed In The Field", b"Forged owner name")
        members[index] = ("changes.jsonl", content)
        return _zip(members)
    if how == "extra_member":
        name = ["../../etc/cron.d/x", "attachments/../x", "notes.txt",
                "attachments/" + "0" * 64][n % 4]
        members.append((name, b"payload"))
        return _zip(members)
    if how == "garbage":
        return bytes((n * 7 + i * m) % 256 for i in range(64 + n % 500))
    raise AssertionError(how)


HOWS = ["truncate", "flip", "drop", "duplicate", "rewrite_manifest", "forge_signature",
        "edit_changes", "extra_member", "garbage"]


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(how=st.sampled_from(HOWS), n=st.integers(0, 10**6), m=st.integers(0, 2**64))
def test_damaged_packages_are_refused_cleanly(setup: Setup, how: str, n: int, m: int) -> None:
    bad = setup.root / "bad.zip"
    bad.write_bytes(damage(setup.good, how, n, m))
    try:
        package = read_package(bad, setup.key_for)
    except PackageError as exc:
        message = str(exc)
        assert message.startswith(f"{bad}: ") and "nothing was changed" in message
        before = state(setup.office)
        with pytest.raises(PackageError):
            sync.import_package(setup.office, bad)
        assert state(setup.office) == before
        return
    # Damage that left every signed byte intact (a flipped bit in a zip timestamp, say)
    # must read back exactly the package that was sent.
    assert package.manifest == setup.original.manifest
    assert package.changes == setup.original.changes
    assert package.attachments == setup.original.attachments


def test_every_kind_of_damage_is_refused(setup: Setup) -> None:
    """One of each, so a regression names the damage that got through."""
    for how in HOWS:
        bad = setup.root / f"{how}.zip"
        bad.write_bytes(damage(setup.good, how, 3, 77))
        with pytest.raises(PackageError):
            read_package(bad, setup.key_for)


def test_a_zip_bomb_is_refused(setup: Setup) -> None:
    members = _members(setup.good)
    members.append(("attachments/" + "a" * 64, b"\0" * 5_000_000))
    bomb = setup.root / "bomb.zip"
    bomb.write_bytes(_zip(members))
    with pytest.raises(PackageError, match="expands .*-fold"):
        read_package(bomb, setup.key_for)


def test_the_good_package_imports(setup: Setup, tmp_path: Path) -> None:
    office = tmp_path / "office"
    shutil.copytree(setup.root / "office", office)
    ws = Workspace(office, user="clerk")
    try:
        path = tmp_path / "good.zip"
        path.write_bytes(setup.good)
        result: dict[str, Any] = sync.import_package(ws, path)
        assert result["applied"] == 2 and result["conflicts"] == 0
    finally:
        ws.close()


def test_an_unknown_compression_method_is_refused(setup: Setup) -> None:
    data = bytearray(setup.good)
    central = data.find(b"PK\x01\x02")  # first central-directory entry
    data[central + 10:central + 12] = (99).to_bytes(2, "little")
    local = data.find(b"PK\x03\x04")
    data[local + 8:local + 10] = (99).to_bytes(2, "little")
    bad = setup.root / "method.zip"
    bad.write_bytes(bytes(data))
    with pytest.raises(PackageError, match="damaged"):
        read_package(bad, setup.key_for)
