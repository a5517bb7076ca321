"""From a table and a layout to a shot result: checks the input, builds the arrays, runs the
compiled loop (growing its buffers if they fill), and wraps what it wrote."""

from __future__ import annotations

import math
import numbers
import threading
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain
from typing import Any, Protocol, runtime_checkable

import numpy as np

from cuesim.sim.detect.grid import G_NX, G_NY, GRID_MIN_N, auto_grid_into
from cuesim.sim.errors import SimulationError
from cuesim.sim.events import N_EVENT_COLUMNS, EventKind
from cuesim.sim.loop import STATUS_FULL, STATUS_RUNAWAY, run_events_grid, work_arrays
from cuesim.sim.queue import tree_length
from cuesim.sim.result import ShotResult
from cuesim.sim.state import (
    LAW_BALL,
    LAW_DISC,
    N_SEG_COLUMNS,
    ON,
    SEG_EVENT,
    VX,
    VY,
    W0,
    WX,
    WY,
    X,
    Y,
    build_state,
    static_properties,
)
from cuesim.tables.base import PieceTable, physics_of
from cuesim.tables.geometry import TableGeometry
from cuesim.tables.layout import Layout
from cuesim.tables.numbers import shown
from cuesim.tables.pieces import KindCoefficients, PieceSpec

DEFAULT_MAX_EVENTS = 20_000
# the largest max_events: the compiled loop counts events in a signed 64-bit integer
MAX_EVENTS_LIMIT = 2**63 - 1
MAX_EVENTS_EXPECTED = "a whole number in [1, 2**63 - 1]"


def max_events_ok(value: object) -> bool:
    """Whether `value` can bound a shot's events: an int (not a bool) in [1, MAX_EVENTS_LIMIT]."""
    return (isinstance(value, numbers.Integral) and not isinstance(value, bool)
            and 1 <= value <= MAX_EVENTS_LIMIT)


@runtime_checkable
class Table(Protocol):
    name: str
    geometry: TableGeometry
    kinds: tuple[str, ...]

    def piece_spec(self, kind: str) -> PieceSpec: ...
    def kind_coefficients(self) -> KindCoefficients: ...
    def check_layout(self, layout: Layout) -> None: ...


class Arrays:
    """The plain arrays of one table, built once and shared by every shot on it. `same_geometry`:
    the arrays of a table with the same geometry (the table's own with other physics), whose
    geometry arrays are taken as they are; only the coefficients' are built (a batch that sets
    the physics shot by shot: cuesim.batch.core)."""

    def __init__(self, table: Table, same_geometry: Arrays | None = None) -> None:
        geo = table.geometry
        if same_geometry is None:
            self.rails = geo.rail_array()
            self.holes = geo.hole_array()
            self.lines = geo.line_array()
            self.circles = geo.circle_array()
            self.knuckles = geo.knuckle_array()
        else:
            g = same_geometry
            self.rails, self.holes, self.lines = g.rails, g.holes, g.lines
            self.circles, self.knuckles = g.circles, g.knuckles
        c = table.kind_coefficients()
        self.kinds = c.kinds
        self.decel = np.array(c.decel)
        self.spin_decel = np.array(c.spin_decel)
        self.e_pair = np.array(c.e_pair, dtype=np.float64)
        self.mu_pair = np.array(c.mu_pair, dtype=np.float64)
        self.e_rail = np.array(c.e_rail, dtype=np.float64)
        self.mu_rail = np.array(c.mu_rail, dtype=np.float64)
        self.v_stick = float(c.v_stick)
        self.law = np.array(c.law if c.law else (LAW_DISC,) * len(c.kinds), dtype=np.float64)
        self.roll_decel = np.array(c.roll_decel if c.roll_decel else (0.0,) * len(c.kinds))
        radii = [self_spec.radius for self_spec in (table.piece_spec(k) for k in c.kinds)]
        self.thrown_radius = np.array(c.thrown_radius if c.thrown_radius else radii)
        self.pin_model = np.array(c.pin_model, dtype=np.float64)
        self.model_params = np.array([*c.friction_fit, c.cushion_height, c.impact_steps,
                                      c.v_stick], dtype=np.float64)  # MP_* (sim.state)
        # normal contact laws F = k delta^eta (tables.contact), for the multi-impact model and
        # the soft reference; empty when a table gives none
        nk = len(c.kinds)
        self.k_pair = np.array(c.stiffness_pair, dtype=np.float64).reshape(-1, nk)
        self.eta_pair = np.array(c.exponent_pair, dtype=np.float64).reshape(-1, nk)
        self.k_rail = np.array(c.stiffness_rail, dtype=np.float64)
        self.eta_rail = np.array(c.exponent_rail, dtype=np.float64)
        # the core's layout of the same laws: kind pairs, then each kind on a rail (last row)
        self.stiffness = np.vstack([self.k_pair, self.k_rail[None, :]])
        self.exponent = np.vstack([self.eta_pair, self.eta_rail[None, :]])
        self.specs = {k: table.piece_spec(k) for k in c.kinds}
        self.feature_names = {
            int(EventKind.RAIL): [r.name for r in geo.rails] + [k.name for k in geo.knuckles],
            int(EventKind.POCKET): [h.name for h in geo.holes],
            int(EventKind.LINE): [s.name for s in geo.lines],
            int(EventKind.CIRCLE): [s.name for s in geo.circles],
        }


