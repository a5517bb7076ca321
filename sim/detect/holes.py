"""Fixed circles: capture when the centre enters a hole circle or crosses a pocket's fall
line, and contact with a pocket jaw's rounded knuckle."""

from __future__ import annotations

import math

import numpy as np

from cuesim.sim.compiled import njit_norc
from cuesim.sim.detect import GRAZE, TOUCH, V_TOUCH
from cuesim.sim.detect.paths import circle_contact, circle_crossing, tau_of_s
from cuesim.sim.detect.rails import off_line, path_line
from cuesim.sim.motion.segment import travel_bound
from cuesim.sim.roots import INF, first_descent


@njit_norc
def fall_time(px: float, py: float, vx: float, vy: float, ax: float, ay: float, reach: float,
              h: float, x0: float, y0: float, x1: float, y1: float, nx: float, ny: float
              ) -> float:
    """First tau in [0, h] at which the centre is on or past the fall line (x0, y0)-(x1, y1)
    whose inward normal is n: g(tau) = n . (p(tau) - q0) = g0 + (n . v) tau + (n . a) tau^2 / 2
    falls from > 0 to <= 0 (a quadratic: exact), at a point between the segment's ends; 0 when
    the centre already is on or past it; inf if none. The ends lie on the jaw faces, which a
    centre never comes nearer than a ball radius, so the end check never decides a capture."""
    g0 = nx * (px - x0) + ny * (py - y0)
    if g0 > reach:
        return INF
    ex, ey = x1 - x0, y1 - y0
    if g0 <= 0.0:
        tau = 0.0
    else:
        _, tau = first_descent(g0, nx * vx + ny * vy, 0.5 * (nx * ax + ny * ay), 0.0, 0.0, h)
        if tau == INF:
            return INF
    cx = px + tau * (vx + 0.5 * tau * ax)
    cy = py + tau * (vy + 0.5 * tau * ay)
    along = (cx - x0) * ex + (cy - y0) * ey
    if 0.0 <= along <= ex * ex + ey * ey:
        return tau
    return INF


@njit_norc
def hole_time(px: float, py: float, vx: float, vy: float, ax: float, ay: float, lin: bool,
              reach: float, h: float, holes: np.ndarray) -> tuple[float, int]:
    """(tau, hole index) of the first capture within [0, h]; (inf, -1) if none. A hole row
    (`TableGeometry.hole_array`) with a fall line captures when the centre crosses it
    (`fall_time`), one without when the centre enters its circle; a straight path (lin) whose
    line passes within GRAZE of that circle's edge, inside or out, grazes it, and is captured
    where it passes nearest the centre (`graze_time`: a puck frozen to a rail runs exactly
    tangent to a novus corner hole; its centre over the hole's edge, it drops in, as the soft
    reference's does)."""
    best, kb = INF, -1
    speed, accel = math.sqrt(vx * vx + vy * vy), math.sqrt(ax * ax + ay * ay)
    ux, uy, bend = path_line(vx, vy, ax, ay, lin, h)
    for k in range(holes.shape[0]):
        # a path that passes the capture's circle (the hole's, or the one around its fall
        # line) by more than its radius (plus the path's bend and GRAZE) never captures
        # there, unless the centre is already past the fall line (captured now: fall_time's
        # tau = 0)
        off = off_line(px, py, ux, uy, holes[k, 10], holes[k, 11], holes[k, 12] + bend + GRAZE)
        if holes[k, 3] != 0.0:
            if off and holes[k, 8] * (px - holes[k, 4]) + holes[k, 9] * (py - holes[k, 5]) > 0.0:
                continue
            tau = fall_time(px, py, vx, vy, ax, ay, reach, h, holes[k, 4], holes[k, 5],
                            holes[k, 6], holes[k, 7], holes[k, 8], holes[k, 9])
        else:
            cx, cy, rad = holes[k, 0], holes[k, 1], holes[k, 2]
            if off or math.sqrt((px - cx) ** 2 + (py - cy) ** 2) - rad > reach:
                continue
            if lin and abs(abs((cx - px) * uy - (cy - py) * ux) - rad) <= GRAZE:
                tau = graze_time(px, py, vx, vy, ax, ay, cx, cy, h)
            else:
                _, tau = circle_crossing(px, py, vx, vy, ax, ay, lin, cx, cy, rad, 1.0, h, 0,
                                         0.0)
        if tau < best:
            best, kb = tau, k
            reach = min(reach, travel_bound(speed, accel, tau))
    return best, kb


@njit_norc
def graze_time(px: float, py: float, vx: float, vy: float, ax: float, ay: float, cx: float,
               cy: float, h: float) -> float:
    """tau in [0, h] at which a straight path (deceleration |a| along it) that grazes a hole's
    circle passes nearest its centre c, its centre over the hole's edge: s = (c - p) . v/|v|
    along the path; inf when that point is behind the piece or beyond where it stops or the
    horizon ends. Where it is within GRAZE of the edge, inside or out, does not matter."""
    speed, k = math.sqrt(vx * vx + vy * vy), math.sqrt(ax * ax + ay * ay)
    s = ((cx - px) * vx + (cy - py) * vy) / speed
    s_max = speed * h - 0.5 * k * h * h
    if k > 0.0:
        s_max = min(s_max, speed * speed / (2.0 * k))
    if s < 0.0 or s > s_max:
        return INF
    return min(tau_of_s(s, speed, k), h)


@njit_norc
def knuckle_time(px: float, py: float, vx: float, vy: float, ax: float, ay: float, lin: bool,
                 r: float, reach: float, h: float, knuckles: np.ndarray) -> tuple[float, int]:
    """(tau, knuckle index) of the first contact with a jaw knuckle (a fixed circle: the
    centre reaches distance r + r_k); (inf, -1) if none. A ball touching a knuckle and leaving
    it keeps the knuckle in view: its next approach in the segment (a spinning ball curving
    back) is predicted like any other (paths.circle_contact)."""
    best, kb = INF, -1
    speed, accel = math.sqrt(vx * vx + vy * vy), math.sqrt(ax * ax + ay * ay)
    ux, uy, bend = path_line(vx, vy, ax, ay, lin, h)
    for k in range(knuckles.shape[0]):
        cx, cy, rad = knuckles[k, 0], knuckles[k, 1], knuckles[k, 2] + r
        if math.sqrt((px - cx) ** 2 + (py - cy) ** 2) - rad > reach:
            continue
        if off_line(px, py, ux, uy, cx, cy, rad + bend):
            continue
        tau = circle_contact(px, py, vx, vy, ax, ay, lin, cx, cy, rad, h, TOUCH, V_TOUCH)
        if tau < best:
            best, kb = tau, k
            reach = min(reach, travel_bound(speed, accel, tau))
    return best, kb
