"""WPA 3.8, 3.10, 3.16, 3.39: the cue ball in hand behind the head string (the kitchen), on
hand-written event logs (split from test_rules_pool_general.py)."""

from __future__ import annotations

from cuesim.rules.pool import StraightPool
from cuesim.tables.pool_spots import HEAD_STRING_Y
from tests.pool_util import (
    ASIDE,
    KITCHEN_CUE,
    MID,
    articles,
    cross,
    hit,
    rail,
    shot,
    strike,
)


def kitchen_in_play() -> StraightPool:
    """A 14.1 game in play, Ann to shoot with the cue ball in hand behind the head string (as
    after a scratch, 6.10; 9-ball gives it only for the opening break, 5.2, 5.7)."""
    g = StraightPool(players=("Ann", "Bob"))
    g.state.phase = "play"
    return g


# --- 3.8, 3.10, 3.16, 3.39: cue ball in hand behind the head string ----------------------
def test_3_10_3_39_break_must_leave_the_kitchen_first():
    g = StraightPool(players=("Ann", "Bob"))
    pos = {"cue": KITCHEN_CUE, "3": (0.3, 0.5), "4": MID}
    out = g.play(shot([strike(), hit(0.2, "3"), cross(0.5), rail(0.6, "cue")], pos))
    assert "WPA 3.39" in articles(out)


def test_3_39_ball_in_kitchen_may_be_hit_after_the_cue_ball_left_and_came_back():
    g = kitchen_in_play()
    pos = {"cue": KITCHEN_CUE, "1": (0.3, 0.5), "9": MID}
    ev = [strike(), cross(0.3), rail(0.8, "cue", "foot_rail"), cross(1.2, direction=-1),
          hit(1.6, "1"), rail(1.9, "1", "head_rail")]
    out = g.play(shot(ev, pos))
    assert out.ruling.legal, out.ruling.describe()


def test_3_39_ball_on_the_head_string_may_be_hit_before_crossing():
    g = kitchen_in_play()
    pos = {"cue": KITCHEN_CUE, "1": (0.6, HEAD_STRING_Y), "9": MID}
    out = g.play(shot([strike(), hit(0.1, "1"), rail(0.5, "1", "left_foot_rail")], pos))
    assert out.ruling.legal


def test_3_39_a_kitchen_ball_touched_later_before_leaving_the_kitchen_is_a_foul():
    """3.39: "the shot is a foul if before leaving the kitchen the cue ball touches any object
    ball lying in the kitchen". A first contact with the 1 on the head string is legal, but the
    cue ball, still behind the head string, then touches the 2 lying in the kitchen: a foul.
    Once it has crossed the head string, the same later contact is legal."""
    pos = {"cue": KITCHEN_CUE, "1": (0.6, HEAD_STRING_Y), "2": (0.25, 0.3), "9": MID}
    ev = [strike(), hit(0.1, "1"), rail(0.5, "1", "left_foot_rail"), hit(0.6, "2"),
          rail(0.9, "2", "left_head_rail")]
    out = kitchen_in_play().play(shot(ev, pos))
    assert "WPA 3.39" in articles(out)
    assert "ball 2 behind the head string" in out.ruling.describe()
    ev = [strike(), hit(0.1, "1"), rail(0.5, "1", "left_foot_rail"), cross(0.52),
          rail(0.55, "cue", "left_foot_rail"), cross(0.58, direction=-1), hit(0.6, "2"),
          rail(0.9, "2", "left_head_rail")]
    assert kitchen_in_play().play(shot(ev, pos)).ruling.legal


def test_3_39_2_10_a_simultaneous_hit_beyond_the_head_string_gives_the_benefit():
    """3.39 with 2.10: the cue ball from the kitchen hits a ball behind the head string and
    one beyond it at the same instant: the shooter has the benefit of the doubt (as for the
    first ball hit, 2.10), so no 3.39 foul; both behind it, a foul."""
    pos = {"cue": KITCHEN_CUE, "1": (0.59, 0.62), "2": (0.66, 0.64), "9": MID}
    ev = [strike(), hit(0.15, "1"), hit(0.15, "2"), rail(0.6, "2", "left_foot_rail")]
    out = kitchen_in_play().play(shot(ev, pos))
    assert out.ruling.legal, out.ruling.describe()
    pos["2"] = (0.66, 0.60)
    out = kitchen_in_play().play(shot(ev, pos))
    assert "WPA 3.39" in articles(out)


def test_3_10_cue_ball_that_never_crosses_is_a_foul():
    g = kitchen_in_play()
    out = g.play(shot([strike(), rail(0.4, "cue", "head_rail")],
                      {"cue": KITCHEN_CUE, "1": MID, "9": ASIDE}))
    assert "WPA 3.10" in articles(out)


def test_3_16_cue_ball_placed_on_the_head_string_is_a_foul():
    g = kitchen_in_play()
    pos = {"cue": (0.6, HEAD_STRING_Y), "1": MID, "9": ASIDE}
    out = g.play(shot([strike(), cross(0.0), hit(0.3, "1"), rail(0.5, "1")], pos))
    assert "WPA 3.16" in articles(out)
