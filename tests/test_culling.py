"""Culling in detection changes no result (issue 16): the closest-approach bound that lets
detect.pairs skip a pair (`_apart`) never skips a pair that comes within contact distance in
its segment; a root's bracket is still tight and valid."""

from __future__ import annotations

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from cuesim.sim.detect.pairs import _apart, pair_time
from cuesim.sim.roots import INF, bracket_root, poly
from cuesim.sim.state import AX, AY, LAW, LAW_BALL, NP, NS, ON, TEND, VX, VY, R, X, Y
from tests.profiles import examples

RB = 0.028575
coord = st.floats(0.0, 1.0)
speed = st.floats(-3.0, 3.0)
accel = st.floats(-2.0, 2.0)


def _state(p0, v0, a0, p1, v1, a1, rest1: bool) -> tuple[np.ndarray, np.ndarray]:
    S = np.zeros((2, NS))
    P = np.zeros((2, NP))
    P[:, R] = RB
    P[:, LAW] = LAW_BALL
    S[:, ON] = 1.0
    for k, (p, v, a) in enumerate(((p0, v0, a0), (p1, v1, a1))):
        S[k, X], S[k, Y] = p
        S[k, VX], S[k, VY] = v
        S[k, AX], S[k, AY] = a
        S[k, TEND] = 2.0
    if rest1:
        S[1, VX] = S[1, VY] = S[1, AX] = S[1, AY] = 0.0
        S[1, TEND] = INF
    return S, P


@given(p0=st.tuples(coord, coord), v0=st.tuples(speed, speed), a0=st.tuples(accel, accel),
       p1=st.tuples(coord, coord), v1=st.tuples(speed, speed), a1=st.tuples(accel, accel),
       rest1=st.booleans())
@settings(max_examples=examples(400), deadline=None)
def test_a_pair_skipped_as_apart_never_comes_within_contact(p0, v0, a0, p1, v1, a1, rest1):
    """Whenever `_apart` says the pair stays apart over its segment, the exact relative path
    sampled densely never comes within the contact distance, and pair_time finds no contact."""
    assume(np.hypot(p1[0] - p0[0], p1[1] - p0[1]) > 2 * RB)  # pieces apart at the start
    S, P = _state(p0, v0, a0, p1, v1, a1, rest1)
    h = min(S[0, TEND], S[1, TEND])
    d0 = np.array(p1) - np.array(p0)
    dv = np.array([S[1, VX] - S[0, VX], S[1, VY] - S[0, VY]])
    da = np.array([S[1, AX] - S[0, AX], S[1, AY] - S[0, AY]])
    if not _apart(d0[0], d0[1], dv[0], dv[1], da[0], da[1], 2 * RB, h):
        return
    tau = np.linspace(0.0, h, 4001)[:, None]
    gap = np.hypot(*(d0 + dv * tau + 0.5 * da * tau**2).T) - 2 * RB
    assert gap.min() > 0.0
    assert pair_time(S, P, 0, 1, 0.0) == INF


@given(c=st.lists(st.floats(-5.0, 5.0), min_size=3, max_size=3), h=st.floats(1e-3, 10.0))
@settings(max_examples=examples(300), deadline=None)
def test_bracket_of_a_quadratic_root_is_valid_and_tight(c, h):
    """f(tau) = c0 + c1 tau + c2 tau^2 falling through zero on [0, h]: the bracket (a, b) has
    f(a) > 0 >= f(b) and a width at machine precision."""
    c0, c1, c2 = 1.0 + abs(c[0]), c[1], c[2]
    if poly(c0, c1, c2, 0.0, 0.0, h) > 0.0:
        return
    # monotone piece: up to the vertex if it lies inside
    hi = h
    if c2 != 0.0 and 0.0 < -c1 / (2 * c2) < h:
        vertex = -c1 / (2 * c2)
        if poly(c0, c1, c2, 0.0, 0.0, vertex) <= 0.0:
            hi = vertex
        else:
            return
    a, b = bracket_root(c0, c1, c2, 0.0, 0.0, 0.0, hi)
    assert poly(c0, c1, c2, 0.0, 0.0, a) > 0.0 >= poly(c0, c1, c2, 0.0, 0.0, b)
    assert b - a <= 2.5e-16 * max(1.0, abs(b))


