"""Han's cushion impact below e = tan^2(theta) (resolve.ball_cushion.resolve_ball_cushion).

The impulse acts along the nose normal, theta above the horizontal; its downward part goes
into the slate. At restitutions below tan^2(theta) (0.079 on the pool table's nose) it leaves
the ball still moving into the cushion, at a fraction of its approach, so the ball meets the
nose again at once. Before, the loop logged that series as separate RAIL events at one
instant (`cuesim shoot 9-ball --speed 7 --physics e_cushion=0`: ball 8 at 3.44, 0.136, 0.017,
0.0021 m/s) and stopped it wherever its detection stopped seeing the last approach, a
threshold deciding the outcome. The series is now resolved in one event, at its limit."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cuesim import CueShot, simulate
from cuesim.api import start_layout
from cuesim.sim.engine import motion_input
from cuesim.sim.events import EventKind
from cuesim.sim.resolve import ball_cushion
from cuesim.sim.resolve.ball_cushion import _han_impulse, nose_restitution, resolve_ball_cushion
from cuesim.sim.soft import soft_simulate
from cuesim.sim.state import INERTIA, KIND, MP_NOSE, VX, VY, W0, WX, WY, M
from cuesim.tables import pool_table
from cuesim.tables.layout import Layout, Piece

TABLE = pool_table()
R = TABLE.piece_spec("ball").radius
SPINS = [0.0, -1.45 / R, 1.45 / R, -3.0 / R, 5.0 / R]


def _lone_ball(vy: float, wx: float, vx: float = 0.0, w0: float = 3.0):
    """The 1 ball touching the foot cushion (inward normal (0, -1)) moving (vx, vy) into it with
    spins wx and w0: S, P and the table's arrays."""
    inp = motion_input(TABLE, Layout(TABLE.name, [Piece("1", "ball", 0.6, TABLE.length - R)]),
                       {}, check=False)
    S = inp.S.copy()
    S[0, VX], S[0, VY], S[0, WX], S[0, W0] = vx, vy, wx, w0
    return S, inp.P, inp.arr


def _law(arr, P):  # noqa: ANN001, ANN202
    ka = int(P[0, KIND])
    return arr.mu_rail[ka], arr.model_params[MP_NOSE]


def _series(S: np.ndarray, P: np.ndarray, e: float, mu: float, nose: float, n: int = 400):
    """Han's law applied again and again in the cushion's frame (ex = (0, 1), ey = (-1, 0))
    while the ball still closes: (v_x, v_y, w_x, w_y, w_z) after, and how many impacts."""
    sin_t = (nose - R) / R
    cos_t = (1.0 - sin_t * sin_t) ** 0.5
    v = (S[0, VY], -S[0, VX], S[0, WY], -S[0, WX], S[0, W0])
    for k in range(1, n + 1):
        v = _han_impulse(*v, R, P[0, M], P[0, INERTIA], e, mu, sin_t, cos_t)
        if v[0] <= 0.0:
            return v, k
    return v, n


def test_the_pool_nose_repeats_below_tan2_theta():
    """The premise: on the pool table's nose tan^2(theta) = 0.079, and a frictionless ball
    that hits at e = 0.05 still moves in at (1 - 1.05 cos^2(theta)) of its approach."""
    S, P, arr = _lone_ball(1.45, 0.0)
    nose = _law(arr, P)[1]
    sin_t = (nose - R) / R
    assert sin_t * sin_t / (1.0 - sin_t * sin_t) == pytest.approx(0.0786, abs=1e-4)
    v, _ = _series(S, P, 0.05, 0.0, nose, n=1)
    assert v[0] == pytest.approx(1.45 * (1.0 - 1.05 * (1.0 - sin_t * sin_t)), rel=1e-12)
    assert nose_restitution(0.05, R, nose) == 0.0


@pytest.mark.parametrize("e", [0.0, 0.05])
@pytest.mark.parametrize("vx", [0.0, 0.7])
def test_frictionless_the_series_ends_the_normal_motion_and_nothing_else(e: float, vx: float):
    """Closed form: without friction every impulse of the series is along the nose normal, so
    its sum stops the ball's motion into the cushion (the series' limit, as sin^2n(theta)
    -> 0) and leaves its motion along the cushion and its spin as they were."""
    S, P, arr = _lone_ball(1.45, -1.0 / R, vx=vx)
    before = S.copy()
    speed = resolve_ball_cushion(S, P, 0, 0.0, -1.0, e, 0.0, _law(arr, P)[1])
    assert speed == 1.45
    assert S[0, VY] == 0.0
    assert S[0, VX] == pytest.approx(vx, abs=1e-15)
    for c in (WX, WY, W0):
        assert S[0, c] == pytest.approx(before[0, c], abs=1e-12)


@pytest.mark.parametrize("wx", SPINS)
@pytest.mark.parametrize("vx", [0.0, 0.5])
def test_with_friction_one_event_is_the_whole_series(wx: float, vx: float):
    """With the cushion's friction the series is geometric (each impact's impulses in
    proportion to its approach): one resolution leaves what the law applied 400 times over
    does, the motion into the cushion 0."""
    S, P, arr = _lone_ball(1.45, wx, vx=vx)
    mu, nose = _law(arr, P)
    (v_n, v_t, w_x, w_y, w_z), k = _series(S, P, 0.0, mu, nose)
    assert k > 64 and v_n < 1e-100  # hundreds of impacts before it leaves (at underflow)
    resolve_ball_cushion(S, P, 0, 0.0, -1.0, 0.0, mu, nose)
    assert S[0, VY] == 0.0
    for got, want in ((S[0, VX], -v_t), (S[0, WY], w_x), (S[0, WX], -w_y), (S[0, W0], w_z)):
        assert got == pytest.approx(want, rel=1e-13, abs=1e-13)


