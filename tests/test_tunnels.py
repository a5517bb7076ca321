"""Detection without tunnels (issue 12, item 4): every contact root in time order whatever the
starting state; tunnel and runaway seeds pinned (pins: test_tunnels_pins.py; truncated shots:
test_truncated_shots.py)."""

from __future__ import annotations

import dataclasses
import math
import warnings
from functools import cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.tunnels import DEPTH, GAMES, penetration, run_case, shot_for
from cuesim import CueShot, NovusShot, simulate
from cuesim.sim import run_motion
from cuesim.sim.detect import TOUCH
from cuesim.sim.detect.holes import knuckle_time
from cuesim.sim.detect.pairs import pair_time
from cuesim.sim.detect.rails import rail_time
from cuesim.sim.detect.touching import on_face
from cuesim.sim.events import EventKind
from cuesim.sim.roots import INF
from cuesim.sim.state import AX, AY, LAW, LAW_BALL, NP, NS, ON, TEND, VX, VY, R, X
from cuesim.tables import (
    nine_ball_rack,
    novus_doubles_layout,
    novus_table,
    pool_table,
)
from cuesim.tables.layout import Layout, Piece
from tests.profiles import examples
from tests.test_balls_properties import random_layout

POOL = pool_table()
RB = POOL.piece_spec("ball").radius
# (0,0)-(1,0), the surface at y > 0 (TableGeometry.rail_array: ends, normal, length, midpoint)
RAIL = np.array([[0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0, 0.5, 0.0]])


def _rail(px: float, py: float, vx: float, vy: float, ax: float, ay: float,
          h: float = 1.0) -> float:
    tau, _ = rail_time(px, py, vx, vy, ax, ay, RB, 10.0, h, RAIL)
    return tau


# --- rails ----------------------------------------------------------------------------------------
def test_rail_beyond_its_line_outside_its_extent_is_no_contact():
    """The side-pocket tunnel: a ball 6 mm past the cushion's line in the pocket mouth (outside
    the cushion's extent), running along it back over the cushion while its spin curves it in.
    Predicted 'from zero' it met the cushion 6 mm inside the rubber; from its true gap it never
    reaches the face from the front (the knuckle stops it on a table)."""
    assert _rail(1.05, RB - 0.006, -2.0, 0.05, 0.0, -2.0) == INF


def test_rail_found_from_the_true_gap_when_the_segment_starts_beyond_the_line():
    """A segment that starts beyond the line and leaves it meets the face when g falls through
    zero from above: the larger root of g0 + g1 t + g2 t^2, not the root 'from zero'."""
    g0, g1, g2 = -0.006, 0.3, -1.0
    tau = _rail(1.05, RB + g0, -2.0, g1, 0.0, 2 * g2)
    late = -g1 / g2  # the old prediction from zero
    assert tau == pytest.approx((-g1 - math.sqrt(g1 * g1 - 4 * g2 * g0)) / (2 * g2), abs=1e-12)
    assert tau < late - 0.02


def test_rail_pressed_only_while_on_its_face():
    """A ball rolling along a cushion at 9.7 m/s, touching it, 1.4e-13 m/s into it (5-pins seed
    983475, random physics, where the cushion's e is 0): its gap would fall 1.2 nm below the
    face only at its segment's end, 16,894 s and 160 km on, far past the cushion's end 0.05 s
    away. It was pressed, due now, and the impact, along the contact's own normal, had nothing
    to do: the same contact at the same instant until the idle bound stopped the shot. It is no
    contact now; one pressed in by its acceleration sinks deeper than TOUCH within 1.5 ms,
    still on the face, and is due at once."""
    v, decel, h = 9.655463552622, 5.7153707e-4, 16893.85353067385
    vn, an = 1.3944348552259814e-13, 8.25409580e-18  # into the cushion; its turn, out
    assert _rail(0.5, RB, v, -vn, -decel, an, h) == INF
    assert _rail(0.5, RB, v, -vn, -decel, -1e-3, h) == 0.0
    # on a cushion long enough for the sink it is not pressed either (its normal speed, under
    # V_TOUCH, is taken as none, and its acceleration turns it out): caught half a touch deep
    long_rail = RAIL.copy()
    long_rail[0, [0, 2, 6, 7]] = -1e6, 1e6, 2e6, 0.0
    assert 0.0 < rail_time(0.5, RB, v, -vn, -decel, an, RB, 10.0, h, long_rail)[0] < h



