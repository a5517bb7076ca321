"""What a shot file's motion and final state may be (cuesim.shotfile reads the file and calls
these): each segment on the table and within the energy a cue can give, the final positions
and flags where the segments end and the pocket events leave them, the resting layout legal
on its table. A bad file is a `ShotFileError` naming the file, the field and what was
expected."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from cuesim.sim.events import EventKind
from cuesim.sim.state import (
    SEG_AX,
    SEG_AY,
    SEG_OBJ,
    SEG_ON,
    SEG_SD,
    SEG_T0,
    SEG_T1,
    SEG_VX,
    SEG_VY,
    SEG_W,
    SEG_X,
    SEG_Y,
)
from cuesim.tables.balls import GRAVITY
from cuesim.tables.base import LAYOUT_TOLERANCE, check_pieces
from cuesim.tables.box import MAX_SIDE
from cuesim.tables.layout import Layout, LayoutError, Piece

if TYPE_CHECKING:
    from cuesim.shotfile import _Meta


class ShotFileError(ValueError):
    """A shot dict or file that cannot be reloaded: the message names the source, the field's
    path and what was expected."""


# What a shot file must hold, beyond each field's type (checked by `_build`):
# - the initial layout legal on its table; events in time order naming pieces and features;
#   every piece's segments starting at t = 0 and never coming back onto the table;
# - every segment within the table's outline (rails, knuckles, pockets or holes, widened by
#   _BOARD_MARGIN), its speed and spin within the energy a cue can give (`_limits`), its
#   accelerations within _MAX_ACCELERATION;
# - the final state the segments end in: `final_on` false exactly for the pieces a pocket event
#   takes off; each piece's last segment ending at its `final_positions` (_FINAL_TOLERANCE)
#   with its `final_on` flag; unless the shot is truncated, every piece at rest and those on the
#   table legal on it (the table's own check; a novus puck or a felled pin is checked alone);
# - an .npz is a zip whose array headers are read and checked against the file's own counts
#   (pieces, events) and _MAX_ARRAY_BYTES before any array is allocated (`_load_npz`).
_FINAL_TOLERANCE = 1e-9  # m: a last segment's end against final_positions (the simulator writes
# both from one number; a segment evaluated at a finite end t1 only adds round-off)
# m: how far a resting piece may sit into another or a rail in a final layout: as in any layout
# (tables.base.LAYOUT_TOLERANCE, 1 um: the simulator leaves touching pieces TOUCH deep and a
# little more), so a shot it saved reloads and its final layout is the next shot's
_FINAL_LAYOUT_TOLERANCE = LAYOUT_TOLERANCE
_BOARD_MARGIN = 0.1  # m: a centre leaves the table's outline by less than a piece's radius
_MAX_ACCELERATION = 100.0 * GRAVITY  # m/s^2: cloth friction decelerates by mu g, mu < 1
_SPEED_MARGIN = 2.0  # on the energy bounds of speed and spin: round-off, a felled pin's drop
_SPIN_DECEL_FACTOR = 4.0  # spin deceleration <= this * _MAX_ACCELERATION / radius (a disc's
# friction torque gives 4/3 a / R, a ball's 5/2 a / R)
# a table cuesim does not know by name (a bench box): no piece, speed or spin to derive from
_GENERIC_EXTENT = MAX_SIDE + _BOARD_MARGIN  # m: the largest box's side
_GENERIC_MAX_SPEED = 1.0e3  # m/s
_GENERIC_MAX_SPIN = 1.0e6  # rad/s
_GENERIC_MAX_SPIN_DECEL = 1.0e8  # rad/s^2


def _fail(where: str, rows: np.ndarray, what: str, values: Any) -> None:
    if len(rows):
        k = int(rows[0])
        value = values[k].item() if isinstance(values[k], np.generic) else values[k]
        raise ShotFileError(f"{where}[{k}]: {what}, got {value!r}")


@dataclass(frozen=True)
class _Limits:
    """Where a piece's centre may be and how fast it may move on one table."""

    x: tuple[float, float]  # m
    y: tuple[float, float]  # m
    outline: str  # what (x, y) bound, for messages
    speed: np.ndarray  # (n,) m/s
    spin: np.ndarray  # (n,) rad/s
    spin_decel: np.ndarray  # (n,) rad/s^2
    table: Any  # the table cuesim knows by this name, or None


