"""How numbers with units are written out."""

from __future__ import annotations


def plain_number(value: float | int) -> float | int:
    """Whole numbers without a decimal point, as people write them."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value
