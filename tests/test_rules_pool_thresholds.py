"""Both sides of every numeric threshold of the WPA referees: the count that makes a break
legal, the distances that make a ball frozen or near a cushion, the time that makes contacts
simultaneous, the points that end a 14.1 game and the ball count that re-racks it. Each pair of
tests sits one step either side of the rulebook's number, so a changed comparison or constant
fails one of them. The numbers are written here, not imported: a test that reads the code's
own constant moves with it and cannot notice a change."""

from __future__ import annotations

import numpy as np
import pytest

from cuesim.rules.pool import EightBall, NineBall, StraightPool
from cuesim.tables.pool_spots import frozen
from tests.pool_util import (
    KITCHEN_CUE,
    articles,
    cross,
    hit,
    pocket,
    rack_positions,
    rail,
    shot,
    spread,
    strike,
    wave,
)

BALL_DIAMETER = 0.05715  # m, 2 1/4 in (WPA ball specification)
BALL_RADIUS = BALL_DIAMETER / 2
PLAYING_WIDTH = 1.270  # m, 50 in (9-ft table)
FROZEN_TOLERANCE = 1.0e-4  # m: closer than this is frozen (the project's choice)
SIMULTANEOUS_S = 1.0e-6  # s: contacts this close are simultaneous (2.10, the project's choice)
NINE = [str(n) for n in range(1, 10)]
ALL = [str(n) for n in range(1, 16)]
PLAYERS = ("Ann", "Bob")


def to_rail(*balls: str, t: float = 1.0) -> list:
    return [rail(t + 0.01 * k, b) for k, b in enumerate(balls)]


def break_of(ids: list[str], extra: list) -> tuple[list, dict]:
    return [strike(), cross(0.2), hit(0.5, "1"), *wave(0.5, "1", ids), *extra], {"cue": KITCHEN_CUE,
                                                          **rack_positions(ids)}


def in_play(cls: type, shooter: str = "Ann", **state: object):
    g = cls(players=PLAYERS)
    g.state.phase, g.state.ball_in_hand, g.state.shooter = "play", None, shooter
    for k, v in state.items():
        setattr(g.state, k, v)
    return g


# --- 5.4 / 4.5: four numbered balls to a cushion (or one pocketed) ---------------------------
def test_5_4_four_balls_to_a_cushion_is_a_legal_break():
    ev, pos = break_of(NINE, to_rail("2", "3", "4", "5"))
    out = NineBall(players=PLAYERS).play(shot(ev, pos))
    assert out.ruling.legal and articles(out) == []


def test_5_4_three_balls_to_a_cushion_is_a_foul():
    ev, pos = break_of(NINE, to_rail("2", "3", "4"))
    out = NineBall(players=PLAYERS).play(shot(ev, pos))
    assert articles(out) == ["WPA 5.4"] and "only 3 numbered balls" in out.ruling.violations[0].text
    assert out.state.ball_in_hand == "table" and out.state.shooter == "Bob"


@pytest.mark.parametrize("rails,words", [((), "no numbered ball reached"),
                                          (("2",), "only 1 numbered ball reached")])
def test_5_4_and_4_5_count_the_balls_in_words(rails, words):
    """The illegal-break ruling counts in words: 'no numbered ball', 'only 1 numbered ball'
    (not 'only 0 numbered balls')."""
    for game, ids, article in ((NineBall, NINE, "WPA 5.4"), (EightBall, ALL, "WPA 4.5")):
        ev, pos = break_of(ids, to_rail(*rails))
        out = game(players=PLAYERS).play(shot(ev, pos))
        text = next(v.text for v in out.ruling.violations if v.article == article)
        assert words in text and "(4 needed)" in text


def test_5_4_one_ball_to_a_cushion_four_times_counts_once():
    ev, pos = break_of(NINE, to_rail("2", "2", "2", "2"))
    assert articles(NineBall(players=PLAYERS).play(shot(ev, pos))) == ["WPA 5.4"]


