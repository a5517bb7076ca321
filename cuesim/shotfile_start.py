"""What a shot file's result starts from, checked against its exact segments (cuesim.shotfile
calls these once the arrays are read): the initial layout where the segments start, the piece
a strike names the shot's own, and the `shot` block the shot that was played. All three are
written from the same floats as the segments, so any difference is an edit of the file: a
`ShotFileError` naming the file, the field and what was expected."""

from __future__ import annotations

import math

import numpy as np

from cuesim.shot import CueShot, NovusShot, ShotError
from cuesim.shotfile_motion import ShotFileError
from cuesim.sim.events import COL_A, COL_KIND, EventKind
from cuesim.sim.motion.ball import U_ROLL
from cuesim.sim.state import (
    SEG_AX,
    SEG_AY,
    SEG_EVENT,
    SEG_OBJ,
    SEG_T0,
    SEG_T1,
    SEG_VX,
    SEG_VY,
    SEG_W,
    SEG_X,
    SEG_Y,
)
from cuesim.tables.layout import Layout, LayoutError

Shot = NovusShot | CueShot
# relative rounding between two ways of computing one float (the core's and this check's):
# a direction or a slip speed that differs by more was edited, not rounded
SAME = 1e-9


def check_initial(initial: Layout, segments: np.ndarray, source: str) -> None:
    """Each piece's first segment (its earliest; of those at one time, the first in the file)
    starts exactly where the initial layout has the piece: the simulator opens it from the
    layout's very numbers, and both writers keep every float's bits (shortest repr in JSON,
    float64 in .npz), so an initial layout that differs was edited, and the result would
    contradict itself (`initial` against `positions_at(0)`, the plots, the replay)."""
    obj = segments[:, SEG_OBJ].astype(np.int64)
    order = np.lexsort((np.arange(len(segments)), segments[:, SEG_T0], obj))
    _, first = np.unique(obj[order], return_index=True)
    rows = order[first]  # _check_segments: every piece 0..n-1 has a segment starting at t0 = 0
    start = segments[rows][:, [SEG_X, SEG_Y]]
    given = initial.positions()
    bad = np.flatnonzero((start != given).any(axis=1))
    if len(bad):
        k = int(bad[0])
        p = initial.pieces[k]
        sx, sy = start[k].tolist()
        raise ShotFileError(f"{source}: initial.pieces[{k}] (piece {p.id!r}) = ({p.x!r}, {p.y!r}) "
                            f"is not where its first segment (segments[{int(rows[k])}]) starts, "
                            f"({sx!r}, {sy!r}); expected the initial layout the exact segments "
                            "start from (both are written from one shot): edit the shot by "
                            "simulating it again, not the file")


def check_struck(shot: Shot | None, initial: Layout, events: np.ndarray,
                 source: str) -> None:
    """The piece a strike event names is the one the shot strikes, of the kind a cue strikes:
    a CueShot's `ball` (a 'ball'), a NovusShot's 'striker' (the kind 'striker'). `simulate`
    and the viewer strike exactly that piece, so an initial layout whose struck piece has
    another id or kind was edited (a shot file holds the pieces' ids and kinds only there)."""
    if shot is None:
        return  # a run_motion result: any piece may have been struck
    if isinstance(shot, CueShot):
        want_id, want_kind = shot.ball, "ball"
    else:
        want_id, want_kind = "striker", "striker"
    for k in np.flatnonzero(events[:, COL_KIND] == int(EventKind.STRIKE)).tolist():
        i = int(events[k, COL_A])
        p = initial.pieces[i]
        if p.id != want_id or p.kind != want_kind:
            raise ShotFileError(f"{source}: initial.pieces[{i}] (piece {p.id!r} of kind "
                                f"{p.kind!r}) is the piece events[{k}] strikes, but the shot "
                                f"strikes {want_id!r}, a {want_kind}; expected the initial "
                                "layout the shot was played on: edit the shot by simulating it "
                                "again, not the file")


def check_shot(shot: Shot | None, table_name: str, physics: dict[str, float] | None,
               initial: Layout, events: np.ndarray, segments: np.ndarray, source: str) -> None:
    """The shot block is the shot that was played: one `simulate` accepts (a tip offset that
    misses the striker, a miscue, a striker outside its zone are refused as `simulate` refuses
    them), putting the struck piece where the initial layout has it and starting it with the
    very motion (vx, vy and the spin about the vertical) of its first segment: both are
    written from the same floats, so any difference is an edit of the file. A ball's spin
    about the horizontal axes (the tip's height: follow or draw, and a masse) is in no column
    of a segment; what it sets is checked by `_check_slip`. The table is the one named, with
    the file's physics where it records them."""
    from cuesim.api import table_named

    table = table_named(table_name)
    if shot is None or table is None:
        return
    if physics is not None:  # checked against the table's (shotfile_replay.check_physics)
        table = table.with_physics(**physics)
    struck = shot.ball if isinstance(shot, CueShot) else "striker"
    try:
        placed = shot.place(table, initial)
        motion = shot.ball_motion(table) if isinstance(shot, CueShot) \
            else shot.striker_motion(table)
    except (ShotError, LayoutError) as exc:
        raise ShotFileError(f"{source}: shot: {exc}") from None
    k = initial.index(struck)
    given, placed_at = initial.pieces[k], placed.get(struck)
    if (placed_at.x, placed_at.y) != (given.x, given.y):
        raise ShotFileError(f"{source}: shot puts {struck!r} at ({placed_at.x!r}, "
                            f"{placed_at.y!r}), but the initial layout has it at ({given.x!r}, "
                            f"{given.y!r}); expected the shot that was played: edit the shot "
                            "by simulating it again, not the file")
    rows = np.flatnonzero(segments[:, SEG_OBJ] == k)
    first = segments[rows[np.argmin(segments[rows, SEG_T0])]]  # a piece's earliest, at t0 = 0
    start = (float(first[SEG_VX]), float(first[SEG_VY]), float(first[SEG_W]))
    if start != (motion[0], motion[1], motion[-1]):
        raise ShotFileError(f"{source}: shot gives {struck!r} the motion (vx, vy, w) = "
                            f"({motion[0]!r}, {motion[1]!r}, {motion[-1]!r}), but its first "
                            f"segment starts with {start!r}; expected the shot that was "
                            "played: edit the shot by simulating it again, not the file")
    if isinstance(shot, CueShot):
        _check_slip(motion, table.piece_spec("ball").radius, k, rows, events, segments,
                    f"{source}: shot")


