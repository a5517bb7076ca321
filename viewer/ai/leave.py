"""What a pool shot leaves its shooter when he keeps the table: the easiest pot from where the
cue ball stopped, the computer's position play.

A pot of ball t into pocket p from the cue ball at c: the cue ball rolls to the ghost ball g
(t backed off 2R from p), the object ball on to p. It counts when both lanes are clear of
other balls (a ball's centre farther than 2R from the lane) and the cut angle, between c->g
and t->p, is under MAX_CUT. Its ease is cos(cut) exp(-(|c g| + |t p|) / DISTANCE_SCALE): the
margin of a pot shrinks with the cut and with both distances (Alciatore, "TP 3.4: Margin of
error based on distance and cut angle", billiards.colostate.edu/technical_proofs). The leave
is the best ease, 0 when there is no pot (a hidden or hopeless leave).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from cuesim.tables.layout import Layout

MAX_CUT = math.radians(70.0)  # beyond this a cut is a shot nobody plans position for
DISTANCE_SCALE = 1.5  # m: a pot with 1.5 m more of travel is e times harder
POOL_GAMES = ("8-ball", "9-ball", "14.1")


def next_targets(game: str, ref: Any, layout: Layout, player: str) -> list[str]:
    """The balls `player` may pot next in the position `ref` (the referee after the shot)
    and `layout` (the balls at rest) describe: the lowest in 9-ball, the group (or the 8 once
    it is cleared, any but the 8 while the table is open) in 8-ball, any in 14.1."""
    balls = [p.id for p in layout.pieces if p.id != "cue"]
    if not balls:
        return []
    if game == "9-ball":
        return [min(balls, key=int)]
    if game == "8-ball":
        group = ref.state.groups.get(player)
        if group is None:
            return [b for b in balls if b != "8"] or balls
        mine = [b for b in balls if b != "8" and (int(b) < 8) == (group == "solids")]
        return mine or ["8"]
    return balls


def _clear(centres: np.ndarray, a: np.ndarray, b: np.ndarray, reach: float) -> bool:
    """No centre in `centres` closer than `reach` to the segment a-b."""
    if not len(centres):
        return True
    ab = b - a
    length2 = float(ab @ ab)
    f = np.clip(((centres - a) @ ab) / length2, 0.0, 1.0) if length2 > 0 else np.zeros(
        len(centres))
    gaps = np.hypot(*(centres - a - f[:, None] * ab).T)
    return bool(gaps.min() >= reach)


def best_pot(layout: Layout, targets: list[str], pockets: list[tuple[float, float]],
             radius: float) -> float:
    """The ease of the easiest pot of a target ball from the cue ball's place (0: none)."""
    ids = layout.ids()
    if "cue" not in ids or not targets:
        return 0.0
    xy = np.array([(p.x, p.y) for p in layout.pieces])
    cue = xy[ids.index("cue")]
    best = 0.0
    for t in targets:
        k = ids.index(t)
        ball = xy[k]
        others = np.delete(xy, [k, ids.index("cue")], axis=0)
        for px, py in pockets:
            to_pocket = np.array((px, py)) - ball
            d2 = math.hypot(*to_pocket)
            if d2 <= 0.0:
                continue
            u = to_pocket / d2
            ghost = ball - 2.0 * radius * u
            aim = ghost - cue
            d1 = math.hypot(*aim)
            if d1 <= 0.0:
                continue
            cos_cut = float(aim @ u) / d1
            if cos_cut < math.cos(MAX_CUT):
                continue
            ease = cos_cut * math.exp(-(d1 + d2) / DISTANCE_SCALE)
            if ease <= best:
                continue
            if _clear(others, cue, ghost, 2.0 * radius) and _clear(
                    others, ball, np.array((px, py)), 2.0 * radius):
                best = ease
    return best


def leave(session: Any, result: Any, ref: Any, player: str) -> float:
    """The leave of a pool shot after which `player` plays on (0 outside pool)."""
    if session.game not in POOL_GAMES:
        return 0.0
    final = result.final
    targets = next_targets(session.game, ref, final, player)
    return best_pot(final, targets, session.targets(), session.radius())
