"""Benchmark: the novus opening shot, cuesim's exact core against the pymunk baseline.

    python bench/novus_opening.py [--quick] [--json FILE]

Shots: the opening (striker in the middle of the south zone, straight ahead at 6 m/s) and a
spread of aims and speeds, into the doubles layout (33 discs) and the singles layout (17).
Measured in one run, on one core (every timing is single-threaded wall-clock, perf_counter):
- cuesim `run_motion` on the pre-placed layout (check=False): the whole core call, and
  inside it the compiled event loop alone (`run_events`);
- cuesim `simulate` (placing and checking the shot, then the same core call);
- the pymunk backend (`cuesim.sim.pymunk_backend`) at dt = 1 ms and 0.5 ms, whole run and the
  share spent inside pymunk's `Space.step`;
- the cold compile (a fresh process with an empty numba cache) and a fresh process reaching
  its first simulated shot with the numba cache warm.
Every figure is a median over repeats; shots/s = 1 / (median time per shot).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import cuesim
from cuesim import NovusShot, novus_doubles_layout, novus_singles_layout, novus_table, simulate
from cuesim.commands import output_file
from cuesim.sim import run_motion
from cuesim.sim.pymunk_backend import run_motion_pymunk

if __package__ in (None, ""):  # run as a script: make `bench` importable
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from bench import suite_startup  # noqa: E402
from bench.loop_timer import LoopTimer  # noqa: E402

OPENING = NovusShot(x=0.5, angle=math.pi / 2, speed=6.0)
TARGET_MS_PER_SHOT = 0.25  # issue 2: at most 0.25 ms per opening shot per core
TARGET_RATIO = 100.0  # issue 2: at least 100x pymunk at a 1 ms step
TARGET_FIRST_SHOT_S = 1.0  # issue 2: a fresh process reaches its first shot within 1 s
TARGET_WARM_START_S = 0.5  # issue 16: ... within 0.5 s (numba cache warm)

# -- shots ----------------------------------------------------------------------------------------
def spread(quick: bool) -> list[NovusShot]:
    """The opening and a grid of aims and speeds from the middle of the south zone."""
    angles = (-0.1, 0.0, 0.1) if quick else (-0.2, -0.1, -0.05, 0.0, 0.05, 0.1, 0.2)
    speeds = (6.0,) if quick else (3.0, 6.0, 10.0)
    shots = [OPENING]
    for speed in speeds:
        for da in angles:
            shot = NovusShot(x=0.5, angle=math.pi / 2 + da, speed=speed)
            if shot != OPENING:
                shots.append(shot)
    return shots


def random_spread(n: int, seed: int = 2026) -> list[NovusShot]:
    """Openings at random aim, speed, striker place and spin (for the event distribution)."""
    rng = np.random.default_rng(seed)
    return [NovusShot(x=float(rng.uniform(0.3, 0.7)), angle=float(rng.uniform(1.35, 1.79)),
                      speed=float(rng.uniform(2.0, 10.0)), offset=float(rng.uniform(-0.01, 0.01)))
            for _ in range(n)]


def median_time(fn: Callable[[], Any], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


# -- measurements ---------------------------------------------------------------------------------
def measure_layout(name: str, layout: cuesim.Layout, shots: list[NovusShot], dist: list[NovusShot],
                   repeats: int, pm_repeats: int, dts: tuple[float, ...]) -> dict[str, Any]:
    table = novus_table()
    placed = [(s.place(table, layout), {"striker": s.striker_motion(table)}) for s in shots]
    out: dict[str, Any] = {"layout": name, "discs": len(layout), "shots": len(shots)}

    events = []
    core, loop, full = [], [], []
    for (lay, init), shot in zip(placed, shots, strict=True):
        res = run_motion(table, lay, init, struck="striker", check=False)  # warm
        events.append(res.n_events)
        core.append(median_time(
            lambda lay=lay, init=init: run_motion(table, lay, init, struck="striker",
                                                  check=False), repeats))
        with LoopTimer() as timer:
            for _ in range(repeats):
                run_motion(table, lay, init, struck="striker", check=False)
        loop.append(timer.seconds / repeats)
        full.append(median_time(lambda shot=shot: simulate(table, layout, shot), repeats))
    ev = np.array(events, dtype=float)
    out["events"] = events
    out["opening_events"] = events[0]
    out["cuesim"] = {
        "opening_ms": core[0] * 1e3,
        "opening_loop_ms": loop[0] * 1e3,
        "opening_simulate_ms": full[0] * 1e3,
        "mean_ms": float(np.mean(core)) * 1e3,
        "mean_loop_ms": float(np.mean(loop)) * 1e3,
        "mean_simulate_ms": float(np.mean(full)) * 1e3,
        "shots_per_s": 1.0 / float(np.mean(core)),
        "loop_shots_per_s": 1.0 / float(np.mean(loop)),
        "events_per_s": float(ev.sum() / np.sum(core)),
        "us_per_event": float(np.sum(core) / ev.sum() * 1e6),
        "loop_us_per_event": float(np.sum(loop) / ev.sum() * 1e6),
    }

    dist_events = []
    t0 = time.perf_counter()
    for shot in dist:
        dist_events.append(run_motion(table, shot.place(table, layout),
                                      {"striker": shot.striker_motion(table)},
                                      struck="striker", check=False).n_events)
    dist_s = time.perf_counter() - t0
    de = np.array(dist_events, dtype=float)
    out["distribution"] = {
        "shots": len(dist), "median_events": float(np.median(de)),
        "p99_events": float(np.percentile(de, 99)), "max_events": int(de.max()),
        "shots_per_s": len(dist) / dist_s, "events_per_s": float(de.sum() / dist_s),
    }

    out["pymunk"] = {}
    for dt in dts:
        whole, stepping, steps = [], [], []
        for lay, init in placed:
            runs = []
            for _ in range(pm_repeats):
                t0 = time.perf_counter()
                res = run_motion_pymunk(table, lay, init, dt=dt, profile=True)
                runs.append((time.perf_counter() - t0, res.step_seconds))
            whole.append(statistics.median(r[0] for r in runs))
            stepping.append(statistics.median(r[1] for r in runs))
            steps.append(res.steps)
        out["pymunk"][f"{dt * 1e3:g}ms"] = {
            "dt": dt,
            "opening_ms": whole[0] * 1e3,
            "opening_space_step_ms": stepping[0] * 1e3,
            "mean_ms": float(np.mean(whole)) * 1e3,
            "mean_space_step_ms": float(np.mean(stepping)) * 1e3,
            "shots_per_s": 1.0 / float(np.mean(whole)),
            "mean_steps": float(np.mean(steps)),
            "ratio_opening": whole[0] / core[0],
            "ratio_mean": float(np.mean(whole) / np.mean(core)),
            "ratio_space_step_only": float(np.mean(stepping) / np.mean(core)),
        }
    return out


def fresh_process(env: dict[str, str], repeats: int) -> dict[str, float]:
    """A new interpreter imports cuesim and plays the opening (then a 9-ball break: the suite's
    script, `bench.suite_startup`), median over repeats. `to_shot_s` is from the launch to the
    opening's result (the child's clock at that moment against the parent's at the launch),
    `wall_s` the whole process, its exit included."""
    got = suite_startup.fresh_process(env, repeats)
    return {"to_shot_s": got["wall_to_first_shot_s"], "wall_s": got["wall_s"],
            "import_s": got["import_s"], "first_shot_s": got["first_shot_s"]}


def warm_starts(repeats: int) -> dict[str, dict[str, float]]:
    """Fresh processes with the numba cache warm: as this environment runs Python, and, where
    PYTHONDONTWRITEBYTECODE is set (then every import compiles its module's source again), also
    with Python's bytecode cache, as a normal install has it (`suite_startup.bytecode_cached`)."""
    out = {"as_run": fresh_process(dict(os.environ), repeats)}
    cached = suite_startup.bytecode_cached(repeats)
    if cached is not None:
        out["bytecode_cached"] = {"to_shot_s": cached["wall_to_first_shot_s"],
                                  "wall_s": cached["wall_s"], "import_s": cached["import_s"],
                                  "first_shot_s": cached["first_shot_s"]}
    return out


# -- report ---------------------------------------------------------------------------------------
def report(results: dict[str, Any]) -> None:
    print(f"cuesim {cuesim.__version__} | Python {platform.python_version()} | "
          f"{platform.processor() or platform.machine()} | {os.cpu_count()} CPUs visible, "
          "timings on one core")
    for lay in results["layouts"]:
        c = lay["cuesim"]
        d = lay["distribution"]
        print(f"\n== {lay['layout']}: {lay['discs']} discs, {lay['shots']} timed shots "
              f"(opening: {lay['opening_events']} events) ==")
        print(f"cuesim run_motion  opening {c['opening_ms']:.3f} ms "
              f"(loop {c['opening_loop_ms']:.3f} ms, simulate {c['opening_simulate_ms']:.3f} ms)"
              f" | spread mean {c['mean_ms']:.3f} ms (loop {c['mean_loop_ms']:.3f}, "
              f"simulate {c['mean_simulate_ms']:.3f})")
        print(f"                   {c['shots_per_s']:.0f} shots/s (loop alone "
              f"{c['loop_shots_per_s']:.0f}), {c['events_per_s']:.0f} events/s, "
              f"{c['us_per_event']:.2f} us/event (loop {c['loop_us_per_event']:.2f})")
        print(f"events over {d['shots']} random openings: median {d['median_events']:.0f}, "
              f"p99 {d['p99_events']:.0f}, max {d['max_events']} "
              f"({d['shots_per_s']:.0f} shots/s, {d['events_per_s']:.0f} events/s)")
        for key, p in lay["pymunk"].items():
            print(f"pymunk dt={key:<6} opening {p['opening_ms']:.2f} ms "
                  f"(Space.step {p['opening_space_step_ms']:.2f}) | spread mean "
                  f"{p['mean_ms']:.2f} ms, {p['shots_per_s']:.0f} shots/s, "
                  f"{p['mean_steps']:.0f} steps | cuesim is {p['ratio_opening']:.0f}x "
                  f"(opening), {p['ratio_mean']:.0f}x (spread), "
                  f"{p['ratio_space_step_only']:.0f}x vs Space.step alone")
    print()
    cold = results.get("cold_compile")
    if cold:
        print(f"cold compile (empty numba cache): first shot {cold['first_shot_s']:.2f} s, "
              f"process {cold['wall_s']:.2f} s")
    else:
        print("cold compile: skipped (--quick)")
    for key, label in (("as_run", "as this environment runs Python"),
                       ("bytecode_cached", "with Python's bytecode cache")):
        warm = results["fresh_process"].get(key)
        if warm:
            print(f"fresh process to first shot (numba cache warm, {label}): "
                  f"{warm['to_shot_s']:.3f} s to the shot, {warm['wall_s']:.3f} s with the exit "
                  f"(import {warm['import_s']:.3f} s, first shot {warm['first_shot_s']:.3f} s)")
    warm = results["fresh_process"]["as_run"]
    doubles = next(x for x in results["layouts"] if x["layout"] == "doubles")
    ratio = doubles["pymunk"].get("1ms", {}).get("ratio_opening", float("nan"))
    print(f"\ntargets (issue 2): opening <= {TARGET_MS_PER_SHOT} ms/shot: "
          f"{doubles['cuesim']['opening_ms']:.3f} ms | >= {TARGET_RATIO:.0f}x pymunk at 1 ms: "
          f"{ratio:.0f}x | fresh process < {TARGET_FIRST_SHOT_S:.0f} s: {warm['wall_s']:.2f} s"
          f"\ntarget (issue 16): a fresh process to its first shot <= {TARGET_WARM_START_S} s: "
          + ", ".join(f"{results['fresh_process'][k]['to_shot_s']:.2f} s ({k})"
                      for k in results["fresh_process"]))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer shots and repeats, no cold "
                    "compile")
    ap.add_argument("--json", metavar="FILE", type=output_file,
                    help="also write the figures as JSON")
    args = ap.parse_args(argv)

    quick = args.quick
    repeats, pm_repeats = (5, 1) if quick else (21, 3)
    dts = (1e-3, 5e-4)
    shots = spread(quick)
    dist = random_spread(20 if quick else 200)
    results: dict[str, Any] = {"quick": quick, "python": platform.python_version()}

    if not quick:  # before anything here compiles, so the numba cache of this run stays warm
        with tempfile.TemporaryDirectory() as cache:
            cold = fresh_process({**os.environ, "NUMBA_CACHE_DIR": cache}, 1)
        results["cold_compile"] = cold

    table = novus_table()
    simulate(table, novus_doubles_layout(table), OPENING)  # loads (or writes) the numba cache
    run_motion_pymunk(table, OPENING.place(table, novus_doubles_layout(table)),
                      {"striker": OPENING.striker_motion(table)})
    results["layouts"] = [
        measure_layout(name, layout, shots, dist, repeats, pm_repeats, dts)
        for name, layout in (("doubles", novus_doubles_layout(table)),
                             ("singles", novus_singles_layout(table)))
    ]
    results["fresh_process"] = warm_starts(3 if quick else 7)
    report(results)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(results, fh, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
