"""A cold start's helper process (`cuesim.sim.parallel_compile`): its declared signatures are
the ones the event loop calls, a root it compiles is loaded from the shared cache instead of
compiled again, and whatever goes wrong with it the caller compiles the code itself."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from numba import types
from numba.core import compiler
from numba.core.compiler_machinery import PassManager
from numba.core.registry import cpu_target
from numba.core.typed_passes import NopythonTypeInference

from cuesim.sim import parallel_compile as pc
from cuesim.sim import parallel_compile_helper


def _dispatcher(module: str, name: str) -> Any:
    return getattr(importlib.import_module(module), name)


class _TypeOnly(compiler.CompilerBase):
    """numba's nopython pipeline up to and including type inference (no lowering)."""

    def define_pipelines(self) -> list[PassManager]:
        full = compiler.DefaultPassBuilder.define_nopython_pipeline(self.state)
        typing = PassManager("type only")
        for cls, description in full.passes:
            typing.add_pass(cls, description)
            if cls is NopythonTypeInference:
                break
        typing.finalize()
        return [typing]


# the core functions through which the loop calls a root that lies inside them: typed too,
# with the argument types the loop passes them
ROOT_CALLERS = (("cuesim.sim.resolve.impact", "resolve_impact"),)


def _type_only(dispatcher: Any, signature: tuple[Any, ...]) -> None:
    """Type `dispatcher` for `signature` (its callees load from the cache or compile)."""
    flags, made = compiler.Flags(), dispatcher._compiler
    made.targetdescr.options.parse_as_flags(flags, made.targetoptions)
    cpu_target.target_context.refresh()
    with pytest.raises(AttributeError):  # typed; no compile result, as nothing was lowered
        compiler.compile_extra(cpu_target.typing_context, cpu_target.target_context,
                               dispatcher.py_func, signature, None, flags, {},
                               pipeline_class=_TypeOnly)


def test_the_declared_signatures_are_those_the_event_loop_calls(monkeypatch):
    """Type the loop for its declared argument types (its callees load from the cache or
    compile), then each of ROOT_CALLERS for the types the loop passes it, and record the
    argument types each helper root is called with: exactly the declared ones, so a helper
    compiles what the loop asks for. Nested roots (inside resolve_impact) are reached only
    when the parent compiles their caller, which the second typing stands for."""
    seen: dict[tuple[str, str], set[tuple[Any, ...]]] = {}
    for module, name in [(m, n) for m, n, _ in pc.HELPER_ROOTS] + list(ROOT_CALLERS):
        dispatcher = _dispatcher(module, name)
        resolve = dispatcher.get_call_template

        def record(args, kws, resolve=resolve, key=(module, name)):
            seen.setdefault(key, set()).add(tuple(types.unliteral(a) for a in args))
            return resolve(args, kws)

        monkeypatch.setattr(dispatcher, "get_call_template", record)
    _type_only(_dispatcher(*pc.LOOP[:2]), pc.signature(pc.LOOP[2]))
    for key in ROOT_CALLERS:
        assert len(seen.get(key, ())) == 1, key  # the loop calls it, with one signature
        _type_only(_dispatcher(*key), next(iter(seen[key])))
    for module, name, codes in pc.HELPER_ROOTS:
        assert seen.get((module, name)) == {pc.signature(codes)}, (module, name)


def test_the_starters_declared_types_are_those_a_shot_passes():
    """engine.run_input calls the loop, and on GRID_MIN_N pieces or more auto_grid first, with
    the declared argument types (P read-only), so a cold first shot starts the helper."""
    import math

    import numpy as np

    import cuesim
    from cuesim.sim.detect.grid import GRID_MIN_N
    from cuesim.sim.engine import run_motion
    from cuesim.tables.box import box_for, random_box_layout, random_box_motion

    table = cuesim.novus_table()
    cuesim.simulate(table, cuesim.novus_doubles_layout(table),
                    cuesim.NovusShot(x=0.5, angle=math.pi / 2, speed=6.0))
    box = box_for(GRID_MIN_N, "puck")  # enough pieces for the grid
    rng = np.random.default_rng(3)
    layout = random_box_layout(box, GRID_MIN_N, rng)
    run_motion(box, layout, random_box_motion(layout, rng, 0.5, ball=False))
    for module, name, codes in pc.STARTERS:
        assert pc.signature(codes) in _dispatcher(module, name).signatures, name