@pytest.mark.parametrize("an", [-1e-3, 1e-3])
def test_rail_press_is_decided_by_the_acceleration_not_the_sign_of_a_round_off_speed(an):
    """A ball touching a cushion, its normal speed a round-off 1e-17 m/s either way (well under
    V_TOUCH): whether it is pressed now follows from its acceleration alone, into the cushion
    (pressed, due now) or out of it (not), as `detect.pairs._pressing` has it for pairs.
    Before, a parting 1e-17 m/s made the first piece of the gap 1e-17 s long and the contact
    unpressed whatever the acceleration, so mirror images could decide apart."""
    long_rail = RAIL.copy()
    long_rail[0, [0, 2, 6, 7]] = -1e6, 1e6, 2e6, 0.0
    found = [rail_time(0.5, RB, 1.0, vn, -0.1, an, RB, 10.0, 1.0, long_rail)[0] == 0.0
             for vn in (1e-17, -1e-17)]
    assert found == [an < 0.0, an < 0.0]

def test_hunter_random_physics_a_ball_rolling_along_a_cushion_is_not_pressed_past_its_end():
    """5-pins seed 983475, random physics (cushion e = 0): white, rolling along the right
    cushion at 9.7 m/s after three plastic impacts at one instant, was found pressed into it at
    each pass and the shot stopped at the idle bound after 12 events (a RUNAWAY). It now rolls
    to the corner and the shot plays out."""
    r = run_case(shot_for("5-pins", 983475, "random"))
    assert "error" not in r and "skipped" not in r, r
    assert not r["truncated"] and r["depth"] <= DEPTH, r


@pytest.mark.parametrize("g0", [1e-13, -1e-13, -0.5 * TOUCH * (1 + 1e-7)])
def test_rail_touching_contact_that_sinks_is_never_missed(g0):
    """Touching (up to just past the half-touch depth where a sinking contact is caught),
    drifting out at 1e-12 m/s, accelerated into the cushion: not pressed within its first
    monotone piece, but caught before it sinks past TOUCH."""
    tau = _rail(0.5, RB + g0, 0.5, 1e-12, 0.0, -1.0)
    assert tau < INF
    assert g0 + 1e-12 * tau - 0.5 * tau * tau >= -TOUCH


@pytest.mark.parametrize("gap", [1e-13, -1e-13, -0.5 * TOUCH * (1 + 1e-7)])
def test_knuckle_touching_contact_that_sinks_is_never_missed(gap):
    """9-ball hunter seed 2380: a ball pressed into a knuckle, caught exactly TOUCH deep, was
    then 'deeper than touching' by 2e-16 m and sank 5.7 mm into the knuckle unseen."""
    rk = 0.005
    rad = RB + rk
    kn = np.array([[0.0, 0.0, rk]])
    tau, k = knuckle_time(rad + gap, 0.0, 1e-12, 0.0, -1.0, 0.2, False, RB, 10.0, 1.0, kn)
    assert k == 0 and tau < INF
    x, y = rad + gap + 1e-12 * tau - 0.5 * tau * tau, 0.1 * tau * tau
    assert math.hypot(x, y) - rad >= -TOUCH


def test_rail_touching_and_leaving_keeps_its_next_approach():
    """Touching and leaving at 0.2 m/s, curving back at 2 m/s^2: the next contact at 0.2 s."""
    assert _rail(0.5, RB, 0.5, 0.2, 0.0, -2.0) == pytest.approx(0.2, abs=1e-12)


def _signed(hi: float) -> st.SearchStrategy[float]:
    """0, or a magnitude in [1e-6, hi] of either sign (no denormal coefficients)."""
    return st.one_of(st.just(0.0), st.floats(1e-6, hi), st.floats(-hi, -1e-6))


@settings(max_examples=examples(200), deadline=None)
@given(g0=_signed(0.02), along=st.floats(-0.2, 1.2), vx=_signed(3.0), vy=_signed(3.0),
       ax=_signed(5.0), ay=_signed(5.0), h=st.floats(0.01, 2.0))
