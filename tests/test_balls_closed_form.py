"""Ball physics against closed-form results (issue 3): sliding and rolling, the stun shot, the
30-degree rule, spin decay, the cue strike, cushions, pockets and jaws."""

from __future__ import annotations

import math

import numpy as np
import pytest

from cuesim import CueShot, EventKind, Layout, Piece, ShotError, simulate
from cuesim.sim import run_motion
from cuesim.sim.cue import MISCUE_LIMIT, strike
from cuesim.sim.state import SEG_EVENT, SEG_OBJ, SEG_VX, SEG_VY
from tests.physics_helpers import around_event


def one_ball(pool, x=0.635, y=0.5, ball_id="cue"):
    return Layout(pool.name, (Piece(ball_id, "ball", x, y),))


# Closed forms, written here from the papers (not from the core's code), with the WPA ball and
# the default coefficients (pinned in tests/test_defaults_pinned.py).
G = 9.80665
R_POOL, M_POOL = 0.05715 / 2, 0.163
I_POOL = 0.4 * M_POOL * R_POOL**2
MU_SLIDE, MU_ROLL, MU_SPIN, E_BALL = 0.20, 0.010, 0.0127, 0.95
FRICTION_FIT = (9.951e-3, 0.108, 1.088)  # Alciatore TP A-14: mu(v) = a + b exp(-c v)
E_CUSHION, MU_CUSHION = 0.85, 0.20
NOSE = 0.635 * 0.05715  # m, cushion nose height (WPA: 0.625-0.645 of the ball diameter)


def rolling_spin(v: np.ndarray) -> np.ndarray:
    """The spin (wx, wy, wz = 0) of a ball rolling at v: no slip at the cloth."""
    return np.array([-v[1] / R_POOL, v[0] / R_POOL, 0.0])


