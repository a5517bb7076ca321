"""The pair culling horizon changes no result (issue 16).

A pair is predicted again when either piece changes its motion, so `pair_time` may cull a pair
that cannot meet before the earlier of their next motion changes (`predict.until`). The bounds
that cull over that horizon (`_apart`, `_apart_pieces`, `_opening`) only skip pairs that do not
meet within it; a pair they keep gets the time its whole segments give, bit for bit.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from cuesim.sim.detect import TOUCH
from cuesim.sim.detect.pairs import _apart_pieces, _opening, pair_time
from cuesim.sim.roots import INF
from cuesim.sim.state import AX, AY, LAW, LAW_DISC, LIN, TEND, VX, VY
from cuesim.sim.state import X as SX
from cuesim.sim.state import Y as SY
from tests.profiles import examples
from tests.test_culling import RB, accel, coord, speed
from tests.test_culling import _state as _pair

ROOT = Path(__file__).resolve().parents[1]


def _sampled_pair(p0, v0, a0, p1, v1, a1, rest1: bool, gap: float | None, angle: float,
                  straight: bool) -> tuple[np.ndarray, np.ndarray]:
    """Two balls (`_pair`), piece 1 at the contact distance (+ gap) from piece 0 when gap is
    given (touching), or two pucks decelerating along straight lines when `straight`. Pairs
    that overlap deeper than TOUCH, which the loop never makes, are assumed away."""
    if gap is not None:
        p1 = (p0[0] + (2 * RB + gap) * np.cos(angle), p0[1] + (2 * RB + gap) * np.sin(angle))
    assume(np.hypot(p1[0] - p0[0], p1[1] - p0[1]) > 2 * RB - TOUCH)
    if straight:
        a0 = tuple(-0.5 * np.array(v0) / max(np.hypot(*v0), 1e-9))
        a1 = tuple(-0.5 * np.array(v1) / max(np.hypot(*v1), 1e-9))
    S, P = _pair(p0, v0, a0, p1, v1, a1, rest1)
    if straight:
        S[:, LIN] = 1.0
        S[:, TEND] = np.minimum(S[:, TEND], np.hypot(S[:, VX], S[:, VY]) / 0.5)
        P[:, LAW] = LAW_DISC
    return S, P


def _relative(S: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    d0 = np.array([S[1, SX] - S[0, SX], S[1, SY] - S[0, SY]])
    dv = np.array([S[1, VX] - S[0, VX], S[1, VY] - S[0, VY]])
    da = np.array([S[1, AX] - S[0, AX], S[1, AY] - S[0, AY]])
    return d0, dv, da


touch = st.one_of(st.none(), st.floats(-0.9 * TOUCH, 0.9 * TOUCH))


@given(p0=st.tuples(coord, coord), v0=st.tuples(speed, speed), a0=st.tuples(accel, accel),
       p1=st.tuples(coord, coord), v1=st.tuples(speed, speed), a1=st.tuples(accel, accel),
       rest1=st.booleans(), gap=touch, angle=st.floats(0.0, 6.3),
       until=st.floats(0.0, 2.5), straight=st.booleans())
@settings(max_examples=examples(600), deadline=None)
def test_a_horizon_only_culls_pairs_that_meet_after_it(p0, v0, a0, p1, v1, a1, rest1, gap,
                                                       angle, until, straight):
    """pair_time with a horizon gives the contact the whole segments give whenever it is
    within the horizon, bit for bit, and else that contact or none: for pieces apart and for
    touching ones (gap within TOUCH), moving or one at rest, on straight or bent paths."""
    S, P = _sampled_pair(p0, v0, a0, p1, v1, a1, rest1, gap, angle, straight)
    whole = pair_time(S, P, 0, 1, 0.0)
    cut = pair_time(S, P, 0, 1, 0.0, until)
    if whole <= until:
        assert cut == whole
    else:
        assert cut == whole or cut == INF


@given(p0=st.tuples(coord, coord), v0=st.tuples(speed, speed), a0=st.tuples(accel, accel),
       p1=st.tuples(coord, coord), v1=st.tuples(speed, speed), a1=st.tuples(accel, accel),
       h=st.floats(1e-3, 2.0))
@settings(max_examples=examples(400), deadline=None)
def test_a_pair_apart_on_every_quarter_never_comes_within_contact(p0, v0, a0, p1, v1, a1, h):
    """`_apart_pieces` skips a pair only when its exact relative path, sampled densely over
    [0, h], stays beyond the contact distance."""
    S, _ = _pair(p0, v0, a0, p1, v1, a1, False)
    d0, dv, da = _relative(S)
    if np.hypot(*d0) <= 2 * RB or not _apart_pieces(*d0, *dv, *da, 2 * RB, h):
        return
    tau = np.linspace(0.0, h, 8001)[:, None]
    assert (np.hypot(*(d0 + dv * tau + 0.5 * da * tau**2).T) - 2 * RB).min() > 0.0


@given(p0=st.tuples(coord, coord), v0=st.tuples(speed, speed), a0=st.tuples(accel, accel),
       v1=st.tuples(speed, speed), a1=st.tuples(accel, accel), gap=st.floats(-TOUCH, TOUCH),
       angle=st.floats(0.0, 6.3), h=st.floats(1e-3, 2.0))
@settings(max_examples=examples(400), deadline=None)
def test_an_opening_pair_neither_approaches_nor_sinks(p0, v0, a0, v1, a1, gap, angle, h):
    """`_opening` skips a touching pair only when, sampled densely over (0, h], its distance
    stays above the one it starts at (so it never sinks deeper), and once above the contact
    distance never comes back to it."""
    p1 = (p0[0] + (2 * RB + gap) * np.cos(angle), p0[1] + (2 * RB + gap) * np.sin(angle))
    S, _ = _pair(p0, v0, a0, p1, v1, a1, False)
    d0, dv, da = _relative(S)
    dist = float(np.hypot(*d0))
    if not _opening(*d0, *dv, *da, dist, 2 * RB, h):
        return
    tau = np.linspace(0.0, h, 8001)[1:, None]
    d = np.hypot(*(d0 + dv * tau + 0.5 * da * tau**2).T)
    assert (d >= dist - 1e-15).all()
    out = np.flatnonzero(d > 2 * RB)
    assert out.size == 0 or (d[out[0]:] > 2 * RB).all()


HORIZON_OFF = textwrap.dedent("""
    import hashlib
    from bench import scenarios as sc
    import cuesim.sim.detect.pairs as pairs
    import cuesim.sim.loop as loop
    import cuesim.sim.predict as predict
    from cuesim.sim.engine import motion_input, run_input

    calls = [0]
    quartic = pairs._quartic
    def counted(*args):
        calls[0] += 1
        return quartic(*args)
    pairs._quartic = counted

    def run():
        out = []
        for s in (sc.box("puck", 16, 1), sc.box("ball", 32, 1), sc.pool_break("9-ball", 1)):
            c = s.cases[0]
            r = run_input(motion_input(c.table, c.layout, c.initial, struck=c.struck,
                                       max_events=s.max_events, check=False))
            out.append(hashlib.sha1(r.events.tobytes() + r.segments.tobytes()).hexdigest())
        return out

    on = run()
    n_on, calls[0] = calls[0], 0
    def whole(S, P, i, j, t, view):  # no boxes, no horizon
        return pairs.pair_time(S, P, i, j, t)
    predict.pair_in_view = whole
    loop.pair_in_view = whole
    print(on == run(), n_on < calls[0])
