"""Agreement of the event core with the soft-contact reference (issue 12, item 3).

    python bench/agreement.py [--quick] [--json OUT] [--steps N] [--dissipation LAW]

Each case runs through the event core (`cuesim.sim.run_motion`, the call `cuesim.simulate`
makes) and the discrete-element reference (`cuesim.sim.soft.soft_simulate`) from the same
placed layout and initial motion, and the table prints: the largest distance between a
piece's final positions in the two (mm, pieces on the table in both), whether the pocketed
sets are equal, and the wall time of each (s, one run each after a warm-up of the compiled
code). The reference runs at --steps steps per contact duration (default 320, 8 times finer
than soft_simulate's default: its friction ramp converges at the first order in the step, and
at 320 a halving moves the novus opening's pucks by ~3-10 mm). The reference is the ground
truth for touching contacts: elastic clusters agree to < 1 mm; with e < 1 the two spend the
restitution by different dissipation laws (bench/README.md), so the reference runs with both
by default: its own viscous damping, and the core's rate-independent hysteresis
(`soft_simulate(dissipation="hysteretic")`), which checks the core's integration of its law
through chains, rails and cloth; --dissipation keeps one.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

if __package__ in (None, ""):  # run as a script: make the checkout importable as `bench`
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cuesim.commands import output_file, positive_int, whole_number
from cuesim.shot import CueShot, NovusShot
from cuesim.sim import run_motion
from cuesim.sim.soft import soft_simulate
from cuesim.tables.carom import PIN_IDS, CaromTable, five_pins_layout
from cuesim.tables.layout import Layout, Piece
from cuesim.tables.novus import BOARD_SIZE, NovusTable
from cuesim.tables.pool import PoolTable


@dataclass(frozen=True)
class Case:
    """One shot: a table, a placed layout and the initial motions (as run_motion takes)."""

    name: str
    table: Any
    layout: Layout
    initial: dict[str, tuple[float, ...]]


def novus_opening(speed: float) -> Case:
    """The novus singles opening, the striker from x = 0.5 straight ahead (novus 10, 12)."""
    from cuesim.api import start_layout

    table = NovusTable()
    shot = NovusShot(x=0.5, angle=math.pi / 2, speed=speed)
    placed = shot.place(table, start_layout("novus", table))
    return Case(f"novus opening {speed:g} m/s", table, placed,
                {"striker": shot.striker_motion(table)})


def _puck_row(table: NovusTable, n: int, y: float, x_start: float) -> list[Piece]:
    r = table.piece_spec("puck").radius
    return [Piece(f"p{k}", "puck", x_start + (2 * k + 1) * r, y) for k in range(n)]


def row_end_on(n: int, speed: float = 3.0) -> Case:
    """n touching pucks along the north rail, struck end-on along the row by a puck."""
    table = NovusTable()
    r = table.piece_spec("puck").radius
    y = BOARD_SIZE - r
    x0 = 0.45
    row = _puck_row(table, n, y, x0)
    shooter = Piece("shooter", "puck", x0 - 0.2, y)
    return Case(f"row of {n} on a rail, end-on", table, Layout(table.name, (shooter, *row)),
                {"shooter": (speed, 0.0, 0.0)})


def row_broadside(n: int, speed: float = 4.0) -> Case:
    """n touching pucks along the north rail, struck square in their middle by the striker."""
    table = NovusTable()
    r = table.piece_spec("puck").radius
    row = _puck_row(table, n, BOARD_SIZE - r, 0.5 - n * r)
    striker = Piece("striker", "striker", 0.5, 0.5)
    return Case(f"row of {n} on a rail, broadside", table, Layout(table.name, (striker, *row)),
                {"striker": (0.0, speed, 0.0)})


def striker_into_pair(speed: float = 3.0) -> Case:
    """The striker into two touching pucks side by side (two contacts at once)."""
    table = NovusTable()
    r = table.piece_spec("puck").radius
    pair = (Piece("a", "puck", 0.5 - r, 0.6), Piece("b", "puck", 0.5 + r, 0.6))
    striker = Piece("striker", "striker", 0.5, 0.3)
    return Case("striker into a touching pair", table, Layout(table.name, (striker, *pair)),
                {"striker": (0.0, speed, 0.0)})


def cradle(n: int, balls: bool = False, speed: float = 2.0) -> Case:
    """Newton's cradle: n touching equal pieces in a line mid-table, one more strikes it
    end-on (pucks on the novus board, or balls on a 9-ft pool table)."""
    if balls:
        table: Any = PoolTable()
        r, kind, y = table.piece_spec("ball").radius, "ball", 1.2
        launch: tuple[float, ...] = (speed, 0.0, 0.0, speed / r, 0.0)  # rolling along +x
    else:
        table = NovusTable()
        r, kind, y = table.piece_spec("puck").radius, "puck", 0.5
        launch = (speed, 0.0, 0.0)
    x0 = 0.35
    pieces = [Piece("shooter", kind, x0 - 0.1, y)]
    pieces += [Piece(f"p{k}", kind, x0 + (2 * k + 1) * r, y) for k in range(n - 1)]
    what = "balls" if balls else "pucks"
    return Case(f"cradle of {n} {what}", table, Layout(table.name, tuple(pieces)),
                {"shooter": launch})


def rack_break(game: str, speed: float = 8.0) -> Case:
    """A frozen rack ('9-ball' or '8-ball') broken straight at the apex ball."""
    from cuesim.api import start_layout

    table = PoolTable()
    layout = start_layout(game, table)
    cue = layout.get("cue")
    fx, fy = table.foot_spot
    shot = CueShot(angle=math.atan2(fy - cue.y, fx - cue.x), speed=speed)
    placed = shot.place(table, layout)
    return Case(f"{game} rack, straight break {speed:g} m/s", table, placed,
                {"cue": shot.ball_motion(table)})


def five_pins_diamond(speed: float = 3.0) -> Case:
    """The breaker's ball through the pin diamond's centre spot (5-pins opening; the pins are
    left out: the reference does not model them)."""
    table = CaromTable()
    layout = five_pins_layout(table).without(PIN_IDS)
    ball = layout.get("white")
    cx, cy = table.spots["centre_spot"]
    shot = CueShot(angle=math.atan2(cy - ball.y, cx - ball.x), speed=speed, ball="white")
    return Case("5-pins: into the diamond (no pins)", table, shot.place(table, layout),
                {"white": shot.ball_motion(table)})


def sliding_pair(normal: float, v_t: float, push: float) -> Case:
    """A cue ball touching the 1 along the unit normal at angle `normal` (radians), rolling
    across it at v_t (m/s) with an extra side spin `push` (rad/s) whose slip drives it into the
    1: a contact that presses while its pieces slide past each other (resolve.sliding_pair)."""
    table = PoolTable()
    r = table.piece_spec("ball").radius
    nx, ny = math.cos(normal), math.sin(normal)
    layout = Layout(table.name, (Piece("cue", "ball", 0.7, 1.0, "cue"),
                                 Piece("1", "ball", 0.7 + 2 * r * nx, 1.0 + 2 * r * ny)))
    vx, vy = -v_t * ny, v_t * nx
    return Case(f"pool: sliding pair {math.degrees(normal):.0f} deg, {v_t:+.2f} m/s", table,
                layout, {"cue": (vx, vy, -vy / r - push * ny, vx / r + push * nx, 0.0)})


def sliding_family(n: int, seed: int = 1) -> list[Case]:
    """n sliding pairs at random angles, speeds (0.02-0.6 m/s) and pressing spins (0-12
    rad/s): `--sliding N`."""
    rng = np.random.default_rng(seed)
    return [sliding_pair(float(rng.uniform(0, 2 * math.pi)),
                         float(rng.uniform(0.02, 0.6) * rng.choice([-1, 1])),
                         float(rng.uniform(0.0, 12.0))) for _ in range(n)]


def suite_cases(quick: bool = False) -> list[Case]:
    """The agreement suite; --quick keeps one of each family."""
    speeds = (6.0,) if quick else (3.0, 6.0, 10.0)
    builders: list[Callable[[], Case]] = [lambda s=s: novus_opening(s) for s in speeds]
    sizes = (4,) if quick else (4, 6, 8)
    builders += [lambda n=n: row_end_on(n) for n in sizes]
    builders += [lambda n=n: row_broadside(n) for n in sizes]
    builders += [striker_into_pair]
    builders += [lambda n=n: cradle(n) for n in ((3,) if quick else (3, 4, 5, 6, 7))]
    builders += [lambda: cradle(3, balls=True)]
    builders += [lambda: rack_break("9-ball")] + ([] if quick else [lambda: rack_break("8-ball")])
    builders += [five_pins_diamond]
    builders += [lambda: sliding_pair(0.0, 0.26, 10.0)]
    builders += [] if quick else [lambda: sliding_pair(2.1, 0.33, 9.0)]
    return [b() for b in builders]


STEPS = 320  # steps per contact duration of the reference in this benchmark


LAWS = ("viscous", "hysteretic")  # the reference's dissipation laws (sim.soft)


def compare(case: Case, steps: int = STEPS, dissipation: str = "viscous") -> dict[str, Any]:
    """Run a case on both and measure the agreement (the reference with `dissipation`)."""
    t0 = time.perf_counter()
    core = run_motion(case.table, case.layout, case.initial, check=False)
    t1 = time.perf_counter()
    soft = soft_simulate(case.table, case.layout, case.initial, check=False,
                         steps_per_contact=steps, dissipation=dissipation)
    t2 = time.perf_counter()
    ids = case.layout.ids()
    both = core.final_on & soft.final_on
    diff = np.hypot(*(core.final_positions - soft.final_positions).T)
    core_pocketed = sorted(ids[i] for i in np.flatnonzero(~core.final_on))
    soft_pocketed = sorted(soft.pocketed_ids())
    return {
        "case": case.name,
        "dissipation": dissipation,
        "max_diff_mm": float(diff[both].max() * 1000.0) if both.any() else 0.0,
        "pocketed_equal": core_pocketed == soft_pocketed,
        "core_pocketed": core_pocketed,
        "soft_pocketed": soft_pocketed,
        "core_s": t1 - t0,
        "soft_s": t2 - t1,
        "soft_dt_us": soft.dt * 1e6,
        "soft_steps": soft.steps,
        "soft_at_rest": soft.at_rest,
        "core_truncated": bool(core.truncated),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one case of each family")
    parser.add_argument("--json", metavar="OUT", type=output_file,
                        help="also write the rows as JSON")
    parser.add_argument("--steps", type=positive_int, default=STEPS,
                        help=f"reference steps per contact duration (default {STEPS})")
    parser.add_argument("--dissipation", choices=(*LAWS, "both"), default="both",
                        help="the reference's dissipation law (default: both, side by side)")
    parser.add_argument("--sliding", type=whole_number, metavar="N", default=0,
                        help="instead: N random sliding pairs (a cue ball sliding past a "
                             "touching ball, pressed in), and their median and largest gaps")
    args = parser.parse_args(argv)
    laws = LAWS if args.dissipation == "both" else (args.dissipation,)
    cases = sliding_family(args.sliding) if args.sliding else suite_cases(args.quick)
    # warm up the compiled code of both on the smallest case (compiles on a cold cache)
    warm = cradle(3)
    for law in laws:
        compare(warm, args.steps, law)
    rows = [compare(c, args.steps, law) for c in cases for law in laws]
    print(f"{'case':<40} {'reference':<10} {'max diff mm':>11} {'pocketed =':>10} {'core s':>8}"
          f" {'soft s':>8} {'soft dt us':>10}")
    for r in rows:
        flag = "yes" if r["pocketed_equal"] else "NO"
        print(f"{r['case']:<40} {r['dissipation']:<10} {r['max_diff_mm']:>11.2f} {flag:>10}"
              f" {r['core_s']:>8.4f} {r['soft_s']:>8.3f} {r['soft_dt_us']:>10.3f}")
        if not r["pocketed_equal"]:
            print(f"{'':<4}pocketed: core {r['core_pocketed']}, soft {r['soft_pocketed']}")
        if not r["soft_at_rest"] or r["core_truncated"]:
            print(f"{'':<4}time limit (soft) or event cap (core) reached")
    if args.sliding:
        for law in laws:
            gaps = [r["max_diff_mm"] for r in rows if r["dissipation"] == law]
            print(f"{args.sliding} sliding pairs ({law}): largest gap per pair, median "
                  f"{np.median(gaps):.2f} mm, max {max(gaps):.2f} mm")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
