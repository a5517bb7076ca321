"""Whether a value handed in at a door is a finite real number.

`math.isfinite` raises OverflowError on a Python int past the largest float (10**400), so a
door that called it directly ended in a traceback instead of its own message."""

from __future__ import annotations

import math
from numbers import Real
from typing import Any


def finite_real(value: Any) -> bool:
    """A finite real number of any numeric type (numpy's too), not a bool; False for an int
    too large for a float."""
    if isinstance(value, bool) or not isinstance(value, Real):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:
        return False