def test_rail_time_is_the_first_descent_on_the_segment(g0, along, vx, vy, ax, ay, h):
    """From any state that is not touching (|g0| > TOUCH), rail_time is the first time g falls
    through zero from above at a point within the segment (brute force on the quadratic)."""
    if abs(g0) <= 10 * TOUCH:
        return
    px, py = along, RB + g0
    ends = [px + vx * r + 0.5 * ax * r * r for r in np.roots([0.5 * ay, vy, g0]).real]
    if any(min(abs(e), abs(e - 1.0)) <= 1e-6 for e in ends):
        return  # the contact point at a segment's end: within the extent's own tolerance
    tau = _rail(px, py, vx, vy, ax, ay, h)
    c = [0.5 * ay, vy, g0]  # g(t)
    roots = sorted(r.real for r in np.roots(c) if abs(r.imag) < 1e-12 and 0 <= r.real <= h)
    want = INF
    for r in roots:
        if vy + ay * r < 0 and 0.0 <= px + vx * r + 0.5 * ax * r * r <= 1.0:
            want = r
            break
        if vy + ay * r < 0:  # the one descent of a quadratic is off the segment
            break
    if want == INF:
        assert tau == INF or abs(tau - max(roots, default=INF)) < 1e-9
    else:
        assert tau == pytest.approx(want, abs=1e-9)


def test_descent_band_catches_a_contact_that_never_opens():
    """roots.descent with skip = 1 and a band: f = -1e-13 + 1e-12 t - t^2/2 rises by less
    than it starts below zero, then sinks; the band crossing (f = -TOUCH) is the answer, and a
    contact that opens and closes again is found where f falls through zero."""
    from cuesim.sim.roots import descent, next_descent

    c = (-1e-13, 1e-12, -0.5, 0.0, 0.0)
    assert next_descent(*c, 1.0)[0] == INF
    a, b = descent(*c, 1.0, 1, TOUCH)
    assert a == pytest.approx(math.sqrt(2 * (TOUCH - 1e-13)), rel=1e-6)
    c = (0.0, 0.2, -1.0, 0.0, 0.0)  # opens, closes at 0.2
    assert descent(*c, 1.0, 1, TOUCH)[0] == pytest.approx(0.2, abs=1e-12)
    assert descent(*c, 1.0, 1, TOUCH) == next_descent(*c, 1.0)
    # already a hair past the catch level, it rises a little and sinks: due at the turn
    c = (-TOUCH * (1 + 1e-7), 2e-12, -1.0, 0.0, 0.0)
    assert descent(*c, 1.0, 1, TOUCH) == (1e-12, 1e-12)


# --- knuckles and pairs --------------------------------------------------------------------------
def _quartic_root(c0: float, d: tuple[float, float], v: tuple[float, float],
                  a: tuple[float, float]) -> float:
    """Smallest root > 1e-6 of |d + v t + a t^2/2|^2 - R^2 (c0 = |d|^2 - R^2)."""
    c1 = 2 * (d[0] * v[0] + d[1] * v[1])
    c2 = v[0] ** 2 + v[1] ** 2 + d[0] * a[0] + d[1] * a[1]
    c3 = v[0] * a[0] + v[1] * a[1]
    c4 = 0.25 * (a[0] ** 2 + a[1] ** 2)
    roots = np.roots([c4, c3, c2, c1, c0])
    return min(r.real for r in roots if abs(r.imag) < 1e-9 and r.real > 1e-6)


def test_knuckle_touching_and_leaving_keeps_its_next_approach():
    """A spinning ball leaves a knuckle it touches and curves back into it: the old detector
    ignored the knuckle for the rest of the segment (the ball passed through it)."""
    rk = 0.005
    rad = RB + rk
    kn = np.array([[0.0, 0.0, rk]])
    v, a = (0.02, 0.1), (-4.0, 0.0)
    tau, k = knuckle_time(rad, 0.0, *v, *a, False, RB, 10.0, 1.0, kn)
    assert k == 0
    assert tau == pytest.approx(_quartic_root(0.0, (rad, 0.0), v, a), abs=1e-12)


def _pair_state(gap: float, v: tuple[float, float], a: tuple[float, float]
                ) -> tuple[np.ndarray, np.ndarray]:
    S = np.zeros((2, NS))
    P = np.zeros((2, NP))
    P[:, R] = RB
    P[:, LAW] = LAW_BALL
    S[:, ON] = 1.0
    S[0, TEND] = INF  # at rest
    S[1, X] = 2 * RB + gap
    S[1, VX], S[1, VY] = v
    S[1, AX], S[1, AY] = a
    S[1, TEND] = 1.0
    return S, P


