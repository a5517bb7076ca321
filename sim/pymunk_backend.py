"""The same table, layout and shot on pymunk (Chipmunk 2D): a time-stepped reference.

This backend is the *baseline* for cross-checks and benchmarks, not the truth: the exact
event-based core (`cuesim.sim.loop`) is. Stepping at dt finds impacts up to one step late (the
discs overlap by up to |v| dt before the solver separates them), so its positions differ from
the exact ones by O(dt); the tests check that they converge as dt shrinks.

Model, matched to the exact core:
- Pieces are pymunk circles with the radius, mass and moment of inertia of
  `table.piece_spec(kind)`; the four rails are static segments whose faces lie on the table's
  rail lines (thick segments set outside the board, so nothing tunnels through them).
- Sliding friction (Coulomb, constant deceleration a = mu g along the velocity) is a velocity
  kick between steps, v <- v - min(a dt, |v|) v/|v|, so a piece stops exactly and never
  reverses; spin decays likewise, w <- w - sign(w) min(alpha dt, |w|). The kicks are staggered
  half a step from the positions (a half kick at t = 0, then one full kick after every step),
  which makes the free-sliding path exact up to O(a dt^2): a lone disc launched at v stops at
  v^2 / (2 mu g) - O(a dt^2).
- Impacts: pymunk's restitution and Coulomb friction are the products of the two shapes'
  `elasticity` and `friction`. Per-shape values s_k are chosen so that s_k s_l equals the
  table's pair coefficient e_pair[k, l] (s = sqrt(e) for like pairs) and s_k s_rail = e_rail[k];
  when no such factorisation exists a pre-solve handler sets each contact's pair values.
  pymunk has no sticking threshold: slow contacts keep their restitution (the exact core
  makes contacts slower than v_stick perfectly inelastic, the touching cluster moving on
  as one body; the difference moves a disc by well under a millimetre).
  Both solve simultaneous contacts together, but pymunk's iterative impulses act over a
  step while the exact core resolves the contacts due at one instant and lets the next wave
  follow at the same instant; shots into rows of touching pucks (the opening) therefore
  differ more than isolated impacts do.
- Capture: after each step, a piece whose centre lies inside a hole circle is removed.
- The run ends when every piece rests (zero velocity and spin) or after max_time.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import pymunk
import pymunk.batch

from cuesim.sim.compiled import njit_core
from cuesim.sim.engine import SimulationError, Table
from cuesim.tables.base import PieceTable
from cuesim.tables.layout import Layout, Piece
from cuesim.tables.numbers import finite_numbers, finite_real, shown

RAIL_THICKNESS = 0.05  # m, radius of the static rail segments (outside the board)
COLLISION_SLOP = 1e-6  # m, overlap pymunk tolerates before pushing shapes apart
_FACTOR_TOL = 1e-12
# sanity bounds (a run past them would not end in useful time): a step of at least a
# microsecond, at most an hour of motion, at most 10^8 steps
DT_RANGE = (1e-6, 0.1)
MAX_TIME_LIMIT = 3600.0
MAX_STEPS = 100_000_000

_FIELDS_GET = (pymunk.batch.BodyFields.BODY_ID | pymunk.batch.BodyFields.POSITION
               | pymunk.batch.BodyFields.VELOCITY | pymunk.batch.BodyFields.ANGULAR_VELOCITY)
_FIELDS_SET = pymunk.batch.BodyFields.VELOCITY | pymunk.batch.BodyFields.ANGULAR_VELOCITY


class Shot(Protocol):
    """What the backend needs of a shot (cuesim.NovusShot has it)."""

    def place(self, table: Any, layout: Layout) -> Layout: ...
    def striker_motion(self, table: Any) -> tuple[float, float, float]: ...


@dataclass
class PymunkResult:
    """What one pymunk run did.

    final: every piece still on the board where it stopped (pocketed pieces left out);
    pocketed: ids in the order they were captured; steps: pymunk steps taken; time: simulated
    seconds (steps * dt); truncated: max_time ran out before everything rested;
    step_seconds: wall-clock spent inside `Space.step` (measured only with profile=True).
    """

    final: Layout
    pocketed: list[str]
    steps: int
    dt: float
    time: float
    truncated: bool = False
    step_seconds: float = 0.0


_REST, _MOVING, _REORDER = 0, -1, -2


@njit_core
def _kick_kernel(ids: np.ndarray, order_ids: np.ndarray, data: np.ndarray, order: np.ndarray,
                 decel: np.ndarray, spin_decel: np.ndarray, holes: np.ndarray, h: float,
                 capture: bool, out: np.ndarray, captured: np.ndarray) -> int:
    """One pass over pymunk's bodies (rows of data: x, y, vx, vy, w).

    Returns _REORDER if the body order changed; k > 0 if k pieces have their centre in a hole
    (rows in captured[:k], nothing else done); otherwise writes into out the velocities after
    v <- v - min(a h, |v|) v/|v|, w <- w - sign(w) min(alpha h, |w|) and returns _REST when
    all of them are zero, else _MOVING."""
    nb = ids.shape[0]
    if nb != order_ids.shape[0]:
        return _REORDER
    for r in range(nb):
        if ids[r] != order_ids[r]:
            return _REORDER
    n_cap = 0
    sentinel = decel.shape[0] - 1
    if capture:
        for r in range(nb):
            if order[r] == sentinel:
                continue
            x, y = data[r, 0], data[r, 1]
            for k in range(holes.shape[0]):
                if (x - holes[k, 0]) ** 2 + (y - holes[k, 1]) ** 2 < holes[k, 2] ** 2:
                    captured[n_cap] = r
                    n_cap += 1
                    break
        if n_cap > 0:
            return n_cap
    moving = False
    for r in range(nb):
        n = order[r]
        vx, vy, w = data[r, 2], data[r, 3], data[r, 4]
        speed = math.sqrt(vx * vx + vy * vy)
        if speed > 0.0:
            scale = max(speed - decel[n] * h, 0.0) / speed
            vx, vy = vx * scale, vy * scale
            moving = moving or scale > 0.0
        if w != 0.0:
            w = math.copysign(max(abs(w) - spin_decel[n] * h, 0.0), w)
            moving = moving or w != 0.0
        out[r, 0], out[r, 1], out[r, 2] = vx, vy, w
    return _MOVING if moving else _REST


def _factorise(pair: np.ndarray, rail: np.ndarray, counts: Sequence[int]
               ) -> tuple[np.ndarray, float] | None:
    """Per-kind shape values s_k and a rail value s_r with s_k s_l = pair[k, l] for every pair
    of kinds that can meet (k == l only when two such pieces exist) and s_k s_r = rail[k] for
    every kind present (pymunk multiplies the shapes' values); None when none exist.

    Solved as a linear system in log s (least squares, then checked exactly)."""
    nk = len(counts)
    present = [k for k in range(nk) if counts[k] > 0]
    edges = [(k, m, pair[k, m]) for k in present for m in present
             if k < m or (k == m and counts[k] >= 2)]
    edges += [(k, nk, rail[k]) for k in present]
    if any(not value > 0.0 for _, _, value in edges):
        return None
    a = np.zeros((len(edges), nk + 1))
    for row, (k, m, _) in enumerate(edges):
        a[row, k] += 1.0
        a[row, m] += 1.0
    b = np.log([value for _, _, value in edges])
    s = np.exp(np.linalg.lstsq(a, b, rcond=None)[0]) if edges else np.ones(nk + 1)
    if any(abs(s[k] * s[m] - value) > _FACTOR_TOL for k, m, value in edges):
        return None
    return s[:nk], float(s[nk])


class PymunkScene:
    """A pymunk space holding one table and layout, stepped at a fixed dt."""

    def __init__(self, table: Table, layout: Layout,
                 initial: Mapping[str, tuple[float, float, float]], dt: float = 1e-3) -> None:
        if not isinstance(table, PieceTable) and not isinstance(table, Table):
            raise SimulationError(f"the pymunk backend needs a table (novus_table(), ...), got "
                                  f"{type(table).__name__}")
        if not isinstance(layout, Layout):
            raise SimulationError(f"the pymunk backend needs a Layout, got "
                                  f"{type(layout).__name__}")
        if not finite_real(dt) or not DT_RANGE[0] <= dt <= DT_RANGE[1]:
            raise SimulationError(f"pymunk step dt must be a number of seconds in "
                                  f"[{DT_RANGE[0]:g}, {DT_RANGE[1]:g}], got {shown(dt)}")
        if not isinstance(initial, Mapping):
            raise SimulationError(f"initial must map piece ids to (vx, vy, w), got "
                                  f"{type(initial).__name__}")
        for pid, value in initial.items():
            if not isinstance(pid, str) or pid not in layout.ids():
                raise SimulationError(f"no piece {pid!r} in the layout; ids are {layout.ids()}")
            numbers_given = finite_numbers(value)
            if numbers_given is None or len(numbers_given) != 3:
                raise SimulationError(f"initial velocity of {pid!r} must be 3 finite numbers "
                                      f"(vx, vy, w), got {value!r}")
        coeff = table.kind_coefficients()
        kinds = list(coeff.kinds)
        e_pair, mu_pair = np.array(coeff.e_pair), np.array(coeff.mu_pair)
        e_rail, mu_rail = np.array(coeff.e_rail), np.array(coeff.mu_rail)
        kind_of = [kinds.index(p.kind) if p.kind in kinds else -1 for p in layout.pieces]
        for p, k in zip(layout.pieces, kind_of, strict=True):
            if k < 0:
                raise SimulationError(f"piece {p.id!r} has kind {p.kind!r}, which table "
                                      f"{table.name!r} does not know; kinds are {kinds}")
        counts = [kind_of.count(k) for k in range(len(kinds))]

        self.dt = dt
        self.layout = layout
        self.space = space = pymunk.Space()
        space.gravity = (0.0, 0.0)
        space.damping = 1.0
        space.collision_slop = COLLISION_SLOP

        e_fac = _factorise(e_pair, e_rail, counts)
        mu_fac = _factorise(mu_pair, mu_rail, counts)
        self.pair_handler = e_fac is None or mu_fac is None
        if self.pair_handler:  # the handler sets every contact's values; shapes keep 1
            self._install_pair_handler(e_pair, mu_pair, e_rail, mu_rail)
            e_fac = mu_fac = (np.ones(len(kinds)), 1.0)
        rail_type = 0  # pieces get collision type kind + 1

        for rail in table.geometry.rails:
            nx, ny = rail.normal()
            ux, uy = rail.x1 - rail.x0, rail.y1 - rail.y0
            length = math.hypot(ux, uy)
            ux, uy = ux / length, uy / length
            off, ext = RAIL_THICKNESS, RAIL_THICKNESS
            a = (rail.x0 - nx * off - ux * ext, rail.y0 - ny * off - uy * ext)
            b = (rail.x1 - nx * off + ux * ext, rail.y1 - ny * off + uy * ext)
            seg = pymunk.Segment(space.static_body, a, b, RAIL_THICKNESS)
            seg.elasticity, seg.friction = e_fac[1], mu_fac[1]
            seg.collision_type = rail_type
            space.add(seg)

        self.bodies: list[pymunk.Body] = []
        self._index_of: dict[int, int] = {}
        decel, spin_decel = np.array(coeff.decel), np.array(coeff.spin_decel)
        self._decel = np.zeros(len(layout) + 1)  # the last entry: the static bodies
        self._spin_decel = np.zeros(len(layout) + 1)
        for n, (p, k) in enumerate(zip(layout.pieces, kind_of, strict=True)):
            spec = table.piece_spec(p.kind)
            body = pymunk.Body(spec.mass, spec.inertia)
            body.position = (p.x, p.y)
            vx, vy, w = (float(v) for v in initial.get(p.id, (0.0, 0.0, 0.0)))
            if not all(math.isfinite(v) for v in (vx, vy, w)):
                raise SimulationError(f"initial velocity of {p.id!r} is not finite: "
                                      f"({vx}, {vy}, {w})")
            body.velocity = (vx, vy)
            body.angular_velocity = w
            shape = pymunk.Circle(body, spec.radius)
            shape.elasticity, shape.friction = e_fac[0][k], mu_fac[0][k]
            shape.collision_type = k + 1
            space.add(body, shape)
            self.bodies.append(body)
            self._index_of[body.id] = n
            self._decel[n] = decel[k]
            self._spin_decel[n] = spin_decel[k]

        self.holes = table.geometry.hole_array()
        self.on = np.ones(len(layout), dtype=bool)
        self.pocketed: list[str] = []
        self.steps = 0
        self.step_seconds = 0.0
        self._buf = pymunk.batch.Buffer()
        self._out = pymunk.batch.Buffer()
        self._order_ids: np.ndarray = np.empty(0, dtype=np.uintp)
        self._order: np.ndarray = np.empty(0, dtype=np.int64)
        self._set_arr: np.ndarray = np.empty((0, 3))
        self._captured: np.ndarray = np.empty(0, dtype=np.int64)
        self.resting = self._after_step(0.5, False)  # the staggered half kick at t = 0

    def _install_pair_handler(self, e_pair: np.ndarray, mu_pair: np.ndarray,
                              e_rail: np.ndarray, mu_rail: np.ndarray) -> None:
        """Set every contact's restitution and friction from the table's pair values."""
        nk = len(e_rail)
        table: dict[tuple[int, int], tuple[float, float]] = {}
        for k in range(nk):
            table[(0, k + 1)] = table[(k + 1, 0)] = (float(e_rail[k]), float(mu_rail[k]))
            for m in range(nk):
                table[(k + 1, m + 1)] = (float(e_pair[k, m]), float(mu_pair[k, m]))

        def pre_solve(arbiter: pymunk.Arbiter, space: pymunk.Space, data: object) -> None:
            a, b = arbiter.shapes
            arbiter.restitution, arbiter.friction = table[(a.collision_type, b.collision_type)]

        self.space.on_collision(pre_solve=pre_solve)

    def _read(self) -> tuple[np.ndarray, np.ndarray]:
        """(ids, (n_bodies, 5) x, y, vx, vy, w) in pymunk's body order."""
        buf = self._buf
        buf.clear()
        pymunk.batch.get_space_bodies(self.space, _FIELDS_GET, buf)
        ids = np.frombuffer(buf.int_buf(), dtype=np.uintp)
        return ids, np.frombuffer(buf.float_buf(), dtype=np.float64).reshape(-1, 5)

    def _reorder(self, ids: np.ndarray) -> None:
        """Map pymunk's body order to layout indices (static bodies map to the sentinel n)."""
        sentinel = len(self.layout)
        self._order_ids = ids.copy()
        self._order = np.array([self._index_of.get(int(i), sentinel) for i in ids],
                               dtype=np.int64)
        self._set_arr = np.zeros((len(ids), 3))
        self._out.set_float_buf(self._set_arr)
        self._captured = np.zeros(len(ids), dtype=np.int64)

    def _after_step(self, fraction: float, capture: bool) -> bool:
        """Captures, then sliding friction and spin decay over fraction * dt; True when
        everything rests."""
        while True:
            ids, data = self._read()
            code = _kick_kernel(ids, self._order_ids, data, self._order, self._decel,
                                self._spin_decel, self.holes, fraction * self.dt, capture,
                                self._set_arr, self._captured)
            if code == _REORDER:
                self._reorder(ids)
            elif code > 0:  # that many captures, listed in self._captured
                for row in self._captured[:code]:
                    n = int(self._order[row])
                    body = self.bodies[n]
                    self.space.remove(body, *body.shapes)
                    self.on[n] = False
                    self.pocketed.append(self.layout.pieces[n].id)
            else:
                pymunk.batch.set_space_bodies(self.space, _FIELDS_SET, self._out)
                return code == _REST

    def step(self, profile: bool = False) -> bool:
        """One pymunk step, then captures and the friction kick; True when everything rests."""
        if profile:
            t0 = time.perf_counter()
            self.space.step(self.dt)
            self.step_seconds += time.perf_counter() - t0
        else:
            self.space.step(self.dt)
        self.steps += 1
        return self._after_step(1.0, True)

    def run(self, max_time: float = 30.0, profile: bool = False) -> PymunkResult:
        """Step until everything rests or max_time (s) has been simulated."""
        if not finite_real(max_time) or not 0.0 < max_time <= MAX_TIME_LIMIT \
                or max_time / self.dt > MAX_STEPS:
            raise SimulationError(f"max_time must be a number of seconds in (0, "
                                  f"{MAX_TIME_LIMIT:g}] of at most {MAX_STEPS:,} steps of "
                                  f"{self.dt:g} s, got {shown(max_time)}")
        max_steps = math.ceil(max_time / self.dt - 1e-9)
        rest = self.resting
        while not rest and self.steps < max_steps:
            rest = self.step(profile)
        self.resting = rest
        return PymunkResult(final=self.final_layout(), pocketed=list(self.pocketed),
                            steps=self.steps, dt=self.dt, time=self.steps * self.dt,
                            truncated=not rest, step_seconds=self.step_seconds)

    def final_layout(self) -> Layout:
        """The pieces still on the board at their current positions."""
        pieces = []
        for n, p in enumerate(self.layout.pieces):
            if self.on[n]:
                x, y = self.bodies[n].position
                pieces.append(Piece(p.id, p.kind, float(x), float(y), p.group))
        return Layout(self.layout.table, tuple(pieces))


def run_motion_pymunk(table: Table, layout: Layout,
                      initial: Mapping[str, tuple[float, float, float]], dt: float = 1e-3,
                      max_time: float = 30.0, profile: bool = False) -> PymunkResult:
    """Like `cuesim.sim.run_motion`: `initial` maps piece ids to (vx, vy, w) at t = 0 (m/s,
    rad/s), every other piece starts at rest; stepped on pymunk at dt until rest."""
    return PymunkScene(table, layout, initial, dt).run(max_time, profile)


def simulate_pymunk(table: Table, layout: Layout, shot: Shot, dt: float = 1e-3,
                    max_time: float = 30.0, profile: bool = False) -> PymunkResult:
    """Play `shot` (a NovusShot: placed with `shot.place`, launched with
    `shot.striker_motion`) on pymunk at step dt, as `cuesim.simulate` does exactly."""
    from cuesim.shot import NovusShot

    if not isinstance(shot, NovusShot):
        raise SimulationError(f"simulate_pymunk plays a NovusShot, got {type(shot).__name__}")
    if not isinstance(table, PieceTable) or not isinstance(layout, Layout):
        raise SimulationError(f"simulate_pymunk needs a novus table and a Layout, got "
                              f"{type(table).__name__} and {type(layout).__name__}")
    placed = shot.place(table, layout)
    motion = shot.striker_motion(table)
    return run_motion_pymunk(table, placed, {"striker": motion}, dt, max_time, profile)