@lru_cache(maxsize=64)
def motion_limits(arr: Arrays, kind: str) -> tuple[float, float, str]:
    """The fastest centre speed (m/s) and spin (rad/s) a cue can give a piece of this kind, and
    what it is. Discs: the striker's bound MAX_STRIKE_SPEED, w = m v d / I with the tip offset
    d below the radius. Balls: the centre hit of a cue at MAX_CUE_SPEED (sim.cue.strike),
    |w| <= j d / I with d within the miscue limit; pins, which only a ball sets moving, take
    the ball's bounds. Cached per table's arrays and kind (every shot checks them)."""
    from cuesim.sim.cue import MISCUE_LIMIT, strike
    from cuesim.tables.balls import MAX_CUE_SPEED
    from cuesim.tables.novus import MAX_STRIKE_SPEED

    k = arr.kinds.index(kind)
    if arr.law[k] == LAW_DISC:
        spec = arr.specs[kind]
        v = MAX_STRIKE_SPEED
        return v, spec.mass * v * spec.radius / spec.inertia, "a cue gives a striker"
    ball = kind if arr.law[k] == LAW_BALL else arr.kinds[list(arr.law).index(LAW_BALL)]
    spec = arr.specs[ball]
    v = strike(spec, MAX_CUE_SPEED, 0.0)[0]
    return v, spec.mass * v * MISCUE_LIMIT * spec.radius / spec.inertia, \
        f"a cue at {MAX_CUE_SPEED:g} m/s gives a ball"


def _check_cue_limits(arr: Arrays, piece: Any, value: tuple[float, ...]) -> None:
    """Refuse an initial motion no cue can give (speeds far beyond play only lose events)."""
    v_max, w_max, what = motion_limits(arr, piece.kind)
    speed, spin = math.hypot(value[0], value[1]), math.sqrt(sum(w * w for w in value[2:]))
    if speed > v_max:
        raise SimulationError(f"initial motion of {piece.id!r}: speed {speed:g} m/s is beyond "
                              f"what {what} (at most {v_max:.3g} m/s)")
    if spin > w_max:
        raise SimulationError(f"initial motion of {piece.id!r}: spin {spin:g} rad/s is beyond "
                              f"what {what} (at most {w_max:.4g} rad/s)")


@lru_cache(maxsize=64)
def table_arrays(table: Table) -> Arrays:
    """Arrays of a table, cached per table (tables are frozen, hence hashable)."""
    return Arrays(table)


@dataclass
class MotionInput:
    """One shot ready for the compiled loop: the checked table arrays, the layout, the
    initial state S (as `build_state` makes it), the static properties P, the struck piece's
    row (-1: none), the rows of further pieces struck at t = 0 (the 5-pins lag strikes two
    balls at once) and the event limit. `motion_input` builds it, `motion_result` wraps what
    the loop wrote; `run_motion` is the two around one `run_events` call, and
    `cuesim.sim.batch_parallel.run_inputs` runs many at once."""

    table: Any
    layout: Layout
    arr: Arrays
    S: np.ndarray
    P: np.ndarray
    struck: int
    max_events: int
    shot: Any = None
    also_struck: tuple[int, ...] = ()


