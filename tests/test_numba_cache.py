"""The compiled-code cache: it lives in the user's cache directory, never in the package, and a
change in any core source clears it (one stamp per installed copy of the core)."""

from __future__ import annotations

import importlib
import json
import os
import pkgutil
import shutil
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest
from numba.core import config
from numba.core.registry import CPUDispatcher

import cuesim.sim
from cuesim.sim import numba_cache
from cuesim.sim.numba_cache import cache_dir, cache_folders, refresh, stamp_path

PACKAGE = Path(cuesim.sim.__file__).resolve().parent


def compiled_files(root: Path) -> dict[Path, int]:
    """Every numba index/code file under `root`, with its modification time."""
    return {p: p.stat().st_mtime_ns for p in root.rglob("*") if p.suffix in (".nbi", ".nbc")}


def test_changed_sources_clear_the_cached_machine_code(tmp_path):
    root, cache = tmp_path / "core", tmp_path / "cache"
    root.mkdir()
    (root / "loop.py").write_text("x = 1\n")
    assert refresh(root, cache) is False  # nothing cached yet, stamp written
    assert stamp_path(root, cache).read_text() == numba_cache.source_digest(root)
    (folder,) = cache_folders(root, cache)
    folder.mkdir(parents=True)
    (folder / "loop.run-1.py311.nbi").write_text("index")
    (folder / "loop.run-1.py311.1.nbc").write_text("code")
    assert refresh(root, cache) is False  # same sources: the cache stays
    assert (folder / "loop.run-1.py311.nbi").exists()
    (root / "loop.py").write_text("x = 2\n")  # a callee changed
    assert refresh(root, cache) is True
    assert not list(folder.glob("*.nb*"))


def test_two_copies_of_the_core_keep_their_own_stamp_and_cache(tmp_path):
    cache = tmp_path / "cache"
    copies = [tmp_path / "checkout-a" / "sim", tmp_path / "checkout-b" / "sim"]
    for i, root in enumerate(copies):
        root.mkdir(parents=True)
        (root / "loop.py").write_text(f"x = {i}\n")
        refresh(root, cache)
    assert stamp_path(copies[0], cache) != stamp_path(copies[1], cache)
    assert cache_folders(copies[0], cache) != cache_folders(copies[1], cache)
    other = cache_folders(copies[1], cache)[0]
    other.mkdir(parents=True)
    (other / "loop.run-1.py311.nbi").write_text("index")
    (copies[0] / "loop.py").write_text("x = 9\n")  # copy a changes: b's cache is not touched
    refresh(copies[0], cache)
    assert refresh(copies[1], cache) is False
    assert (other / "loop.run-1.py311.nbi").exists()


def test_other_files_in_a_shared_cache_directory_survive(tmp_path):
    root, cache = tmp_path / "core", tmp_path / "cache"
    root.mkdir()
    (root / "loop.py").write_text("x = 1\n")
    foreign = cache / "user_project_0123" / "f.run-1.py311.nbi"
    foreign.parent.mkdir(parents=True)
    foreign.write_text("someone else's code")
    refresh(root, cache)
    (root / "loop.py").write_text("x = 2\n")
    refresh(root, cache)
    assert foreign.exists()


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({"XDG_CACHE_HOME": "/xdg"}, Path("/xdg/cuesim/numba")),
        ({"XDG_CACHE_HOME": "relative/dir"}, Path.home() / ".cache/cuesim/numba"),
        ({}, Path.home() / ".cache/cuesim/numba"),
        ({"XDG_CACHE_HOME": "/xdg", "NUMBA_CACHE_DIR": "/explicit"}, Path("/explicit")),
    ],
)
def test_the_cache_directory_follows_xdg_and_numba_cache_dir(monkeypatch, env, expected):
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert cache_dir() == expected


def test_numba_setting_is_restored_after_the_core_is_decorated():
    before = config.CACHE_DIR
    with numba_cache.core_cache_dir() as folder:
        assert config.CACHE_DIR == str(folder)
    assert config.CACHE_DIR == before


def test_every_compiled_core_function_caches_in_the_cache_directory():
    """Also catches a core module imported lazily, after the block in `cuesim.sim`."""
    folder = str(cache_dir())
    dispatchers = 0
    for info in pkgutil.walk_packages(cuesim.sim.__path__, "cuesim.sim."):
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if isinstance(value, CPUDispatcher) and value.__module__ == info.name:
                cache = value._cache  # numba's FunctionCache (NullCache when cache=False)
                path = getattr(getattr(cache, "_cache_path", None), "__str__", lambda: "")()
                assert path.startswith(folder), f"{info.name}.{value.__name__} caches in {path}"
                dispatchers += 1
    assert dispatchers > 20