@pytest.mark.parametrize("gap", [0.0, 5e-10, -5e-10])
def test_pair_touching_and_leaving_meets_again_where_the_true_gap_closes(gap):
    """A touching pair separates and its curved paths meet again in the segment: the next
    contact is where the real gap closes, not where the gap returns to its starting value."""
    v, a = (0.02, 0.1), (-4.0, 0.0)
    S, P = _pair_state(gap, v, a)
    d = 2 * RB + gap
    want = _quartic_root((d - 2 * RB) * (d + 2 * RB), (d, 0.0), v, a)
    assert pair_time(S, P, 0, 1, 0.0) == pytest.approx(want, abs=1e-12)


@pytest.mark.parametrize("sunk", [2e-9, 1e-8])
def test_pair_sunk_deeper_than_touch_and_moving_together_is_not_due(sunk):
    """Two pieces moving as one (same velocity and acceleration) that overlap by more than
    TOUCH press nothing: their overlap does not grow, so no contact is due now (it was, at
    every pass, and a novus opening ran to the idle guard)."""
    S, P = _pair_state(-sunk, (0.3, 0.1), (-0.9, -0.3))
    S[0, VX], S[0, VY], S[0, AX], S[0, AY], S[0, TEND] = 0.3, 0.1, -0.9, -0.3, 1.0
    assert pair_time(S, P, 0, 1, 0.0) > 0.0
    S[1, VX] -= 1e-6  # sinking further: pressed now
    assert pair_time(S, P, 0, 1, 0.0) == 0.0


# --- seeds: the issue's and the hunter's ---------------------------------------------------
def test_side_pocket_rattle_no_longer_runs_down_the_rail_inside_the_rubber():
    """Issue 12: ball 5 rattled in the side pocket's mouth, then ran 6.1 mm inside the right
    cushion (x = 1.24753 m at t = 1.3224 s)."""
    res = simulate(POOL, random_layout(2515, 6), CueShot(
        angle=2.5485645056127857, speed=8.74609375, side=-0.01129864147509757,
        height=0.18579386625877492, elevation=0.2526002481708308))
    assert not res.truncated
    depth, where = penetration(POOL, res)  # nothing inside a cushion, knuckle or ball
    assert depth <= DEPTH, where
    # (with the spin friction of 2026-12-05, tables.balls mu_spin, ball 5 no longer rattles
    # there: it drops into the side pocket at t = 1.137 s, off a jaw)


def test_novus_doubles_opening_row_on_the_rail_runaway():
    """A row of four black pucks sliding off the west rail as one group, two of them sunk
    1e-9 m deeper than TOUCH into each other: detection called the pair due at every pass,
    the impact found nothing to do, and the shot hit the idle guard (seed 129 of the opening
    spread test with the 40-step multiple impact)."""
    table = novus_table()
    res = simulate(table, novus_doubles_layout(table), NovusShot(
        x=0.4982897733987185, angle=1.6102244949298685, speed=6.37365132739978,
        offset=-0.007694615975243544))
    assert not res.truncated


def test_nine_ball_rack_runaway_of_the_issue():
    """Issue 12: ball 1 pressed against right_head_rail by its own spin bounced ever more
    slowly (a Zeno series of ball-cushion impacts) until the event limit; a slow pressing
    contact is now inelastic and the cushion's sustained friction ends the slip into it
    (resolve.cluster), so the shot plays out."""
    layout = nine_ball_rack(POOL, cue=Piece("cue", "ball", 0.03278313253012049,
                                            1.916698795180723))
    res = simulate(POOL, layout, CueShot(angle=-0.0919640925258396, speed=8.285076945931161))
    assert not res.truncated
    assert penetration(POOL, res)[0] <= DEPTH


def _wedge_layout(table) -> Layout:  # noqa: ANN001
    """The balls of the 14.1 wedge shot below."""
    return Layout(table.name, tuple(Piece(i, "ball", x, y) for i, x, y in (
        ("9", 0.24529182305790095, 0.4844685850790091),
        ("10", 1.2412581685678483, 2.086005194651654),
        ("11", 0.8252401373098696, 2.0112063083650074),
        ("1", 1.212116096899117, 0.017584827723461257),
        ("4", 1.2344472159157853, 1.3457778661555793),
        ("cue", 1.1367022010826957, 0.30030953688785045),
        ("5", 0.813604366120094, 1.6346170525063097),
        ("3", 0.635, 1.905))))


def _wedge_cue(d_angle: float, speed_factor: float, side: float, height: float) -> CueShot:
    """The wedge shot's stroke, or a variation of it."""
    return CueShot(angle=-1.1372384944264198 + d_angle, speed=1.8130264485545986 * speed_factor,
                   side=side, height=height)