def _struck_rows(layout: Layout, struck: str | Sequence[str] | None) -> tuple[int, ...]:
    """The layout rows of the struck piece(s): none, one id, or several distinct ids."""
    if struck is None:
        return ()
    if type(struck) is str:  # the usual one piece, without the sequence checks (1 us a shot)
        try:
            return (layout.index(struck),)
        except KeyError:
            raise SimulationError(f"struck piece {struck!r} is not in the layout "
                                  f"{layout.ids()}") from None
    names = (struck,) if isinstance(struck, str) else struck
    if isinstance(names, bytes) or not isinstance(names, Sequence) or not all(
            isinstance(n, str) for n in names):
        raise SimulationError(f"struck must be a piece id or a sequence of piece ids, got "
                              f"{struck!r}")
    if not names:
        raise SimulationError("struck must name at least one piece (None: no strike logged)")
    if len(set(names)) != len(names):
        raise SimulationError(f"struck names a piece twice: {list(names)}")
    rows = []
    for name in names:
        try:
            rows.append(layout.index(name))
        except KeyError:
            raise SimulationError(f"struck piece {name!r} is not in the layout "
                                  f"{layout.ids()}") from None
    return tuple(rows)


def _check_struck_moves(S: np.ndarray, rows: tuple[int, ...], layout: Layout) -> None:
    """A struck piece leaves the cue moving: one given no motion (or all zeros) would be
    logged struck while it never moves (a 5-pins lag ball that never left the line)."""
    for k in rows:
        row = S[k]  # a scalar read each, stopping at the first non-zero (a cue shot's vx)
        if not (row[VX] != 0.0 or row[VY] != 0.0 or row[W0] != 0.0 or row[WX] != 0.0
                or row[WY] != 0.0):
            raise SimulationError(f"struck piece {layout.pieces[k].id!r} is given no motion: "
                                  "a struck piece moves (give it a motion in initial)")