# a cold process (its own empty cache): rail_time stands for the loop, face_time, one of its
# callees, for the helper's root; prints what it got and where face_time came from
COLD = textwrap.dedent(
    """
    import json, sys
    import cuesim
    from cuesim.sim import parallel_compile as pc
    from cuesim.sim.detect import rails
    from cuesim.sim.engine import table_arrays
    pc._available_cpus = lambda: 2  # as on the 2-core machines this runs on
    pc.STARTERS = (("cuesim.sim.detect.rails", "rail_time", "f8 f8 f8 f8 f8 f8 f8 f8 f8 F2 b"),)
    pc.HELPER_ROOTS = (("cuesim.sim.detect.rails", "face_time", sys.argv[1]),)
    walls = table_arrays(cuesim.novus_table()).rails
    got = rails.rail_time(0.5, 0.5, 2.0, 0.3, -0.2, -0.03, 0.015, 1.0, 3.0, walls, False)
    helper = pc._STATE["helper"]
    libraries = [c.library for c in rails.face_time.overloads.values()]
    print(json.dumps({
        "linked_lazily": [getattr(lib, "_cuesim_link_only", False)  # the helper cached bitcode
                          and not lib._compiled  # and none made machine code of it here
                          for lib in libraries],
        "got": list(got), "helper": helper is not None,
        "status": None if helper is None else helper.process.wait(),
        "hits": sum(rails.face_time.stats.cache_hits.values()),
        "balance": pc.balance(),
    }))
    """
)


