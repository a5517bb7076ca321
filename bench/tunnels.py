"""Tunnel and runaway hunter: random shots per game, every trajectory checked for penetration.

    python bench/tunnels.py [--shots N] [--games novus,9-ball,...] [--seed S] [--workers W]
                            [--physics table|random] [--pool-size 9ft|8ft|7ft] [--json FILE]

For each game (novus, 9-ball, 8-ball, 14.1, 5-pins) N shots, each from its own seed: half from
the game's opening layout (the cue ball anywhere in the kitchen, the striker anywhere in its
strip, the 5-pins breaker anywhere in its half), half from random layouts built of frozen rows,
frozen blobs, pieces against cushions and free pieces; a third of the shots are extreme (12-15
m/s, the tip on the miscue circle at half the radius, cue elevation up to 80 degrees). After
each shot every piece's exact trajectory is evaluated at every event time, three times between
consecutive events and on a 2001-point grid, and checked against every cushion segment (face
and end points), jaw knuckle, the table's outline (pocket throats excepted) and every other
piece (a ball and a pin only while the pin stands; a ball that touched a pin without felling it
may be up to x_tip inside the pin's standing circle while the pin rocks, the distance the model
lets the head give way, sim/resolve/pin.py; a thrown pin so touching one, up to how far it gives
way at the belly's height, where a lying pin strikes). A shot is a TUNNEL when anything is deeper
than DEPTH inside anything, a RUNAWAY when the core hit its event limit (ShotResult.truncated),
an ERROR when it raised. Prints counts per game and the seeds of every failure; a seed replays
with `shot_for(game, seed)`. With `--physics random` each seed also draws the table's
coefficients (`random_physics`: friction, restitution 0 to 1, the impact's resolution, v_stick
and g, log-uniform over wide ranges), the same layout and shot on other tables: a threshold or
a coefficient at its extreme must not make the core tunnel, run away or fail either
(`shot_for(game, seed, "random")` replays one). `--pool-size 8ft` or `7ft` plays the pool games
on that table, their layouts drawn on it (`shot_for(game, seed, physics, size)`).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

from cuesim import CueShot, NovusShot, simulate
from cuesim.commands import output_file, positive_int
from cuesim.sim.events import COL_A, COL_B, COL_KIND, COL_T, EventKind
from cuesim.sim.resolve.pin import tipping_clearance
from cuesim.sim.result import ShotResult
from cuesim.sim.state import (
    SEG_AX,
    SEG_AY,
    SEG_OBJ,
    SEG_ON,
    SEG_T0,
    SEG_T1,
    SEG_VX,
    SEG_VY,
    SEG_X,
    SEG_Y,
)
from cuesim.tables import (
    cue_ball_in_kitchen,
    eight_ball_rack,
    nine_ball_rack,
    novus_singles_layout,
    novus_table,
    pool_table,
)
from cuesim.tables.balls import BallPhysics
from cuesim.tables.carom import carom_table, five_pins_layout, pin_model
from cuesim.tables.layout import Layout, Piece
from cuesim.tables.novus import NovusPhysics
from cuesim.tables.pool import PLAYING_SURFACES
from cuesim.tables.racks import straight_pool_rack

GAMES = ("novus", "9-ball", "8-ball", "14.1", "5-pins")
DEPTH = 1e-6  # m: deeper than this inside a cushion, knuckle or piece is a tunnel
GRID = 2001  # uniform samples over the shot, besides the event times
EXTREME_SPEED = (12.0, 15.0)  # m/s, issue 12 item 4
MAX_ELEVATION = math.radians(80.0)  # issue 12 item 4
_HG, _, _RB, _HC, _, _, _, _, _HPP = pin_model(carom_table().physics.g)[:9]
PIN_TILT = tipping_clearance(_RB, _HG, _HC)  # m: how far a rocking pin's head gives way
# m: how far it gives way at a lying pin's belly, where a thrown pin touches it (resolve.pin)
PIN_TILT_BELLY = tipping_clearance(_RB, _HG, _HPP)
TIP = 0.5  # tip offset of the extreme shots, fraction of the radius (the miscue limit)

POOL, NOVUS, CAROM = pool_table(), novus_table(), carom_table()
POOL_SIZES = {size: POOL if size == "9ft" else pool_table(size) for size in PLAYING_SURFACES}
TABLES = {"novus": NOVUS, "9-ball": POOL, "8-ball": POOL, "14.1": POOL, "5-pins": CAROM}
PHYSICS = ("table", "random")  # --physics: the tables' own coefficients, or drawn per seed
# --physics random: log-uniform ranges, wide around the tables' values (tables/balls.py,
# tables/novus.py), and restitutions 0, 1 or uniform between, a third each
# cloth or board sliding friction (the tables: 0.2; novus 0.2-0.5) and g: their product at
# the low end (0.06 m/s^2) still stops a piece at 15 m/s within 2 km of travel, so elastic
# pieces on the slipperiest board end within the event limit (at 0.025 m/s^2 a novus opening
# with e = 1 everywhere took 19,697 events: many, but physics, not a runaway)
FRICTION = (0.02, 5.0)
ROLLING = (1e-4, 1.0)  # ball rolling resistance (0.01)
SPIN = (1e-3, 5.0)  # ball spin friction about the vertical (0.0127)
IMPACT_FRICTION = (1e-4, 2.0)  # ball-ball fit a and b, cushion and novus impact friction
FRICTION_FALL = (1e-3, 50.0)  # s/m, the ball-ball fit's c
STEPS = (2.0, 60.0)  # the multiple impact's resolution, uniform (tables.contact: 2-320, 20)
V_STICK = (1e-4, 0.1)  # m/s, the model rule's sticking speed (0.01)
G = (3.0, 30.0)  # m/s^2: a table on Mars to one on a fast lift


@dataclass(frozen=True)
class Case:
    game: str
    seed: int
    layout: Layout
    shot: Any
    kind: str  # "opening" or "random"
    extreme: bool
    physics: BallPhysics | NovusPhysics | None = None  # None: the table's own (TABLES)
    size: str = "9ft"  # the pool games' table (tables.pool.PLAYING_SURFACES)

    @property
    def table(self) -> Any:
        """The table the shot is played on: the game's (for pool, of this case's size), with
        this case's physics if drawn."""
        pool = self.game not in ("novus", "5-pins")
        if self.physics is None:
            return POOL_SIZES[self.size] if pool else TABLES[self.game]
        if self.game == "novus":
            return novus_table(self.physics)
        return carom_table(self.physics) if self.game == "5-pins" else pool_table(
            self.size, physics=self.physics)