def motion_input(table: Table, layout: Layout, initial: Mapping[str, tuple[float, ...]],
                 struck: str | Sequence[str] | None = None, max_events: int = DEFAULT_MAX_EVENTS,
                 shot: Any = None, check: bool = True) -> MotionInput:
    """The checked input of `run_motion` (same arguments, same errors), without running it."""
    if not isinstance(table, PieceTable) and not isinstance(table, Table):
        raise SimulationError(f"run_motion needs a table (novus_table(), pool_table(), ...), "
                              f"got {type(table).__name__}")
    if not isinstance(layout, Layout):
        raise SimulationError(f"run_motion needs a Layout, got {type(layout).__name__}")
    if not isinstance(initial, Mapping):
        raise SimulationError("initial must map piece ids to (vx, vy, w) or (vx, vy, wx, wy, "
                              f"wz), got {type(initial).__name__}")
    if not max_events_ok(max_events):
        raise SimulationError(f"max_events must be {MAX_EVENTS_EXPECTED}, got "
                              f"{shown(max_events)}")
    struck_rows = _struck_rows(layout, struck)
    struck_index, also = (struck_rows[0], struck_rows[1:]) if struck_rows else (-1, ())
    if also:  # the further strikes count against the limit as the loop's own does
        if max_events <= len(also):
            raise SimulationError(f"max_events {max_events} leaves no room for the shot's "
                                  f"{len(struck_rows)} strikes")
        max_events -= len(also)
    if check:
        table.check_layout(layout)
    arr = table_arrays(table)
    P = _kind_properties(table, layout.kinds())
    S = _rest_state(table, layout).copy()  # every piece at rest, then the initial motions
    plain = _plain_motions(layout, initial, arr) if len(initial) > FEW_MOTIONS else None
    if plain is not None:  # many motions of one form, checked at once
        rows_given, columns, values_given = plain
        S[rows_given[:, None], columns] = values_given
        _check_struck_moves(S, struck_rows, layout)
        return MotionInput(table, layout, arr, S, P, struck_index, int(max_events), shot, also)
    # many motions (a box launching every piece) are written after every check, a column at a
    # time: a piece at a time took 3x as long with 1,024 moving pieces, while the column
    # writes cost a shot that launches one piece 2 us more than its own three writes
    bulk = len(initial) > FEW_MOTIONS
    rows: tuple[list[int], list[int]] = ([], [])  # bulk: the pieces given 3 and 5 numbers
    values: tuple[list[tuple[float, ...]], list[tuple[float, ...]]] = ([], [])
    pieces, isfinite = layout.pieces, math.isfinite
    limits: dict[str, tuple[float, float, str]] = {}  # motion_limits of each kind met
    for pid, given in initial.items():
        try:
            k = layout.index(pid)
        except KeyError as exc:
            raise SimulationError(str(exc.args[0])) from None
        try:
            if type(given) is tuple and all(type(c) is float for c in given):
                value = given  # plain floats: the check below without its ABC lookups
            elif isinstance(given, str | bytes) or not all(
                    isinstance(c, numbers.Real) and not isinstance(c, bool) for c in given):
                raise TypeError  # '1' or True would read as a number
            else:
                value = tuple(map(float, given))
        except (TypeError, ValueError, OverflowError):
            raise SimulationError(f"initial motion of {pid!r} must be numbers, got "
                                  f"{given!r}") from None
        if len(value) not in (3, 5):
            raise SimulationError(f"initial motion of {pid!r} must be (vx, vy, w) or "
                                  f"(vx, vy, wx, wy, wz), got {len(value)} numbers")
        if not all(map(isfinite, value)):
            raise SimulationError(f"initial motion of {pid!r} is not finite: {value}")
        five = len(value) == 5
        kind = pieces[k].kind
        if kind not in limits:
            limits[kind] = motion_limits(arr, kind)
        v_max, w_max, _ = limits[kind]
        w2 = value[2] * value[2] + value[3] * value[3] + value[4] * value[4] if five \
            else value[2] * value[2]  # the sum of _check_cue_limits, in its order
        if math.hypot(value[0], value[1]) > v_max or math.sqrt(w2) > w_max:
            _check_cue_limits(arr, pieces[k], value)  # raises, naming the piece and the bound
        if bulk:
            rows[five].append(k)
            values[five].append(value)
            continue
        S[k, VX], S[k, VY], S[k, W0] = value[0], value[1], value[-1]
        if five:
            S[k, WX], S[k, WY] = value[2], value[3]
    for five, columns in ((False, [VX, VY, W0]), (True, [VX, VY, WX, WY, W0])):
        if rows[five]:  # a piece named twice keeps its last motion, as one by one
            S[np.array(rows[five])[:, None], columns] = values[five]
    _check_struck_moves(S, struck_rows, layout)
    return MotionInput(table, layout, arr, S, P, struck_index, int(max_events), shot, also)


def first_capacity(n: int) -> tuple[int, int]:
    """The event and segment buffer rows of a first run for n pieces: np.empty reserves
    without touching memory, and generous buffers make a rerun (STATUS_FULL) rare even for
    long shots in large boxes."""
    return 1024 + 64 * n, 1024 + 128 * n


FEW_MOTIONS = 8  # up to this many initial motions are written a piece at a time
BOUND_MARGIN = 1e-9  # `_plain_motions` leaves a motion this close to its kind's bound to the loop


