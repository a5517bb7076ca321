"""Benchmark: the grid against sweep-and-prune, by the work each would do on the box series.

    python bench/sweep_prune.py [--quick] [--dt SECONDS] [--json FILE] [--plot FILE]

Issue 16 asks for the broadphase (a uniform grid or sweep-and-prune inside the compiled loop)
to be chosen by measurement. An event-driven core pays a broadphase in two ways: the internal
events that keep it current while pieces move, each a prediction and a queue mend, and the
candidates an event predicts against. This script counts both for each broadphase on the same
box shots (bench/scenarios.py `box`: n pucks or balls covering a tenth of a square box's floor,
launched at random), from the shots' exact trajectories (`cuesim.trajectory.sample` every dt):
- **grid crossings**: a piece's centre leaving its fat cell (`sim.detect.grid`, the grid
  `auto_grid` picks, the same cell and margin rule), moving it to the next cell: the loop's
  internal events as it is. Counted in a copy of the loop (bench/README.md), the boxes of 64,
  256 and 1,024 pucks make 2.4, 2.7 and 3.1 a shot's event; these samples give the same.
- **sweep-and-prune swaps**: a kinetic sweep-and-prune keeps each axis's interval endpoints
  (the centre -/+ the contact radius) sorted, and each change of their order is an internal
  event. Counted as the inversions between one sample's order and the next, along x, and along
  x and y for a two-axis sweep. A swap of a low endpoint with a high one begins or ends an
  overlap on that axis (half of them begin one: that pair is then checked on the other axis).
- **candidates**: the pieces an event of one piece predicts against: its 3 x 3 block on the
  grid; the pieces whose x intervals overlap its own (one axis) or whose boxes overlap its own
  (two axes), averaged over pieces and times.

Everything is per event of the shot (its own event count). Samples undercount: two swaps of
one pair, or two crossings of one piece, within dt cancel. --dt sets it (default 0.1 ms, where
a piece moves at most 0.3 mm, a tenth of the fat cell's margin); the script also counts at 2 dt
and prints the change, which bounds what the samples miss. --plot draws both counts against N
(matplotlib; bench/plots/sweep_prune.png is the run in bench/README.md).
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import sys
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import scenarios as sc  # noqa: E402
from cuesim.commands import positive_int  # noqa: E402
from cuesim.sim.detect import TOUCH  # noqa: E402
from cuesim.sim.detect.grid import G_MARGIN, G_NX, G_NY, G_W, G_X0, G_Y0, auto_grid  # noqa: E402
from cuesim.sim.engine import motion_input, run_input  # noqa: E402
from cuesim.sim.state import R  # noqa: E402
from cuesim.trajectory import sample  # noqa: E402

NS = (64, 256, 1024)
QUICK_NS = (64, 256)
DT = 1e-4  # s between samples
CHUNK = 500  # sampled times per call of `sample` (memory: CHUNK x n x 2 positions)
CANDIDATE_TIMES = 100  # times the candidates are averaged over


@njit  # not cached: a cache would be written beside this file, in the source tree
def inversions(values: np.ndarray) -> int:
    """The pairs k < l with values[k] > values[l]: the adjacent swaps that sort the values
    (merge sort, O(n log n))."""
    a = values.copy()
    b = np.empty_like(a)
    n = a.shape[0]
    count = 0
    width = 1
    while width < n:
        for lo in range(0, n, 2 * width):
            mid, hi = min(lo + width, n), min(lo + 2 * width, n)
            i, j, k = lo, mid, lo
            while i < mid and j < hi:
                if a[j] < a[i]:
                    b[k] = a[j]
                    count += mid - i
                    j += 1
                else:
                    b[k] = a[i]
                    i += 1
                k += 1
            while i < mid:
                b[k] = a[i]
                i += 1
                k += 1
            while j < hi:
                b[k] = a[j]
                j += 1
                k += 1
        a, b = b, a
        width *= 2
    return count


class AxisSwaps:
    """The kinetic sweep-and-prune's swaps along one axis: endpoints c -/+ r of every piece,
    their order carried from one sample to the next."""

    def __init__(self, centres: np.ndarray, radius: np.ndarray) -> None:
        self.radius = radius
        self.total = self.lo_lo = self.hi_hi = 0
        ends = self._ends(centres)
        n = centres.shape[0]
        # the orders of all 2n endpoints, of the n lows and of the n highs
        self.orders = [np.argsort(e, kind="stable") for e in (ends, ends[:n], ends[n:])]

    def _ends(self, centres: np.ndarray) -> np.ndarray:
        return np.concatenate((centres - self.radius, centres + self.radius))

    def step(self, centres: np.ndarray) -> None:
        """Count the swaps from the last sample's orders to these centres'. Endpoints that tie
        keep their order: a swap is counted once they have passed."""
        ends = self._ends(centres)
        n = centres.shape[0]
        for k, values in enumerate((ends, ends[:n], ends[n:])):
            carried = values[self.orders[k]]
            swaps = inversions(carried)
            if k == 0:
                self.total += swaps
            elif k == 1:
                self.lo_lo += swaps
            else:
                self.hi_hi += swaps
            self.orders[k] = self.orders[k][np.argsort(carried, kind="stable")]

    @property
    def low_high(self) -> int:
        """Swaps of a low endpoint with a high one: each begins or ends an overlap."""
        return self.total - self.lo_lo - self.hi_hi


class GridCrossings:
    """The loop's crossings: a centre leaving its fat cell moves to the cell it is in."""

    def __init__(self, g: np.ndarray, xy: np.ndarray) -> None:
        self.x0, self.y0, self.w, self.m = g[G_X0], g[G_Y0], g[G_W], g[G_MARGIN]
        self.nx, self.ny = int(g[G_NX]), int(g[G_NY])
        self.cx, self.cy = self._cells(xy)
        self.count = 0

    def _cells(self, xy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        cx = np.clip(np.floor((xy[:, 0] - self.x0) / self.w), 0, self.nx - 1).astype(np.int64)
        cy = np.clip(np.floor((xy[:, 1] - self.y0) / self.w), 0, self.ny - 1).astype(np.int64)
        return cx, cy

    def step(self, xy: np.ndarray) -> None:
        for c, axis, origin, n in ((self.cx, 0, self.x0, self.nx), (self.cy, 1, self.y0, self.ny)):
            p = xy[:, axis]
            lo = np.where(c > 0, origin + c * self.w - self.m, -np.inf)
            hi = np.where(c < n - 1, origin + (c + 1) * self.w + self.m, np.inf)
            out = (p <= lo) | (p >= hi)
            if out.any():
                new = np.clip(np.floor((p[out] - origin) / self.w), 0, n - 1).astype(np.int64)
                self.count += int(np.abs(new - c[out]).sum())
                c[out] = new

    def block_counts(self) -> np.ndarray:
        """Each piece's neighbours on the grid: the others in its cell's 3 x 3 block."""
        occupied = np.zeros((self.ny + 2, self.nx + 2), dtype=np.int64)
        np.add.at(occupied, (self.cy + 1, self.cx + 1), 1)
        block = sum(occupied[1 + dy:1 + dy + self.ny, 1 + dx:1 + dx + self.nx]
                    for dy in (-1, 0, 1) for dx in (-1, 0, 1))
        return block[self.cy, self.cx] - 1


def overlap_counts(xy: np.ndarray, radius: np.ndarray) -> tuple[float, float]:
    """Mean partners per piece whose x intervals overlap its own, and whose boxes do."""
    dx = np.abs(xy[:, None, 0] - xy[None, :, 0]) <= radius[:, None] + radius[None, :]
    dy = np.abs(xy[:, None, 1] - xy[None, :, 1]) <= radius[:, None] + radius[None, :]
    n = xy.shape[0]
    return (dx.sum() - n) / n, ((dx & dy).sum() - n) / n


def count(piece: str, n: int, dt: float) -> dict[str, Any]:
    """The counts of one box shot of n pieces, sampled every dt."""
    case = sc.box(piece, n, 1).cases[0]
    inp = motion_input(case.table, case.layout, case.initial, struck=case.struck,
                       max_events=max(20_000, 200 * n), check=False)
    result = run_input(inp)
    g = auto_grid(inp.S, inp.P, inp.arr.rails)
    radius = inp.P[:, R] + TOUCH
    times = np.arange(0.0, result.duration + dt, dt)
    grid = sx = sy = None
    cand = np.zeros(3)
    cand_every = max(1, len(times) // CANDIDATE_TIMES)
    cand_n = 0
    for start in range(0, len(times), CHUNK):
        samples = sample(result, times[start:start + CHUNK])
        if not samples.on_table.all():
            raise RuntimeError(f"box {piece} {n}: a piece left the table")
        for k, xy in enumerate(samples.positions):
            if grid is None:
                grid = GridCrossings(g, xy)
                sx, sy = AxisSwaps(xy[:, 0], radius), AxisSwaps(xy[:, 1], radius)
            else:
                grid.step(xy)
                sx.step(xy[:, 0])
                sy.step(xy[:, 1])
            if (start + k) % cand_every == 0:
                cand += (grid.block_counts().mean(), *overlap_counts(xy, radius))
                cand_n += 1
    events = result.n_events
    return {"piece": piece, "n": n, "dt_s": dt, "events": events,
            "duration_s": result.duration, "cells": grid.nx * grid.ny,
            "grid_crossings": grid.count / events,
            "sap_x_swaps": sx.total / events, "sap_x_low_high": sx.low_high / events,
            "sap_xy_swaps": (sx.total + sy.total) / events,
            "sap_xy_low_high": (sx.low_high + sy.low_high) / events,
            "grid_candidates": cand[0] / cand_n, "sap_x_candidates": cand[1] / cand_n,
            "sap_xy_candidates": cand[2] / cand_n}


COLUMNS = (("grid_crossings", "grid crossings"), ("sap_x_swaps", "SAP x swaps"),
           ("sap_x_low_high", "of them low-high"), ("sap_xy_swaps", "SAP x+y swaps"),
           ("sap_xy_low_high", "of them low-high"))
CANDIDATE_COLUMNS = (("grid_candidates", "grid 3x3 block"), ("sap_x_candidates", "SAP x overlap"),
                     ("sap_xy_candidates", "SAP box overlap"))


def report(rows: list[dict[str, Any]], coarse: dict[tuple[str, int], dict[str, Any]]) -> str:
    lines = ["internal events per event of the shot (at 2 dt: the change)"]
    lines.append(f"{'box':>12} {'events':>7} " + " ".join(f"{h:>18}" for _, h in COLUMNS))
    for r in rows:
        c = coarse[(r["piece"], r["n"])]
        cells = " ".join(f"{r[k]:>9.2f} ({(c[k] / r[k] - 1) * 100 if r[k] else 0.0:+5.1f}%)"
                         for k, _ in COLUMNS)
        lines.append(f"{r['piece'] + ' ' + str(r['n']):>12} {r['events']:>7} {cells}")
    lines.append("candidates per piece (mean over pieces and times)")
    lines.append(f"{'box':>12} " + " ".join(f"{h:>16}" for _, h in CANDIDATE_COLUMNS))
    for r in rows:
        lines.append(f"{r['piece'] + ' ' + str(r['n']):>12} "
                     + " ".join(f"{r[k]:>16.2f}" for k, _ in CANDIDATE_COLUMNS))
    return "\n".join(lines)


def plot(rows: list[dict[str, Any]], path: Path) -> None:
    """Internal events per event and candidates per piece against N, log-log."""
    import matplotlib
    import matplotlib.ticker

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(9.6, 4.2), dpi=90)
    colours = {"puck": "tab:blue", "ball": "tab:orange"}
    panels = ((left, (("grid_crossings", "-", "grid crossings"),
                      ("sap_x_swaps", "--", "SAP swaps, x"),
                      ("sap_xy_swaps", ":", "SAP swaps, x + y")),
               "internal events per event of the shot"),
              (right, (("grid_candidates", "-", "grid: 3 x 3 block"),
                       ("sap_x_candidates", "--", "SAP: x overlap"),
                       ("sap_xy_candidates", ":", "SAP: box overlap")),
               "candidates per piece (mean)"))
    for ax, lines, ylabel in panels:
        for piece in ("puck", "ball"):
            sub = [r for r in rows if r["piece"] == piece]
            for key, style, label in lines:
                ax.plot([r["n"] for r in sub], [r[key] for r in sub], style, marker="o",
                        markersize=3, color=colours[piece], label=f"{piece}s, {label}")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("pieces in the box (N), 10 % of the floor covered")
        ax.set_ylabel(ylabel)
        for axis in (ax.xaxis, ax.yaxis):
            axis.set_major_formatter(matplotlib.ticker.ScalarFormatter())
        ax.yaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=6.5)
    fig.suptitle("Box series: the grid's crossings against a kinetic sweep-and-prune's swaps "
                 "(counted from the same trajectories)", fontsize=9)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def _dt(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds, got {text!r}") from None
    if not (math.isfinite(value) and 1e-6 <= value <= 0.01):
        raise argparse.ArgumentTypeError(f"expected 1e-6 to 0.01 s, got {text}")
    return value


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help=f"n = {QUICK_NS} only")
    ap.add_argument("--dt", type=_dt, default=DT, help=f"seconds between samples ({DT})")
    ap.add_argument("--n", type=positive_int, action="append",
                    help="box sizes (repeat the flag); default " + ", ".join(map(str, NS)))
    ap.add_argument("--json", help="also write the rows as JSON to this file")
    ap.add_argument("--plot", help="also draw the counts against N into this PNG file")
    args = ap.parse_args(argv)
    ns = tuple(args.n) if args.n else (QUICK_NS if args.quick else NS)
    from cuesim.output import OutputError, check_writable
    try:
        for value, flag in ((args.json, "--json"), (args.plot, "--plot")):
            if value:
                check_writable(value, flag)
    except OutputError as exc:
        ap.error(str(exc))
    rows, coarse = [], {}
    for piece in ("puck", "ball"):
        for n in ns:
            rows.append(count(piece, n, args.dt))
            coarse[(piece, n)] = count(piece, n, 2.0 * args.dt)
    print(f"cuesim sweep-and-prune count | Python {platform.python_version()} | dt = "
          f"{args.dt * 1e3:g} ms")
    print(report(rows, coarse))
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    if args.plot:
        plot(rows, Path(args.plot))
    return 0


if __name__ == "__main__":
    sys.exit(main())