def _limits(initial: Layout) -> _Limits:
    """The bounds of a shot's motion on its table (cuesim's table of that name):
    - a centre lies within the table's outline (the playing surface, rails, knuckles and
      pockets or holes) widened by _BOARD_MARGIN;
    - energy: a cue gives a piece of kind k at most E_k = m v^2 / 2 + I w^2 / 2 (the speed and
      spin bounds `motion_limits` holds every initial motion to); impacts and friction only
      take energy away, so with n pieces set moving no piece ever carries more than n max E_k:
      speed <= _SPEED_MARGIN sqrt(2 n E / m), spin <= _SPEED_MARGIN sqrt(2 n E / I);
    - spin deceleration <= _SPIN_DECEL_FACTOR _MAX_ACCELERATION / radius.
    A table cuesim does not know by name (a bench box) gets the GENERIC_* bounds."""
    from cuesim.api import table_named
    from cuesim.sim.engine import motion_limits, table_arrays

    n = len(initial)
    table = table_named(initial.table)
    if table is None:
        box = (-_GENERIC_EXTENT, _GENERIC_EXTENT)
        return _Limits(box, box, f"a table {_GENERIC_EXTENT:g} m across at most",
                       np.full(n, _GENERIC_MAX_SPEED), np.full(n, _GENERIC_MAX_SPIN),
                       np.full(n, _GENERIC_MAX_SPIN_DECEL), None)
    geo = table.geometry
    xs, ys = [0.0, geo.width], [0.0, geo.length]
    for r in geo.rails:
        xs += [r.x0, r.x1]
        ys += [r.y0, r.y1]
    for c in (*geo.holes, *geo.knuckles):
        xs += [c.x - c.radius, c.x + c.radius]
        ys += [c.y - c.radius, c.y + c.radius]
    arr = table_arrays(table)
    kinds = initial.kinds()
    specs = {k: table.piece_spec(k) for k in set(kinds)}
    energy = 0.0
    for k, spec in specs.items():
        v, w, _ = motion_limits(arr, k)
        energy = max(energy, 0.5 * spec.mass * v * v + 0.5 * spec.inertia * w * w)
    mass = np.array([specs[k].mass for k in kinds])
    inertia = np.array([specs[k].inertia for k in kinds])
    radius = np.array([specs[k].radius for k in kinds])
    return _Limits((min(xs) - _BOARD_MARGIN, max(xs) + _BOARD_MARGIN),
                   (min(ys) - _BOARD_MARGIN, max(ys) + _BOARD_MARGIN),
                   f"the outline of table {table.name!r}",
                   _SPEED_MARGIN * np.sqrt(2 * n * energy / mass),
                   _SPEED_MARGIN * np.sqrt(2 * n * energy / inertia),
                   _SPIN_DECEL_FACTOR * _MAX_ACCELERATION / radius, table)


def _off(x: np.ndarray, y: np.ndarray, limits: _Limits) -> np.ndarray:
    """Whether each point (x, y) lies off the bounds (NaN included)."""
    (x0, x1), (y0, y1) = limits.x, limits.y
    return ~((x0 <= x) & (x <= x1) & (y0 <= y) & (y <= y1))


def _where(limits: _Limits) -> str:
    (x0, x1), (y0, y1) = limits.x, limits.y
    return f"x in [{x0:.4g}, {x1:.4g}] and y in [{y0:.4g}, {y1:.4g}] m ({limits.outline})"


