"""Benchmark: the 9-ball and 8-ball breaks, cuesim's exact core against pooltool (optional).

    python bench/breaks.py [--quick] [--json FILE]

Breaks (WPA 9 ft table, `cuesim.tables.pool_table()`): the cue ball in the middle of the table
one ball radius behind the head string, aimed at the apex ball on the foot spot, with the cue
speed that gives the cue ball 8 m/s (a hard break), into the frozen 9-ball diamond and the
frozen 8-ball triangle (every ball touching its neighbours: the classic trap of event cores).
Measured in one run (every timing is single-threaded wall-clock, perf_counter, median over
repeats; breaks/s = 1 / median time per break):
- cuesim `run_motion` on the pre-built layout (check=False): the whole core call, and inside it
  the compiled event loop alone (`run_events`); the full `simulate` (placing and checking the
  shot, the cue strike, the same core call);
- 300 random 8-ball breaks (random legal order, frozen; cue-ball speed 4-12 m/s, the cue ball
  anywhere behind the head string, aimed at the apex with up to +-0.5 degree of error): the
  event-count distribution, how many were truncated or ran past 1000 events, breaks/s; and,
  outside the timing, whether every break stays sound at every event time and at rest (no NaN,
  no overlap, no ball through a cushion), how many balls stop in a pocket's throat past its
  fall line (goal 0) and how many hang on a shelf, short of it;
- pooltool (`pooltool-billiards`), only if it imports: its own 9-ball and 8-ball racks (its
  tiny random gaps) on a 9 ft table built from its pocket-table specs, the same cue-ball place,
  aim and cue-ball speed (timed interleaved with cuesim's calls of the same break, so that the
  ratios see the same load, each warm: one untimed call after every switch), and the same
  random 8-ball breaks; the ratios are printed from the medians and from the best run of
  each (the estimate least touched by other load on a shared machine). Racks, pockets and physics
  parameters differ slightly between the two simulators, so the ratios compare like shots,
  not identical ones.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np

import cuesim
from cuesim import CueShot, simulate
from cuesim.commands import output_file
from cuesim.sim import run_motion
from cuesim.sim.cue import strike
from cuesim.sim.events import EventKind
from cuesim.tables import (
    cue_ball_in_kitchen,
    eight_ball_rack,
    nine_ball_rack,
    pool_table,
)
from cuesim.tables.pool import CORNER_SHELF, SIDE_SHELF

if __package__ in (None, ""):  # run as a script: make `bench` importable
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from bench.loop_timer import LoopTimer  # noqa: E402

BREAK_BALL_SPEED = 8.0  # m/s of the cue ball after the strike: a hard break
RANDOM_SPEEDS = (4.0, 12.0)  # m/s of the cue ball, random breaks
AIM_ERROR = math.radians(0.5)  # largest aim error of the random breaks (uniform)
SEED = 2026
EVENT_LIMIT = 1000  # issue 3: no break over 1000 events
TARGET_RATIO = 100.0  # issue 3: at least 100x pooltool on both breaks
TARGET_RATIO_CONTACT = 200.0  # issue 12: the contact model keeps the breaks at >= 200x
TARGET_RATIO_SPEED = 500.0  # issue 16: >= 500x pooltool on both breaks
TARGET_PER_S = {"9-ball": 2000.0, "8-ball": 1000.0}  # issue 3: breaks/s per core
PT_MAX_EVENTS = 20_000  # pooltool's cap on the two timed breaks (cuesim's default limit)


# -- timing helpers -------------------------------------------------------------------------------
def run_times(fn: Callable[[], Any], repeats: int) -> list[float]:
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return times


def median_time(fn: Callable[[], Any], repeats: int) -> float:
    return statistics.median(run_times(fn, repeats))


def distribution(events: list[int], seconds: float) -> dict[str, Any]:
    ev = np.array(events, dtype=float)
    return {
        "breaks": len(events), "median_events": float(np.median(ev)),
        "p99_events": float(np.percentile(ev, 99)), "max_events": int(ev.max()),
        "over_limit": int(np.sum(ev > EVENT_LIMIT)), "breaks_per_s": len(events) / seconds,
        "events_per_s": float(ev.sum() / seconds),
    }


# -- the breaks -----------------------------------------------------------------------------------
def random_breaks(n: int, seed: int = SEED) -> list[tuple[float, float, float, float]]:
    """(cue-ball x and y as fractions of the kitchen, cue-ball speed, aim error) per break."""
    rng = np.random.default_rng(seed)
    return [(float(rng.random()), float(rng.random()), float(rng.uniform(*RANDOM_SPEEDS)),
             float(rng.uniform(-AIM_ERROR, AIM_ERROR))) for _ in range(n)]


def cue_speed_for(table, ball_speed):
    """The cue speed (m/s) that gives the cue ball `ball_speed` in cuesim's strike model."""
    vx, vy = strike(table.piece_spec("ball"), 1.0, 0.0)[:2]
    return ball_speed / math.hypot(vx, vy)


