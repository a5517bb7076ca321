"""cuesim's ball physics against pooltool's, event by event (optional: needs pooltool).

    python bench/pooltool_replay.py [--shots 300] [--seed 1] [--table carom|pool|both]
                                    [--near-cushion | --near-pocket | --swerve] [--json FILE]

pooltool (`pooltool-billiards`) is an independent implementation of the same ball models:
sliding, rolling and spinning on the cloth (Alciatore's closed forms), the ball-ball impact
with Alciatore's friction fit (TP A-14; its `FrictionalInelastic`) and Han's cushion (2005;
its `han2005`). Each random shot is simulated by cuesim on the carom table (four straight
cushions) or the WPA 9 ft table (its noses, the jaws and the knuckles rounding the lips, the
pockets' fall lines), with the table's coefficients: one to three balls, the first moving
with a random velocity and spin (half of them aimed at another ball); or, with
`--near-cushion`, `--near-pocket` or `--swerve`, shots drawn for those corners (the struck ball
0-3 mm from a cushion; a ball aimed into a pocket's mouth, often with a second there; spin up
to four times the rolling spin, curving the paths). The shot is then
replayed through pooltool's own functions: between two of cuesim's events every ball moves by
pooltool's `evolve_ball_motion`, and at each of cuesim's impacts pooltool resolves it with its
model (`han2005` on a nose, a jaw, or a knuckle with the normal through its centre); a ball
the core pockets leaves the replay. At each event this checks, against cuesim's segments
(`cuesim.trajectory.sample`):
- **state**: every ball's position, velocity and vertical spin just after the event, and at
  the midpoint before it (the motion between events);
- **transitions**: a ball starts rolling (ROLL) and comes to rest (STOP) when pooltool's
  `get_slide_time` and `get_roll_time` say;
- **contact**: two balls that collide are 2R apart in pooltool's positions, a ball on a
  cushion is R from its nose line (R + r from a knuckle's centre);
- **detection**: pooltool's own collision-time solvers (two balls, a ball and a linear or
  circular cushion segment), run from each event, give cuesim's next impact at its time and
  find none before it ("missed contacts"); pooltool's balls, sampled 32 times between events,
  never overlap (nor, on the carom table, cross a nose line).

The ball-ball friction. pooltool bounds the friction impulse by mu m |e v_n| (the speed the
balls part with), cuesim by mu J_n = mu m (1 + e) v_n / 2 (Coulomb's law on the normal
impulse, Alciatore TP A-14). The two agree at e = 1 and differ by (1 + e) / (2 e) = 1.026 at
e = 0.95 while the surfaces slide through the impact. The run replays every shot twice: with
pooltool's model as it is, up to the first ball-ball impact, and whole with its friction
coefficient scaled by (1 + e) / (2 e), which makes its bound cuesim's; the second is expected
to agree to round-off.

It also strikes random cue balls both ways: cuesim's `sim.cue.strike` (the point contact,
Alciatore TP A-30, and the squirt of the cue's end mass, TP A-31) against pooltool's
`InstantaneousPoint`, with the same cue mass and end mass and a perfectly elastic tip as
pooltool's (`compare_strikes`).

A replay stops (counted, not an error) at an impact cuesim resolves as a multiple impact (a
ball touching two others or a ball and a cushion at the same instant: sequential binary models
are another model) and at one slower than v_stick (cuesim's plastic slow contact). The pockets
are not compared: pooltool's capture circle is another model than the core's fall line.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cuesim import EventKind, Layout, Piece  # noqa: E402
from cuesim.commands import positive_int  # noqa: E402
from cuesim.output import OutputError, check_writable, write_atomic  # noqa: E402
from cuesim.sim import run_motion  # noqa: E402
from cuesim.sim.cue import CUE_END_MASS, CUE_MASS, MISCUE_LIMIT, strike  # noqa: E402
from cuesim.sim.result import ShotResult  # noqa: E402
from cuesim.tables.balls import MAX_CUE_SPEED  # noqa: E402
from cuesim.tables.carom import CaromTable, carom_table  # noqa: E402
from cuesim.tables.layout import LayoutError  # noqa: E402
from cuesim.tables.pool import PoolTable, pool_table  # noqa: E402
from cuesim.trajectory import sample  # noqa: E402

BALLS = ("white", "yellow", "red")
Table = CaromTable | PoolTable
TABLES = {"carom": carom_table, "pool": pool_table}
LATER = 1e-6  # s: an impact's pieces, touching, are solved for their next impact from this later
SAMPLES_BETWEEN = 32  # pooltool positions checked for overlaps between two events
# the agreement asked of the scaled replay: round-off of two closed-form implementations, which
# grows at each ball-ball and knuckle impact (measured over 3,000 shots a table, bench/README.md:
# at most 6.4e-11 m, 5.7e-11 m/s, 1.2e-9 rad/s, 1.6e-11 m of gap, 3.3e-10 s; a missed or
# misplaced impact is off by millimetres and milliseconds)
PUBLISHED = "as published, to the first ball-ball impact"
SCALED = "friction on the normal impulse, whole shots"
TOLERANCE = {"position_m": 1e-9, "velocity_m_s": 1e-9, "spin_rad_s": 1e-7, "time_s": 1e-8,
             "contact_gap_m": 1e-9, "detection_s": 1e-8}


def import_pooltool() -> tuple[Any, str | None]:
    """(a namespace of the pooltool functions used here, None) or (None, why not)."""
    try:
        import pooltool.constants as const
        import pooltool.ptmath as ptmath
        from pooltool.evolution.event_based import solve
        from pooltool.objects.ball.datatypes import Ball
        from pooltool.objects.cue.datatypes import Cue, CueSpecs
        from pooltool.objects.table.components import (
            CircularCushionSegment,
            CushionDirection,
            LinearCushionSegment,
        )
        from pooltool.physics.evolve import evolve_ball_motion
        from pooltool.physics.resolve.ball_ball.friction import AlciatoreBallBallFriction
        from pooltool.physics.resolve.ball_ball.frictional_inelastic import FrictionalInelastic
        from pooltool.physics.resolve.ball_cushion.han_2005.model import han2005
        from pooltool.physics.resolve.stick_ball.instantaneous_point import InstantaneousPoint
    except Exception as exc:  # noqa: BLE001  (any reason it cannot be used is reported)
        return None, f"{type(exc).__name__}: {exc}"
    return SimpleNamespace(const=const, ptmath=ptmath, Ball=Ball, evolve=evolve_ball_motion,
                           Friction=AlciatoreBallBallFriction, BallBall=FrictionalInelastic,
                           han2005=han2005, solve=solve, Segment=LinearCushionSegment,
                           Circle=CircularCushionSegment, Cue=Cue, CueSpecs=CueSpecs,
                           CueStrike=InstantaneousPoint,
                           both_sides=CushionDirection.BOTH), None


# -- the shots -------------------------------------------------------------------------------
def random_shot(table: Table, rng: np.random.Generator) -> tuple[Layout, dict[str, tuple]]:
    """One to three balls anywhere on the table (1 mm apart at least, inside the noses)
    and the first one's initial (vx, vy, wx, wy, wz): 0.2-5 m/s, aimed at another ball half
    of the time, each spin component's surface speed R w up to the ball's speed."""
    r = table.piece_spec("ball").radius
    n = int(rng.integers(1, 4))
    xy: list[np.ndarray] = []
    while len(xy) < n:
        p = rng.uniform([r + 1e-3, r + 1e-3], [table.geometry.width - r - 1e-3,
                                                  table.geometry.length - r - 1e-3])
        if all(np.hypot(*(p - q)) > 2 * r + 1e-3 for q in xy):
            xy.append(p)
    speed = float(rng.uniform(0.2, 5.0))
    if n > 1 and rng.random() < 0.5:
        d = xy[1] - xy[0]
        heading = math.atan2(d[1], d[0]) + float(rng.uniform(-1.0, 1.0)) * math.asin(
            min(1.0, 2 * r / float(np.hypot(*d))))
    else:
        heading = float(rng.uniform(0.0, 2 * math.pi))
    vx, vy = speed * math.cos(heading), speed * math.sin(heading)
    wx, wy, wz = (float(s) * speed / r for s in rng.uniform(-1.0, 1.0, 3))
    layout = Layout(table.name, tuple(Piece(b, "ball", float(p[0]), float(p[1]))
                                      for b, p in zip(BALLS, xy, strict=False)))
    return layout, {BALLS[0]: (vx, vy, wx, wy, wz)}


def near_cushion_shot(table: Table, rng: np.random.Generator) -> tuple[Layout, dict[str, tuple]]:
    """Two balls: the second 0-3 mm from a cushion (away from the pockets' mouths on the pool
    table), the first struck at it (0.3-5 m/s, any cut, any spin as `random_shot`). The struck
    ball meets the cushion within or just after its impact: the impacts `resolve.impact`
    decides between its binary and its multiple impact."""
    r = table.piece_spec("ball").radius
    w, length = table.geometry.width, table.geometry.length
    while True:
        gap, side, u = float(rng.uniform(0.0, 3e-3)), int(rng.integers(4)), float(
            rng.uniform(0.15, 0.85))
        if not (table.geometry.holes and side >= 2 and 0.38 < u < 0.62):  # a side pocket
            break
    b = [(u * w, r + gap), (u * w, length - r - gap), (r + gap, u * length),
         (w - r - gap, u * length)][side]
    while True:
        a = (float(rng.uniform(r + 0.01, w - r - 0.01)), float(rng.uniform(r + 0.01,
                                                                           length - r - 0.01)))
        if math.dist(a, b) > 2 * r + 0.02:
            break
    d = math.atan2(b[1] - a[1], b[0] - a[0]) + float(rng.uniform(-1.0, 1.0)) * math.asin(
        min(1.0, 2 * r / math.dist(a, b)))
    speed = float(rng.uniform(0.3, 5.0))
    wx, wy, wz = (float(s) * speed / r for s in rng.uniform(-1.0, 1.0, 3))
    layout = Layout(table.name, (Piece(BALLS[0], "ball", *a), Piece(BALLS[1], "ball", *b)))
    return layout, {BALLS[0]: (speed * math.cos(d), speed * math.sin(d), wx, wy, wz)}


def near_pocket_shot(table: Table, rng: np.random.Generator) -> tuple[Layout, dict[str, tuple]]:
    """The first ball aimed at a pocket's mouth (a corner of the carom table), 0.3-5 m/s, within
    two ball widths either side of it, any spin as `random_shot`; half the time a second ball
    lies within 12 cm of the mouth. The jaws, the knuckles and the cushions beside the mouth,
    met at every angle."""
    r = table.piece_spec("ball").radius
    w, length = table.geometry.width, table.geometry.length
    holes = table.geometry.holes
    if holes:
        h = holes[int(rng.integers(len(holes)))]
        mouth = (min(max(h.x, 0.0), w), min(max(h.y, 0.0), length))
    else:
        mouth = (float(rng.integers(2)) * w, float(rng.integers(2)) * length)
    while True:
        a = (float(rng.uniform(r + 0.01, w - r - 0.01)),
             float(rng.uniform(r + 0.01, length - r - 0.01)))
        if math.dist(a, mouth) > 0.15:
            break
    layout = Layout(table.name, (Piece(BALLS[0], "ball", *a),))
    if rng.random() < 0.5:
        for _ in range(100):
            b = (mouth[0] + float(rng.uniform(-0.12, 0.12)),
                 mouth[1] + float(rng.uniform(-0.12, 0.12)))
            if math.dist(a, b) > 2 * r + 0.01:
                try:  # inside the noses, off the pockets
                    table.check_layout(layout.with_piece(Piece(BALLS[1], "ball", *b)))
                except LayoutError:
                    continue
                layout = layout.with_piece(Piece(BALLS[1], "ball", *b))
                break
    d = math.atan2(mouth[1] - a[1], mouth[0] - a[0]) + float(rng.uniform(-1.0, 1.0)) * math.atan2(
        4 * r, math.dist(a, mouth))
    speed = float(rng.uniform(0.3, 5.0))
    wx, wy, wz = (float(s) * speed / r for s in rng.uniform(-1.0, 1.0, 3))
    return layout, {BALLS[0]: (speed * math.cos(d), speed * math.sin(d), wx, wy, wz)}


def swerve_shot(table: Table, rng: np.random.Generator) -> tuple[Layout, dict[str, tuple]]:
    """`random_shot`'s layout and aim with each spin component up to four times the rolling
    spin speed / R, the spin kept below what a cue can give (95 % of the bound at the miscue
    limit, `sim.engine.motion_limits`): curved paths into cushions, jaws and other balls."""
    layout, initial = random_shot(table, rng)
    vx, vy = initial[BALLS[0]][:2]
    spec = table.piece_spec("ball")
    speed = math.hypot(vx, vy)
    w = rng.uniform(-1.0, 1.0, 3) * 4.0 * speed / spec.radius
    v_cue = strike(spec, MAX_CUE_SPEED, 0.0)[0]
    w_max = 0.95 * spec.mass * v_cue * MISCUE_LIMIT * spec.radius / spec.inertia
    w *= min(1.0, w_max / max(float(np.linalg.norm(w)), 1e-300))
    return layout, {BALLS[0]: (vx, vy, float(w[0]), float(w[1]), float(w[2]))}


DRAWS = {"random": random_shot, "near-cushion": near_cushion_shot,
         "near-pocket": near_pocket_shot, "swerve": swerve_shot}


# -- the replay ------------------------------------------------------------------------------
@dataclass
class Replay:
    """The largest differences of one replay, and how it ended."""

    position_m: float = 0.0
    velocity_m_s: float = 0.0
    spin_rad_s: float = 0.0
    time_s: float = 0.0
    contact_gap_m: float = 0.0
    detection_s: float = 0.0
    missed: int = 0
    events: int = 0
    stopped: str = ""  # "" (replayed to the end), "multiple impact" or "slow contact"
    kinds: dict[str, int] = field(default_factory=dict)  # events replayed, by what they are
    worst: dict[str, str] = field(default_factory=dict)

    def note(self, key: str, value: float, where: str) -> None:
        if value > getattr(self, key):
            setattr(self, key, value)
            self.worst[key] = where


class PooltoolBalls:
    """The shot's balls as pooltool states, moved and resolved by pooltool's functions."""

    def __init__(self, pt: Any, table: Table, layout: Layout,
                 initial: dict[str, tuple], friction_scale: float) -> None:
        spec, phys = table.piece_spec("ball"), table.physics
        self.pt, self.table, self.R, self.m = pt, table, spec.radius, spec.mass
        self.phys, self.ids = phys, [p.id for p in layout.pieces]
        self.rvw, self.state, self.t0 = {}, {}, {}
        for p in layout.pieces:
            vx, vy, wx, wy, wz = initial.get(p.id, (0.0,) * 5)
            self.rvw[p.id] = np.array([[p.x, p.y, spec.radius], [vx, vy, 0.0], [wx, wy, wz]])
            moving = any(c != 0.0 for c in (vx, vy, wx, wy, wz))
            self.state[p.id] = pt.const.sliding if moving else pt.const.stationary
            self.t0[p.id] = 0.0
        fit = pt.Friction(a=phys.ball_friction_a * friction_scale,
                          b=phys.ball_friction_b * friction_scale, c=phys.ball_friction_c)
        self.ball_ball = pt.BallBall(friction=fit)

    def at(self, ball: str, t: float) -> tuple[np.ndarray, int]:
        """pooltool's state of a ball at time t (not stored)."""
        p = self.phys
        return self.pt.evolve(self.state[ball], self.rvw[ball], self.R, self.m, p.mu_slide,
                              p.mu_spin, p.mu_roll, p.g, t - self.t0[ball])

    def move_to(self, t: float) -> None:
        for b in self.ids:
            self.rvw[b], self.state[b] = self.at(b, t)
            self.t0[b] = t

    def transition_time(self, ball: str, kind: EventKind) -> float:
        """When pooltool's ball starts rolling (ROLL) or comes to rest (STOP): its slide time,
        then its roll time (a ball moved to a ROLL event may still slide for a few ulps)."""
        ptm, rvw, state, p = self.pt.ptmath, self.rvw[ball], self.state[ball], self.phys
        t = self.t0[ball]
        if state == self.pt.const.sliding:
            slide = ptm.get_slide_time(rvw, self.R, p.mu_slide, p.g)
            if kind == EventKind.ROLL:
                return t + slide
            rvw, state = self.pt.evolve(state, rvw, self.R, self.m, p.mu_slide, p.mu_spin,
                                        p.mu_roll, p.g, slide)
            t += slide
        if kind == EventKind.STOP and state == self.pt.const.rolling:
            return t + ptm.get_roll_time(rvw, p.mu_roll, p.g)
        return math.inf

    def finish_transition(self, ball: str, kind: EventKind) -> None:
        """At cuesim's ROLL or STOP: pooltool's ball, moved to the same instant, may still
        slide or roll for a few ulps of time; take it through its transition."""
        ptm, p, rvw, state = self.pt.ptmath, self.phys, self.rvw[ball], self.state[ball]
        if kind == EventKind.ROLL and state == self.pt.const.sliding:
            dt = ptm.get_slide_time(rvw, self.R, p.mu_slide, p.g)
        elif kind == EventKind.STOP and state == self.pt.const.rolling:
            dt = ptm.get_roll_time(rvw, p.mu_roll, p.g)
        else:
            return
        self.rvw[ball], self.state[ball] = self.pt.evolve(state, rvw, self.R, self.m,
                                                          p.mu_slide, p.mu_spin, p.mu_roll,
                                                          p.g, dt)

    def _mu_of(self, state: int) -> float:
        """The cloth friction of a motion state, as pooltool's engine passes it."""
        return self.phys.mu_slide if state == self.pt.const.sliding else self.phys.mu_roll

    def next_impacts(self, cushions: dict[str, Any], last: tuple[str, str] | None = None
                     ) -> dict[tuple[str, str], float]:
        """pooltool's own collision times from now (its quartic and quadratic solvers):
        {(ball, other ball or cushion): time}. For `last`, the impact just resolved, whose
        pieces touch now, the time is solved from a microsecond later (else a root at now,
        off by round-off, hides a later one: a cue ball that catches the object ball again)."""
        out: dict[tuple[str, str], float] = {}
        pt, p, nontranslating = self.pt, self.phys, self.pt.const.nontranslating
        on = [b for b in self.ids if self.state[b] != pt.const.pocketed]
        for i, a in enumerate(on):
            others = [(b, None) for b in on[i + 1:]] + list(cushions.items())
            for b, cushion in others:
                if self.state[a] in nontranslating and (
                        cushion is not None or self.state[b] in nontranslating):
                    continue
                later = LATER if (a, b) == last else 0.0
                ra, sa = self.at(a, self.t0[a] + later)
                if cushion is None:
                    rb, sb = self.at(b, self.t0[b] + later)
                    dt = pt.solve.ball_ball_collision_time(
                        ra, rb, sa, sb, self._mu_of(sa), self._mu_of(sb), self.m, self.m, p.g,
                        p.g, self.R)
                elif cushion.normal is not None:
                    seg = cushion.segment
                    dt = pt.solve.ball_linear_cushion_collision_time(
                        ra, sa, seg.lx, seg.ly, seg.l0, seg.p1, seg.p2, seg.direction,
                        self._mu_of(sa), self.m, p.g, self.R)
                else:
                    dt = pt.solve.ball_circular_cushion_collision_time(
                        ra, sa, cushion.point[0], cushion.point[1], cushion.radius,
                        self._mu_of(sa), self.m, p.g, self.R)
                out[(a, b)] = self.t0[a] + later + dt
        return out

    def collide(self, a: str, b: str) -> None:
        """pooltool's FrictionalInelastic ball-ball impact (its Alciatore friction fit)."""
        balls = []
        for k in (a, b):
            ball = self.pt.Ball.create(k, xy=self.rvw[k][0, :2], m=self.m, R=self.R,
                                       e_b=self.phys.e_ball)
            ball.state.rvw = self.rvw[k].copy()
            ball.state.s = self.state[k]
            balls.append(ball)
        one, two = self.ball_ball.solve(*balls)
        for k, ball in ((a, one), (b, two)):
            self.rvw[k], self.state[k] = ball.state.rvw.copy(), self.pt.const.sliding

    def cushion(self, a: str, cushion: Cushion) -> None:
        """pooltool's han2005, its normal into the cushion (a knuckle's through its centre)."""
        n = cushion.into(self.rvw[a][0, :2], self.rvw[a][1, :2])
        self.rvw[a] = self.pt.han2005(self.rvw[a], np.array([n[0], n[1], 0.0]), self.R, self.m,
                                      self.table.cushion_height, self.phys.e_cushion,
                                      self.phys.mu_cushion)
        self.state[a] = self.pt.const.sliding

    def pocket(self, a: str) -> None:
        """The core captured the ball (its centre crossed the pocket's fall line)."""
        self.state[a] = self.pt.const.pocketed