# --- features off a path's line (detect.rails.off_line, path_line) --------------------------------
def _path(p, angle, v, a, a_angle, lin):
    """A piece's path: straight and decelerating (lin) or bent by any acceleration."""
    ux, uy = np.cos(angle), np.sin(angle)
    ax, ay = (-a * ux, -a * uy) if lin else (a * np.cos(a_angle), a * np.sin(a_angle))
    return p[0], p[1], v * ux, v * uy, ax, ay


def _samples(x, y, vx, vy, ax, ay, lin, h):
    """Points of the path over [0, h] (a straight one only until it stops)."""
    tau = np.linspace(0.0, h, 4001)
    if lin and ax * ax + ay * ay > 0.0:
        tau = np.minimum(tau, np.hypot(vx, vy) / np.hypot(ax, ay))
    return x + vx * tau + 0.5 * ax * tau**2, y + vy * tau + 0.5 * ay * tau**2


@given(p=st.tuples(st.floats(-0.1, 1.4), st.floats(-0.1, 2.7)), angle=st.floats(0.0, 6.3),
       v=st.floats(0.01, 8.0), a=st.floats(0.0, 5.0), a_angle=st.floats(0.0, 6.3),
       lin=st.booleans(), h=st.floats(0.01, 2.0))
@settings(max_examples=examples(300), deadline=None)
def test_a_feature_off_the_paths_line_is_never_met(p, angle, v, a, a_angle, lin, h):
    """Every rail, knuckle and pocket of the pool table that the off-line cull skips lies
    farther than its reach from every point of the path over the horizon (sampled), straight
    or bent: the cull skips nothing a detector could find."""
    from cuesim.sim.detect.rails import off_line, path_line
    from cuesim.tables import pool_table

    geo = pool_table().geometry
    x, y, vx, vy, ax, ay = _path(p, angle, v, a, a_angle, lin)
    ux, uy, bend = path_line(vx, vy, ax, ay, lin, h)
    qx, qy = _samples(x, y, vx, vy, ax, ay, lin, h)
    for x0, y0, x1, y1, _, _, length, mx, my in geo.rail_array():
        if off_line(x, y, ux, uy, mx, my, 0.5 * length + RB + bend):
            s = np.clip(((qx - x0) * (x1 - x0) + (qy - y0) * (y1 - y0)) / length**2, 0.0, 1.0)
            assert np.hypot(qx - x0 - s * (x1 - x0), qy - y0 - s * (y1 - y0)).min() > RB
    for cx, cy, rk in geo.knuckle_array():
        if off_line(x, y, ux, uy, cx, cy, rk + RB + bend):
            assert np.hypot(qx - cx, qy - cy).min() > rk + RB
    for row in geo.hole_array():
        if off_line(x, y, ux, uy, row[10], row[11], row[12] + bend):
            assert np.hypot(qx - row[10], qy - row[11]).min() > row[12]


@given(p=st.tuples(st.floats(-0.1, 1.4), st.floats(-0.1, 2.7)), angle=st.floats(0.0, 6.3),
       v=st.floats(0.01, 8.0), a=st.floats(0.0, 5.0), a_angle=st.floats(0.0, 6.3),
       lin=st.booleans(), h=st.floats(0.01, 2.0))
@settings(max_examples=examples(300), deadline=None)
def test_the_culled_detectors_find_what_each_feature_alone_gives(p, angle, v, a, a_angle, lin,
                                                                 h):
    """rail_time, knuckle_time and hole_time over the whole table give the earliest of what
    the same detector finds for each feature alone (the reach and off-line culls only skip)."""
    from cuesim.sim.detect.holes import hole_time, knuckle_time
    from cuesim.sim.detect.rails import rail_time
    from cuesim.tables import pool_table

    geo = pool_table().geometry
    path = _path(p, angle, v, a, a_angle, lin)
    def run(detect, rows):
        if detect is rail_time:
            return rail_time(*path, RB, 10.0, h, rows, lin)
        if detect is knuckle_time:
            return knuckle_time(*path, lin, RB, 10.0, h, rows)
        return hole_time(*path, lin, 10.0, h, rows)

    for detect, arr in ((rail_time, geo.rail_array()), (knuckle_time, geo.knuckle_array()),
                        (hole_time, geo.hole_array())):
        tau, k = run(detect, arr)
        alone = [run(detect, arr[q:q + 1])[0] for q in range(len(arr))]
        assert tau == min(alone) and (k < 0 or alone[k] == tau)
