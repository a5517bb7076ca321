"""How the core declares its compiled functions.

`njit_core` is `numba.njit(cache=True)` whose calls from other compiled functions are compiled
for the arguments' plain types. numba otherwise compiles a separate specialisation of the
callee for every literal argument (the constant event kind of each `_log` call, `skip=0` and
`skip=1` of the root finder, a `0` count in one caller and a counted one in another): the
multiple impact was compiled three times, `_log` nine times, 113 signatures in all for one
shot; the generated code of the plain version does the same arithmetic, so results are bit
for bit the same.

`njit_norc` is `njit_core` without the numba runtime's reference counting (the `_nrt=False`
target option) for functions that create no arrays. numba otherwise increments and
decrements, with atomic instructions, the reference count of every array passed into a compiled
function that it does not inline: on the 9-ball break that was a quarter of the event loop's
CPU time (`perf record` on `bench/breaks.py`), and without it the loop runs ~25 % faster with
bit-identical results. A function so compiled must not allocate (no np.empty, no copies, no
array results), nor call a function that does: numba compiles such a callee without the
runtime too and refuses ("NRT required but not enabled"), so every test run checks it. The
core's allocating functions (run_events, the multiple impact, the impact model selection, the
joining of pressed pieces) use `njit_core`. Where numba lacks the option, `njit_norc` is
`njit_core`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from numba import njit, types
from numba.core.cpu import CPUTargetOptions

NO_REFCOUNT: dict[str, Any] = {"_nrt": False} if hasattr(CPUTargetOptions, "_nrt") else {}


def plain_calls(dispatcher: Any) -> Any:
    """Make calls of `dispatcher` from compiled code resolve (and compile) for the plain types
    of their arguments (`numba.types.unliteral`), not one specialisation per literal value.
    Under NUMBA_DISABLE_JIT `njit` returns the plain function, which is left as it is."""
    resolve = getattr(type(dispatcher), "get_call_template", None)
    if resolve is None:
        return dispatcher

    def get_call_template(args: tuple[Any, ...], kws: dict[str, Any]) -> Any:
        return resolve(dispatcher, tuple(types.unliteral(a) for a in args),
                       {k: types.unliteral(v) for k, v in kws.items()})

    dispatcher.get_call_template = get_call_template
    return dispatcher


def njit_core(fn: Callable[..., Any] | None = None, **options: Any) -> Any:
    """`njit(cache=True, **options)` with plain-typed calls (see the module docstring); usable
    as `@njit_core` or `@njit_core(nogil=True)`."""
    if fn is None:
        return lambda f: plain_calls(njit(cache=True, **options)(f))
    return plain_calls(njit(cache=True, **options)(fn))


def njit_norc(fn: Callable[..., Any]) -> Any:
    """`njit_core` without reference counting (see the module docstring)."""
    return plain_calls(njit(cache=True, **NO_REFCOUNT)(fn))
