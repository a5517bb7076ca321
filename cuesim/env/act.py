"""The normalised action: a vector in [-1, 1] turned into a session's shot action.

Components (novus: 5, the ball games: 6):

    0 aim       angle = pi/2 + pi a (rad): a = 0 straight ahead (novus: away from the shooter's
                rail; the ball games: toward the foot rail), +-1 straight back
    1 speed     min_speed + (a + 1) / 2 (max_speed - min_speed)  (m/s)
    2 side      tip offset right of centre: novus 0.95 a striker radii; balls 0.35 a radii
   (3 height)   balls only: tip offset above centre, 0.35 a radii (|(side, height)| < 0.5:
                never a miscue)
    - place x, place y   where the struck piece is put when the rules place it (ball in hand,
                the novus striker's zone): across the legal area's bounding box, -1 to +1;
                ignored when it is played where it lies

In 14.1 the ball and pocket are called for the shot as the computer player calls them: the
first object ball near the aim line and the pocket nearest its way (no call when no ball lies
near the aim line). A placement the rules refuse (touching a piece, outside the area) moves
to the nearest legal spot: rings of growing radius around it, 16 points each, the first legal
one.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from cuesim.env.games import GameSpec

MIN_SPEED_FRACTION = 0.03  # of the session's max_speed: the gentlest shot
TIP_FRACTION = 0.35  # of the ball radius, per tip component
NOVUS_TIP = 0.95  # the session's own scale of the striker offset


def action_size(spec: GameSpec) -> int:
    return 6 if spec.tip_height else 5


def _scale(a: float, lo: float, hi: float) -> float:
    return lo + (a + 1.0) / 2.0 * (hi - lo)


def placement_spot(session: Any, ax: float, ay: float) -> tuple[float, float]:
    """The legal spot for the struck piece nearest to the one the action asks for."""
    area = session.place_area()
    xs, ys = [p[0] for p in area], [p[1] for p in area]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    x, y = _scale(ax, x0, x1), _scale(ay, y0, y1)
    if session.check_place(x, y) is None:
        return x, y
    step = session.radius() / 2
    reach = math.hypot(x1 - x0, y1 - y0)
    k = 1
    while k * step <= reach:
        for j in range(16):
            t = 2 * math.pi * j / 16
            px = min(max(x + k * step * math.cos(t), x0), x1)
            py = min(max(y + k * step * math.sin(t), y0), y1)
            if session.check_place(px, py) is None:
                return px, py
        k += 1
    return session.default_place()


def decode(session: Any, spec: GameSpec, action: Any) -> dict[str, Any]:
    """The session's shot action for a normalised action (clipped to [-1, 1])."""
    a = np.clip(np.asarray(action, dtype=np.float64).reshape(-1), -1.0, 1.0)
    angle = math.pi / 2 + math.pi * float(a[0])
    if spec.game == "novus":
        angle = session.table.direction_to_table(session.side(), angle)
    speed = _scale(float(a[1]), MIN_SPEED_FRACTION * session.max_speed, session.max_speed)
    if spec.tip_height:
        side, height = TIP_FRACTION * float(a[2]), TIP_FRACTION * float(a[3])
    else:
        side, height = float(a[2]), 0.0
    if session.placement() is not None:
        pos = placement_spot(session, float(a[-2]), float(a[-1]))
    else:
        pos = session.struck_position()
    shot = session.shot_action(pos, angle, speed, side, height)
    if spec.game == "14.1":  # the call: the computer player's (the aimed ball, its pocket)
        from cuesim.viewer import ai

        shot["declaration"] = ai.declaration_for(session, shot)
    return shot