@dataclass(frozen=True)
class Cushion:
    """A cushion as both simulators see it: a straight nose (`point`, unit `normal`) or a
    jaw's knuckle (`point` its centre, `radius`), and pooltool's segment for it."""

    point: np.ndarray
    normal: np.ndarray | None
    radius: float
    segment: Any

    def gap(self, xy: np.ndarray, R: float) -> float:
        """How far a ball centred at xy is from touching it."""
        if self.normal is not None:
            return abs(abs(float((xy - self.point) @ self.normal)) - R)
        return abs(float(np.hypot(*(xy - self.point))) - self.radius - R)

    def into(self, xy: np.ndarray, v: np.ndarray) -> np.ndarray:
        """The unit normal at the contact pointing into the cushion (han2005's frame)."""
        n = self.normal if self.normal is not None else (self.point - xy) / np.hypot(
            *(self.point - xy))
        return n if float(n @ v) > 0.0 else -n


def _cushions(pt: Any, table: Table) -> dict[str, Cushion]:
    """{name: Cushion} of the table's rails (and jaws) and knuckles, as the core's events
    name them."""
    h, out = table.cushion_height, {}
    for r in table.geometry.rails:
        p0, p1 = np.array([r.x0, r.y0]), np.array([r.x1, r.y1])
        d = (p1 - p0) / np.hypot(*(p1 - p0))
        seg = pt.Segment(r.name, p1=np.array([r.x0, r.y0, h]), p2=np.array([r.x1, r.y1, h]),
                         direction=pt.both_sides)
        out[r.name] = Cushion(p0, np.array([-d[1], d[0]]), 0.0, seg)
    for k in table.geometry.knuckles:
        seg = pt.Circle(k.name, center=np.array([k.x, k.y, h]), radius=k.radius)
        out[k.name] = Cushion(np.array([k.x, k.y]), None, k.radius, seg)
    return out


