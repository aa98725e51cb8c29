"""Tax map numbers (SBL: section-block-lot)."""

from __future__ import annotations

import re


def sbl_sort_key(text: str) -> str:
    """Order with numbers numerically: 900.01-1-2 before 900.01-1-10."""
    return re.sub(r"\d+", lambda m: m.group().zfill(10), text.casefold())
