"""A cold start compiles the event loop's largest callees in a helper process.

numba compiles one function at a time in a process, callees first as it types their callers.
On an empty cache the first shot compiles the event loop and the ~180 signatures under it in
one process (about 25 s on the 2-core machines here, 2026-12-07). But a callee that another
process has compiled and cached is loaded instead (its bitcode, compiled for linking only:
`link_only`; the caller links it in, inlines it and makes the only machine code). So when
the loop, or `auto_grid_into` compiled just before it, misses the cache
(`compiled.CacheAtFirstUse.load_overload` calls `on_cache_miss`), one helper process
(`parallel_compile_helper`) compiles `HELPER_ROOTS`, most of the impact chain, the pins'
knock and the prediction after an event (about half of the work), in that order, while this
process compiles the rest. When this process's typing reaches a root, in the loop or inside
another function it compiles (`compiled.plain_calls` calls `before_resolve`), it waits for
the helper to report that root done, then numba finds it in the cache. The machine code is
what this process would have compiled, so every result is the same.

The roots' signatures are declared (below): the helper cannot type the loop to learn them
without compiling it. `tests/test_parallel_compile.py` types the loop (and resolve_impact,
which calls two of them) and checks each. A stale one costs only speed: the helper compiles
a signature nobody asks for and this process compiles the root itself, as it does when the
helper is switched off (`CUESIM_COMPILE_HELPER=0`), finds one CPU or no Python to run (a
frozen application), fails, or is not done within `WAIT_S`.
"""

from __future__ import annotations

import atexit
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from numba import types

SWITCH = "CUESIM_COMPILE_HELPER"  # "0": compile everything in this process
WAIT_S = 600.0  # s: the longest wait for one root before compiling it here

_CODES: dict[str, Any] = {
    "f8": types.float64,
    "i8": types.int64,
    "b": types.boolean,
    "F1": types.Array(types.float64, 1, "C"),
    "F2": types.Array(types.float64, 2, "C"),
    "R2": types.Array(types.float64, 2, "C", readonly=True),  # P: engine makes it read-only
    "I1": types.Array(types.int64, 1, "C"),
    "I2": types.Array(types.int64, 2, "C"),
    "B1": types.Array(types.boolean, 1, "C"),
}
# the event loop's nine 2-D work arrays (loop.work_arrays)
_CODES["W"] = types.Tuple(tuple(_CODES[c] for c in "I2 I2 I2 F2 F2 F2 F2 F2 F2".split()))

# the loop as engine.run_input calls it: its argument types decide its callees'
LOOP = ("cuesim.sim.loop", "run_events_grid",
        "F2 R2 F2 F2 F2 F2 F2 F2 F1 F1 f8 i8 i8 F2 F2 F2 F1 F2 F2 F1 W I1 B1")
# the functions whose cache miss starts the helper, with their usual argument types: the
# loop, and the broadphase's auto_grid_into, which engine.grid_for compiles just before it
# on GRID_MIN_N (34) pieces or more (1.3 s sooner)
STARTERS: tuple[tuple[str, str, str], ...] = (
    LOOP, ("cuesim.sim.detect.grid", "auto_grid_into", "F2 R2 F2 F1"))
# what the helper compiles, in the order the loop's typing reaches them; measured on the
# novus opening (2 cores): the loop alone 51 s, with the helper compiling the impact chain
# 34 s, with the first four 30 s (bench/README.md, "Start-up, fourth pass"); with callees
# compiled for linking only (`link_only`) 9.6-10.3 s, touching_system added fifth ("Start-up,
# seventh pass"). Since the contact model grew the impact chain, the helper ends last: this
# process reached touching_system at 7.6 s and waited 1.5 s for it, so it compiles it again
# (0.7 s), and the helper ends predict_near 0.3 s after this process reaches it: 11.5-11.7 s
# against 12.2-12.9 s, the 9-ball break first 11.5-11.9 against 12.4 ("Start-up, ninth pass").
# With link-only callees compiled without CPython wrappers and the typing memo (both
# processes), still balanced: this process waits 0.3 s for predict_near, 9.1-9.2 s in all
# ("Start-up, tenth pass"). The contact physics of 12-06 and 12-07 grew the impact chain
# again: this process reached resolve_impact at 7.9-8.2 s and waited 2.1-2.7 s for it, then
# 0.7 s each for knock_pin and predict_near. The helper now compiles resolve_impact's two
# largest parts, the connected systems' impacts (`_resolve_system`, the multiple impact
# under it) and the pressed contacts' joins (`join_pressed`), and this process the rest of
# resolve_impact and predict_all; it waits 0.05-0.9 s for join_pressed and 0.4-0.6 s for
# knock_pin, and both reach the loop's tail at about 11 s. 7 alternating rounds of cold
# novus openings: 16.1-17.7 s (median 17.0) against 17.5-19.0 s (median 18.4)
# ("Start-up, twelfth pass"). Roots reached inside another root are declared with the
# argument types that root passes them (the test types resolve_impact too)
HELPER_ROOTS: tuple[tuple[str, str, str], ...] = (
    ("cuesim.sim.resolve.impact", "_resolve_system",
     "F2 R2 I1 I1 F1 F1 i8 i8 F1 F1 F1 F1 I1 i8 F1 F1 F1 F1 F1 F2"),
    ("cuesim.sim.resolve.cluster", "join_pressed",
     "F2 R2 f8 I1 I1 F1 F1 i8 i8 B1 f8 I1 i8 I1 F1 F1 F1"),
    ("cuesim.sim.resolve.pin", "knock_pin", "F2 R2 i8 i8 f8 f8"),
    ("cuesim.sim.predict", "predict_near",
     "F2 R2 f8 i8 F2 F2 F2 F2 F2 F2 F2 F2 I2 F2 F1 I1 I1 I1"),
)


