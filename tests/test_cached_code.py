"""Loading cached machine code without its bitcode (`cuesim.sim.cached_code`): the symbol
names come from the object file's own table, and anything that is not a 64-bit little-endian
ELF object is left to numba's own load. The loads themselves are checked in
tests/test_numba_cache.py (every cached function, in a fresh process) and
tests/test_parallel_compile.py (a root loaded this way, then linked into a caller)."""

from __future__ import annotations

import pytest

from cuesim.sim.cached_code import object_symbols
from cuesim.sim.loop import run_events_grid


def _loop_object() -> bytes:
    import math

    import cuesim

    table = cuesim.novus_table()
    cuesim.simulate(table, cuesim.novus_doubles_layout(table),
                    cuesim.NovusShot(x=0.5, angle=math.pi / 2, speed=6.0))
    files = run_events_grid._cache._cache_file  # numba's cache: (library state, fndesc, ...)
    states = [files.load(key)[0] for key in files._load_index()]
    return next(data[0] for _, kind, data in states if kind == "object")


def test_the_loops_object_names_its_entry_point_and_environment():
    obj = _loop_object()
    if obj[:4] != b"\x7fELF":
        pytest.skip("not an ELF platform: numba's own load")
    names = object_symbols(obj)
    assert names is not None
    wrapper = next(iter(run_events_grid.overloads.values())).fndesc.llvm_cpython_wrapper_name
    assert wrapper in names
    assert any(name.startswith("_ZN08NumbaEnv") for name in names)


@pytest.mark.parametrize("data", [b"", b"MZ" + bytes(100), b"\x7fELF\x01\x01" + bytes(100),
                                  b"\x7fELF\x02\x02" + bytes(100)])
def test_anything_but_a_64_bit_little_endian_elf_object_is_left_to_numba(data):
    assert object_symbols(data) is None


def test_a_truncated_object_is_left_to_numba():
    obj = _loop_object()
    if obj[:4] != b"\x7fELF":
        pytest.skip("not an ELF platform")
    assert object_symbols(obj[:200]) is None
    assert object_symbols(obj[:len(obj) // 2]) is None


def test_a_state_of_another_shape_is_left_to_numba():
    """A cache entry whose library state is not numba's (object code, bitcode) pair, as another
    numba might write it, is unserialized by numba's own code, not read here."""
    from cuesim.sim.cached_code import unserialize_library

    class Codegen:
        seen: list[object] = []

        def unserialize_library(self, state: object) -> str:
            self.seen.append(state)
            return "numba's own"

    for state in [("lib", "object", (b"\x7fELF", b"bc", b"more")), ("lib", "bitcode", b"bc"),
                  ("lib", "object", ("not bytes", b"bc"))]:
        codegen = Codegen()
        assert unserialize_library(codegen, state) == "numba's own"
        assert codegen.seen[-1] == state
