"""Object-object contact time: |d(tau)| = R_i + R_j with d = p_j - p_i.

Both moving: quartic |d0 + dv tau + da tau^2/2|^2 - R^2 = 0. One at rest and the other on a
straight path: quadratic in the mover's arc length. Cheap culling first: no contact is
possible when the gap exceeds the distance both can still travel, or when a bound of their
relative path stays clear. The culls look only as far as the pair's horizon, the earlier of
the two pieces' next changes of motion (`predict.until`), when the pair is predicted again
anyway: a contact after it is culled, one before it is the root on the whole segments. The
event loop first compares the boxes the two paths sweep until then (`predict.pair_in_view`).

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
from cuesim.sim.motion.dispatch import contact_distance, interacts
from cuesim.sim.motion.segment import position, reach, velocity
from cuesim.sim.roots import INF, descent, first_piece_end, poly
from cuesim.sim.state import AX, AY, LIN, ON, TEND


@njit_norc
def pair_time(S: np.ndarray, P: np.ndarray, i: int, j: int, t: float,
              until: float = INF) -> float:
    """Absolute time of the next contact of i and j after t (t itself for a contact now).

    `until`: a time by which i or j changes its motion (and the pair is predicted again), so
    a pair that cannot meet before it may be culled (INF) however it would meet later; every
    time returned is the one the whole segment gives."""
    if S[i, ON] == 0.0 or S[j, ON] == 0.0 or not interacts(S, P, i, j):
        return INF
    ti, tj = S[i, TEND], S[j, TEND]
    if ti == INF and tj == INF:
        return INF
    h = min(ti, tj) - t
    hc = min(h, until - t) if until >= t else h  # the culling horizon
    pix, piy = position(S, i, t)
    pjx, pjy = position(S, j, t)
    dx, dy = pjx - pix, pjy - piy
    rs = contact_distance(P, i, j)
    dd = dx * dx + dy * dy
    if hc >= 0.0:  # first without square roots: a pair the exact reach test below culls too
        b = rs + 1e-9 + _reach_l1(S, i, t, hc) + _reach_l1(S, j, t, hc)
        if dd > b * b:
            return INF
    dist = math.sqrt(dd)
    gap = dist - rs
    hr = hc if gap > TOUCH else h  # a touching pair's contact now is never culled
    if gap > reach(S, i, t, hr) + reach(S, j, t, hr):
        return INF
    vix, viy = velocity(S, i, t)
    vjx, vjy = velocity(S, j, t)
    dvx, dvy = vjx - vix, vjy - viy
    dax, day = S[j, AX] - S[i, AX], S[j, AY] - S[i, AY]
    c0 = gap * (dist + rs)
    skip = 0
    if gap > TOUCH and _apart(dx, dy, dvx, dvy, dax, day, rs, hc):
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
        # the quartic's roots are dear: first the closer bounds over the horizon
        if skip == 0 and _apart_pieces(dx, dy, dvx, dvy, dax, day, rs, hc):
            return INF
        if skip == 1 and _opening(dx, dy, dvx, dvy, dax, day, dist, rs, hc):
            return INF
        # touching: the next approach, or a contact that barely opens (or not at all) and
        # then sinks, caught TOUCH deep: f = (rs - TOUCH)^2 - rs^2
        a, _ = _quartic(c0, dx, dy, dvx, dvy, dax, day, h, skip,
                        skip * TOUCH * (2.0 * rs - TOUCH))
    if a == INF:
        return INF
    return t + a


@njit_norc
def _reach_l1(S: np.ndarray, i: int, t: float, h: float) -> float:
    """`reach` bounded from above without a square root (h >= 0): |v| <= |vx| + |vy|, and a
    straight decelerating path travels at most |v| h."""
    vx, vy = velocity(S, i, t)
    return (abs(vx) + abs(vy)) * h + 0.5 * (abs(S[i, AX]) + abs(S[i, AY])) * h * h + 1e-12


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
def _apart_pieces(dx: float, dy: float, dvx: float, dvy: float, dax: float, day: float,
                  rs: float, h: float) -> bool:
    """`_apart` on each quarter of [0, h] from the relative state at its start: the
    acceleration's term is 16 times smaller. Only culls."""
    q = 0.25 * h
    for k in range(4):
        s = k * q
        if not _apart(dx + s * (dvx + 0.5 * s * dax), dy + s * (dvy + 0.5 * s * day),
                      dvx + s * dax, dvy + s * day, dax, day, rs, q):
            return False
    return True


@njit_norc
def _opening(dx: float, dy: float, dvx: float, dvy: float, dax: float, day: float,
             dist: float, rs: float, h: float) -> bool:
    """A touching pair (gap > -TOUCH) that opens faster than its relative acceleration can
    turn it over [0, h] has no next approach there and never sinks: along n = d / |d| the
    separation d . n >= |d| + tau (v_open - |da| h / 2) grows, so f = |d|^2 - rs^2 only rises
    above f(0) > -band, and with an overlap (gap < 0) it is back to zero by tau_z = -gap / m,
    while f' = 2 d . d' >= 2 (d0 . dv - tau |d0| |da| - 3/2 tau^2 |dv| |da|) is still
    positive (its first monotone piece has not ended). Only culls."""
    gap = dist - rs
    if not gap > -TOUCH:
        return False
    dd = dx * dvx + dy * dvy  # d0 . dv
    v2 = dvx * dvx + dvy * dvy
    a = math.sqrt(dax * dax + day * day)
    m = dd / dist - 0.5 * a * h  # the opening speed less the acceleration's turn
    if not m > 1e-9 * (1.0 + math.sqrt(v2)):
        return False
    if gap >= 0.0:
        return True
    tz = -gap / m
    return dd - tz * dist * a - 1.5 * tz * tz * math.sqrt(v2) * a > 0.0


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
    further presses nothing. Its normal speed (under V_TOUCH: resting, `pair_time`) is taken as
    none: its sign is round-off's. Taken as it was, a pair left by a plastic impact parting at
    1.4e-17 m/s, pressed at 2.2 m/s^2, had a rising first piece of 6e-18 s, so it was not
    pressed, opened, and was caught TOUCH deep 31 us later, while its mirror image closing at
    1.4e-17 m/s was pressed now: the sliding pair's bounces ran 27 us apart and the two images
    rested 3.3 mm apart (bench/tunnels.py 9-ball 8800039, random physics)."""
    c1 = 0.0
    c2 = dvx * dvx + dvy * dvy + dx * dax + dy * day
    c3 = dvx * dax + dvy * day
    c4 = 0.25 * (dax * dax + day * day)
    q = first_piece_end(c1, c2, c3, c4, h)
    return poly(c0, c1, c2, c3, c4, q) < min(c0, 0.0) - 2.0 * rs * TOUCH