RUN_A_SHOT = textwrap.dedent(
    """
    import math
    from cuesim import NovusShot, novus_singles_layout, novus_table, simulate
    from cuesim.sim.loop import run_events_grid as run_events
    table = novus_table()
    shot = NovusShot(x=0.5, angle=math.pi / 2, speed=6.0)
    assert simulate(table, novus_singles_layout(table), shot).n_events > 0
    print(run_events.stats.cache_path)
    print(sum(run_events.stats.cache_hits.values()))
    """
)


def seed(cache: Path) -> None:
    """Copy this copy's compiled core (and its stamp) from the user's cache, if there is one,
    so the fresh process loads it instead of compiling for a minute; the cache folders are
    keyed by the source folders only, so the copy is valid in the new place."""
    warm = cache_dir()
    for folder in cache_folders(PACKAGE, warm):
        if folder.is_dir():
            shutil.copytree(folder, cache / folder.name)
    if stamp_path(PACKAGE, warm).exists():
        shutil.copy2(stamp_path(PACKAGE, warm), stamp_path(PACKAGE, cache))


def test_a_shot_writes_compiled_code_only_under_the_user_cache(tmp_path):
    """Import and run a shot in a fresh process with a temporary XDG_CACHE_HOME: the core's
    machine code is found (or written) under XDG_CACHE_HOME/cuesim/numba and nothing new
    appears in the package folder."""
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["XDG_CACHE_HOME"] = str(tmp_path / "xdg")
    cache = tmp_path / "xdg" / "cuesim" / "numba"
    cache.mkdir(parents=True)
    seed(cache)
    seeded = compiled_files(cache)
    before = compiled_files(PACKAGE)
    done = subprocess.run(
        [sys.executable, "-c", RUN_A_SHOT], env=env, cwd=tmp_path, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    path, hits = done.stdout.split()
    assert Path(path).parent == cache
    assert compiled_files(PACKAGE) == before  # nothing written into the package
    written = compiled_files(cache)
    assert any(p.suffix == ".nbi" for p in written) and any(p.suffix == ".nbc" for p in written)
    assert {p.parent for p in written} <= set(cache_folders(PACKAGE, cache))
    assert int(hits) > 0 or written != seeded  # loaded from there, or compiled into there
    assert stamp_path(PACKAGE, cache).exists()


def test_an_unwritable_cache_directory_falls_back_to_the_temporary_folder(tmp_path):
    """Never beside the sources: a read-only XDG cache sends the code to a per-user temp folder."""
    blocked = tmp_path / "file-not-folder"
    blocked.write_text("a file where the cache folder would go")
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["XDG_CACHE_HOME"] = str(blocked)
    probe = "from cuesim.sim.loop import run_events; print(run_events.stats.cache_path)"
    done = subprocess.run([sys.executable, "-c", probe], env=env, cwd=tmp_path,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    path = Path(done.stdout.strip())
    assert path.parent.name.startswith("cuesim-numba-")
    assert path.parent.parent == Path(tempfile.gettempdir())


IMPORT_ONLY = textwrap.dedent(
    """
    import importlib, pkgutil
    from numba.core.registry import CPUDispatcher
    import cuesim, cuesim.sim
    loaded = []
    for info in pkgutil.walk_packages(cuesim.sim.__path__, "cuesim.sim."):
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if isinstance(value, CPUDispatcher) and value.signatures:
                loaded.append(info.name + "." + name)
    print(sorted(set(loaded)))
    """
)


def test_importing_the_package_loads_no_compiled_code(tmp_path):
    """Issue 16 (a fresh process's start): importing cuesim and its core calls no compiled
    function, so no machine code is loaded or compiled before the first shot needs it."""
    done = subprocess.run([sys.executable, "-c", IMPORT_ONLY], cwd=tmp_path,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


LAZY_PARTS = textwrap.dedent(
    """
    import gc, sys
    gc.disable()
    import cuesim
    print(gc.isenabled())
    print(sorted(m for m in ("pymunk", "cuesim.sim.batch_kernel", "cuesim.sim.batch_parallel",
                             "cuesim.sim.pymunk_backend") if m in sys.modules))
    """
)


def test_a_fresh_import_leaves_out_the_batch_kernels_and_pymunk(tmp_path):
    """Issue 16 (a fresh process's start): `import cuesim` does not import the batch kernels
    or the pymunk baseline, which a process playing shots does not need, and leaves the cyclic
    collector as it found it (it pauses it while importing)."""
    done = subprocess.run([sys.executable, "-c", LAZY_PARTS], cwd=tmp_path,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:2] == ["False", "[]"]


IMPORT_GC = textwrap.dedent(
    """
    import gc, json
    import cuesim
    print(json.dumps([gc.isenabled(), gc.get_freeze_count(), len(gc.get_objects(0)),
                      len(gc.get_objects(1)), len(gc.get_objects(2))]))
    """
)


def test_what_the_import_made_is_old_to_the_collector(tmp_path):
    """Issue 16 (a fresh process's start): after `import cuesim` the cyclic collector runs again,
    nothing is left frozen, and the objects the import made sit in the oldest generation, so
    the first collections do not walk them as young ones (cuesim/__init__.py)."""
    done = subprocess.run([sys.executable, "-c", IMPORT_GC], cwd=tmp_path,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    enabled, frozen, young, middle, old = json.loads(done.stdout)
    assert enabled and frozen == 0
    assert old > 10_000 and young + middle < 1_000


def test_the_cache_object_is_made_at_first_use_in_the_user_cache():
    """The core's dispatchers make numba's cache object when first asked (compiled.py), in the
    user's cache folder, even when numba's own setting points elsewhere at that moment."""
    from cuesim.sim.compiled import CacheAtFirstUse
    from cuesim.sim.roots import poly

    fresh = CacheAtFirstUse(poly.py_func)
    before = config.CACHE_DIR
    config.CACHE_DIR = "/nonexistent/elsewhere"
    try:
        assert str(fresh.cache_path).startswith(str(cache_dir()))
    finally:
        config.CACHE_DIR = before
    assert isinstance(poly._cache, CacheAtFirstUse)


# a child's prelude: count numba's target refreshes in `calls`
COUNT_REFRESHES = textwrap.dedent(
    """
    import numba.core.base as base
    calls = []
    refresh = base.BaseContext.refresh
    def counted(self):
        calls.append(1)
        return refresh(self)
    base.BaseContext.refresh = counted
    """
)

WARM_SHOTS = COUNT_REFRESHES + textwrap.dedent(
    """
    import json, math, sys
    import cuesim
    from cuesim.batch import ShotSampler, simulate_many
    table = cuesim.novus_table()
    r = cuesim.simulate(table, cuesim.novus_doubles_layout(table),
                        cuesim.NovusShot(x=0.5, angle=math.pi / 2, speed=6.0))
    pool = cuesim.tables.pool_table()
    cuesim.simulate(pool, cuesim.start_layout("9-ball", pool), cuesim.CueShot(angle=1.5, speed=6.0))
    arrays = sorted(m for m in ("numba.np.arrayobj", "numba.np.arraymath") if m in sys.modules)
    from cuesim.sim.loop import run_events_grid
    unparsed = ["_pending_bitcode" in vars(c.library) for c in run_events_grid.overloads.values()]
    import importlib, pkgutil
    from numba.core.registry import CPUDispatcher
    import cuesim.sim
    machine_code = sorted({v.__name__ for info in pkgutil.walk_packages(cuesim.sim.__path__,
                                                                         "cuesim.sim.")
                           for v in vars(importlib.import_module(info.name)).values()
                           if isinstance(v, CPUDispatcher) and v.overloads})
    from numba.core.runtime import rtsys
    runtime = getattr(rtsys, "_init", None)
    sampler = ShotSampler(6, {"angle": (1.4, 1.75), "speed": (2.0, 8.0)}, seed=1)
    many = simulate_many(table, cuesim.start_layout("novus", table), sampler, threads=2)
    print(json.dumps({"refreshes": len(calls), "events": r.n_events, "arrays": arrays,
                      "runtime": runtime, "unparsed": unparsed, "machine_code": machine_code,
                      "end": r.final_positions.tolist(), "many": many["n_events"].tolist()}))
    """
)


def test_a_warm_fresh_process_loads_machine_code_without_numbas_target_refresh(tmp_path):
    """Issue 16 (warm start): a fresh process whose shots are all in the cache loads them without
    numba's full target refresh (compiled.CacheAtFirstUse.load_overload: the runtime only),
    and the loaded code gives the same shot and the same two-thread batch as this process.
    Its single shots (novus, 9-ball) load no code that allocates: nothing imports numba's
    array modules (70 ms) before the batch does, and numba's runtime is not even started
    (the event loop runs without it: 20 ms)."""
    import math

    import cuesim
    from cuesim.batch import ShotSampler, simulate_many

    table = cuesim.novus_table()  # the same shots here first: the cache now holds them
    r = cuesim.simulate(table, cuesim.novus_doubles_layout(table),
                        cuesim.NovusShot(x=0.5, angle=math.pi / 2, speed=6.0))
    sampler = ShotSampler(6, {"angle": (1.4, 1.75), "speed": (2.0, 8.0)}, seed=1)
    many = simulate_many(table, cuesim.start_layout("novus", table), sampler, threads=2)
    done = subprocess.run([sys.executable, "-c", WARM_SHOTS], cwd=tmp_path,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["refreshes"] == 0
    assert out["arrays"] == []
    assert out["runtime"] is not True
    assert out["unparsed"] == [True]  # the loop's bitcode was never parsed (sim.cached_code)
    # the only machine code two shots load: the loop, its callees inside (33 and 10 pieces:
    # no broadphase grid to pick, `grid.GRID_MIN_N`); the work arrays are made in Python
    assert out["machine_code"] == ["run_events_grid"]
    assert out["events"] == r.n_events
    assert out["end"] == r.final_positions.tolist()
    assert out["many"] == many["n_events"].tolist()


LOAD_EVERY_CACHED = COUNT_REFRESHES + textwrap.dedent(
    """
    import importlib, json, pkgutil
    from numba.core.registry import CPUDispatcher
    import cuesim.sim
    from cuesim.sim import cached_code
    from cuesim.sim.compiled import CacheAtFirstUse
    states, load = [], cached_code.unserialize_library
    def recording(codegen, state):
        states.append(state)
        return load(codegen, state)
    cached_code.unserialize_library = recording
    from cuesim.sim.link_only import LinkOnlyEntry
    seen, loaded, unparsed, same, linking, no_code = set(), 0, 0, 0, 0, 0
    for info in pkgutil.walk_packages(cuesim.sim.__path__, "cuesim.sim."):
        for value in vars(importlib.import_module(info.name)).values():
            if isinstance(value, CPUDispatcher) and isinstance(value._cache, CacheAtFirstUse) \\
                    and id(value) not in seen:
                seen.add(id(value))
                for key in value._cache._cache_file._load_index():
                    cres = value._cache.load_overload(key[0], value.targetctx)
                    if cres is None:
                        continue
                    if states[-1][1] == "bitcode":  # a callee compiled to link (link_only)
                        linking += 1
                        no_code += (isinstance(cres.entry_point, LinkOnlyEntry)
                                    and not cres.library._compiled)  # no machine code made
                        continue
                    loaded += 1
                    unparsed += "_pending_bitcode" in vars(cres.library)
                    module = cres.library._get_module_for_linking()  # its bitcode, parsed now
                    names = {v.name for vs in (module.functions, module.global_variables)
                             for v in vs if not v.is_declaration}
                    same += names == cached_code.object_symbols(states[-1][2][0])
    print(json.dumps({"refreshes": len(calls), "loaded": loaded, "unparsed": unparsed,
                      "same": same, "linking": linking, "no_code": no_code}))
    """
)


def test_every_cached_core_function_loads_without_numbas_target_refresh(tmp_path):
    """Issue 16 (warm start): every signature in the cache of every core function (the event
    loop, its callees, the batch kernels, the soft reference, whatever this run compiled)
    loads in a fresh process with only the runtime started: its machine code finds every
    symbol it calls (a missing one would crash the process) and no refresh runs. Each loads
    without its bitcode parsed, and the symbol names taken from its object file are the ones
    numba would have read from the bitcode. The callees compiled for linking only (their
    bitcode cached, `sim.link_only`) load as bitcode, with no machine code made."""
    import math

    import cuesim

    table = cuesim.novus_table()  # at least the event loop and its callees are in the cache
    cuesim.simulate(table, cuesim.novus_doubles_layout(table),
                    cuesim.NovusShot(x=0.5, angle=math.pi / 2, speed=6.0))
    done = subprocess.run([sys.executable, "-c", LOAD_EVERY_CACHED], cwd=tmp_path,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["refreshes"] == 0
    assert out["loaded"] >= 2 and out["loaded"] + out["linking"] >= 20
    assert out["no_code"] == out["linking"]
    # each library's bitcode was left unparsed on load, and the defined names read from its
    # object file instead are exactly the bitcode's (sim.cached_code)
    assert out["unparsed"] == out["same"] == out["loaded"]
