"""The cushion's duration: a cut on a ball lying at a rail, the event core against the soft
reference.

    python bench/cushion_time.py [--cut DEG] [--speed M/S] [--gaps MM,...] [--stiffness S,...]
                                 [--dissipation LAW] [--json OUT] [--plot FILE]

A rolling cue ball cuts an object ball lying `gap` from the right rail of the pool table (the
line of centres square to the rail at the hit, the cue ball arriving `--cut` degrees off it).
Printed for each gap: both balls' mean velocities from 30 to 40 ms after the hit in the event
core (`cuesim.sim.run_motion`) and in the soft reference (`cuesim.sim.soft.soft_simulate`)
with every contact stiffness scaled by each `--stiffness` factor. At 1 (the tables' contacts)
the object ball presses the rubber cushion for about 5 ms and meets the cue ball again late;
the core's cushion impact is Han's rigid impulse, and the stiffened reference converges to it,
within 0.01 m/s with the core's dissipation law (`--dissipation hysteretic`; bench/README.md,
"A rail is touched on its face only").
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import sys
from pathlib import Path
from typing import Any

import numpy as np

if __package__ in (None, ""):  # run as a script: make the checkout importable as `bench`
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cuesim.sim import run_motion
from cuesim.sim.soft import soft_simulate
from cuesim.tables.layout import Layout, Piece
from cuesim.tables.pool import PoolTable

OBJECT_Y = 1.6  # m: the object ball's place along the right rail, clear of the side pocket
RUN_UP = 0.1  # m: the cue ball's path to the hit
WINDOW = (0.030, 0.040)  # s after the hit: both balls have left every contact
GAPS_MM = (0.0, 0.1, 1.0, 3.0, 10.0)
STIFFNESS = (1.0, 100.0, 10_000.0)


def cut_case(gap: float, cut_deg: float = 45.0, speed: float = 2.0
             ) -> tuple[PoolTable, Layout, dict[str, tuple[float, ...]]]:
    """(table, layout, initial motions): the object ball `gap` m from the right rail, the cue
    ball rolling at `speed` toward the point where the line of centres is square to the rail,
    `cut_deg` off that line."""
    table = PoolTable()
    r = table.piece_spec("ball").radius
    right = table.geometry.width
    ox, oy = right - r - gap, OBJECT_Y
    ux, uy = math.cos(math.radians(cut_deg)), math.sin(math.radians(cut_deg))
    hx, hy = ox - 2.0 * r, oy  # the cue ball's centre at the hit
    layout = Layout(table.name, (Piece("cue", "ball", hx - RUN_UP * ux, hy - RUN_UP * uy),
                                 Piece("1", "ball", ox, oy)))
    rolling = (speed * ux, speed * uy, -speed * uy / r, speed * ux / r, 0.0)
    return table, layout, {"cue": rolling}


def velocities_after(gap: float, cut_deg: float, speed: float, stiffness: tuple[float, ...],
                     dissipation: str = "viscous") -> dict[str, Any]:
    """The balls' mean velocities over WINDOW after the hit: the core's, and the reference's
    (with `dissipation`) at each stiffness scale (rows: cue ball, object ball)."""
    table, layout, initial = cut_case(gap, cut_deg, speed)
    core = run_motion(table, layout, initial, check=False)
    t_hit = next(e.t for e in core.event_log() if e.kind.name == "COLLIDE")
    t0, t1 = t_hit + WINDOW[0], t_hit + WINDOW[1]
    out: dict[str, Any] = {
        "gap_mm": gap * 1e3,
        "core": ((core.positions_at(t1)[0] - core.positions_at(t0)[0]) / (t1 - t0)).tolist(),
    }
    for scale in stiffness:
        soft = soft_simulate(table, layout, initial, check=False, sample_dt=5e-4,
                             t_max=t1 + 2e-3, stiffness_scale=scale,
                             dissipation=dissipation)
        k0 = int(np.argmin(abs(soft.times - t0)))
        k1 = int(np.argmin(abs(soft.times - t1)))
        v = (soft.trajectory[k1] - soft.trajectory[k0]) / (soft.times[k1] - soft.times[k0])
        out[f"soft x{scale:g}"] = v.tolist()
    return out


def _floats(text: str) -> tuple[float, ...]:
    try:
        values = tuple(float(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected numbers separated by commas, got {text!r}") from None
    if not values or not all(math.isfinite(x) and x >= 0.0 for x in values):
        raise argparse.ArgumentTypeError(f"expected finite numbers >= 0, got {text!r}")
    return values


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cut", type=float, default=45.0,
                        help="the cue ball's angle off the line of centres, degrees (0-80)")
    parser.add_argument("--speed", type=float, default=2.0, help="the cue ball's speed, m/s")
    parser.add_argument("--gaps", type=_floats, default=GAPS_MM,
                        help="the object ball's gaps to the rail, mm (default 0,0.1,1,3,10)")
    parser.add_argument("--stiffness", type=_floats, default=STIFFNESS,
                        help="the reference's stiffness scales (default 1,100,10000)")
    parser.add_argument("--dissipation", choices=("viscous", "hysteretic"), default="viscous",
                        help="the reference's dissipation law (sim.soft; default viscous)")
    parser.add_argument("--json", metavar="OUT", help="also write the rows as JSON")
    parser.add_argument("--plot", type=Path, metavar="FILE",
                        help="a PNG of the cue ball's speed off the rail against the gap")
    args = parser.parse_args(argv)
    if args.plot is not None:
        if not args.plot.parent.is_dir():
            parser.error(f"argument --plot: cannot write {args.plot}: its folder "
                         f"{args.plot.parent} is missing")
        if importlib.util.find_spec("matplotlib") is None:
            parser.error("argument --plot: needs matplotlib (pip install -e '.[bench]')")
    if not 0.0 <= args.cut <= 80.0:
        parser.error(f"--cut must lie in [0, 80] degrees, got {args.cut:g}")
    if not 0.1 <= args.speed <= 8.0:
        parser.error(f"--speed must lie in [0.1, 8] m/s, got {args.speed:g}")
    if any(g > 20.0 for g in args.gaps):
        parser.error("--gaps must be at most 20 mm (farther, the balls never meet again)")
    if any(not 1e-2 <= s <= 1e4 for s in args.stiffness):
        parser.error("--stiffness scales must lie in [0.01, 10000]")
    rows = [velocities_after(g * 1e-3, args.cut, args.speed, args.stiffness, args.dissipation)
            for g in args.gaps]
    print(f"velocities {WINDOW[0] * 1e3:g}-{WINDOW[1] * 1e3:g} ms after the hit, m/s "
          f"(cut {args.cut:g} deg, {args.speed:g} m/s): cue ball (vx, vy), object ball (vx, vy)")
    for row in rows:
        print(f"gap {row['gap_mm']:g} mm")
        for name, (cue, obj) in ((k, v) for k, v in row.items() if k != "gap_mm"):
            print(f"  {name:<12} cue ({cue[0]:+.3f}, {cue[1]:+.3f})  object "
                  f"({obj[0]:+.3f}, {obj[1]:+.3f})")
    if args.plot is not None:
        _plot(args.plot, rows, args.cut, args.speed, args.dissipation)
        print(f"wrote {args.plot}")
    if args.json:
        try:
            Path(args.json).write_text(json.dumps(rows, indent=1))
        except OSError as exc:
            parser.exit(2, f"cushion_time.py: cannot write --json {args.json}: "
                           f"{exc.strerror}\n")
    return rows


def _plot(path: Path, rows: list[dict[str, Any]], cut: float, speed: float,
          dissipation: str) -> None:
    """The cue ball's velocity along the rail's normal (-x, away from it) against the gap, for
    the core and the reference at each stiffness scale."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    gaps = [row["gap_mm"] for row in rows]
    fig, ax = plt.subplots(figsize=(6.4, 3.8), dpi=100)
    for name in (k for k in rows[0] if k != "gap_mm"):
        style = "k-" if name == "core" else "--"
        label = "event core (Han's rigid cushion)" if name == "core" else \
            f"soft reference, stiffness {name.removeprefix('soft ')}"
        ax.plot(gaps, [-row[name][0][0] for row in rows], style, marker=".", label=label)
    ax.set_xlabel("object ball's gap to the rail, mm")
    ax.set_ylabel("cue ball's speed away from the rail, m/s")
    ax.set_title(f"A {cut:g} degree cut at {speed:g} m/s on a ball at the rail "
                 f"({dissipation} reference)", fontsize=9)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


if __name__ == "__main__":
    main()
