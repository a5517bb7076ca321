"""What a shot file's result starts from, checked against its exact segments (cuesim.shotfile
calls these once the arrays are read): the initial layout where the segments start, the piece
a strike names the shot's own, and the `shot` block the shot that was played. All three are
written from the same floats as the segments, so any difference is an edit of the file: a
`ShotFileError` naming the file, the field and what was expected."""

from __future__ import annotations

import numpy as np

from cuesim.shot import CueShot, NovusShot, ShotError
from cuesim.shotfile_motion import ShotFileError
from cuesim.sim.events import COL_A, COL_KIND, EventKind
from cuesim.sim.state import SEG_OBJ, SEG_T0, SEG_VX, SEG_VY, SEG_W, SEG_X, SEG_Y
from cuesim.tables.layout import Layout, LayoutError

Shot = NovusShot | CueShot


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


def check_shot(shot: Shot | None, table_name: str, initial: Layout,
               segments: np.ndarray, source: str) -> None:
    """The shot block is the shot that was played: one `simulate` accepts (a tip offset that
    misses the striker, a miscue, a striker outside its zone are refused as `simulate` refuses
    them), putting the struck piece where the initial layout has it and starting it with the
    very motion (vx, vy and the spin about the vertical) of its first segment: both are
    written from the same floats, so any difference is an edit of the file."""
    from cuesim.api import table_named

    table = table_named(table_name)
    if shot is None or table is None:
        return
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