def aim_at_apex(table, x, y):
    fx, fy = table.foot_spot
    return math.atan2(fy - y, fx - x)


def kind_counts(result) -> dict[str, int]:
    counts = Counter(EventKind(int(k)).name.lower() for k in result.events[:, 1])
    return dict(sorted(counts.items(), key=lambda kv: -kv[1]))


def unsound(table, result):
    """Why the shot is unsound, or None: checked at every event time and at rest (as
    tests/test_balls_properties.py does), a non-finite position, two balls overlapping by more
    than 1e-9 m, or a ball outside the cushion noses and not within 0.12 m of a pocket mouth
    (i.e. through a cushion)."""
    r = table.piece_spec("ball").radius
    lo, w, length = r - 1e-9, table.width, table.length
    mouths = np.array([[(p.lip_a[0] + p.lip_b[0]) / 2, (p.lip_a[1] + p.lip_b[1]) / 2]
                       for p in table.pockets])
    times = np.unique(result.events[:, 0])
    # at rest too, unless truncated: a truncated shot is known up to its last event only
    for t in times if result.truncated else np.append(times, times[-1] + 30.0):
        pos, on = result.positions_at(float(t))
        p = pos[on]
        if not np.all(np.isfinite(p)):
            return f"non-finite position at t = {t:.4f} s"
        out = ~((p[:, 0] >= lo) & (p[:, 0] <= w - lo) & (p[:, 1] >= lo) & (p[:, 1] <= length - lo))
        if out.any():
            d = np.hypot(p[out, None, 0] - mouths[None, :, 0], p[out, None, 1] - mouths[None, :, 1])
            if np.any(d.min(axis=1) >= 0.12):
                return f"a ball through a cushion at t = {t:.4f} s"
        if len(p) > 1:
            d = np.hypot(p[:, None, 0] - p[None, :, 0], p[:, None, 1] - p[None, :, 1])
            np.fill_diagonal(d, np.inf)
            if d.min() - 2 * r < -1e-9:
                return f"overlap {(2 * r - d.min()) * 1e3:.2g} mm at t = {t:.4f} s"
    return None


def in_throats(table, result):
    """Balls at rest behind a pocket's mouth line, not captured: (pocket kind, depth behind the
    mouth line in m, whether the centre is on or past the fall line). On the shelf (in front
    of the fall line) a ball hangs in the jaws, as on a real table; past the fall line it
    should have dropped (goal: none)."""
    out = []
    pos, on = result.final_positions, result.final_on
    for p in table.pockets:
        for (x, y), live in zip(pos, on, strict=True):
            depth = p.depth(float(x), float(y))
            if live and depth > 0.0:
                out.append((p.kind, depth, p.beyond_fall_line(float(x), float(y))))
    return out


# -- cuesim ---------------------------------------------------------------------------------------
def measure_cuesim_break(table, name, layout, repeats):
    cue = layout.pieces[layout.index("cue")]
    phi = aim_at_apex(table, cue.x, cue.y)
    speed = cue_speed_for(table, BREAK_BALL_SPEED)
    motion = {"cue": strike(table.piece_spec("ball"), speed, phi)}
    shot = CueShot(angle=phi, speed=speed)

    def core():
        return run_motion(table, layout, motion, struck="cue", check=False)

    res = core()  # warm
    t_core = median_time(core, repeats)
    with LoopTimer() as timer:
        for _ in range(repeats):
            core()
    t_loop = statistics.median(timer.times)
    def full():
        return simulate(table, layout, shot)

    t_full = median_time(full, repeats)
    n = res.n_events
    out = {
        "break": name, "balls": len(layout), "cue_speed": speed, "ball_speed": BREAK_BALL_SPEED,
        "aim_rad": phi, "events": n, "truncated": res.truncated, "kinds": kind_counts(res),
        "pocketed": res.pocketed, "unsound": unsound(table, res),
        "run_motion_ms": t_core * 1e3, "loop_ms": t_loop * 1e3, "simulate_ms": t_full * 1e3,
        "breaks_per_s": 1.0 / t_core, "loop_breaks_per_s": 1.0 / t_loop,
        "simulate_breaks_per_s": 1.0 / t_full, "events_per_s": n / t_core,
        "us_per_event": t_core / n * 1e6, "loop_us_per_event": t_loop / n * 1e6,
    }
    return out, core, full


