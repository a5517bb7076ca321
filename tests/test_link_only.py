"""Callees compiled for linking only (`cuesim.sim.link_only`, issue 16's cold start): a core
function compiled while its core caller compiles gets no machine code of its own and caches its
bitcode; its caller's machine code gives the same results; called from Python later, it gets
its machine code then, cached in place of the bitcode."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from typing import Any

import numba
import pytest

from cuesim.sim import link_only

# A fresh process on the empty cache it is given: rail_time stands for the event loop,
# face_time (which rail_time calls) for one of its callees. argv[1]: "caller" calls rail_time
# only, "callee" calls face_time from Python afterwards. Prints what the calls gave, how
# face_time's signature is held and how each function is cached.
STAND_IN = textwrap.dedent(
    """
    import json, sys
    import cuesim
    from cuesim.sim.detect import rails
    from cuesim.sim.engine import table_arrays
    walls = table_arrays(cuesim.novus_table()).rails
    def held(dispatcher):  # each signature's entry point, whether it is link-only, and
        # whether its library holds numba's CPython wrapper (what a Python call runs)
        def wrapped(c):
            try:
                c.library._final_module.get_function(c.fndesc.llvm_cpython_wrapper_name)
            except NameError:
                return False
            return True
        return sorted([type(c.entry_point).__name__,
                       getattr(c.library, "_cuesim_link_only", False), wrapped(c)]
                      for c in dispatcher.overloads.values())
    def cached(dispatcher):  # the kind of each cache entry: 'object' or 'bitcode'
        cache_file = dispatcher._cache._cache_file
        return sorted(cache_file._load_data(name)[0][1]
                      for name in cache_file._load_index().values())
    out = {"caller": list(rails.rail_time(0.5, 0.5, 2.0, 0.3, -0.2, -0.03, 0.015, 1.0, 3.0,
                                          walls, False))}
    out["held"] = held(rails.face_time)
    if sys.argv[1] == "callee":
        out["callee"] = [rails.face_time(-0.2, -1.5, 0.3, True, 1.0),
                         rails.face_time(0.4, -1.5, 0.3, False, 1.0)]
        out["held_after"] = held(rails.face_time)
        out["hits"] = sum(rails.face_time.stats.cache_hits.values())
    out["cached"] = {"rail_time": cached(rails.rail_time), "face_time": cached(rails.face_time)}
    print(json.dumps(out))
    """
)


def _run(cache: Any, mode: str) -> dict[str, Any]:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "CUESIM_COMPILE_HELPER": "0"}
    done = subprocess.run([sys.executable, "-c", STAND_IN, mode], env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def _expected() -> dict[str, Any]:
    import cuesim
    from cuesim.sim.detect import rails
    from cuesim.sim.engine import table_arrays

    walls = table_arrays(cuesim.novus_table()).rails
    f = rails.face_time.py_func
    return {"caller": list(rails.rail_time(0.5, 0.5, 2.0, 0.3, -0.2, -0.03, 0.015, 1.0, 3.0,
                                           walls, False)),
            "callee": [f(-0.2, -1.5, 0.3, True, 1.0), f(0.4, -1.5, 0.3, False, 1.0)]}


@pytest.fixture(scope="module")
def expected() -> dict[str, Any]:
    return _expected()


def test_a_callee_compiled_with_its_caller_gets_no_machine_code_and_caches_bitcode(
        tmp_path, expected):
    """A cold process: the caller is machine code (cached as an object), the callee it
    compiled is linked into it only (a LinkOnlyEntry, no machine code, no CPython wrapper, its
    bitcode cached); the caller's result is this process's. A second process loads the
    caller's machine code and compiles nothing; it never even loads the callee."""
    cold = _run(tmp_path, "caller")
    assert cold["caller"] == expected["caller"]
    assert cold["held"] == [["LinkOnlyEntry", True, False]]
    assert cold["cached"] == {"rail_time": ["object"], "face_time": ["bitcode"]}
    warm = _run(tmp_path, "caller")
    assert warm["caller"] == expected["caller"] and warm["cached"] == cold["cached"]
    assert warm["held"] == []  # the caller's machine code has it: not even loaded


def test_python_calling_a_link_only_callee_gives_it_machine_code_and_caches_it(
        tmp_path, expected):
    """Called from Python, the link-only callee gets the CPython wrapper it was compiled
    without, is optimised and turned into machine code (`link_only.materialize`), gives the
    plain Python function's results, and its cache entry becomes machine code: the next
    process loads it so, and from the cache too when the callee was cached as bitcode by an
    earlier process."""
    out = _run(tmp_path, "callee")
    assert out["caller"] == expected["caller"]
    assert out["callee"] == expected["callee"]
    assert out["held_after"] == [["builtin_function_or_method", False, True]]  # machine code
    assert out["cached"]["face_time"] == ["object"]
    again = _run(tmp_path, "callee")  # loaded, machine code, from the cache
    assert again["hits"] == 1  # machine code loaded (the object file: no module to look in)
    assert again["held_after"] == [["builtin_function_or_method", False, False]]
    assert again["callee"] == expected["callee"] and again["cached"] == out["cached"]
    fresh = tmp_path / "second"
    _run(fresh, "caller")  # the callee cached as bitcode
    late = _run(fresh, "callee")  # a later process calls it from Python
    assert late["held"] == [] and late["hits"] == 1  # the bitcode loaded, then compiled
    assert late["callee"] == expected["callee"]
    assert late["cached"]["face_time"] == ["object"]


@pytest.mark.skipif(tuple(int(v) for v in numba.__version__.split(".")[:2]) >= (0, 60),
                    reason="numba 0.59 installs its lowering registries lazily; today's "
                           "numba passes without the fix too (checked on 0.68.1); .ci/floors "
                           "runs it")