@pytest.mark.parametrize("wx", SPINS)
def test_a_ball_that_leaves_meets_the_law_once(wx: float):
    """At the table's own restitution the ball leaves after one impact, bit for bit what one
    application of Han's law gives."""
    S, P, arr = _lone_ball(1.45, wx, vx=0.3)
    mu, nose = _law(arr, P)
    e = arr.e_rail[int(P[0, KIND])]
    (v_n, v_t, w_x, w_y, w_z), k = _series(S, P, e, mu, nose, n=1)
    assert v_n < 0.0
    resolve_ball_cushion(S, P, 0, 0.0, -1.0, e, mu, nose)
    assert (S[0, VY], S[0, VX], S[0, WY], S[0, WX], S[0, W0]) == (v_n, -v_t, w_x, -w_y, w_z)


@pytest.mark.parametrize(("repeats", "atol"), [(6, 1e-3), (640, 1e-12)])
def test_max_repeats_is_not_physics(monkeypatch: pytest.MonkeyPatch, repeats: int, atol: float):
    """A threshold is not physics: ten times MAX_REPEATS (64) leaves the same ball to
    round-off, a tenth (6, which leaves 0.125^6 of the approach unresolved) within 1 mm/s and
    1 mrad/s (the interpreted function reads the module's constant at each call)."""
    results = []
    for n in (64, repeats):
        monkeypatch.setattr(ball_cushion, "MAX_REPEATS", n)
        S, P, arr = _lone_ball(1.45, 1.45 / R, vx=0.2)
        resolve_ball_cushion.py_func(S, P, 0, 0.0, -1.0, 0.0, *_law(arr, P))
        results.append(S[0, [VX, VY, WX, WY, W0]].copy())
    assert np.allclose(results[0], results[1], rtol=0.0, atol=atol)


def test_the_soft_reference_leaves_as_han_at_a_low_restitution():
    """The soft reference with the core's dissipation law (a ball free vertically while it
    presses the nose, as in Han's model) at e = 0.03 < tan^2(theta), a back-spinning ball whose
    friction at the nose turns it back on the first impact: it leaves as the binary impact
    says, within 0.1 mm/s. (Where the series goes on, the reference's ball keeps pressing the
    nose and sinks, having no slate under it while it presses: it cannot say there.)"""
    table = TABLE.with_physics(e_cushion=0.03)
    S, P, arr = _lone_ball(1.45, -1.45 / R, w0=0.0)
    inp = motion_input(table, Layout(table.name, [Piece("1", "ball", 0.6, table.length - R)]),
                       {}, check=False)
    resolve_ball_cushion(S, P, 0, 0.0, -1.0, 0.03, *_law(inp.arr, inp.P))
    assert S[0, VY] < -0.01
    soft = soft_simulate(table, Layout(table.name, [Piece("1", "ball", 0.6,
                                                          table.length - R - 0.01)]),
                         {"1": (0.0, 1.45, -1.45 / R, 0.0, 0.0)}, bed_friction=False,
                         t_max=0.03, dissipation="hysteretic")
    assert abs(soft.final_velocities[0, 1] - S[0, VY]) < 1e-4


def test_the_break_at_e_cushion_0_logs_one_rail_event_per_meeting():
    """`cuesim shoot 9-ball --speed 7 --physics e_cushion=0`, as the API plays it: every ball
    meets a cushion once per arrival (before: 3-4 RAIL events of one ball at one instant), and
    the shot rests."""
    table = TABLE.with_physics(e_cushion=0.0)
    res = simulate(table, start_layout("9-ball", table), CueShot(angle=math.pi / 2, speed=7.0))
    assert not res.truncated
    rails = [(ev.a, ev.feature, ev.t) for ev in res.events_of(EventKind.RAIL)]
    assert len(rails) >= 8
    assert len(set(rails)) == len(rails)


@settings(max_examples=300, deadline=None)
@given(vt=st.floats(-3.0, 3.0), vn=st.floats(1e-3, 5.0),
       spin=st.tuples(*[st.floats(-300.0, 300.0)] * 3),
       e=st.one_of(st.just(0.0), st.just(1.0), st.floats(0.0, 1.0)),
       mu=st.one_of(st.just(0.0), st.floats(0.0, 1.0), st.floats(0.0, 5.0)))
def test_property_a_cushion_impact_leaves_the_ball_out_and_never_adds_energy(
        vt: float, vn: float, spin: tuple[float, float, float], e: float, mu: float):
    """Any ball into the cushion at any restitution and friction: finite, its motion into the
    cushion ended (before, a third of such draws left it still closing), and no kinetic energy
    (translation and rotation) made."""
    S, P, arr = _lone_ball(vn, spin[0], vx=vt, w0=spin[2])
    S[0, WY] = spin[1]
    cols = [VX, VY, WX, WY, W0]

    def energy() -> float:
        return 0.5 * P[0, M] * (S[0, VX] ** 2 + S[0, VY] ** 2) \
            + 0.5 * P[0, INERTIA] * (S[0, WX] ** 2 + S[0, WY] ** 2 + S[0, W0] ** 2)

    before = energy()
    resolve_ball_cushion(S, P, 0, 0.0, -1.0, e, mu, _law(arr, P)[1])
    assert np.isfinite(S[0, cols]).all()
    assert S[0, VY] <= 0.0
    assert energy() <= before * (1.0 + 1e-12)