def cuesim_random_breaks(table, breaks, passes_n):
    """Run the random 8-ball breaks (layouts and strikes built first, only run_motion timed;
    the median of `passes_n` passes over all of them)."""
    rng = np.random.default_rng(SEED + 1)
    r, hs, w = table.piece_spec("ball").radius, table.head_string_y, table.width
    cases = []
    for fx, fy, ball_speed, err in breaks:
        cue = cue_ball_in_kitchen(table, x=r + fx * (w - 2 * r), y=min(r + fy * (hs - r),
                                                                         math.nextafter(hs, 0)))
        layout = eight_ball_rack(table, rng=rng, cue=cue)
        phi = aim_at_apex(table, cue.x, cue.y) + err
        cases.append((layout, {"cue": strike(table.piece_spec("ball"),
                                             cue_speed_for(table, ball_speed), phi)}))
    events, truncated = [], 0
    passes = []
    for _ in range(passes_n):
        t0 = time.perf_counter()
        results = [run_motion(table, layout, motion, struck="cue", check=False)
                   for layout, motion in cases]
        passes.append(time.perf_counter() - t0)
    seconds = statistics.median(passes)
    problems, throats = [], []
    for k, res in enumerate(results):
        events.append(res.n_events)
        truncated += res.truncated
        why = unsound(table, res)
        if why:
            problems.append(f"break {k}: {why}")
        throats += [(k, *x) for x in in_throats(table, res)]
    out = distribution(events, seconds)
    shelf = [(k, kind, d) for k, kind, d, past in throats if not past]
    out.update({"truncated": truncated, "unsound": len(problems),
                "unsound_examples": problems[:3], "events": events,
                "pocketed_mean": float(np.mean([len(r.pocketed) for r in results])),
                "past_fall_line": sum(past for *_, past in throats),
                "on_shelf": len(shelf), "on_shelf_breaks": len({k for k, *_ in shelf}),
                "on_shelf_corner": sum(kind == "corner" for _, kind, _ in shelf),
                "on_shelf_max_depth_mm": max((d for *_, d in shelf), default=0.0) * 1e3})
    worst = int(np.argmax(events))
    out["worst"] = {"index": worst, "events": events[worst], "kinds": kind_counts(results[worst]),
                    "cue": [cases[worst][0].pieces[0].x, cases[worst][0].pieces[0].y],
                    "ball_speed": breaks[worst][2]}
    return out


# -- pooltool (optional) --------------------------------------------------------------------------
def import_pooltool():
    """(the pooltool module, None) or (None, why it is not there)."""
    try:
        import pooltool
    except Exception as exc:  # ImportError, or a broken install failing inside its imports
        return None, f"{type(exc).__name__}: {exc}".splitlines()[0][:200]
    return pooltool, None


