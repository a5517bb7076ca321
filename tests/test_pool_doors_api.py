"""The 8-ball and 9-ball referees' doors refuse input that cannot have happened, naming the
field, instead of ruling on it: infractions declared against the wrong player (the shooter's
stroke fouls against the other player, 3.41's interference against the shooter, both players'
fouls in one step), 3.9 on a break whose cue ball never left the kitchen, a called pocket
without its ball (3.4, 4.2), a stalemate (4.21) with a shot, and states no match reaches
(`model.check_state`, `check_pending`)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from cuesim.rules.files import ScenarioError, adjudicate
from cuesim.rules.pool import EightBall, NineBall, StraightPool
from cuesim.rules.pool.general import (
    BETWEEN_SHOTS,
    INFRACTIONS,
    NON_SHOOTER_ONLY,
    SHOOTER_ONLY,
    STROKE_ONLY,
)
from cuesim.rules.pool.model import Declaration, PoolShot, PoolState
from tests.pool_util import (
    KITCHEN_CUE,
    NINE,
    cross,
    foul,
    hit,
    nine_in_play,
    pocket,
    rack_positions,
    rail,
    shot,
    spread,
    strike,
    wave,
)

ALL = [str(n) for n in range(1, 16)]
ANN_SOLIDS = {"Ann": "solids", "Bob": "stripes"}
ON_EIGHT = ["8", *[str(n) for n in range(9, 16)]]  # Ann, on the solids, has only the 8 left


def eight_in_play(**kw: Any) -> EightBall:
    """An 8-ball game between Ann and Bob past its break, Ann (solids) to shoot the ball where
    it lies; `kw` sets state fields."""
    g = EightBall(players=("Ann", "Bob"))
    g.state.phase, g.state.ball_in_hand, g.state.groups = "play", None, dict(ANN_SOLIDS)
    for k, v in kw.items():
        setattr(g.state, k, v)
    return g


def between(*infractions: Any) -> PoolShot:
    """A step with no stroke: only the declared infractions."""
    return PoolShot([], None, None, infractions=list(infractions))


def refused(game: Any, step: PoolShot, message: str) -> None:
    """The step is refused with `message` and the game's state is left as it was."""
    before = copy.deepcopy(game.state)
    with pytest.raises(ValueError, match=message):
        game.play(step)
    assert game.state == before


# -- 1. who commits which foul ----------------------------------------------------------------
def test_the_infraction_codes_split_into_between_shots_stroke_only_and_6_7_5():
    """Every declared code is a foul between shots (3.17), one of a stroke (declared with its
    events) or 6.7.5's deliberate interference (either player, in the shot or on its own)."""
    assert not set(BETWEEN_SHOTS) & set(STROKE_ONLY)
    assert set(BETWEEN_SHOTS) | set(STROKE_ONLY) | {"deliberate_interference"} == set(INFRACTIONS)
    assert set(STROKE_ONLY) <= set(SHOOTER_ONLY) and not set(SHOOTER_ONLY) & set(NON_SHOOTER_ONLY)


@pytest.mark.parametrize("game", [eight_in_play, nine_in_play])
@pytest.mark.parametrize("code", SHOOTER_ONLY)
def test_wpa_3_23_3_13_3_27_3_29_a_stroke_foul_of_the_non_shooter_is_refused(game, code):
    """WPA 3.3, 3.13, 3.14, 3.23, 3.24, 3.26, 3.27, 3.29 (and 3.9, 3.28, 4.18 / 5.12) are fouls
    of the shooter's own stroke; 1.11, 3.22 and 3.40 of the player at the table. Declared
    against the player not shooting, they were ruled as his foul (ball in hand to the shooter):
    refused, naming the code and pointing to 3.41's interference."""
    g = game(ball_in_hand="table")
    pieces = ("2",) if code == "off_table" else ()
    refused(g, between(foul(code, *pieces, player="Bob")),
            rf"infraction '{code}' \(WPA [0-9.]+\) names Bob, who is not at the table: .*"
            r"'interference' \(WPA 3\.41\)")


@pytest.mark.parametrize("player", ["Ann", ""])
def test_wpa_3_41_interference_named_on_the_shooter_is_refused(player):
    """WPA 3.41: interference is the non-shooting player's foul. Named on the shooter (or on
    no one: the shooter) it was ruled as his own foul, worded 'interference by the
    non-shooting player': refused."""
    refused(eight_in_play(), between(foul("interference", player=player)),
            r"infraction 'interference' \(WPA 3\.41\) is a foul of the non-shooting player: its "
            r"player must name Bob, not the shooter Ann")


