"""Object-rail contact: the centre reaches distance R from the rail's face,
g(tau) = n . (p(tau) - q0) - R = 0, a quadratic in time, at a point within the segment.

Every root is found in time order whatever the starting state:
- a centre within the rail's extent and at most TOUCH in front of its face or behind it is
  touching: an approach faster than V_TOUCH is a contact now, so is a resting contact that is
  pressed (left alone it would sink deeper than TOUCH before its motion turns, while its centre
  is still on the face: `pressed_on_face`); otherwise
  the next approach after the first monotone piece of g, with g's true value, or the moment
  it would sink half a touch deep (a contact that opens by less than the tolerance and
  closes again; caught there, it is still touching after the catch), whichever comes
  first; a centre deeper behind the face (a state no shot reaches) keeps its true gap too;
- a centre outside the extent keeps its true gap: one beyond the face's infinite line (in a
  pocket mouth, past the cushion's end) reaches the face only after it has come back in
  front of it (first_descent skips a piece that starts at or below zero), never "from zero".
The contact point must lie on the segment. A segment's bare end (one that joins no knuckle
and no other rail) would be a contact of its own; the tables have none a piece can reach
without first entering a pocket's capture circle (the jaws' deep ends), so none is modelled.
"""

from __future__ import annotations

import math

import numpy as np

from cuesim.sim.compiled import njit_norc
from cuesim.sim.detect import TOUCH, V_TOUCH
from cuesim.sim.motion.segment import travel_bound
from cuesim.sim.roots import INF, descent, first_descent, first_piece_end

EXTENT_TOL = 1e-9  # m: a contact point this far past a segment's end still lies on it


@njit_norc
def face_time(g0: float, g1: float, g2: float, on_face: bool, h: float) -> float:
    """Time in [0, h] of the next contact of g(tau) = g0 + g1 tau + g2 tau^2 with zero from
    the front (see the module docstring); on_face: the centre lies within the extent now."""
    if on_face and -TOUCH <= g0 <= TOUCH:
        if -g1 > V_TOUCH:
            return 0.0
        if g1 <= V_TOUCH:  # resting: pressed? (its normal speed taken as none, as
            # detect.pairs._pressing has it: the sign of a round-off speed must not decide)
            q = first_piece_end(0.0, g2, 0.0, 0.0, h)
            if g0 + q * q * g2 < -TOUCH:
                return 0.0
        # the next approach, or a contact that barely opens (or not at all) and then sinks,
        # caught half a touch deep (so that it is still touching once caught)
        tau, _ = descent(g0, g1, g2, 0.0, 0.0, h, 1, 0.5 * TOUCH)
        return tau
    tau, _ = first_descent(g0, g1, g2, 0.0, 0.0, h)
    return tau


@njit_norc
def pressed_on_face(g0: float, g1: float, g2: float, a0: float, a1: float, a2: float,
                    length: float, h: float) -> bool:
    """Whether a resting contact that `face_time` finds pressed sinks deeper than TOUCH while
    its centre is still on the face: g = g0 + g1 tau + g2 tau^2 below -TOUCH by the end of its
    first monotone piece or the moment the foot a0 + a1 tau + a2 tau^2 leaves the extent
    [-EXTENT_TOL, length + EXTENT_TOL], whichever comes first. Beyond the face the rail is not
    met at all: a ball rolling along a cushion at 9.7 m/s, its velocity 1.4e-13 m/s into it
    (the rounding of an impact resolved along the contact's own normal, 1.4e-14 rad off the
    face's), was pressed by its sink 1.2 nm deep at its segment's end 16,894 s (160 km) on,
    found due again and again at one instant and resolved with nothing to do (bench/tunnels.py
    5-pins seed 983475, random physics)."""
    q = first_piece_end(0.0, g2, 0.0, 0.0, h)  # a resting normal speed taken as none
    leave_far, _ = first_descent(length + EXTENT_TOL - a0, -a1, -a2, 0.0, 0.0, q)
    leave_near, _ = first_descent(a0 + EXTENT_TOL, a1, a2, 0.0, 0.0, q)
    q = min(q, leave_far, leave_near)
    return g0 + q * q * g2 < -TOUCH


