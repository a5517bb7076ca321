"""14.1 continuous, WPA section 6, article by article; the 6.7.6 re-rack table case by case."""

from __future__ import annotations

import math

import pytest

from cuesim.rules.pool import StraightPool
from cuesim.rules.pool.model import Declaration, PoolShot
from cuesim.rules.ruling import Infraction
from cuesim.tables.pool_spots import (
    CENTER_SPOT,
    FOOT_SPOT,
    HEAD_SPOT,
    PLAYING_WIDTH,
    in_rack_area,
    triangle_positions,
)
from tests.pool_util import (
    KITCHEN_CUE,
    articles,
    choice,
    cross,
    foul,
    hit,
    pocket,
    rack_positions,
    rail,
    shot,
    spread,
    strike,
    wave,
)

ALL = [str(n) for n in range(1, 16)]


def in_play(shooter="Ann", **kw) -> StraightPool:
    g = StraightPool(players=("Ann", "Bob"))
    g.state.phase, g.state.ball_in_hand, g.state.shooter = "play", None, shooter
    for k, v in kw.items():
        setattr(g.state, k, v)
    return g


def brk(extra):
    return [strike(), cross(0.2), hit(0.5, "1"), *wave(0.5, "1", ALL), *extra], {"cue": KITCHEN_CUE,
                                                          **rack_positions(ALL)}


# --- 6.6 the opening break ---------------------------------------------------------------
def test_6_6_safe_break_cue_ball_and_two_balls_to_rail():
    ev, pos = brk([rail(0.8, "cue", "foot_rail"), rail(0.9, "2"), rail(1.0, "3")])
    out = StraightPool(players=("Ann", "Bob")).play(shot(ev, pos))
    assert out.ruling.legal and out.ruling.turn_passes
    assert out.ruling.notes[0] == "a legal break (WPA 6.6)"


@pytest.mark.parametrize("option,shooter", [("shoot_kitchen", "Bob"), ("pass_kitchen", "Ann")])
def test_3_9_break_interference_one_point_and_the_kitchen_choice(option, shooter):
    """3.9 (9-ball alone excepted): the cue ball stopped or deflected on the break is a foul, the
    turn passes and the opponent shoots from the kitchen or has the offender do so; in 14.1 the
    foul costs its point (6.11), and the offender is warned (3.29)."""
    ev, pos = brk([rail(0.8, "cue", "foot_rail"), rail(0.9, "2"), rail(1.0, "3")])
    g = StraightPool(players=("Ann", "Bob"))
    out = g.play(shot(ev, pos, infractions=[foul("break_cue_interference")]))
    assert "WPA 3.9" in articles(out) and out.state.scores["Ann"] == -1
    assert out.state.pending["player"] == "Bob" and out.state.pending["article"] == "WPA 3.9"
    assert set(out.state.pending["options"]) == {"shoot_kitchen", "pass_kitchen"}
    g.choose(option)
    assert g.state.shooter == shooter and g.state.ball_in_hand == "kitchen"


def test_6_6_called_ball_made_on_the_break_scores():
    ev, pos = brk([pocket(1.0, "1", "foot_right")])
    out = StraightPool(players=("Ann", "Bob")).play(
        shot(ev, pos, called_ball="1", called_pocket="foot_right"))
    assert out.ruling.points == {"Ann": 1} and not out.ruling.turn_passes


def test_6_6_breaking_violation_minus_two_and_options_until_satisfied():
    g = StraightPool(players=("Ann", "Bob"))
    ev, pos = brk([rail(1.0, "2")])
    out = g.play(shot(ev, pos))
    assert "WPA 6.6" in articles(out) and out.ruling.points == {"Ann": -2}
    assert g.state.fouls["Ann"] == 0  # not a consecutive foul
    g.choose("rerack")
    assert g.state.shooter == "Ann" and g.state.phase == "break"
    g.play(shot(ev, pos))
    assert g.state.scores["Ann"] == -4  # 6.13 negative scores
    g.choose("accept")
    assert g.state.shooter == "Bob" and g.state.phase == "play"