def test_5_4_three_to_a_cushion_and_one_pocketed_is_legal():
    ev, pos = break_of(NINE, [*to_rail("2", "3", "4"), pocket(1.5, "5")])
    out = NineBall(players=PLAYERS).play(shot(ev, pos))
    assert out.ruling.legal and not out.ruling.turn_passes


def test_4_5_four_balls_to_a_cushion_is_a_legal_break():
    ev, pos = break_of(ALL, to_rail("2", "3", "4", "5"))
    out = EightBall(players=PLAYERS).play(shot(ev, pos))
    assert out.ruling.legal and articles(out) == []


def test_4_5_three_balls_to_a_cushion_is_an_illegal_break():
    ev, pos = break_of(ALL, to_rail("2", "3", "4"))
    out = EightBall(players=PLAYERS).play(shot(ev, pos))
    assert articles(out) == ["WPA 4.5"] and "only 3 numbered balls" in out.ruling.violations[0].text
    assert set(out.state.pending["options"]) == {"accept", "rerack_and_break",
                                                  "rerack_opponent_breaks"}


# --- 6.6: the cue ball and two object balls to a cushion -------------------------------------
def test_6_6_cue_ball_and_two_balls_to_a_cushion_is_a_safe_break():
    ev, pos = break_of(ALL, [rail(0.8, "cue", "foot_rail"), *to_rail("2", "3")])
    out = StraightPool(players=PLAYERS).play(shot(ev, pos))
    assert out.ruling.legal and articles(out) == []


def test_6_6_cue_ball_and_one_ball_to_a_cushion_is_a_breaking_violation():
    ev, pos = break_of(ALL, [rail(0.8, "cue", "foot_rail"), *to_rail("2")])
    out = StraightPool(players=PLAYERS).play(shot(ev, pos))
    assert articles(out) == ["WPA 6.6"] and out.ruling.points == {"Ann": -2}


def test_6_6_three_balls_to_a_cushion_without_the_cue_ball_is_a_breaking_violation():
    ev, pos = break_of(ALL, to_rail("2", "3", "4"))
    assert articles(StraightPool(players=PLAYERS).play(shot(ev, pos))) == ["WPA 6.6"]


# --- 5.10 / 3.38: frozen within FROZEN_TOLERANCE -----------------------------------------------
@pytest.mark.parametrize("gap, is_frozen", [(0.5 * FROZEN_TOLERANCE, True),
                                         (FROZEN_TOLERANCE, True),
                                         (2.0 * FROZEN_TOLERANCE, False)])
def test_5_10_ball_in_hand_frozen_within_the_tolerance(gap, is_frozen):
    pos = spread(NINE)
    pos["cue"] = (pos["5"][0], pos["5"][1] + BALL_DIAMETER + gap * (1 - 1e-9))
    g = in_play(NineBall, ball_in_hand="table")
    out = g.play(shot([strike(), hit(0.2, "1"), rail(0.4, "1")], pos))
    assert ("WPA 5.10" in articles(out)) is is_frozen


def test_frozen_at_exactly_the_tolerance():
    d = BALL_DIAMETER + FROZEN_TOLERANCE
    assert frozen(0.0, 0.0, d, 0.0) and not frozen(0.0, 0.0, float(np.nextafter(d, 1.0)), 0.0)


# --- 2.10: contacts within SIMULTANEOUS_S are simultaneous ------------------------------------
@pytest.mark.parametrize("dt, legal", [(0.9 * SIMULTANEOUS_S, True), (1.1 * SIMULTANEOUS_S, False)])
def test_2_10_second_contact_within_the_simultaneity_window(dt, legal):
    """The 2 and then the 1 (the lowest ball): within the window both are first contacts and
    the shooter has the benefit of the doubt; later, the 2 was first (5.8)."""
    ev = [strike(), hit(0.2, "2"), hit(0.2 + dt, "1"), rail(0.4, "1")]
    out = in_play(NineBall).play(shot(ev, spread(NINE)))
    assert out.ruling.legal is legal
    assert ("WPA 5.8" in articles(out)) is not legal