class PooltoolBreaks:
    """Breaks on pooltool: a 9 ft table from its pocket-table specs (its 7 ft pockets and
    cushions otherwise), its own racks (tiny random gaps, spacing_factor 1e-3), its default
    physics engine and ball parameters."""

    def __init__(self, pt) -> None:
        from pooltool.objects.table.specs import PocketTableSpecs, TableModelDescr

        self.pt = pt
        self.table = pt.Table.from_table_specs(
            PocketTableSpecs(l=2.54, w=1.27, model_descr=TableModelDescr.null()))
        self.per_v0 = None

    def system(self, game, cue_xy=None, ball_speed=BREAK_BALL_SPEED, aim_error=0.0, seed=SEED):
        pt = self.pt
        random.seed(seed)  # pooltool's racks draw from the global generators
        np.random.seed(seed)
        gt = pt.GameType.NINEBALL if game == "9-ball" else pt.GameType.EIGHTBALL
        balls = pt.get_rack(gt, self.table)
        r = balls["cue"].params.R
        if cue_xy is None:
            cue_xy = (self.table.w / 2, self.table.l / 4 - r)
        balls["cue"].state.rvw[0][:2] = cue_xy
        apex = min((b for k, b in balls.items() if k != "cue"), key=lambda b: b.state.rvw[0][1])
        ax, ay = apex.state.rvw[0][:2]
        phi = math.atan2(ay - cue_xy[1], ax - cue_xy[0]) + aim_error
        cue = pt.Cue(cue_ball_id="cue")
        if self.per_v0 is None:
            self.per_v0 = self._ball_speed_per_v0(cue, balls)
        cue.set_state(V0=ball_speed / self.per_v0, phi=math.degrees(phi), theta=0.0, a=0.0,
                      b=0.0)
        return pt.System(cue=cue, table=self.table, balls=balls)

    def _ball_speed_per_v0(self, cue, balls):
        """The cue ball's speed after the stick-ball event per unit cue speed V0."""
        pt = self.pt
        cue.set_state(V0=1.0, phi=90.0, theta=0.0, a=0.0, b=0.0)
        s = pt.simulate(pt.System(cue=cue, table=self.table, balls=balls), t_final=1e-9)
        for ev in s.events:
            if ev.event_type == pt.EventType.STICK_BALL:
                for agent in ev.agents:
                    if agent.final is not None and hasattr(agent.final, "state"):
                        return float(np.linalg.norm(agent.final.state.rvw[1][:2]))
        raise RuntimeError("pooltool: no stick-ball event to calibrate the cue speed")

    def measure_break(self, game, repeats, core, full):
        """pooltool's break, interleaved with cuesim's `core` (run_motion) and `full`
        (simulate) calls of the same break, so that the ratios see the same machine load.
        Both are timed warm: after each switch from one simulator to the other, one untimed
        call of the next one refills the caches the other emptied (in a batch, each runs shot
        after shot)."""
        pt = self.pt
        system = self.system(game)
        pt.simulate(system, max_events=PT_MAX_EVENTS)  # warm (compiles on a cold numba cache)
        times, cs_core, cs_full, best_core = [], [], [], []
        for _ in range(repeats):
            pt.simulate(system, max_events=PT_MAX_EVENTS)  # warm after cuesim's calls
            t0 = time.perf_counter()
            out = pt.simulate(system, max_events=PT_MAX_EVENTS)
            times.append(time.perf_counter() - t0)
            core()  # warm after pooltool's call
            core_times = run_times(core, 9)
            cs_core.append(statistics.median(core_times))
            best_core.append(min(core_times))
            cs_full.append(median_time(full, 9))
        t, tc, tf = (statistics.median(x) for x in (times, cs_core, cs_full))
        n = len(out.events)
        # best of each: on a shared machine the fastest run of each simulator is the estimate
        # least touched by other load; the medians are printed beside it
        return {"break": game, "events": n, "ms": t * 1e3, "breaks_per_s": 1.0 / t,
                "events_per_s": n / t, "us_per_event": t / n * 1e6, "cue_V0": system.cue.V0,
                "ball_speed": self.per_v0 * system.cue.V0, "cuesim_alongside_ms": tc * 1e3,
                "cuesim_simulate_alongside_ms": tf * 1e3, "ratio": t / tc,
                "ratio_simulate": t / tf, "best_ms": min(times) * 1e3,
                "cuesim_best_ms": min(best_core) * 1e3,
                "ratio_best": min(times) / min(best_core)}

    def random_breaks(self, breaks, deadline):
        """The same random 8-ball breaks (cap: 1000 events; stops early at `deadline`)."""
        pt = self.pt
        r = 0.028575
        hs, w = self.table.l / 4, self.table.w
        events, capped, seconds = [], 0, 0.0
        for k, (fx, fy, ball_speed, err) in enumerate(breaks):
            if time.perf_counter() > deadline:
                break
            xy = (r + fx * (w - 2 * r), r + fy * (hs - r) * (1 - 1e-9))
            system = self.system("8-ball", xy, ball_speed, err, seed=SEED + 1 + k)
            t0 = time.perf_counter()
            out = pt.simulate(system, max_events=EVENT_LIMIT)
            seconds += time.perf_counter() - t0
            n = len(out.events)
            events.append(n)
            capped += n > EVENT_LIMIT
        res = distribution(events, seconds)
        res["capped"] = capped
        res["planned"] = len(breaks)
        return res


