"""The collision-core benchmark suite: every scenario on cuesim's core, the pymunk backend at
several steps and pooltool where it imports, measured pair by pair in one run.

    cuesim bench [--quick] [--json FILE] [--plots DIR]      (from a source checkout)
    python -m bench.suite [--quick] [--json FILE] [--plots DIR]

The targets, the box series' slopes and the text report are in bench/suite_report.py.

Every timing is single-threaded wall-clock (time.perf_counter) on one core:
- cuesim: `run_motion(table, placed layout, launch, check=False)` per case, the whole core call
  (state built from the layout, the compiled loop, the result wrapped) and, inside it, the
  compiled loop alone (`run_events_grid`); each case is run once to warm up and then repeated until
  `min_time` has passed (at least once, at most `max_repeats`), the median kept. shots/s is
  cases / the sum of the per-case medians, events/s is all events / that sum, us/event its
  inverse. For the box, `setup` is the same call stopped after one event (state, arrays, the
  N x N pair table and the first predictions: of every pair without the broadphase grid, of
  neighbours with it) and `marginal` the rest per event.
- memory: a separate pass per scenario with tracemalloc on (the peak of Python and numpy
  allocations, which misses numba's own arrays) and the Linux peak RSS (VmHWM, reset
  through /proc/self/clear_refs before the scenario): its growth over the RSS at the start.
- pymunk (`cuesim.sim.pymunk_backend`, disc scenarios only: it has no ball law) at each step
  on the first cases of a scenario: for each case cuesim is timed again right before pymunk,
  so each ratio (pymunk time / cuesim time) compares two measurements taken seconds apart;
  its accuracy is the distance between each piece's final position on pymunk and in the
  exact result (pieces pocketed by one and not the other counted apart).
- pooltool (optional, via bench/breaks.py's PooltoolBreaks) on the break scenarios, pair by
  pair in the same way, where `import pooltool` works.
- start-up: a fresh interpreter importing cuesim and playing the novus opening, then a 9-ball
  break, with the numba cache warm (cached start) and with an empty NUMBA_CACHE_DIR (cold
  compile, with its helper process and, for comparison, in one process; not in --quick).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make `bench` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

import cuesim  # noqa: E402
import cuesim.sim.engine as engine  # noqa: E402
from bench import scenarios as sc  # noqa: E402
from bench.suite_report import (  # noqa: E402
    TARGETS,
    format_report,
    scaling,
    speed_targets,
    targets,
)
from cuesim.output import write_atomic  # noqa: E402
from cuesim.sim import run_motion  # noqa: E402
from cuesim.sim.parallel_compile import SWITCH  # noqa: E402

STARTUP_SCRIPT = """
import time
t0 = time.perf_counter()
import math, json, cuesim
from cuesim.tables import cue_ball_in_kitchen, nine_ball_rack, pool_table
t1 = time.perf_counter()
table = cuesim.novus_table()
r = cuesim.simulate(table, cuesim.novus_doubles_layout(table),
                    cuesim.NovusShot(x=0.5, angle=math.pi / 2, speed=6.0))
t2 = time.perf_counter()
first_shot_at = time.time()
pool = pool_table()
rb = cuesim.simulate(pool, nine_ball_rack(pool, cue=cue_ball_in_kitchen(pool)),
                     cuesim.CueShot(angle=math.pi / 2, speed=6.0))
t3 = time.perf_counter()
print(json.dumps({"import_s": t1 - t0, "first_shot_s": t2 - t1, "first_ball_shot_s": t3 - t2,
                  "first_shot_at": first_shot_at, "events": r.n_events,
                  "ball_events": rb.n_events}))
