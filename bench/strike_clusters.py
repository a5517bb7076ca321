"""Random oblique strikes through touching pucks: the event core against the soft reference.

    python bench/strike_clusters.py [--shots N] [--seed S] [--steps N] [--window S] [--json OUT]
    python bench/strike_clusters.py --pieces balls    # pool balls and the cue ball instead
    python bench/strike_clusters.py --pieces balls --stiffness 100   # the reference 100x stiffer

Each shot: 2-4 touching pucks grown at random around the board's middle (each new one touching
one placed before it), and the striker 120-250 mm from one of them, coming from the south half
of the compass on a line offset sideways by up to 0.8 of the two radii, at 1.5-5 m/s with a
spin of up to 60 rad/s either way. With --pieces balls: 1-4 touching balls at the middle of a
9-ft pool table, and the cue ball 200-400 mm away in the same way, struck at 1.5-6 m/s with
the tip up to 0.28 of the radius off centre each way (a lone ball is the binary impact). The
core (`run_motion`) and the reference (`soft_simulate` with the core's dissipation law,
--steps a contact) both play it. The figure is the largest
distance between a piece's positions in the two a window after the first contact (30 ms, or
until 1 ms before the first collision 5 ms or more after it): later collisions (a puck back
off a rail grazing another) multiply any difference a hundredfold, so the rest says little
about the impacts; the window sees what they gave. The rest is printed too. --stiffness K
multiplies the reference's contact stiffnesses (its contacts last K^-0.4 as long for balls,
K^-0.5 for the pucks' linear law): the core's impact is instantaneous, so what is left of a
difference then is the impact law's, not the contact's duration.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

if __package__ in (None, ""):  # run as a script: make the checkout importable as `bench`
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cuesim.sim import run_motion
from cuesim.sim.soft import STIFFNESS_SCALE_RANGE, soft_simulate
from cuesim.tables.layout import Layout, Piece
from cuesim.tables.novus import NovusTable

STEPS = 320  # reference steps per contact duration (bench/agreement.py)
WINDOW = 0.03  # s after the first contact
LATER = 0.005  # s: a collision this long after the first contact ends the window
SAMPLE = 0.001  # s: the reference's sampling of positions


PIECES = ("pucks", "balls")


@dataclass(frozen=True)
class Strike:
    seed: int
    table: Any
    layout: Layout
    striker: tuple[float, ...]  # the struck piece's launch: (vx, vy, w) or a ball's 5
    struck: str = "striker"


def _touching(rng: np.random.Generator, n: int, r: float, centre: tuple[float, float]
              ) -> list[np.ndarray]:
    """n touching discs of radius r grown at random from `centre`, each touching one before."""
    pts = [np.array(centre)]
    while len(pts) < n:
        base = pts[int(rng.integers(len(pts)))]
        a = rng.uniform(0.0, 2.0 * math.pi)
        p = base + 2.0 * r * np.array([math.cos(a), math.sin(a)])
        if all(math.hypot(*(p - q)) >= 2.0 * r - 1e-12 for q in pts):
            pts.append(p)
    return pts


def random_strike(seed: int, pieces: str = "pucks") -> Strike | None:
    """The seed's shot, or None when the striking piece would start within 1 mm of another."""
    if pieces == "balls":
        return _ball_strike(seed)
    rng = np.random.default_rng(seed)
    table = NovusTable()
    r, rs = table.piece_spec("puck").radius, table.piece_spec("striker").radius
    n = int(rng.integers(2, 5))
    pts = _touching(rng, n, r, (0.5, 0.55))
    target = pts[int(rng.integers(n))]
    heading = rng.uniform(0.0, math.pi)  # the striker travels north-ish
    ux, uy = math.cos(heading), math.sin(heading)
    back = rng.uniform(0.12, 0.25)
    side = rng.uniform(-0.8, 0.8) * (r + rs)
    sx, sy = target[0] - ux * back - uy * side, target[1] - uy * back + ux * side
    if any(math.hypot(sx - q[0], sy - q[1]) < r + rs + 1e-3 for q in pts):
        return None
    speed, spin = rng.uniform(1.5, 5.0), rng.uniform(-60.0, 60.0)
    pieces = [Piece("striker", "striker", sx, sy)]
    pieces += [Piece(f"p{k}", "puck", float(p[0]), float(p[1])) for k, p in enumerate(pts)]
    layout = Layout(table.name, tuple(pieces))
    table.check_layout(layout)
    return Strike(seed, table, layout, (speed * ux, speed * uy, spin))