def test_python_calling_a_link_only_callee_after_a_cold_batch(tmp_path):
    """A cold batch caches the event loop's callees as bitcode; a later process that has
    compiled nothing calls one from Python, whose CPython wrapper boxes a tuple (an int and two
    floats): the wrapper is lowered with the registries a compile installs (under numba 0.59,
    without them, the boxing found no int32 constant and the call failed)."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    for argv in ([sys.executable, "-m", "cuesim", "batch", "9-ball", "--shots", "4", "--out",
                  str(tmp_path / "b.npz"), "--quiet"],
                 [sys.executable, "-c", "from cuesim.sim.roots import quadratic_roots as f; "
                                        "print(f(1.0, -3.0, 2.0))"]):
        done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=600,
                              cwd=tmp_path)
        assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "(2, 1.0, 2.0)"


def test_the_entry_point_of_a_link_only_signature_names_it():
    entry = link_only.LinkOnlyEntry("face_time")
    assert repr(entry) == "<link-only face_time>"
    assert entry != link_only.LinkOnlyEntry("face_time")  # a key of its own for each


def test_for_linking_nests_and_restores():
    """The helper's block: compiles from Python inside it are for linking; outside, not."""
    assert not getattr(link_only._local, "linking", 0)
    with link_only.for_linking():
        with link_only.for_linking():
            assert link_only._local.linking == 2
        assert link_only._local.linking == 1
    assert link_only._local.linking == 0


def test_set_env_skips_a_global_no_machine_code_has():
    """numba writes an environment's address through the engine's global of its name; one no
    machine code defines (a link-only library's) would be address 0: it is skipped."""
    calls: list[tuple[str, Any]] = []

    class Engine:
        def get_global_value_address(self, name: str) -> int:
            return 4096 if name == "defined" else 0

    class Codegen:
        _engine = Engine()

    def set_env(codegen: Any, name: str, env: Any) -> None:
        calls.append((name, env))

    link_only._set_env(Codegen(), set_env, "missing", "env-a")
    link_only._set_env(Codegen(), set_env, "defined", "env-b")
    assert calls == [("defined", "env-b")]


def test_a_numba_without_what_it_uses_keeps_its_own_compile(monkeypatch):
    """On a numba lacking a code-library method this module uses, `install` leaves the
    dispatcher as numba made it; on this one it routes its compiles."""
    from numba import njit

    def twice(x):
        return 2.0 * x

    monkeypatch.setitem(link_only._STATE, "supported", False)
    plain = njit(twice)
    link_only.install(plain)
    assert "compile" not in vars(plain) and "add_overload" not in vars(plain)
    monkeypatch.setitem(link_only._STATE, "supported", True)
    routed = njit(twice)
    link_only.install(routed)
    assert "compile" in vars(routed) and "add_overload" in vars(routed)
    assert routed(1.5) == 3.0  # compiled from Python: machine code, as numba's own


def test_this_numba_is_supported(monkeypatch):
    monkeypatch.delitem(link_only._STATE, "supported", raising=False)
    assert link_only.supported()


# A module of its own (numba caches only functions defined in a file): a core caller, a
# callee compiled with the numba runtime that returns an array (its CPython wrapper boxes it
# with a constant of the function's environment), and one without the runtime that raises.
STAND_IN_MODULE = textwrap.dedent(
    """
    import json, sys
    import numpy as np
    from cuesim.sim.compiled import njit_core, njit_norc

    @njit_core(nogil=True)
    def halves(n):
        g = np.empty(n)
        for i in range(n):
            g[i] = 0.5 * i
        return g

    @njit_norc
    def checked(g, n):
        if n > g.shape[0]:
            raise ValueError("n beyond the array")
        return g[n - 1] + 1.0, n

    @njit_core
    def caller(n):
        g = halves(n)
        return checked(g, n)[0]

    def entries(dispatcher):
        return sorted(type(c.entry_point).__name__ for c in dispatcher.overloads.values())

    out = {"caller": caller(3)}
    if sys.argv[1] == "callee":
        g = halves(4)
        out["halves"] = g.tolist()
        out["checked"] = list(checked(g, 4))
        try:
            checked(g, 9)
        except ValueError as error:
            out["raised"] = str(error)
    out["held"] = {"halves": entries(halves), "checked": entries(checked)}
    print(json.dumps(out))
    """
)


def test_link_only_callees_called_from_python_later_box_and_raise_as_numba_does(tmp_path):
    """A core caller compiles both callees for linking; a later process calls them from
    Python: the runtime's callee returns its array (boxed with its dtype, from the cache of
    the callee and of the caller that linked it), the other returns its tuple and raises its
    exception, in that process and from the cache in the next."""
    (tmp_path / "stand_in_module.py").write_text(STAND_IN_MODULE)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"),
           "CUESIM_COMPILE_HELPER": "0"}

    def run(mode: str) -> dict[str, Any]:
        done = subprocess.run([sys.executable, str(tmp_path / "stand_in_module.py"), mode],
                              env=env, capture_output=True, text=True, timeout=600,
                              cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout.strip().splitlines()[-1])

    cold = run("caller")
    assert cold == {"caller": 2.0, "held": {"halves": ["LinkOnlyEntry"],
                                            "checked": ["LinkOnlyEntry"]}}
    for _ in range(2):  # materialised from the bitcode, then loaded as machine code
        late = run("callee")
        assert late["caller"] == 2.0 and late["halves"] == [0.0, 0.5, 1.0, 1.5]
        assert late["checked"] == [2.5, 4] and late["raised"] == "n beyond the array"
        assert late["held"] == {"halves": ["builtin_function_or_method"],
                                "checked": ["builtin_function_or_method"]}