def test_6_6_scratch_on_a_legal_break_is_a_one_point_foul():
    ev, pos = brk([rail(0.8, "cue"), rail(0.9, "2"), rail(1.0, "3"), pocket(1.2, "cue")])
    g = StraightPool(players=("Ann", "Bob"))
    out = g.play(shot(ev, pos))
    assert out.ruling.points == {"Ann": -1} and g.state.fouls["Ann"] == 1
    assert out.state.ball_in_hand == "kitchen" and out.state.shooter == "Bob"


# --- 6.7.1, 6.5 scoring -------------------------------------------------------------------
def test_6_7_1_called_ball_scores_and_extra_balls_count():
    ev = [strike(), hit(0.2, "4"), hit(0.3, "5", "4"), pocket(0.5, "4", "side_left"),
          pocket(0.6, "5", "foot_left")]
    out = in_play().play(shot(ev, spread(ALL), called_ball="4", called_pocket="side_left"))
    assert out.ruling.points == {"Ann": 2} and not out.ruling.turn_passes


def test_6_8_uncalled_ball_is_spotted_turn_passes():
    ev = [strike(), hit(0.2, "4"), pocket(0.5, "4", "foot_left")]
    out = in_play().play(shot(ev, spread(ALL), called_ball="4", called_pocket="side_left"))
    assert out.ruling.legal and out.ruling.turn_passes and out.ruling.points == {}
    assert out.layout.get("4").y == pytest.approx(FOOT_SPOT[1])


def test_6_7_4_safety_spots_pocketed_balls():
    ev = [strike(), hit(0.2, "4"), pocket(0.5, "4")]
    out = in_play().play(shot(ev, spread(ALL), safety=True))
    assert out.ruling.legal and out.ruling.turn_passes and "4" in out.layout.ids()


def test_6_7_2_no_rail_is_a_foul():
    out = in_play().play(shot([strike(), hit(0.2, "4")], spread(ALL)))
    assert "WPA 6.7.2" in articles(out) and out.ruling.points == {"Ann": -1}


# --- fouls ---------------------------------------------------------------------------------
def test_6_11_foul_incoming_player_accepts_cue_ball_position():
    out = in_play().play(shot([strike(), hit(0.2, "4")], spread(ALL)))
    assert out.state.ball_in_hand is None and "cue" in out.layout.ids()


def test_6_11_3_10_a_foul_placing_the_cue_ball_in_hand_leaves_it_in_hand():
    """6.11, 3.10, 3.22: Ann has the cue ball in hand behind the head string, puts it down and
    touches the 3 while placing it: a foul between shots. The cue ball is still in hand (no
    stroke drove it across the head string), so Bob has it in hand there too, whether or not
    the step's layout shows where Ann had put it."""
    pos = dict(spread(ALL), cue=KITCHEN_CUE)
    touched = [Infraction("touched_ball_placing", pieces=("3",))]
    for with_layout in (True, False):
        g = in_play(ball_in_hand="kitchen")
        step = shot([], pos, infractions=touched)
        if not with_layout:
            step = PoolShot([], None, None, Declaration(), touched)
        out = g.play(step)
        assert out.ruling.next_player == "Bob" and out.ruling.points == {"Ann": -1}
        assert out.state.ball_in_hand == "kitchen", with_layout


def test_6_10_scratch_ball_in_hand_in_the_kitchen():
    ev = [strike(), hit(0.2, "4"), rail(0.3, "4"), pocket(0.6, "cue")]
    out = in_play().play(shot(ev, spread(ALL)))
    assert out.ruling.placement == "kitchen" and out.ruling.points == {"Ann": -1}


