"""The 1e-12 s simultaneity window of the event loop (cuesim.sim.predict.SIMULTANEOUS): contacts due
within it are resolved as one impact.

Where it matters (issue 18). Contacts joined by touching pieces need no window: the touching
system gathers every contact whose gap is under 1e-9 m, which covers any contact due within
1e-12 s below 1000 m/s. The window only joins contacts of pieces that do not touch, and those
fall due within 1e-12 s but not at the same float time only in mirror-image layouts, where
rounding puts mirror impacts ~1e-16 s apart. Of 5026 shots compared with and without the window
(1000 bench/tunnels.py seeds per game, the golden shots, symmetric probes) one changed: the
straight 9-ball break (golden shot `nine_ball_break`), whose balls 4 and 5 meet the long
cushions 2.2e-16 s apart. With the window they are one impact, without it two, and the outcomes
differ (4 leaves at 3.742 m/s instead of 3.354 m/s; the break ends after 94 events instead of
72, the 6 and the 7 pocketed, balls up to 1.3 m elsewhere): impacts of pieces that do not touch
were resolved together as one multiple impact and did not come out as each would alone. Now
resolve.impact splits the contacts due at one instant into systems joined by touching pieces
and resolves each on its own, so each mirror ball rebounds exactly as it would alone, with or
without the window (the test below); the window only decides at which of two instants 2e-16 s
apart both are resolved."""

from __future__ import annotations

import math

import numpy as np

from cuesim import CueShot, EventKind, Layout, Piece, simulate
from cuesim.sim import run_motion
from cuesim.sim.state import SEG_OBJ, SEG_T0
from cuesim.tables import nine_ball_rack, pool_table
from tests.physics_helpers import segment_state
from tests.test_balls_closed_form import han_cushion, rolling_spin

POOL = pool_table()


def test_mirror_impacts_rounding_keeps_apart_are_one_impact():
    """The straight break on the long string: balls 4 and 5 are mirror images and reach the
    two long cushions at times that differ by rounding (twice at 8.5 m/s: by 4e-16 s and
    7.5e-15 s without the window); the window makes each pair one impact, logged at one
    time. (At 8 m/s their second pair comes 1.2e-12 s apart, just past the window, since the
    rails' contacts took their faces' own normals: a rounding that large is no longer one
    instant, and two separate cushion impacts give the same outcome, as below.)"""
    layout = nine_ball_rack(POOL, cue=Piece("cue", "ball", 0.635, 0.6))
    res = simulate(POOL, layout, CueShot(angle=math.pi / 2, speed=8.5))
    rails = {e.a: e for e in res.event_log() if e.kind == EventKind.RAIL and e.a in ("4", "5")}
    four, five = rails["4"], rails["5"]
    assert {four.feature, five.feature} == {"left_foot_rail", "right_foot_rail"}
    assert four.t == five.t
    ids = res.initial.ids()
    v4 = segment_state(_opened_at(res, ids.index("4"), four.t), four.t)[1]
    v5 = segment_state(_opened_at(res, ids.index("5"), five.t), five.t)[1]
    # mirror images, to the rounding of their paths (1.7e-12 m/s apart in 0.58 m/s)
    np.testing.assert_allclose(v4, [-v5[0], v5[1]], rtol=0, atol=1e-11)


def _opened_at(res, i: int, t: float) -> np.ndarray:
    segs = res.segments
    return segs[(segs[:, SEG_OBJ] == i) & (segs[:, SEG_T0] == t)][0]


def test_two_balls_meeting_opposite_cushions_at_once_rebound_as_if_alone():
    v = np.array([-1.5, 0.4])
    w = rolling_spin(v)
    motion = (v[0], v[1], w[0], w[1], 0.0)
    mirror = (-v[0], v[1], w[0], -w[1], 0.0)
    alone = run_motion(POOL, Layout(POOL.name, (Piece("a", "ball", 0.3, 1.0),)), {"a": motion})
    pair = run_motion(POOL, Layout(POOL.name, (Piece("a", "ball", 0.3, 1.0),
                                               Piece("b", "ball", POOL.width - 0.3, 1.0))),
                      {"a": motion, "b": mirror})
    t = next(e.t for e in alone.event_log() if e.kind == EventKind.RAIL)
    before = segment_state(alone.segments[0], t)[1]
    want, _ = han_cushion(before, rolling_spin(before), np.array([1.0, 0.0]))
    for res in (alone, pair):  # the lone ball's rebound is Han's; the pair's is not
        after = segment_state(_opened_at(res, 0, t), t)[1]
        np.testing.assert_allclose(after, want, rtol=0, atol=1e-12)