def _wedge_shot(table, d_angle: float = 0.0, speed_factor: float = 1.0,  # noqa: ANN001, ANN202
                side: float = 0.013747952078734124, height: float = -0.03799546020365114):
    """The 14.1 shot of the wedge below, on `table` (the 9 ft table with its physics), or a
    variation of it."""
    layout = _wedge_layout(table)
    shot = _wedge_cue(d_angle, speed_factor, side, height)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        res = run_motion(table, layout, {"cue": shot.ball_motion(table)}, struck="cue",
                         shot=shot, check=False)
    return res


# a variation of the wedge shot that jams the two balls in the jaws (aim, speed factor, side,
# height), found among 3,000 random variations while the shot itself pocketed the 1 (a ball's
# cushion in the reach, before gap contacts closed by the real geometry: both 2026-12-06); it
# jams them and reaches the wedge projection (resolve.cluster `_wedge`, once), whatever v_stick
JAM = (0.006524466935423303, 0.5618469353735728, -0.24420480440266298, 0.37054537339178795)


def test_two_balls_wedged_between_the_jaws_of_a_corner_come_to_rest():
    """Found by bench/ai_levels.py (14.1, club level, 2026-12-03; 1 shot in 19,573): the 1
    lies in the head-right pocket's mouth, the cue ball drives it in with a little draw and
    the two jam between jaw a and jaw b. The pair and the two jaw contacts came due together
    over and over at ever smaller speeds (1e-9 to 1e-25 m/s) while the cloth kept pushing the
    cue ball in: each cushion's slip removal, one after the other, left the pair moving into
    the other jaw, and the shot stopped at the idle guard after 198 events (TRUNCATED). A
    group held by two cushions now takes the nearest motion that goes into neither
    (resolve.cluster `_wedge`): the two balls come to rest jammed in the jaws (`JAM`)."""
    res = _wedge_shot(POOL, *JAM)
    assert not res.truncated
    assert penetration(POOL, res)[0] <= DEPTH
    assert res.pocketed == [] and {"1", "cue"} <= set(res.final.ids())
    jaws = {e.feature for e in res.event_log() if e.kind == EventKind.RAIL}
    assert {"head_right_jaw_a", "head_right_jaw_b"} <= jaws
    assert res.n_events < 198


def test_a_rail_is_touched_on_its_face_only():
    """detect.touching.on_face: a piece beyond a segment's end meets the knuckle there, not
    the segment's end point as well (as detect.rails and the soft reference have it). In the
    wedge shot the cue ball, driven into the head-right pocket's mouth beside the 1, lies
    1.33 and 2.38 mm from the ends of jaw b and of the right head rail, beyond both: the
    segments' nearest points taken as contacts put them in the impact as flat contacts, and
    the cue ball, pressed there while the 1's cushion kept the impact going, touched them (and
    knuckle b: three contacts on one corner)."""
    res = _wedge_shot(POOL)
    t_hit = next(e.t for e in res.event_log() if e.kind == EventKind.COLLIDE)
    at_hit = {e.feature for e in res.event_log()
              if e.kind == EventKind.RAIL and e.a == "cue" and e.t == t_hit}
    assert not at_hit & {"head_right_jaw_b", "right_head_rail"}
    jaw_b = next(k for k, r in enumerate(POOL.geometry.rails) if r.name == "head_right_jaw_b")
    rail = POOL.geometry.rail_array()[jaw_b]
    x0, y0, x1, y1 = rail[:4]
    ux, uy = (x1 - x0) / math.hypot(x1 - x0, y1 - y0), (y1 - y0) / math.hypot(x1 - x0, y1 - y0)
    for along, face in ((-1e-6, False), (-1e-10, True), (0.05, True), (0.0982, True),
                        (0.0983, False)):
        px, py = x0 + along * ux - 0.03 * uy, y0 + along * uy + 0.03 * ux
        assert on_face(px, py, rail) is face