def _plain_motions(layout: Layout, initial: Mapping[str, Any],
                   arr: Arrays) -> tuple[np.ndarray, list[int], np.ndarray] | None:
    """Many initial motions (a box launching every piece) checked at once: (rows, S columns,
    values) when every one names a piece, is a tuple of 3 (or every one of 5) plain floats,
    finite and below the lowest bound of the layout's kinds by BOUND_MARGIN; None otherwise,
    and `motion_input`'s piece-by-piece loop then checks them and names what is wrong. The
    values are the given floats, so S is what the loop writes, bit for bit; only the checks
    are vectorised (the loop's took 3.6 ms of a 1,024-ball box's 23 ms call)."""
    rows = layout.places(initial)
    values = list(initial.values())
    width = len(values[0]) if type(values[0]) is tuple else 0
    if None in rows or width not in (3, 5) or set(map(type, values)) != {tuple} \
            or set(map(len, values)) != {width} \
            or set(map(type, chain.from_iterable(values))) != {float}:
        return None
    V = np.fromiter(chain.from_iterable(values), float, count=width * len(values))
    V = V.reshape(len(values), width)
    if not np.isfinite(V).all():
        return None
    bounds = [motion_limits(arr, kind)[:2] for kind in set(layout.kinds())]
    v_max, w_max = min(b[0] for b in bounds), min(b[1] for b in bounds)
    if np.hypot(V[:, 0], V[:, 1]).max() > v_max * (1.0 - BOUND_MARGIN) or \
            np.sqrt((V[:, 2:] ** 2).sum(axis=1)).max() > w_max * (1.0 - BOUND_MARGIN):
        return None  # near a bound: the loop decides exactly, piece by piece, as for one
    columns = [VX, VY, WX, WY, W0] if width == 5 else [VX, VY, W0]
    return np.array(rows), columns, V


_ONE_CELL = np.array([0.0, 0.0, math.inf, 0.0, 1.0, 1.0])  # grid_params of no grid, built
# without calling compiled code at import (a fresh process would load it before its first shot)


def grid_for(inp: MotionInput) -> np.ndarray:
    """The broadphase grid of a shot (`cuesim.sim.detect.grid.auto_grid`, what `run_events`
    picks too). The grid changes only the speed, never a result."""
    if inp.S.shape[0] < GRID_MIN_N:
        return _ONE_CELL
    g = np.empty(6)
    auto_grid_into(inp.S, inp.P, inp.arr.rails, g)
    return g


_work_arrays = getattr(work_arrays, "py_func", work_arrays)  # numpy's allocation, in Python
_tree_length = getattr(tree_length, "py_func", tree_length)  # no machine code to load for it
_KEPT = threading.local()  # each thread's work arrays, kept from shot to shot


def work_arrays_for(n: int, n_lines: int, n_circles: int,
                    g: np.ndarray) -> tuple[tuple[np.ndarray, ...], np.ndarray, np.ndarray]:
    """This thread's work arrays for `run_events_grid` (`loop.work_arrays`), made again only
    when the shot's sizes differ from its last shot's."""
    key = (n, n_lines, n_circles, int(g[G_NX]) * int(g[G_NY]))
    if getattr(_KEPT, "key", None) != key:
        _KEPT.arrays = _work_arrays(*key, _tree_length(n, key[3] == 1))
        _KEPT.key = key
    return _KEPT.arrays


def run_input(inp: MotionInput, cap_ev: int | None = None,
              cap_seg: int | None = None) -> ShotResult:
    """Run one MotionInput to rest (growing the buffers while they fill) and wrap it."""
    first = first_capacity(inp.S.shape[0])
    cap_ev, cap_seg = cap_ev or first[0], cap_seg or first[1]
    arr = inp.arr
    grid = grid_for(inp)
    grids, ints, bools = work_arrays_for(inp.S.shape[0], arr.lines.shape[0],
                                         arr.circles.shape[0], grid)
    while True:
        S_run = inp.S.copy()
        ev = np.empty((cap_ev, N_EVENT_COLUMNS))
        seg = np.empty((cap_seg, N_SEG_COLUMNS))
        n_ev, n_seg, status = run_events_grid(
            S_run, inp.P, arr.rails, arr.holes, arr.lines, arr.circles, arr.e_pair, arr.mu_pair,
            arr.e_rail, arr.mu_rail, arr.v_stick, inp.struck, inp.max_events, ev, seg,
            arr.knuckles, arr.model_params, arr.stiffness, arr.exponent, grid, grids, ints, bools,
        )
        if status != STATUS_FULL:
            break
        cap_ev, cap_seg = cap_ev * 4, cap_seg * 4
    return motion_result(inp, S_run, ev[:n_ev], seg[:n_seg], status == STATUS_RUNAWAY,
                         stacklevel=3)


def motion_result(inp: MotionInput, S_final: np.ndarray, events: np.ndarray,
                  segments: np.ndarray, truncated: bool, stacklevel: int = 2) -> ShotResult:
    """The ShotResult of a finished run: final state S_final, its events and segments (copied
    here); a truncated shot warns (RuntimeWarning) as `run_motion` does."""
    return shot_result(inp, S_final[:, X:Y + 1].copy(), S_final[:, ON] != 0.0, events.copy(),
                       segments.copy(), truncated, stacklevel + 1)