def random_physics(game: str, seed: int) -> BallPhysics | NovusPhysics:
    """The coefficients of `--physics random` for one seed (its own stream: the seed's layout
    and shot are those of `--physics table`)."""
    rng = np.random.default_rng([seed, GAMES.index(game), 1])

    def log(lo_hi: tuple[float, float]) -> float:
        return float(np.exp(rng.uniform(math.log(lo_hi[0]), math.log(lo_hi[1]))))

    def e() -> float:
        return float(rng.choice([0.0, 1.0, rng.uniform(0.0, 1.0)]))

    common = {"impact_steps": float(rng.uniform(*STEPS)), "v_stick": log(V_STICK), "g": log(G)}
    if game == "novus":
        return NovusPhysics(mu_puck=log(FRICTION), mu_striker=log(FRICTION), e_puck_puck=e(),
                            e_striker_puck=e(), e_rail=e(), mu_impact=log(IMPACT_FRICTION),
                            mu_rail_impact=log(IMPACT_FRICTION), **common)
    return BallPhysics(mu_slide=log(FRICTION), mu_roll=log(ROLLING), mu_spin=log(SPIN),
                       e_ball=e(), ball_friction_a=log(IMPACT_FRICTION),
                       ball_friction_b=log(IMPACT_FRICTION),
                       ball_friction_c=log(FRICTION_FALL), e_cushion=e(),
                       mu_cushion=log(IMPACT_FRICTION), **common)