# --- 5.13 / 6.12: the third consecutive foul, the second only warns ----------------------------
def test_5_13_second_foul_warns_third_loses():
    miss = [strike(), rail(0.4, "cue")]
    g = in_play(NineBall, fouls={"Ann": 1, "Bob": 0}, warned={"Ann": False, "Bob": False})
    out = g.play(shot(miss, spread(NINE)))
    assert not out.ruling.frame_over and g.state.fouls["Ann"] == 2 and g.state.warned["Ann"]
    g.state.shooter = "Ann"
    out = g.play(shot(miss, spread(NINE)))
    assert out.ruling.frame_over and out.ruling.winner == "Bob"


def test_6_12_second_foul_is_one_point_third_is_eighteen():
    miss = [strike(), hit(0.2, "4")]
    g = in_play(StraightPool, fouls={"Ann": 1, "Bob": 0}, warned={"Ann": False, "Bob": False})
    out = g.play(shot(miss, spread(ALL)))
    assert out.ruling.points == {"Ann": -1} and g.state.fouls["Ann"] == 2
    g.state.shooter = "Ann"
    out = g.play(shot(miss, spread(ALL)))
    assert out.ruling.points == {"Ann": -16} and "WPA 6.12" in articles(out)


# --- 6.1: the points that end a 14.1 game -------------------------------------------------------
@pytest.mark.parametrize("before, over", [(148, False), (149, True)])
def test_6_1_reaching_points_to_ends_the_game_one_short_does_not(before, over):
    g = in_play(StraightPool, scores={"Ann": before, "Bob": 20})
    ev = [strike(), hit(0.2, "4"), pocket(0.5, "4", "side_left")]
    out = g.play(shot(ev, spread(ALL), called_ball="4", called_pocket="side_left"))
    assert g.state.scores["Ann"] == before + 1
    assert out.ruling.match_over is over
    if over:
        assert out.ruling.winner == "Ann"


# --- 6.7.3: the rack is rebuilt when one object ball is left, not two -------------------------
@pytest.mark.parametrize("balls, rerack", [(["4", "5", "6"], False), (["4", "5"], True)])
def test_6_7_3_rerack_when_one_ball_is_left(balls, rerack):
    pos = {"cue": (0.3, 0.5), "4": (0.3, 0.9), "5": (1.0, 0.9), "6": (1.0, 1.1)}
    pos = {k: v for k, v in pos.items() if k in ("cue", *balls)}
    ev = [strike(), hit(0.2, "4"), pocket(0.5, "4", "side_left")]
    out = in_play(StraightPool).play(shot(ev, pos, called_ball="4", called_pocket="side_left"))
    assert out.ruling.legal and out.ruling.points == {"Ann": 1}
    racked = [p for p in out.layout.pieces if p.id != "cue"]
    assert len(racked) == (15 if rerack else len(balls) - 1)
    assert any("6.7.3" in n for n in out.ruling.notes) is rerack


# --- 6.7.2: within a ball's width of a cushion --------------------------------------------------
@pytest.mark.parametrize("gap, limited", [(BALL_DIAMETER - 1e-6, True),
                                          (BALL_DIAMETER + 1e-6, False)])
def test_6_7_2_a_ball_within_a_balls_width_of_a_cushion(gap, limited):
    pos = spread(ALL)
    pos["5"] = (PLAYING_WIDTH - BALL_RADIUS - gap, 1.5)
    to_its_rail = [strike(), hit(0.3, "5"), rail(0.35, "5", "right_foot_rail")]
    g = in_play(StraightPool)
    for _ in range(2):
        assert g.play(shot(to_its_rail, pos, safety=True)).ruling.legal
        g.state.shooter = "Ann"
    third = g.play(shot(to_its_rail, pos, safety=True))
    assert third.ruling.legal is not limited
    assert ("WPA 3.38" in articles(third)) is limited
