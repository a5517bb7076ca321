"""Validation of physics coefficients: every field a finite real number in its physical range.

Ranges are written as intervals; each physics class lists its fields with the interval and,
where a bound is open, why (e.g. a sliding friction of zero would let a piece slide forever).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields, replace
from numbers import Real
from typing import Any

from cuesim.tables.numbers import finite_real, shown

INF = math.inf


@dataclass(frozen=True)
class Range:
    """The interval from low to high: high included (unless infinite), low excluded when
    `low_open`; `why` says why an open bound is open."""

    low: float
    high: float = INF
    low_open: bool = False
    why: str = ""

    def text(self) -> str:
        left = "(" if self.low_open else "["
        right = ")" if self.high == INF else "]"
        high = "inf" if self.high == INF else f"{self.high:g}"
        return f"{left}{self.low:g}, {high}{right}"

    def holds(self, value: float) -> bool:
        if not math.isfinite(value):
            return False
        above = value > self.low if self.low_open else value >= self.low
        return above and value <= self.high


# Sanity bounds around the physical ranges (the physics has no upper bound for a friction
# coefficient or for g, but 1e308 of either overflowed into NaN positions; and no lower bound
# above 0 for a cloth's friction or for g, but mu_roll = 1e-80, a deceleration of 1e-79 m/s^2,
# underflowed the core's predictions and let balls leave a pool table through its cushions):
# A friction coefficient far above any pair of real materials: handbook coefficients of dry
# friction lie below about 1.5; far higher values occur only for clean metals in high vacuum,
# which seize, adhering over their real area of contact with the metal's bulk strength (Bowden
# & Hughes, "The friction of clean metals and the influence of adsorbed gases", Proc. R. Soc.
# A, 1939, doi:10.1098/rspa.1939.0103; Bowden & Tabor, "The Friction and Lubrication of
# Solids", 1950). 1000 is a sanity bound three orders of magnitude above the handbook's.
MAX_FRICTION = 1000.0
# The least friction of a piece on its bed (sliding, rolling or spinning): a thousandth of the
# lowest sliding friction measured at the macroscale, about 0.001 for superlubric hydrogenated
# diamond-like carbon (Erdemir & Eryilmaz, "Achieving superlubricity in DLC films by
# controlling bulk, surface, and tribochemistry", Friction 2, 2014, doi:10.1007/s40544-014-
# 0055-1). A pool cloth's rolling resistance is about 0.01 (tables.balls).
MIN_FRICTION = 1.0e-6
# Gravity: ten thousand standard gravities, far beyond any place a table could stand (the
# Sun's surface: 274 m/s^2, 28 standard gravities); and a ten-thousandth of one, below the
# surface gravity of the asteroid 433 Eros (2-6 mm/s^2 from NEAR Shoemaker's radio tracking,
# Yeomans et al., Science 289, 2000, doi:10.1126/science.289.5487.2085).
STANDARD_GRAVITY = 9.80665  # m/s^2
MAX_GRAVITY = 1.0e4 * STANDARD_GRAVITY
MIN_GRAVITY = 1.0e-4 * STANDARD_GRAVITY
FRICTION_BOUND = Range(0.0, MAX_FRICTION, why="sanity bound: a coefficient of friction far "
                                              "above any pair of real materials")
SLIDING_BOUND = Range(MIN_FRICTION, MAX_FRICTION,
                      why="sanity bounds: a thousandth of superlubric carbon's friction, and "
                          "far above any pair of real materials")
GRAVITY_BOUND = Range(MIN_GRAVITY, MAX_GRAVITY,
                      why="sanity bounds: a ten-thousandth to ten thousand standard gravities")

UNIT = Range(0.0, 1.0)  # restitution: 0 perfectly inelastic ... 1 perfectly elastic
NON_NEGATIVE = Range(0.0)  # friction of an impact: 0 frictionless
POSITIVE = Range(0.0, low_open=True)


def repr_quiet_defaults(obj: Any, quiet: dict[str, float]) -> str:
    """A dataclass's repr, leaving out the fields named in `quiet` while they hold the default
    given there: a setting added later (the impact resolution) leaves the repr of physics at
    its defaults as it was, which a batch run's manifest records and compares on resuming."""
    items = [f"{f.name}={getattr(obj, f.name)!r}" for f in fields(obj)
             if f.repr and not (f.name in quiet and getattr(obj, f.name) == quiet[f.name])]
    return f"{type(obj).__qualname__}({', '.join(items)})"


def with_changes(obj: Any, changes: dict[str, float]) -> Any:
    """`dataclasses.replace(obj, **changes)`, an unknown name refused with the names there are
    (TypeError, as for any unknown keyword); each value is checked as on construction."""
    names = [f.name for f in fields(obj)]
    unknown = sorted(set(changes) - set(names))
    if unknown:
        raise TypeError(f"{type(obj).__name__} has no coefficient {unknown[0]!r}; "
                        f"coefficients are {names}")
    return replace(obj, **changes)


def check_coefficients(obj: object, ranges: dict[str, Range]) -> None:
    """Raise ValueError naming the first field of `obj` that is not a real number (bool
    excluded) or lies outside its range."""
    for name, rng in ranges.items():
        value = getattr(obj, name)
        if isinstance(value, bool) or not isinstance(value, Real):
            raise ValueError(f"{_expected(obj, name, rng)}, got {shown(value)} "
                             f"({type(value).__name__})")
        if not finite_real(value) or not rng.holds(float(value)):  # 10**400: no float
            raise ValueError(f"{_expected(obj, name, rng)}, got {shown(value)}")


def _expected(obj: object, name: str, rng: Range) -> str:
    """'Owner.name must be a real number in [low, high] (why)': what a refusal says (made
    only for one: a batch that sets the physics shot by shot checks them all)."""
    why = f" ({rng.why})" if rng.why else ""
    return f"{type(obj).__name__}.{name} must be a real number in {rng.text()}{why}"