def _cold(tmp_path, face_codes: str, cwd: Path | None = None, **env: str) -> dict[str, Any]:
    """COLD in a fresh process; with `cwd`, run as a script file from its own folder (that
    folder first on the process's path, as a console script's is), in `cwd`."""
    environ = {k: v for k, v in os.environ.items() if k != pc.SWITCH}
    environ.update(NUMBA_CACHE_DIR=str(tmp_path / "cache"), **env)
    code = ["-c", COLD]
    if cwd is not None:
        script = tmp_path / "script" / "cold.py"
        script.parent.mkdir()
        script.write_text(COLD, encoding="utf-8")
        code = [str(script)]
    done = subprocess.run([sys.executable, "-W", "always::ResourceWarning", *code, face_codes],
                          env=environ, cwd=cwd or tmp_path, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    assert "ResourceWarning" not in done.stderr  # the helper's pipe is closed
    return json.loads(done.stdout.splitlines()[-1])


def _expected() -> list[Any]:
    import cuesim
    from cuesim.sim.detect import rails
    from cuesim.sim.engine import table_arrays

    walls = table_arrays(cuesim.novus_table()).rails
    return list(rails.rail_time(0.5, 0.5, 2.0, 0.3, -0.2, -0.03, 0.015, 1.0, 3.0, walls, False))


@pytest.fixture(scope="module")
def expected() -> list[Any]:
    return _expected()


def test_a_root_the_helper_compiled_is_loaded_not_compiled_again(tmp_path, expected):
    """A cold process compiling the stand-in loop starts the helper; the root comes from the
    shared cache (a cache hit in this process) and the result is the same. The helper
    compiled the root for linking only (its bitcode cached, `sim.link_only`), and this process
    linked it into the loop without making machine code of it."""
    out = _cold(tmp_path, "f8 f8 f8 b f8")
    assert out["helper"] and out["status"] == 0
    assert out["hits"] == 1
    assert out["linked_lazily"] == [True]
    assert out["got"] == expected
    # the balance `cuesim bench` prints: when the helper reported the root, this process's wait
    balance = out["balance"]
    assert list(balance["reported_s"]) == ["face_time"] == list(balance["waited_s"])
    assert 0.0 < balance["reported_s"]["face_time"] < 600.0
    assert balance["waited_total_s"] == balance["waited_s"]["face_time"] >= 0.0


def test_no_balance_without_a_helper(monkeypatch):
    monkeypatch.setitem(pc._STATE, "helper", None)
    assert pc.balance() is None


def test_the_helper_imports_the_callers_cuesim_not_a_folder_where_it_runs(tmp_path, expected):
    """Run from a folder holding another `cuesim` package (as `pip install .` and then `cuesim`
    at the repository's root leaves the source folder `cuesim/`, without `sim`, ahead of the
    installed package: the helper failed and the README's first command compiled in one
    process), the helper still imports the core the caller runs (`helper_environment`, `-P`)
    and compiles the root."""
    decoy = tmp_path / "decoy"
    (decoy / "cuesim" / "sim").mkdir(parents=True)
    (decoy / "cuesim" / "__init__.py").write_text("", encoding="utf-8")
    (decoy / "cuesim" / "sim" / "__init__.py").write_text("", encoding="utf-8")
    out = _cold(tmp_path, "f8 f8 f8 b f8", cwd=decoy)
    assert out["helper"] and out["status"] == 0 and out["hits"] == 1
    assert out["got"] == expected


def test_a_failing_helper_leaves_the_compile_to_the_caller(tmp_path, expected):
    """A root the helper cannot compile (a declaration that matches no function's arguments)
    ends the helper; the caller compiles the root itself, with the same result."""
    out = _cold(tmp_path, "f8 f8")
    assert out["helper"] and out["status"] == 1
    assert out["hits"] == 0
    assert out["got"] == expected


def test_the_switch_leaves_the_compile_in_one_process(tmp_path, expected):
    out = _cold(tmp_path, "f8 f8 f8 b f8", **{pc.SWITCH: "0"})
    assert not out["helper"] and out["hits"] == 0
    assert out["got"] == expected


def test_no_helper_for_other_functions_other_types_or_one_cpu(monkeypatch):
    """Only the starters (the loop, auto_grid), with their declared types, on two CPUs or
    more, outside a frozen application, start the helper, once."""
    started = []

    class Started:
        pending: set[tuple[str, str]] = set()

        def __init__(self, roots: tuple[tuple[str, str, str], ...]) -> None:
            started.append(roots)

        def stop(self) -> None:
            pass

    monkeypatch.setattr(pc, "Helper", Started)
    monkeypatch.setitem(pc._STATE, "helper", None)
    monkeypatch.delenv(pc.SWITCH, raising=False)
    loop = _dispatcher(*pc.LOOP[:2]).py_func
    sig = pc.signature(pc.LOOP[2])
    monkeypatch.setattr(pc, "_available_cpus", lambda: 1)
    pc.on_cache_miss(loop, sig)
    monkeypatch.setattr(pc, "_available_cpus", lambda: 2)
    pc.on_cache_miss(_dispatcher(*pc.HELPER_ROOTS[0][:2]).py_func, sig)
    pc.on_cache_miss(loop, sig[:-1] + (types.float64,))
    monkeypatch.setattr(sys, "frozen", True, raising=False)  # a frozen application
    pc.on_cache_miss(loop, sig)
    monkeypatch.delattr(sys, "frozen")
    assert started == []
    pc.on_cache_miss(loop, sig)
    assert started == [pc.HELPER_ROOTS]
    monkeypatch.setitem(pc._STATE, "helper", None)
    module, name, codes = pc.STARTERS[1]
    pc.on_cache_miss(_dispatcher(module, name).py_func, pc.signature(codes))
    pc.on_cache_miss(loop, sig)  # one helper in a process
    assert started == [pc.HELPER_ROOTS] * 2


def test_the_helper_compiles_nothing_for_another_copy_or_changed_sources(tmp_path):
    from cuesim.sim.numba_cache import source_digest

    here = Path(pc.__file__).resolve().parent
    root = "cuesim.sim.roots:poly:F1 f8"
    assert parallel_compile_helper.main([str(tmp_path), source_digest(here), root]) == 3
    assert parallel_compile_helper.main([str(here), "0" * 64, root]) == 3
    assert parallel_compile_helper.main([str(here)]) == 3


@pytest.mark.skipif(sys.platform == "win32", reason="the lock is POSIX's flock")
def test_cache_saves_wait_for_the_folders_lock(tmp_path):
    """Two processes saving signatures of one function must not interleave numba's
    read-pick-write of its index: a save waits while another holds the folder's lock."""
    import fcntl
    import threading

    from cuesim.sim.compiled import SAVE_LOCK, lock_saves

    saved: list[tuple[str, str]] = []

    class CacheFile:
        _cache_path = str(tmp_path)

        def save(self, key: str, data: str) -> None:
            saved.append((key, data))

    class Cache:
        _cache_file = CacheFile()

    cache = Cache()
    lock_saves(cache)
    with open(tmp_path / SAVE_LOCK, "a") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        saving = threading.Thread(target=cache._cache_file.save, args=("key", "code"))
        saving.start()
        saving.join(0.3)
        assert saving.is_alive() and saved == []  # it cannot go on while the lock is held
    saving.join()
    assert saved == [("key", "code")]
    loop = _dispatcher(*pc.LOOP[:2])
    assert loop._cache._function_cache()._cache_file.save.__name__ == "locked_save"


def test_a_compile_is_announced_once_at_a_terminal_and_never_into_a_pipe(monkeypatch, capsys):
    """The first run compiles for 15-25 s (minutes on a busy machine) before any window or
    result: it said nothing, and looked hung. At a terminal it now says so, once; into a pipe
    or a log (and so in these tests and CI) nothing changes."""
    import io

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setitem(pc._NOTICE, "said", False)
    pc.notice_compiling()  # stderr captured: no terminal
    assert capsys.readouterr().err == ""
    term = Terminal()
    monkeypatch.setattr(sys, "stderr", term)
    pc.notice_compiling()
    pc.notice_compiling()
    assert term.getvalue() == pc.COMPILE_NOTICE + "\n"