def replay(pt: Any, table: Table, layout: Layout, initial: dict[str, tuple],
           result: ShotResult, friction_scale: float = 1.0, first_collision_only: bool = False
           ) -> Replay:
    """Replay one cuesim shot through pooltool's models (see the module docstring); with
    `first_collision_only`, up to just after its first ball-ball impact."""
    balls = PooltoolBalls(pt, table, layout, initial, friction_scale)
    cushions, R = _cushions(pt, table), balls.R
    rep = Replay()
    log = [e for e in result.event_log() if e.kind not in (EventKind.LINE, EventKind.CIRCLE)]
    impacts = [e for e in log if e.kind in (EventKind.COLLIDE, EventKind.RAIL)]
    t_prev = 0.0
    pending = balls.next_impacts(cushions)
    for k, ev in enumerate(log):
        where = f"event {k} ({ev.kind.name} {ev.a} at t = {ev.t:.6f} s)"
        expected = None
        if ev.kind in (EventKind.COLLIDE, EventKind.RAIL):
            pieces = {ev.a} | ({ev.b} if ev.b else set())
            shared = [o for o in impacts if o is not ev and o.t == ev.t
                      and pieces & ({o.a} | ({o.b} if o.b else set()))]
            if shared:
                rep.stopped = "multiple impact"
                break
            if ev.speed < table.physics.v_stick:
                rep.stopped = "slow contact"
                break
            expected = ((ev.a, ev.b) if balls.ids.index(ev.a) < balls.ids.index(ev.b)
                        else (ev.b, ev.a)) if ev.kind == EventKind.COLLIDE else (ev.a, ev.feature)
            rep.note("detection_s", abs(pending.get(expected, math.inf) - ev.t), where)
        for key, t_hit in pending.items():
            if key != expected and t_hit < ev.t - TOLERANCE["detection_s"]:
                rep.missed += 1
                rep.worst.setdefault("missed", f"{key} at t = {t_hit:.9f} s, before {where}")
        _check_between(balls, table, cushions, t_prev, ev.t, rep, where)
        # the motion before the event, at the midpoint since the last one
        _compare(balls, result, 0.5 * (t_prev + ev.t), rep, f"before {where}")
        if ev.kind in (EventKind.ROLL, EventKind.STOP):
            rep.note("time_s", abs(balls.transition_time(ev.a, ev.kind) - ev.t), where)
        balls.move_to(ev.t)
        if ev.kind == EventKind.COLLIDE:
            d = float(np.hypot(*(balls.rvw[ev.a][0, :2] - balls.rvw[ev.b][0, :2])))
            rep.note("contact_gap_m", abs(d - 2 * R), where)
            balls.collide(ev.a, ev.b)
        elif ev.kind == EventKind.RAIL:
            cushion = cushions[ev.feature]
            rep.note("contact_gap_m", cushion.gap(balls.rvw[ev.a][0, :2], R), where)
            balls.cushion(ev.a, cushion)
        elif ev.kind == EventKind.POCKET:
            balls.pocket(ev.a)
        else:
            balls.finish_transition(ev.a, ev.kind)
        _compare(balls, result, ev.t, rep, f"after {where}")
        rep.events += 1
        what = _what(ev, cushions)
        rep.kinds[what] = rep.kinds.get(what, 0) + 1
        t_prev = ev.t
        if first_collision_only and ev.kind == EventKind.COLLIDE:
            break
        pending = balls.next_impacts(cushions, expected)
    return rep