# --- layouts ------------------------------------------------------------------------------------
def _free(table: Any, pts: list[tuple[float, float, float]], x: float, y: float, r: float,
          contact: dict[tuple[float, float], float] | None = None) -> bool:
    """Whether a piece of radius r at (x, y) lies wholly on the surface (touching a cushion is
    fine), off every hole, and overlaps no piece in pts (x, y, radius); touching is fine."""
    geo = table.geometry
    if not (r <= x <= geo.width - r and r <= y <= geo.length - r):
        return False
    if any(math.hypot(x - h.x, y - h.y) < h.radius for h in geo.holes):
        return False
    for px, py, pr in pts:
        need = (contact or {}).get((pr, r), pr + r)
        if math.hypot(x - px, y - py) < need * (1.0 - 1e-12):
            return False
    return True


def random_pieces(table: Any, rng: np.random.Generator, n: int, r: float,
                  fixed: list[tuple[float, float, float]] | None = None,
                  contact: dict[tuple[float, float], float] | None = None
                  ) -> list[tuple[float, float]]:
    """n centres of radius-r pieces: frozen rows (touching, along a random direction, often
    starting against a cushion), frozen hexagonal blobs, pieces frozen to a cushion, free pieces;
    none overlapping each other or `fixed` (x, y, radius)."""
    geo = table.geometry
    w, l = geo.width, geo.length
    pts: list[tuple[float, float, float]] = list(fixed or [])
    out: list[tuple[float, float]] = []
    tries = 0
    while len(out) < n and tries < 400:
        tries += 1
        mode = rng.integers(4)
        k = int(min(n - len(out), rng.integers(2, 7)))
        if mode == 0:  # a frozen row, from a random point or from a cushion
            phi = rng.uniform(0.0, 2 * math.pi)
            if rng.random() < 0.5:
                side = rng.integers(4)
                x = [r, w - r, rng.uniform(r, w - r), rng.uniform(r, w - r)][side]
                y = [rng.uniform(r, l - r), rng.uniform(r, l - r), r, l - r][side]
                phi = [0.0, math.pi, math.pi / 2, -math.pi / 2][side] + rng.choice(
                    [0.0, 0.0, rng.uniform(-1.2, 1.2), math.pi / 2])
            else:
                x, y = rng.uniform(r, w - r), rng.uniform(r, l - r)
            cand = [(x + 2 * r * m * math.cos(phi), y + 2 * r * m * math.sin(phi))
                    for m in range(k)]
        elif mode == 1:  # a frozen hexagonal blob
            x, y = rng.uniform(3 * r, w - 3 * r), rng.uniform(3 * r, l - 3 * r)
            phi = rng.uniform(0.0, math.pi / 3)
            cells = [(0, 0), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)]
            cand = []
            for a, b in cells[:k]:
                u, v = 2 * r * (a + 0.5 * b), 2 * r * (b * math.sqrt(3) / 2)
                cand.append((x + u * math.cos(phi) - v * math.sin(phi),
                             y + u * math.sin(phi) + v * math.cos(phi)))
        elif mode == 2:  # frozen to a cushion
            side = rng.integers(4)
            cand = [([r, w - r, rng.uniform(r, w - r), rng.uniform(r, w - r)][side],
                     [rng.uniform(r, l - r), rng.uniform(r, l - r), r, l - r][side])]
        else:
            cand = [(rng.uniform(r, w - r), rng.uniform(r, l - r))]
        for x, y in cand:
            if len(out) < n and _free(table, pts, x, y, r, contact):
                pts.append((x, y, r))
                out.append((x, y))
    return out