def test_6_9_ball_off_table_foul_and_spotted():
    ev = [strike(), hit(0.2, "4"), rail(0.3, "4")]
    out = in_play().play(shot(ev, spread(ALL), infractions=[foul("off_table", "4")]))
    assert "WPA 6.9" in articles(out)
    assert out.layout.get("4").y == pytest.approx(FOOT_SPOT[1])
    assert [(r["id"], r["article"]) for r in out.spotted] == [("4", "WPA 6.9")]


def test_6_9_a_ball_off_the_table_is_spotted_by_6_9_a_pocketed_one_by_6_13():
    """6.9 "Все выскочившие шары выставляются" spots the balls that left the table; 6.13 the
    ball pocketed on the foul. Both were recorded under 6.13."""
    ev = [strike(), hit(0.2, "4"), hit(0.25, "4", "5"), pocket(0.5, "5", "side_left"),
          rail(0.6, "4")]
    out = in_play().play(shot(ev, spread(ALL), called_ball="5", called_pocket="side_left",
                              infractions=[foul("off_table", "4")]))
    assert {r["id"]: r["article"] for r in out.spotted} == {"4": "WPA 6.9", "5": "WPA 6.13"}


def test_6_13_ball_made_on_a_foul_is_spotted_and_not_scored():
    ev = [strike(), hit(0.2, "4"), pocket(0.5, "4", "side_left"), pocket(0.7, "cue")]
    out = in_play(scores={"Ann": 10, "Bob": 0}).play(
        shot(ev, spread(ALL), called_ball="4", called_pocket="side_left"))
    assert out.state.scores["Ann"] == 9 and "4" in out.layout.ids()


def test_6_7_5_deliberate_interference_sixteen_points_and_options():
    ev = [strike(), hit(0.2, "4"), rail(0.3, "4")]
    g = in_play()
    out = g.play(shot(ev, spread(ALL), infractions=[foul("deliberate_interference")]))
    assert out.ruling.points == {"Ann": -16}
    assert set(out.state.pending["options"]) == {"accept", "rerack"}
    g.choose("accept")
    assert g.state.shooter == "Bob" and g.state.ball_in_hand == "kitchen"


@pytest.mark.parametrize("option", ["accept", "rerack"])
def test_6_7_5_deliberate_interference_by_the_other_player_sixteen_points(option):
    """6.7.5: "Игрок не должен ... воздействовать на шар во время его движения к лузе": the
    non-shooting player who does it is charged 1 + 15 = 16 points, not the 1 of 3.41, and the
    player at the table chooses: the position with the cue ball in hand behind the head string,
    or the 15 balls racked for the offender to break."""
    g = in_play()
    out = g.play(shot([], spread(ALL), infractions=[
        Infraction("deliberate_interference", player="Bob")]))
    assert out.ruling.points == {"Bob": -16} and "WPA 6.7.5" in articles(out)
    assert out.state.pending["player"] == "Ann"
    assert set(out.state.pending["options"]) == {"accept", "rerack"}
    g.choose(option)
    assert g.state.shooter == ("Ann" if option == "accept" else "Bob")
    if option == "accept":
        assert g.state.ball_in_hand == "kitchen"


def test_6_12_third_consecutive_foul_minus_eighteen_in_all():
    g = in_play()
    miss = [strike(), hit(0.2, "4")]
    for _k in range(3):
        g.state.shooter = "Ann"
        out = g.play(shot(miss, spread(ALL)))
    assert g.state.scores["Ann"] == -18
    assert "WPA 6.12" in articles(out) and g.state.fouls["Ann"] == 0
    out = g.choose("rerack")
    assert out.rack == "straight_pool" and g.state.shooter == "Ann"
    assert g.state.phase == "break"  # 6.6 opening-break requirements again


def test_6_12_legal_shot_in_between_clears_the_count():
    g = in_play(fouls={"Ann": 2, "Bob": 0}, warned={"Ann": True, "Bob": False})
    ev = [strike(), hit(0.2, "5"), pocket(0.5, "5", "side_left"), pocket(0.9, "cue")]
    g.play(shot([strike(), hit(0.2, "4"), pocket(0.5, "4", "side_left")], spread(ALL),
                called_ball="4", called_pocket="side_left"))
    assert g.state.fouls["Ann"] == 0
    g.play(shot(ev, spread([b for b in ALL if b != "4"]), called_ball="5",
                called_pocket="side_left"))
    assert g.state.fouls["Ann"] == 1  # the example of 6.12