def measure_pooltool(pt, repeats, breaks, budget_s, calls):
    bench = PooltoolBreaks(pt)
    t0 = time.perf_counter()
    pt.simulate(bench.system("9-ball"))  # first call: numba compile or cache load
    out: dict[str, Any] = {"version": getattr(pt, "__version__", "?"),
                           "first_break_s": time.perf_counter() - t0}
    out["breaks"] = [bench.measure_break(g, repeats, *calls[g]) for g in ("9-ball", "8-ball")]
    out["random"] = bench.random_breaks(breaks, time.perf_counter() + budget_s)
    return out


# -- report ---------------------------------------------------------------------------------------
def report(results: dict[str, Any]) -> None:
    print(f"cuesim {cuesim.__version__} | Python {platform.python_version()} | "
          f"numba {results['numba']} | {platform.processor() or platform.machine()} | "
          f"{os.cpu_count()} CPUs visible, timings single-threaded on one core")
    print(f"breaks: WPA 9 ft table, cue ball at ({results['cue'][0]:.3f}, "
          f"{results['cue'][1]:.4f}) m (middle, one radius behind the head string), aimed at "
          f"the apex, cue ball {BREAK_BALL_SPEED:g} m/s (cue "
          f"{results['breaks'][0]['cue_speed']:.2f} m/s); frozen racks")
    pts = {b["break"]: b for b in (results.get("pooltool") or {}).get("breaks", [])}
    for b in results["breaks"]:
        kinds = ", ".join(f"{k} {v}" for k, v in b["kinds"].items())
        print(f"\n== {b['break']} break: {b['balls']} balls, {b['events']} events ({kinds}); "
              f"pocketed {b['pocketed'] or 'none'}"
              f"{'; TRUNCATED' if b['truncated'] else ''}"
              f"{'; UNSOUND: ' + b['unsound'] if b['unsound'] else ''} ==")
        print(f"cuesim run_motion {b['run_motion_ms']:.3f} ms (loop {b['loop_ms']:.3f} ms, "
              f"simulate {b['simulate_ms']:.3f} ms) | {b['breaks_per_s']:.0f} breaks/s "
              f"(loop alone {b['loop_breaks_per_s']:.0f}, simulate "
              f"{b['simulate_breaks_per_s']:.0f}), {b['events_per_s']:.0f} events/s, "
              f"{b['us_per_event']:.2f} us/event (loop {b['loop_us_per_event']:.2f})")
        p = pts.get(b["break"])
        if p:
            print(f"pooltool          {p['ms']:.2f} ms, {p['events']} events | "
                  f"{p['breaks_per_s']:.1f} breaks/s, {p['events_per_s']:.0f} events/s, "
                  f"{p['us_per_event']:.0f} us/event | cuesim is {p['ratio']:.0f}x "
                  f"(run_motion, {p['cuesim_alongside_ms']:.3f} ms timed alongside), "
                  f"{p['ratio_simulate']:.0f}x (simulate, "
                  f"{p['cuesim_simulate_alongside_ms']:.3f} ms)")
            print(f"                  best of each: pooltool {p['best_ms']:.2f} ms, cuesim "
                  f"run_motion {p['cuesim_best_ms']:.3f} ms: {p['ratio_best']:.0f}x")

    d = results["random"]
    print(f"\n== {d['breaks']} random 8-ball breaks (cue ball {RANDOM_SPEEDS[0]:g}-"
          f"{RANDOM_SPEEDS[1]:g} m/s, anywhere behind the head string, aim error up to "
          f"+-{math.degrees(AIM_ERROR):g} deg; frozen racks, seed {SEED}) ==")
    print(f"cuesim   events median {d['median_events']:.0f}, p99 {d['p99_events']:.0f}, max "
          f"{d['max_events']} | over {EVENT_LIMIT}: {d['over_limit']}, truncated: "
          f"{d['truncated']} | {d['breaks_per_s']:.0f} breaks/s, {d['events_per_s']:.0f} "
          f"events/s | {d['pocketed_mean']:.2f} balls pocketed per break")
    w = d["worst"]
    print(f"         most events: break {w['index']} ({w['events']}: "
          f"{', '.join(f'{k} {v}' for k, v in w['kinds'].items())}; cue ball at "
          f"({w['cue'][0]:.3f}, {w['cue'][1]:.3f}) m, {w['ball_speed']:.1f} m/s)")
    print(f"         unsound at some event or at rest (NaN, overlap > 1e-9 m, through a "
          f"cushion): {d['unsound']}"
          + "".join(f"\n           {x}" for x in d["unsound_examples"]))
    print(f"         balls at rest in a pocket's throat past its fall line (goal 0): "
          f"{d['past_fall_line']}; hanging on a shelf (behind the mouth line, short of the "
          f"fall line): {d['on_shelf']} ({d['on_shelf_corner']} corner) in "
          f"{d['on_shelf_breaks']} breaks, up to {d['on_shelf_max_depth_mm']:.1f} mm deep "
          f"(shelf: corner {CORNER_SHELF * 1e3:.1f} mm, side {SIDE_SHELF * 1e3:.1f} mm)")

    pt = results.get("pooltool")
    if pt and "random" in pt:
        q = pt["random"]
        cut = (f" (stopped at the time budget after {q['breaks']} of {q['planned']})"
               if q["breaks"] < q["planned"] else "")
        print(f"pooltool events median {q['median_events']:.0f}, p99 {q['p99_events']:.0f}, "
              f"max {q['max_events']} | over {EVENT_LIMIT} (stopped at the cap): {q['capped']}"
              f" of {q['breaks']} ({100 * q['capped'] / q['breaks']:.1f}%) | "
              f"{q['breaks_per_s']:.1f} breaks/s{cut}")
    print()
    if pt and "breaks" in pt:
        print(f"pooltool {pt['version']}: ran in this process (first break, with its numba "
              f"compile or cache load, {pt['first_break_s']:.1f} s). Not the same shots: its "
              "own racks (tiny random gaps, not frozen), its 7 ft pocket and cushion geometry "
              "on a 9 ft bed, its ball, cloth and cushion parameters and its event kinds "
              "(event counts include its null events).")
    else:
        status = "failed" if results.get("pooltool_failed") else "not installed"
        print(f"pooltool: {status} ({results['pooltool_reason']})")

    print("\ntargets (issues 3, 12 and 16), measured in this run:")
    for b in results["breaks"]:
        p = pts.get(b["break"])
        ratio = (f"{p['ratio']:.0f}x medians, {p['ratio_best']:.0f}x best of each "
                 f"(simulate {p['ratio_simulate']:.0f}x)" if p else "n/a (no pooltool)")
        print(f"  {b['break']}: >= {TARGET_RATIO:.0f}x / {TARGET_RATIO_CONTACT:.0f}x / "
              f"{TARGET_RATIO_SPEED:.0f}x pooltool: {ratio} | >= "
              f"{TARGET_PER_S[b['break']]:,.0f} breaks/s per core: {b['breaks_per_s']:,.0f} "
              f"(simulate {b['simulate_breaks_per_s']:,.0f})")
    print(f"  no break over {EVENT_LIMIT} events in {d['breaks']} random 8-ball breaks: "
          f"{d['over_limit']} over (max {d['max_events']}), {d['truncated']} truncated")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true",
                    help="fewer repeats and random breaks (under ~30 s)")
    ap.add_argument("--json", metavar="FILE", type=output_file,
                    help="also write the figures as JSON")
    args = ap.parse_args(argv)

    quick = args.quick
    repeats, pt_repeats = (21, 3) if quick else (101, 7)
    n_random, pt_random, pt_budget = (300, 10, 8.0) if quick else (300, 300, 240.0)
    import numba

    results: dict[str, Any] = {"quick": quick, "python": platform.python_version(),
                               "numba": numba.__version__}
    table = pool_table()
    cue = cue_ball_in_kitchen(table)
    results["cue"] = [cue.x, cue.y]
    layouts = {"9-ball": nine_ball_rack(table, cue=cue), "8-ball": eight_ball_rack(table, cue=cue)}
    simulate(table, layouts["9-ball"], CueShot(angle=math.pi / 2, speed=1.0))  # numba cache
    results["breaks"], calls = [], {}
    for name, lay in layouts.items():
        out, core, full = measure_cuesim_break(table, name, lay, repeats)
        results["breaks"].append(out)
        calls[name] = (core, full)
    breaks = random_breaks(n_random)
    results["random"] = cuesim_random_breaks(table, breaks, 3 if quick else 7)

    pt, why = import_pooltool()
    if pt is not None:
        try:
            results["pooltool"] = measure_pooltool(pt, pt_repeats, breaks[:pt_random], pt_budget,
                                                   calls)
        except Exception as exc:  # optional: a broken install must not stop the benchmark
            why = f"imported, but failed: {type(exc).__name__}: {exc}".splitlines()[0][:200]
            results["pooltool_failed"] = True
            results.pop("pooltool", None)
    results["pooltool_reason"] = why
    report(results)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(results, fh, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