def test_the_wedge_shot_is_the_stiffened_references():
    """resolve.multi_impact `_open_gap`: a contact that starts from a gap to a round body
    closes where its pieces' real paths meet. In the wedge shot the 1 presses jaw a, whose
    rubber keeps the impact going for milliseconds, while the cue ball, 1.29 mm from knuckle b
    and moving past it at about 1.9 m/s, closed that gap along its starting normal and
    bounced off a knuckle its real path misses: the 1 was pocketed (and REACH x0.1, which
    leaves the knuckle out, jammed the two). Now both balls rest jammed in the mouth within
    5 mm of the soft reference stiffened 10,000x (the rigid limit of the core's contacts:
    measured 1.7 mm), and REACH x10 and x0.1 end within 1.2 mm of it."""
    from cuesim.sim.soft import soft_simulate

    res = _wedge_shot(POOL)
    assert res.pocketed == []
    layout = _wedge_layout(POOL)
    shot = _wedge_cue(0.0, 1.0, 0.013747952078734124, -0.03799546020365114)
    soft = soft_simulate(POOL, layout, {"cue": shot.ball_motion(POOL)}, check=False,
                         stiffness_scale=1e4)
    assert not soft.pocketed
    final = {p.id: (p.x, p.y) for p in res.final.pieces}
    for pid in ("1", "cue"):
        assert math.dist(final[pid], soft.position(pid)) < 0.005


@settings(max_examples=examples(40), deadline=None)
@given(d_angle=st.floats(-0.008, 0.008), speed_factor=st.floats(0.7, 1.3),
       side=st.floats(-0.3, 0.3), height=st.floats(-0.4, 0.4))
def test_shots_around_the_wedge_all_come_to_rest(d_angle, speed_factor, side, height):
    """Variations of the wedge shot (aim within half a degree, speed +-30 %, any tip): before
    the wedge projection 51 of 300 such shots were TRUNCATED (random draws, seed 1); none is,
    and none sinks into a jaw."""
    res = _wedge_shot(POOL, d_angle, speed_factor, side, height)
    assert not res.truncated
    assert penetration(POOL, res)[0] <= DEPTH


@pytest.mark.parametrize(("factor", "within"), [(0.1, 0.011), (10.0, 1e-3)])
def test_the_wedge_comes_to_rest_whatever_v_stick(factor, within):
    """With v_stick x10 and /10 the two balls still come to rest in the head-right pocket's
    mouth, neither pocketed: x10 within a millimetre of where they rest at the default. At /10
    the slow contacts of the jam (2-4 mm/s at t = 0.49 s) bounce instead of locking, and the
    jam either holds or lets the 1 roll on 10 mm deeper into the mouth: bistable, not chaotic
    (a cue up to 1e-3 faster or slower keeps each side). The core before the binary-after-all
    change held it, within 0.2 mm, but a cue 3e-5 faster let it roll 10.1 mm; since that change
    (one impact of the run moved by 1e-5 m/s) it rolls on 10.2-10.3 mm at every cue speed from
    1e-3 slower to 1e-3 faster and at 10-320 impact steps. A threshold that decides how far a
    jammed ball rolls is a known limitation (the slow contacts' plastic law, bench/README)."""
    from cuesim.tables import BallPhysics

    base = _wedge_shot(POOL, *JAM)
    table = pool_table(physics=BallPhysics(v_stick=0.005 * factor))
    other = _wedge_shot(table, *JAM)
    assert not other.truncated and other.pocketed == []
    for pid in ("1", "cue"):
        a, b = base.final.get(pid), other.final.get(pid)
        assert math.hypot(a.x - b.x, a.y - b.y) < within, pid


# bench/tunnels.py seeds (game, seed) that tunnelled before this change (0.6 to 78 mm inside a
# cushion or jaw). 9-ball 1006 (a break, 17.8 mm through head_left_jaw_b: the segment began
# beyond the jaw's infinite line) and 8-ball 1524 now play out cleanly; the others are caught
# at their contact and then run away (below)
# 9-ball 2380, 8-ball 2041 and 3309, 14.1 2094 and 2202 sank 2 to 150 mm into a knuckle or jaw
# after a contact caught at its tolerance was left a hair past it by rounding
TUNNEL_SEEDS = [("9-ball", 1006), ("8-ball", 1524), ("9-ball", 84), ("9-ball", 172),
                ("9-ball", 1264), ("8-ball", 71), ("14.1", 24), ("14.1", 86), ("14.1", 1024),
                ("5-pins", 60), ("9-ball", 2380), ("8-ball", 2041), ("8-ball", 3309),
                ("14.1", 2094), ("14.1", 2202), ("14.1", 8146)]