def _check_motion(seg: np.ndarray, limits: _Limits, source: str) -> None:
    """Every segment's speed, acceleration and spin within `limits` and on the table, where it
    starts and, with a finite t1, where it ends."""
    where = f"{source}: segments"
    obj = seg[:, SEG_OBJ].astype(int)
    n = len(seg)
    for name, value, low, high, unit in (
        ("the speed |(vx, vy)|", np.hypot(seg[:, SEG_VX], seg[:, SEG_VY]), 0.0,
         limits.speed[obj], "m/s (the energy bound of its piece)"),
        ("the acceleration |(ax, ay)|", np.hypot(seg[:, SEG_AX], seg[:, SEG_AY]), 0.0,
         np.full(n, _MAX_ACCELERATION), "m/s^2"),
        ("the spin |w0|", np.abs(seg[:, SEG_W]), 0.0, limits.spin[obj],
         "rad/s (the energy bound of its piece)"),
        ("spin_decel", seg[:, SEG_SD], 0.0, limits.spin_decel[obj], "rad/s^2"),
    ):
        bad = np.flatnonzero((value < low) | (value > high))
        if len(bad):
            k = int(bad[0])
            _fail(where, bad, f"{name} must lie in [{low:g}, {high[k]:.4g}] {unit}",
                  value.tolist())
    _fail(where, np.flatnonzero(_off(seg[:, SEG_X], seg[:, SEG_Y], limits)),
          f"(x, y) must lie on the table: {_where(limits)}", seg[:, [SEG_X, SEG_Y]].tolist())
    ends = _ends(seg)
    _fail(where, np.flatnonzero(_off(ends[:, 0], ends[:, 1], limits)),
          f"the position at t1 must lie on the table: {_where(limits)}", ends.tolist())


def _ends(seg: np.ndarray) -> np.ndarray:
    """(n, 2): where each segment ends, at t1, or where it starts when t1 is infinite."""
    t1 = seg[:, SEG_T1]
    tau = np.where(np.isfinite(t1), t1 - seg[:, SEG_T0], 0.0)
    with np.errstate(over="ignore", invalid="ignore"):
        x = seg[:, SEG_X] + tau * (seg[:, SEG_VX] + 0.5 * tau * seg[:, SEG_AX])
        y = seg[:, SEG_Y] + tau * (seg[:, SEG_VY] + 0.5 * tau * seg[:, SEG_AY])
    return np.column_stack([x, y])


def _check_final(meta: _Meta, final_xy: np.ndarray, final_on: np.ndarray, ev: np.ndarray,
                 seg: np.ndarray, limits: _Limits, source: str) -> None:
    """The final positions and flags are where the segments end: on the table, `final_on`
    false exactly for the pieces a pocket event takes off, each piece's last segment ending at
    its final position with its flag; a shot that is not truncated has every piece at rest
    and those on the table legal on it."""
    ids = meta.initial.ids()
    off = np.flatnonzero(_off(final_xy[:, 0], final_xy[:, 1], limits))
    if len(off):
        i = int(off[0])
        raise ShotFileError(f"{source}: final_positions[{i}] (piece {ids[i]!r}) = "
                            f"{tuple(final_xy[i].tolist())} is off the table; expected "
                            f"{_where(limits)}")
    pockets = np.flatnonzero(ev[:, 1] == int(EventKind.POCKET))
    pocketed = np.zeros(len(ids), dtype=bool)
    pocketed[ev[pockets, 2].astype(int)] = True
    for i in np.flatnonzero(final_on & pocketed):
        k = int(pockets[ev[pockets, 2] == i][0])
        raise ShotFileError(f"{source}: final_on[{i}] is true (piece {ids[i]!r} on the table), "
                            f"but events[{k}] pockets it; expected false")
    for i in np.flatnonzero(~final_on & ~pocketed):
        raise ShotFileError(f"{source}: final_on[{i}] is false (piece {ids[i]!r} off the "
                            "table), but no pocket event takes it off; expected true")
    order = np.lexsort((seg[:, SEG_T0], seg[:, SEG_OBJ]))  # stable: log order within a time
    obj = seg[order, SEG_OBJ]
    last = order[np.r_[obj[1:] != obj[:-1], True]]  # each piece's last segment, piece order
    ends = _ends(seg[last])
    for i, k in enumerate(last.tolist()):
        s = seg[k]
        if bool(s[SEG_ON]) != bool(final_on[i]):
            raise ShotFileError(f"{source}: final_on[{i}] is {str(bool(final_on[i])).lower()}, "
                                f"but piece {ids[i]!r}'s last segment (segments[{k}]) has on = "
                                f"{int(s[SEG_ON])}; expected them to agree")
        gap = float(np.max(np.abs(ends[i] - final_xy[i])))
        if not gap <= _FINAL_TOLERANCE:
            raise ShotFileError(f"{source}: final_positions[{i}] (piece {ids[i]!r}) = "
                                f"{tuple(final_xy[i].tolist())} is not where its last segment "
                                f"(segments[{k}]) ends, {tuple(ends[i].tolist())}; expected "
                                f"them within {_FINAL_TOLERANCE:g} m")
        if not meta.truncated and math.isinf(s[SEG_T1]) and (
                s[SEG_VX] or s[SEG_VY] or s[SEG_AX] or s[SEG_AY]):
            raise ShotFileError(f"{source}: segments[{k}]: piece {ids[i]!r} still moves at "
                                f"({s[SEG_VX]:g}, {s[SEG_VY]:g}) m/s, accelerating at "
                                f"({s[SEG_AX]:g}, {s[SEG_AY]:g}) m/s^2, in its last segment, "
                                "but truncated is false; expected it at rest")
    if not meta.truncated and limits.table is not None:
        _check_final_layout(meta, final_xy, final_on, ev, limits.table, source)