def test_6_5_points_are_said_once():
    """6.5, 6.7.1: the ruling says how many balls count and who scores, without repeating the
    score ('1 point(s) for Ann ... Ann scores 1 point' before)."""
    g = in_play()
    ev = [strike(), hit(0.2, "4"), pocket(0.5, "4", "side_left")]
    out = g.play(shot(ev, spread(ALL), called_ball="4", called_pocket="side_left"))
    text = out.ruling.describe()
    assert "1 ball pocketed on a legal shot, a point each (WPA 6.5, 6.7.1)" in text
    assert text.count("1 point") == 1 and "point(s)" not in text


def test_6_1_game_to_points_to():
    g = in_play(scores={"Ann": 149, "Bob": 20})
    ev = [strike(), hit(0.2, "4"), pocket(0.5, "4", "side_left")]
    out = g.play(shot(ev, spread(ALL), called_ball="4", called_pocket="side_left"))
    assert out.ruling.match_over and out.ruling.winner == "Ann"


def test_6_1_3_36_a_match_of_games_to_points_to_races_to_race_to():
    """A 14.1 match of several games (race_to): reaching points_to wins the game (6.1), not the
    match; the next game starts from 0 points on a new rack, broken by 3.36's order, and the
    match ends when race_to games are won."""
    g = StraightPool(players=("Ann", "Bob"), race_to=2, points_to=150)
    g.state.phase, g.state.ball_in_hand, g.state.shooter = "play", None, "Ann"
    g.state.scores = {"Ann": 149, "Bob": 20}
    ev = [strike(), hit(0.2, "4"), pocket(0.5, "4", "side_left")]
    out = g.play(shot(ev, spread(ALL), called_ball="4", called_pocket="side_left"))
    assert out.ruling.frame_over and out.ruling.winner == "Ann" and not out.ruling.match_over
    assert out.state.frames_won == {"Ann": 1, "Bob": 0} and out.state.frame == 2
    assert out.state.scores == {"Ann": 0, "Bob": 0}
    assert out.state.phase == "break" and out.state.shooter == "Ann"  # the winner breaks
    assert out.rack is not None and out.ruling.points == {"Ann": 1}
    g.state.phase, g.state.ball_in_hand = "play", None
    g.state.scores = {"Ann": 3, "Bob": 149}
    g.state.shooter = "Bob"
    out = g.play(shot(ev, spread(ALL), called_ball="4", called_pocket="side_left"))
    assert out.ruling.frame_over and out.ruling.winner == "Bob" and not out.ruling.match_over
    assert out.state.frames_won == {"Ann": 1, "Bob": 1} and out.state.phase == "break"
    g.state.phase, g.state.ball_in_hand, g.state.shooter = "play", None, "Ann"
    g.state.scores = {"Ann": 149, "Bob": 0}
    out = g.play(shot(ev, spread(ALL), called_ball="4", called_pocket="side_left"))
    assert out.ruling.match_over and out.state.winner == "Ann"
    assert out.state.frames_won == {"Ann": 2, "Bob": 1}


# --- 6.7.7 ---------------------------------------------------------------------------------
def test_6_7_7_ball_nearest_the_head_string_spotted_on_request():
    g = in_play(ball_in_hand="kitchen")
    from tests.pool_util import layout
    lay = layout({"3": (0.3, 0.2), "7": (0.9, 0.5)})
    out = g.request_kitchen_spot(lay)
    assert out.layout.get("7").y == pytest.approx(FOOT_SPOT[1])
    with pytest.raises(ValueError, match="every object ball"):
        g.request_kitchen_spot(layout({"3": (0.3, 0.2), "7": (0.9, 1.5)}))