def signature(codes: str) -> tuple[Any, ...]:
    """The numba argument types of a declaration ("F2 R2 f8 ...")."""
    return tuple(_CODES[c] for c in codes.split())


def _available_cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def helper_environment() -> dict[str, str]:
    """The helper's environment: this one, the switch off (the helper starts no helper), and
    the folder this process imported cuesim from first on its path. The helper runs with
    `-P`, so that its working folder is not put first: `pip install .` and then `cuesim` at
    the repository's root (the README's first command) left the source folder `cuesim/`, which
    holds neither `sim` nor `tables` (pyproject's package-dir), ahead of the installed package;
    the helper failed to import the core and the cold start compiled in one process."""
    import cuesim

    env = dict(os.environ, **{SWITCH: "0"})
    root = str(Path(cuesim.__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join([root, *filter(None, [env.get("PYTHONPATH")])])
    return env


class Helper:
    """The helper process compiling `roots` ((module, name, codes), in order), and those it
    has not reported yet (a thread reads its lines). For the balance of the two processes
    (`balance`): when it reported each root, in seconds from its launch, and how long this
    process waited for each."""

    def __init__(self, roots: tuple[tuple[str, str, str], ...]) -> None:
        from cuesim.sim.numba_cache import source_digest

        sim_dir = Path(__file__).resolve().parent
        self.launched = time.perf_counter()
        self.reported: dict[str, float] = {}  # root's name: when the helper reported it
        self.waited: dict[str, float] = {}  # root's name: how long this process waited
        self.process = subprocess.Popen(
            [sys.executable, "-P", "-m", "cuesim.sim.parallel_compile_helper", str(sim_dir),
             source_digest(sim_dir), *(":".join(root) for root in roots)],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            env=helper_environment(), text=True)
        self.pending = {(module, name) for module, name, _ in roots}
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        with self.process.stdout:  # closed when the helper ends
            for line in self.process.stdout:
                report = line.strip()  # "module name"
                self.reported[report.partition(" ")[2]] = time.perf_counter() - self.launched
                self._lines.put(report)
        self._lines.put(None)  # the helper ended

    def wait_for(self, key: tuple[str, str]) -> None:
        """Wait until the helper reports `key` ("module name") compiled, ends, or WAIT_S
        passes; in every case `key` is no longer waited for."""
        start = time.perf_counter()
        try:
            self._wait_for(key)
        finally:
            self.waited[key[1]] = time.perf_counter() - start

    def _wait_for(self, key: tuple[str, str]) -> None:
        while key in self.pending:
            try:
                line = self._lines.get(timeout=WAIT_S)
            except queue.Empty:
                line = None
            if line is None:  # ended, failed or too slow: the rest are compiled here
                self.stop()
                return
            module, _, name = line.partition(" ")
            self.pending.discard((module, name))

    def stop(self) -> None:
        """End the helper (its cached roots stay valid) and forget what it had left."""
        self.pending.clear()
        if self.process.poll() is None:
            self.process.terminate()
        self.process.wait()
        self._reader.join(timeout=5.0)  # at the pipe's end it closes it, and returns


_STATE: dict[str, Helper | None] = {"helper": None}
_NOTICE: dict[str, bool] = {"said": False}
COMPILE_NOTICE = ("cuesim: compiling the simulation core for this machine, once: 15-25 s "
                  "(longer on a busy machine); later runs load it at once")


def notice_compiling() -> None:
    """Tell a person at a terminal, once per process, why nothing happens yet: the first run
    compiles (a window or a result minutes late on a busy machine, without a word, looked
    hung). Nothing when stderr is no terminal (a pipe, a log, the tests)."""
    isatty = getattr(sys.stderr, "isatty", None)
    if _NOTICE["said"] or isatty is None or not isatty():
        return
    _NOTICE["said"] = True
    print(COMPILE_NOTICE, file=sys.stderr, flush=True)


def on_cache_miss(py_func: Any, sig: tuple[Any, ...]) -> None:
    """The cache has no `sig` of `py_func`, which numba compiles next: say so at a terminal
    (`notice_compiling`); if it is one of the STARTERS with its usual argument types, start
    the helper (once per process)."""
    notice_compiling()
    if (_STATE["helper"] is not None or os.environ.get(SWITCH, "1") == "0"
            or getattr(sys, "frozen", False) or not sys.executable):
        return  # a frozen application's executable is not a Python to run the helper in
    codes = {(module, name): codes for module, name, codes in STARTERS}.get(
        (py_func.__module__, py_func.__name__))
    if codes is None or tuple(sig) != signature(codes) or _available_cpus() < 2:
        return
    try:
        _STATE["helper"] = Helper(HELPER_ROOTS)
    except (OSError, ValueError, subprocess.SubprocessError):  # none started: compile here
        return
    atexit.register(_STATE["helper"].stop)


def balance() -> dict[str, Any] | None:
    """How this process's helper went, or None if it started none: when it reported each
    root (seconds from its launch), how long this process waited for each (`Helper`), and the
    waits' sum. `cuesim bench` prints it with the cold compile (bench/suite_startup.py)."""
    helper = _STATE["helper"]
    if helper is None:
        return None
    return {"reported_s": dict(helper.reported), "waited_s": dict(helper.waited),
            "waited_total_s": sum(helper.waited.values())}


def before_resolve(py_func: Any) -> None:
    """numba is typing a call of `py_func`: if the helper is compiling it, wait for it."""
    helper = _STATE["helper"]
    if helper is not None and helper.pending:
        key = (py_func.__module__, py_func.__name__)
        if key in helper.pending:
            helper.wait_for(key)
