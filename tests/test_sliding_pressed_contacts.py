"""A piece that slides past a touching one while its own friction presses it in keeps sliding:
the contact's normal force pushes the other piece along n and its friction (mu N) alone acts
across (resolve.sliding_pair `bounce_sliding`). Before, such a slow pressing contact joined the two
into one body with the pair's mean velocity: a cue ball sliding past a touching ball at
0.26 m/s dragged it 93 mm along (the soft-contact reference: 0.8 mm, and not along), and the two
then rolled on as a rigid block; in 27 of 600 pool shots of the tunnel hunter's (the tables'
physics) such a join changed a ball's velocity by more than 5 mm/s, up to 0.14 m/s. The
soft-contact reference is the ground truth here (DESIGN.md); tests/test_sliding_contacts.py
has the pairs that slide apart."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import warnings

import numpy as np
import pytest

from cuesim.api import game_table
from cuesim.sim import run_motion
from cuesim.sim.soft import soft_simulate
from cuesim.tables.layout import Layout, Piece
from tests.scaled_constants import REPO

TABLE = game_table("9-ball")
R = TABLE.piece_spec("ball").radius


def _pair(normal: float, v_t: float, push: float, v_n: float = 0.0) -> tuple[Layout, dict]:
    """The cue ball touching '1' along the unit normal at angle `normal`, moving across it at
    v_t (and v_n along it), rolling, plus a side slip whose friction drives it into '1'
    (push: the extra spin, rad/s)."""
    nx, ny = math.cos(normal), math.sin(normal)
    layout = Layout(TABLE.name, (Piece("cue", "ball", 0.7, 1.0, "cue"),
                                 Piece("1", "ball", 0.7 + 2 * R * nx, 1.0 + 2 * R * ny)))
    vx, vy = -v_t * ny + v_n * nx, v_t * nx + v_n * ny
    wx, wy = -vy / R - push * ny, vx / R + push * nx
    return layout, {"cue": (vx, vy, wx, wy, 0.0)}


def _follow(angle: float, v: float, v_t: float, slip: float) -> tuple[Layout, dict]:
    """The cue ball rolling at v along x right behind '1' (touching along the normal at
    `angle` from x); '1' moves at v and v_t across the normal, sliding with a slip `slip`
    (m/s) along x that brakes it, so that the cue ball presses it from behind."""
    nx, ny = math.cos(angle), math.sin(angle)
    layout = Layout(TABLE.name, (Piece("cue", "ball", 0.5, 0.6, "cue"),
                                 Piece("1", "ball", 0.5 + 2 * R * nx, 0.6 + 2 * R * ny)))
    vx, vy = v - v_t * ny, v_t * nx
    return layout, {"cue": (v, 0.0, 0.0, v / R, 0.0),
                    "1": (vx, vy, -vy / R, (vx - slip) / R, 0.0)}


def _gaps(layout: Layout, initial: dict) -> np.ndarray:
    """Each ball's distance between its rest in the core and in the soft reference (m)."""
    core = run_motion(TABLE, layout, initial, struck="cue").final_positions
    soft = soft_simulate(TABLE, layout, initial, steps_per_contact=160).final_positions
    return np.hypot(*(core - soft).T)


def test_a_ball_sliding_past_a_touching_ball_does_not_drag_it_along():
    """The cue ball rolls past '1' at 0.26 m/s with a side slip pressing it in (the pair on a
    line across the table): the core's rests are within 3 mm (cue ball) and 0.1 mm ('1') of the
    reference's, '1' pushed 0.8 mm across and not along. Joined, '1' went 93 mm along with the
    cue ball, which stopped 27 cm short."""
    layout, initial = _pair(0.0, 0.26, 10.0)
    result = run_motion(TABLE, layout, initial, struck="cue")
    ball = result.final.get("1")
    start = layout.get("1")
    assert abs(ball.y - start.y) < 1e-4 and 0.0 < ball.x - start.x < 2e-3
    gaps = _gaps(layout, initial)
    assert gaps[0] < 3e-3 and gaps[1] < 1e-4


