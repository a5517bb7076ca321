"""The benchmark suite's scenarios: seeded shots on every table, built before anything is timed.

A scenario is a list of cases; a case is what `cuesim.sim.run_motion` takes (table, placed
layout, initial motion, struck piece) plus what the other backends need to play the same
shot. Every random draw comes from a seeded numpy generator, so a scenario is the same in
every run and on every machine.

- novus-opening: the opening (striker in the middle of the south zone, straight ahead at
  6 m/s) into the doubles layout (33 discs), then random openings (aim, speed, place, spin).
- novus-midgame: random mid-game positions: 4-24 pucks anywhere on the board (off the holes),
  the striker anywhere in the south zone, random aim, speed and spin.
- 9-ball-break, 8-ball-break: the break of `bench/breaks.py` (cue ball in the middle one radius
  behind the head string, aimed at the apex, 8 m/s) into the frozen rack, then random breaks
  (random legal rack order, cue ball anywhere in the kitchen, 4-12 m/s, +-0.5 deg of aim).
- two-ball-pot: a cue ball and one object ball on the 9 ft table, the object ball cut toward
  a random pocket (ghost-ball aim, cut angle up to 40 deg, random follow and draw).
- five-pins: the 5-pins opening position with the breaker's ball anywhere in the bottom half,
  aimed through the pins (at most 40 mm off the centre pin), random speed, side and height.
- box-puck-N, box-ball-N: N novus pucks or pool balls at random places in a square box that
  they cover to 10 % (`cuesim.tables.box`), each launched in a random direction at a random
  speed (pucks up to 3 m/s, balls up to 2 m/s).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from bench.breaks import BREAK_BALL_SPEED, aim_at_apex, cue_speed_for, random_breaks
from bench.novus_opening import OPENING, random_spread
from cuesim import NovusShot
from cuesim.shot import ShotError
from cuesim.sim.cue import strike
from cuesim.tables import (
    Layout,
    LayoutError,
    Piece,
    cue_ball_in_kitchen,
    eight_ball_rack,
    nine_ball_rack,
    novus_doubles_layout,
    novus_table,
    pool_table,
)
from cuesim.tables.box import box_for, random_box_layout, random_box_motion
from cuesim.tables.carom import carom_table, five_pins_layout, pin_spots
from cuesim.tables.novus import HOLE_DIAMETER, PUCK_DIAMETER

SEED = 2026
BOX_AREA_FRACTION = 0.10  # the pieces cover a tenth of the box floor at every N
BOX_MAX_SPEED = {"puck": 3.0, "ball": 2.0}  # m/s, the fastest launch in the box
BOX_NS = (16, 32, 64, 128, 256, 512, 1024)


@dataclass
class Case:
    """One shot: the arguments of run_motion, and what the other backends need."""

    table: Any
    layout: Layout
    initial: dict[str, tuple[float, ...]]
    struck: str | None
    label: str = ""
    pooltool: dict[str, Any] | None = None  # PooltoolBreaks.system keyword arguments

    @property
    def discs(self) -> bool:
        """Every launch is (vx, vy, w): a disc shot the pymunk backend can play."""
        return all(len(v) == 3 for v in self.initial.values())


@dataclass
class Scenario:
    name: str
    title: str
    cases: list[Case]
    family: str  # novus | pool | carom | box-puck | box-ball
    n: int | None = None  # pieces in the box
    pymunk: bool = False  # the pymunk backend can play it (disc shots)
    max_events: int = 20_000
    notes: dict[str, Any] = field(default_factory=dict)

    @property
    def pieces(self) -> tuple[int, int]:
        sizes = [len(c.layout) for c in self.cases]
        return min(sizes), max(sizes)


# -- novus ------------------------------------------------------------------------------------
def novus_case(table: Any, layout: Layout, shot: NovusShot, label: str = "") -> Case:
    return Case(table, shot.place(table, layout), {"striker": shot.striker_motion(table)},
                "striker", label)


def novus_opening(count: int, seed: int = SEED) -> Scenario:
    """The opening shot into the doubles layout, then count - 1 random openings."""
    table = novus_table()
    layout = novus_doubles_layout(table)
    shots = [OPENING, *random_spread(max(0, count - 1), seed)]
    cases = [novus_case(table, layout, s, "opening" if k == 0 else f"random opening {k}")
             for k, s in enumerate(shots)]
    return Scenario("novus-opening", "novus: the opening into the doubles layout (first case), "
                    "then random openings", cases, "novus", pymunk=True)


def _midgame_case(table: Any, rng: np.random.Generator, k: int,
                  n_pucks: int | None = None) -> Case:
    (u0, u1), (w0, w1) = table.striker_strip()
    shot = NovusShot(x=float(rng.uniform(u0, u1)), y=float(rng.uniform(w0, w1)),
                     angle=float(rng.uniform(0.35, math.pi - 0.35)),
                     speed=float(rng.uniform(1.5, 7.0)), offset=float(rng.uniform(-0.01, 0.01)))
    sx, sy = shot.striker_position(table)
    r = PUCK_DIAMETER / 2
    clear_striker = r + table.piece_spec("striker").radius + 1e-4
    holes = table.geometry.holes
    if n_pucks is None:
        n_pucks = int(rng.integers(4, 25))
    placed: list[tuple[float, float]] = []
    while len(placed) < n_pucks:
        x, y = (float(v) for v in rng.uniform(r + 1e-4, 1.0 - r - 1e-4, 2))
        if math.hypot(x - sx, y - sy) < clear_striker:
            continue
        if any(math.hypot(x - h.x, y - h.y) < HOLE_DIAMETER / 2 + 1e-4 for h in holes):
            continue
        if any(math.hypot(x - px, y - py) < 2 * r + 1e-4 for px, py in placed):
            continue
        placed.append((x, y))
    pieces = tuple(Piece(f"{'red' if m % 2 == 0 else 'black'}{m // 2 + 1}", "puck", x, y,
                         "red" if m % 2 == 0 else "black") for m, (x, y) in enumerate(placed))
    return novus_case(table, Layout(table.name, pieces), shot, f"midgame {k}")


def novus_midgame(count: int, seed: int = SEED) -> Scenario:
    table = novus_table()
    rng = np.random.default_rng(seed + 10)
    cases = [_midgame_case(table, rng, k) for k in range(count)]
    return Scenario("novus-midgame", "novus: random mid-game positions (4-24 pucks, striker "
                    "anywhere in the south zone)", cases, "novus", pymunk=True)


def novus_scattered(n_pucks: int, count: int, seed: int = SEED) -> Scenario:
    """`count` mid-game positions of exactly n_pucks pucks (at most 32) scattered at random
    over the board, the striker shot from anywhere in the south zone (bench/broadphase.py's
    crossover)."""
    if not 0 <= n_pucks <= 32:
        raise ValueError(f"n_pucks: expected 0 to 32 (a novus set), got {n_pucks}")
    table = novus_table()
    rng = np.random.default_rng([seed, 11, n_pucks])
    cases = [_midgame_case(table, rng, k, n_pucks) for k in range(count)]
    return Scenario(f"novus-scattered-{n_pucks}", f"novus: {n_pucks} pucks scattered at "
                    "random, striker anywhere in the south zone", cases, "novus")


# -- pool -------------------------------------------------------------------------------------
def pool_break(game: str, count: int, seed: int = SEED) -> Scenario:
    """The break of bench/breaks.py, then count - 1 random breaks (its random_breaks draws)."""
    if game not in ("9-ball", "8-ball"):
        raise ValueError(f"no break for {game!r}")
    table = pool_table()
    spec = table.piece_spec("ball")
    rack = nine_ball_rack if game == "9-ball" else eight_ball_rack
    cue = cue_ball_in_kitchen(table)
    phi = aim_at_apex(table, cue.x, cue.y)
    cases = [Case(table, rack(table, cue=cue),
                  {"cue": strike(spec, cue_speed_for(table, BREAK_BALL_SPEED), phi)}, "cue",
                  "break", {"game": game})]
    rng = np.random.default_rng(seed + 1)
    r, hs, w = spec.radius, table.head_string_y, table.width
    for k, (fx, fy, ball_speed, err) in enumerate(random_breaks(max(0, count - 1), seed)):
        x, y = r + fx * (w - 2 * r), min(r + fy * (hs - r), math.nextafter(hs, 0))
        cue = cue_ball_in_kitchen(table, x=x, y=y)
        phi = aim_at_apex(table, cue.x, cue.y) + err
        cases.append(Case(
            table, rack(table, rng=rng, cue=cue),
            {"cue": strike(spec, cue_speed_for(table, ball_speed), phi)}, "cue",
            f"random break {k + 1}",
            {"game": game, "cue_xy": (r + fx * (w - 2 * r), r + fy * (hs - r) * (1 - 1e-9)),
             "ball_speed": ball_speed, "aim_error": err, "seed": seed + 1 + k}))
    return Scenario(f"{game}-break", f"{game}: the break into the frozen rack (first case), "
                    "then random breaks", cases, "pool")


def _pot_case(table: Any, rng: np.random.Generator, k: int) -> Case:
    spec = table.piece_spec("ball")
    r = spec.radius
    while True:
        pocket = table.pockets[int(rng.integers(len(table.pockets)))]
        mx = (pocket.lip_a[0] + pocket.lip_b[0]) / 2
        my = (pocket.lip_a[1] + pocket.lip_b[1]) / 2
        ox = float(rng.uniform(4 * r, table.width - 4 * r))
        oy = float(rng.uniform(4 * r, table.length - 4 * r))
        ux, uy = mx - ox, my - oy
        dist = math.hypot(ux, uy)
        if dist < 0.2:
            continue
        ux, uy = ux / dist, uy / dist
        gx, gy = ox - 2 * r * ux, oy - 2 * r * uy  # the ghost ball
        cut = float(rng.uniform(-math.radians(40), math.radians(40)))
        back = float(rng.uniform(0.25, 1.0))
        c, s = math.cos(cut), math.sin(cut)
        dx, dy = c * ux - s * uy, s * ux + c * uy  # the cue ball's path to the ghost ball
        cx, cy = gx - back * dx, gy - back * dy
        layout = Layout(table.name, (Piece("cue", "ball", cx, cy, "cue"),
                                     Piece("1", "ball", ox, oy, "solids")))
        try:
            table.check_layout(layout)
        except LayoutError:
            continue
        phi = math.atan2(gy - cy, gx - cx)
        speed = float(rng.uniform(1.2, 3.0))  # cue speed, m/s
        height = float(rng.uniform(-0.4, 0.4)) * r
        return Case(table, layout, {"cue": strike(spec, speed, phi, 0.0, height)}, "cue",
                    f"pot {k} into {pocket.name}")


def two_ball_pot(count: int, seed: int = SEED) -> Scenario:
    table = pool_table()
    rng = np.random.default_rng(seed + 20)
    cases = [_pot_case(table, rng, k) for k in range(count)]
    return Scenario("two-ball-pot", "pool: a cue ball and one object ball cut toward a pocket",
                    cases, "pool")


# -- 5-pins -----------------------------------------------------------------------------------
def five_pins(count: int, seed: int = SEED) -> Scenario:
    table = carom_table()
    spec = table.piece_spec("ball")
    r = spec.radius
    rng = np.random.default_rng(seed + 30)
    cx, cy = pin_spots()["pin_centre"]
    cases = []
    for k in range(count):
        if k == 0:  # the opening position: on the lag line, 300 mm from the left rail
            layout = five_pins_layout(table)
        else:  # anywhere in the bottom half, clear of the pins (a draw on a pin: again)
            layout = None
            while layout is None:
                xy = (float(rng.uniform(r + 0.01, table.geometry.width - r - 0.01)),
                      float(rng.uniform(r + 0.01, table.geometry.length / 2 - r - 0.05)))
                try:
                    layout = five_pins_layout(table, breaker_xy=xy)
                except LayoutError:
                    continue
        white = layout.get("white")
        aim_x = cx + float(rng.uniform(-0.04, 0.04))
        phi = math.atan2(cy - white.y, aim_x - white.x)
        speed = 3.0 if k == 0 else float(rng.uniform(1.5, 5.0))
        side = 0.0 if k == 0 else float(rng.uniform(-0.35, 0.35)) * r
        height = 0.0 if k == 0 else float(rng.uniform(-0.3, 0.3)) * r
        cases.append(Case(table, layout, {"white": strike(spec, speed, phi, side, height)},
                          "white", "through the pins" if k == 0 else f"random {k}"))
    return Scenario("five-pins", "5-pins: the breaker's ball through the pins", cases, "carom")


# -- the box ----------------------------------------------------------------------------------
def box(piece: str, n: int, count: int = 1, seed: int = SEED) -> Scenario:
    """`count` random boxes of n pieces (seeds seed, seed + 1, ...)."""
    table = box_for(n, piece, BOX_AREA_FRACTION)
    cases = []
    for k in range(count):
        rng = np.random.default_rng([seed, n, k])
        layout = random_box_layout(table, n, rng)
        motion = random_box_motion(layout, rng, BOX_MAX_SPEED[piece], ball=piece == "ball")
        cases.append(Case(table, layout, motion, None, f"box {k}"))
    return Scenario(f"box-{piece}-{n}", f"box: {n} {piece}s, random places and launches",
                    cases, f"box-{piece}", n=n, pymunk=piece == "puck",
                    max_events=max(20_000, 200 * n),
                    notes={"side_m": table.width, "area_fraction": BOX_AREA_FRACTION,
                           "max_speed": BOX_MAX_SPEED[piece]})


BUILDERS: dict[str, Callable[[int], Scenario]] = {
    "novus-opening": novus_opening,
    "novus-midgame": novus_midgame,
    "9-ball-break": lambda count: pool_break("9-ball", count),
    "8-ball-break": lambda count: pool_break("8-ball", count),
    "two-ball-pot": two_ball_pot,
    "five-pins": five_pins,
}


def check_case(case: Case) -> None:
    """Raise if a case's layout is not a valid layout of its table."""
    try:
        case.table.check_layout(case.layout)
    except (LayoutError, ShotError) as exc:
        raise LayoutError(f"{case.label}: {exc}") from None
