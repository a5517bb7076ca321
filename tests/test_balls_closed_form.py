"""Ball physics against closed-form results (issue 3): sliding and rolling, the stun shot, the
30-degree rule, spin decay, the cue strike, cushions, pockets and jaws."""

from __future__ import annotations

import math

import numpy as np
import pytest

from cuesim import CueShot, EventKind, Layout, Piece, ShotError, simulate
from cuesim.sim import run_motion
from cuesim.sim.cue import MISCUE_LIMIT, strike
from cuesim.sim.events import COL_KIND
from tests.physics_helpers import around_event


def one_ball(pool, x=0.635, y=0.5, ball_id="cue"):
    return Layout(pool.name, (Piece(ball_id, "ball", x, y),))


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
    millimetres, the object ball takes (1 + e)/2 (equal masses, Newton's law)."""
    r = pool.piece_spec("ball").radius
    lay = Layout(pool.name, (Piece("cue", "ball", 0.635, 1.0), Piece("1", "ball", 0.635,
                                                                     1.0 + 2 * r + 1e-4)))
    res = run_motion(pool, lay, {"cue": (0.0, 2.0, 0.0, 0.0, 0.0)})
    k = next(i for i, row in enumerate(res.events) if row[COL_KIND] == EventKind.COLLIDE)
    states = around_event(res, k)
    v_in = states[0][0][1][1]
    e = pool.physics.e_ball
    assert states[0][1][1][1] == pytest.approx((1 - e) / 2 * v_in, rel=1e-6)
    assert states[1][1][1][1] == pytest.approx((1 + e) / 2 * v_in, rel=1e-6)
    assert res.final.get("cue").y - 1.0 < 0.005


def test_rolling_cue_ball_deflects_about_30_degrees_on_a_half_ball_hit(pool):
    """The 30-degree rule (Alciatore): after a half-ball hit a rolling cue ball, once it rolls
    again, leaves at about 30 degrees from its original line (33.7 at most in theory)."""
    r = pool.piece_spec("ball").radius
    v = 1.5
    lay = Layout(pool.name, (Piece("cue", "ball", 0.635 - r, 0.6), Piece("1", "ball", 0.635,
                                                                         1.2)))
    res = run_motion(pool, lay, {"cue": (0.0, v, -v / r, 0.0, 0.0)})
    first = next(e for e in res.event_log() if e.kind == EventKind.COLLIDE)
    after = res.positions_at(first.t + 0.6)[0][0] - res.positions_at(first.t + 0.4)[0][0]
    angle = math.degrees(math.atan2(-after[0], after[1]))
    assert 27.0 < abs(angle) < 36.0


def test_spin_about_the_vertical_decays_at_five_halves_mu_sp_g_over_r(pool):
    res = run_motion(pool, one_ball(pool), {"cue": (0.0, 0.0, 0.0, 0.0, 10.0)})
    seg = res.segments[0]
    r = pool.piece_spec("ball").radius
    assert seg[10] == pytest.approx(2.5 * pool.physics.mu_spin * pool.physics.g / r)
    assert res.n_events == 0  # spinning in place moves nothing


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


def test_miscue_is_an_error_not_a_clamp(pool):
    lay = one_ball(pool)
    with pytest.raises(ShotError, match="miscue limit"):
        simulate(pool, lay, CueShot(angle=1.0, speed=3.0, side=0.4, height=0.4))
    assert MISCUE_LIMIT == 0.5


@pytest.mark.parametrize("shot, message", [
    (CueShot(angle=1.0, speed=math.nan), "finite"),
    (CueShot(angle=1.0, speed=-2.0), "positive"),
    (CueShot(angle=1.0, speed=50.0), "beyond a human stroke"),
    (CueShot(angle=1.0, speed=2.0, ball="7"), "no ball '7'"),
    (CueShot(angle=1.0, speed=2.0, position=(0.01, 0.5)), "not wholly"),
])
def test_bad_cue_shots_are_refused_with_a_clear_message(pool, shot, message):
    with pytest.raises(ShotError, match=message):
        simulate(pool, one_ball(pool), shot)


def test_cushion_rebound_reverses_the_normal_speed_and_loses_energy(pool):
    res = run_motion(pool, one_ball(pool, y=0.3), {"cue": (0.4, -1.0, 0.0, 0.0, 0.0)})
    k = next(i for i, row in enumerate(res.events) if row[COL_KIND] == EventKind.RAIL)
    assert res.event_log()[k].feature == "head_rail"
    ((before, after),) = around_event(res, k).values()
    assert before[1][1] < 0 < after[1][1]
    assert after[1][1] < pool.physics.e_cushion * -before[1][1] * 1.2
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


def test_ball_can_rattle_in_the_jaws(pool):
    """Aimed at a corner pocket's jaw, the ball meets a jaw or a knuckle (named in the log)."""
    hits = []
    for dx in np.linspace(0.02, 0.08, 13):
        res = run_motion(pool, one_ball(pool, x=1.0, y=2.2), {"cue": (dx * 10, 2.0, 0, 0, 0)})
        hits += [e.feature for e in res.events_of(EventKind.RAIL)
                 if "jaw" in e.feature or "knuckle" in e.feature]
    assert hits


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