def shot_result(inp: MotionInput, final_xy: np.ndarray, final_on: np.ndarray,
                events: np.ndarray, segments: np.ndarray, truncated: bool,
                stacklevel: int = 2) -> ShotResult:
    """`motion_result` of arrays the result may keep as they are (no other result or run
    writes them: copies, or views of one copy made for many results)."""
    if inp.also_struck:  # further strikes at t = 0, after the loop's own (the first row)
        extra = np.zeros((len(inp.also_struck), events.shape[1]))
        extra[:, 1], extra[:, 2:5] = EventKind.STRIKE, -1
        for r, k in enumerate(inp.also_struck):
            extra[r, 2], extra[r, 5] = k, math.hypot(inp.S[k, VX], inp.S[k, VY])
        events = np.concatenate((events[:1], extra, events[1:]))
        segments = segments.copy()  # the events after the first moved down: so do the
        opened = segments[:, SEG_EVENT]  # indices of the events that opened segments
        opened[opened >= 1] += len(extra)
    result = ShotResult(
        table=inp.table.name, initial=inp.layout, final_positions=final_xy, final_on=final_on,
        events=events, segments=segments, feature_names=inp.arr.feature_names,
        truncated=truncated, shot=inp.shot, physics=physics_of(inp.table),
    )
    if result.truncated:  # no layout: `final`, the referees and the viewer refuse it
        warnings.warn(result.truncation_message(), RuntimeWarning, stacklevel=stacklevel + 1)
    return result


def run_motion(table: Table, layout: Layout,
               initial: Mapping[str, tuple[float, ...]],
               struck: str | Sequence[str] | None = None, max_events: int = DEFAULT_MAX_EVENTS,
               shot: Any = None, check: bool = True) -> ShotResult:
    """Simulate until rest. `initial` maps piece ids to (vx, vy, w) or, for balls,
    (vx, vy, wx, wy, wz) at t = 0 (m/s, rad/s); every other piece starts at rest. `struck`
    names the piece the cue hit (logged as the STRIKE event at t = 0), or several pieces
    struck at once (a STRIKE each, in that order: the 5-pins lag). A shot that reaches
    `max_events` before everything rests comes back with `truncated` set (and a
    RuntimeWarning): its end is no layout, `final` raises TruncatedShotError."""
    return run_input(motion_input(table, layout, initial, struck, max_events, shot, check))


@lru_cache(maxsize=256)
def _rest_state(table: Table, layout: Layout) -> np.ndarray:
    """The initial state S of a layout with every piece at rest (`build_state`), cached per
    layout and read-only: a shot copies it and writes its initial motions in."""
    P = _kind_properties(table, layout.kinds())
    n = len(layout)
    S = build_state(layout.positions(), np.zeros((n, 2)), np.zeros(n), P, np.zeros((n, 2)))
    S.setflags(write=False)
    return S


@lru_cache(maxsize=256)
def _kind_properties(table: Table, kinds: tuple[str, ...]) -> np.ndarray:
    """The static property array P of pieces of these kinds, in this order, on a table:
    cached and read-only. P depends on the kinds alone, so a shot that places the
    striker or the cue ball somewhere new (a new layout) finds it here (26 us a miss)."""
    return kind_properties(table_arrays(table), kinds)


def kind_properties(arr: Arrays, kinds: tuple[str, ...]) -> np.ndarray:
    """P of pieces of these kinds, in this order, from a table's arrays (read-only)."""
    numbers = np.array([arr.kinds.index(kind) for kind in kinds], dtype=np.int64)
    specs = [arr.specs[kind] for kind in kinds]
    P = static_properties(
        numbers, np.array([s.radius for s in specs]), np.array([s.mass for s in specs]),
        np.array([s.inertia for s in specs]), arr.decel[numbers], arr.spin_decel[numbers],
        arr.law[numbers], arr.roll_decel[numbers], arr.thrown_radius[numbers], arr.pin_model,
    )
    P.setflags(write=False)
    return P
