"""Loading cached machine code without its bitcode (`cuesim.sim.cached_code`): the symbol
names come from the object file's own table, and anything that is not a 64-bit little-endian
ELF object is left to numba's own load. The loads themselves are checked in
tests/test_numba_cache.py (every cached function, in a fresh process) and
tests/test_parallel_compile.py (a root loaded this way, then linked into a caller)."""

from __future__ import annotations

import pytest

from cuesim.sim.cached_code import object_symbols
from cuesim.sim.loop import run_events_grid


def _loop_object() -> tuple[bytes, str]:
    import math

    import cuesim

    table = cuesim.novus_table()
    cuesim.simulate(table, cuesim.novus_doubles_layout(table),
                    cuesim.NovusShot(x=0.5, angle=math.pi / 2, speed=6.0))
    files = run_events_grid._cache._cache_file  # numba's cache: (library state, fndesc, ...)
    entries = [files.load(key) for key in files._load_index()]
    # the machine code of a signature compiled for Python (one compiled for linking only,
    # under a batch kernel, is bitcode: sim.link_only), and its entry point's name
    return next((entry[0][2][0], entry[1].llvm_cpython_wrapper_name) for entry in entries
                if entry[0][1] == "object")


def test_the_loops_object_names_its_entry_point_and_environment():
    obj, wrapper = _loop_object()
    if obj[:4] != b"\x7fELF":
        pytest.skip("not an ELF platform: numba's own load")
    names = object_symbols(obj)
    assert names is not None
    assert wrapper in names
    assert any(name.startswith("_ZN08NumbaEnv") for name in names)


@pytest.mark.parametrize("data", [b"", b"MZ" + bytes(100), b"\x7fELF\x01\x01" + bytes(100),
                                  b"\x7fELF\x02\x02" + bytes(100)])
def test_anything_but_a_64_bit_little_endian_elf_object_is_left_to_numba(data):
    assert object_symbols(data) is None


def test_a_truncated_object_is_left_to_numba():
    obj, _ = _loop_object()
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
