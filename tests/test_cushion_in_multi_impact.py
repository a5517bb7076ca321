"""A ball's cushion contact inside a multiple impact follows Han's law, as the binary impact
and the soft reference do (resolve.ball_cushion, resolve.multi_impact): its horizontal
restitution is Han's normal at the nose, (1 + e) cos^2(theta) - 1, and its friction keeps the
direction of the slip it loads with, mu dP_N a step up to the impulse that stops that slip,
its part along the normal applied at the impact's end.

Before, a lone cushion contact in the multiple impact left a ball at 1.45 m/s with 1.195 m/s
instead of Han's 1.067 and the opposite spin, and a cue ball driving a ball frozen to the
cushion came back 64 cm farther than the soft reference says."""

from __future__ import annotations

import numpy as np
import pytest

from cuesim.sim import run_motion
from cuesim.sim.engine import motion_input
from cuesim.sim.resolve import multi_impact as mi
from cuesim.sim.resolve.ball_cushion import nose_restitution, resolve_ball_cushion
from cuesim.sim.soft import soft_simulate
from cuesim.sim.state import KIND, MP_NOSE, VX, VY, W0, WX, WY
from cuesim.tables import pool_table
from cuesim.tables.layout import Layout, Piece

TABLE = pool_table()
R = TABLE.piece_spec("ball").radius


def _lone_ball(vy: float, wx: float):
    """The 1 ball touching the foot cushion with velocity (0, vy) and spin wx: S, P and the
    arrays of the table."""
    inp = motion_input(TABLE, Layout(TABLE.name, [Piece("1", "ball", 0.6, TABLE.length - R)]),
                       {}, check=False)
    S = inp.S.copy()
    S[0, VY], S[0, WX] = vy, wx
    return S, inp.P, inp.arr


@pytest.mark.parametrize("wx", [0.0, -1.45 / R, 1.45 / R, -3.0 / R])
def test_a_lone_cushion_contact_in_the_multiple_impact_gives_hans_outcome(wx: float):
    """Sliding, rolling, back-spinning and over-spinning into the cushion at 1.45 m/s: the
    multiple impact of the one contact leaves the velocity within 1 mm/s and the spin within
    0.05 rad/s of Han's closed form."""
    S0, P, arr = _lone_ball(1.45, wx)
    ka, n_k = int(P[0, KIND]), arr.stiffness.shape[1]
    e, mu, nose = arr.e_rail[ka], arr.mu_rail[ka], arr.model_params[MP_NOSE]
    han = S0.copy()
    resolve_ball_cushion(han, P, 0, 0.0, -1.0, e, mu, nose)
    multi = S0.copy()
    mi.solve_multi_impact(multi, P, np.array([0]), np.array([-1]), np.array([0.0]),
                          np.array([1.0]), 1, np.array([nose_restitution(e, R, nose)]),
                          np.array([mu]), np.array([arr.stiffness[n_k, ka]]),
                          np.array([arr.exponent[n_k, ka]]), np.arange(1), 1,
                          arr.model_params, np.zeros(1), np.zeros(1),
                          np.zeros((mi.N_WORK_ROWS, 1)), np.zeros(1), np.zeros(1),
                          np.zeros(1))
    assert abs(multi[0, VX] - han[0, VX]) < 1e-3 and abs(multi[0, VY] - han[0, VY]) < 1e-3
    for c in (WX, WY, W0):
        assert abs(multi[0, c] - han[0, c]) < 0.05


def test_the_soft_reference_rebounds_off_a_cushion_as_han_says():
    """The reference itself: a lone ball sliding into the cushion leaves as Han's law says."""
    S0, P, arr = _lone_ball(1.45, 0.0)
    ka = int(P[0, KIND])
    han = S0.copy()
    resolve_ball_cushion(han, P, 0, 0.0, -1.0, arr.e_rail[ka], arr.mu_rail[ka],
                         arr.model_params[MP_NOSE])
    layout = Layout(TABLE.name, [Piece("1", "ball", 0.6, TABLE.length - R - 0.01)])
    soft = soft_simulate(TABLE, layout, {"1": (0.0, 1.45, 0.0, 0.0, 0.0)}, bed_friction=False,
                         t_max=0.03)
    assert abs(soft.final_velocities[0, 1] - han[0, VY]) < 1e-3


def test_a_cue_ball_into_a_ball_frozen_to_the_cushion_comes_back_as_the_soft_reference():
    """The cue ball at 2 m/s into the 1 ball touching the foot cushion: it comes back to within
    5 cm of where the soft reference leaves it (1112 mm; before, 470 mm)."""
    layout = Layout(TABLE.name, [Piece("cue", "ball", 0.6, 2.0, "cue"),
                                 Piece("1", "ball", 0.6, TABLE.length - R)])
    initial = {"cue": (0.0, 2.0, 0.0, 0.0, 0.0)}
    core = run_motion(TABLE, layout, initial).final.get("cue")
    soft = soft_simulate(TABLE, layout, initial).position("cue")
    assert abs(core.y - soft[1]) < 0.05


def test_a_ball_a_hair_off_the_cushion_is_as_frozen_to_it():
    """The same shot with the 1 ball 1 nm (TOUCH), 3 nm and 1 um off the cushion: the cushion
    joins the impact within its reach (detect.touching), so the cue ball comes back within
    5 mm of where it does from the frozen ball (before, 3 nm gave a chain of binary impacts,
    5 cm away, and exactly 1 nm a third outcome, 59 cm away)."""
    initial = {"cue": (0.0, 2.0, 0.0, 0.0, 0.0)}
    ends = []
    for gap in (0.0, 1e-9, 3e-9, 1e-6):
        layout = Layout(TABLE.name, [Piece("cue", "ball", 0.6, 2.0, "cue"),
                                     Piece("1", "ball", 0.6, TABLE.length - R - gap)])
        ends.append(run_motion(TABLE, layout, initial).final.get("cue").y)
    assert max(ends) - min(ends) < 5e-3