def ball_ball(v: np.ndarray, w: np.ndarray, n: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A moving ball (v, w) hits a resting one along the unit normal n (Alciatore TP A-14):
    normal impulse (1 + e) v_n / (2/m); friction impulse -min(mu(s) J_n, |s| / k) s/|s| on
    the contact-point slip s (tangential and vertical), k = 2 * 7 / (2 m). Returns the moving
    ball's velocity and spin just after."""
    n3 = np.array([n[0], n[1], 0.0])
    v3 = np.array([v[0], v[1], 0.0])
    jn = (1 + E_BALL) * float(v3 @ n3) / (2 / M_POOL)
    c = v3 + np.cross(w, R_POOL * n3)
    s = c - (c @ n3) * n3
    slip = float(np.linalg.norm(s))
    a, b, cc = FRICTION_FIT
    f = min((a + b * math.exp(-cc * slip)) * jn, slip / (7.0 / M_POOL)) if slip > 0 else 0.0
    force = -f * s / slip if slip > 0 else np.zeros(3)
    v1 = v3 - jn * n3 / M_POOL + np.array([force[0], force[1], 0.0]) / M_POOL
    return v1[:2], w + R_POOL * np.cross(n3, force) / I_POOL


def slide_to_roll(v: np.ndarray, w: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
    """A sliding ball: the slip u = v + w x (-R z) falls at 7/2 mu_s g along itself (Alciatore
    TP A-4). Returns (time to roll, displacement meanwhile, velocity when it rolls = (5 v +
    2 R (wy, -wx)) / 7)."""
    u = np.array([v[0] - R_POOL * w[1], v[1] + R_POOL * w[0]])
    speed = float(np.linalg.norm(u))
    t = 2 * speed / (7 * MU_SLIDE * G)
    d = v * t - 0.5 * MU_SLIDE * G * t * t * u / speed
    return t, d, (5 * v + 2 * R_POOL * np.array([w[1], -w[0]])) / 7


def han_cushion(v: np.ndarray, w: np.ndarray, inward: np.ndarray) -> tuple[np.ndarray, float]:
    """Han 2005 (Mathavan et al. 2010): a ball (v, w) on a cushion whose nose, at height NOSE,
    touches it at theta above its equator. Returns the velocity and the vertical spin after."""
    ex = -inward  # into the cushion
    ey = np.array([-ex[1], ex[0]])
    vx, vy = float(v @ ex), float(v @ ey)
    wx, wy, wz = float(w[:2] @ ex), float(w[:2] @ ey), float(w[2])
    sin_t = (NOSE - R_POOL) / R_POOL
    cos_t = math.sqrt(1 - sin_t**2)
    sx = vx * sin_t + R_POOL * wy
    sy = -vy - R_POOL * wz * cos_t + R_POOL * wx * sin_t
    c = vx * cos_t
    pze, pzs = (1 + E_CUSHION) * c * M_POOL, math.hypot(sx, sy) / (3.5 / M_POOL)
    if pzs <= MU_CUSHION * pze:  # the slip stops during the impact
        px, py = -sx / (3.5 / M_POOL) * sin_t - pze * cos_t, sy / (3.5 / M_POOL)
    else:
        phi = math.atan2(sy, sx)
        px = -MU_CUSHION * pze * math.cos(phi) * sin_t - pze * cos_t
        py = MU_CUSHION * pze * math.sin(phi)
    vx, vy = vx + px / M_POOL, vy + py / M_POOL
    return vx * ex + vy * ey, wz + R_POOL / I_POOL * py * cos_t


def first(res, kind, piece=None, after=-1.0):
    """(index, event) of the first event of a kind (of a piece) after a time."""
    return next((k, e) for k, e in enumerate(res.event_log())
                if e.kind == kind and (piece is None or e.a == piece) and e.t > after)


def test_centre_hit_slides_then_rolls_at_five_sevenths(pool):
    """Slip falls at 7/2 mu_s g: sliding ends at 2 v0 / (7 mu_s g), rolling at 5/7 v0."""
    v0 = 2.0
    res = run_motion(pool, one_ball(pool), {"cue": (0.0, v0, 0.0, 0.0, 0.0)})
    g, mu_s = pool.physics.g, pool.physics.mu_slide
    roll = res.events_of(EventKind.ROLL)[0]
    assert roll.t == pytest.approx(2 * v0 / (7 * mu_s * g), rel=1e-12)
    seg = res.segments[1]
    assert seg[6] == pytest.approx(5 / 7 * v0, rel=1e-12)  # vy at the start of rolling
    assert seg[9] == 0.0


def test_rolling_ball_stops_after_v2_over_2_mu_r_g(pool):
    v, r = 0.6, pool.piece_spec("ball").radius
    res = run_motion(pool, one_ball(pool, y=0.3), {"cue": (0.0, v, -v / r, 0.0, 0.0)})
    g, mu_r = pool.physics.g, pool.physics.mu_roll
    d = v * v / (2 * mu_r * g)
    assert d < 2.54 - 0.3 - r  # no cushion on the way
    (stop,) = res.events_of(EventKind.STOP)
    assert stop.t == pytest.approx(v / (mu_r * g), rel=1e-12)
    assert res.final.get("cue").y == pytest.approx(0.3 + d, rel=1e-12)
    assert not res.events_of(EventKind.ROLL)  # it was rolling from the start


def test_stun_shot_stops_the_cue_ball_on_a_full_hit(pool):
    """No spin at impact: the cue ball keeps (1 - e)/2 of its speed and stops within a few
    millimetres (6.9 here), the object ball takes (1 + e)/2 (equal masses, Newton's law).
    Where it stops: the closed forms of the impact, the slide and the roll, to 1e-9 m."""
    r = pool.piece_spec("ball").radius
    lay = Layout(pool.name, (Piece("cue", "ball", 0.635, 1.0), Piece("1", "ball", 0.635,
                                                                     1.0 + 2 * r + 1e-4)))
    res = run_motion(pool, lay, {"cue": (0.0, 2.0, 0.0, 0.0, 0.0)})
    k, hit = first(res, EventKind.COLLIDE)
    states = around_event(res, k)
    v_in = states[0][0][1][1]
    e = pool.physics.e_ball
    assert states[0][1][1][1] == pytest.approx((1 - e) / 2 * v_in, rel=1e-6)
    assert states[1][1][1][1] == pytest.approx((1 + e) / 2 * v_in, rel=1e-6)
    # before the hit the ball slid 0.1 mm from rest spin: R w_x = -5/2 mu_s g t
    assert v_in == pytest.approx(2.0 - MU_SLIDE * G * hit.t, rel=1e-12)
    w_in = np.array([-2.5 * MU_SLIDE * G * hit.t / R_POOL, 0.0, 0.0])
    v1, w1 = ball_ball(np.array([0.0, v_in]), w_in, np.array([0.0, 1.0]))
    t_roll, d_slide, v_roll = slide_to_roll(v1, w1)
    assert v_roll[1] > 0  # the stun leaves the cue ball creeping forward
    travel = d_slide[1] + v_roll[1] ** 2 / (2 * MU_ROLL * G)
    _, stop = first(res, EventKind.STOP, "cue")  # its first stop, before the 1 comes back
    y_stop = res.positions_at(stop.t)[0][0][1]
    y_hit = states[0][0][0][1]
    assert y_stop - y_hit == pytest.approx(travel, abs=1e-9)
    assert 0.005 < y_stop - y_hit < 0.010
    assert stop.t == pytest.approx(hit.t + t_roll + v_roll[1] / (MU_ROLL * G), rel=1e-9)


def test_rolling_cue_ball_deflects_about_30_degrees_on_a_half_ball_hit(pool):
    """The 30-degree rule (Alciatore): after a half-ball hit a rolling cue ball, once it rolls
    again, leaves at about 30 degrees from its original line (33.7 at most, for perfectly
    elastic frictionless balls). With e = 0.95 and the ball-ball friction fit: the closed form
    of the impact and of the slide back to rolling, to 1e-12."""
    r = pool.piece_spec("ball").radius
    v = 1.5
    lay = Layout(pool.name, (Piece("cue", "ball", 0.635 - r, 0.6), Piece("1", "ball", 0.635,
                                                                         1.2)))
    res = run_motion(pool, lay, {"cue": (0.0, v, -v / r, 0.0, 0.0)})
    k, hit = first(res, EventKind.COLLIDE)
    (p_cue, v_in, _), (_, v_out, _) = around_event(res, k)[0]
    p_obj = around_event(res, k)[1][0][0]
    n = (p_obj - p_cue) / np.linalg.norm(p_obj - p_cue)
    assert n[0] == pytest.approx(0.5, abs=1e-12)  # a half-ball hit: cut angle 30 degrees
    v1, w1 = ball_ball(v_in, rolling_spin(v_in), n)
    np.testing.assert_allclose(v_out, v1, rtol=0, atol=1e-12)
    _, _, v_roll = slide_to_roll(v1, w1)
    k_roll, _ = first(res, EventKind.ROLL, "cue", after=hit.t)
    rows = res.segments[(res.segments[:, SEG_EVENT] == k_roll) & (res.segments[:, SEG_OBJ] == 0)]
    np.testing.assert_allclose(rows[0, [SEG_VX, SEG_VY]], v_roll, rtol=0, atol=1e-12)
    angle = math.degrees(math.atan2(-v_roll[0], v_roll[1]))
    assert 30.0 < angle < 33.7
    after = res.positions_at(hit.t + 0.6)[0][0] - res.positions_at(hit.t + 0.4)[0][0]
    assert math.degrees(math.atan2(-after[0], after[1])) == pytest.approx(angle, abs=1e-9)


def test_the_spin_decay_is_pooltool_s_about_ten_radians_per_second_squared(pool):
    """mu_spin is pooltool's u_sp = (10 * 2/5 / 9) R for the same law, 5 u_sp g / (2 R): spin
    about the vertical decays at 10.9 rad/s^2 (Alciatore: about 10). It was 0.044, 37.8 rad/s^2,
    3.5 times pooltool's, while citing it: a side spin was gone before the first rail."""
    decay = 2.5 * pool.physics.mu_spin * pool.physics.g / R_POOL
    assert pool.physics.mu_spin == pytest.approx(10 * 2 / 5 / 9 * R_POOL, rel=1e-3)
    assert 10.0 < decay < 11.0


def test_spin_about_the_vertical_decays_at_five_halves_mu_sp_g_over_r(pool):
    """Spin about the vertical falls at 5 mu_sp g / (2 R), measured where it shows: a ball
    rolling straight into the head rail with side spin leaves it sideways by an amount set by
    the spin left at impact (Han 2005), and leaves with the spin the impact gives it."""
    decay = 2.5 * MU_SPIN * G / R_POOL
    v, w0 = 1.0, 30.0
    res = run_motion(pool, one_ball(pool, y=1.6), {"cue": (0.0, -v, v / R_POOL, 0.0, w0)})
    k, rail_hit = first(res, EventKind.RAIL)
    ((before, after),) = around_event(res, k).values()
    w_hit = w0 - decay * rail_hit.t
    assert 5.0 < w_hit < w0 - 5.0  # decayed, and far from both ends
    assert before[2] == pytest.approx(w_hit, rel=1e-9)
    w = rolling_spin(before[1])
    w[2] = w_hit
    v_after, wz_after = han_cushion(before[1], w, np.array([0.0, 1.0]))
    np.testing.assert_allclose(after[1], v_after, rtol=0, atol=1e-12)
    assert after[2] == pytest.approx(wz_after, rel=1e-9)
    # the undecayed spin would have thrown it sideways measurably faster
    w[2] = w0
    assert abs(han_cushion(before[1], w, np.array([0.0, 1.0]))[0][0] - after[1][0]) > 0.05
    # spinning on the spot moves nothing
    still = run_motion(pool, one_ball(pool), {"cue": (0.0, 0.0, 0.0, 0.0, 10.0)})
    assert still.n_events == 0 and still.final.get("cue").y == 0.5


def test_cue_strike_speed_and_spin_directions(pool):
    ball = pool.piece_spec("ball")
    vx, vy, wx, wy, wz = strike(ball, 3.0, math.pi / 2)
    m, mc = ball.mass, 0.54
    assert vy == pytest.approx(1.81 * 3.0 / (m * (1 / mc + 1 / m)), rel=1e-12)
    assert abs(vx) < 1e-12 and wx == wy == wz == 0.0
    _, _, wx, _, _ = strike(ball, 3.0, math.pi / 2, b=0.4 * ball.radius)
    assert wx < 0  # topspin on a shot toward +y rolls it forward
    _, _, wx, _, _ = strike(ball, 3.0, math.pi / 2, b=-0.4 * ball.radius)
    assert wx > 0  # draw
    *_, wz = strike(ball, 3.0, math.pi / 2, a=0.3 * ball.radius)
    assert wz > 0  # right english: counter-clockwise from above


def test_squirt_sends_the_ball_off_the_aim_away_from_the_side_struck(pool):
    """Squirt (Shepard 2001, Alciatore TP A-31): side english sends the cue ball off the cue
    line by tan(alpha) = (5/2) s sqrt(1 - s^2) / (1 + m/m_e + (5/2)(1 - s^2)), s = a / R, away
    from the side struck (right english: to the left), at the speed and spin of the point
    contact; no side, or a cue without end mass, no squirt."""
    from cuesim.sim.cue import CUE_END_MASS, squirt_angle

    ball = pool.piece_spec("ball")
    r, m = ball.radius, ball.mass
    for s in (0.1, 0.3, 0.5):
        tan = 2.5 * s * math.sqrt(1 - s * s) / (1 + m / CUE_END_MASS + 2.5 * (1 - s * s))
        assert squirt_angle(ball, s * r) == pytest.approx(math.atan(tan), rel=1e-12)
        assert squirt_angle(ball, -s * r) == pytest.approx(-math.atan(tan), rel=1e-12)
        vx, vy, *w = strike(ball, 3.0, math.pi / 2, a=s * r)
        plain = strike(ball, 3.0, math.pi / 2, a=s * r, end_mass=0.0)
        assert math.atan2(-vx, vy) == pytest.approx(math.atan(tan), rel=1e-9)  # left of +y
        assert math.hypot(vx, vy) == pytest.approx(plain[1], rel=1e-12) and w == list(plain[2:])
    assert 1.9 < math.degrees(squirt_angle(ball, 0.5 * r)) < 2.1  # half-tip english: 2 deg
    assert strike(ball, 3.0, 0.7, b=0.3 * r) == strike(ball, 3.0, 0.7, b=0.3 * r, end_mass=0.0)
    with pytest.raises(ValueError, match="end mass"):
        strike(ball, 3.0, 0.7, a=0.1 * r, end_mass=-0.001)


def test_miscue_is_an_error_not_a_clamp(pool):
    lay = one_ball(pool)
    with pytest.raises(ShotError, match="miscue limit"):
        simulate(pool, lay, CueShot(angle=1.0, speed=3.0, side=0.4, height=0.4))
    assert MISCUE_LIMIT == 0.5


@pytest.mark.parametrize("kwargs, message", [
    ({"speed": math.nan}, "finite"),
    ({"speed": -2.0}, "positive"),
    ({"speed": 50.0}, "beyond a human stroke"),
])
def test_impossible_cue_shots_are_refused_when_made(kwargs, message):
    """A speed no cue gives: ShotError when the shot is made, before any table is involved."""
    with pytest.raises(ShotError, match=message):
        CueShot(angle=1.0, **kwargs)


@pytest.mark.parametrize("shot, message", [
    (CueShot(angle=1.0, speed=2.0, ball="7"), "no ball '7'"),
    (CueShot(angle=1.0, speed=2.0, position=(0.01, 0.5)), "not wholly"),
])
def test_bad_cue_shots_are_refused_with_a_clear_message(pool, shot, message):
    with pytest.raises(ShotError, match=message):
        simulate(pool, one_ball(pool), shot)


@pytest.mark.parametrize("vx, vy", [(0.4, -1.0), (0.0, -1.0), (0.8, -0.5), (-0.5, -1.2)])
def test_cushion_rebound_reverses_the_normal_speed_and_loses_energy(pool, vx, vy):
    """A rolling ball on the head rail: the velocity and spin after the impact are Han's
    (2005) closed form with the nose above the centre (sin theta = (h - R) / R > 0), to
    1e-12; the normal speed comes back reduced, energy is lost."""
    res = run_motion(pool, one_ball(pool, y=0.3),
                     {"cue": (vx, vy, -vy / R_POOL, vx / R_POOL, 0.0)})
    k, hit = first(res, EventKind.RAIL)
    assert hit.feature == "head_rail"
    ((before, after),) = around_event(res, k).values()
    assert before[1][1] < 0 < after[1][1]
    v_after, wz_after = han_cushion(before[1], rolling_spin(before[1]), np.array([0.0, 1.0]))
    np.testing.assert_allclose(after[1], v_after, rtol=0, atol=1e-12)
    assert after[2] == pytest.approx(wz_after, rel=1e-9, abs=1e-12)
    assert 0.5 * E_CUSHION * -before[1][1] < after[1][1] < E_CUSHION * -before[1][1]
    spec = pool.piece_spec("ball")
    ke = [0.5 * spec.mass * float(s[1] @ s[1]) for s in (before, after)]
    assert ke[1] < ke[0]


def test_ball_sent_into_a_corner_pocket_is_captured(pool):
    u = 1 / math.sqrt(2)
    res = run_motion(pool, one_ball(pool, x=0.9, y=2.2), {"cue": (u, u, 0.0, 0.0, 0.0)})
    assert res.pocketed == ["cue"]
    (pocket,) = res.events_of(EventKind.POCKET)
    assert pocket.feature == "foot_right"
    assert len(res.final) == 0


def _along_the_pocket_axis(pool, offset: float, speed: float):
    """A ball sliding straight at the foot-right pocket along its axis, `offset` m to the side
    of it (positive toward jaw b), from 0.4 m before the mouth."""
    p = next(q for q in pool.pockets if q.name == "foot_right")
    mx, my = (p.lip_a[0] + p.lip_b[0]) / 2, (p.lip_a[1] + p.lip_b[1]) / 2
    (ax, ay), (px, py) = p.axis, (-p.axis[1], p.axis[0])
    x, y = mx - 0.4 * ax + offset * px, my - 0.4 * ay + offset * py
    return run_motion(pool, one_ball(pool, x, y), {"cue": (speed * ax, speed * ay, 0, 0, 0)})


def _cushions(res) -> list[str]:
    return [e.feature for e in res.events_of(EventKind.RAIL)]


@pytest.mark.parametrize("offset, speed, cushions, pocketed", [
    # slow: off one knuckle onto the far jaw, and down
    (0.035, 1.0, ["foot_right_knuckle_a", "foot_right_jaw_b"], ["cue"]),
    # faster: jaw to jaw and back out onto the foot rail
    (0.035, 2.0, ["foot_right_knuckle_a", "foot_right_jaw_b", "foot_right_jaw_a",
                  "foot_right_knuckle_b", "foot_rail"], []),
])
def test_ball_can_rattle_in_the_jaws(pool, offset, speed, cushions, pocketed):
    """Aimed along the pocket's axis but off it, the ball meets a knuckle and then the opposite
    jaw (a rattle), and drops or rattles out; the mirror-image shot rattles in the mirror
    image (jaws a and b, the foot rail and the right foot rail exchanged)."""
    res = _along_the_pocket_axis(pool, offset, speed)
    assert _cushions(res) == cushions and res.pocketed == pocketed
    swap = {"a": "b", "b": "a"}
    mirror = [f[:-1] + swap[f[-1]] if f.startswith("foot_right_") else
              {"foot_rail": "right_foot_rail"}[f] for f in cushions]
    twin = _along_the_pocket_axis(pool, -offset, speed)
    assert _cushions(twin) == mirror and twin.pocketed == pocketed


def test_pins_knocked_singly_and_in_combination(carom):
    from cuesim.tables.carom import five_pins_layout

    lay = five_pins_layout(carom)
    white, centre = lay.get("white"), lay.get("pin_centre")
    aim = math.atan2(centre.y - white.y, centre.x - white.x)
    single = simulate(carom, lay, CueShot(ball="white", angle=aim, speed=3.0))
    assert [(e.a, e.b) for e in single.events_of(EventKind.PIN)] == [("white", "pin_centre")]
    several = simulate(carom, lay, CueShot(ball="white", angle=aim - 0.02, speed=3.0))
    knocked = {e.b for e in several.events_of(EventKind.PIN)}
    assert {"pin_bottom", "pin_centre", "pin_top"} <= knocked
    # a thrown pin knocks a neighbour: the log names the pin as the knocker
    assert any(e.a.startswith("pin") for e in several.events_of(EventKind.PIN))


def test_a_ball_resting_in_a_pocket_throat_is_still_on_the_table(pool):
    """A ball can stop between the jaws without falling; the next shot must accept it there,
    while a ball inside a jaw is refused."""
    pocket = next(p for p in pool.pockets if p.name == "foot_right")
    mx = (pocket.lip_a[0] + pocket.lip_b[0]) / 2
    my = (pocket.lip_a[1] + pocket.lip_b[1]) / 2
    depth = 0.02  # behind the mouth line, short of the capture circle
    x, y = mx + depth * pocket.axis[0], my + depth * pocket.axis[1]
    lay = Layout(pool.name, (Piece("cue", "ball", 0.6, 1.2), Piece("3", "ball", x, y)))
    pool.check_layout(lay)
    res = simulate(pool, lay, CueShot(angle=math.atan2(y - 1.2, x - 0.6), speed=2.0))
    assert "3" in res.pocketed
    from cuesim import LayoutError

    jaw = Layout(pool.name, (Piece("3", "ball", pocket.lip_a[0] + 0.01 * pocket.axis[0],
                                   pocket.lip_a[1] + 0.01 * pocket.axis[1]),))
    with pytest.raises(LayoutError, match="not wholly"):
        pool.check_layout(jaw)


def test_a_cue_shot_carries_its_cue_s_end_mass(pool):
    """CueShot.end_mass: the standard shaft's by default, 0 for no squirt, a lighter
    (low-deflection) shaft squirts less; kept by to_dict / from_dict (left out at the default,
    so shot files of the standard cue read as before); out of [0, the cue's mass] refused."""
    from cuesim.sim.cue import CUE_END_MASS, CUE_MASS

    def heading(shot: CueShot) -> float:
        vx, vy, *_ = shot.ball_motion(pool)
        return math.atan2(-vx, vy)  # left of the +y aim

    shots = [CueShot(angle=math.pi / 2, speed=3.0, side=0.4, end_mass=m)
             for m in (CUE_END_MASS, 0.003, 0.0)]
    assert shots[0] == CueShot(angle=math.pi / 2, speed=3.0, side=0.4)
    turns = [heading(s) for s in shots]
    assert turns[0] > turns[1] > 1e-6 and abs(turns[2]) < 1e-15
    assert "end_mass" not in shots[0].to_dict()
    for s in shots:
        assert CueShot.from_dict(s.to_dict()) == s
    for bad in (-0.001, CUE_MASS + 0.01, math.nan, "5"):
        with pytest.raises(ShotError, match="end_mass"):
            CueShot(angle=1.0, speed=3.0, end_mass=bad)
    with pytest.raises(ShotError, match="shot.end_mass must be a finite number"):
        CueShot.from_dict({"angle": 1.0, "speed": 3.0, "end_mass": "heavy"})