# --- 6.7.3 / 6.7.6: the re-rack table, case by case -----------------------------------------
ELSEWHERE = (0.2, 1.2)  # not in the kitchen, not in the rack area
IN_KITCHEN = (0.2, 0.3)
IN_RACK = (FOOT_SPOT[0] + 0.02, FOOT_SPOT[1] + 0.1)
IN_RACK_TOO = (FOOT_SPOT[0] - 0.06, FOOT_SPOT[1] + 0.1)  # the other ball, clear of the first


def last_ball_shot(cue_at, fifteenth_at, make_fifteenth=False):
    """Ann pockets the 14th ball (4) with a called shot, leaving the 15th (7) and the cue."""
    assert in_rack_area(*IN_RACK) and in_rack_area(*IN_RACK_TOO) and not in_rack_area(*ELSEWHERE)
    # the 7 stands where it stays unless the cue ball pockets it (no event moves it otherwise)
    pos = {"cue": (0.3, 1.5), "4": (0.15, 2.3), "7": (0.5, 1.0) if make_fifteenth else fifteenth_at}
    final = {"cue": cue_at, "7": fifteenth_at}
    ev = [strike(), hit(0.2, "4"), pocket(0.5, "4", "foot_left")]
    if make_fifteenth:
        ev += [hit(0.55, "7"), pocket(0.6, "7", "foot_right")]
        del final["7"]
    return shot(ev, pos, final=final, called_ball="4", called_pocket="foot_left")


CASES = [
    # (15th ball, cue ball) -> (15th goes to, cue goes to): the table of 6.7.3
    ("rack", IN_RACK, "rack", IN_RACK_TOO, FOOT_SPOT, "kitchen"),
    ("rack", IN_RACK, "head", HEAD_SPOT, CENTER_SPOT, HEAD_SPOT),
    ("rack", IN_RACK, "elsewhere", ELSEWHERE, HEAD_SPOT, ELSEWHERE),
    ("pocketed", None, "rack", IN_RACK, FOOT_SPOT, "kitchen"),
    ("pocketed", None, "elsewhere", ELSEWHERE, FOOT_SPOT, ELSEWHERE),
    ("pocketed", None, "head", HEAD_SPOT, FOOT_SPOT, HEAD_SPOT),
    ("kitchen", IN_KITCHEN, "rack", IN_RACK, IN_KITCHEN, HEAD_SPOT),
    ("elsewhere", ELSEWHERE, "rack", IN_RACK, ELSEWHERE, "kitchen"),
    ("head", HEAD_SPOT, "rack", IN_RACK, HEAD_SPOT, CENTER_SPOT),
    ("elsewhere", ELSEWHERE, "kitchen", IN_KITCHEN, ELSEWHERE, IN_KITCHEN),
]


def assert_rack_6_4(lay, fifteenth: str, with_apex: bool = False) -> None:
    """The racked balls stand on the triangle's places, the apex place empty unless
    `with_apex`, the 1 in the racker's right back corner and the 5 in his left (6.4)."""
    places = triangle_positions(5)
    racked = {p.id: (p.x, p.y) for p in lay.pieces if p.id not in ("cue", fifteenth)}
    assert len(racked) == (15 if with_apex else 14)
    on = {b: min(range(15), key=lambda k: math.dist(places[k], xy)) for b, xy in racked.items()}
    assert all(math.dist(places[on[b]], xy) < 1e-9 for b, xy in racked.items())
    assert len(set(on.values())) == len(on) and (0 in on.values()) == with_apex
    for ball, corner in (("1", 10), ("5", 14)):
        if ball != fifteenth:
            assert on[ball] == corner, (ball, on[ball])


@pytest.mark.parametrize("b_case,b_at,c_case,c_at,b_to,c_to", CASES,
                         ids=[f"15th_{c[0]}-cue_{c[2]}" for c in CASES])
