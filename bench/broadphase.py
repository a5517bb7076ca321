"""Benchmark: cost per event against N on the box series, with and without the broadphase.

    python bench/broadphase.py [--quick] [--passes K] [--json FILE] [--plot FILE]
    python bench/broadphase.py --crossover [--quick] [--json FILE]

The box series (bench/scenarios.py `box`): n pucks or balls at random places in a square box
whose floor they cover 10 % of at every n, each launched at a random speed. For each n the
compiled loop (`run_events_grid`) runs the same shot three ways, interleaved, best of the
repeats: on no grid (one cell: every pair predicted at every event, the loop before the
broadphase), on the grid `auto_grid` picks for it (none below GRID_MIN_N pieces), and on a grid
forced for every n (the same cell rule). The whole `run_motion` call (the Python around the
loop included) is timed on the picked grid. The whole series is measured K times over (passes,
3 by default) and each figure is the best of its passes: on a shared machine whose speed
drifts for seconds at a time, a slow spell then spoils one pass of a row, not the row. Every
run's events are checked to be the same bytes on every grid. The target (issue 16):
>= 500,000 events/s per core (<= 2 us per event) from n = 16 to n = 1,024 on the loop alone.
The plot (matplotlib) shows us per event against n, log-log, one line per piece and way.

--crossover measures instead where the grid starts to pay, which sets GRID_MIN_N: the novus
openings (33 pieces), novus layouts of 16, 24 and 32 scattered pucks and boxes of 16-64 pieces,
each shot on the loop with no grid and on the grid, interleaved, best of the repeats.
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import scenarios as sc  # noqa: E402
from cuesim.commands import output_file  # noqa: E402
from cuesim.output import OutputError, check_folder_writable  # noqa: E402
from cuesim.sim.detect.grid import (  # noqa: E402
    CELL_PIECES,
    GRID_MIN_N,
    MAX_CELLS,
    auto_grid,
    grid_params,
    smallest_width,
)
from cuesim.sim.engine import first_capacity, motion_input, run_input, work_arrays_for  # noqa: E402
from cuesim.sim.events import N_EVENT_COLUMNS  # noqa: E402
from cuesim.sim.loop import run_events_grid  # noqa: E402
from cuesim.sim.state import N_SEG_COLUMNS, ON, R, X, Y  # noqa: E402

TARGET_US = 2.0  # us per event: 500,000 events/s per core
NS = (16, 32, 64, 128, 256, 512, 1024)
QUICK_NS = (16, 64, 256)
WAYS = ("no grid", "picked", "grid")
PLOT = Path(__file__).resolve().parent / "plots" / "broadphase.png"


def forced_grid(S: np.ndarray, P: np.ndarray, rails: np.ndarray) -> np.ndarray:
    """The grid auto_grid would pick for this shot if it had GRID_MIN_N pieces or more."""
    on = S[:, ON] != 0.0
    xs = np.concatenate([S[on, X], rails[:, 0], rails[:, 2]])
    ys = np.concatenate([S[on, Y], rails[:, 1], rails[:, 3]])
    area = (xs.max() - xs.min()) * (ys.max() - ys.min())
    width = max(smallest_width(2.0 * float(P[:, R].max())),
                math.sqrt(CELL_PIECES * area / S.shape[0]))
    return grid_params(width, float(xs.min()), float(ys.min()), float(xs.max()),
                       float(ys.max()), MAX_CELLS)


def loop_runner(inp: Any) -> Callable[[np.ndarray], tuple[float, bytes, int]]:
    """A function of a grid that runs the compiled loop (`run_events_grid`) on a copy of the
    input's state and returns (seconds, the bytes of its events, segments and final state,
    its events)."""
    n, arr = inp.S.shape[0], inp.arr
    cap_ev, cap_seg = first_capacity(n)
    cap_ev, cap_seg = cap_ev * 4, cap_seg * 4
    ev = np.empty((cap_ev, N_EVENT_COLUMNS))
    seg = np.empty((cap_seg, N_SEG_COLUMNS))

    def loop(g: np.ndarray) -> tuple[float, bytes, int]:
        S = inp.S.copy()
        work = work_arrays_for(n, arr.lines.shape[0], arr.circles.shape[0], g)
        t0 = time.perf_counter()
        n_ev, n_seg, _ = run_events_grid(
            S, inp.P, arr.rails, arr.holes, arr.lines, arr.circles, arr.e_pair, arr.mu_pair,
            arr.e_rail, arr.mu_rail, arr.v_stick, inp.struck, inp.max_events, ev, seg,
            arr.knuckles, arr.model_params, arr.stiffness, arr.exponent, g, *work)
        dt = time.perf_counter() - t0
        return dt, ev[:n_ev].tobytes() + seg[:n_seg].tobytes() + S.tobytes(), n_ev

    return loop


def measure(piece: str, n: int, repeats: int) -> dict[str, Any]:
    scenario = sc.box(piece, n, 1)
    case = scenario.cases[0]
    inp = motion_input(case.table, case.layout, case.initial, struck=case.struck,
                       max_events=scenario.max_events, check=False)
    arr = inp.arr
    grids = {"no grid": grid_params(0.0, 0.0, 0.0, 0.0, 0.0, 1),
             "picked": auto_grid(inp.S, inp.P, arr.rails),
             "grid": forced_grid(inp.S, inp.P, arr.rails)}
    loop = loop_runner(inp)

    first = {w: loop(g) for w, g in grids.items()}  # warm, and the results
    same = len({v[1] for v in first.values()}) == 1
    best = {w: math.inf for w in WAYS}
    whole = math.inf
    for _ in range(repeats):
        for w, g in grids.items():
            best[w] = min(best[w], loop(g)[0])
        t0 = time.perf_counter()
        res = run_input(inp)
        whole = min(whole, time.perf_counter() - t0)
    events = res.n_events
    out: dict[str, Any] = {"piece": piece, "n": n, "events": events, "same_bytes": same,
                           "cells": int(grids["grid"][4] * grids["grid"][5]),
                           "picked_cells": int(grids["picked"][4] * grids["picked"][5]),
                           "whole_us_per_event": whole / events * 1e6}
    for w in WAYS:
        out[f"{w}_us_per_event"] = best[w] / events * 1e6
    return out


CROSSOVER_NOVUS = (16, 24, 32)  # scattered pucks (with the striker: 17, 25, 33 pieces)
CROSSOVER_BOXES = (16, 24, 32, 40, 48, 64)


def crossover_row(label: str, scenario: sc.Scenario, repeats: int) -> dict[str, Any]:
    """The scenario's shots on the compiled loop with no grid and on the grid forced, each
    shot the two ways interleaved, best of the repeats; the grid's gain is the ratio of the
    summed times (no grid / grid: above 1 it pays)."""
    best = {"no grid": 0.0, "grid": 0.0}
    events, same = 0, True
    for case in scenario.cases:
        inp = motion_input(case.table, case.layout, case.initial, struck=case.struck,
                           max_events=scenario.max_events, check=False)
        grids = {"no grid": grid_params(0.0, 0.0, 0.0, 0.0, 0.0, 1),
                 "grid": forced_grid(inp.S, inp.P, inp.arr.rails)}
        loop = loop_runner(inp)
        first = {w: loop(g) for w, g in grids.items()}
        same = same and first["no grid"][1] == first["grid"][1]
        events += first["no grid"][2]
        times = {w: math.inf for w in grids}
        for _ in range(repeats):
            for w, g in grids.items():
                times[w] = min(times[w], loop(g)[0])
        for w in best:
            best[w] += times[w]
    pieces = scenario.pieces[1]
    return {"label": label, "pieces": pieces, "shots": len(scenario.cases),
            "events_per_shot": events / len(scenario.cases), "same_bytes": same,
            "no_grid_us_per_event": best["no grid"] / events * 1e6,
            "grid_us_per_event": best["grid"] / events * 1e6,
            "gain": best["no grid"] / best["grid"],
            "picked": "grid" if pieces >= GRID_MIN_N else "no grid"}


def crossover(repeats: int) -> list[dict[str, Any]]:
    """Where the grid starts to pay: the novus openings (33 pieces), scattered novus layouts
    and the small boxes, with no grid and on the grid (`crossover_row`); printed as they come."""
    rows = []
    cases = [("novus openings", sc.novus_opening(12))]
    cases += [(f"novus, {k} scattered pucks", sc.novus_scattered(k, 12)) for k in CROSSOVER_NOVUS]
    cases += [(f"box, {n} {piece}s", sc.box(piece, n, 6))
              for piece in ("puck", "ball") for n in CROSSOVER_BOXES]
    print(f"{'shots':<28}{'pieces':>7}{'events/shot':>12}   us/event: {'no grid':>8}{'grid':>8}"
          f"   {'grid gain':>9}   picked ({GRID_MIN_N = })  same")
    for label, scenario in cases:
        r = crossover_row(label, scenario, repeats)
        rows.append(r)
        print(f"{label:<28}{r['pieces']:>7}{r['events_per_shot']:>12.1f}   {'':>9}"
              f"{r['no_grid_us_per_event']:>8.2f}{r['grid_us_per_event']:>8.2f}   "
              f"{r['gain']:>8.2f}x   {r['picked']:<22}{'yes' if r['same_bytes'] else 'NO'}",
              flush=True)
    return rows


def _best_of(kept: dict[str, Any] | None, new: dict[str, Any]) -> dict[str, Any]:
    """A row's figures over the passes so far: each time the best; the bytes the same only
    if they were the same on every grid in every pass."""
    if kept is None:
        return new
    out = dict(kept)
    for key in [*(f"{w}_us_per_event" for w in WAYS), "whole_us_per_event"]:
        out[key] = min(kept[key], new[key])
    out["same_bytes"] = kept["same_bytes"] and new["same_bytes"] \
        and kept["events"] == new["events"]
    return out


def _positive(text: str) -> int:
    """An argument that must be a whole number >= 1 (argparse's type)."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 1, got {text!r}")
    return value


def plot(rows: list[dict[str, Any]], path: Path) -> None:
    import matplotlib
    import matplotlib.ticker

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 4.2), dpi=90)
    styles = {"no grid": ":", "picked": "-", "grid": "--"}
    colours = {"puck": "tab:blue", "ball": "tab:orange"}
    for piece in ("puck", "ball"):
        sub = [r for r in rows if r["piece"] == piece]
        if not sub:
            continue
        ns = [r["n"] for r in sub]
        for w in WAYS:
            ax.plot(ns, [r[f"{w}_us_per_event"] for r in sub], styles[w], marker="o",
                    color=colours[piece], label=f"{piece}s, {w}", markersize=3)
    ax.axhline(TARGET_US, color="grey", lw=0.8)
    ax.text(max(r["n"] for r in rows), TARGET_US * 1.03, "target: 2 us/event (500,000 "
            "events/s)", fontsize=7, color="grey", ha="right", va="bottom")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    lowest = min(r[f"{w}_us_per_event"] for r in rows for w in WAYS)
    ax.set_ylim(bottom=min(1.0, 0.8 * lowest))  # every point and the target line in view
    ax.set_xlabel("pieces in the box (N), 10 % of the floor covered")
    ax.set_ylabel("us per event, compiled loop (best run)")
    ax.set_title("Box series: cost per event against N, with and without the broadphase",
                 fontsize=9)
    ax.yaxis.set_major_formatter(matplotlib.ticker.ScalarFormatter())
    ax.yaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    ax.xaxis.set_major_formatter(matplotlib.ticker.ScalarFormatter())
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    ap.add_argument("--quick", action="store_true", help="n = 16, 64, 256 and few repeats")
    ap.add_argument("--passes", type=_positive, default=None,
                    help="measure the series this many times, keep each figure's best "
                         "(3; 1 with --quick)")
    ap.add_argument("--json", type=output_file, help="write the figures to this JSON file")
    ap.add_argument("--plot", default=None,
                    help=f"the PNG to write (default {PLOT}; a --quick run writes none unless "
                         "given one: its three sizes would replace the documented plot)")
    ap.add_argument("--crossover", action="store_true",
                    help="instead of the series: where the grid starts to pay (the novus "
                         "openings, scattered novus layouts, boxes of 16-64), which GRID_MIN_N "
                         "decides")
    args = ap.parse_args(argv)
    if args.plot:  # its folder is made at the end, if it can be: checked before the run
        try:
            check_folder_writable(Path(args.plot).expanduser().parent, "--plot's folder")
        except OutputError as exc:
            ap.error(str(exc))
    ns = QUICK_NS if args.quick else NS
    print(f"machine: {platform.machine()} {platform.processor() or ''} python "
          f"{platform.python_version()}; GRID_MIN_N = {GRID_MIN_N}, CELL_PIECES = {CELL_PIECES}")
    if args.crossover:
        rows = crossover(3 if args.quick else 11)
        if args.json:
            Path(args.json).write_text(json.dumps({"crossover": rows}, indent=1) + "\n")
        if not all(r["same_bytes"] for r in rows):
            print("ERROR: a grid changed a result")
            return 1
        return 0
    print(f"{'piece':>6}{'N':>6}{'events':>8}{'cells':>7}   us/event: {'no grid':>8}"
          f"{'picked':>8}{'grid':>8}{'whole':>8}   {'events/s (picked)':>18}  same")
    passes = args.passes or (1 if args.quick else 3)
    best: dict[tuple[str, int], dict[str, Any]] = {}
    for k in range(passes):
        print(f"pass {k + 1} of {passes}...", file=sys.stderr, flush=True)
        for piece in ("puck", "ball"):
            for n in ns:
                reps = 2 if args.quick else (7 if n <= 128 else 3)
                best[piece, n] = _best_of(best.get((piece, n)), measure(piece, n, reps))
    rows = list(best.values())
    for r in rows:
        rate = 1e6 / r["picked_us_per_event"]
        print(f"{r['piece']:>6}{r['n']:>6}{r['events']:>8}{r['cells']:>7}   {'':>9}"
              f"{r['no grid_us_per_event']:>8.2f}{r['picked_us_per_event']:>8.2f}"
              f"{r['grid_us_per_event']:>8.2f}{r['whole_us_per_event']:>8.2f}   "
              f"{rate:>18,.0f}  {'yes' if r['same_bytes'] else 'NO'}")
    for piece in ("puck", "ball"):
        sub = [r for r in rows if r["piece"] == piece]
        worst = max(r["picked_us_per_event"] for r in sub)
        lo, hi = sub[0], sub[-1]
        print(f"{piece}s: {lo['picked_us_per_event']:.2f} us/event at N = {lo['n']}, "
              f"{hi['picked_us_per_event']:.2f} at N = {hi['n']} "
              f"({hi['picked_us_per_event'] / lo['picked_us_per_event']:.2f}x); without the grid "
              f"{hi['no grid_us_per_event'] / lo['no grid_us_per_event']:.1f}x; target <= "
              f"{TARGET_US} us at every N: {'met' if worst <= TARGET_US else 'not met'} "
              f"(worst {worst:.2f})")
    if not all(r["same_bytes"] for r in rows):
        print("ERROR: a grid changed a result")
        return 1
    if args.json:
        Path(args.json).write_text(json.dumps({"rows": rows}, indent=1) + "\n")
    target = args.plot or (None if args.quick else str(PLOT))
    if target is None:
        print("plot: none for a --quick run (--plot FILE writes one)")
        return 0
    try:
        plot(rows, Path(target))
        print(f"plot: {target}")
    except ImportError:
        print("no plot: matplotlib is not installed (pip install -e '.[bench]')")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