def _ball_strike(seed: int) -> Strike | None:
    from cuesim.api import game_table
    from cuesim.shot import CueShot

    rng = np.random.default_rng(seed)
    table = game_table("9-ball")
    r = table.piece_spec("ball").radius
    n = int(rng.integers(1, 5))
    pts = _touching(rng, n, r, (0.635, 1.27))
    target = pts[int(rng.integers(n))]
    heading = rng.uniform(0.0, math.pi)
    ux, uy = math.cos(heading), math.sin(heading)
    back = rng.uniform(0.2, 0.4)
    side = rng.uniform(-0.8, 0.8) * 2.0 * r
    sx, sy = target[0] - ux * back - uy * side, target[1] - uy * back + ux * side
    if any(math.hypot(sx - q[0], sy - q[1]) < 2.0 * r + 1e-3 for q in pts):
        return None
    shot = CueShot(angle=heading, speed=rng.uniform(1.5, 6.0), side=rng.uniform(-0.28, 0.28),
                   height=rng.uniform(-0.28, 0.28))
    balls = [Piece("cue", "ball", sx, sy)]
    balls += [Piece(str(k + 1), "ball", float(p[0]), float(p[1])) for k, p in enumerate(pts)]
    layout = Layout(table.name, tuple(balls))
    table.check_layout(layout)
    return Strike(seed, table, layout, shot.ball_motion(table), "cue")


def compare(strike: Strike, steps: int = STEPS, window: float = WINDOW,
            stiffness: float = 1.0) -> dict[str, Any]:
    """The two runs of a strike: the largest distance a window after the first contact (mm)
    and at rest (mm, pieces on the board in both); the reference's contacts `stiffness` times
    as stiff."""
    initial = {strike.struck: strike.striker}
    core = run_motion(strike.table, strike.layout, initial, check=False)
    soft = soft_simulate(strike.table, strike.layout, initial, check=False,
                         steps_per_contact=steps, dissipation="hysteretic", sample_dt=SAMPLE,
                         stiffness_scale=stiffness)
    hits = [e.t for e in core.event_log() if e.kind.name == "COLLIDE"]
    t0 = hits[0]
    later = [t for t in hits if t > t0 + LATER]
    t_end = min(t0 + window, later[0] - 0.001) if later else t0 + window
    k = min(int(np.searchsorted(soft.times, t_end)), len(soft.times) - 1)
    pos, _ = core.positions_at(float(soft.times[k]))
    early = np.hypot(*(pos - soft.trajectory[k]).T)
    both = core.final_on & soft.final_on
    rest = np.hypot(*(core.final_positions - soft.final_positions).T)[both]
    return {"seed": strike.seed, "pieces": len(strike.layout) - 1,
            "window_ms": (float(soft.times[k]) - t0) * 1000.0,
            "early_mm": float(early.max() * 1000.0),
            "rest_mm": float(np.max(rest, initial=0.0) * 1000.0)}


def summary(rows: list[dict[str, Any]]) -> str:
    early = np.array([r["early_mm"] for r in rows])
    worst = sorted(rows, key=lambda r: -r["early_mm"])[:5]
    return (f"{len(rows)} strikes: the largest distance a window after the first contact, mm: "
            f"median {np.median(early):.3f}, 75th percentile {np.percentile(early, 75):.3f}, "
            f"90th {np.percentile(early, 90):.3f}, max {early.max():.3f}; at rest, median "
            f"{np.median([r['rest_mm'] for r in rows]):.2f}\n"
            "worst: " + ", ".join(f"seed {r['seed']} ({r['pieces']} in the cluster) "
                                  f"{r['early_mm']:.3f} mm at {r['window_ms']:.0f} ms"
                                  for r in worst))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shots", type=int, default=200, help="strikes (default 200)")
    parser.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    parser.add_argument("--steps", type=int, default=STEPS,
                        help=f"reference steps per contact duration (default {STEPS})")
    parser.add_argument("--window", type=float, default=WINDOW,
                        help=f"s after the first contact (default {WINDOW})")
    parser.add_argument("--pieces", choices=PIECES, default="pucks",
                        help="novus pucks and the striker (default) or pool balls")
    parser.add_argument("--stiffness", type=float, default=1.0, metavar="K",
                        help="the reference's contact stiffnesses times K (default 1)")
    parser.add_argument("--json", metavar="OUT", help="also write the rows as JSON")
    parser.add_argument("--each", action="store_true", help="print every strike")
    args = parser.parse_args(argv)
    if args.shots < 1 or args.steps < 1 or not args.window > 0.0:
        parser.error("--shots, --steps and --window must be positive")
    low, high = STIFFNESS_SCALE_RANGE
    if not low <= args.stiffness <= high:
        parser.error(f"--stiffness must be within {low:g}-{high:g} (the reference's bound), "
                     f"got {args.stiffness}")
    rows = []
    for seed in range(args.seed, args.seed + args.shots):
        strike = random_strike(seed, args.pieces)
        if strike is None:
            continue
        rows.append(compare(strike, args.steps, args.window, args.stiffness))
        if args.each:
            r = rows[-1]
            print(f"seed {seed:5d} {r['pieces']} {args.pieces}: {r['early_mm']:8.3f} mm at "
                  f"{r['window_ms']:4.0f} ms, rest {r['rest_mm']:8.2f} mm", flush=True)
    if not rows:
        print("no strike: every seed put the striker on a puck")
        return 0
    print(summary(rows))
    if args.json:
        try:
            Path(args.json).write_text(json.dumps(rows, indent=1))
        except OSError as exc:
            print(f"strike_clusters.py: cannot write --json {args.json}: {exc.strerror}",
                  file=sys.stderr)
            return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