def test_6_7_6_rerack_table(b_case, b_at, c_case, c_at, b_to, c_to):
    """6.7.3 (its table, applied by 6.7.6): 14 balls racked with the apex place empty, the 15th
    ball and the cue ball where the table puts them."""
    g = in_play()
    out = g.play(last_ball_shot(c_at, b_at or (0, 0), make_fifteenth=b_case == "pocketed"))
    lay = out.layout
    assert out.ruling.points["Ann"] >= 1 and not out.ruling.turn_passes
    balls = [p for p in lay.pieces if p.id != "cue"]
    assert len(balls) == 15
    seven = lay.get("7")
    assert (seven.x, seven.y) == pytest.approx(b_to)
    assert_rack_6_4(lay, "7")
    if c_to == "kitchen":
        assert "cue" not in lay.ids() and out.state.ball_in_hand == "kitchen"
    else:
        cue = lay.get("cue")
        assert (cue.x, cue.y) == pytest.approx(c_to)
        assert out.state.ball_in_hand is None
    assert any("6.7.3" in n for n in out.ruling.notes)


def test_6_7_3_fourteen_racked_without_apex():
    g = in_play()
    out = g.play(last_ball_shot(ELSEWHERE, (PLAYING_WIDTH - 0.1, 0.9)))
    racked = [p for p in out.layout.pieces if p.id not in ("cue", "7")]
    assert len(racked) == 14 and all(in_rack_area(p.x, p.y) for p in racked)


def test_6_7_3_fifteenth_in_a_pocket_goes_to_the_foot_spot_not_a_full_rack():
    """6.7.3, table row "in a pocket": the 15th ball dropped with the 14th; the 14 are racked
    with the apex place empty and the 15th itself goes to the foot spot (it is the last ball to
    drop: here the 7, not a full rack in number order with the 1 at the apex)."""
    out = in_play().play(last_ball_shot(ELSEWHERE, None, make_fifteenth=True))
    seven = out.layout.get("7")
    assert (seven.x, seven.y) == pytest.approx(FOOT_SPOT)
    assert_rack_6_4(out.layout, "7")
    assert {"id": "7", "x": FOOT_SPOT[0], "y": FOOT_SPOT[1],
            "article": "WPA 6.7.3"} in out.ruling.spotted
    assert any("foot spot (WPA 6.7.3)" in n for n in out.ruling.notes)


def test_6_7_3_fifteenth_in_the_rack_area_with_the_cue_ball_goes_to_the_foot_spot():
    """6.7.3 table, 15th ball and cue ball both in the rack area: the 15th goes to the foot
    spot (WPA 6.7.6), the cue ball in hand in the kitchen, the 14 racked around it."""
    out = in_play().play(last_ball_shot(IN_RACK, (FOOT_SPOT[0] - 0.03, FOOT_SPOT[1] + 0.2)))
    seven = out.layout.get("7")
    assert (seven.x, seven.y) == pytest.approx(FOOT_SPOT)
    assert_rack_6_4(out.layout, "7")
    assert any(s["id"] == "7" and s["article"] == "WPA 6.7.6" for s in out.ruling.spotted)


@pytest.mark.parametrize("fifteenth", ["1", "5", "9"])
def test_14_1_rack_6_4_corners_when_the_15th_is_left(fifteenth):
    """6.4 / 6.7.3: the 14 are racked "as before": the 1 in the racker's right back corner and
    the 5 in his left unless that ball is the 15th left on the table; the rest at random, the
    same for the same game state."""
    def play():
        g = in_play(scores={"Ann": 13, "Bob": 0})
        pos = {"cue": (0.3, 1.5), "4": (0.15, 2.3), fifteenth: (0.5, 1.0)}
        ev = [strike(), hit(0.2, "4"), pocket(0.5, "4", "foot_left")]
        return g.play(shot(ev, pos, final={"cue": ELSEWHERE, fifteenth: (0.5, 1.0)},
                           called_ball="4", called_pocket="foot_left"))

    out = play()
    assert_rack_6_4(out.layout, fifteenth)
    assert out.layout.to_dict() == play().layout.to_dict()  # reproducible


