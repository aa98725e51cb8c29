"""A private certified inspector (Chapter 202, Article III: certified through the NYS Onsite
Wastewater Treatment Training Network) as the records name them: the one way their name and
certification number are put together as the person a change is recorded as."""

from __future__ import annotations

CERTIFIER = "NYS OWTTN"


def certified_person(name: str, certification: str) -> str:
    """Who a certified inspector's laptop records every change as:
    "R. Private (NYS OWTTN cert 12345)"."""
    return f"{' '.join(name.split())} ({CERTIFIER} cert {certification.strip()})"
