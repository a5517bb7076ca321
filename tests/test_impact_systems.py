"""How the contacts due at one instant are split into impacts (resolve.impact, issue 12).

Contacts joined by no chain of touching pieces are separate impacts (a fixed cushion joins
nothing); a system with one due contact whose other contacts never close is that contact's
binary impact. Both are exact reductions of the multiple impact, so they must give the same
result as the same contact met alone.
"""

from __future__ import annotations

import numpy as np

from cuesim import Layout, Piece, novus_table
from cuesim.sim import run_motion
from cuesim.tables import pool_table

POOL = pool_table()
NOVUS = novus_table()
R_BALL = POOL.piece_spec("ball").radius
R_PUCK = NOVUS.piece_spec("puck").radius


def _final(table, pieces: list[Piece], motion: dict[str, tuple[float, ...]]) -> dict[str, tuple]:
    res = run_motion(table, Layout(table.name, tuple(pieces)), motion)
    assert not res.truncated
    return {p.id: (tuple(res.final_positions[k]), bool(res.final_on[k]))
            for k, p in enumerate(pieces)}


def test_two_balls_meeting_two_cushions_at_once_are_two_binary_impacts():
    """Mirror-image balls reach the two long cushions at the same instant: each rebounds
    exactly as it does alone (Han's cushion model), not as one multiple impact of both
    (compared until the two come back and meet)."""
    w, length = POOL.width, POOL.length
    a = Piece("a", "ball", 0.3, length / 2)
    b = Piece("b", "ball", w - 0.3, length / 2)
    va, vb = (-2.0, 0.7, 0.0, 0.0, 0.0), (2.0, 0.7, 0.0, 0.0, 0.0)
    both = run_motion(POOL, Layout(POOL.name, (a, b)), {"a": va, "b": vb})
    rails = [e for e in both.event_log() if e.kind.name == "RAIL"][:2]
    assert rails[0].t == rails[1].t and {rails[0].a, rails[1].a} == {"a", "b"}
    meet = next(e.t for e in both.event_log() if e.kind.name == "COLLIDE")
    for k, (piece, v) in enumerate(((a, va), (b, vb))):
        alone = run_motion(POOL, Layout(POOL.name, (piece,)), {piece.id: v})
        for t in np.linspace(rails[0].t, meet, 7)[:-1]:
            np.testing.assert_allclose(both.positions_at(float(t))[0][k],
                                       alone.positions_at(float(t))[0][0], rtol=0, atol=1e-12)


def test_two_pucks_meeting_two_pucks_at_once_are_two_binary_impacts():
    """Two separate puck-puck impacts due at the same instant (novus): each pair ends as it
    does alone."""
    p = [Piece("a", "puck", 0.3, 0.3), Piece("b", "puck", 0.3, 0.4),
         Piece("c", "puck", 0.7, 0.3), Piece("d", "puck", 0.7, 0.4)]
    motion = {"a": (0.1, 1.5, 0.0), "c": (-0.1, 1.5, 0.0)}
    both = _final(NOVUS, p, motion)
    left = _final(NOVUS, p[:2], {"a": motion["a"]})
    right = _final(NOVUS, p[2:], {"c": motion["c"]})
    for k in "ab":
        assert both[k] == left[k]
    for k in "cd":
        assert both[k] == right[k]


def test_touching_neighbour_pushed_away_plays_no_part():
    """A ball struck away from the ball it touches (20 degrees off the line of the two): the
    touching contact opens from the first instant, so the impact is exactly the binary one
    and the neighbour stays where it was."""
    x, y = POOL.width / 2, POOL.length / 2
    b = Piece("b", "ball", x, y)
    c = Piece("c", "ball", x, y + 2 * R_BALL)  # touching b from above
    th = np.radians(20.0)  # the cue ball comes from the upper right, along the line of centres
    cue = Piece("cue", "ball", x + 0.3 * np.cos(th), y + 0.3 * np.sin(th))
    motion = {"cue": (-2.0 * np.cos(th), -2.0 * np.sin(th), 0.0, 0.0, 0.0)}
    with_c = run_motion(POOL, Layout(POOL.name, (b, c, cue)), motion)
    alone = run_motion(POOL, Layout(POOL.name, (b, cue)), motion)
    first = with_c.event_log()[0]
    assert {first.a, first.b} == {"b", "cue"}
    assert first.t == alone.event_log()[0].t
    pos_w, _ = with_c.positions_at(first.t + 0.01)
    pos_a, _ = alone.positions_at(first.t + 0.01)
    assert np.array_equal(pos_w[[0, 2]], pos_a)
    assert np.array_equal(pos_w[1], (c.x, c.y))


def test_touching_neighbour_pushed_into_takes_part():
    """A ball driven straight into the ball it touches: the wave passes, the far ball leaves
    (Newton's cradle) and the struck ball keeps only a small part of the speed."""
    x, y = POOL.width / 2, POOL.length / 2
    b = Piece("b", "ball", x, y)
    c = Piece("c", "ball", x, y + 2 * R_BALL)
    cue = Piece("cue", "ball", x, y - 0.3)
    res = run_motion(POOL, Layout(POOL.name, (b, c, cue)), {"cue": (0.0, 2.0, 0.0, 0.0, 0.0)})
    pos, _ = res.positions_at(0.3)
    assert pos[1, 1] - (y + 2 * R_BALL) > 0.2  # c travelled
    assert pos[0, 1] - y < 0.25 * (pos[1, 1] - (y + 2 * R_BALL))  # b kept a small part


def test_a_pocketed_ball_stays_where_it_dropped():
    """A ball pocketed with side spin left (its horizontal spin components) drifted on its
    last, open segment: positions_at(30 s) put it hundreds of metres off the table. Pocketed,
    it rests where it was captured."""
    from cuesim import CueShot, simulate
    from cuesim.tables import cue_ball_in_kitchen, nine_ball_rack

    layout = nine_ball_rack(POOL, cue=cue_ball_in_kitchen(POOL))
    cue = layout.pieces[layout.index("cue")]
    fx, fy = POOL.foot_spot
    res = simulate(POOL, layout, CueShot(angle=float(np.arctan2(fy - cue.y, fx - cue.x)),
                                         speed=8.0))
    gone = [k for k, on in enumerate(res.final_on) if not on]
    assert gone  # the break pockets balls
    for t in (res.event_log()[-1].t, 30.0, 1000.0):
        pos, on = res.positions_at(t)
        assert not on[gone].any()
        np.testing.assert_array_equal(pos[gone], res.final_positions[gone])
