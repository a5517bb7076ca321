"""The suite's baselines (bench/suite.py): the pymunk backend at several steps and, where it
imports, pooltool, each measured pair by pair against cuesim in the same pass.

- pymunk (`cuesim.sim.pymunk_backend`, disc scenarios only: it has no ball law) at each step on
  the first cases of a scenario: for each case cuesim is timed again right before pymunk, so
  each ratio (pymunk time / cuesim time) compares two measurements taken seconds apart; its
  accuracy is the distance between each piece's final position on pymunk and in the exact
  result (pieces pocketed by one and not the other counted apart).
- pooltool (optional, via bench/breaks.py's PooltoolBreaks) on the break scenarios, pair by
  pair in the same way.
Over several passes each side's time of a case is its fastest pass (`suite_timing.fastest`).
"""

from __future__ import annotations

import math
import statistics
import time
from typing import Any

import numpy as np

from bench import scenarios as sc
from bench.suite_config import Config
from bench.suite_timing import distribution, fastest, time_case

PAIRED = ("baseline", "cuesim")  # a pass's paired times, each kept at its fastest pass


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


def time_pymunk(scenario: sc.Scenario, exact: list[Any], cfg: Config) -> dict[float, Any]:
    """One pass: for each step dt, each of the first cases' pymunk time, cuesim's time taken
    right before it, and the accuracy of pymunk's end against the exact result."""
    from cuesim.sim.pymunk_backend import run_motion_pymunk

    cases = range(min(cfg.pymunk_cases, len(scenario.cases)))
    first = scenario.cases[0]  # warm up: pymunk's import and its numba kick kernel
    run_motion_pymunk(first.table, first.layout, first.initial, dt=max(cfg.pymunk_dts))
    out: dict[float, Any] = {}
    for dt in cfg.pymunk_dts:
        one: dict[str, list[float]] = {k: [] for k in (*PAIRED, "max", "rms", "mism", "steps")}
        for k in cases:
            case = scenario.cases[k]
            one["cuesim"].append(time_case(case, scenario.max_events, cfg)[0])
            t0 = time.perf_counter()
            pm = run_motion_pymunk(case.table, case.layout, case.initial, dt=dt)
            one["baseline"].append(time.perf_counter() - t0)
            e = final_error(case, exact[k], pm)
            one["max"].append(e["max"])
            one["rms"].append(e["rms"])
            one["mism"].append(e["pocket_mismatch"])
            one["steps"].append(pm.steps)
        out[dt] = one
    return out


def pymunk_figures(passes: list[dict[float, Any]]) -> dict[str, Any]:
    """Each step's figures from the passes of `time_pymunk` (ratio: pymunk's time / cuesim's,
    each at its fastest pass)."""
    out: dict[str, Any] = {}
    for dt in passes[0]:
        best = fastest([p[dt] for p in passes], PAIRED)
        pm_t, cs_t = best["baseline"], best["cuesim"]
        ratios = [p / c for p, c in zip(pm_t, cs_t, strict=True)]
        out[f"{dt * 1e3:g}ms"] = {
            "dt": dt, "cases": len(pm_t),
            "mean_ms": float(np.mean(pm_t)) * 1e3,
            "shots_per_s": len(pm_t) / sum(pm_t),
            "cuesim_mean_ms": float(np.mean(cs_t)) * 1e3,
            "first_case_ratio": ratios[0],
            "first_case_ratio_per_pass": [p[dt]["baseline"][0] / p[dt]["cuesim"][0]
                                          for p in passes],
            "ratio": sum(pm_t) / sum(cs_t),
            "median_ratio": statistics.median(ratios),
            "error_max_mm": {"median": statistics.median(best["max"]) * 1e3,
                             "max": max(best["max"]) * 1e3},
            "error_rms_mm": {"median": statistics.median(best["rms"]) * 1e3},
            "pocket_mismatches": int(sum(best["mism"])),
            "mean_steps": float(np.mean(best["steps"])),
            "per_case_ms": [t * 1e3 for t in pm_t],
            "per_case_cuesim_ms": [t * 1e3 for t in cs_t],
            "per_case_error_max_mm": [e * 1e3 for e in best["max"]],
        }
    return out


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


def time_pooltool(backend: Any, scenario: sc.Scenario, cfg: Config, deadline: float,
                  cases: int | None = None) -> dict[str, list[float]]:
    """One pass: each case's pooltool time (median of `pooltool_repeats`), cuesim's time taken
    right before it, and pooltool's event count. The first `cases` cases, or (None) as many of
    the first `pooltool_cases` as start before `deadline` (at least one)."""
    pt = backend.pt
    one: dict[str, list[float]] = {"baseline": [], "cuesim": [], "events": []}
    limit = cfg.pooltool_cases if cases is None else cases
    for case in scenario.cases[:limit]:
        if cases is None and one["baseline"] and time.perf_counter() > deadline:
            break
        system = backend.system(**case.pooltool)
        one["cuesim"].append(time_case(case, scenario.max_events, cfg)[0])
        runs = []
        for _ in range(cfg.pooltool_repeats):
            t0 = time.perf_counter()
            out = pt.simulate(system, max_events=scenario.max_events)
            runs.append(time.perf_counter() - t0)
        one["baseline"].append(statistics.median(runs))
        one["events"].append(len(out.events))
    return one


def pooltool_figures(passes: list[dict[str, list[float]]], version: str) -> dict[str, Any]:
    """The figures from the passes of `time_pooltool` (each side at its fastest pass)."""
    best = fastest(passes, PAIRED)
    pt_t, cs_t = best["baseline"], best["cuesim"]
    ratios = [p / c for p, c in zip(pt_t, cs_t, strict=True)]
    return {"version": version, "cases": len(pt_t),
            "mean_ms": float(np.mean(pt_t)) * 1e3, "shots_per_s": len(pt_t) / sum(pt_t),
            "first_case_ms": pt_t[0] * 1e3, "first_case_ratio": ratios[0],
            "first_case_ratio_per_pass": [p["baseline"][0] / p["cuesim"][0] for p in passes],
            "ratio": sum(pt_t) / sum(cs_t), "median_ratio": statistics.median(ratios),
            "events": distribution([int(e) for e in best["events"]])}