def _check_slip(motion: tuple[float, ...], r: float, k: int, rows: np.ndarray,
                events: np.ndarray, segments: np.ndarray, where: str) -> None:
    """A struck ball's first segment slides against its contact point's slip u = (vx - r wy,
    vy + r wx) (`sim.motion.ball`): its acceleration points along -u (along -v when it rolls
    from the start), and when the segment ends with the ball's own roll event, sliding lasted
    2 |u| / (7 |a|), whatever the cloth's friction. Follow against draw, or another masse,
    changes the one or the other."""
    vx, vy, wx, wy = motion[0], motion[1], motion[2], motion[3]
    ux, uy = vx - r * wy, vy + r * wx
    u, v = math.hypot(ux, uy), math.hypot(vx, vy)
    order = rows[np.argsort(segments[rows, SEG_T0], kind="stable")]
    first = segments[order[0]]
    ax, ay = float(first[SEG_AX]), float(first[SEG_AY])
    a = math.hypot(ax, ay)
    hx, hy = (ux / u, uy / u) if u > U_ROLL else (vx / v, vy / v) if v > 0.0 else (0.0, 0.0)
    if a > 0.0 and (ax * hx + ay * hy >= 0.0 or abs(ax * hy - ay * hx) > SAME * a):
        raise ShotFileError(f"{where}: its tip (height, side, elevation) gives the ball a slip "
                            f"along ({hx:.6g}, {hy:.6g}), but its first segment's friction "
                            f"({ax:.6g}, {ay:.6g}) m/s^2 is not against it; expected the shot "
                            "that was played: edit the shot by simulating it again, not the file")
    if u <= U_ROLL or a == 0.0 or len(order) < 2:
        return
    e = int(segments[order[1], SEG_EVENT])
    if e < 0 or events[e, COL_KIND] != int(EventKind.ROLL) or int(events[e, COL_A]) != k:
        return  # the sliding ended in a contact: its length says nothing about the slip
    slid = 3.5 * float(first[SEG_T1] - first[SEG_T0]) * a
    if abs(slid - u) > SAME * u:
        raise ShotFileError(f"{where}: its tip (height, side, elevation) gives the ball a slip "
                            f"of {u:.9g} m/s, but its first segment slides for one of "
                            f"{slid:.9g} m/s (2 |u| / 7 |a|); expected the shot that was "
                            "played: edit the shot by simulating it again, not the file")


def check_spin_decel(table_name: str, physics: dict[str, float] | None, initial: Layout,
                     segments: np.ndarray, source: str) -> None:
    """Each segment's `spin_decel` is its piece's: the simulator writes every one of a piece's
    segments from one constant of its kind on the table (`sim.engine.kind_properties`), so a
    piece's segments that disagree were edited; where the file records its physics, that
    constant is also the one the named table gives with them. (A file without them, version 1,
    may have been played with other physics: only the agreement is checked.)"""
    from cuesim.api import table_named
    from cuesim.sim.engine import kind_properties, table_arrays
    from cuesim.sim.state import SDECEL, SEG_SD

    where = f"{source}: segments"
    obj = segments[:, SEG_OBJ].astype(int)
    given = segments[:, SEG_SD]
    table = table_named(table_name)
    if physics is not None and getattr(table, "physics", None) is not None:
        table = table.with_physics(**physics)  # type: ignore[union-attr]  # checked by
        # shotfile_replay.check_physics
        own = kind_properties(table_arrays(table), initial.kinds())[:, SDECEL]
        rows = np.flatnonzero(given != own[obj])
        if len(rows):
            k = int(rows[0])
            raise ShotFileError(f"{where}[{k}]: spin_decel must be {float(own[obj[k]])!r} "
                                f"rad/s^2, that of piece {obj[k]}'s kind "
                                f"({initial.pieces[obj[k]].kind}) on the {table_name} table "
                                f"with the file's physics, got {float(given[k])!r}: edit the "
                                "shot by simulating it again, not the file")
        return
    first = np.full(len(initial), np.nan)
    pieces, at = np.unique(obj, return_index=True)
    first[pieces] = given[at]  # each piece's value in its first row in the file
    rows = np.flatnonzero(given != first[obj])
    if len(rows):
        k = int(rows[0])
        i = int(obj[k])
        raise ShotFileError(f"{where}[{k}]: spin_decel {float(given[k])!r} rad/s^2 is not that "
                            f"of piece {i}'s first segment (segments[{int(at[pieces == i][0])}]: "
                            f"{float(first[i])!r}); expected one constant of its kind in all "
                            "its segments: edit the shot by simulating it again, not the file")
