"""Benchmark: Gymnasium environment steps per second (cuesim.env), and the compiled parallel
batch of shots under the vector environment (cuesim.sim.batch_parallel).

    python bench/env_steps.py [--quick] [--games 9-ball,novus] [--num-envs 64] [--json FILE]

Printed side by side in one run, for each game and each opponent ('self': a step is one shot;
'computer': a step is the agent's shot and the computer's turns, each the best of `--level`
simulated candidates):
- one CueEnv (`env.step`, reset when an episode ends);
- a vector of `--num-envs`: Gymnasium's SyncVectorEnv (a Python loop over the envs, each shot
  through `simulate`) and CueVecEnv (every round of shots of all envs in one compiled call),
  the latter with numba threads = 1 and = every core (`numba.set_num_threads`);
- the physics alone: the same set of shots (9-ball from the break and from the layouts random
  shots leave) by a loop of `simulate`'s core (`run_input`) and by `run_inputs` with 1 thread
  and every thread: shots/s and the speed-up of all threads over one.

Env steps/s = environments x vector steps / wall time (time.perf_counter) after a warm-up step
(compiled code loaded, first reset done); the vectors use the same seeds and actions.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import time
from typing import Any

import gymnasium
import numba
import numpy as np

import cuesim
import cuesim.env
from cuesim import CueShot, simulate, start_layout
from cuesim.api import game_table, simulate_input
from cuesim.commands import at_most, output_file
from cuesim.env import ENV_IDS, CueEnv
from cuesim.sim.batch_parallel import run_inputs
from cuesim.sim.engine import run_input

ID_OF = {game: env_id for env_id, game in ENV_IDS.items() if "Flat" not in env_id}
SHORT = {"points_to": 15}  # 14.1 and 5-pins: matches long enough not to end every few steps


def _kwargs(game: str, opponent: str, level: int) -> dict[str, Any]:
    kw: dict[str, Any] = {"opponent": opponent, "level": level, "max_shots": 200}
    if game in ("14.1", "5-pins"):
        kw["options"] = SHORT
    return kw


def one_env(game: str, kw: dict[str, Any], steps: int, seed: int) -> float:
    env = CueEnv(game, **kw)
    env.action_space.seed(seed)
    env.reset(seed=seed)
    _, _, term, trunc, _ = env.step(env.action_space.sample())  # warm-up
    if term or trunc:
        env.reset()
    t0 = time.perf_counter()
    for _ in range(steps):
        _, _, term, trunc, _ = env.step(env.action_space.sample())
        if term or trunc:
            env.reset()
    return steps / (time.perf_counter() - t0)


def vector(envs: Any, steps: int, seed: int) -> float:
    envs.action_space.seed(seed)
    envs.reset(seed=seed)
    actions = [envs.action_space.sample() for _ in range(steps + 1)]
    envs.step(actions[0])  # warm-up
    t0 = time.perf_counter()
    for a in actions[1:]:
        envs.step(a)
    return envs.num_envs * steps / (time.perf_counter() - t0)


def with_threads(n: int, fn: Any) -> Any:
    before = numba.get_num_threads()
    numba.set_num_threads(n)
    try:
        return fn()
    finally:
        numba.set_num_threads(before)


def physics_inputs(n: int, seed: int) -> list[Any]:
    """n 9-ball shots: a quarter breaks, the rest from layouts random shots left."""
    rng = np.random.default_rng(seed)
    table = game_table("9-ball")
    start = start_layout("9-ball", table)
    cue, apex = start.get("cue"), start.get("1")
    aim = math.atan2(apex.y - cue.y, apex.x - cue.x)
    layouts = [start]
    while len(layouts) < 8:
        r = simulate(table, layouts[-1], CueShot(angle=float(rng.uniform(-3, 3)), speed=3.0))
        if r.final_on[r.initial.index("cue")]:
            layouts.append(r.final)
    out = []
    for k in range(n):
        if k % 4 == 0:
            shot = CueShot(angle=aim + float(rng.uniform(-0.01, 0.01)),
                           speed=float(rng.uniform(6, 9)), height=0.2)
            out.append(simulate_input(table, start, shot))
        else:
            shot = CueShot(angle=float(rng.uniform(-math.pi, math.pi)),
                           speed=float(rng.uniform(1, 6)), side=float(rng.uniform(-0.3, 0.3)))
            out.append(simulate_input(table, layouts[1 + k % 7], shot))
    return out


def physics(n: int, repeats: int, cores: int) -> dict[str, float]:
    inputs = physics_inputs(n, seed=2026)
    run_inputs(inputs[:4])  # load the compiled code

    def best(fn: Any) -> float:
        return min(_timed(fn) for _ in range(repeats))

    loop = best(lambda: [run_input(i) for i in inputs])
    t1 = with_threads(1, lambda: best(lambda: run_inputs(inputs)))
    tn = with_threads(cores, lambda: best(lambda: run_inputs(inputs)))
    events = sum(r.n_events for r in run_inputs(inputs))
    return {"shots": n, "events": events, "loop_shots_per_s": n / loop,
            "batch_1_thread_shots_per_s": n / t1, f"batch_{cores}_threads_shots_per_s": n / tn,
            "speedup_all_threads_over_1": t1 / tn}


def _timed(fn: Any) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer steps and shots")
    ap.add_argument("--games", default="9-ball,novus", help="comma-separated games")
    ap.add_argument("--num-envs", type=int, default=64)
    ap.add_argument("--level", type=at_most(10_000), default=16, help="the computer's candidates")
    ap.add_argument("--json", type=output_file, help="also write every figure to this JSON file")
    args = ap.parse_args(argv)
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    for g in games:
        if g not in ID_OF:
            ap.error(f"unknown game {g!r}; games are {', '.join(ID_OF)}")
    if not 1 <= args.num_envs <= 4096:
        ap.error("--num-envs must be in 1..4096")
    cores = numba.config.NUMBA_NUM_THREADS
    steps = 2 if args.quick else 6
    one_steps = 10 if args.quick else 40
    print(f"cuesim {cuesim.__version__} | Python {platform.python_version()} | "
          f"{platform.machine()} | {os.cpu_count()} CPUs visible | numba threads 1 and {cores} "
          f"| gymnasium {gymnasium.__version__}")
    report: dict[str, Any] = {"cpus": os.cpu_count(), "numba_threads": cores, "runs": []}
    n = args.num_envs
    for game in games:
        for opponent in ("self", "computer"):
            kw = _kwargs(game, opponent, args.level)
            env_id = ID_OF[game]
            one = one_env(game, kw, one_steps, seed=1)
            sync = vector(gymnasium.make_vec(env_id, n, vectorization_mode="sync", **kw), steps,
                          seed=1)
            ours = cuesim.env.make_vec(env_id, n, **kw)
            v1 = with_threads(1, lambda ours=ours: vector(ours, steps, seed=1))
            vn = with_threads(cores, lambda ours=ours: vector(ours, steps, seed=1))
            what = "one shot" if opponent == "self" else \
                f"the agent's shot + the computer's turns, level {args.level}"
            print(f"\n== {game}, opponent {opponent} (a step: {what}) | env steps/s ==")
            print(f"one CueEnv                          {one:9.1f}")
            print(f"SyncVectorEnv x{n:<4d}                 {sync:9.1f}")
            print(f"CueVecEnv x{n:<4d} numba threads 1     {v1:9.1f}  ({v1 / sync:.2f}x sync)")
            print(f"CueVecEnv x{n:<4d} numba threads {cores:<4d}  {vn:9.1f}  ({vn / sync:.2f}x "
                  f"sync, {vn / v1:.2f}x 1 thread)")
            report["runs"].append({"game": game, "opponent": opponent, "num_envs": n,
                                   "one_env": one, "sync_vector": sync, "cue_vec_1_thread": v1,
                                   f"cue_vec_{cores}_threads": vn})
    shots = 256 if args.quick else 2048
    ph = physics(shots, 2 if args.quick else 5, cores)
    report["physics"] = ph
    print(f"\n== physics alone: {shots} 9-ball shots ({ph['events']} events), shots/s ==")
    print(f"loop of run_input (simulate's core)  {ph['loop_shots_per_s']:9.0f}")
    print(f"run_inputs, numba threads 1          {ph['batch_1_thread_shots_per_s']:9.0f}")
    print(f"run_inputs, numba threads {cores:<4d}       "
          f"{ph[f'batch_{cores}_threads_shots_per_s']:9.0f}  "
          f"({ph['speedup_all_threads_over_1']:.2f}x 1 thread)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)


if __name__ == "__main__":
    main()