def test_wpa_3_17_3_41_fouls_of_both_players_in_one_step_are_refused():
    """WPA 3.17 (the foul ends the shooter's inning) and 3.41 (the other player's foul leaves
    the shooter at the table with ball in hand): the shooter's touched ball with the
    opponent's interference in one step dropped the shooter's foul. Which came first decides
    who is at the table for the other, so the step is refused; given one step each, in either
    order, both are ruled."""
    g = eight_in_play()
    refused(g, between(foul("touched_ball", "3"), foul("interference", player="Bob")),
            r"infractions of both players in one step \('touched_ball' of the shooter Ann, "
            r"'interference' of Bob\).*a step of its own, in the order they happened")
    # Bob interferes, then Ann (still at the table, in hand) touches a ball: Bob in hand
    out = g.play(between(foul("interference", player="Bob")))
    assert out.state.shooter == "Ann" and out.state.ball_in_hand == "table"
    out = g.play(between(foul("touched_ball", "3")))
    assert out.state.shooter == "Bob" and out.state.ball_in_hand == "table"
    # Ann touches a ball (Bob comes in, in hand), then interferes with Bob: he stays in hand
    g = eight_in_play()
    g.play(between(foul("touched_ball", "3")))
    out = g.play(between(foul("interference", player="Ann")))
    assert out.state.shooter == "Bob" and out.ruling.violations[0].article == "WPA 3.41"


# -- 2. 3.9 needs the cue ball across the head string -------------------------------------------
def test_wpa_3_9_break_interference_needs_the_cue_ball_across_the_head_string():
    """WPA 3.9: stopping or deflecting the cue ball on the break 'after it crossed the head
    string' is the foul. On a break whose log has the cue ball never crossing it, the
    declaration was ruled, with the match warning: refused, no warning recorded. With the
    crossing it is ruled (the opponent's kitchen choice)."""
    pos = {"cue": KITCHEN_CUE, **rack_positions(ALL)}
    g = EightBall(players=("Ann", "Bob"))
    refused(g, shot([strike(), rail(0.3, "cue", "head_rail")], pos,
                    infractions=[foul("break_cue_interference")]),
            r"infraction 'break_cue_interference' \(WPA 3\.9\) stops or deflects the cue ball "
            r"after it crossed the head string, and the event log has it never crossing")
    assert g.state.match_warnings == {}
    out = g.play(shot([strike(), cross(0.2), rail(0.6, "cue", "right_foot_rail")], pos,
                      infractions=[foul("break_cue_interference")]))
    assert "WPA 3.9" in [v.article for v in out.ruling.violations]
    assert out.state.match_warnings == {"Ann": ["break_cue_interference"]}


# -- 3. the declaration ----------------------------------------------------------------------
@pytest.mark.parametrize("ids, ball", [(ALL, "3"), (ON_EIGHT, "8")])
def test_wpa_3_4_4_2_a_called_pocket_needs_its_called_ball(ids, ball):
    """WPA 3.4 and 4.2: a call names the ball and the pocket. A pocket called without a ball
    was ignored for a group ball (Ann went on) but honoured for the 8 (Ann lost, 4.20.4):
    refused, for both."""
    step = shot([strike(), hit(0.2, ball), pocket(0.4, ball, "side_left")], spread(ids),
                called_pocket="foot_right")
    refused(eight_in_play(), step,
            r"declaration\.called_pocket 'foot_right' without declaration\.called_ball: a call "
            r"names the ball and the pocket \(WPA 3\.4, 4\.2\)")


@pytest.mark.parametrize("step, message", [
    (shot([strike(), hit(0.2, "3"), pocket(0.4, "3")], spread(ALL), stalemate=True),
     r"declaration\.stalemate with events: a stalemate \(WPA 4\.21\)"),
    (PoolShot([], None, None, Declaration(stalemate=True), [foul("touched_ball", "3")]),
     r"declaration\.stalemate with infraction 'touched_ball'"),
    (shot([], spread(ALL), called_ball="3", called_pocket="foot_left", stalemate=True),
     r"declaration\.stalemate with declaration\.called_ball"),
    (shot([], spread(ALL), safety=True, stalemate=True),
     r"declaration\.stalemate with declaration\.safety"),
])
def test_wpa_4_21_a_stalemate_is_declared_alone(step, message):
    """WPA 4.21: the referee's stalemate is no shot. Declared with a stroke's events, the
    stroke was dropped and the rack re-racked; with a foul between shots, the foul was dropped:
    refused, naming what comes with it. Alone it is ruled."""
    refused(eight_in_play(inning=10), step, message)
    out = eight_in_play(inning=10).play(shot([], spread(ALL), stalemate=True))
    assert out.rack == "eight_ball" and out.state.phase == "break"