def _pool_layout(game: str, rng: np.random.Generator, opening: bool, table: Any) -> Layout:
    if opening:
        rack = {"9-ball": nine_ball_rack, "8-ball": eight_ball_rack,
                "14.1": straight_pool_rack}[game]
        return rack(table, cue=cue_ball_in_kitchen(table, rng=rng), rng=rng)
    r = table.piece_spec("ball").radius
    n = int(rng.integers(2, {"9-ball": 10, "8-ball": 16, "14.1": 16}[game] + 1))
    pts = random_pieces(table, rng, n, r)
    ids = ["cue"] + [str(k) for k in range(1, len(pts))]
    return Layout(table.name, tuple(Piece(i, "ball", x, y) for i, (x, y) in zip(ids, pts,
                                                                                strict=True)))


def _novus_layout(rng: np.random.Generator, opening: bool) -> Layout:
    if opening:
        return novus_singles_layout(NOVUS)
    r = NOVUS.piece_spec("puck").radius
    pts = random_pieces(NOVUS, rng, int(rng.integers(2, 17)), r)
    return Layout(NOVUS.name, tuple(Piece(f"p{k}", "puck", x, y) for k, (x, y) in
                                    enumerate(pts)))


def _carom_layout(rng: np.random.Generator, opening: bool) -> Layout:
    r = CAROM.piece_spec("ball").radius
    if opening:
        x = rng.uniform(r, CAROM.geometry.width - r)
        y = rng.uniform(r, CAROM.geometry.length / 2 - r)
        try:
            return five_pins_layout(CAROM, breaker_xy=(x, y))
        except ValueError:
            return five_pins_layout(CAROM)
    base = five_pins_layout(CAROM)
    pins = [p for p in base.pieces if p.kind == "pin"]
    rp = CAROM.piece_spec("pin").radius
    contact = {(rp, r): CAROM.contact_distance("ball", "pin")}
    pts = random_pieces(CAROM, rng, 3, r, fixed=[(p.x, p.y, rp) for p in pins], contact=contact)
    balls = [Piece(i, "ball", x, y, i) for i, (x, y) in zip(("white", "yellow", "red"), pts,
                                                              strict=False)]
    if not balls:
        return base
    return Layout(CAROM.name, (*balls, *pins))


def shot_for(game: str, seed: int, physics: str = "table", size: str = "9ft") -> Case:
    """The layout and shot of one hunter seed (deterministic), on the table's own physics or
    (physics "random") on the seed's `random_physics`; the pool games on a table of `size`
    (its layout drawn on it: the same draws, so "9ft" is the hunter's usual shot)."""
    if physics not in PHYSICS:
        raise ValueError(f"physics must be one of {', '.join(PHYSICS)}, got {physics!r}")
    if size not in POOL_SIZES:
        raise ValueError(f"size must be one of {', '.join(POOL_SIZES)}, got {size!r}")
    drawn = random_physics(game, seed) if physics == "random" else None
    rng = np.random.default_rng([seed, GAMES.index(game)])
    opening = bool(rng.random() < 0.5)
    extreme = bool(rng.random() < 1.0 / 3.0)
    speed = rng.uniform(*EXTREME_SPEED) if extreme else rng.uniform(0.5, 12.0)
    if game == "novus":
        layout = _novus_layout(rng, opening)
        strip = NOVUS.striker_strip()
        spec = NOVUS.piece_spec("striker")
        offset = (rng.uniform(-0.9, 0.9) if not extreme else rng.choice([-0.9, 0.9])) * spec.radius
        for _ in range(50):
            shot = NovusShot(x=rng.uniform(*strip[0]), y=rng.uniform(*strip[1]),
                             angle=rng.uniform(0.02, math.pi - 0.02), speed=speed,
                             offset=offset, side=str(rng.choice(["south", "east", "north",
                                                                  "west"])))
            try:
                shot.place(NOVUS, layout)
                break
            except ValueError:
                continue
        return Case(game, seed, layout, shot, "opening" if opening else "random", extreme,
                    drawn)
    layout = (_carom_layout(rng, opening) if game == "5-pins"
              else _pool_layout(game, rng, opening, POOL_SIZES[size]))
    ball = "white" if game == "5-pins" else "cue"
    if ball not in layout.ids():
        ball = next(p.id for p in layout.pieces if p.kind == "ball")
    if extreme:
        psi = rng.uniform(0.0, 2 * math.pi)
        side, height = TIP * math.cos(psi), TIP * math.sin(psi)
        elevation = rng.uniform(0.0, MAX_ELEVATION)
    else:
        rho, psi = TIP * math.sqrt(rng.random()), rng.uniform(0.0, 2 * math.pi)
        side, height = rho * math.cos(psi), rho * math.sin(psi)
        elevation = rng.uniform(0.0, math.radians(30.0))
    me = layout.pieces[layout.index(ball)]
    others = [p for p in layout.pieces if p.id != ball]
    if others and rng.random() < 0.6:  # aim at a piece: more contacts than a random direction
        o = others[int(rng.integers(len(others)))]
        angle = math.atan2(o.y - me.y, o.x - me.x) + rng.normal(0.0, 0.05)
    else:
        angle = rng.uniform(0.0, 2 * math.pi)
    shot = CueShot(angle=angle, speed=speed, side=side, height=height, elevation=elevation,
                   ball=ball)
    return Case(game, seed, layout, shot, "opening" if opening else "random", extreme, drawn,
                size)


