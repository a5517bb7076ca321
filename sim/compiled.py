"""How the core declares its compiled functions.

`njit_norc` is `numba.njit(cache=True)` without the numba runtime's reference counting (the
`_nrt=False` target option) for functions that create no arrays. numba otherwise increments and
decrements, with atomic instructions, the reference count of every array passed into a compiled
function that it does not inline: on the 9-ball break that was a quarter of the event loop's
CPU time (`perf record` on `bench/breaks.py`), and without it the loop runs ~25 % faster with
bit-identical results. A function so compiled must not allocate (no np.empty, no copies, no
array results), nor call a function that does: numba compiles such a callee without the
runtime too and refuses ("NRT required but not enabled"), so every test run checks it. The
core's allocating functions (run_events, the multiple impact, the impact model selection, the
joining of pressed pieces) keep plain `njit(cache=True)`. Where numba lacks the option,
`njit_norc` is plain `njit(cache=True)`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from numba import njit
from numba.core.cpu import CPUTargetOptions

NO_REFCOUNT: dict[str, Any] = {"_nrt": False} if hasattr(CPUTargetOptions, "_nrt") else {}


def njit_norc(fn: Callable[..., Any]) -> Any:
    """`njit(cache=True)` without reference counting (see the module docstring)."""
    return njit(cache=True, **NO_REFCOUNT)(fn)