def test_wpa_4_21_no_stalemate_in_nine_ball():
    refused(nine_in_play(), shot([strike(), hit(0.2, "1"), rail(0.4, "1")], spread(NINE),
                                 stalemate=True),
            r"declaration\.stalemate: a stalemate \(WPA 4\.21\) is an 8-ball ruling; "
            r"nine_ball has none")


# -- 4. states no match reaches ----------------------------------------------------------------
def state(game: str = "nine_ball", **fields: Any) -> dict[str, Any]:
    """A state in play, Ann to shoot, with `fields` over it."""
    return {"game": game, "players": ["Ann", "Bob"], "shooter": "Ann", "breaker": "Ann",
            "phase": "play", "ball_in_hand": None, **fields}


def push_out(**options: Any) -> dict[str, Any]:
    """Ann's 5.6 choice after Bob's push-out, with `options` over the referee's own."""
    opts = {"shoot": {"shooter": "Ann", "ball_in_hand": None, "rerack": False},
            "pass": {"shooter": "Bob", "ball_in_hand": None, "rerack": False}}
    opts.update(options)
    return {"player": "Ann", "article": "WPA 5.6", "options": opts}


BAD_STATES = [
    pytest.param(state(ball_in_hand="kitchen"),
                 r"state\.ball_in_hand 'kitchen' in 9-ball in play: .*anywhere \(WPA 5\.7",
                 id="wpa_5_7_nine_ball_in_hand_is_anywhere"),
    pytest.param(state("eight_ball", fouls={"Ann": 2, "Bob": 0}),
                 r"state\.fouls: Ann on 2 consecutive foul\(s\), but 8-ball counts none "
                 r"\(WPA 4\.21 note", id="wpa_4_21_note_eight_ball_counts_no_fouls"),
    pytest.param(state("eight_ball", warned={"Ann": True}),
                 r"state\.warned: Ann warned of two consecutive fouls, but 8-ball counts none",
                 id="wpa_4_21_note_eight_ball_warns_no_one"),
    pytest.param(state(fouls={"Ann": 1}, warned={"Ann": True}),
                 r"state\.warned: Ann warned on 1 consecutive foul\(s\): the warning comes with "
                 r"the second \(WPA 5\.13", id="wpa_5_13_warned_at_the_second_foul"),
    pytest.param(state(shooter="Bob", pending=push_out()),
                 r"state\.pending\.player 'Ann' is not state\.shooter 'Bob'",
                 id="wpa_5_6_the_chooser_is_at_the_table"),
    pytest.param(state(pending=push_out(shoot={"shooter": "Ann", "ball_in_hand": "table",
                                               "rerack": False})),
                 r"state\.pending\.options\.shoot\.ball_in_hand must be null \(WPA 5\.6: the "
                 r"table as the push-out left it\), got 'table'",
                 id="wpa_5_6_shoot_after_a_push_out_is_from_where_it_lies"),
    pytest.param(state(pending=push_out(), ball_in_hand="table"),
                 r"state\.ball_in_hand must be null while a choice is pending",
                 id="wpa_5_6_no_ball_in_hand_while_choosing"),
    pytest.param(state(pending=push_out(), push_out_available=True),
                 r"state\.push_out_available with a choice pending: .*WPA 5\.6",
                 id="wpa_5_6_the_push_out_is_used_up"),
    pytest.param(state("eight_ball", pending={"player": "Ann", "article": "WPA 3.9", "options": {
        "shoot_kitchen": {"shooter": "Ann", "ball_in_hand": "kitchen", "rerack": False},
        "pass_kitchen": {"shooter": "Ann", "ball_in_hand": "kitchen", "rerack": False}}}),
                 r"state\.pending\.options\.pass_kitchen\.shooter must be Bob",
                 id="wpa_3_9_pass_kitchen_hands_the_shot_to_the_offender"),
    pytest.param(state("eight_ball", pending={"player": "Ann", "article": "WPA 4.8", "options": {
        "spot_eight": {"shooter": "Ann", "ball_in_hand": None, "rerack": False},
        "rerack": {"shooter": "Ann", "ball_in_hand": None, "rerack": False}}}),
                 r"state\.pending\.options\.rerack\.rerack must be true",
                 id="wpa_4_8_rerack_reracks"),
    pytest.param(state("straight_pool", pending={"player": "Ann", "article": "WPA 6.12",
                                                 "options": {
        "accept": {"shooter": "Ann", "ball_in_hand": None, "rerack": False},
        "rerack": {"shooter": "Ann", "ball_in_hand": None, "rerack": True}}}),
                 r"state\.pending\.options\.rerack\.shooter must be Bob",
                 id="wpa_6_12_the_offender_breaks_the_rerack"),
]


