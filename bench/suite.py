"""The collision-core benchmark suite: every scenario on cuesim's core, the pymunk backend at
several steps and pooltool where it imports, measured pair by pair in one run.

    cuesim bench [--quick] [--passes K] [--json FILE] [--plots DIR]      (from a checkout)
    python -m bench.suite [--quick] [--passes K] [--json FILE] [--plots DIR]

Every timing is single-threaded wall-clock (time.perf_counter) on one core. The run makes K
passes over every scenario (2 by default, 1 with --quick), in turn, and keeps each case's
time at its fastest pass: this machine's speed changes for seconds at a time, and one pass
lets a slow spell decide a figure. The rooms of the suite:
- bench/suite_config.py: the configuration and the scenarios it selects;
- bench/suite_timing.py: cuesim's core, case by case (whole call and compiled loop);
- bench/suite_baselines.py: pymunk at several steps and pooltool, pair by pair with cuesim;
- bench/suite_memory.py: peak memory per scenario (tracemalloc, peak RSS), in the first pass;
- bench/suite_startup.py: fresh processes, cache warm (cached start) and empty (cold compile);
- bench/impact_alone.py: the openings' and breaks' multiple impacts timed alone;
- bench/suite_python.py: the Python around the core (env steps, viewer frames, a turn);
- bench/suite_report.py: the targets, the box series' slopes and the text report.
"""

from __future__ import annotations

import json
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make `bench` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

import cuesim  # noqa: E402
from bench import impact_alone, suite_python, suite_startup  # noqa: E402
from bench.suite_baselines import (  # noqa: E402
    pooltool_backend,
    pooltool_figures,
    pymunk_figures,
    time_pooltool,
    time_pymunk,
)
from bench.suite_config import Config, build_scenarios, log  # noqa: E402
from bench.suite_memory import measure_memory, memory_in_subprocess  # noqa: E402
from bench.suite_report import format_report, scaling, speed_targets, targets  # noqa: E402
from bench.suite_timing import cuesim_figures, run_case, time_cuesim  # noqa: E402
from cuesim.output import write_atomic  # noqa: E402
from cuesim.sim.parallel_compile import SWITCH  # noqa: E402


# -- the run --------------------------------------------------------------------------------------
def _pass(scenarios: list[Any], cfg: Config, k: int, backend: Any, deadline: float,
          raw: dict[str, dict[str, list[Any]]]) -> None:
    """Pass k over the scenarios: each one's cuesim timings and paired baselines, appended to
    raw[name]; the first pass also keeps the exact results and measures the memory."""
    for s in scenarios:
        log(f"{s.name}: {len(s.cases)} cases" + (f", pass {k + 1} of {cfg.passes}..."
                                                   if cfg.passes > 1 else "..."))
        r = raw.setdefault(s.name, {"cuesim": [], "pymunk": [], "pooltool": []})
        r["cuesim"].append(time_cuesim(s, cfg, keep_results=k == 0))
        if k == 0 and cfg.memory and cfg.memory_subprocess:
            r["memory"] = memory_in_subprocess(s.name, cfg)
        elif k == 0 and cfg.memory:
            r["memory"] = {**measure_memory(s), "fresh_process": False}
        if s.pymunk and (s.n is None or s.n <= cfg.pymunk_box_max_n) and cfg.pymunk_dts:
            r["pymunk"].append(time_pymunk(s, r["cuesim"][0]["results"], cfg))
        if backend is not None and s.cases[0].pooltool is not None and "pooltool_error" not in r:
            try:
                cases = len(r["pooltool"][0]["baseline"]) if r["pooltool"] else None
                r["pooltool"].append(time_pooltool(backend, s, cfg, deadline, cases))
            except Exception as exc:  # optional: never stops the suite
                r["pooltool_error"] = f"{type(exc).__name__}: {exc}"[:200]


