"""Zip files that come from outside the app: sync packages and field kits, Excel workbooks.

A zip's index declares each member's size before a byte of it is inflated, so a zip bomb
(3 MB on disk, 3 GB inflated) is refused from its index: `check_members` holds the members
to a count, a size each, a size in all and a ratio of inflated to stored bytes, and refuses
an encrypted one. `read_member` then inflates a member no further than its declared size,
so a member that lies about its size cannot grow past it. Every problem is a `ZipProblem`,
a ValueError whose words complete "FILE: ..."."""

from __future__ import annotations

import zipfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

MAX_RATIO = 200  # inflated / stored bytes of one member: an XML sheet or a JSON file is 5-20
# A member this small is never a bomb, however well it compresses.
RATIO_FROM_BYTES = 1024**2


class ZipProblem(ValueError):
    """A zip whose index says more than its bounds allow."""


@dataclass(frozen=True)
class ZipBounds:
    members: int
    member_bytes: int
    total_bytes: int
    ratio: int = MAX_RATIO


def check_members(infos: Sequence[zipfile.ZipInfo], bounds: ZipBounds) -> None:
    """Raise ZipProblem when the members, as the index declares them, pass a bound: too
    many, one too large, one inflating more than `bounds.ratio`-fold, one encrypted, or all
    of them too large together."""
    if len(infos) > bounds.members:
        raise ZipProblem(f"it has {len(infos)} members, over the limit of {bounds.members}")
    total = 0
    for info in infos:
        name = info.filename
        if info.file_size > bounds.member_bytes:
            raise ZipProblem(f"{name} is {info.file_size / 1e6:.0f} MB, over the member "
                             "limit")
        if (info.file_size > RATIO_FROM_BYTES and info.compress_size
                and info.file_size / info.compress_size > bounds.ratio):
            raise ZipProblem(f"{name} expands {info.file_size // info.compress_size}-fold, "
                             "which is not plausible (a zip bomb?)")
        if info.flag_bits & 0x1:
            raise ZipProblem(f"{name} is encrypted")
        total += info.file_size
    if total > bounds.total_bytes:
        raise ZipProblem("its contents exceed the total size limit")


def read_member(z: zipfile.ZipFile, info: zipfile.ZipInfo) -> bytes:
    """A member's bytes, decompressed no further than the size the zip's index declares
    for it (`ZipFile.read` inflates all its compressed bytes in one step: a member of
    10 MB declared as 1 KB would be 10 GB in memory before its CRC is checked). A member
    whose data does not match its declared size and CRC is BadZipFile."""
    with z.open(info) as f:
        return f.read(info.file_size + 1)


def member_chunks(z: zipfile.ZipFile, info: zipfile.ZipInfo,
                  size: int = 1024**2) -> Iterator[bytes]:
    """A member's bytes in pieces of `size`, inflated no further than its declared size."""
    left = info.file_size + 1
    with z.open(info) as f:
        while left > 0 and (chunk := f.read(min(size, left))):
            left -= len(chunk)
            yield chunk
