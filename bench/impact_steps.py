"""Benchmark: the multiple impact's resolution against its error and its cost.

    python bench/impact_steps.py [--steps 10,14,20,40] [--reference 320] [--repeats 30]
                                 [--statistics N]

The multiple impact (sim.resolve.multi_impact) integrates an impact in steps of its contact time
scale delta*/v over the resolution, the `impact_steps` of the table's physics (NovusPhysics,
BallPhysics: 20 by default, tables/contact.py IMPACT_STEPS). For the novus opening and the 9-ball
and 8-ball breaks (bench/scenarios.py, the first case of each) it prints, per resolution:
- the error: the largest difference of a piece's outgoing velocity after the shot's first
  impact from the reference resolution's, in mm/s;
- the whole shot's time (`run_motion`, best of the repeats, the resolutions interleaved) and
  the default's time over it.
Only the first impact is compared: after it the pieces' paths part, and a later difference is
that of a different shot. The results at the default resolution are the core's usual ones.

With --statistics N it also simulates N random 9-ball breaks and N random novus openings
(`simulate_many`, every core) at each resolution and compares what statistics of many shots
are made of: the mean number of pieces pocketed per shot and the share of shots that pocket
any, each as its difference from the default's over the same shots, with the standard error
of that paired difference. A break is chaotic, so single shots end elsewhere at another
resolution; a bias of these means is what would mislead a study.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import scenarios as sc  # noqa: E402
from cuesim.api import game_table, start_layout  # noqa: E402
from cuesim.batch import ShotSampler, simulate_many  # noqa: E402
from cuesim.commands import positive_int  # noqa: E402
from cuesim.sim import run_motion  # noqa: E402
from cuesim.sim.events import COL_KIND, COL_T, EventKind  # noqa: E402
from cuesim.sim.result import ShotResult  # noqa: E402
from cuesim.sim.state import SEG_EVENT, SEG_OBJ, SEG_T0, SEG_VX, SEG_VY  # noqa: E402
from cuesim.tables.contact import IMPACT_STEPS, IMPACT_STEPS_RANGE  # noqa: E402

STEPS = (10.0, 14.0, 20.0, 40.0)
REFERENCE = 320.0  # steps per contact time scale of the reference (the error at 20 is ~1000x
# that of 320, by the cube of the step: bench/README.md, "What fewer impact steps would buy")
CASES = {"novus opening": lambda: sc.novus_opening(1).cases[0],
         "9-ball break": lambda: sc.pool_break("9-ball", 1).cases[0],
         "8-ball break": lambda: sc.pool_break("8-ball", 1).cases[0]}


def with_resolution(table: Any, steps: float) -> Any:
    """The table with its physics' `impact_steps` set to steps."""
    return table.with_physics(impact_steps=steps)


def first_impact_velocities(result: ShotResult) -> dict[int, tuple[float, float]]:
    """Each piece's velocity as the shot's first impact between pieces leaves it: the segments
    its events open at that instant."""
    ev = result.events
    collide = np.flatnonzero(ev[:, COL_KIND] == int(EventKind.COLLIDE))
    if not collide.size:
        return {}
    t = ev[collide[0], COL_T]
    seg = result.segments
    rows = np.flatnonzero((seg[:, SEG_T0] == t) & (seg[:, SEG_EVENT] >= 0))
    return {int(seg[r, SEG_OBJ]): (float(seg[r, SEG_VX]), float(seg[r, SEG_VY])) for r in rows}


def velocity_error(a: dict[int, tuple[float, float]],
                   b: dict[int, tuple[float, float]]) -> float:
    """The largest difference of a velocity between two first impacts (m/s); a piece that
    leaves in one only counts with its whole speed."""
    err = 0.0
    for k in set(a) | set(b):
        (ax, ay), (bx, by) = a.get(k, (0.0, 0.0)), b.get(k, (0.0, 0.0))
        err = max(err, math.hypot(ax - bx, ay - by))
    return err


def shoot(case: sc.Case, table: Any) -> ShotResult:
    return run_motion(table, case.layout, case.initial, struck=case.struck, check=False)


def measure(case: sc.Case, steps: tuple[float, ...], reference: float,
            repeats: int) -> list[dict[str, float]]:
    tables = {s: with_resolution(case.table, s) for s in steps}
    ref = first_impact_velocities(shoot(case, with_resolution(case.table, reference)))
    best = {s: math.inf for s in steps}
    for s in steps:  # warm: each resolution's arrays built once
        shoot(case, tables[s])
    for _ in range(repeats):
        for s in steps:
            t0 = time.perf_counter()
            shoot(case, tables[s])
            best[s] = min(best[s], time.perf_counter() - t0)
    base = best[IMPACT_STEPS]
    return [{"steps": s, "error_mm_s": 1e3 * velocity_error(
        first_impact_velocities(shoot(case, tables[s])), ref),
        "us": 1e6 * best[s], "speedup": base / best[s]} for s in steps]


