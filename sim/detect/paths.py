"""Crossing times of one object's path with a fixed circle (holes, sensor circles, knuckles,
resting pieces): quadratic in the arc length on a straight decelerating path, quartic in time
otherwise."""

from __future__ import annotations

import math

from cuesim.sim.compiled import njit_norc
from cuesim.sim.roots import INF, descent, first_piece_end, poly


@njit_norc
def tau_of_s(s: float, speed: float, k: float) -> float:
    """Time to cover arc length s at initial speed v and deceleration k:
    s = v tau - k tau^2 / 2  =>  tau = 2 s / (v + sqrt(v^2 - 2 k s))."""
    disc = speed * speed - 2.0 * k * s
    return 2.0 * s / (speed + math.sqrt(disc if disc > 0.0 else 0.0))


@njit_norc
def circle_crossing(px: float, py: float, vx: float, vy: float, ax: float, ay: float,
                    lin: bool, cx: float, cy: float, rad: float, sign: float, h: float,
                    skip: int = 0, band: float = 0.0) -> tuple[float, float]:
    """First crossing in [0, h] of the point p + v tau + a tau^2/2 with the circle (c, rad):
    sign = +1 finds the entry (|p-c|^2 - rad^2 falling through 0), -1 the exit; skip = 1
    passes over the first monotone piece and band > 0 also stops where f falls through -band
    (a touching contact's next approach or its sinking, see roots.descent). Returns the
    bracket (tau_a, tau_b) around the crossing, or (inf, inf)."""
    dx, dy = px - cx, py - cy
    f0 = sign * ((math.sqrt(dx * dx + dy * dy) - rad) * (math.sqrt(dx * dx + dy * dy) + rad))
    speed = math.sqrt(vx * vx + vy * vy)
    if speed == 0.0:
        return INF, INF
    if lin:
        k = math.sqrt(ax * ax + ay * ay)
        ux, uy = vx / speed, vy / speed
        s_max = speed * h - 0.5 * k * h * h
        if k > 0.0:
            s_max = min(s_max, speed * speed / (2.0 * k))
        a, b = descent(f0, sign * 2.0 * (dx * ux + dy * uy), sign, 0.0, 0.0, s_max, skip,
                       band)
        if a == INF:
            return INF, INF
        return tau_of_s(a, speed, k), min(tau_of_s(b, speed, k), h)
    c1 = 2.0 * (dx * vx + dy * vy)
    c2 = vx * vx + vy * vy + dx * ax + dy * ay
    c3 = vx * ax + vy * ay
    c4 = 0.25 * (ax * ax + ay * ay)
    return descent(f0, sign * c1, sign * c2, sign * c3, sign * c4, h, skip, band)


@njit_norc
def circle_contact(px: float, py: float, vx: float, vy: float, ax: float, ay: float,
                   lin: bool, cx: float, cy: float, rad: float, h: float, touch: float,
                   v_touch: float) -> float:
    """Time in [0, h] of the next contact of a point moving from outside into a fixed circle
    (a centre reaching distance rad), whatever the start: 0 when it touches now
    (|gap| <= touch) and approaches faster than v_touch, or rests but is pressed (left alone,
    it would sink deeper than `touch` before its motion turns); otherwise, for a touching
    point, the next approach after the first monotone piece of f = |p - c|^2 - rad^2 (never
    predicted from zero: f keeps its true value) or the moment it would sink half a touch
    deep (so it still touches once caught), whichever comes first; for a free point the
    first entry. inf: none."""
    dx, dy = px - cx, py - cy
    d = math.sqrt(dx * dx + dy * dy)
    if abs(d - rad) > touch:  # free (or deeper inside than a touch: its true gap)
        tau, _ = circle_crossing(px, py, vx, vy, ax, ay, lin, cx, cy, rad, 1.0, h, 0, 0.0)
        return tau
    vn = -(dx * vx + dy * vy) / d if d > 0.0 else 0.0  # approach speed
    if vn > v_touch:
        return 0.0
    if vn >= -v_touch:  # resting: pressed?
        c1 = 2.0 * (dx * vx + dy * vy)
        c2 = vx * vx + vy * vy + dx * ax + dy * ay
        c3 = vx * ax + vy * ay
        c4 = 0.25 * (ax * ax + ay * ay)
        f0 = (d - rad) * (d + rad)
        q = first_piece_end(c1, c2, c3, c4, h)
        if poly(f0, c1, c2, c3, c4, q) < -2.0 * rad * touch:
            return 0.0
    # the next approach, or a contact that barely opens (or not at all) and then sinks,
    # caught half a touch deep (still touching once caught): f = (rad - touch/2)^2 - rad^2
    tau, _ = circle_crossing(px, py, vx, vy, ax, ay, lin, cx, cy, rad, 1.0, h, 1,
                             0.5 * touch * (2.0 * rad - 0.5 * touch))
    return tau
