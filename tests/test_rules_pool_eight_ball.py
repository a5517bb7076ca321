"""8-ball, WPA section 4, article by article on hand-written event logs."""

from __future__ import annotations

import pytest

from cuesim.rules.pool import EightBall
from cuesim.tables.pool_spots import FOOT_SPOT
from tests.pool_util import (
    KITCHEN_CUE,
    articles,
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


def in_play(groups=None, shooter="Ann") -> EightBall:
    g = EightBall(players=("Ann", "Bob"))
    g.state.phase, g.state.ball_in_hand, g.state.shooter = "play", None, shooter
    if groups:
        g.state.groups = dict(groups)
    return g


ANN_SOLIDS = {"Ann": "solids", "Bob": "stripes"}


def break_shot(extra, ids=ALL):
    pos = {"cue": KITCHEN_CUE, **rack_positions(ids)}
    return [strike(), cross(0.2), hit(0.5, "1"), *wave(0.5, "1", ids), *extra], pos


def four_rails(t=1.0):
    return [rail(t, b, "foot_rail") for b in ("2", "3", "4", "5")]


# --- the break -----------------------------------------------------------------------------
def test_4_5_legal_break_four_balls_to_rail_turn_passes_table_open():
    ev, pos = break_shot(four_rails())
    out = EightBall(players=("Ann", "Bob")).play(shot(ev, pos))
    assert out.ruling.legal and out.ruling.turn_passes
    assert out.state.groups == {} and out.state.phase == "play"
    assert out.ruling.notes[0] == "a legal break (WPA 4.5)"


def test_4_2_breaker_continues_after_pocketing_a_ball():
    ev, pos = break_shot([pocket(1.0, "3")])
    out = EightBall(players=("Ann", "Bob")).play(shot(ev, pos))
    assert out.ruling.legal and not out.ruling.turn_passes
    assert out.state.groups == {}  # 4.10: no group chosen on the break


def test_4_5_illegal_break_opponent_options():
    ev, pos = break_shot([rail(1.0, "2"), rail(1.1, "3")])
    g = EightBall(players=("Ann", "Bob"))
    out = g.play(shot(ev, pos))
    assert "WPA 4.5" in articles(out)
    assert not any(n.startswith("a legal break") for n in out.ruling.notes)
    assert out.state.pending["player"] == "Bob"
    assert set(out.state.pending["options"]) == {"accept", "rerack_and_break",
                                                 "rerack_opponent_breaks"}
    out = g.choose("rerack_opponent_breaks")
    assert out.rack == "eight_ball"
    assert g.state.shooter == "Ann" and g.state.phase == "break"
    assert g.state.ball_in_hand == "kitchen"


def test_4_5_accept_illegal_break_plays_from_where_the_cue_ball_lies():
    ev, pos = break_shot([rail(1.0, "2")])
    g = EightBall(players=("Ann", "Bob"))
    g.play(shot(ev, pos))
    out = g.choose("accept")
    assert g.state.shooter == "Bob" and g.state.ball_in_hand is None
    assert out.ruling.next_player == "Bob"


def test_4_6_scratch_on_legal_break():
    ev, pos = break_shot([pocket(1.0, "3"), pocket(1.2, "cue")])
    out = EightBall(players=("Ann", "Bob")).play(shot(ev, pos))
    assert "WPA 3.20" in articles(out)
    assert out.state.shooter == "Bob" and out.state.ball_in_hand == "kitchen"
    assert out.state.groups == {} and "3" not in out.layout.ids()


def test_4_7_object_ball_off_table_on_break_options():
    ev, pos = break_shot(four_rails())
    out = EightBall(players=("Ann", "Bob")).play(
        shot(ev, pos, infractions=[foul("off_table", "12")]))
    assert "WPA 4.7" in articles(out)
    assert set(out.state.pending["options"]) == {"accept", "kitchen"}
    assert "12" not in out.layout.ids()  # 4.17: not spotted


def test_4_8_eight_on_the_break_breaker_chooses():
    ev, pos = break_shot([pocket(1.0, "8")])
    g = EightBall(players=("Ann", "Bob"))
    out = g.play(shot(ev, pos))
    assert out.state.pending["player"] == "Ann"
    assert out.layout.get("8").y == pytest.approx(FOOT_SPOT[1])
    g.choose("spot_eight")
    assert g.state.shooter == "Ann" and g.state.ball_in_hand is None


def test_4_8_eight_and_scratch_on_the_break_incoming_chooses():
    ev, pos = break_shot([pocket(1.0, "8"), pocket(1.1, "cue")])
    g = EightBall(players=("Ann", "Bob"))
    out = g.play(shot(ev, pos))
    assert out.state.pending["player"] == "Bob"
    assert not out.ruling.frame_over
    g.choose("spot_eight")
    assert g.state.shooter == "Bob" and g.state.ball_in_hand == "kitchen"


def test_4_7_4_8_eight_and_an_object_ball_off_the_table_on_the_break():
    """WPA 4.7 with 4.8: the 8 pocketed and an object ball off the table on the break, no
    scratch: a 4.7 foul, so the incoming player chooses; the 8 is spotted (with the table as it
    is, or the cue ball behind the head string: 4.7's two options) or the balls are re-racked."""
    ev, pos = break_shot([pocket(1.0, "8")])
    g = EightBall(players=("Ann", "Bob"))
    out = g.play(shot(ev, pos, infractions=[foul("off_table", "12")]))
    assert "WPA 4.7" in articles(out)
    assert out.state.pending["player"] == "Bob"
    assert set(out.state.pending["options"]) == {"spot_eight", "spot_eight_kitchen", "rerack"}
    assert out.layout.get("8").y == pytest.approx(FOOT_SPOT[1])
    g.choose("spot_eight")
    assert g.state.shooter == "Bob" and g.state.ball_in_hand is None
    g = EightBall(players=("Ann", "Bob"))
    g.play(shot(ev, pos, infractions=[foul("off_table", "12")]))
    g.choose("spot_eight_kitchen")
    assert g.state.shooter == "Bob" and g.state.ball_in_hand == "kitchen"


def test_3_9_break_cue_ball_interference_foul_and_options():
    ev, pos = break_shot(four_rails())
    out = EightBall(players=("Ann", "Bob")).play(
        shot(ev, pos, infractions=[foul("break_cue_interference")]))
    assert "WPA 3.9" in articles(out)
    assert set(out.state.pending["options"]) == {"shoot_kitchen", "pass_kitchen"}


@pytest.mark.parametrize("choice, shooter, in_hand", [("shoot_kitchen", "Bob", "kitchen"),
                                                       ("pass_kitchen", "Ann", "kitchen")])
def test_3_9_with_the_eight_down_on_the_break_4_8_spot_or_rerack(choice, shooter, in_hand):
    """WPA 3.9 with 4.8: the breaker stopped the cue ball and the 8 dropped. The foul gives
    the incoming player 3.9's choice (the kitchen for himself or for the offender) with the 8
    spotted, or 4.8's re-rack, which he breaks (as after a scratch with the 8, 4.8)."""
    ev, pos = break_shot([pocket(1.0, "8")])
    g = EightBall(players=("Ann", "Bob"))
    out = g.play(shot(ev, pos, infractions=[foul("break_cue_interference")]))
    assert out.state.pending["player"] == "Bob"
    assert out.state.pending["article"] == "WPA 3.9, 4.8"
    assert set(out.state.pending["options"]) == {"shoot_kitchen", "pass_kitchen", "rerack"}
    assert out.layout.get("8").y == pytest.approx(FOOT_SPOT[1])
    assert any("4.8" in n for n in out.ruling.notes)
    g.choose(choice)
    assert g.state.shooter == shooter and g.state.ball_in_hand == in_hand
    g = EightBall(players=("Ann", "Bob"))
    g.play(shot(ev, pos, infractions=[foul("break_cue_interference")]))
    again = g.choose("rerack")
    assert again.ruling.next_player == "Bob" and g.state.phase == "break"


# --- open table, groups, legal shot --------------------------------------------------------
def test_4_9_open_table_hit_solid_to_pocket_called_stripe():
    g = in_play()
    ev = [strike(), hit(0.2, "3"), hit(0.4, "12", "3"), pocket(0.8, "12", "side_left")]
    out = g.play(shot(ev, spread(ALL), called_ball="12", called_pocket="side_left"))
    assert out.ruling.legal and not out.ruling.turn_passes
    assert out.state.groups == {"Ann": "stripes", "Bob": "solids"}  # 4.10


def test_4_9_open_table_eight_first_is_a_foul():
    out = in_play().play(shot([strike(), hit(0.2, "8"), rail(0.4, "8")], spread(ALL)))
    assert "WPA 4.9" in articles(out)
    assert out.state.ball_in_hand == "table" and out.state.groups == {}


def test_4_11_must_hit_own_group_first():
    out = in_play(ANN_SOLIDS).play(shot([strike(), hit(0.2, "12"), rail(0.4, "12")],
                                        spread(ALL)))
    assert "WPA 4.11" in articles(out)
    assert out.state.shooter == "Bob" and out.state.ball_in_hand == "table"  # 4.14


def test_4_11_no_rail_after_contact():
    out = in_play(ANN_SOLIDS).play(shot([strike(), hit(0.2, "3")], spread(ALL)))
    assert "WPA 4.11" in articles(out)


def test_4_11_cue_ball_to_rail_first_is_allowed():
    ev = [strike(), rail(0.1, "cue", "left_head_rail"), hit(0.4, "3"), rail(0.6, "3")]
    assert in_play(ANN_SOLIDS).play(shot(ev, spread(ALL))).ruling.legal


def test_4_2_obvious_shot_needs_no_call():
    ev = [strike(), hit(0.2, "3"), pocket(0.6, "3", "foot_right")]
    out = in_play(ANN_SOLIDS).play(shot(ev, spread(ALL)))
    assert out.ruling.legal and not out.ruling.turn_passes


def test_4_2_bank_and_combination_need_a_call():
    bank = [strike(), hit(0.2, "3"), rail(0.4, "3", "right_foot_rail"), pocket(0.8, "3")]
    out = in_play(ANN_SOLIDS).play(shot(bank, spread(ALL)))
    assert out.ruling.legal and out.ruling.turn_passes
    out = in_play(ANN_SOLIDS).play(shot(bank, spread(ALL), called_ball="3",
                                        called_pocket="foot_left"))
    assert not out.ruling.turn_passes
    combo = [strike(), hit(0.2, "3"), hit(0.3, "4", "3"), pocket(0.6, "4")]
    assert in_play(ANN_SOLIDS).play(shot(combo, spread(ALL))).ruling.turn_passes


def test_4_16_called_ball_in_wrong_pocket_stays_down_turn_passes():
    ev = [strike(), hit(0.2, "3"), pocket(0.6, "3", "foot_right")]
    out = in_play(ANN_SOLIDS).play(shot(ev, spread(ALL), called_ball="3",
                                        called_pocket="foot_left"))
    assert out.ruling.legal and out.ruling.turn_passes
    assert "3" not in out.layout.ids()


def test_4_12_safety_ends_the_inning_balls_stay_down():
    ev = [strike(), hit(0.2, "3"), pocket(0.6, "3")]
    out = in_play(ANN_SOLIDS).play(shot(ev, spread(ALL), safety=True))
    assert out.ruling.legal and out.ruling.turn_passes and "3" not in out.layout.ids()


def test_4_15_eight_cannot_start_a_combination():
    ev = [strike(), hit(0.2, "8"), hit(0.3, "3", "8"), pocket(0.6, "3")]
    out = in_play(ANN_SOLIDS).play(shot(ev, spread(ALL)))
    assert "WPA 4.15" in articles(out)


def test_4_17_object_ball_off_table_foul_not_spotted():
    ev = [strike(), hit(0.2, "3"), rail(0.4, "3")]
    out = in_play(ANN_SOLIDS).play(shot(ev, spread(ALL), infractions=[foul("off_table",
                                                                           "3")]))
    assert "WPA 4.17" in articles(out) and "3" not in out.layout.ids()


# --- the 8 ---------------------------------------------------------------------------------
ON_EIGHT = ["8", *[str(n) for n in range(9, 16)]]


def test_4_19_scratch_on_the_eight_is_only_a_foul():
    ev = [strike(), hit(0.2, "8"), rail(0.3, "8"), pocket(0.6, "cue")]
    out = in_play(ANN_SOLIDS).play(shot(ev, spread(ON_EIGHT)))
    assert not out.ruling.frame_over and out.state.ball_in_hand == "table"


def test_4_1_legal_eight_wins():
    ev = [strike(), hit(0.2, "8"), pocket(0.6, "8", "side_right")]
    out = in_play(ANN_SOLIDS).play(shot(ev, spread(ON_EIGHT), called_ball="8",
                                        called_pocket="side_right"))
    assert out.ruling.frame_over and out.ruling.winner == "Ann" and out.ruling.match_over


@pytest.mark.parametrize("events,ids,decl,infr,article", [
    ([strike(), hit(0.2, "8"), pocket(0.5, "8"), pocket(0.7, "cue")], ON_EIGHT, {}, [],
     "WPA 4.20.1"),
    ([strike(), hit(0.2, "3"), hit(0.3, "8", "3"), pocket(0.5, "3"), pocket(0.6, "8")],
     ["3", *ON_EIGHT], {}, [], "WPA 4.20.2"),
    ([strike(), hit(0.2, "8"), rail(0.3, "8")], ON_EIGHT, {}, [("off_table", "8")],
     "WPA 4.20.3"),
    ([strike(), hit(0.2, "8"), pocket(0.5, "8", "foot_left")], ON_EIGHT,
     {"called_ball": "8", "called_pocket": "foot_right"}, [], "WPA 4.20.4"),
    ([strike(), hit(0.2, "3"), hit(0.3, "8", "3"), pocket(0.6, "8"), rail(0.7, "3")], ALL,
     {}, [], "WPA 4.20.5"),
])
def test_4_20_loss_of_game(events, ids, decl, infr, article):
    out = in_play(ANN_SOLIDS).play(shot(events, spread(ids), **decl,
                                        infractions=[foul(c, p) for c, p in infr]))
    assert article in articles(out)
    assert out.ruling.frame_over and out.ruling.winner == "Bob"


def test_4_20_3_eight_off_the_table_on_the_break_loses():
    ev, pos = break_shot(four_rails())
    out = EightBall(players=("Ann", "Bob")).play(
        shot(ev, pos, infractions=[foul("off_table", "8")]))
    assert out.ruling.winner == "Bob"


def test_4_21_stalemate_rerack_same_breaker():
    g = in_play(ANN_SOLIDS, shooter="Bob")
    g.state.inning = 7  # six innings since the rack's break, in inning 1
    out = g.play(shot([], spread(ALL), stalemate=True))
    assert out.rack == "eight_ball" and g.state.shooter == "Ann" and g.state.phase == "break"
    # before the opening break no inning has been played: refused, the game as it was
    with pytest.raises(ValueError, match="stalemate .*WPA 4.21.* has not been broken yet"):
        g.play(shot([], spread(ALL), stalemate=True))
    assert g.state.shooter == "Ann" and g.state.phase == "break"


def test_4_21_stalemate_only_after_three_innings_of_each_player():
    """4.21: 'after three consecutive innings of each player (six in all)': counted from the
    rack's break, which is the breaker's first inning; refused before the sixth has ended."""
    g = EightBall(players=("Ann", "Bob"))
    ev, pos = break_shot(four_rails())
    assert g.play(shot(ev, pos)).ruling.turn_passes  # Ann's inning 1 ends
    miss = [strike(), hit(0.3, "2"), rail(0.6, "2", "foot_rail")]
    for k in range(4):  # Bob, Ann, Bob, Ann: five innings have ended
        assert g.play(shot(miss, spread(ALL))).ruling.turn_passes, k
    with pytest.raises(ValueError, match=r"six innings|6 in all\); this rack has had 5"):
        g.play(shot([], spread(ALL), stalemate=True))
    assert g.play(shot(miss, spread(ALL))).ruling.turn_passes  # Bob's third
    out = g.play(shot([], spread(ALL), stalemate=True))
    assert out.rack == "eight_ball" and g.state.shooter == "Ann" and g.state.phase == "break"
    assert any("WPA 4.21" in n for n in out.ruling.notes)


def test_3_36_race_to_two_frames_winner_breaks():
    g = EightBall(players=("Ann", "Bob"), race_to=2)
    g.state.phase, g.state.ball_in_hand, g.state.groups = "play", None, dict(ANN_SOLIDS)
    g.state.shooter = "Bob"
    ev = [strike(), hit(0.2, "8"), pocket(0.6, "8", "side_right")]
    out = g.play(shot(ev, spread(["8", "1"]), called_ball="8", called_pocket="side_right"))
    assert out.ruling.frame_over and not out.ruling.match_over
    assert g.state.frames_won == {"Ann": 0, "Bob": 1}
    assert g.state.shooter == "Bob" and g.state.phase == "break" and g.state.groups == {}


def test_whole_scripted_frame_ends_with_a_legal_win():
    """A short 8-ball game between two scripted players, on hand-written event logs."""
    g = EightBall(players=("Ann", "Bob"))
    solids = [str(n) for n in range(1, 8)]
    stripes = [str(n) for n in range(9, 16)]
    table = set(ALL)
    ev, pos = break_shot([pocket(1.0, "9")])  # Ann breaks and pockets a stripe
    g.play(shot(ev, pos))
    table.discard("9")
    assert g.state.shooter == "Ann"
    for b in stripes[1:]:  # Ann runs the stripes with obvious shots
        out = g.play(shot([strike(), hit(0.2, b), pocket(0.5, b)], spread(sorted(table))))
        assert out.ruling.legal and not out.ruling.turn_passes, out.ruling.describe()
        table.discard(b)
    assert g.state.groups["Ann"] == "stripes"
    out = g.play(shot([strike(), hit(0.2, "8"), rail(0.5, "8")], spread(sorted(table))))
    assert out.ruling.turn_passes  # Ann misses the 8
    out = g.play(shot([strike(), hit(0.2, solids[0]), rail(0.5, "cue")],
                      spread(sorted(table))))
    assert out.ruling.turn_passes  # Bob misses
    out = g.play(shot([strike(), hit(0.2, "8"), pocket(0.5, "8", "foot_left")],
                      spread(sorted(table)), called_ball="8", called_pocket="foot_left"))
    assert out.ruling.legal and out.ruling.winner == "Ann" and out.ruling.match_over


# --- 4.20.4: every way of pocketing the 8 in an undesignated pocket, and the other side ------
EIGHT_BANK = [strike(), hit(0.2, "8"), rail(0.4, "8", "right_foot_rail"), pocket(0.8, "8")]
EIGHT_DIRECT = [strike(), hit(0.2, "8"), pocket(0.6, "8", "foot_left")]
EIGHT_KISS = [strike(), hit(0.2, "8"), hit(0.3, "9", "8"), pocket(0.6, "8")]  # off the 9
# rattling in: a jaw and the knuckle of the pocket the 8 drops into (part of that pocket)
EIGHT_RATTLE = [strike(), hit(0.2, "8"), rail(0.5, "8", "foot_left_jaw_a"),
                rail(0.55, "8", "foot_left_knuckle_b"), pocket(0.6, "8", "foot_left")]
# off the knuckle of another pocket, into the corner: a bank
EIGHT_OFF_A_KNUCKLE = [strike(), hit(0.2, "8"), rail(0.4, "8", "side_left_knuckle_b"),
                       pocket(0.8, "8", "foot_left")]


@pytest.mark.parametrize("events, decl, why", [
    (EIGHT_BANK, {}, "bank"),  # a bank is no obvious shot (4.2): it needs a called pocket
    (EIGHT_KISS, {}, "bank or combination"),
    (EIGHT_OFF_A_KNUCKLE, {}, "bank or combination"),
    (EIGHT_DIRECT, {"safety": True}, "declared safety"),
    (EIGHT_DIRECT, {"called_ball": "9", "called_pocket": "foot_left"}, "ball 9 was called"),
    (EIGHT_DIRECT, {"called_ball": "8", "called_pocket": "foot_right"}, "called in foot_right"),
])
def test_4_20_4_eight_in_an_undesignated_pocket_loses(events, decl, why):
    out = in_play(ANN_SOLIDS).play(shot(events, spread(ON_EIGHT), **decl))
    assert articles(out) == ["WPA 4.20.4"], why
    assert why in out.ruling.violations[0].text
    assert out.ruling.frame_over and out.ruling.winner == "Bob"


@pytest.mark.parametrize("events, decl", [
    (EIGHT_BANK, {"called_ball": "8", "called_pocket": "foot_left"}),
    (EIGHT_KISS, {"called_ball": "8", "called_pocket": "foot_left"}),  # 4.19: hit first
    (EIGHT_DIRECT, {}),  # an obvious shot needs no call (4.2)
    (EIGHT_DIRECT, {"called_ball": "8"}),
    (EIGHT_RATTLE, {}),  # 4.2: touching its pocket's jaws on the way in is still obvious
])
def test_4_20_4_eight_in_the_designated_or_obvious_pocket_wins(events, decl):
    out = in_play(ANN_SOLIDS).play(shot(events, spread(ON_EIGHT), **decl))
    assert out.ruling.legal and articles(out) == []
    assert out.ruling.frame_over and out.ruling.winner == "Ann"


def test_4_2_a_simulated_eight_clipping_its_pocket_s_jaw_is_an_obvious_pot():
    """4.2: banks and combinations need a call; a straight-in 8 that clips the jaw or the
    knuckle of the pocket it drops into is neither (the core logs those contacts as cushion
    contacts named after the pocket). Simulated: clean, off the jaw, off the knuckle, all win."""
    from cuesim import CueShot, simulate
    from cuesim.rules.pool import shot_from_result
    from cuesim.tables.pool import pool_table
    from tests.pool_util import layout

    before = layout({"cue": (0.55, 1.50), "8": (0.376, 1.966), "9": (1.1, 0.3)})
    touched = set()
    for angle in (1.898, 1.901, 1.904):
        res = simulate(pool_table("9ft"), before, CueShot(angle=angle, speed=2.5))
        touched |= {e.feature for e in res.event_log() if e.a == "8" and e.kind.name == "RAIL"}
        out = in_play(ANN_SOLIDS).play(shot_from_result(res))
        assert out.ruling.legal and out.ruling.winner == "Ann", angle
    assert touched == {"foot_left_jaw_a", "foot_left_knuckle_a"}
