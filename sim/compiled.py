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
runtime too and refuses ("NRT required but not enabled"), so every test run checks it.
`run_events` (which allocates a shot's work arrays) and the batch kernels use `njit_core`;
the event loop itself (`run_events_grid`) and everything it calls take their work arrays from
the caller (an impact allocated a dozen arrays and counted the references of some 50 at each
collision: 5-20 % of a break's time). Where numba lacks the option, `njit_norc` is `njit_core`.

Both compile no C-callable wrapper (`no_cfunc_wrapper`): numba otherwise builds one for every
compiled signature, for passing the function as a first-class value, which the core never does
(about 4 % of a cold compile). Both cache in the user's cache (`numba_cache.core_cache_dir()`)
whenever their module is imported, and make numba's cache object of a function when it is
first compiled or loaded, not when it is decorated: a fresh process that plays a shot loads
one function (the event loop, its callees compiled into it), and making the cache objects of
all 130 at import was 0.14 ms each, a twentieth of the import.

Loading a cached function starts only the numba runtime (`rtsys.initialize`: the reference
counts and allocations the machine code calls; not even that for code compiled without it,
such as the event loop: 20 ms of a fresh process), not numba's whole target refresh, which
numba's cache runs before every load: it imports and registers every typing and lowering
implementation numba has (linear algebra, random generators, typed containers, cffi and
pycparser), 0.1 s of a fresh process's 0.25 s first shot, all of it for compiling, none for
running machine code already compiled. Nor does it parse the function's LLVM bitcode, which
only a caller compiled later links (`cached_code`: 30-45 ms of the event loop's load). A
compile still refreshes first (numba's compiler does), so a cache miss is compiled as
before. The symbols machine code calls are numba's
runtime, its C helpers and libm's, all registered without the refresh (string hashing's
would not be; the core never hashes): `tests/test_numba_cache.py` loads every cached
signature in a fresh process.

A cold start: a core function compiled because a core caller calls it is compiled for
linking only (`link_only`: no module optimisation, machine code or CPython wrapper of its own,
its bitcode cached; the caller's machine code holds it), an operation's typing is looked
up once per compile session (`typing_memo`), and when the event loop misses the cache, a
helper process compiles its largest callees into the same cache while this process compiles
the rest (`parallel_compile`; the two hooks are in `load_overload` and the plain-typed calls).
Every save holds a lock on the cache folder (`lock_saves`), so processes compiling at once
never mix up numba's index. While a core function compiles, the cyclic collector runs at
higher thresholds (`collector_eased_compiles`): 1-5 % of a cold compile.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Callable
from functools import partial
from typing import Any

try:  # an exclusive lock around each cache save (POSIX)
    import fcntl
except ImportError:  # pragma: no cover - Windows: numba's own save, unlocked
    fcntl = None  # type: ignore[assignment]

from numba import njit, types
from numba.core.caching import FunctionCache
from numba.core.cpu import CPUTargetOptions

try:  # the numba runtime, started before machine code that calls it is loaded
    from numba.core.runtime import rtsys as _rtsys
except ImportError:  # pragma: no cover - a numba without it: numba's own load
    _rtsys = None

from cuesim.sim import cached_code, link_only, parallel_compile, typing_memo
from cuesim.sim.numba_cache import core_cache_dir

NO_REFCOUNT: dict[str, Any] = {"_nrt": False} if hasattr(CPUTargetOptions, "_nrt") else {}
NO_CFUNC: dict[str, Any] = (
    {"no_cfunc_wrapper": True} if hasattr(CPUTargetOptions, "no_cfunc_wrapper") else {})


def plain_calls(dispatcher: Any) -> Any:
    """Make calls of `dispatcher` from compiled code resolve (and compile) for the plain types
    of their arguments (`numba.types.unliteral`), not one specialisation per literal value.
    Under NUMBA_DISABLE_JIT `njit` returns the plain function, which is left as it is."""
    resolve = getattr(type(dispatcher), "get_call_template", None)
    if resolve is None:
        return dispatcher

    def get_call_template(args: tuple[Any, ...], kws: dict[str, Any]) -> Any:
        parallel_compile.before_resolve(dispatcher.py_func)  # a helper may be compiling it
        return resolve(dispatcher, tuple(types.unliteral(a) for a in args),
                       {k: types.unliteral(v) for k, v in kws.items()})

    dispatcher.get_call_template = get_call_template
    return dispatcher


class CacheAtFirstUse:
    """Stands in for numba's `FunctionCache` of one function (a dispatcher's `_cache`) and
    makes it, in the user's cache folder, the first time numba asks it anything: a lookup
    before the first compile, a save after it, or `stats`."""

    def __init__(self, py_func: Callable[..., Any], nrt: bool = True) -> None:
        self._py_func = py_func
        self._nrt = nrt  # compiled with the runtime: start it before loading
        self._made: Any = None

    def _function_cache(self) -> Any:
        if self._made is None:
            with core_cache_dir(memo=True):  # numba reads its CACHE_DIR setting here
                self._made = FunctionCache(self._py_func)
            lock_saves(self._made)
        return self._made

    def __getattr__(self, name: str) -> Any:
        return getattr(self._function_cache(), name)

    def load_overload(self, sig: Any, target_context: Any) -> Any:
        """numba's `Cache.load_overload` (the compiled function for `sig`, or None), with only
        the runtime started first instead of the target's full refresh, and the library's
        bitcode left unparsed until a link needs it (`cached_code`; module docstring)."""
        made = self._function_cache()
        guard = getattr(made, "_guard_against_spurious_io_errors", None)
        load = getattr(made, "_load_overload", None)
        if _rtsys is None or guard is None or load is None:  # another numba: its own load
            return made.load_overload(sig, target_context)
        if self._nrt:  # code compiled without the runtime calls none of it
            _rtsys.initialize(target_context)
        link_only.hook_context(target_context)  # a link-only entry loads without machine code
        codegen = target_context.codegen()
        before = vars(codegen).get("unserialize_library")  # None: the class's method
        codegen.unserialize_library = partial(cached_code.unserialize_library, codegen)
        try:
            with guard():
                loaded = load(sig, target_context)
                if loaded is None:  # numba compiles it next: a helper may take part of it
                    parallel_compile.on_cache_miss(self._py_func, sig)
                return loaded
        finally:  # the codegen's own method again (numba holds its compiler lock here)
            if before is None:
                vars(codegen).pop("unserialize_library", None)
            else:
                codegen.unserialize_library = before
        return None  # the guard swallowed an error on reading: numba compiles instead


SAVE_LOCK = "cuesim-save.lock"  # in each cache folder


def lock_saves(cache: Any) -> None:
    """Make `cache`'s saves hold an exclusive lock on SAVE_LOCK in its folder. numba's save
    reads the function's index, picks a free data file name for a new signature and writes
    the index back: two processes saving two signatures of one function at once (a cold
    start's helper, `parallel_compile`, beside its parent; batch processes) could each pick
    the same name, and the index could end up naming one signature's file for the other's
    machine code. Nothing when numba's cache file lacks the attributes used."""
    cache_file = getattr(cache, "_cache_file", None)
    save = getattr(cache_file, "save", None)
    folder = getattr(cache_file, "_cache_path", None)
    if fcntl is None or save is None or not isinstance(folder, str):
        return

    def locked_save(key: Any, data: Any) -> None:
        try:
            lock = open(os.path.join(folder, SAVE_LOCK), "a")  # noqa: SIM115 (closed below)
        except OSError:  # no lock file to be had: numba's save, as it fails or succeeds
            save(key, data)
            return
        with lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
            save(key, data)

    cache_file.save = locked_save


# the cyclic collector's thresholds while numba compiles (the defaults are (700, 10, 10)): a
# compile allocates millions of short-lived objects (its IR, types, LLVM wrappers), and at the
# defaults a cold novus first shot ran 1,999, 181 and 15 collections of generations 0, 1 and 2
# (each of the last a walk over numba's whole heap); at these, 19, 1 and 0. Fresh processes on
# empty caches, a copy of the core without this alternating with one with it (2026-12-02):
# with the helper (`parallel_compile`, whose process imports this module too) 10.2-10.6 ->
# 9.8-10.5 s to the first shot, faster in 6 rounds of 6 (1-5 %); in one process 0-3 %; peak
# RSS +7 MB (the collector switched off altogether: no faster, 80-200 MB more).
COMPILE_GC_THRESHOLDS = (100_000, 50, 1_000)
_COMPILING = [0]  # nesting depth of compiles in this process (numba's compiler lock serialises
# them, so one counter does)


def collector_eased_compiles(dispatcher: Any) -> None:
    """Make `dispatcher`'s compiles run with the collector's thresholds at
    COMPILE_GC_THRESHOLDS, and put back what they were when the outermost compile (a callee's
    compile runs inside its caller's) returns. A cache load goes through the same method and
    takes microseconds. Results do not depend on it."""
    compile_ = dispatcher.compile

    def compile(sig: Any) -> Any:  # noqa: A001 - numba's name
        outermost = _COMPILING[0] == 0
        if outermost:
            before = gc.get_threshold()
            gc.set_threshold(*COMPILE_GC_THRESHOLDS)
        _COMPILING[0] += 1
        try:
            return compile_(sig)
        finally:
            _COMPILING[0] -= 1
            if outermost:
                gc.set_threshold(*before)

    dispatcher.compile = compile


def _cached(fn: Callable[..., Any], options: dict[str, Any]) -> Any:
    """`njit(cache=True, no_cfunc_wrapper=True, **options)(fn)` caching in the user's cache,
    its cache object made at first use, with plain-typed calls."""
    dispatcher = njit(**NO_CFUNC, **options)(fn)
    if hasattr(dispatcher, "enable_caching") and hasattr(dispatcher, "_cache"):
        dispatcher._cache = CacheAtFirstUse(fn, nrt=options.get("_nrt", True))
        link_only.install(dispatcher)
        typing_memo.install(dispatcher)
        collector_eased_compiles(dispatcher)
    else:  # NUMBA_DISABLE_JIT (a plain function), or a numba without the attribute
        with core_cache_dir(memo=True):
            dispatcher = njit(cache=True, **NO_CFUNC, **options)(fn)
    return plain_calls(dispatcher)


def njit_core(fn: Callable[..., Any] | None = None, **options: Any) -> Any:
    """`njit(cache=True, **options)` with plain-typed calls (see the module docstring); usable
    as `@njit_core` or `@njit_core(nogil=True)`."""
    if fn is None:
        return lambda f: _cached(f, options)
    return _cached(fn, options)


def njit_norc(fn: Callable[..., Any]) -> Any:
    """`njit_core` without reference counting (see the module docstring)."""
    return _cached(fn, NO_REFCOUNT)
