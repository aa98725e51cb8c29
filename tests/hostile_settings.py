"""Hostile settings files, JSON and TOML texts, packages and kits, each made here by a
small function, for the tests that feed them through the command line."""

from __future__ import annotations

import json
import os
import struct
import zipfile
import zlib
from pathlib import Path

from inspector_app.paths import resource
from inspector_app.sync.keys import KIT_MAGIC


def deep_json(path: Path, levels: int = 100_000) -> Path:
    """`[` x levels then `]` x levels: 200 KB that ends Python's json in RecursionError."""
    path.write_text("[" * levels + "]" * levels, "utf-8")
    return path


def deep_toml(path: Path, levels: int = 100_000, *, inline_tables: bool = False) -> Path:
    """A TOML value nested `levels` deep: arrays, or inline tables ({a = {a = ...}})."""
    value = ("{a = " * levels + "1" + "}" * levels if inline_tables
             else "[" * levels + "]" * levels)
    path.write_text(f"x = {value}\n", "utf-8")
    return path


def wording_with_salutation(path: Path, salutation: str) -> Path:
    """The bundled wording with every letter's salutation replaced."""
    text = resource("letters", "templates.toml").read_text("utf-8")
    assert 'salutation = "Dear {owner_name}:"' in text
    path.write_text(text.replace('salutation = "Dear {owner_name}:"',
                                 f"salutation = {json.dumps(salutation)}"), "utf-8")
    return path


def png_declaring(path: Path, width: int, height: int) -> Path:
    """A PNG of a few dozen bytes whose header declares `width` x `height` px (its pixel
    data a single compressed row: a decoder that believes the header asks for it all)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data)))

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)  # 8-bit grey
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
                     + chunk(b"IDAT", zlib.compress(b"\x00" * (width + 1)))
                     + chunk(b"IEND", b""))
    return path


def office_with_images(folder: Path, *, logo: str = "", image: str = "") -> Path:
    """The bundled office settings in `folder`/office.toml, naming a logo and a signature
    image (paths relative to the folder)."""
    text = resource("letters", "office.toml").read_text("utf-8")
    text = text.replace('logo = ""', f"logo = {json.dumps(logo)}", 1)
    text = text.replace('image = ""', f"image = {json.dumps(image)}", 1)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "office.toml").write_text(text, "utf-8")
    return folder / "office.toml"


def unsigned_package(path: Path, manifest: bytes) -> Path:
    """A zip holding only a manifest (no signature), e.g. 200 KB of nested brackets (stored
    uncompressed, so that it passes the zip-bomb check and meets the next)."""
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("manifest.json", manifest)
    return path


def signed_looking_package(path: Path, manifest: bytes) -> Path:
    """A zip with that manifest and a signature of the right shape that nobody made."""
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("manifest.json", manifest)
        z.writestr("signature", "ab" * 64)
    return path


def greedy_kit(path: Path, *, n: int = 2**20, r: int = 16, p: int = 4,
               header: bytes | None = None) -> Path:
    """A 'field kit' of about 1 KB whose header asks scrypt for n, r, p (by default 2^20,
    16, 4: over 2 GB and most of a minute), or carries the given header bytes."""
    if header is None:
        header = json.dumps({"cipher": "aes-256-gcm", "kdf": "scrypt", "n": n, "nonce":
                             os.urandom(12).hex(), "p": p, "r": r,
                             "salt": os.urandom(16).hex()}, sort_keys=True).encode()
    path.write_bytes(KIT_MAGIC + header + b"\n" + os.urandom(1000))
    return path


def lying_member_package(path: Path, *, inflated_mb: int = 1024, declared: int = 128
                         ) -> Path:
    """A package whose `signature` member declares `declared` bytes (in the zip's index
    and its local header) but inflates to `inflated_mb` MB of zeros: about 1 MB on disk
    that a reader trusting the compressed data makes 1 GB of in memory. The deflate stream
    is one flushed megabyte of zeros repeated, then an empty final block."""
    squeeze = zlib.compressobj(9, zlib.DEFLATED, -15)
    megabyte = squeeze.compress(bytes(1024**2)) + squeeze.flush(zlib.Z_FULL_FLUSH)
    bomb = megabyte * inflated_mb + b"\x03\x00"
    members = [(b"manifest.json", 0, b"{}", 2, zlib.crc32(b"{}")),
               (b"signature", 8, bomb, declared, 0)]
    local, central = bytearray(), bytearray()
    for name, method, data, size, crc in members:
        central += struct.pack("<4s6H3I5H2I", b"PK\x01\x02", 20, 20, 0, method, 0, 0x21,
                               crc, len(data), size, len(name), 0, 0, 0, 0, 0, len(local))
        central += name
        local += struct.pack("<4s5H3I2H", b"PK\x03\x04", 20, 0, method, 0, 0x21, crc,
                             len(data), size, len(name), 0) + name + data
    path.write_bytes(bytes(local + central) + struct.pack(
        "<4s4H2IH", b"PK\x05\x06", 0, 0, len(members), len(members), len(central),
        len(local), 0))
    return path


def dotted_key_toml(path: Path, parts: int = 100_000, *, header: bool = False) -> Path:
    """The bundled office settings after a dotted key (`a.a.a... = 1`) of `parts` parts,
    or a table header (`[a.a.a...]`) of as many: 200 KB that tomllib reads in steps growing
    with the square of the parts."""
    key = "a" + ".a" * (parts - 1)
    head = f"[{key}]\nx = 1\n" if header else f"{key} = 1\n"
    text = resource("letters", "office.toml").read_text("utf-8")
    path.write_text(head + text if not header else text + "\n" + head, "utf-8")
    return path


def long_integer_toml(path: Path, digits: int = 100_000) -> Path:
    """The bundled office settings with a whole number of `digits` digits added."""
    text = resource("letters", "office.toml").read_text("utf-8")
    path.write_text(text + "\nzz = " + "9" * digits + "\n", "utf-8")
    return path


def long_integer_case(path: Path, case: Path, digits: int = 100_000) -> Path:
    """The case file `case` with its bedrooms a whole number of `digits` digits."""
    text = case.read_text("utf-8")
    doc = json.loads(text)
    doc["dwelling"]["bedrooms"] = 0
    path.write_text(json.dumps(doc).replace('"bedrooms": 0', '"bedrooms": ' + "9" * digits),
                    "utf-8")
    return path


def case_with_components(path: Path, case: Path, count: int = 1_000_000) -> Path:
    """The case file `case` listing `count` components (25 MB for a million), each of them
    missing its condition: a validator that looks at each before the list's length finds a
    million problems."""
    doc = json.loads(case.read_text("utf-8"))
    doc["components"] = [{"kind": "septic_tank"}] * count
    path.write_text(json.dumps(doc), "utf-8")
    return path