@pytest.mark.parametrize("data, message", BAD_STATES)
def test_a_state_no_match_reaches_is_refused_naming_the_field(data, message):
    """WPA 5.7 (9-ball's ball in hand is anywhere after the break), 4.21's note (8-ball counts
    no consecutive fouls), 5.13 / 2.16 (the warning comes at the second foul), 5.6 (the
    push-out's choice: the chooser at the table, the table as it lies, the push-out used up),
    3.9, 4.8, 6.12 (each option as the referee offers it): `PoolState.from_dict` refuses the
    state, and the referee given it as an object too."""
    with pytest.raises(ValueError, match=message):
        PoolState.from_dict(copy.deepcopy(data))
    referee = {"eight_ball": EightBall, "nine_ball": NineBall, "straight_pool": StraightPool}
    with pytest.raises(ValueError, match=message):
        referee[data["game"]](state=PoolState(**copy.deepcopy(data)))


def test_a_scenario_with_such_a_state_is_refused_before_any_ruling():
    """The scenario door (`adjudicate`) refuses it too, naming the field (repro: a 9-ball game
    in play with the cue ball in hand behind the head string was ruled with 3.39 fouls)."""
    scenario = {"game": "nine_ball", "state": state(ball_in_hand="kitchen"), "shot": {
        "initial": {"cue": list(KITCHEN_CUE), "1": [0.3, 0.3], "9": [0.3, 2.0]},
        "events": [{"t": 0.0, "kind": "strike", "a": "cue"},
                   {"t": 0.2, "kind": "collide", "a": "cue", "b": "1"},
                   {"t": 0.4, "kind": "rail", "a": "1", "feature": "head_rail"}]}}
    with pytest.raises(ScenarioError, match=r"state\.ball_in_hand 'kitchen' in 9-ball in play"):
        adjudicate(scenario)


@pytest.mark.parametrize("data", [
    state(ball_in_hand="table", push_out_available=True),  # see the 5.5 reading below
    state(pending=push_out()),
    state("eight_ball", ball_in_hand="kitchen"),  # 4.6: a scratch on a legal break
    state("straight_pool", ball_in_hand="kitchen", fouls={"Ann": 2}, warned={"Ann": True}),
    state("straight_pool", fouls={"Ann": 2}),  # 2.16: not warned, counted as one
])
def test_states_the_referees_reach_still_load(data):
    PoolState.from_dict(copy.deepcopy(data))


# -- 5. the push-out after a foul between shots (a reading, kept) -----------------------------
def test_wpa_5_5_5_6_the_push_out_stays_with_the_shot_after_the_break():
    """WPA 5.5 and 5.6 give the push-out to 'the shot immediately after a legal break' and take
    it away only after a scratch on the break (which makes the break illegal, 5.4). A foul
    between shots after the break plays no shot, so the next shot is still that one: the
    incoming player has ball in hand anywhere (5.7) and may push out."""
    g = NineBall(players=("Ann", "Bob"))
    events = [strike(), cross(0.2), hit(0.5, "1"), *wave(0.5, "1", NINE),
              *[rail(1.0, b) for b in ("2", "3", "4", "5")]]
    g.play(shot(events, {"cue": KITCHEN_CUE, **rack_positions(NINE)}))
    assert g.state.shooter == "Bob" and g.state.push_out_available
    out = g.play(between(foul("touched_ball")))
    assert out.state.shooter == "Ann" and out.state.ball_in_hand == "table"
    assert out.state.push_out_available
    out = g.play(shot([strike(), rail(0.4, "cue")], spread(NINE), push_out=True))
    assert out.state.pending["options"]["shoot"] == {"shooter": "Bob", "ball_in_hand": None,
                                                     "rerack": False}
