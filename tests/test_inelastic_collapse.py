"""A slow pair touching nothing else is perfectly inelastic only when it is a persistent
contact (resolve.press `comes_back`): bounced, the press of its own motion laws must bring it
back before those laws end (a slide ends, a piece stops). Otherwise it bounces with its
restitution, as it would under any v_stick below its speed, and v_stick no longer decides
where the pieces rest (bench/README.md, "tolerances.py")."""

from __future__ import annotations

import math

import numpy as np
import pytest

from bench.tunnels import shot_for
from cuesim import simulate
from cuesim.sim.resolve.press import comes_back
from cuesim.sim.state import AX, LAW, TEND, VX, VY, M, R

COMES_BACK = comes_back.py_func  # the law itself, plain Python


def _pair(v0: float, press: float, t_end: float, vt: float = 0.0) -> tuple[np.ndarray, ...]:
    """Two touching pieces of radius 0.03 along x, i closing on j at v0 (and sliding past it
    at vt), their accelerations pressing them together by `press`, both segments ending at
    t_end."""
    S = np.zeros((2, 19))
    P = np.zeros((2, 19))
    P[:, R], P[:, M] = 0.03, 0.1
    P[:, LAW] = 0.0
    S[0, VX], S[0, VY], S[0, AX] = v0, vt, 0.5 * press
    S[1, AX] = -0.5 * press
    S[:, TEND] = t_end
    return S, P


@pytest.mark.parametrize("e", [0.5, 0.9, 1.0])
def test_a_bounce_comes_back_after_twice_its_parting_speed_over_the_press(e) -> None:
    """Parted at e v0 and pressed back: back after tau = 2 e v0 / press. Segments ending just
    after it keep the pair (a persistent contact, e = 1 too: it would bounce for as long as
    the press lasts), just before it part it."""
    v0, press = 0.004, 2.0
    total = 2.0 * e * v0 / press
    for t_end, want in ((total * 1.001, True), (total * 0.999, False)):
        S, P = _pair(v0, press, t_end)
        assert bool(COMES_BACK(S, P, 0, 1, 1.0, 0.0, v0, e, 0.0)) is want


def test_the_horizon_is_the_mass_weighted_mean_of_the_segment_ends() -> None:
    """Through a persistent contact the pair moves on as one: its laws end about when the
    joined motion's would, the mass-weighted mean of the two ends (a light piece stopping
    first does not end the heavy one's push)."""
    v0, press, e = 0.004, 2.0, 0.9
    total = 2.0 * e * v0 / press
    S, P = _pair(v0, press, 0.0)
    P[0, M], P[1, M] = 0.3, 0.1
    S[0, TEND], S[1, TEND] = total * 1.2, total * 0.5  # mean 1.025 total
    assert COMES_BACK(S, P, 0, 1, 1.0, 0.0, v0, e, 0.0)
    S[1, TEND] = total * 0.3  # mean 0.975 total
    assert not COMES_BACK(S, P, 0, 1, 1.0, 0.0, v0, e, 0.0)


def test_no_press_no_return_and_plastic_always() -> None:
    """Nothing pressing (or sliding past fast enough that the path bends away): a bounce never
    comes back. e = 0 does not part at all."""
    S, P = _pair(0.004, 0.0, 1.0)
    assert not COMES_BACK(S, P, 0, 1, 1.0, 0.0, 0.004, 0.9, 0.0)
    S, P = _pair(0.004, 2.0, 1.0, vt=0.5)  # v_t^2 / (R_i + R_j) = 4.2 > 2
    assert not COMES_BACK(S, P, 0, 1, 1.0, 0.0, 0.004, 0.9, 0.0)
    S, P = _pair(0.004, 0.0, 0.0)
    assert COMES_BACK(S, P, 0, 1, 1.0, 0.0, 0.004, 0.0, 0.0)


def _rests(result) -> dict[str, tuple[float, float]]:
    return {p.id: (p.x, p.y) for p in result.final.pieces}


def _largest_move(a, b) -> float:
    assert set(a) == set(b)
    return max(math.hypot(a[k][0] - b[k][0], a[k][1] - b[k][1]) for k in a)


# hunter shots (bench/tunnels.py) where v_stick x1 and /10 left the rests apart: 38 mm, 13 mm
# and 46 mm before (two sliding balls meeting at 3 mm/s, their slides ending within 0.3 ms,
# joined and rested touching; with v_stick /10 they bounced and rested 10 um apart, and a later
# impact on the pair made the rest)
@pytest.mark.parametrize(("game", "seed"), [("9-ball", 7000382), ("8-ball", 7000644),
                                            ("14.1", 7000197)])
def test_v_stick_no_longer_decides_where_the_balls_rest(game, seed) -> None:
    case = shot_for(game, seed)
    base = simulate(case.table, case.layout, case.shot)
    for factor in (0.1, 0.01):
        table = case.table.with_physics(v_stick=case.table.physics.v_stick * factor)
        other = simulate(table, case.layout, case.shot)
        assert not other.truncated
        assert _largest_move(_rests(base), _rests(other)) < 1e-3, factor


def test_two_sliding_balls_meeting_slowly_part_as_the_soft_reference_does() -> None:
    """Ball 1 rolls into ball 2 at 3 mm/s with over-spin, ball 2 spins back toward it: each
    slip presses them together, for the 0.3 ms their slides last, where a bounce would take
    1.5 ms to come back. The soft-contact reference (the core's dissipation law) bounces them
    and they rest 43 um apart; the core now parts them too (it joined them: they rested
    touching), 4 um apart, its rests within 35 um of the reference's (31 um; the joined pair's
    were 32 um off)."""
    from cuesim.sim import run_motion
    from cuesim.sim.soft import soft_simulate
    from cuesim.tables.layout import Layout, Piece
    from cuesim.tables.pool import PoolTable

    table = PoolTable()
    r = table.piece_spec("ball").radius
    v, u = 0.003, 0.002  # ball 1's speed and both slips, m/s
    layout = Layout(table.name, (Piece("1", "ball", 0.6, 1.0),
                                 Piece("2", "ball", 0.6 + 2 * r + 1e-7, 1.0)))
    initial = {"1": (v, 0.0, 0.0, (v + u) / r, 0.0), "2": (0.0, 0.0, 0.0, -u / r, 0.0)}
    core = run_motion(table, layout, initial).final_positions
    reference = soft_simulate(table, layout, initial, dissipation="hysteretic")
    soft = reference.final_positions[[list(reference.ids).index(i) for i in ("1", "2")]]
    for rests in (core, soft):
        assert np.hypot(*(rests[1] - rests[0])) - 2 * r > 1e-6
    assert max(np.hypot(*(core[k] - soft[k])) for k in range(2)) < 3.5e-5