def _what(ev: Any, cushions: dict[str, Cushion]) -> str:
    """An event's kind for the counts: a RAIL is a cushion, a jaw or a knuckle."""
    if ev.kind != EventKind.RAIL:
        return ev.kind.name.lower()
    if cushions[ev.feature].normal is None:
        return "knuckle"
    return "jaw" if "jaw" in ev.feature else "cushion"


def _compare(balls: PooltoolBalls, result: ShotResult, t: float, rep: Replay, where: str) -> None:
    s = sample(result, [t])
    for i, b in enumerate(s.ids):
        if not s.on_table[0, i] or balls.state[b] == balls.pt.const.pocketed:
            continue
        rvw, _ = balls.at(b, t)
        rep.note("position_m", float(np.max(np.abs(rvw[0, :2] - s.positions[0, i]))), where)
        rep.note("velocity_m_s", float(np.max(np.abs(rvw[1, :2] - s.velocities[0, i]))), where)
        rep.note("spin_rad_s", abs(float(rvw[2, 2] - s.spin[0, i])), where)


def _check_between(balls: PooltoolBalls, table: Table, cushions: dict[str, Cushion], t0: float,
                   t1: float, rep: Replay, where: str) -> None:
    """pooltool's balls between two events, sampled: no two overlap, and on a table without
    pockets none crosses a cushion's nose line (beyond 1e-9 m)."""
    if t1 <= t0:
        return
    R = balls.R
    on = [b for b in balls.ids if balls.state[b] != balls.pt.const.pocketed]
    lines = [] if table.geometry.holes else [c for c in cushions.values()
                                             if c.normal is not None]
    for t in np.linspace(t0, t1, SAMPLES_BETWEEN + 2)[1:-1]:
        xy = {b: balls.at(b, float(t))[0][0, :2] for b in on}
        bad = any(float((p - c.point) @ c.normal) < R - 1e-9 for p in xy.values() for c in lines)
        bad |= any(np.hypot(*(xy[a] - xy[b])) < 2 * R - 1e-9
                   for i, a in enumerate(on) for b in on[i + 1:])
        if bad:
            rep.missed += 1
            rep.worst.setdefault("missed", f"between t = {t0:.6f} and {where}")
            return


