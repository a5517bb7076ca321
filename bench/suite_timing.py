"""Timing cuesim's core for the suite (bench/suite.py): one pass over a scenario's cases gives
each case's times; the figures keep each case's fastest pass.

A case is `run_motion(table, placed layout, launch, check=False)`: the whole core call (state
built from the layout, the compiled loop, the result wrapped) and, inside it, the compiled loop
alone (`run_events_grid`). Each case is run once to warm up, then repeated until `min_time` has
passed (at least `min_repeats`, at most `max_repeats` times) and the median kept.
"""

from __future__ import annotations

import statistics
import time
import warnings
from typing import Any

import numpy as np

from bench import scenarios as sc
from bench.loop_timer import LoopTimer
from bench.suite_config import Config
from bench.suite_report import TARGETS
from cuesim.sim import run_motion

# a pass's per-case timings, each kept at its fastest pass by `fastest`
TIMED = ("whole", "loop", "last", "setup")


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


def fastest(passes: list[dict[str, Any]], keys: tuple[str, ...]) -> dict[str, Any]:
    """The first pass, with each list under `keys` replaced by its elementwise minimum over
    the passes (each case's time at its fastest pass)."""
    out = dict(passes[0])
    for key in keys:
        out[key] = [min(v) for v in zip(*(p[key] for p in passes), strict=True)]
    return out


def time_cuesim(scenario: sc.Scenario, cfg: Config,
                keep_results: bool = False) -> dict[str, Any]:
    """One pass over the scenario's cases: each case's times (lists under TIMED; "setup" for
    the boxes only), loop calls and events, and with keep_results each case's exact result
    (the other backends are compared with it)."""
    out: dict[str, Any] = {key: [] for key in (*TIMED, "calls", "events")}
    out["results"] = []
    for case in scenario.cases:
        res = run_case(case, scenario.max_events)  # warm (and the exact result)
        if keep_results:
            out["results"].append(res)
        out["events"].append(res.n_events)
        w, lp, calls, one = time_case(case, scenario.max_events, cfg)
        out["whole"].append(w)
        out["loop"].append(lp)
        out["calls"].append(calls)
        out["last"].append(one)
        if scenario.n is not None:
            out["setup"].append(setup_time(case, cfg))
    return out


def cuesim_figures(passes: list[dict[str, Any]], scenario: sc.Scenario) -> dict[str, Any]:
    """The scenario's figures from its passes (`time_cuesim`; the first holds the results):
    every time is its case's fastest pass, shots/s = cases / the sum of the per-case times,
    events/s = all events / that sum, us/event its inverse. For the box, `setup` is the call
    stopped after one event and `marginal` the rest per event."""
    best = fastest(passes, TIMED)
    results, events = passes[0]["results"], best["events"]
    whole, loop, last, setup = best["whole"], best["loop"], best["last"], best["setup"]
    reruns = [c - 1 for c in best["calls"]]
    total, total_loop, n_ev = sum(whole), sum(loop), sum(events)
    out: dict[str, Any] = {
        "shots": len(scenario.cases),
        "passes": len(passes),
        "events": distribution(events),
        "truncated": sum(r.truncated for r in results),
        "over_1000_events": sum(e > TARGETS["break_event_limit"] for e in events),
        "first_case_ms": whole[0] * 1e3,
        "first_case_ms_per_pass": [p["whole"][0] * 1e3 for p in passes],
        "first_case_loop_ms": loop[0] * 1e3,
        "first_case_events": events[0],
        "median_ms": statistics.median(whole) * 1e3,
        "mean_ms": total / len(whole) * 1e3,
        "shots_per_s": len(whole) / total,
        "events_per_s": n_ev / total,
        "us_per_event": total / n_ev * 1e6,
        "us_per_event_per_pass": [sum(p["whole"]) / n_ev * 1e6 for p in passes],
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
    return out