@njit_norc
def path_line(vx: float, vy: float, ax: float, ay: float, lin: bool, h: float
              ) -> tuple[float, float, float]:
    """(ux, uy, bend): the unit vector along v and how far the path p + v tau + a tau^2/2 can
    stray from the straight line through p along it over [0, h]: 0 on a straight path (lin),
    otherwise at most |a| h^2 / 2 (the part of a tau^2/2 across the line). (0, 0, 0) at rest."""
    speed = math.sqrt(vx * vx + vy * vy)
    if speed == 0.0:
        return 0.0, 0.0, 0.0
    bend = 0.0 if lin else 0.5 * math.sqrt(ax * ax + ay * ay) * h * h
    return vx / speed, vy / speed, bend


@njit_norc
def off_line(px: float, py: float, ux: float, uy: float, cx: float, cy: float,
             rad: float) -> bool:
    """Whether the point c lies farther than rad (+ TOUCH + 1e-9 for the touching cases and
    rounding) from the line through p along the unit vector u; never for u = 0 (at rest). With
    rad a feature's reach plus the path's bend (`path_line`), a feature so far from the line
    is never met within the horizon and is skipped before any root is sought."""
    if ux == 0.0 and uy == 0.0:
        return False
    return abs((cx - px) * uy - (cy - py) * ux) > rad + TOUCH + 1e-9


@njit_norc
def rail_time(px: float, py: float, vx: float, vy: float, ax: float, ay: float, r: float,
              reach: float, h: float, rails: np.ndarray, lin: bool = False) -> tuple[float, int]:
    """(tau, rail index) of the first rail contact within [0, h]; (inf, -1) if none. A rail
    whose segment lies farther from the path's line than its half length plus r plus the
    path's bend (`path_line`; lin: the path is straight) cannot be met and is skipped before
    any root is sought."""
    best, kb = INF, -1
    speed, accel = math.sqrt(vx * vx + vy * vy), math.sqrt(ax * ax + ay * ay)
    ux, uy, bend = path_line(vx, vy, ax, ay, lin, h)
    for k in range(rails.shape[0]):
        x0, y0, x1, y1, nx, ny = (rails[k, 0], rails[k, 1], rails[k, 2], rails[k, 3],
                                  rails[k, 4], rails[k, 5])
        g0 = nx * (px - x0) + ny * (py - y0) - r
        if g0 > reach:
            continue
        g1, g2 = nx * vx + ny * vy, 0.5 * (nx * ax + ny * ay)
        if g0 > TOUCH and g1 >= 0.0 and g2 >= 0.0:
            continue  # in front of the face and never nearing it: g only grows
        if off_line(px, py, ux, uy, rails[k, 7], rails[k, 8], 0.5 * rails[k, 6] + r + bend):
            continue
        ex, ey = x1 - x0, y1 - y0
        length = rails[k, 6]
        along0 = ((px - x0) * ex + (py - y0) * ey) / length
        on_face = -EXTENT_TOL <= along0 <= length + EXTENT_TOL
        tau = face_time(g0, g1, g2, on_face, h)
        if tau == 0.0 and on_face and -TOUCH <= g0 <= TOUCH and -V_TOUCH <= g1 <= V_TOUCH and not \
                pressed_on_face(g0, g1, g2, along0, (ex * vx + ey * vy) / length,
                                0.5 * (ex * ax + ey * ay) / length, length, h):
            tau, _ = descent(g0, g1, g2, 0.0, 0.0, h, 1, 0.5 * TOUCH)  # face_time, not pressed
        if tau >= best:
            continue
        # the contact point must lie within the rail's extent
        cx = px + tau * (vx + 0.5 * tau * ax)
        cy = py + tau * (vy + 0.5 * tau * ay)
        along = ((cx - x0) * ex + (cy - y0) * ey) / length
        if -EXTENT_TOL <= along <= length + EXTENT_TOL:
            best, kb = tau, k
            reach = min(reach, travel_bound(speed, accel, tau))
    return best, kb