# --- the check ----------------------------------------------------------------------------------
def _sample_times(res: ShotResult) -> np.ndarray:
    te = np.unique(res.events[:, COL_T]) if len(res.events) else np.array([0.0])
    if len(te) > 20_000:
        te = te[np.linspace(0, len(te) - 1, 20_000).astype(int)]
    mids = [te[:-1] + f * np.diff(te) for f in (0.25, 0.5, 0.75)]
    grid = np.linspace(0.0, te[-1], GRID)
    # after the last event everything rests, unless the event limit cut the shot short: then
    # the open segments are moving pieces, not a layout (counted as a runaway, not a tunnel)
    rest = [] if res.truncated else [te[-1] + 10.0]
    return np.unique(np.concatenate([te, *mids, grid, rest]))


def positions(res: ShotResult, times: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(m, n, 2) positions and (m, n) on-table flags at the given times, from the segments."""
    n = len(res.initial)
    pos = np.zeros((len(times), n, 2))
    on = np.zeros((len(times), n), dtype=bool)
    seg = res.segments
    for i in range(n):
        s = seg[seg[:, SEG_OBJ] == i]
        s = s[np.argsort(s[:, SEG_T0], kind="stable")]
        k = np.clip(np.searchsorted(s[:, SEG_T0], times, side="right") - 1, 0, len(s) - 1)
        row = s[k]
        tau = np.minimum(np.maximum(times, row[:, SEG_T0]), row[:, SEG_T1]) - row[:, SEG_T0]
        pos[:, i, 0] = row[:, SEG_X] + tau * (row[:, SEG_VX] + 0.5 * tau * row[:, SEG_AX])
        pos[:, i, 1] = row[:, SEG_Y] + tau * (row[:, SEG_VY] + 0.5 * tau * row[:, SEG_AY])
        on[:, i] = row[:, SEG_ON] != 0.0
    return pos, on


def _lean_end(times: np.ndarray, depth: np.ndarray, t_stop: float) -> float:
    """When a touched pin that stopped rocking at t_stop stands again: a ball still inside its
    circle and on its way out keeps it leaning (resolve.pin.pin_clear_time; no event marks the
    end) until it has left, so the samples from t_stop on in which the ball's depth is positive
    and never grows are the lean's. A ball that goes deeper after the stop meets a standing pin
    (the core logs that): its depth counts from there on."""
    end = t_stop
    last = np.inf
    for k in np.flatnonzero(times >= t_stop):
        if not (0.0 < depth[k] <= last):
            break
        end, last = times[k], depth[k]
    return float(end)


def penetration(table: Any, res: ShotResult) -> tuple[float, str]:
    """The deepest penetration (m) anywhere in the shot and what it was."""
    geo = table.geometry
    layout = res.initial
    kinds = [p.kind for p in layout.pieces]
    radius = np.array([table.piece_spec(k).radius for k in kinds])
    is_pin = np.array([k == "pin" for k in kinds])
    times = _sample_times(res)
    pos, on = positions(res, times)
    worst, what = -np.inf, ""

    def note(depth: np.ndarray, label: Any) -> None:
        nonlocal worst, what
        if depth.size == 0:
            return
        idx = np.unravel_index(int(np.argmax(depth)), depth.shape)
        if depth[idx] > worst:
            worst = float(depth[idx])
            what = label(idx)

    ids = layout.ids()
    # cushions: faces (within their extent, up to 2 radii behind) and end points
    rails = geo.rail_array()
    if len(rails):
        q0, q1, nrm = rails[:, 0:2], rails[:, 2:4], rails[:, 4:6]
        e = q1 - q0
        length = np.hypot(e[:, 0], e[:, 1])
        e = e / length[:, None]
        d = pos[:, :, None, :] - q0[None, None, :, :]
        along = np.einsum("mnrk,rk->mnr", d, e)
        g = np.einsum("mnrk,rk->mnr", d, nrm)
        r = radius[None, :, None]
        face = np.where((along >= 0) & (along <= length) & (g > -2 * r), r - g, -np.inf)
        d1 = pos[:, :, None, :] - q1[None, None, :, :]
        ends = np.maximum(r - np.hypot(d[..., 0], d[..., 1]), r - np.hypot(d1[..., 0], d1[..., 1]))
        depth = np.where(on[:, :, None], np.maximum(face, ends), -np.inf)
        names = [x.name for x in geo.rails]
        note(depth, lambda ix: f"{ids[ix[1]]} in {names[ix[2]]} at t={times[ix[0]]:.6f}")
    kn = geo.knuckle_array()
    if len(kn):
        dk = np.hypot(pos[:, :, None, 0] - kn[None, None, :, 0],
                      pos[:, :, None, 1] - kn[None, None, :, 1])
        depth = np.where(on[:, :, None], radius[None, :, None] + kn[None, None, :, 2] - dk,
                         -np.inf)
        names = [x.name for x in geo.knuckles]
        note(depth, lambda ix: f"{ids[ix[1]]} in {names[ix[2]]} at t={times[ix[0]]:.6f}")
    # the outline: a centre outside the rectangle the cushions allow (pocket throats excepted)
    w, l = geo.width, geo.length
    r = radius[None, :]
    out = np.maximum.reduce([r - pos[..., 0], pos[..., 0] - (w - r), r - pos[..., 1],
                             pos[..., 1] - (l - r)])
    for pocket in getattr(table, "pockets", ()):
        mx = (pocket.lip_a[0] + pocket.lip_b[0]) / 2
        my = (pocket.lip_a[1] + pocket.lip_b[1]) / 2
        near = np.hypot(pos[..., 0] - mx, pos[..., 1] - my) < 0.15
        out = np.where(near, -np.inf, out)
    note(np.where(on, out, -np.inf), lambda ix: f"{ids[ix[1]]} off the table at "
                                                f"t={times[ix[0]]:.6f}")
    # pieces: a pin against a ball only while it stands (balls pass over knocked pins); two
    # pins, standing, thrown or lying, at their widest diameter (dispatch.contact_distance)
    knock = np.full(len(ids), np.inf)
    for row in res.events[res.events[:, COL_KIND] == int(EventKind.PIN)]:
        b = int(row[COL_B])
        knock[b] = min(knock[b], row[COL_T])
    dist = np.hypot(pos[:, :, None, 0] - pos[:, None, :, 0],
                    pos[:, :, None, 1] - pos[:, None, :, 1])
    need = radius[:, None] + radius[None, :]
    if is_pin.any():
        cd = table.contact_distance("ball", "pin")
        need = np.where(is_pin[:, None] != is_pin[None, :], cd, need)
        need = np.where(is_pin[:, None] & is_pin[None, :],
                        table.contact_distance("pin", "pin"), need)
    valid = on[:, :, None] & on[:, None, :]
    valid &= ~np.eye(len(ids), dtype=bool)[None]
    standing = times[:, None] < knock[None, :]
    ball_pin = (is_pin[:, None] != is_pin[None, :])[None]
    valid &= ~ball_pin | np.where(is_pin[None, :, None], standing[:, :, None], True)
    valid &= ~ball_pin | np.where(is_pin[None, None, :], standing[:, None, :], True)
    depth = np.where(valid, need[None] - dist, -np.inf)
    # a ball that touches a pin without felling it tilts it away as it goes by (resolve.pin):
    # while that pin rocks, the ball may be up to x_tip inside its standing circle, no farther
    # (until the pin's first stop logged after the touch: one logged at the same instant
    # before it ended an earlier rocking), and after that stop while the pin leans on it; a
    # thrown pin, which strikes low (at a lying pin's belly), up to how far the tilt moves the
    # pin there (5-pins seed 1300950, random physics: 37 um, following the pin it touched)
    later = np.arange(len(res.events))
    for r in np.flatnonzero(res.events[:, COL_KIND] == int(EventKind.COLLIDE)):
        row = res.events[r]
        a, b, t0 = int(row[COL_A]), int(row[COL_B]), row[COL_T]
        if b < 0 or not is_pin[b]:
            continue
        if is_pin[a] and np.any((res.events[:r, COL_KIND] == int(EventKind.PIN))
                                & (res.events[:r, COL_B] == b)):
            continue  # two knocked pins meeting: an impact of the contact core, no give
        give = PIN_TILT_BELLY if is_pin[a] else PIN_TILT
        ends = res.events[(res.events[:, COL_KIND] == int(EventKind.STOP))
                          & (res.events[:, COL_A] == b) & (later > r), COL_T]
        end = _lean_end(times, need[a, b] - dist[:, a, b], ends.min()) if len(ends) else np.inf
        window = (times >= t0) & (times <= end)
        for x, y in ((a, b), (b, a)):
            depth[window, x, y] -= give
    note(depth, lambda ix: f"{ids[ix[1]]} in {ids[ix[2]]} at t={times[ix[0]]:.6f}")
    return worst, what


def non_finite(res: ShotResult) -> str | None:
    """What in a result is not a finite number, or None: every event row, every segment
    column (a segment's end t1 may be infinite, never NaN), every final position."""
    rows = np.flatnonzero(~np.isfinite(res.events).all(axis=1))
    if len(rows):
        k = int(rows[0])
        return (f"non-finite result: events[{k}] = {res.events[k].tolist()} "
                f"({len(rows)} such rows)")
    seg = res.segments
    finite = np.isfinite(np.delete(seg, SEG_T1, axis=1)).all(axis=1) & ~np.isnan(seg[:, SEG_T1])
    if not finite.all():
        return f"non-finite result: segments[{int(np.flatnonzero(~finite)[0])}]"
    if not np.isfinite(res.final_positions).all():
        return "non-finite result: final_positions"
    return None


def run_case(case: Case) -> dict[str, Any]:
    table = case.table
    out: dict[str, Any] = {"game": case.game, "seed": case.seed, "kind": case.kind,
                           "extreme": case.extreme}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            res = simulate(table, case.layout, case.shot)
    except ValueError as exc:  # a shot the front door refuses is no failure of the core
        out["skipped"] = str(exc)
        return out
    except Exception as exc:  # noqa: BLE001 - counted and reported
        out["error"] = f"{type(exc).__name__}: {exc}"
        return out
    bad = non_finite(res)
    if bad is not None:  # NaN compares false: the penetration test would pass it as clean
        out["error"] = bad
        return out
    depth, what = penetration(table, res)
    out.update(events=res.n_events, truncated=bool(res.truncated), depth=depth, where=what)
    if res.truncated:
        last = res.events[-1]
        out["last_event"] = (f"{EventKind(int(last[COL_KIND])).name} "
                             f"{res.initial.ids()[int(last[COL_A])]} t={last[COL_T]:.4f}")
    return out


def _run_seed(job: tuple[str, int, str, str]) -> dict[str, Any]:
    return run_case(shot_for(*job))


def hunt(games: tuple[str, ...], shots: int, seed0: int, verbose: bool = True,
         workers: int = 1, physics: str = "table",
         size: str = "9ft") -> dict[str, dict[str, Any]]:
    summary: dict[str, dict[str, Any]] = {}
    pool = None
    if workers > 1:
        from concurrent.futures import ProcessPoolExecutor

        pool = ProcessPoolExecutor(workers)
    for game in games:
        t0 = time.perf_counter()
        tunnels, runaways, errors, skipped, max_ev = [], [], [], 0, 0
        jobs = [(game, s, physics, size) for s in range(seed0, seed0 + shots)]
        results = (pool.map(_run_seed, jobs, chunksize=8) if pool is not None
                   else map(_run_seed, jobs))
        for (_, s, _, _), r in zip(jobs, results, strict=True):
            if "skipped" in r:
                skipped += 1
                continue
            if "error" in r:
                errors.append((s, r["error"]))
                if verbose:
                    print(f"  {game} seed {s}: ERROR {r['error']}", flush=True)
                continue
            max_ev = max(max_ev, r["events"])
            if r["depth"] > DEPTH:
                tunnels.append((s, r["depth"], r["where"]))
                if verbose:
                    print(f"  {game} seed {s}: TUNNEL {r['depth'] * 1000:.4f} mm, {r['where']}"
                          f" ({r['kind']}{', extreme' if r['extreme'] else ''})", flush=True)
            if r["truncated"]:
                runaways.append((s, r["last_event"]))
                if verbose:
                    print(f"  {game} seed {s}: RUNAWAY, last {r['last_event']}"
                          f" ({r['kind']}{', extreme' if r['extreme'] else ''})", flush=True)
        dt = time.perf_counter() - t0
        summary[game] = {"shots": shots, "physics": physics, "skipped": skipped,
                         "pool_size": size if game in ("9-ball", "8-ball", "14.1") else None,
                         "tunnels": len(tunnels), "runaways": len(runaways), "errors": len(errors),
                         "max_events": max_ev, "seconds": round(dt, 1),
                         "tunnel_seeds": [t[0] for t in tunnels],
                         "runaway_seeds": [t[0] for t in runaways],
                         "error_seeds": [t[0] for t in errors]}
        if verbose:
            print(f"{game}: {shots} shots ({skipped} refused by the front door), "
                  f"{len(tunnels)} tunnels, {len(runaways)} runaways, {len(errors)} errors, "
                  f"max {max_ev} events, {dt:.0f} s", flush=True)
            for label in ("tunnel", "runaway", "error"):
                seeds = summary[game][f"{label}_seeds"]
                if seeds:
                    print(f"  {label} seeds: {' '.join(map(str, seeds))}", flush=True)
    if pool is not None:
        pool.shutdown()
    return summary


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shots", type=positive_int, default=200, help="shots per game (goal: 10000)")
    ap.add_argument("--games", default=",".join(GAMES))
    ap.add_argument("--seed", type=int, default=0, help="first seed")
    ap.add_argument("--json", type=output_file, help="write the summary here")
    ap.add_argument("--workers", type=positive_int, default=1, help="processes (default 1)")
    ap.add_argument("--physics", choices=PHYSICS, default="table",
                    help="the tables' own coefficients, or random ones drawn per seed")
    ap.add_argument("--pool-size", choices=tuple(POOL_SIZES), default="9ft",
                    help="the pool games' table (their layouts drawn on it)")
    a = ap.parse_args(argv)
    games = tuple(g.strip() for g in a.games.split(",") if g.strip())
    for g in games:
        if g not in GAMES:
            ap.error(f"unknown game {g!r}; games are {', '.join(GAMES)}")
    summary = hunt(games, a.shots, a.seed, workers=a.workers, physics=a.physics,
                   size=a.pool_size)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(summary, f, indent=1)
    bad = sum(v["tunnels"] + v["runaways"] + v["errors"] for v in summary.values())
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
