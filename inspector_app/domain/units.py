"""How numbers with units are written out."""

from __future__ import annotations


def plain_number(value: float | int) -> float | int:
    """Whole numbers without a decimal point, as people write them."""
    # beyond 2**53 a float is no longer a count anyone wrote: it stays as written (1e+308)
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return int(value)
    return value