# -- the cue strike --------------------------------------------------------------------------
def compare_strikes(pt: Any, table: Table, n: int, seed: int) -> dict[str, Any]:
    """cuesim's cue strike (`sim.cue.strike`: the point contact and the squirt of the cue's end
    mass) against pooltool's `InstantaneousPoint` (Alciatore TP A-30, squirt TP A-31) with the
    same cue mass and end mass, on n random strikes (0.5-8 m/s, any aim, elevation 0-80 deg, tip
    anywhere within the miscue limit). pooltool's tip is perfectly elastic, so cuesim's is made
    so here (its default, Alciatore's 0.81, is a property of leather, not of the model), and
    pooltool's side offset counts positive to the left. Largest differences of the velocity and
    the spin."""
    spec = table.piece_spec("ball")
    r, rng = spec.radius, np.random.default_rng(seed)
    model = pt.CueStrike()
    specs = pt.CueSpecs(M=CUE_MASS, end_mass=CUE_END_MASS)
    worst = {"strikes": n, "velocity_m_s": 0.0, "spin_rad_s": 0.0}
    for _ in range(n):
        speed, phi = float(rng.uniform(0.5, 8.0)), float(rng.uniform(0.0, 2 * math.pi))
        theta = float(rng.uniform(0.0, math.radians(80)))
        off, turn = float(rng.uniform(0.0, MISCUE_LIMIT)) * r, float(rng.uniform(0, 2 * math.pi))
        a, b = off * math.cos(turn), off * math.sin(turn)
        mine = strike(spec, speed, phi, a, b, theta, tip_restitution=1.0)
        cue = pt.Cue(V0=speed, phi=math.degrees(phi), theta=math.degrees(theta), a=-a / r,
                     b=b / r, specs=specs)
        ball = pt.Ball.create("cue", xy=(0.5, 0.5), m=spec.mass, R=r)
        _, ball = model.solve(cue, ball)
        v, w = ball.state.rvw[1], ball.state.rvw[2]
        worst["velocity_m_s"] = max(worst["velocity_m_s"],
                                    float(np.max(np.abs(v[:2] - mine[:2]))))
        worst["spin_rad_s"] = max(worst["spin_rad_s"], float(np.max(np.abs(w - mine[2:]))))
    return worst


