"""Operations on scalars and arrays typed once per compile session, not once per use.

numba types every arithmetic operation, comparison, builtin call and array index (`a * b`,
`x < 0.0`, `min(u, v)`, `math.sqrt(x)`, `S[i, VX]`, `S[i, VX] = v`) by trying each of the
operation's typing templates in turn, NumPy's array operators among them (which work out a
full ufunc loop match before they find no array in a scalar operation). Nothing is
remembered: a cold novus first shot typed some 16,000 such operations, 424 of them distinct.
`get_call_type` here answers a repeat from a memo keyed by the function type, the typing
context, the argument types (numbers and booleans, a literal one by its value; arrays; tuples
of these) and the compile's flags (which numba's overloads key their implementations by), and
re-records the implementation key numba stores for the lowering (`_impl_keys`), so the typed
IR, the lowering and the machine code are those numba makes anyway (the same LLVM IR in
tests/test_typing_memo.py; the fingerprint test: every result bit for bit the same). A cold
first shot in one process: 17.5-19.3 -> 14.0-14.6 s (the CPython wrappers of `link_only` left
out in both; scalars alone 14.9-15.3 s).

Only while a core function compiles (`install` wraps each core dispatcher's compile); other
argument types (functions, records, strings, optional values), keyword arguments and typing
failures go to numba's own resolution every time. A numba without what it uses keeps its own.
"""

from __future__ import annotations

import threading
from typing import Any

from numba.core import targetconfig, types
from numba.core.types import functions

_ACTIVE = threading.local()  # .depth: core compiles running in this thread
_MEMO: dict[tuple[Any, Any, tuple[Any, ...], Any], tuple[Any, Any]] = {}  # -> (sig, impl)
_STATE: dict[str, Any] = {"patched": False, "hits": 0}


def _keyable(t: Any) -> bool:
    """A number or boolean (a literal one keyed by its value, which its type holds), an array
    (its dtype, dimensions, layout and flags), or a tuple of these: types whose equality is
    all the typing of an operation on them depends on."""
    if isinstance(t, (types.Number, types.Boolean, types.Array)):
        return True
    return isinstance(t, types.BaseTuple) and all(_keyable(x) for x in t)


def supported() -> bool:
    """Does this numba resolve function types the way the memo relies on?"""
    base = getattr(functions, "BaseFunction", None)
    stack = getattr(targetconfig, "ConfigStack", None)
    return (base is not None and callable(getattr(base, "get_call_type", None))
            and callable(getattr(stack, "top_or_none", None)))


_FLAG_KEYS: dict[int, tuple[Any, tuple[tuple[str, str], ...]]] = {}  # id -> (flags, key)
FLAG_KEYS_HELD = 1024  # flags objects held (one per compile): then forgotten, and keyed anew


def _flags_key(flags: Any) -> tuple[tuple[str, str], ...] | None:
    """A compile's flags as a plain tuple of (option, repr of its value), worked out once per
    flags object: numba's flags hash by their option names alone and compare by building two
    dicts of every option, which made each memo lookup cost more than a third of what it
    saved. The flags object is held with its key, so that its id names no other meanwhile."""
    if flags is None:
        return None
    known = _FLAG_KEYS.get(id(flags))
    if known is not None and known[0] is flags:
        return known[1]
    key = tuple(sorted((name, repr(value)) for name, value in flags.values().items()))
    if len(_FLAG_KEYS) >= FLAG_KEYS_HELD:
        _FLAG_KEYS.clear()
    _FLAG_KEYS[id(flags)] = (flags, key)
    return key


def _patch() -> None:
    """Route `BaseFunction.get_call_type` through the memo (once per process)."""
    if _STATE["patched"] or not supported():
        return
    base = functions.BaseFunction
    resolve = base.get_call_type

    def get_call_type(self: Any, context: Any, args: tuple[Any, ...], kws: dict[str, Any]
                      ) -> Any:
        if (not getattr(_ACTIVE, "depth", 0) or kws or not isinstance(args, tuple)
                or not all(_keyable(a) for a in args)):
            return resolve(self, context, args, kws)
        # the compile's flags too, as numba keys an overload's implementation (a function
        # compiled without the runtime gets implementations compiled without it)
        key = (self, context, args, _flags_key(targetconfig.ConfigStack.top_or_none()))
        known = _MEMO.get(key)
        if known is None:
            sig = resolve(self, context, args, kws)  # raises where nothing matches
            impl_keys = getattr(self, "_impl_keys", None)
            if sig is None or impl_keys is None or sig.args not in impl_keys:
                return sig
            _MEMO[key] = (sig, impl_keys[sig.args])
            return sig
        sig, impl_key = known
        _STATE["hits"] += 1
        self._impl_keys[sig.args] = impl_key  # what numba's resolution records each time
        return sig

    base.get_call_type = get_call_type
    _STATE["patched"] = True


def install(dispatcher: Any) -> None:
    """Make `dispatcher`'s compiles type repeated scalar operations from the memo."""
    if not supported():
        return
    _patch()
    compile_ = dispatcher.compile

    def compile(sig: Any) -> Any:  # noqa: A001 - numba's name
        _ACTIVE.depth = getattr(_ACTIVE, "depth", 0) + 1
        try:
            return compile_(sig)
        finally:
            _ACTIVE.depth -= 1

    dispatcher.compile = compile
