"""Where a struck piece may be put down: the gaps to the other pieces, a free spot, and the
default place a game offers for the piece in hand (the striker in novus, the cue ball in
hand, the 5-pins ball in hand)."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import numpy as np

from cuesim.tables.layout import Layout, LayoutError, Piece

# the default place is searched along the middle of the placing area, at this many steps
# from its middle to each end (a 2.5 mm spacing on a 1 m novus strip)
DEFAULT_PLACE_STEPS = 200
# a spot whose vectorised clearance is this close to the wanted one is confirmed with the
# exact gaps (`clearance`): NumPy's hypot may differ from math.hypot in the last bit
_CLEAR_SLACK = 1e-9


def _gaps(table: Any, layout: Layout, piece_id: str, kind: str, x: float,
          y: float) -> Iterator[tuple[str, float]]:
    """(id, gap in m) of every other piece of `layout` from a piece of `kind` put at (x, y):
    the centre distance less the distance at which the two touch."""
    for other, need in _others(table, layout, piece_id, kind):
        yield other.id, math.hypot(other.x - x, other.y - y) - need


def _others(table: Any, layout: Layout, piece_id: str, kind: str
            ) -> list[tuple[Piece, float]]:
    """Every other piece of `layout`, with the centre distance at which a piece of `kind`
    touches it (the table's `contact_distance`, else the sum of the radii)."""
    contact = getattr(table, "contact_distance", None)
    out = []
    for other in layout.pieces:
        if other.id == piece_id:
            continue
        if contact is not None:
            need = contact(kind, other.kind)
        else:
            need = table.piece_spec(kind).radius + table.piece_spec(other.kind).radius
        out.append((other, need))
    return out


def clearance(table: Any, layout: Layout, piece_id: str, kind: str, x: float,
              y: float) -> float:
    """The gap (m) between a piece of `kind` put down at (x, y) and the nearest other piece of
    `layout` (inf when there is none)."""
    return min((gap for _, gap in _gaps(table, layout, piece_id, kind, x, y)), default=math.inf)


def free_spot(table: Any, layout: Layout, piece: Piece) -> str | None:
    """Why `piece` cannot be put down among the other pieces of `layout` (off the surface, over
    a pocket, touching another piece), or None. Only the placed piece is checked: the others
    may lie where the last shot left them (in a pocket's jaws, say)."""
    try:
        table.check_layout(Layout(layout.table, (piece,)))
    except LayoutError as exc:
        return str(exc)
    for other_id, gap in _gaps(table, layout, piece.id, piece.kind, piece.x, piece.y):
        if gap <= 1e-9:
            return (f"it would touch {other_id!r} (overlap {max(-gap, 0.0) * 1000:.1f} mm): "
                    "choose a free place")
    return None


def middle_spots(area: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The spots along the middle of a placing area's longer side, from its middle outwards
    (alternately toward one end and the other), in the order the default place tries them."""
    xs, ys = [p[0] for p in area], [p[1] for p in area]
    cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    along_x = max(xs) - min(xs) >= max(ys) - min(ys)
    spots = []
    for k in range(DEFAULT_PLACE_STEPS):
        for sign in (1, -1):
            f = sign * k / DEFAULT_PLACE_STEPS
            if along_x:
                spots.append((cx + f * (max(xs) - min(xs)) / 2, cy))
            else:
                spots.append((cx, cy + f * (max(ys) - min(ys)) / 2))
    return spots


def maybe_clear(table: Any, layout: Layout, piece_id: str, kind: str,
                spots: list[tuple[float, float]], want: float) -> np.ndarray:
    """For each spot, whether a piece of `kind` put there may stand `want` m clear of every
    other piece: all the spots' gaps at once, with a slack that `clearance` settles."""
    others = _others(table, layout, piece_id, kind)
    if not others:
        return np.ones(len(spots), dtype=bool)
    xy = np.array(spots, dtype=float).reshape(-1, 2)
    ox = np.array([p.x for p, _ in others])
    oy = np.array([p.y for p, _ in others])
    need = np.array([n for _, n in others])
    gaps = np.hypot(ox[None, :] - xy[:, :1], oy[None, :] - xy[:, 1:]) - need[None, :]
    return gaps.min(axis=1) >= want - _CLEAR_SLACK


def default_place(session: Any) -> tuple[float, float]:
    """The first legal place (`session.check_place`) along the middle of the placing area,
    from its middle outwards, that stands at least a diameter clear of every other piece; the
    first legal one if none does; the area's middle if none is legal (the board's middle
    without an area). Only the spots that may be clear (`maybe_clear`) are checked for the
    first: in the novus opening, where the row of pucks on the player's rail (the opponent's,
    novus 10) keeps the strip's middle within a diameter, a turn checks one spot instead of
    181 (5.5 ms before, 0.45 ms now)."""
    area = session.place_area()
    if not area:
        return (session.table.geometry.width / 2, session.table.geometry.length / 2)
    spots = middle_spots(area)
    want, kind, struck = 2.0 * session.radius(), session.kind_of(), session.struck_id()
    layout = session.layout()
    for (x, y), ok in zip(spots, maybe_clear(session.table, layout, struck, kind, spots, want),
                          strict=True):
        if ok and session.check_place(x, y) is None and \
                clearance(session.table, layout, struck, kind, x, y) >= want:
            return x, y
    for x, y in spots:
        if session.check_place(x, y) is None:
            return x, y
    xs, ys = [p[0] for p in area], [p[1] for p in area]
    return (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