# -- the run ---------------------------------------------------------------------------------
def run(pt: Any, shots: int, seed: int, table: Table | None = None,
        near_cushion: bool = False, draw: str = "random") -> dict[str, Any]:
    """Every shot replayed as pooltool has it (to its first ball-ball impact) and, whole, with
    pooltool's friction bound made cuesim's. `table`: the carom table by default; `draw`: the
    shots, one of DRAWS (`near_cushion=True` is draw="near-cushion")."""
    table = carom_table() if table is None else table
    draw = "near-cushion" if near_cushion else draw
    if draw not in DRAWS:
        raise ValueError(f"draw must be one of {sorted(DRAWS)}, got {draw!r}")
    make = DRAWS[draw]
    rng = np.random.default_rng(seed)
    e = table.physics.e_ball
    out: dict[str, Any] = {"table": table.name, "shots": shots, "seed": seed, "e_ball": e,
                           "draw": draw, "near_cushion": draw == "near-cushion",
                           "modes": {}, "strikes": compare_strikes(pt, table, shots, seed)}
    cases = []
    for _ in range(shots):
        layout, initial = make(table, rng)
        cases.append((layout, initial, run_motion(table, layout, initial)))
    for mode, scale, first in ((PUBLISHED, 1.0, True), (SCALED, (1 + e) / (2 * e), False)):
        worst = Replay()
        stopped: dict[str, int] = {}
        for n, (layout, initial, res) in enumerate(cases):
            rep = replay(pt, table, layout, initial, res, scale, first)
            for key in TOLERANCE:
                worst.note(key, getattr(rep, key), f"shot {n}: {rep.worst.get(key, '')}")
            worst.missed += rep.missed
            worst.events += rep.events
            for what, n_what in rep.kinds.items():
                worst.kinds[what] = worst.kinds.get(what, 0) + n_what
            if rep.stopped:
                stopped[rep.stopped] = stopped.get(rep.stopped, 0) + 1
        out["modes"][mode] = {"friction_scale": scale, "events": worst.events,
                              "kinds": dict(sorted(worst.kinds.items())),
                              "missed": worst.missed, "stopped": stopped,
                              **{k: getattr(worst, k) for k in TOLERANCE},
                              "worst": worst.worst}
    return out