# 14.1 8146 (a 10,000-shot hunt after the speed work): the cue ball sliding along the right
# cushion passed 57 mm through ball 6 resting on it; a pair looked for only up to the next
# event that would change either piece's motion missed it once a sensor crossing moved that
# horizon (the horizon is gone; culling is now only by the pair's closest approach)
CLEAN_SEEDS = [("9-ball", 1006), ("8-ball", 1524)]
# seeds that ran away: a ball pressed into a cushion by its own cloth friction (spin) bounced
# ever more slowly at one place (a Zeno series of impacts), or a ball wedged between a cushion,
# a jaw and another ball did the same; slow pressing contacts now end such series
RUNAWAY_SEEDS = [("9-ball", 59), ("9-ball", 84), ("9-ball", 86), ("9-ball", 172),
                 ("9-ball", 1264), ("8-ball", 71), ("14.1", 24), ("14.1", 32), ("14.1", 86),
                 ("14.1", 1024), ("5-pins", 60), ("9-ball", 2380), ("8-ball", 2041),
                 ("8-ball", 3309), ("14.1", 2094), ("14.1", 2202)]


@cache
def _hunted(game: str, seed: int) -> dict:
    r = run_case(shot_for(game, seed))
    assert "error" not in r and "skipped" not in r
    return r


@pytest.mark.parametrize(("game", "seed"), TUNNEL_SEEDS)
def test_hunter_tunnel_seeds_stay_closed(game, seed):
    """No tunnel, even in a shot that then runs away."""
    r = _hunted(game, seed)
    assert r["depth"] <= DEPTH, r["where"]


@pytest.mark.parametrize(("game", "seed"), CLEAN_SEEDS)
def test_hunter_tunnel_seeds_that_now_play_out(game, seed):
    r = _hunted(game, seed)
    assert not r["truncated"] and r["depth"] <= DEPTH


@pytest.mark.parametrize(("game", "seed"), RUNAWAY_SEEDS)
def test_hunter_runaway_seeds(game, seed):
    r = _hunted(game, seed)
    assert r["depth"] <= DEPTH, r["where"]
    assert not r["truncated"], r.get("last_event")


def test_hunter_seeds_are_reproducible():
    a, b = shot_for("9-ball", 3), shot_for("9-ball", 3)
    assert a.layout == b.layout and a.shot == b.shot


def test_hunter_random_physics_keeps_the_seeds_layout_and_shot():
    """`--physics random` plays the seed's own layout and shot on the seed's drawn table, the
    same table every time (`shot_for(game, seed, "random")` replays it)."""
    for game in GAMES:
        plain, drawn = shot_for(game, 7), shot_for(game, 7, "random")
        assert (drawn.layout, drawn.shot) == (plain.layout, plain.shot)
        assert plain.physics is None and drawn.physics == shot_for(game, 7, "random").physics
        assert drawn.table.physics == drawn.physics
    with pytest.raises(ValueError, match="physics must be one of table, random"):
        shot_for("novus", 7, "moon")


@pytest.mark.parametrize("game", GAMES)
def test_hunter_random_physics_seeds_play_out(game):
    """Thresholds and coefficients at their extremes (restitution 0 or 1, friction from 0.02 to
    5, v_stick from 1e-4 to 0.1 m/s, 2 to 60 impact steps, g from 3 to 30 m/s^2): the
    shots end, nothing tunnels. The hunter's run of 1,500 seeds a game is in bench/README.md."""
    for seed in range(3):
        r = run_case(shot_for(game, seed, "random"))
        assert "error" not in r and "skipped" not in r, r
        assert not r["truncated"] and r["depth"] <= DEPTH, r


def test_hunter_random_physics_runaway_seed_a_pushed_pair_pressing_a_third():
    """Novus seed 123922 on its drawn table (board friction 3.66 for the pucks, 0.033 for the
    striker, g 25.9 m/s^2, plastic contacts): the striker, braking 110 times less than a puck,
    pushes one into another. Joined, the pushed pair braked at its common rate, but whether the
    puck ahead was pressed or sliding away was judged with each piece's own: sliding away, not
    joined, then found pressed and due again at the same instant, without end (truncated after
    31 events). Now the group's pieces are tested with their common motion: the shot ends, the
    four pieces stopping together (resolve.cluster.join_pressed)."""
    r = run_case(shot_for("novus", 123922, "random"))
    assert "error" not in r and "skipped" not in r, r
    assert not r["truncated"] and r["depth"] <= DEPTH, r