@pytest.mark.parametrize(("normal", "v_t", "push"), [
    (0.9, -0.57, 6.0), (2.1, 0.33, 9.0), (4.0, -0.18, 4.0), (5.5, 0.06, 11.0),
    (1.3, 0.48, 10.0), (3.3, -0.12, 2.0)])
def test_sliding_pairs_follow_the_soft_reference(normal, v_t, push):
    """Pairs at random angles, sliding at 0.06-0.57 m/s, pressed by side slip: every rest
    within 15 mm (the sliding cue ball's, over a metre of travel) and 2 mm (the pushed ball's)
    of the reference's (joined, up to 1,056 mm and 444 mm)."""
    gaps = _gaps(*_pair(normal, v_t, push))
    assert gaps[0] < 15e-3 and gaps[1] < 2e-3


PROBE = """
import json, math, sys, warnings
warnings.simplefilter('ignore')
from tests.test_sliding_pressed_contacts import TABLE, _pair
from cuesim.sim import run_motion
from tests.scaled_constants import scaler
from tests.test_sliding_pressed_contacts import _follow
cases = [_pair(0.0, 0.26, 10.0), _pair(2.1, 0.33, 9.0), _pair(5.5, 0.06, 11.0),
         _follow(0.05, 0.4, 0.008, 0.01)]
out = {}
for name in ("BOUNCE_TIME", "BOUNCE_GAP"):
    scale = scaler((name,))
    for factor in (1.0, 10.0, 0.1, 200.0):
        scale(factor)
        out[f"{name} {factor}"] = [[[p.id, p.x, p.y] for p in
                                    run_motion(TABLE, lay, init, struck="cue").final.pieces]
                                   for lay, init in cases]
    scale(1.0)
print(json.dumps(out))
"""


def _apart(a: list, b: list) -> float:
    return max(math.hypot(pa[1] - pb[1], pa[2] - pb[2])
               for ca, cb in zip(a, b, strict=True) for pa, pb in zip(ca, cb, strict=True))


def test_the_bounce_time_and_gap_x10_either_way_change_nothing_visible():
    """BOUNCE_TIME (the persistent contact's steps) is a discretisation, not physics: 10x
    either way moves no rest by 3 mm (2.2 mm at 10x: the cue ball's, 1.3 m on; 0.01 mm at
    /10); 200x (50 ms steps) moves them by more, which shows the change reaches the core.
    It also bounds the slides a sliding pair's balls end at once (`_settle_slides`): the
    follower pair (`_follow`, which settles) moves by 0.6 mm at 10x, 0.2 mm at /10.
    BOUNCE_GAP (the least gap a bounce opens, 10 nm: past detection's touching band) likewise.
    The core runs interpreted (NUMBA_DISABLE_JIT) in a subprocess, so the constants can be
    changed without recompiling."""
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    run = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True,
                         text=True, check=True, cwd=REPO)
    rows = json.loads(run.stdout.strip().splitlines()[-1])
    for name in ("BOUNCE_TIME", "BOUNCE_GAP"):
        base = rows[f"{name} 1.0"]
        assert _apart(rows[f"{name} 10.0"], base) < 3e-3, name
        assert _apart(rows[f"{name} 0.1"], base) < 3e-3, name
        assert _apart(rows[f"{name} 200.0"], base) > 5e-4, name


@pytest.mark.parametrize(("game", "seed"), [("8-ball", 4000159), ("14.1", 4000915),
                                          ("9-ball", 5450149), ("14.1", 6700587)])