def test_14_1_rack_6_4_order_random_but_legal():
    """6.4: the 1 at index 10, the 5 at index 14, the others at random; seeded, reproducible;
    the 14-ball re-rack of 6.7.3 leaves the apex place empty."""
    from cuesim.tables.racks import STRAIGHT_POOL_ORDER, straight_pool_order

    every = [str(n) for n in range(1, 16)]
    assert straight_pool_order(every) == STRAIGHT_POOL_ORDER
    orders = {straight_pool_order(every, rng=seed) for seed in range(20)}
    assert len(orders) > 1
    assert all(o[10] == "1" and o[14] == "5" and sorted(o) == sorted(every) for o in orders)
    assert straight_pool_order(every, rng=3) == straight_pool_order(every, rng=3)
    fourteen = straight_pool_order([b for b in every if b != "1"], apex=False, rng=2)
    assert len(fourteen) == 14 and fourteen[13] == "5" and "1" not in fourteen
    with pytest.raises(ValueError, match="holds 14 different balls"):
        straight_pool_order(every, apex=False)


def test_whole_scripted_game_to_five_points():
    g = StraightPool(players=("Ann", "Bob"), points_to=5)
    ev, pos = brk([rail(0.8, "cue", "foot_rail"), rail(0.9, "2"), rail(1.0, "3")])
    g.play(shot(ev, pos))  # Ann: safe break
    table = list(ALL)
    for _n in range(5):
        b = table.pop()
        out = g.play(shot([strike(), hit(0.2, b), pocket(0.5, b, "side_right")],
                          spread(table + [b]), called_ball=b, called_pocket="side_right"))
        assert out.ruling.legal
    assert out.ruling.match_over and out.ruling.winner == "Bob"
    assert g.state.scores == {"Ann": 0, "Bob": 5}


def test_choice_required_before_next_shot():
    g = StraightPool(players=("Ann", "Bob"))
    ev, pos = brk([rail(1.0, "2")])
    g.play(shot(ev, pos))
    with pytest.raises(ValueError, match="must choose first"):
        g.play(shot(ev, pos))
    g.play(choice("accept"))
    assert g.state.pending is None


def test_6_7_2_two_safeties_on_a_ball_near_a_cushion_then_it_counts_as_frozen():
    """WPA 6.7.2: on an object ball within a ball's width of a cushion (not frozen) a player may
    play only two consecutive safeties driving it to that cushion; on the third shot at it the
    ball counts as frozen (3.38: the same cushion no longer satisfies the rail requirement)."""
    from cuesim.tables.pool_spots import BALL_RADIUS

    pos = spread(ALL)
    pos["5"] = (PLAYING_WIDTH - BALL_RADIUS - 0.03, 1.5)  # 3 cm from the right cushion
    to_its_rail = [strike(), hit(0.3, "5"), rail(0.35, "5", "right_foot_rail")]
    g = in_play()
    for k in range(2):  # Ann and Bob alternate; Ann's two safeties on the 5 are legal
        out = g.play(shot(to_its_rail, pos, safety=True))
        assert out.ruling.legal, k
        g.state.shooter = "Ann"
    third = g.play(shot(to_its_rail, pos, safety=True))
    assert not third.ruling.legal
    assert "WPA 3.38" in articles(third)
    assert any("6.7.2" in n for n in third.ruling.notes)


def test_6_7_2_a_ball_farther_than_a_ball_width_from_the_cushion_is_not_limited():
    pos = spread(ALL)
    pos["5"] = (PLAYING_WIDTH - 0.2, 1.5)
    to_rail = [strike(), hit(0.3, "5"), rail(0.35, "5", "right_foot_rail")]
    g = in_play()
    for _ in range(3):
        assert g.play(shot(to_rail, pos, safety=True)).ruling.legal
        g.state.shooter = "Ann"