# random shots for --statistics: 9-ball breaks around straight up the table, novus openings
# from anywhere on the strip (radians, m/s, m; the batch sampler's parameters)
STATISTICS = {"9-ball": {"angle": (math.radians(88), math.radians(92)), "speed": (5.0, 9.0),
                         "side": (-0.2, 0.2), "height": (-0.3, 0.3)},
              "novus": {"angle": (math.radians(70), math.radians(110)), "speed": (3.0, 8.0),
                        "x": (0.3, 0.7)}}


def statistics(game: str, steps: tuple[float, ...], n: int) -> list[dict[str, float]]:
    """n random shots of `game` (STATISTICS) at each resolution: the pieces pocketed per
    shot and the share pocketing any, each against the default's over the same shots (the
    paired difference and its standard error), and the run's seconds."""
    table = game_table(game)
    layout = start_layout(game, table)
    sampler = ShotSampler(n, STATISTICS[game], seed=7)
    runs = {}
    for s in steps:
        t0 = time.perf_counter()
        res = simulate_many(table.with_physics(impact_steps=s), layout, sampler)
        runs[s] = (res["pocketed"].sum(axis=1).astype(float), time.perf_counter() - t0)
    base, _ = runs[IMPACT_STEPS]
    out = []
    for s in steps:
        count, seconds = runs[s]
        d, dp = count - base, (count > 0).astype(float) - (base > 0)
        out.append({"steps": s, "pocketed": float(count.mean()), "diff": float(d.mean()),
                    "diff_se": float(d.std() / math.sqrt(n)), "any": float(np.mean(count > 0)),
                    "any_diff": float(dp.mean()), "any_diff_se": float(dp.std() / math.sqrt(n)),
                    "seconds": seconds})
    return out


def _steps(text: str) -> tuple[float, ...]:
    try:
        out = tuple(float(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected numbers separated by commas, got {text!r}") from None
    lo, hi = IMPACT_STEPS_RANGE
    if not out or not all(lo <= s <= hi for s in out):
        raise argparse.ArgumentTypeError(f"expected resolutions in [{lo:g}, {hi:g}], got {text!r}")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=_steps, default=STEPS,
                    help="resolutions to measure, comma-separated (default 10,14,20,40; the "
                         "default resolution is always measured too)")
    ap.add_argument("--reference", type=lambda t: _steps(t)[0], default=REFERENCE,
                    help="the reference resolution (default 320)")
    ap.add_argument("--repeats", type=positive_int, default=30, help="timed runs of each shot")
    ap.add_argument("--statistics", type=positive_int, default=None, metavar="N",
                    help="also N random breaks and openings per resolution: their means")
    args = ap.parse_args(argv)
    steps = tuple(sorted(set(args.steps) | {IMPACT_STEPS}))  # the default: the ratios' base
    print(f"reference: {args.reference:g} steps per contact time scale; default "
          f"{IMPACT_STEPS:g}")
    print(f"{'shot':<14} {'steps':>6} {'error mm/s':>11} {'us/shot':>9} {'vs default':>11}")
    for name, make in CASES.items():
        for row in measure(make(), steps, args.reference, args.repeats):
            print(f"{name:<14} {row['steps']:>6g} {row['error_mm_s']:>11.2f} "
                  f"{row['us']:>9.1f} {row['speedup']:>10.2f}x")
    if args.statistics:
        n = args.statistics
        print(f"\n{n} random shots per game and resolution; differences from {IMPACT_STEPS:g} "
              "steps over the same shots (standard error)")
        print(f"{'game':<8} {'steps':>6} {'pocketed':>9} {'difference':>19} {'any':>7} "
              f"{'difference':>19} {'seconds':>8}")
        for game in STATISTICS:
            for r in statistics(game, steps, n):
                print(f"{game:<8} {r['steps']:>6g} {r['pocketed']:>9.4f} "
                      f"{r['diff']:>+9.4f} ({r['diff_se']:.4f}) {r['any']:>7.4f} "
                      f"{r['any_diff']:>+9.4f} ({r['any_diff_se']:.4f}) {r['seconds']:>8.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
