"""Property tests: random shots and random layouts thrown at the core.

No NaN, no overlap beyond TOUCH (1e-9 m) at any event, nothing leaves the board, every shot ends,
and the same input gives the same output."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from cuesim import Layout, NovusShot, Piece, ShotError, novus_table, simulate
from cuesim.sim.detect import TOUCH
from cuesim.sim.events import COL_T
from tests.profiles import examples

TABLE = novus_table()
(U0, U1), (W0, W1) = TABLE.striker_strip()
SETTINGS = settings(max_examples=examples(40), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

shots = st.builds(
    NovusShot,
    x=st.floats(U0, U1),
    angle=st.floats(0.05, math.pi - 0.05),
    speed=st.floats(0.05, 12.0),
    y=st.floats(W0, W1),
    offset=st.floats(-0.02, 0.02),
    side=st.sampled_from(["south", "north", "east", "west"]),
)


def random_layout(seed: int, n: int) -> Layout:
    """n pucks at random free places (rejection sampling), clear of the holes and of the
    south zone where the striker stands."""
    rng = np.random.default_rng(seed)
    r = 0.015
    pts: list[tuple[float, float]] = []
    tries = 0
    while len(pts) < n and tries < 5000:
        tries += 1
        x, y = rng.uniform(r, 1 - r, 2)
        if y < 0.16 or any(math.hypot(x - h.x, y - h.y) < h.radius for h in TABLE.geometry.holes):
            continue
        if all(math.hypot(x - a, y - b) >= 2 * r for a, b in pts):
            pts.append((x, y))
    return Layout("novus", tuple(Piece(f"p{k}", "puck", x, y, "red") for k, (x, y) in
                                 enumerate(pts)))


def check_invariants(result) -> None:
    assert not result.truncated
    assert np.isfinite(result.events).all()
    segs = result.segments
    assert np.isfinite(segs[:, [1, 3, 4, 5, 6, 7, 8, 9, 10]]).all()
    radii = np.array([TABLE.piece_spec(p.kind).radius for p in result.initial.pieces])
    times = np.unique(result.events[:, COL_T])
    for t in np.append(times, times[-1] + 10.0):
        pos, on = result.positions_at(float(t))
        p, rr = pos[on], radii[on]
        # nothing leaves the board
        assert (p >= rr[:, None] - 1e-9).all() and (p <= 1 - rr[:, None] + 1e-9).all()
        # no overlap beyond TOUCH (1e-9 m: how deep the core catches a touching pair that
        # sinks, sim.detect.pairs) and its round-off
        if len(p) > 1:
            d = np.hypot(p[:, None, 0] - p[None, :, 0], p[:, None, 1] - p[None, :, 1])
            gap = d - rr[:, None] - rr[None, :]
            np.fill_diagonal(gap, np.inf)
            assert gap.min() > -TOUCH * (1.0 + 1e-6), (t, gap.min())
    # everything rests at the end: the last segment of every piece has zero velocity
    last = {}
    for row in segs:
        last[int(row[0])] = row
    assert all(row[5] == 0.0 and row[6] == 0.0 for row in last.values())


@SETTINGS
@given(shot=shots, doubles=st.booleans())
def test_random_shots_into_the_start_layouts(table, singles, doubles_layout, shot, doubles):
    layout = doubles_layout if doubles else singles
    layout = layout.without(["striker"])
    try:
        shot.place(table, layout)
    except ShotError:  # the striker would touch a puck of the row on that side
        assume(False)
    result = simulate(table, layout, shot)
    check_invariants(result)


@SETTINGS
@given(shot=shots.filter(lambda s: s.side == "south"), seed=st.integers(0, 2**32 - 1),
       n=st.integers(1, 30))
def test_random_shots_into_random_layouts(table, shot, seed, n):
    layout = random_layout(seed, n)
    result = simulate(table, layout, shot)
    check_invariants(result)


@settings(max_examples=examples(15), deadline=None)
@given(shot=shots.filter(lambda s: s.side == "south"), seed=st.integers(0, 2**32 - 1))
def test_same_input_gives_the_same_output(table, shot, seed):
    layout = random_layout(seed, 20)
    a = simulate(table, layout, shot)
    b = simulate(table, layout, shot)
    assert np.array_equal(a.events, b.events)
    assert np.array_equal(a.segments, b.segments)
    assert a.final == b.final