"""


@dataclass
class Config:
    quick: bool
    counts: dict[str, int]
    box_ns: tuple[int, ...]
    box_pieces: tuple[str, ...] = ("puck", "ball")
    min_time: float = 0.02  # s of repeats per case
    min_repeats: int = 3  # however long the case (one preempted run must not decide)
    max_repeats: int = 21
    pymunk_dts: tuple[float, ...] = (2e-3, 1e-3, 5e-4, 2.5e-4)
    pymunk_cases: int = 10
    pymunk_box_max_n: int = 256
    pooltool_cases: int = 10
    pooltool_budget_s: float = 120.0
    pooltool_repeats: int = 3
    startup_repeats: int = 5
    cold: bool = True
    memory: bool = True
    memory_subprocess: bool = True  # each scenario's memory in a fresh process (else here)
    only: tuple[str, ...] = field(default_factory=tuple)  # scenario names (tests, debugging)

    @staticmethod
    def make(quick: bool) -> Config:
        if quick:
            return Config(
                quick=True,
                counts={"novus-opening": 10, "novus-midgame": 20, "9-ball-break": 20,
                        "8-ball-break": 30, "two-ball-pot": 20, "five-pins": 20},
                box_ns=(16, 32, 64, 128, 256, 512), min_time=0.01, max_repeats=11,
                pymunk_dts=(2e-3, 1e-3, 5e-4), pymunk_cases=5, pymunk_box_max_n=64,
                pooltool_cases=2, pooltool_budget_s=20.0, pooltool_repeats=1,
                startup_repeats=2, cold=False, memory_subprocess=False)
        return Config(
            quick=False,
            counts={"novus-opening": 100, "novus-midgame": 200, "9-ball-break": 100,
                    "8-ball-break": 1 + TARGETS["random_8ball_breaks"], "two-ball-pot": 200,
                    "five-pins": 200},
            box_ns=sc.BOX_NS)

    @staticmethod
    def tiny() -> Config:
        """The smallest run of every part of the machinery (tests)."""
        return Config(quick=True, counts={k: 2 for k in sc.BUILDERS}, box_ns=(16, 32),
                      min_time=0.0, min_repeats=1, max_repeats=1, pymunk_dts=(2e-3,),
                      pymunk_cases=1, pymunk_box_max_n=16, pooltool_cases=1, pooltool_budget_s=5.0,
                      pooltool_repeats=1, startup_repeats=1, cold=False,
                      memory_subprocess=False)


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


# -- timing ---------------------------------------------------------------------------------------
class LoopTimer:
    """Wraps engine.run_events_grid so that run_motion reports the time of its compiled loop."""

    def __init__(self) -> None:
        self.inner = engine.run_events_grid
        self.seconds = 0.0
        self.last = 0.0  # the latest call: the complete run when a shot was run again
        self.calls = 0

    def __call__(self, *args: Any) -> Any:
        t0 = time.perf_counter()
        out = self.inner(*args)
        self.last = time.perf_counter() - t0
        self.seconds += self.last
        self.calls += 1
        return out

    def __enter__(self) -> LoopTimer:
        engine.run_events_grid = self
        return self

    def __exit__(self, *exc: object) -> None:
        engine.run_events_grid = self.inner


def run_case(case: sc.Case, max_events: int, **kw: Any) -> Any:
    return run_motion(case.table, case.layout, case.initial, struck=case.struck,
                      max_events=max_events, check=False, **kw)


def time_case(case: sc.Case, max_events: int,
              cfg: Config) -> tuple[float, float, int, float]:
    """(median whole-call seconds, median loop seconds, loop calls per shot, median seconds of
    the last loop call) over the repeats. run_motion calls the loop again from the start, with
    buffers 4x larger, when the event or segment buffer fills: loop calls > 1 means the shot
    was simulated more than once, and the last call alone is the one complete simulation."""
    whole, loop, last = [], [], []
    spent = 0.0
    with LoopTimer() as timer:
        while len(whole) < cfg.min_repeats or (spent < cfg.min_time
                                               and len(whole) < cfg.max_repeats):
            before = timer.seconds
            t0 = time.perf_counter()
            run_case(case, max_events)
            dt = time.perf_counter() - t0
            whole.append(dt)
            loop.append(timer.seconds - before)
            last.append(timer.last)
            spent += dt
    return (statistics.median(whole), statistics.median(loop), timer.calls // len(whole),
            statistics.median(last))


def setup_time(case: sc.Case, cfg: Config) -> float:
    """The whole call stopped after one event: building the state and the first predictions."""
    times = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for _ in range(3 if cfg.max_repeats > 1 else 1):
            t0 = time.perf_counter()
            run_case(case, 1)
            times.append(time.perf_counter() - t0)
    return statistics.median(times)


def distribution(events: list[int]) -> dict[str, Any]:
    ev = np.array(events, dtype=float)
    return {"median": float(np.median(ev)), "p99": float(np.percentile(ev, 99)),
            "max": int(ev.max()), "mean": float(ev.mean()), "total": int(ev.sum())}


# -- memory ---------------------------------------------------------------------------------------
def _status_kb(key: str) -> int | None:
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def _reset_peak_rss() -> bool:
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as fh:
            fh.write("5")
        return True
    except OSError:
        return False


MEMORY_CHILD = """
import json, sys
sys.path.insert(0, {root!r})
from bench import suite
print(json.dumps(suite.memory_child(json.loads(sys.argv[1]))))
"""


def memory_child(spec: dict[str, Any]) -> dict[str, Any]:
    """In a fresh process: load the compiled core on a small shot of another kind, then
    measure one scenario (built from `spec`: its name and the Config fields it needs)."""
    cfg = Config(quick=spec["quick"], counts=spec["counts"], box_ns=tuple(spec["box_ns"]),
                 only=(spec["name"],))
    for warm in (sc.two_ball_pot(1), sc.novus_midgame(1)):
        run_case(warm.cases[0], warm.max_events)
    (scenario,) = build_scenarios(cfg)
    return measure_memory(scenario)


def memory_in_subprocess(name: str, cfg: Config) -> dict[str, Any]:
    """measure_memory in a fresh interpreter, with glibc's mmap threshold fixed at 128 KiB so
    that large arrays are mapped and unmapped (not kept in the heap by an earlier shot)."""
    spec = {"name": name, "quick": cfg.quick, "counts": cfg.counts, "box_ns": list(cfg.box_ns)}
    root = str(Path(__file__).resolve().parent.parent)
    env = {**os.environ, "MALLOC_MMAP_THRESHOLD_": "131072"}
    proc = subprocess.run([sys.executable, "-c", MEMORY_CHILD.format(root=root),
                           json.dumps(spec)], env=env, capture_output=True, text=True,
                          check=True)
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    out["fresh_process"] = True
    return out


def measure_memory(scenario: sc.Scenario) -> dict[str, Any]:
    """Peak memory of running every case once: tracemalloc's peak and the growth of the
    process's peak RSS over its RSS at the start (Linux: VmHWM reset through clear_refs)."""
    out: dict[str, Any] = {}
    reset = _reset_peak_rss()
    rss0 = _status_kb("VmRSS")
    tracemalloc.start()
    try:
        for case in scenario.cases:
            run_case(case, scenario.max_events)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    out["tracemalloc_peak_mb"] = peak / 2**20
    hwm = _status_kb("VmHWM")
    if reset and rss0 is not None and hwm is not None:
        out["rss_peak_mb"] = hwm / 1024
        out["rss_growth_mb"] = max(0, hwm - rss0) / 1024
    else:  # not Linux: the process's peak so far
        try:
            import resource

            out["rss_peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        except ImportError:
            pass
        out["rss_growth_mb"] = None
    return out


# -- cuesim ---------------------------------------------------------------------------------------
def measure_cuesim(scenario: sc.Scenario, cfg: Config) -> tuple[dict[str, Any], list[Any]]:
    """The scenario's figures, and each case's exact result (for the other backends)."""
    results, events, whole, loop, setup, reruns, last = [], [], [], [], [], [], []
    for case in scenario.cases:
        res = run_case(case, scenario.max_events)  # warm (and the exact result)
        results.append(res)
        events.append(res.n_events)
        w, lp, calls, one = time_case(case, scenario.max_events, cfg)
        whole.append(w)
        loop.append(lp)
        reruns.append(calls - 1)
        last.append(one)
        if scenario.n is not None:
            setup.append(setup_time(case, cfg))
    total, total_loop, n_ev = sum(whole), sum(loop), sum(events)
    out: dict[str, Any] = {
        "shots": len(scenario.cases),
        "events": distribution(events),
        "truncated": sum(r.truncated for r in results),
        "over_1000_events": sum(e > TARGETS["break_event_limit"] for e in events),
        "first_case_ms": whole[0] * 1e3,
        "first_case_loop_ms": loop[0] * 1e3,
        "first_case_events": events[0],
        "median_ms": statistics.median(whole) * 1e3,
        "mean_ms": total / len(whole) * 1e3,
        "shots_per_s": len(whole) / total,
        "events_per_s": n_ev / total,
        "us_per_event": total / n_ev * 1e6,
        "loop_shots_per_s": len(loop) / total_loop,
        "loop_events_per_s": n_ev / total_loop,
        "loop_us_per_event": total_loop / n_ev * 1e6,
        "one_run_loop_us_per_event": sum(last) / n_ev * 1e6,
        "pocketed_per_shot": float(np.mean([len(r.pocketed) for r in results])),
        "rerun_shots": sum(r > 0 for r in reruns),
        "loop_reruns": sum(reruns),
        "per_case_ms": [w * 1e3 for w in whole],
        "per_case_events": events,
    }
    if setup:
        out["setup_ms"] = statistics.median(setup) * 1e3
        out["marginal_us_per_event"] = max(0.0, total - sum(setup)) / n_ev * 1e6
        out["events_per_piece"] = n_ev / (len(events) * scenario.n)
    return out, results


# -- pymunk ---------------------------------------------------------------------------------------
def final_error(case: sc.Case, exact: Any, pm: Any) -> dict[str, float]:
    """Final-position error of a pymunk run against the exact result (m)."""
    ids = case.layout.ids()
    exact_on = {pid: (float(exact.final_positions[k, 0]), float(exact.final_positions[k, 1]))
                for k, pid in enumerate(ids) if exact.final_on[k]}
    pm_on = {p.id: (p.x, p.y) for p in pm.final.pieces}
    both = [pid for pid in ids if pid in exact_on and pid in pm_on]
    d = np.array([math.dist(exact_on[p], pm_on[p]) for p in both]) if both else np.zeros(1)
    return {"max": float(d.max()), "rms": float(np.sqrt(np.mean(d * d))),
            "pocket_mismatch": len(set(exact_on) ^ set(pm_on))}


def measure_pymunk(scenario: sc.Scenario, exact: list[Any], cfg: Config) -> dict[str, Any]:
    from cuesim.sim.pymunk_backend import run_motion_pymunk

    cases = list(range(min(cfg.pymunk_cases, len(scenario.cases))))
    first = scenario.cases[0]  # warm up: pymunk's import and its numba kick kernel
    run_motion_pymunk(first.table, first.layout, first.initial, dt=max(cfg.pymunk_dts))
    out: dict[str, Any] = {}
    for dt in cfg.pymunk_dts:
        pm_t, cs_t, ratios, err_max, err_rms, mism, steps = [], [], [], [], [], [], []
        for k in cases:
            case = scenario.cases[k]
            cs = time_case(case, scenario.max_events, cfg)[0]  # cuesim, right before pymunk
            t0 = time.perf_counter()
            pm = run_motion_pymunk(case.table, case.layout, case.initial, dt=dt)
            t = time.perf_counter() - t0
            pm_t.append(t)
            cs_t.append(cs)
            ratios.append(t / cs)
            e = final_error(case, exact[k], pm)
            err_max.append(e["max"])
            err_rms.append(e["rms"])
            mism.append(e["pocket_mismatch"])
            steps.append(pm.steps)
        out[f"{dt * 1e3:g}ms"] = {
            "dt": dt, "cases": len(cases),
            "mean_ms": float(np.mean(pm_t)) * 1e3,
            "shots_per_s": len(pm_t) / sum(pm_t),
            "cuesim_mean_ms": float(np.mean(cs_t)) * 1e3,
            "first_case_ratio": ratios[0],
            "ratio": sum(pm_t) / sum(cs_t),
            "median_ratio": statistics.median(ratios),
            "error_max_mm": {"median": statistics.median(err_max) * 1e3,
                             "max": max(err_max) * 1e3},
            "error_rms_mm": {"median": statistics.median(err_rms) * 1e3},
            "pocket_mismatches": int(sum(mism)),
            "mean_steps": float(np.mean(steps)),
            "per_case_ms": [t * 1e3 for t in pm_t],
            "per_case_cuesim_ms": [t * 1e3 for t in cs_t],
            "per_case_error_max_mm": [e * 1e3 for e in err_max],
        }
    return out


# -- pooltool -------------------------------------------------------------------------------------
def pooltool_backend() -> tuple[Any, str | None]:
    """(a PooltoolBreaks, None) or (None, why pooltool is not measured)."""
    from bench.breaks import PooltoolBreaks, import_pooltool

    pt, why = import_pooltool()
    if pt is None:
        return None, f"not installed ({why})"
    try:
        return PooltoolBreaks(pt), None
    except Exception as exc:  # optional: a broken install must not stop the suite
        return None, f"imported, but failed: {type(exc).__name__}: {exc}".splitlines()[0][:200]


def measure_pooltool(backend: Any, scenario: sc.Scenario, cfg: Config,
                     deadline: float) -> dict[str, Any]:
    pt = backend.pt
    pt_t, cs_t, ratios, pt_events = [], [], [], []
    for case in scenario.cases[:cfg.pooltool_cases]:
        if pt_t and time.perf_counter() > deadline:
            break
        system = backend.system(**case.pooltool)
        cs = time_case(case, scenario.max_events, cfg)[0]
        runs = []
        for _ in range(cfg.pooltool_repeats):
            t0 = time.perf_counter()
            out = pt.simulate(system, max_events=scenario.max_events)
            runs.append(time.perf_counter() - t0)
        t = statistics.median(runs)
        pt_t.append(t)
        cs_t.append(cs)
        ratios.append(t / cs)
        pt_events.append(len(out.events))
    return {"version": getattr(pt, "__version__", "?"), "cases": len(pt_t),
            "mean_ms": float(np.mean(pt_t)) * 1e3, "shots_per_s": len(pt_t) / sum(pt_t),
            "first_case_ms": pt_t[0] * 1e3, "first_case_ratio": ratios[0],
            "ratio": sum(pt_t) / sum(cs_t), "median_ratio": statistics.median(ratios),
            "events": distribution(pt_events)}


# -- start-up -------------------------------------------------------------------------------------
def fresh_process(env: dict[str, str], repeats: int) -> dict[str, float]:
    """Medians over `repeats` fresh interpreters running STARTUP_SCRIPT: the process's wall
    time, the wall time from its launch to the first shot's result (`wall_to_first_shot_s`,
    issue 16), and the script's own import and shot times."""
    walls, to_first, inner = [], [], []
    for _ in range(repeats):
        t0, launched = time.perf_counter(), time.time()
        proc = subprocess.run([sys.executable, "-c", STARTUP_SCRIPT], env=env,
                              capture_output=True, text=True, check=True)
        walls.append(time.perf_counter() - t0)
        inner.append(json.loads(proc.stdout.strip().splitlines()[-1]))
        to_first.append(inner[-1]["first_shot_at"] - launched)
    out = {"wall_s": statistics.median(walls), "wall_to_first_shot_s": statistics.median(to_first)}
    for key in ("import_s", "first_shot_s", "first_ball_shot_s"):
        out[key] = statistics.median(r[key] for r in inner)
    out["to_first_shot_s"] = out["import_s"] + out["first_shot_s"]
    return out


# -- the run --------------------------------------------------------------------------------------
def build_scenarios(cfg: Config) -> list[sc.Scenario]:
    out = []
    for name, builder in sc.BUILDERS.items():
        if not cfg.only or name in cfg.only:
            out.append(builder(cfg.counts[name]))
    for piece in cfg.box_pieces:
        for n in cfg.box_ns:
            name = f"box-{piece}-{n}"
            if not cfg.only or name in cfg.only:
                count = max(1, min(8, 1024 // n)) if not cfg.quick else 1
                out.append(sc.box(piece, n, count))
    return out


def run_suite(cfg: Config) -> dict[str, Any]:
    import numba

    results: dict[str, Any] = {
        "meta": {"cuesim": cuesim.__version__, "python": platform.python_version(),
                 "numba": numba.__version__, "numpy": np.__version__,
                 "machine": platform.processor() or platform.machine(),
                 "cpus_visible": os.cpu_count(), "quick": cfg.quick,
                 "date": time.strftime("%Y-%m-%d %H:%M")},
        "config": {"counts": cfg.counts, "box_ns": list(cfg.box_ns),
                   "pymunk_dts": list(cfg.pymunk_dts), "pymunk_cases": cfg.pymunk_cases,
                   "min_time_s": cfg.min_time, "max_repeats": cfg.max_repeats},
    }
    try:
        import pymunk

        results["meta"]["pymunk"] = pymunk.version
    except ImportError:
        results["meta"]["pymunk"] = None
    t_start = time.perf_counter()
    if cfg.cold:  # first, before this process compiles anything
        log("start-up: cold compile (a fresh process, empty numba cache)...")
        with tempfile.TemporaryDirectory() as cache:
            results["cold_compile"] = fresh_process({**os.environ, "NUMBA_CACHE_DIR": cache}, 1)
        log(f"start-up: cold compile in one process ({SWITCH}=0)...")
        with tempfile.TemporaryDirectory() as cache:
            results["cold_compile_one_process"] = fresh_process(
                {**os.environ, "NUMBA_CACHE_DIR": cache, SWITCH: "0"}, 1)
    else:
        results["cold_compile"] = None

    scenarios = build_scenarios(cfg)
    first = scenarios[0].cases[0]
    run_case(first, scenarios[0].max_events)  # loads (or writes) the numba cache

    backend, why = pooltool_backend()
    results["pooltool"] = {"available": backend is not None, "reason": why}
    if backend is not None:
        try:
            backend.pt.simulate(backend.system("9-ball"))  # its compile or cache load
        except Exception as exc:  # optional: never stops the suite
            backend, results["pooltool"] = None, {"available": False, "reason": f"failed: {exc}"}
    deadline = time.perf_counter() + cfg.pooltool_budget_s

    out = []
    for s in scenarios:
        log(f"{s.name}: {len(s.cases)} cases...")
        entry: dict[str, Any] = {"name": s.name, "title": s.title, "family": s.family,
                                 "n": s.n, "pieces": list(s.pieces), **s.notes}
        entry["cuesim"], exact = measure_cuesim(s, cfg)
        if cfg.memory and cfg.memory_subprocess:
            entry["memory"] = memory_in_subprocess(s.name, cfg)
        elif cfg.memory:
            entry["memory"] = measure_memory(s)
            entry["memory"]["fresh_process"] = False
        if s.pymunk and (s.n is None or s.n <= cfg.pymunk_box_max_n) and cfg.pymunk_dts:
            entry["pymunk"] = measure_pymunk(s, exact, cfg)
        if backend is not None and s.cases[0].pooltool is not None:
            try:
                entry["pooltool"] = measure_pooltool(backend, s, cfg, deadline)
            except Exception as exc:  # optional: never stops the suite
                entry["pooltool"] = {"error": f"{type(exc).__name__}: {exc}"[:200]}
        out.append(entry)
    results["scenarios"] = out
    results["scaling"] = scaling(out)

    log("start-up: fresh processes with the numba cache warm...")
    results["cached_start"] = fresh_process(dict(os.environ), cfg.startup_repeats)
    results["targets"] = targets(results, cfg)
    results["targets_16"] = speed_targets(results)
    results["meta"]["suite_s"] = time.perf_counter() - t_start
    return results


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="cuesim bench", description=__doc__.splitlines()[0])
    add_arguments(ap)
    args = ap.parse_args(argv)
    return run(args.quick, args.json, args.plots)


def add_arguments(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--quick", action="store_true",
                    help="fewer shots, repeats and steps, no cold compile (under a minute)")
    ap.add_argument("--json", metavar="FILE", help="also write every figure as JSON")
    ap.add_argument("--plots", metavar="DIR", help="write PNG plots there (needs matplotlib: "
                    "pip install -e '.[bench]')")


def run(quick: bool, json_path: str | None = None, plots_dir: str | None = None,
        cfg: Config | None = None) -> int:
    cfg = cfg or Config.make(quick)
    results = run_suite(cfg)
    print(format_report(results), flush=True)
    if json_path:  # whole or not at all; a full disk raises OSError naming json_path
        write_atomic(json_path, json.dumps(results, indent=1))
        log(f"wrote {json_path}")
    if plots_dir:
        from bench.plots import PlotsUnavailable, write_plots

        try:
            for path in write_plots(results, plots_dir):
                log(f"wrote {path}")
        except PlotsUnavailable as exc:
            log(f"plots skipped: {exc}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