def _entry(s: Any, r: dict[str, Any], pooltool_version: str) -> dict[str, Any]:
    """A scenario's figures from its passes."""
    entry: dict[str, Any] = {"name": s.name, "title": s.title, "family": s.family,
                             "n": s.n, "pieces": list(s.pieces), **s.notes}
    entry["cuesim"] = cuesim_figures(r["cuesim"], s)
    if "memory" in r:
        entry["memory"] = r["memory"]
    if r["pymunk"]:
        entry["pymunk"] = pymunk_figures(r["pymunk"])
    if "pooltool_error" in r:
        entry["pooltool"] = {"error": r["pooltool_error"]}
    elif r["pooltool"]:
        entry["pooltool"] = pooltool_figures(r["pooltool"], pooltool_version)
    return entry


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
                   "min_time_s": cfg.min_time, "max_repeats": cfg.max_repeats,
                   "passes": cfg.passes},
    }
    try:
        import pymunk

        results["meta"]["pymunk"] = pymunk.version
    except ImportError:
        results["meta"]["pymunk"] = None
    t_start = time.perf_counter()
    if cfg.cold:  # first, before this process compiles anything
        log("start-up: cold compile (a fresh process, empty numba cache)...")
        results["cold_compile"] = suite_startup.fresh_process(
            dict(os.environ), cfg.cold_repeats, empty_cache=True)
        log(f"start-up: cold compile in one process ({SWITCH}=0)...")
        results["cold_compile_one_process"] = suite_startup.fresh_process(
            {**os.environ, SWITCH: "0"}, 1, empty_cache=True)
    else:
        results["cold_compile"] = None

    scenarios = build_scenarios(cfg)
    first = scenarios[0].cases[0]
    run_case(first, scenarios[0].max_events)  # loads (or writes) the numba cache

    backend, why = pooltool_backend()
    results["pooltool"] = {"available": backend is not None, "reason": why}
    if backend is not None:
        try:
            for game in ("9-ball", "8-ball"):  # its compile or cache load, for each rack
                backend.pt.simulate(backend.system(game))
        except Exception as exc:  # optional: never stops the suite
            backend, results["pooltool"] = None, {"available": False, "reason": f"failed: {exc}"}
    version = getattr(backend.pt, "__version__", "?") if backend is not None else "?"
    deadline = time.perf_counter() + cfg.pooltool_budget_s

    raw: dict[str, dict[str, Any]] = {}
    for k in range(cfg.passes):
        _pass(scenarios, cfg, k, backend, deadline, raw)
    results["scenarios"] = out = [_entry(s, raw[s.name], version) for s in scenarios]
    results["scaling"] = scaling(out)

    results["impacts"] = impacts_alone(cfg)
    if cfg.python_repeats > 0:
        log("the Python around the core: env steps, viewer frames, the computer's turn...")
        results["python"] = suite_python.measure(cfg.python_repeats)
    else:
        results["python"] = None
    log("start-up: fresh processes with the numba cache warm...")
    results["cached_start"] = suite_startup.fresh_process(dict(os.environ), cfg.startup_repeats)
    # where this environment runs Python without its bytecode cache: also as an install has it
    results["cached_start_bytecode"] = suite_startup.bytecode_cached(cfg.startup_repeats)
    results["targets"] = targets(results, cfg)
    results["targets_16"] = speed_targets(results)
    results["meta"]["suite_s"] = time.perf_counter() - t_start
    return results


def impacts_alone(cfg: Config) -> dict[str, Any] | None:
    """The novus opening's and the breaks' multiple impacts timed alone (bench/impact_alone.py),
    by shot; None when the configuration skips them, {'error': ...} when they fail (optional:
    never stops the suite)."""
    if cfg.impact_repeats <= 0:
        return None
    log("the multiple impacts timed alone (a child process records them)...")
    try:
        return {row["shot"]: row for row in impact_alone.measure(cfg.impact_repeats)}
    except Exception as exc:
        return {"error": f"{type(exc).__name__}: {exc}"}


def main(argv: list[str] | None = None) -> int:
    """`python bench/suite.py ARGS` is `cuesim bench ARGS`: the same options, and the same
    checks of --json and --plots before minutes of measuring (cuesim.commands.bench)."""
    from cuesim.cli import main as cli_main

    return cli_main(["bench", *(sys.argv[1:] if argv is None else argv)])


def run(quick: bool, json_path: str | None = None, plots_dir: str | None = None,
        cfg: Config | None = None, passes: int | None = None) -> int:
    cfg = cfg or Config.make(quick, passes)
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