def report(out: dict[str, Any]) -> None:
    what = f"{out.get('draw', 'random')} shots"
    print(f"cuesim against pooltool's models: {out['shots']} {what} on the {out['table']} "
          f"table (seed {out['seed']}, e_ball {out['e_ball']})")
    for mode, m in out["modes"].items():
        stopped = ", ".join(f"{n} at a {why}" for why, n in m["stopped"].items()) or "none"
        kinds = ", ".join(f"{n} {what}" for what, n in m["kinds"].items())
        print(f"  {mode} (pooltool's friction x {m['friction_scale']:.4f}): {m['events']} "
              f"events replayed ({kinds}); replays stopped early: {stopped}")
        for key, tol in TOLERANCE.items():
            bound = f"round-off: < {tol:g}" if mode == SCALED else "round-off, or the law"
            print(f"    {key:14s} largest difference {m[key]:.3g} ({bound})"
                  f"  [{m['worst'].get(key, '-')}]")
        print(f"    missed contacts: {m['missed']}")
    st = out["strikes"]
    print(f"  cue strike against InstantaneousPoint, {st['strikes']} strikes (tip restitution 1, "
          f"squirt of a {CUE_END_MASS * 1000:g} g end mass): largest difference "
          f"{st['velocity_m_s']:.3g} m/s, {st['spin_rad_s']:.3g} rad/s")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shots", type=positive_int, default=300, help="shots per table")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--table", choices=("carom", "pool", "both"), default="both")
    kinds = ap.add_mutually_exclusive_group()
    kinds.add_argument("--near-cushion", action="store_true",
                       help="two balls, the struck one 0-3 mm from a cushion (near_cushion_shot)")
    kinds.add_argument("--near-pocket", action="store_true",
                       help="a ball aimed at a pocket's mouth, often a second there "
                            "(near_pocket_shot)")
    kinds.add_argument("--swerve", action="store_true",
                       help="random shots with up to four times the rolling spin (swerve_shot)")
    ap.add_argument("--json", metavar="FILE")
    args = ap.parse_args(argv)
    try:
        json_path = check_writable(args.json, "--json") if args.json else None
    except OutputError as exc:
        ap.exit(2, f"{ap.prog}: {exc}\n")
    pt, why = import_pooltool()
    if pt is None:
        print(f"pooltool: not installed ({why}); nothing to compare")
        return 0
    names = ("carom", "pool") if args.table == "both" else (args.table,)
    outs = {}
    for name in names:
        draw = ("near-cushion" if args.near_cushion else "near-pocket" if args.near_pocket
                else "swerve" if args.swerve else "random")
        outs[name] = run(pt, args.shots, args.seed, TABLES[name](), draw=draw)
        report(outs[name])
    if json_path:
        write_atomic(json_path, json.dumps(outs, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
