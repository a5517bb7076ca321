"""Callees compiled for linking only: no module optimisation and no machine code of their own.

numba compiles a function that a compiled caller calls as a library of its own: it links the
libraries of the function's callees in, optimises the whole module (LLVM's `-O3` module
passes) and emits its machine code, then caches it. Its caller links that module in again,
optimises it again with its own code and emits machine code for all of it. A callee deep in
the event loop's call tree is so optimised and compiled to machine code once for every
function above it: on a cold novus shot (one process) 123 libraries did that work for the
event loop, which alone runs their code.

Here a core function compiled while another core function is being compiled (its caller's
typing asked for it), or inside `for_linking()` (the cold start's helper process,
`parallel_compile`), is finalised for linking only: its callees are linked in, its functions
keep numba's function-level passes, and the module is neither optimised as a whole nor turned
into machine code. The caller that links it optimises the linked module once, as a compiler
optimises one translation unit, and emits the only machine code. Its cache entry is its
bitcode (numba's `bitcode` kind), loaded the same way (`load_bitcode`). A cold novus shot in
one process: 20.8 -> 15.3 s; the event loop runs as fast (1.00-1.02x on the breaks, the novus
opening and boxes of 128-1,024 pieces); every result is bit for bit the same (the fingerprint
test), since LLVM's optimisations keep floating-point results without fast-math flags.

Nor does it get numba's CPython wrapper (the code that unboxes a Python call's arguments,
which no caller's machine code runs; `_no_wrapper_when_linking`): lowering the wrappers and
optimising their functions took a cold novus shot in one process from 17.3 to 19.4-19.7 s;
every result is bit for bit the same without them (the fingerprint test).

Such a signature's entry point is a `LinkOnlyEntry` (a key for its callers' lowering; numba
keys a compiled callee by its entry point). When Python calls it (a test calling a helper, a
function both called and called from Python), `materialize` adds its CPython wrapper,
optimises it, emits its machine code and caches that (numba's `object` kind) in place of the
bitcode.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from typing import Any

from llvmlite import binding as ll

ENV_PREFIX = "_ZN08NumbaEnv"  # the names of numba's environment globals
LINK_ONLY = "_cuesim_link_only"  # set on a library finalised for linking only (its module
# passes still to run)

_local = threading.local()  # .stack: the core functions being compiled; .linking: depth
_STATE: dict[str, Any] = {"made": 0}  # link-only libraries made in this process


class LinkOnlyEntry:
    """Stands in for the entry point of a signature compiled for linking only."""

    __slots__ = ("name", "__weakref__")

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"<link-only {self.name}>"


def _stack() -> list[Any]:
    stack = getattr(_local, "stack", None)
    if stack is None:
        stack = _local.stack = []
    return stack


@contextmanager
def for_linking() -> Iterator[None]:
    """Core functions compiled from Python inside the block are compiled for linking only
    (the cold start's helper: its roots are only ever linked into the parent's loop)."""
    _local.linking = getattr(_local, "linking", 0) + 1
    try:
        yield
    finally:
        _local.linking -= 1


# what this module uses of numba's code library (numba 0.59-0.68); a numba without one of
# them keeps its own compile
LIBRARY_METHODS = ("_optimize_final_module", "_finalize_final_module", "_get_module_for_linking",
                   "serialize_using_bitcode", "enable_object_caching", "_raise_if_finalized")


def supported() -> bool:
    """Does this numba have what a link-only compile uses?"""
    if "supported" not in _STATE:
        try:
            from numba.core import compiler
            from numba.core.codegen import CPUCodeLibrary
            from numba.core.environment import lookup_environment  # noqa: F401
        except ImportError:  # pragma: no cover - another numba
            _STATE["supported"] = False
        else:
            _STATE["supported"] = (all(hasattr(CPUCodeLibrary, m) for m in LIBRARY_METHODS)
                                   and hasattr(compiler, "_make_subtarget"))
    return bool(_STATE["supported"])


def install(dispatcher: Any) -> None:
    """Route `dispatcher`'s compiles through this module (its `compile` and `add_overload`);
    nothing on a numba without what it uses (`supported`)."""
    if not supported() or not hasattr(type(dispatcher), "add_overload"):
        return
    compile_ = type(dispatcher).compile
    add_overload = type(dispatcher).add_overload

    def compile(sig: Any) -> Any:  # noqa: A001 - numba's name
        hook_context(dispatcher.targetctx)
        stack = _stack()
        stack.append(dispatcher.py_func)
        try:
            entry = compile_(dispatcher, sig)
        finally:
            stack.pop()
        if isinstance(entry, LinkOnlyEntry) and not stack and not getattr(_local, "linking", 0):
            entry = materialize(dispatcher, sig)  # Python calls it: it needs machine code
        return entry

    def add_overload_(cres: Any) -> None:
        if isinstance(cres.entry_point, LinkOnlyEntry):  # nothing Python could call
            dispatcher.overloads[tuple(cres.signature.args)] = cres
            return
        add_overload(dispatcher, cres)

    dispatcher.compile = compile
    dispatcher.add_overload = add_overload_
    _no_wrapper_when_linking(dispatcher)


def _no_wrapper_when_linking(dispatcher: Any) -> None:
    """Compile `dispatcher`'s link-only signatures without numba's CPython wrapper (the code
    that unboxes Python arguments, which only a Python call runs): `materialize` adds it if
    Python ever calls the signature. Only for functions compiled without the numba runtime
    (`njit_norc`, nearly all of the core): with it, the wrapper boxes a returned array with its
    dtype, a constant it adds to the function's environment, and a cached caller saved that
    environment without it (loaded first, its copy is the one a later load finds: "'descr' is
    NULL")."""
    compiler = getattr(dispatcher, "_compiler", None)
    customize = getattr(compiler, "_customize_flags", None)
    if customize is None:
        return

    def customize_flags(flags: Any) -> Any:
        flags = customize(flags)
        stack = _stack()
        if not flags.nrt and stack and stack[-1] is dispatcher.py_func and (
                len(stack) >= 2 or getattr(_local, "linking", 0) > 0):
            flags.no_cpython_wrapper = True
        return flags

    compiler._customize_flags = customize_flags


def hook_context(context: Any) -> None:
    """Install `_get_executable` on numba's CPU target context and a guarded `set_env` on its
    code generator (once)."""
    if "get_executable" in vars(context):
        return
    codegen = context.codegen()
    codegen.set_env = partial(_set_env, codegen, type(codegen).set_env)
    context.get_executable = partial(_get_executable, context, type(context).get_executable)


def _set_env(codegen: Any, set_env: Callable[..., None], name: str, env: Any) -> None:
    """numba's `set_env`, skipped for an environment no machine code has: numba writes its
    address through the engine's global of that name, which a link-only library never adds
    (the address would be 0). Its callers' machine code gets it (`_set_linked_envs`)."""
    if codegen._engine.get_global_value_address(name):
        set_env(codegen, name, env)


def _compiling_for_linking(fndesc: Any) -> bool:
    """Is numba lowering a core function that a core caller is compiling, or one compiled
    inside `for_linking`? (numba's own helpers lowered meanwhile are not.)"""
    stack = _stack()
    if not stack:
        return False
    func = stack[-1]
    if fndesc.qualname != func.__qualname__ or fndesc.modname != func.__module__:
        return False
    return len(stack) >= 2 or getattr(_local, "linking", 0) > 0


def _get_executable(context: Any, get_executable: Callable[..., Any], library: Any,
                    fndesc: Any, env: Any) -> Any:
    """numba's `get_executable` (machine code and its entry point), or a LinkOnlyEntry for a
    library finalised for linking only."""
    if getattr(library, LINK_ONLY, False):
        return LinkOnlyEntry(fndesc.qualname)
    if not library._finalized and _compiling_for_linking(fndesc):
        _mark(library)
        return LinkOnlyEntry(fndesc.qualname)
    cfunc = get_executable(context, library, fndesc, env)
    if _STATE["made"]:
        _set_linked_envs(library)
    return cfunc


def _mark(library: Any) -> None:
    """Make `library` link-only: its finalize links and verifies only, its cache entry is its
    bitcode."""
    setattr(library, LINK_ONLY, True)
    library.finalize = partial(_finalize_for_linking, library)
    library.serialize_using_object_code = library.serialize_using_bitcode
    _STATE["made"] += 1


def _finalize_for_linking(library: Any) -> None:
    """numba's `CPUCodeLibrary.finalize` without the module passes and the machine code."""
    library._raise_if_finalized()
    # what the linked libraries run when loaded from the cache, which the caller then runs for
    # them (numba's finalize gathers it where numba keeps it: 0.68 does, 0.59 did not)
    reload_init = getattr(library, "_reload_init", None)
    seen = set()
    for linked in library._linking_libraries:
        if linked not in seen:
            seen.add(linked)
            if reload_init is not None:
                reload_init.update(linked._reload_init)
            library._final_module.link_in(linked._get_module_for_linking(), preserve=True)
    library._final_module.verify()
    library._finalized = True


def _set_linked_envs(library: Any) -> None:
    """Point the environment globals of the functions linked into `library`'s machine code at
    their environments (numba sets a function's own when it makes its machine code, which a
    link-only library never has)."""
    from numba.core.environment import lookup_environment

    codegen = library.codegen
    for gv in library._final_module.global_variables:
        if gv.name.startswith(ENV_PREFIX):
            env = lookup_environment(gv.name)
            if env is not None:
                codegen.set_env(gv.name, env)


def materialize(dispatcher: Any, sig: Any) -> Any:
    """Give the link-only signature `sig` of `dispatcher` its CPython wrapper (numba's, as its
    compile would have made it: CPU calls need no call helper), its module passes, its machine
    code and its entry point, for Python to call; cache it so."""
    from numba.core import sigutils

    args, _ = sigutils.normalize_signature(sig)
    cres = dispatcher.overloads[tuple(args)]
    library = cres.library
    for name in ("finalize", "serialize_using_object_code"):
        vars(library).pop(name, None)
    setattr(library, LINK_ONLY, False)
    context = dispatcher.targetctx
    try:
        library._final_module.get_function(cres.fndesc.llvm_cpython_wrapper_name)
    except NameError:  # compiled for linking without it (`_no_wrapper_when_linking`)
        _add_python_wrapper(dispatcher, library, cres)
    library._optimize_final_module()  # the module passes a link-only library skipped
    library._shared_module = None  # its module for linking: the optimised one, as numba's
    library.enable_object_caching()
    library._finalize_final_module()
    cfunc = _get_executable(context, type(context).get_executable, library, cres.fndesc,
                            cres.environment)
    made = cres._replace(entry_point=cfunc)
    context.insert_user_function(cfunc, made.fndesc, [library])
    type(dispatcher).add_overload(dispatcher, made)
    dispatcher._cache.save_overload(sig, made)  # under the key of the compile's `sig`
    return cfunc


def _add_python_wrapper(dispatcher: Any, library: Any, cres: Any) -> None:
    """Lower numba's CPython wrapper of `cres` into its (link-only) library as numba's compile
    would have: in the target context its flags make (the runtime on or off: the wrapper
    boxes a returned array through it), with the function's environment, the CPU calling
    convention's call helper (none) and its `nogil` release of the GIL."""
    from numba.core import compiler

    flags = compiler.Flags()
    dispatcher.targetdescr.options.parse_as_flags(flags, dispatcher.targetoptions)
    # the lowering registries, as a compile installs them first (numba 0.59 installs them
    # lazily: in a process that has compiled nothing, boxing a returned tuple found no int32
    # constant); idempotent
    dispatcher.targetctx.refresh()
    context = compiler._make_subtarget(dispatcher.targetctx, flags).subtarget(
        environment=cres.environment, fndesc=cres.fndesc)
    library._finalized = False
    with context.push_code_library(library):
        context.create_cpython_wrapper(library, cres.fndesc, cres.environment, None,
                                       release_gil=flags.release_gil)


def load_bitcode(codegen: Any, name: str, bitcode: bytes) -> Any:
    """A library from a link-only cache entry: its module parsed for linking, no machine code
    (numba's own load of a `bitcode` entry would emit it)."""
    library = codegen.create_library(name)
    library.enable_object_caching()
    library._final_module = ll.parse_bitcode(bitcode)
    library._finalized = True
    _mark(library)
    return library
