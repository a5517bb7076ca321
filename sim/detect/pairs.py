"""Object-object contact time: |d(tau)| = R_i + R_j with d = p_j - p_i.

Both moving: quartic |d0 + dv tau + da tau^2/2|^2 - R^2 = 0. One at rest and the other on a
straight path: quadratic in the mover's arc length. Cheap culling first: no contact is
possible when the gap exceeds the distance both can still travel.

Touching pairs (gap <= TOUCH): an approach faster than V_TOUCH is a contact now, so is a
pressed resting contact; a separating or resting one keeps its next approach in view (paths
that curve back within the segment): the first descent after the first monotone piece of f,
from the true gap (never from zero), or the moment the pair would overlap deeper than TOUCH,
whichever comes first.
"""

from __future__ import annotations

import math

import numpy as np

from cuesim.sim.compiled import njit_norc
from cuesim.sim.detect import TOUCH, V_TOUCH
from cuesim.sim.detect.paths import circle_crossing
from cuesim.sim.motion.dispatch import contact_radius, interacts
from cuesim.sim.motion.segment import position, reach, velocity
from cuesim.sim.roots import INF, descent, first_piece_end, poly
from cuesim.sim.state import AX, AY, LIN, ON, TEND


@njit_norc
def pair_time(S: np.ndarray, P: np.ndarray, i: int, j: int, t: float) -> float:
    """Absolute time of the next contact of i and j after t (t itself for a contact now)."""
    if S[i, ON] == 0.0 or S[j, ON] == 0.0 or not interacts(S, P, i, j):
        return INF
    ti, tj = S[i, TEND], S[j, TEND]
    if ti == INF and tj == INF:
        return INF
    h = min(ti, tj) - t
    pix, piy = position(S, i, t)
    pjx, pjy = position(S, j, t)
    dx, dy = pjx - pix, pjy - piy
    rs = contact_radius(S, P, i) + contact_radius(S, P, j)
    dist = math.sqrt(dx * dx + dy * dy)
    gap = dist - rs
    if gap > reach(S, i, t, h) + reach(S, j, t, h):
        return INF
    vix, viy = velocity(S, i, t)
    vjx, vjy = velocity(S, j, t)
    dvx, dvy = vjx - vix, vjy - viy
    dax, day = S[j, AX] - S[i, AX], S[j, AY] - S[i, AY]
    c0 = gap * (dist + rs)
    skip = 0
    if gap > TOUCH and _apart(dx, dy, dvx, dvy, dax, day, rs, h):
        return INF
    if gap <= TOUCH:
        vn = -(dx * dvx + dy * dvy) / dist  # approach speed
        if vn > V_TOUCH:
            return t
        if vn >= -V_TOUCH and _pressing(c0, dx, dy, dvx, dvy, dax, day, rs, h):
            return t
        # resting or separating contact: the next approach, after the first monotone piece
        # (the paths may curve back within the segment), from the true gap
        skip = 1
    if skip == 0 and ti == INF and S[j, LIN] != 0.0:  # i rests: j on a straight path
        a, _ = circle_crossing(pjx, pjy, vjx, vjy, S[j, AX], S[j, AY], True, pix, piy, rs, 1.0,
                               h, 0, 0.0)
    elif skip == 0 and tj == INF and S[i, LIN] != 0.0:  # j rests: i on a straight path
        a, _ = circle_crossing(pix, piy, vix, viy, S[i, AX], S[i, AY], True, pjx, pjy, rs, 1.0,
                               h, 0, 0.0)
    else:
        # touching: the next approach, or a contact that barely opens (or not at all) and
        # then sinks, caught TOUCH deep: f = (rs - TOUCH)^2 - rs^2
        a, _ = _quartic(c0, dx, dy, dvx, dvy, dax, day, h, skip,
                        skip * TOUCH * (2.0 * rs - TOUCH))
    if a == INF:
        return INF
    return t + a


@njit_norc
def _apart(dx: float, dy: float, dvx: float, dvy: float, dax: float, day: float, rs: float,
           h: float) -> bool:
    """The pair stays more than rs (+1e-9) apart over [0, h]: |d0 + dv tau + da tau^2/2| >=
    min over [0, h] of |d0 + dv tau| (closed form) - |da| h^2 / 2. Only culls: a pair that can
    meet is never skipped."""
    vv = dvx * dvx + dvy * dvy
    tc = 0.0
    if vv > 0.0:
        tc = min(max(-(dx * dvx + dy * dvy) / vv, 0.0), h)
    mx, my = dx + dvx * tc, dy + dvy * tc
    return math.sqrt(mx * mx + my * my) - 0.5 * math.sqrt(dax * dax + day * day) * h * h > rs + 1e-9


@njit_norc
def _quartic(c0: float, dx: float, dy: float, dvx: float, dvy: float, dax: float, day: float,
             h: float, skip: int, band: float) -> tuple[float, float]:
    """Descent of |d0 + dv tau + da tau^2/2|^2 - R^2, whose constant term is c0: the first
    (skip = 0), or for a touching pair (skip = 1) the first after its first monotone piece
    or through -band, whichever comes first (roots.descent)."""
    c1 = 2.0 * (dx * dvx + dy * dvy)
    c2 = dvx * dvx + dvy * dvy + dx * dax + dy * day
    c3 = dvx * dax + dvy * day
    c4 = 0.25 * (dax * dax + day * day)
    return descent(c0, c1, c2, c3, c4, h, skip, band)


@njit_norc
def _pressing(c0: float, dx: float, dy: float, dvx: float, dvy: float, dax: float, day: float,
              rs: float, h: float) -> bool:
    """A resting contact is pressed when, left alone, the pieces would overlap by more than
    TOUCH beyond their present overlap (if any) before their relative motion turns (the end of
    the first monotone piece of f): a pair already sunk deeper than TOUCH and not sinking
    further presses nothing."""
    c1 = 2.0 * (dx * dvx + dy * dvy)
    c2 = dvx * dvx + dvy * dvy + dx * dax + dy * day
    c3 = dvx * dax + dvy * day
    c4 = 0.25 * (dax * dax + day * day)
    q = first_piece_end(c1, c2, c3, c4, h)
    return poly(c0, c1, c2, c3, c4, q) < min(c0, 0.0) - 2.0 * rs * TOUCH
