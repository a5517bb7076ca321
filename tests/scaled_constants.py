"""The core's round-off floors and tolerances scaled in an interpreted process: the probes of
the tolerance tests (tests/test_core_tolerances.py, tests/test_pins_impact.py) run under
NUMBA_DISABLE_JIT, where the core's functions read their module constants at each call, and
import this to scale them."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]  # the probes' working folder: `tests` importable


def scaler(names: tuple[str, ...]) -> Callable[[float], None]:
    """A function that sets each constant in `names`, in every imported `cuesim.sim` module
    that holds it, to its value at this call times a factor. Raises if a name is in none."""
    mods = [m for n, m in list(sys.modules.items()) if n.startswith("cuesim.sim")]
    base = {(m, c): getattr(m, c) for m in mods for c in names if hasattr(m, c)}
    missing = set(names) - {c for _, c in base}
    if missing:
        raise LookupError(f"no cuesim.sim module holds {sorted(missing)}")

    def scale(factor: float) -> None:
        for (m, c), value in base.items():
            setattr(m, c, value * factor)

    return scale


def same_outcomes(a: list[dict], b: list[dict], tol: float = 1e-6) -> bool:
    """Whether two probe runs' shots ({"kinds": event kinds, "final": [[id, x, y], ...]}
    each) have the same events, kind by kind, and every final position within tol metres."""
    for ra, rb in zip(a, b, strict=True):
        if ra["kinds"] != rb["kinds"] or len(ra["final"]) != len(rb["final"]):
            return False
        for (ia, xa, ya), (ib, xb, yb) in zip(ra["final"], rb["final"], strict=True):
            if ia != ib or abs(xa - xb) > tol or abs(ya - yb) > tol:
                return False
    return True
