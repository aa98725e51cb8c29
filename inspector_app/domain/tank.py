"""A septic tank's solids, worked out from its recorded depths.

The share of the liquid depth taken by solids is (sludge depth + scum depth) / liquid
depth, the measure a pumper and the usual rule (NH Env-Wq 1023.01; EPA's guidance) go by.
It is shown with its arithmetic wherever it is shown, so that anyone can check it, and it
is worked exactly (a share of exactly one third is one third).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .vocabulary import ComponentKind

# The kinds a solids share is worked out for: a septic tank settles solids by design; a
# pump chamber or holding tank is pumped by its level, and an ETU by its maker's schedule.
SOLIDS_KINDS = frozenset({ComponentKind.SEPTIC_TANK})


def _number(details: Mapping[str, Any], name: str) -> float | None:
    value = details.get(name)
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def _exact(value: float) -> Fraction:
    """A depth as typed (14.1 is 141/10, not its nearest binary fraction)."""
    return Fraction(repr(value))


def _inches(value: float) -> str:
    return f"{value:g} in"


@dataclass(frozen=True, kw_only=True)
class TankSolids:
    """The depths a share is worked out from; any of them may be unrecorded."""

    sludge_in: float | None
    scum_in: float | None
    liquid_depth_in: float | None

    @classmethod
    def of(cls, details: Mapping[str, Any]) -> TankSolids:
        return cls(sludge_in=_number(details, "sludge_depth_in"),
                   scum_in=_number(details, "scum_depth_in"),
                   liquid_depth_in=_number(details, "liquid_depth_in"))

    @property
    def recorded(self) -> bool:
        """Whether any of the three depths is recorded."""
        return any(v is not None for v in (self.sludge_in, self.scum_in, self.liquid_depth_in))

    @property
    def solids_in(self) -> float | None:
        if self.sludge_in is None or self.scum_in is None:
            return None
        return float(_exact(self.sludge_in) + _exact(self.scum_in))

    @property
    def share(self) -> Fraction | None:
        """(sludge + scum) / liquid depth, exactly; None when a depth is not recorded or
        the liquid depth is 0."""
        if self.sludge_in is None or self.scum_in is None or not self.liquid_depth_in:
            return None
        return (_exact(self.sludge_in) + _exact(self.scum_in)) / _exact(self.liquid_depth_in)

    @property
    def percent(self) -> int | None:
        """The share as a whole percent, halves rounded up."""
        share = self.share
        return None if share is None else int(share * 100 + Fraction(1, 2))

    @property
    def missing(self) -> tuple[str, ...]:
        """The depths the share still needs, in words."""
        out = []
        if self.liquid_depth_in is None:
            out.append("liquid depth")
        elif self.liquid_depth_in == 0:
            out.append("a liquid depth above 0 in")
        if self.sludge_in is None:
            out.append("sludge depth")
        if self.scum_in is None:
            out.append("scum depth")
        return tuple(out)

    @property
    def arithmetic(self) -> str:
        """"sludge 14 in + scum 4 in = 18 in of 48 in liquid depth = 38 %", or why there
        is no share: "no solids share: the liquid depth is not recorded"."""
        if self.share is None:
            missing = self.missing
            verb = "is" if len(missing) == 1 else "are"
            if missing == ("a liquid depth above 0 in",):
                return "no solids share: the liquid depth is 0 in"
            return ("no solids share: the " + " and the ".join(missing)
                    + f" {verb} not recorded")
        assert self.sludge_in is not None and self.scum_in is not None
        assert self.solids_in is not None and self.liquid_depth_in is not None
        return (f"sludge {_inches(self.sludge_in)} + scum {_inches(self.scum_in)} = "
                f"{_inches(self.solids_in)} of {_inches(self.liquid_depth_in)} liquid depth "
                f"= {self.percent} %")

    def reaches(self, threshold: Fraction) -> bool:
        share = self.share
        return share is not None and share >= threshold


def share_words(share: Fraction) -> str:
    """A threshold in words: "one third (33 %)", "2/5 (40 %)"."""
    named = {Fraction(1, 3): "one third", Fraction(1, 4): "one quarter",
             Fraction(1, 2): "one half", Fraction(2, 3): "two thirds"}
    percent = share * 100
    shown = f"{float(percent):.0f}" if percent.denominator != 1 else f"{percent}"
    return f"{named.get(share, str(share))} ({shown} %)"


def depth_problem(details: Mapping[str, Any]) -> tuple[str, str] | None:
    """A tank's depths that cannot be: the sludge and scum together deeper than the
    liquid they lie in. Returns (the detail to name, the sentence) or None."""
    t = TankSolids.of(details)
    if t.liquid_depth_in is None or t.solids_in is None:
        return None
    if _exact(t.solids_in) <= _exact(t.liquid_depth_in):
        return None
    assert t.sludge_in is not None and t.scum_in is not None
    return ("liquid_depth_in",
            f"({_inches(t.liquid_depth_in)}) is less than the sludge depth "
            f"({_inches(t.sludge_in)}) and the scum depth ({_inches(t.scum_in)}) together "
            f"({_inches(t.solids_in)}); sludge and scum lie within the liquid depth")