def _check_final_layout(meta: _Meta, final_xy: np.ndarray, final_on: np.ndarray,
                        ev: np.ndarray, table: Any, source: str) -> None:
    """The pieces left on the table lie legally on it (the table's own check, as for the
    initial layout); a novus puck may come to rest on another (novus 12) and a felled pin lies
    where a standing one could not, so each of those is checked alone (on the bed, off the
    holes)."""
    felled = set(ev[ev[:, 1] == int(EventKind.PIN), 3].astype(int).tolist())
    together, alone = [], []
    for i, (p, xy) in enumerate(zip(meta.initial.pieces, final_xy.tolist(), strict=True)):
        if final_on[i]:
            piece = Piece(p.id, p.kind, xy[0], xy[1], p.group)
            (alone if table.name == "novus" or i in felled else together).append(piece)
    try:
        for group in (tuple(together), *((piece,) for piece in alone)):
            check_pieces(table, Layout(meta.table, group), tol=_FINAL_LAYOUT_TOLERANCE,
                         contact=table.contact_distance)
    except LayoutError as exc:
        raise ShotFileError(f"{source}: final_positions: the pieces final_on keeps on the table "
                            f"must lie legally on it: {exc}") from None


def check_paths(seg: np.ndarray, source: str) -> None:
    """Each piece's path is continuous: a segment starts where the piece's previous one ends
    (within _FINAL_TOLERANCE; the simulator opens it at exactly that point, an event changing
    only the velocity, the spin or the on-table flag), so no edited segment moves a piece
    between two events without a path. Run after the segments' times are checked to follow
    one another (`shotfile._check_segment_times`)."""
    where = f"{source}: segments"
    obj = seg[:, SEG_OBJ].astype(int)
    order = np.lexsort((np.arange(len(seg)), seg[:, SEG_T0], obj))
    same = obj[order][1:] == obj[order][:-1]
    before, after = order[:-1][same], order[1:][same]
    ends = _ends(seg[before])
    gap = np.max(np.abs(seg[after][:, [SEG_X, SEG_Y]] - ends), axis=1)
    bad = np.flatnonzero(~(gap <= _FINAL_TOLERANCE))
    if len(bad):
        k, j = int(after[bad[0]]), int(before[bad[0]])
        start = tuple(seg[k, [SEG_X, SEG_Y]].tolist())
        raise ShotFileError(f"{where}[{k}]: piece {int(obj[k])} starts at {start} at t0 = "
                            f"{float(seg[k, SEG_T0])!r}, not where its previous segment "
                            f"(segments[{j}]) ends, {tuple(ends[bad[0]].tolist())}; expected "
                            f"each piece's path continuous (within {_FINAL_TOLERANCE:g} m)")