def test_hunter_finds_a_planted_tunnel():
    """The checker sees a piece inside a cushion: the resting ball moved 1 mm into the head
    rail is flagged, with its depth."""
    from cuesim import Layout
    from cuesim.sim.state import SEG_OBJ, SEG_X, SEG_Y

    layout = Layout(POOL.name, (Piece("cue", "ball", 0.6, 1.5), Piece("1", "ball", 0.6, 0.3)))
    res = simulate(POOL, layout, CueShot(angle=math.pi / 2, speed=1.0))
    assert penetration(POOL, res)[0] <= DEPTH
    seg = res.segments.copy()
    mine = seg[:, SEG_OBJ] == 1
    seg[mine, SEG_X], seg[mine, SEG_Y] = 0.6, RB - 1e-3
    bad = dataclasses.replace(res, segments=seg)  # its caches made anew
    depth, where = penetration(POOL, bad)
    assert depth == pytest.approx(1e-3, rel=1e-6) and "head_rail" in where


def test_hunter_finds_a_planted_ball_in_a_ball():
    """The checker sees a piece inside another: the resting ball moved to 2 mm inside the
    cue ball's place, behind it as it leaves, is flagged with its depth (from 12-01 to 12-06
    the piece pairs' depth was computed but never counted: the hunter saw cushions, knuckles
    and the outline only)."""
    from cuesim import Layout
    from cuesim.sim.state import SEG_OBJ, SEG_X, SEG_Y

    layout = Layout(POOL.name, (Piece("cue", "ball", 0.6, 1.5), Piece("1", "ball", 0.3, 0.3)))
    res = simulate(POOL, layout, CueShot(angle=math.pi / 2, speed=0.5))
    assert penetration(POOL, res)[0] <= DEPTH
    seg = res.segments.copy()
    mine = seg[:, SEG_OBJ] == 1
    seg[mine, SEG_X], seg[mine, SEG_Y] = 0.6, 1.5 - 2 * RB + 2e-3
    bad = dataclasses.replace(res, segments=seg)  # its caches made anew
    depth, where = penetration(POOL, bad)
    assert depth == pytest.approx(2e-3, rel=1e-6) and where == "cue in 1 at t=0.000000", where


def test_hunter_random_physics_rolling_past_a_side_pocket_into_a_ball_on_the_cushion():
    """14.1 seed 600453, random physics: ball 1 rolls along the right cushion past the side
    pocket toward ball 3 resting on that cushion. Predicted from its segment's start, its next
    change of motion was a graze of the side pocket's far knuckle at 8.26 s; predicted again at
    the head string it crossed (3.13 s, a sensor: the motion unchanged), the graze was missed and
    the next change came at 20.3 s. Its pairs had been culled to the first horizon and were not
    predicted again, so ball 1 ran through ball 3 (compiled, a division by zero where their
    centres met). Now a sensor crossing that moves the horizon later predicts the pairs
    again (sim.loop, predict.horizon_passed): ball 1 strikes ball 3."""
    r = run_case(shot_for("14.1", 600453, "random"))
    assert "error" not in r and "skipped" not in r, r
    assert not r["truncated"] and r["depth"] <= DEPTH, r


def test_hunter_plays_the_pool_games_on_the_other_table_sizes(tmp_path):
    """`--pool-size` (bench/tunnels.py): the same seed on the 9 ft table is the hunter's usual
    shot; on the 8 ft and 7 ft tables its layout is drawn on that table (every ball on its
    surface) and checked against it; a size the tables do not have is refused."""
    import json

    from bench import tunnels

    usual, nine = shot_for("8-ball", 4242), shot_for("8-ball", 4242, size="9ft")
    assert usual == nine and usual.table is tunnels.POOL
    for size in ("8ft", "7ft"):
        case = shot_for("8-ball", 4242, "random", size)
        table = case.table
        assert (table.width, table.length) == (pool_table(size).width, pool_table(size).length)
        assert table.width < tunnels.POOL.width and table.physics == case.physics
        r = table.piece_spec("ball").radius
        assert all(r <= p.x <= table.width - r and r <= p.y <= table.length - r
                   for p in case.layout.pieces)
        assert run_case(case)["depth"] <= DEPTH
    with pytest.raises(ValueError, match="size must be one of"):
        shot_for("9-ball", 1, size="6ft")
    out = tmp_path / "hunt.json"
    assert tunnels.main(["--games", "9-ball", "--shots", "2", "--pool-size", "7ft",
                         "--json", str(out)]) == 0
    assert json.loads(out.read_text())["9-ball"]["pool_size"] == "7ft"
