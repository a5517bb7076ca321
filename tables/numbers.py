"""Whether a value handed in at a door is a finite real number.

`math.isfinite` raises OverflowError on a Python int past the largest float (10**400), so a
door that called it directly ended in a traceback instead of its own message. An aim angle
is a finite number within MAX_AIM_ANGLE of zero."""

from __future__ import annotations

import math
from numbers import Real
from typing import Any

# rad: a thousand turns either way. A shot's direction is taken modulo a turn, so any finite
# angle names one; but no aim is written as more than a few turns, and from 2**53 rad on a
# float has no fractional turn left: the direction it names is an accident of rounding (a
# degrees value read as an exponent, "1e300", is the usual cause). Beyond this is refused.
MAX_AIM_ANGLE = 2000.0 * math.pi


def finite_real(value: Any) -> bool:
    """A finite real number of any numeric type (numpy's too), not a bool; False for an int
    too large for a float."""
    if type(value) is float:  # the common case, without the abstract class's check
        return value - value == 0.0  # inf - inf and nan - nan are nan
    if isinstance(value, bool) or not isinstance(value, Real):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


def shown(value: Any) -> str:
    """repr(value) for a message, an int past a float's range as its count of digits (10**400
    would otherwise fill the line with 401 of them)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10**20:
        return f"an integer of {len(str(abs(value)))} digits"
    return repr(value)


def finite_numbers(value: Any) -> tuple[float, ...] | None:
    """The floats of an iterable of finite real numbers (a tuple, a list, a numpy array), or
    None for anything else (a string, a bool among them, a NaN, an int past a float)."""
    if isinstance(value, str | bytes):
        return None
    try:
        items = tuple(value)
    except TypeError:
        return None
    if not all(finite_real(v) for v in items):
        return None
    return tuple(float(v) for v in items)