def test_a_pushed_balls_brief_slide_does_not_feed_the_bounces_without_end(game, seed):
    """A ball of a sliding pair (a slow contact alone, sliding past itself) whose slide ends
    within a bounce step rolls at once (resolve.sliding_pair `_settle_slides`). Before, the
    contact's own impulse at the ball's centre left it sliding for microseconds; its sliding
    acceleration ruled the pair parting, its roll a moment later pressed it again, and the
    pair met again, tens of thousands of times:
    these random-physics hunter shots (bench/tunnels.py) stopped at the event limit, a rolling
    ball pressing a braking one for seconds (14.1), a sliding ball curving into one that a
    large rolling resistance stops at once (8-ball). They now end at rest, in under 8,000
    events, with a log the event-log checks accept. Only a sliding pair's balls are so
    settled: at every slow contact, a ball between two others (9-ball, ball-ball friction 1.5)
    closed each contact in turn, at one instant, without end. 14.1 6700587 (rolling
    resistance ten times the sliding friction): a settled ball kept 5/7 of its push, the pair
    closed again at the same instant, and each slow impact after took another part back, a
    series of impacts each 0.56 of the last, thousands, until the event limit; its limit is
    now taken at once (`_close_settled`)."""
    from bench.tunnels import shot_for
    from cuesim import simulate
    from cuesim.rules.event_log import check_event_log
    from cuesim.rules.files import check_shot_layouts

    case = shot_for(game, seed, "random")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the drawn table's warnings
        result = simulate(case.table, case.layout, case.shot)
    assert not result.truncated and result.n_events < 8000
    log = result.event_log()
    check_event_log(log, list(result.initial.ids()), "shot", case.table)
    check_shot_layouts(case.table, result.initial, result.final, log, "shot",
                       ("initial", "final"))


@pytest.mark.parametrize("args", [(0.05, 0.4, 0.008, 0.01), (0.3, 0.5, 0.01, 0.02),
                                  (0.1, 0.3, 0.02, 0.05)])
def test_a_ball_pressing_a_braking_ball_from_behind_follows_the_soft_reference(args):
    """The cue ball rolls into '1', which slides and brakes right ahead of it, the two sliding
    past each other at 8-20 mm/s: the rests, 0.6-0.75 m on, within 12 mm of the soft
    reference's (1.5 % of the way; 2.1-8.1 mm before the brief slides were ended at once)."""
    gaps = _gaps(*_follow(*args))
    assert gaps.max() < 12e-3


@pytest.mark.parametrize("seed", range(5))
def test_a_settled_slide_ends_where_the_ball_law_ends_it(seed):
    """`_settle_slides` sets a ball that slides briefly to the velocity its sliding segment ends
    with (motion.ball: v - 2/7 u at tau_s), rolling, and its kinetic energy falls; a slide that
    lasts longer than BOUNCE_TIME is left alone."""
    from cuesim.sim.engine import motion_input
    from cuesim.sim.motion.dispatch import start_segment
    from cuesim.sim.motion.segment import velocity
    from cuesim.sim.resolve.sliding_pair import BOUNCE_TIME, _settle_slides
    from cuesim.sim.state import INERTIA, MST, ROLLING, SLIDING, TEND, VX, VY, WX, WY, M

    rng = np.random.default_rng(seed)
    layout = Layout(TABLE.name, (Piece("cue", "ball", 0.7, 1.0, "cue"),))
    vx, vy = rng.uniform(-0.5, 0.5, 2)
    for slip, settles in ((rng.uniform(1e-4, 1e-3), True), (0.2, False)):
        angle = rng.uniform(0, 2 * math.pi)
        ux, uy = slip * math.cos(angle), slip * math.sin(angle)
        # u = (vx - R wy, vy + R wx)
        motion = (vx, vy, (uy - vy) / R, (vx - ux) / R, 0.0)
        inp = motion_input(TABLE, layout, {"cue": motion}, struck="cue")
        S, P = inp.S.copy(), inp.P
        start_segment(S, P, 0, 0.0)
        assert S[0, MST] == SLIDING and (S[0, TEND] <= BOUNCE_TIME) == settles
        end = velocity(S, 0, S[0, TEND])
        ke = 0.5 * P[0, M] * (S[0, VX] ** 2 + S[0, VY] ** 2) + 0.5 * P[0, INERTIA] * (
            S[0, WX] ** 2 + S[0, WY] ** 2)
        parent, objs = np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64)
        assert _settle_slides(S, P, parent, objs, 1, 0, 0.0) == int(settles)
        if not settles:
            continue
        assert S[0, MST] == ROLLING
        assert abs(S[0, VX] - end[0]) < 1e-12 and abs(S[0, VY] - end[1]) < 1e-12
        assert 0.5 * P[0, M] * (S[0, VX] ** 2 + S[0, VY] ** 2) + 0.5 * P[0, INERTIA] * (
            S[0, WX] ** 2 + S[0, WY] ** 2) < ke