""")


def test_the_horizon_changes_no_event_of_a_shot():
    """Run in Python (NUMBA_DISABLE_JIT), a box of 16 pucks (no grid), one of 32 balls (the
    grid's crossings) and a 9-ball break give the same events and segments, bit for bit, with
    every pair predicted without its boxes and with its horizon at infinity, which solves more
    quartics."""
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    done = subprocess.run([sys.executable, "-c", HORIZON_OFF], cwd=ROOT, env=env,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "True"]


@given(v=st.tuples(speed, speed), a=st.tuples(accel, accel), lin=st.booleans(),
       t=st.floats(0.0, 1.0), h=st.floats(0.0, 3.0))
@settings(max_examples=examples(300), deadline=None)
def test_the_square_root_free_reach_bounds_the_reach(v, a, lin, t, h):
    """`pair_time` first culls with `_reach_l1` (no square roots) and a 1e-9 m margin: it
    bounds `reach` from above, so every pair it culls the exact reach test culls too."""
    from cuesim.sim.detect.pairs import _reach_l1
    from cuesim.sim.motion.segment import reach

    if lin:  # decelerating along a straight line, up to its stop
        a = tuple(-0.7 * np.array(v) / max(np.hypot(*v), 1e-9))
        h = min(h, max(np.hypot(*v) / 0.7 - t, 0.0))
    S, _ = _pair((0.0, 0.0), v, a, (1.0, 1.0), v, a, False)
    S[0, LIN] = 1.0 if lin else 0.0
    assert _reach_l1(S, 0, t, h) >= reach(S, 0, t, h)


@given(p0=st.tuples(coord, coord), v0=st.tuples(speed, speed), a0=st.tuples(accel, accel),
       p1=st.tuples(coord, coord), v1=st.tuples(speed, speed), a1=st.tuples(accel, accel),
       rest1=st.booleans(), gap=touch, angle=st.floats(0.0, 6.3),
       change=st.tuples(st.floats(0.0, 2.5), st.floats(0.0, 2.5)), t=st.floats(0.0, 0.5),
       straight=st.booleans())
@settings(max_examples=examples(600), deadline=None)
def test_boxes_apart_only_cull_pairs_that_meet_after_the_horizon(p0, v0, a0, p1, v1, a1, rest1,
                                                                 gap, angle, change, t,
                                                                 straight):
    """`pair_in_view` (the two swept boxes first, then pair_time over the horizon) gives the
    contact the whole segments give whenever it is within the horizon, bit for bit, and else
    that contact or none; the boxes hold the paths from the segments' start (predictions are
    made from then on, t here) to each piece's change of motion."""
    from cuesim.sim.predict import V_CHANGE, pair_in_view, set_view, until

    S, P = _sampled_pair(p0, v0, a0, p1, v1, a1, rest1, gap, angle, straight)
    view = np.empty((5, 2))
    for k in range(2):  # a change of motion within the segment (its end at the latest)
        view[V_CHANGE, k] = min(change[k], S[k, TEND]) if S[k, TEND] < INF else INF
        set_view(S, P, k, view)
    t = min(t, float(view[V_CHANGE].min()))
    horizon = until(view[V_CHANGE], 0, 1)
    whole = pair_time(S, P, 0, 1, t)
    got = pair_in_view(S, P, 0, 1, t, view)
    if whole <= horizon:
        assert got == whole
    else:
        assert got == whole or got == INF
