"""Whether a provider's certification number may be relied on today: the one check every
path that names a certified person makes (`sync enroll --certification`).

The office's register of providers (ETU representatives, haulers, inspectors, each with
their certification and how long it is valid) is what this reads once it is kept; until then
only the number's form is checked, so an enrolment names a number that can be looked up."""

from __future__ import annotations

import re
from datetime import date
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..session.session import Session

PROVIDER_KINDS = ("etu-representative", "hauler", "inspector")
_NUMBER = re.compile(r"[A-Za-z0-9][A-Za-z0-9 ./-]{0,39}")


def certification_refusal(ws: Session, kind: str, number: str, day: date) -> str | None:
    """Why a provider of `kind` with certification `number` is not to be relied on as of
    `day`, in one sentence, or None."""
    del ws, day  # the register and its dates of validity, once kept
    if kind not in PROVIDER_KINDS:
        return f"{kind!r} is not a kind of provider; the kinds are {', '.join(PROVIDER_KINDS)}."
    if not _NUMBER.fullmatch(number.strip()):
        return (f"the certification number {number.strip()!r} is not a certification "
                "number (letters and digits, at most 40 characters).")
    return None