@pytest.mark.parametrize("vn", [1e-6, 3e-5, 2e-4])
def test_a_settle_that_leaves_the_pair_closing_ends_as_its_series_of_impacts_would(vn):
    """`_close_settled` is the limit of what it replaces: at one instant, a perfectly inelastic
    impact at the centres (masses m and m) equalises the normal velocities, the pushed ball,
    rolling before, slides and is settled to rolling (v -= 2/7 u), keeping 5/7 of its push; the
    pair closes again at 1/7 of the speed, and so on. Summed here in plain arithmetic to
    round-off, that series leaves both balls where one inelastic push with the ball's rolling
    inertia (7/5 m) leaves them: normal velocities equal, the ball still rolling, the energy
    fallen, and no momentum along n gained (the cloth, turning the ball, takes some)."""
    from cuesim.sim.engine import motion_input
    from cuesim.sim.motion.dispatch import start_segment
    from cuesim.sim.resolve.sliding_pair import _close_settled
    from cuesim.sim.state import INERTIA, MST, ROLLING, SLIDING, VX, VY, WX, WY, M

    layout = Layout(TABLE.name, (Piece("cue", "ball", 0.7, 1.0, "cue"),
                                 Piece("1", "ball", 0.7 + 2 * R, 1.0, "solid")))
    # the cue ball slides (spin of its own), the ball rolls slowly along y; n = +x
    motions = {"cue": (vn, 0.05, 0.0, 0.0, 30.0), "1": (0.0, 0.01, -0.01 / R, 0.0, 0.0)}
    inp = motion_input(TABLE, layout, motions, struck="cue")
    S, P = inp.S.copy(), inp.P
    for a in (0, 1):
        start_segment(S, P, a, 0.0)
    assert S[0, MST] == SLIDING and S[1, MST] == ROLLING
    m = P[0, M]
    # the series, along n: cue u0, ball u1 (each impact equal masses, then 5/7 kept)
    u0, u1 = S[0, VX], S[1, VX]
    while u0 - u1 > 1e-300:
        common = 0.5 * (u0 + u1)
        u1 += 5.0 / 7.0 * (common - u1)
        u0 = common
    p_before = m * (S[0, VX] + S[1, VX])
    ke = sum(0.5 * P[a, M] * (S[a, VX] ** 2 + S[a, VY] ** 2)
             + 0.5 * P[a, INERTIA] * (S[a, WX] ** 2 + S[a, WY] ** 2) for a in (0, 1))
    parent, objs = np.arange(2, dtype=np.int64), np.arange(2, dtype=np.int64)
    _close_settled(S, P, parent, objs, 2, 0, 1, 1.0, 0.0, S[0, VX] - S[1, VX], 0.0)
    assert S[0, VX] == pytest.approx(u0, rel=1e-12, abs=1e-18)
    assert S[1, VX] == pytest.approx(u1, rel=1e-12, abs=1e-18)
    assert abs(S[0, VX] - S[1, VX]) < 1e-15 * vn + 1e-20
    assert S[1, MST] == ROLLING and S[1, WY] == pytest.approx(S[1, VX] / R, rel=1e-12)
    ke_after = sum(0.5 * P[a, M] * (S[a, VX] ** 2 + S[a, VY] ** 2)
                   + 0.5 * P[a, INERTIA] * (S[a, WX] ** 2 + S[a, WY] ** 2) for a in (0, 1))
    assert ke_after < ke
    # the momentum along n the table takes: the cloth turns the ball (the 2/7 each settle took)
    assert m * (S[0, VX] + S[1, VX]) <= p_before
