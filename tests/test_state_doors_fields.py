"""A resumed state's fields that no match can reach are refused, naming the field, at every door
that takes a state (`cuesim adjudicate`, `cuesim batch --ruling --state`, the Python API):
novus true/false options, a winner or a `history` of sets that do not fit the match on (23.1),
misses that replayed the set (20.6), an opener away from the start side (21.1, 22.1), a first
series answer without the clearance it answers (20.4); 5-pins `offender`, `excluded` (9.2),
`winner` (2) and `lag_faults` (3) that are not players or counts, a game past the match (2), a
`pending` choice the referee does not offer (3, 13.5); a pool `last_frame_winner` who is not a
player, a push-out outside 9-ball's shot after the break (WPA 5.5, 5.6), safeties near a
cushion counted outside 14.1 or of no ball (6.7.2). The referees' own states, at a set's end,
after a replay, with a choice pending and at the match's end, still load."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cuesim.batch.core import BatchError
from cuesim.batch.sources import referee_state
from cuesim.cli import main
from cuesim.rules.files import adjudicate
from cuesim.rules.fivepins.model import FivePinsState
from cuesim.rules.novus.scenario import game_from_dict
from cuesim.rules.pool.model import PoolState
from tests.novus_util import drop, hit, pocket, puck, rule, striker

NOVUS = {"players": ["Anna", "Boris"], "sets": 3}
SET_1_TO_ANNA = {"set": 1, "winner": "Anna", "article": "novus 16.1.в", "replay": False}
PINS = {"players": ["Ann", "Bob"], "shooter": "Ann", "phase": "play", "placement": None}
# 9-ball in play: the cue ball where it lies (in hand behind the head string only for the break,
# 5.2; after a foul it is in hand anywhere, 5.7)
POOL = {"game": "nine_ball", "players": ["Ann", "Bob"], "shooter": "Ann", "phase": "play",
        "ball_in_hand": None}


# -- novus --------------------------------------------------------------------------------------

@pytest.mark.parametrize("key", ["play_all_sets", "deciding_swap", "match_over"])
@pytest.mark.parametrize("value", ["yes", [], 1, 0, None])
def test_novus_true_or_false_fields_take_only_true_or_false(key, value):
    """novus 22.3 (deciding_swap), 23.1 (play_all_sets, match_over): a 1, a list or a string
    was taken for true or false by its truth value; now refused, naming the field."""
    with pytest.raises(ValueError, match=rf"state\.{key} must be true or false, got "):
        game_from_dict({**NOVUS, key: value})
    game_from_dict({**NOVUS, key: False})


@pytest.mark.parametrize("winner", ["Anna", "Zed", 5, True, ""])
def test_novus_a_match_on_names_no_winner(winner):
    """novus 23.1: the winner is named when the match is over, and a finished match has no
    shot to rule on; a state with a winner but match_over false was loaded, the winner ignored."""
    with pytest.raises(ValueError, match=r"state\.winner is .* but the match is on"):
        game_from_dict({**NOVUS, "winner": winner})
    game_from_dict({**NOVUS, "winner": None})


def test_novus_21_1_22_1_the_opener_sits_at_the_start_side():
    """novus 21.1, 22.1: the opener strikes first from the start side (`NovusGame._setup_set`
    keeps opener = seats[start_side]); an opener given against the seats was loaded, and
    20.4's first series was then the wrong player's."""
    seats = {"south": "Anna", "north": "Boris"}
    with pytest.raises(ValueError, match=r"state\.opener 'Boris' is not the player at "
                                         r"state\.start_side 'south' \('Anna'\)"):
        game_from_dict({**NOVUS, "seats": seats, "opener": "Boris"})
    with pytest.raises(ValueError, match=r"state\.opener 'Boris'"):
        game_from_dict({**NOVUS, "opener": "Boris"})
    g = game_from_dict({**NOVUS, "seats": seats, "start_side": "north", "opener": "Boris"})
    assert g.opener == g.shooter == "Boris"


@pytest.mark.parametrize("extra, message", [
    ({"responder": "Boris", "shooter": "Boris", "series": {"Anna": 1, "Boris": 1}},
     r"state\.first_clear \{\}: only the opener \('Anna'\) clears in his first series and is "
     r"answered \(novus 20\.4\)"),
    ({"first_clear": {"Anna": "clean"}},
     r"state\.responder '' with state\.first_clear \{'Anna': 'clean'\}: the next opponent, "
     r"'Boris', answers"),
    ({"first_clear": {"Boris": "clean"}, "responder": "Anna"},
     r"state\.first_clear \{'Boris': 'clean'\}: only the opener \('Anna'\)"),
    ({"first_clear": {"Anna": "clean"}, "responder": "Boris"},
     r"has the turn \(novus 20\.4\); state\.shooter is 'Anna'"),
])
def test_novus_20_4_the_first_series_answer_names_the_opener_and_the_next_opponent(extra,
                                                                                   message):
    """novus 20.4: the opener who clears in his first series is answered by the opponent alone,
    who has the turn. A responder without the opener's clearance was loaded, and his shot
    stopped the referee with a StopIteration (a traceback from `cuesim adjudicate`)."""
    with pytest.raises(ValueError, match=message):
        game_from_dict({**NOVUS, **extra})
    g = game_from_dict({**NOVUS, "first_clear": {"Anna": "violated"}, "responder": "Boris",
                        "shooter": "Boris", "series": {"Anna": 1, "Boris": 1}})
    assert g.responder == g.shooter == "Boris"


def test_novus_a_responder_without_a_clearance_is_one_line_at_the_cli(tmp_path: Path,
                                                                      capsys: Any) -> None:
    state = {**NOVUS, "shooter": "Boris", "responder": "Boris",
             "series": {"Anna": 1, "Boris": 1}}
    board = [{"id": "striker", "kind": "striker", "x": 0.5, "y": 0.93},
             {"id": "black1", "kind": "puck", "group": "black", "x": 0.5, "y": 0.5}]
    path = tmp_path / "responder.json"
    path.write_text(json.dumps({
        "game": "novus", "state": state, "before": {"table": "novus", "pieces": board},
        "after": {"table": "novus", "pieces": board},
        "events": [{"t": 0.0, "kind": "strike", "a": "striker"}]}), encoding="utf-8")
    assert main(["adjudicate", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "state.first_clear {}: only the opener" in err


@pytest.mark.parametrize("extra, message", [
    ({"start_side": ["north"]}, r"state\.start_side \['north'\] is not an occupied seat"),
    ({"seats": {"south": ["Anna"], "north": "Boris"}}, r"state\.seats must map sides"),
])
def test_novus_seats_and_start_side_of_another_type_are_named(extra, message):
    """A list where a side or a player goes was refused only by the scenario door's fallback
    (a TypeError, 'a field has a value of the wrong type or shape'), not naming the field."""
    with pytest.raises(ValueError, match=message):
        game_from_dict({**NOVUS, **extra})


@pytest.mark.parametrize("set_number", [0, 4, True])
def test_novus_game_api_set_number_is_a_set_of_the_match(set_number):
    """`NovusGame(players, sets=3, set_number=4)` made set 4 of a 3-set match (the scenario
    door refused it, the API did not)."""
    from cuesim.rules.novus import NovusGame

    with pytest.raises(ValueError, match=r"set_number must be a set of the match, 1 to sets "
                                         r"\(3\), got "):
        NovusGame(["Anna", "Boris"], sets=3, set_number=set_number)
    assert NovusGame(["Anna", "Boris"], sets=3, set_number=3).set_number == 3


def test_novus_20_6_both_sides_at_three_misses_replayed_the_set():
    """novus 20.6: when both sides, with only dark pucks left, have missed three times the set
    is played again; a state with both counts at 3 or more cannot be a set still on."""
    with pytest.raises(ValueError, match=r"state\.misses .*played again \(novus 20\.6\)"):
        game_from_dict({**NOVUS, "misses": {"Anna": 3, "Boris": 4}})
    game_from_dict({**NOVUS, "misses": {"Anna": 7, "Boris": 2}})


@pytest.mark.parametrize("key", ["opener", "shooter"])
def test_novus_opener_and_shooter_are_players_never_empty(key):
    """An empty `opener` or `shooter` was skipped (the default kept) as an empty `responder`
    is (no clearance answered, 20.4); now refused. An empty responder still loads."""
    with pytest.raises(ValueError, match=rf"state\.{key} must be one of the players"):
        game_from_dict({**NOVUS, key: ""})
    with pytest.raises(ValueError, match=rf"state\.{key} must be one of the players .* 'Zed'"):
        game_from_dict({**NOVUS, key: "Zed"})
    assert game_from_dict({**NOVUS, "responder": ""}).responder == ""


@pytest.mark.parametrize("extra, message", [
    ({"history": ["Zed"]}, r"state\.history\[0\] must be a set's end"),
    ({"history": [None]}, r"state\.history\[0\] must be a set's end"),
    ({"history": [{**SET_1_TO_ANNA, "sets": 2}]}, r"state\.history\[0\] must be a set's end"),
    ({"history": [{**SET_1_TO_ANNA, "set": 3}], "set_number": 2, "sets_won": {"Anna": 1}},
     r"state\.history\[0\]\.set must be a set number from 1 to state\.set_number 2"),
    ({"history": [{**SET_1_TO_ANNA, "winner": "Zed"}], "set_number": 2},
     r"state\.history\[0\]\.winner must be null or one of \['Anna', 'Boris'\]"),
    ({"history": [{**SET_1_TO_ANNA, "article": ""}], "set_number": 2},
     r"state\.history\[0\]\.article must name the rule"),
    ({"history": [{**SET_1_TO_ANNA, "replay": "no"}], "set_number": 2},
     r"state\.history\[0\]\.replay must be true or false"),
    ({"history": [SET_1_TO_ANNA]},
     r"the sets played to a result are \[1\], but set 1 is being played, so they are sets 1 "
     r"to 0"),
    ({"history": [], "set_number": 2, "sets_won": {"Anna": 1}},
     r"the sets played to a result are \[\], but set 2"),
    ({"history": [SET_1_TO_ANNA], "set_number": 2},
     r"state\.history: Anna won 1 set\(s\) in it, but state\.sets_won gives 0"),
    ({"history": [{**SET_1_TO_ANNA, "replay": True}]},
     r"state\.history: 1 set\(s\) replayed in it, but state\.replays is 0"),
])
def test_novus_history_is_the_sets_ended_so_far(extra, message):
    """novus 23.1: `history` lists the sets ended so far (`NovusGame._end_set`); any list was
    loaded, and an entry in set 1 let 'absent_between_sets' be ruled before any set ended."""
    with pytest.raises(ValueError, match=message):
        game_from_dict({**NOVUS, **extra})


def test_novus_absent_between_sets_needs_a_set_that_ended():
    """novus 14 / 16 'absent_between_sets' happens in a break between sets: in set 1 with a
    history of junk it was ruled; now the state is refused before any ruling."""
    state = {**NOVUS, "history": ["Zed"]}
    with pytest.raises(ValueError, match=r"state\.history\[0\]"):
        rule([striker(), puck("red1", 0.3, 0.7)], None, state=state,
             infractions=[{"code": "absent_between_sets", "player": "Anna"}])


def test_novus_the_referees_own_history_loads_at_a_set_end_and_after_a_replay():
    """The states the referee writes still load: after a set lost by 16.1.в (set 2, B 1-0) and
    after a doubles replay (21.1: both pairs cleared in their first series)."""
    base = [striker(), puck("red1", 0.30, 0.70), puck("black1", 0.40, 0.30)]
    out = rule(base, drop(base, "red1"), [hit(0.1, "red1"), pocket(0.3, "red1")],
               state={"sets": 3}, infractions=[{"code": "deliberate_violation"}])
    state = out["state"]
    assert state["set_number"] == 2 and state["history"][-1]["replay"] is False
    assert game_from_dict(json.loads(json.dumps(state))).sets_won == {"A": 0, "B": 1}

    players = ["a1", "a2", "b1", "b2"]
    doubles = {"mode": "doubles", "players": players, "sets": 3, "shooter": "b1",
               "series": {"a1": 1, "b1": 1}, "first_clear": {"a1": "clean"}, "responder": "b1"}
    before = [{"id": "striker", "kind": "striker", "x": 0.07, "y": 0.5},
              puck("black1", 0.3, 0.5)]
    out = rule(before, drop(before, "black1"), [hit(0.1, "black1"), pocket(0.3, "black1")],
               state=doubles)
    state = out["state"]
    assert state["history"][-1]["replay"] is True and state["replays"] == 1
    assert game_from_dict(json.loads(json.dumps(state))).replays == 1


def test_novus_a_state_given_without_history_chains_through_a_set_end():
    """A state given without `history` (set 2, A 1-0: the sets before it unrecorded) ends set 2
    by 16.1.в (A wins it); the referee's next state records only set 2 (`history_from` 2), and
    it loads again, to be given as the next shot's state (`cuesim shoot --rule --state`: it was
    refused, "the sets played to a result are [2], but set 3 is being played")."""
    base = [striker(), puck("red1", 0.30, 0.70), puck("black1", 0.40, 0.30)]
    out = rule(base, drop(base, "red1"), [hit(0.1, "red1"), pocket(0.3, "red1")],
               state={"sets": 5, "set_number": 2, "sets_won": {"A": 1, "B": 0}},
               infractions=[{"code": "deliberate_violation"}])
    state = json.loads(json.dumps(out["state"]))
    assert state["set_number"] == 3 and state["history_from"] == 2
    assert [h["set"] for h in state["history"]] == [2]
    again = game_from_dict(state)
    assert again.sets_won == {"A": 2, "B": 0} and again.history_from == 2
    assert "history_from" not in rule(base, None, state={"sets": 3})["state"]  # a whole record


@pytest.mark.parametrize("extra, message", [
    ({"history": [], "set_number": 2, "history_from": 3},
     r"state\.history_from 3 is after state\.set_number 2"),
    ({"history": [{**SET_1_TO_ANNA, "set": 2, "winner": None}], "set_number": 3,
      "history_from": 2, "sets_won": {"Anna": 2}},
     r"state\.sets_won .*: 2 set\(s\) won before state\.history_from 2, but only 1 were"),
    ({"history": [{**SET_1_TO_ANNA, "set": 2}], "set_number": 3, "history_from": 2,
      "sets_won": {"Boris": 1}},
     r"state\.history: Anna won 1 set\(s\) in it, but state\.sets_won gives 0"),
    ({"history": [SET_1_TO_ANNA], "set_number": 3, "history_from": 2,
      "sets_won": {"Anna": 1}},
     r"the sets played to a result are \[1\], but set 3 is being played, so they are sets 2 "
     r"to 2"),
])
def test_novus_a_history_from_a_later_set_holds_only_the_sets_since(extra, message):
    """novus 23.1: a history from set k (`history_from`) lists sets k to set_number - 1; its
    winners are at most the sets won, the sets won before it at most k - 1."""
    with pytest.raises(ValueError, match=message):
        game_from_dict({**NOVUS, "sets": 5, **extra})
    ok = {"history": [{**SET_1_TO_ANNA, "set": 2}], "set_number": 3, "history_from": 2,
          "sets_won": {"Anna": 1, "Boris": 1}}
    assert game_from_dict({**NOVUS, "sets": 5, **ok}).history_from == 2


# -- 5-pins -------------------------------------------------------------------------------------

@pytest.mark.parametrize("extra, message", [
    ({"offender": "Zed"}, r"state\.offender must be null or one of the players"),
    ({"offender": ""}, r"state\.offender must be null or one of the players"),
    ({"excluded": "Zed"}, r"state\.excluded must be null or one of the players"),
    ({"winner": "Zed"}, r"state\.winner must be null or one of the players"),
    ({"winner": "Ann"}, r"state\.winner is 'Ann' in phase 'play': the winner is named when the "
                        r"match is over, and only then \(5-pins 2\)"),
    ({"phase": "match_over"}, r"state\.winner is None in phase 'match_over'"),
    ({"excluded": "Bob"}, r"state\.excluded 'Bob': a player excluded .* \(5-pins 9\.2\)"),
    ({"lag_faults": {"Zed": 1}}, r"state\.lag_faults must give players of"),
    ({"lag_faults": {"Ann": -1}}, r"state\.lag_faults must give players of"),
    ({"lag_faults": {"Ann": 1.5}}, r"state\.lag_faults must give players of"),
    ({"games": 3, "game": 5}, r"state\.game 5 is past the 3 game\(s\) of the match"),
    ({"games": 5, "game": 2, "games_won": {"Ann": 1, "Bob": 1}},
     r"state\.games_won .*: 2 game\(s\) won, but game 2 is on, and every game before it has "
     r"a winner \(5-pins 2\), so 1 are won"),
    ({"games": 5, "game": 3, "games_won": {"Ann": 1, "Bob": 0}},
     r"state\.games_won .*: 1 game\(s\) won, but game 3 is on, .* so 2 are won"),
    ({"phase": "match_over", "winner": "Ann", "excluded": "Bob", "games_won": {"Ann": 1,
                                                                            "Bob": 0}},
     r"state\.games_won .*: 1 game\(s\) won, but game 1 is the last and was left unfinished "
     r"\(5-pins 9\.2\), .* so 0 are won"),
    ({"game_scores": [{"Zed": 60}]}, r"state\.game_scores\[0\] must give each player of"),
    ({"games": 3, "game": 2, "games_won": {"Ann": 1, "Bob": 0},
      "game_scores": [{"Ann": 60, "Bob": -1}]},
     r"state\.game_scores\[0\] must give each player"),
    ({"game_scores": [{"Ann": 60, "Bob": 3}]},
     r"state\.game_scores: 1 finished game\(s\), but game 1 is on, so at most 0 are over"),
])
def test_5_pins_2_3_9_2_state_fields_name_players_and_fit_the_match(extra, message):
    """5-pins 2 (games and the winner), 3 (late starts at the lag), 9.2 (exclusion), 13.5 (the
    offender): values that no match reaches were loaded; now refused, naming the field. Game n
    follows n - 1 games won (every game has a winner: a game ahead of them was loaded until
    2026-12-07), n when the match is over, n - 1 when it ended by an exclusion (9.2)."""
    with pytest.raises(ValueError, match=message):
        FivePinsState.from_dict({**PINS, **extra})


def test_5_pins_states_a_match_reaches_still_load():
    """The offender a player (13.5), late starts counted (3), game 3 of 5 after two won, a match
    over with its winner, and one won by the opponent's exclusion (9.2: no game counted)."""
    FivePinsState.from_dict({**PINS, "offender": "Bob", "lag_faults": {"Ann": 1, "Bob": 0}})
    FivePinsState.from_dict({**PINS, "games": 5, "game": 3, "games_won": {"Ann": 1, "Bob": 1},
                             "game_scores": [{"Ann": 60, "Bob": 12}, {"Ann": 31, "Bob": 60}]})
    FivePinsState.from_dict({**PINS, "phase": "match_over", "winner": "Bob",
                             "games_won": {"Ann": 0, "Bob": 1}})
    FivePinsState.from_dict({**PINS, "phase": "match_over", "winner": "Ann", "excluded": "Bob"})


def _pending_13_5() -> dict[str, Any]:
    """The state after the second step of tests/scenarios/fivepins/opening_foul_and_spot.json:
    Bob fouled, Ann chooses (13.5) with the referee's own pending choice."""
    data = json.loads((Path(__file__).parent / "scenarios" / "fivepins" /
                       "opening_foul_and_spot.json").read_text(encoding="utf-8"))
    state = adjudicate(data)["steps"][1]["state"]
    assert state["pending"]["article"] == "5-pins 13.5" and state["offender"] == "Bob"
    return state


def _with_pending(state: dict[str, Any], change: Any) -> dict[str, Any]:
    state = json.loads(json.dumps(state))
    change(state["pending"])
    return state


@pytest.mark.parametrize("change, message", [
    (lambda p: p.update(player="Zed"), r"state\.pending\.player 'Zed' is not one of"),
    (lambda p: p.clear(), r"state\.pending must be null or \{'player', 'article'"),
    (lambda p: p.update(player="Bob"), r"the 13\.5 choice is the incoming shooter's \('Ann'\)"),
    (lambda p: p.update(article="5-pins 3"), r"state\.pending\.article '5-pins 3': in phase "
                                             r"'play' the referee offers only the 13\.5 choice"),
    (lambda p: p.update(options=["teleport"]), r"has the options 'in_hand' \(the default\)"),
    (lambda p: p.update(default=None), r"has the options 'in_hand' \(the default\)"),
    (lambda p: p["options"].update(in_hand={"placement": "moon"}),
     r"state\.pending\.options\.in_hand must be \{'placement': 'bottom_half'\}"),
    (lambda p: p["options"]["spot_offender"]["spot"].update(id="white"),
     r"spot_offender must put the offender's ball \('yellow'\) on the top spot"),
    (lambda p: p["options"]["spot_offender"]["spot"].update(x=0.2),
     r"spot_offender must put the offender's ball"),
])
def test_5_pins_3_13_5_pending_is_a_choice_the_referee_offers(change, message):
    """5-pins 3 (the lag winner breaks or passes), 13.5 (after a foul, ball in hand or the
    offender's ball spotted): a pending choice that names no player, has other options or puts
    a ball elsewhere was loaded, and a choice then raised a KeyError or placed the ball in hand
    'moon'; now refused, naming the field. The referee's own choice loads."""
    state = _pending_13_5()
    assert FivePinsState.from_dict(state).pending == state["pending"]
    with pytest.raises(ValueError, match=message):
        FivePinsState.from_dict(_with_pending(state, change))


def test_5_pins_3_the_lag_choice_is_pending_in_its_phase_only():
    lag = {"player": "Bob", "article": "5-pins 3", "options": ["break", "pass"], "default": None}
    FivePinsState.from_dict({**PINS, "phase": "lag_choice", "pending": lag})
    with pytest.raises(ValueError, match=r"state\.pending is null in phase 'lag_choice'"):
        FivePinsState.from_dict({**PINS, "phase": "lag_choice"})
    with pytest.raises(ValueError, match=r"in phase 'lag_choice' must be the lag winner's"):
        FivePinsState.from_dict({**PINS, "phase": "lag_choice",
                                 "pending": {**lag, "options": ["break"]}})
    with pytest.raises(ValueError, match=r"in phase 'play' the referee offers only the 13\.5"):
        FivePinsState.from_dict({**PINS, "pending": lag})


# -- pool ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("value", ["Zed", ""])
def test_pool_last_frame_winner_is_a_player(value):
    """WPA 3.36 (the break order after a frame): `last_frame_winner` is null before a frame has
    ended, else the player who won it; any string was loaded."""
    with pytest.raises(ValueError, match=r"state\.last_frame_winner must be null or one of the "
                                         r"players \['Ann', 'Bob'\], got "):
        PoolState.from_dict({**POOL, "last_frame_winner": value})
    PoolState.from_dict({**POOL, "frame": 2, "frames_won": {"Bob": 1}, "race_to": 3,
                         "last_frame_winner": "Bob"})


@pytest.mark.parametrize("extra, message", [
    ({"game": "eight_ball", "push_out_available": True},
     r"state\.push_out_available in eight_ball in phase 'play': only the shot after a legal "
     r"9-ball break may be a push-out \(WPA 5\.5, 5\.6\)"),
    ({"game": "straight_pool", "push_out_available": True}, r"state\.push_out_available"),
    ({"push_out_available": True, "phase": "break"}, r"in nine_ball in phase 'break'"),
    ({"push_out_available": 1}, r"state\.push_out_available must be true or false"),
    ({"near_rail_safeties": {"Ann": ["4", 1]}},
     r"state\.near_rail_safeties .*only 14\.1 counts safeties on a ball near a cushion "
     r"\(WPA 6\.7\.2\)"),
    ({"game": "straight_pool", "near_rail_safeties": {"Zed": ["4", 1]}},
     r"state\.near_rail_safeties must give players of \['Ann', 'Bob'\] \[an object ball"),
    ({"game": "straight_pool", "near_rail_safeties": {"Ann": ["cue", 1]}},
     r"got 'Ann': \['cue', 1\]"),
    ({"game": "straight_pool", "near_rail_safeties": {"Ann": ["4", 0]}},
     r"got 'Ann': \['4', 0\]"),
])
def test_pool_push_out_and_near_rail_safeties_fit_the_game(extra, message):
    """WPA 5.5, 5.6: only 9-ball has the push-out, on the shot after the break; WPA 6.7.2:
    only 14.1 counts a player's safeties on a ball near a cushion, {player: [ball, count]}.
    The other games' referees ignored such a field, and 14.1's compared a junk ball id."""
    with pytest.raises(ValueError, match=message):
        PoolState.from_dict({**POOL, **extra})


def test_pool_a_race_to_n_is_over_within_2n_minus_1_frames():
    """Every frame has a winner (3.36), so frame n follows n - 1 frames won, and while a race
    to n is on its frame is at most 2n - 1 (a `frame` of 150 in a race to 1 was loaded when
    `frames_won` was left out; a frame ahead of the frames won was loaded until 2026-12-07)."""
    with pytest.raises(ValueError, match=r"state\.frame 2 with 0 frames won \(\{\}\): every "
                                         r"frame has a winner \(3\.36\)"):
        PoolState.from_dict({**POOL, "frame": 2})
    with pytest.raises(ValueError, match=r"state\.frame 6 with 4 frames won"):
        PoolState.from_dict({**POOL, "game": "straight_pool", "frame": 6, "race_to": 3,
                             "frames_won": {"Ann": 2, "Bob": 2}})
    with pytest.raises(ValueError, match=r"state\.frame 6 with race_to 3: every frame has a "
                                         r"winner, so a race to that many is over within 5"):
        PoolState.from_dict({**POOL, "game": "straight_pool", "frame": 6, "race_to": 3,
                             "frames_won": {"Ann": 2, "Bob": 3}})
    PoolState.from_dict({**POOL, "frame": 5, "race_to": 3,
                         "frames_won": {"Ann": 2, "Bob": 2}})


def test_pool_push_out_and_near_rail_safeties_a_match_reaches_still_load():
    PoolState.from_dict({**POOL, "push_out_available": True})
    PoolState.from_dict({**POOL, "game": "straight_pool",
                         "near_rail_safeties": {"Ann": ["4", 2], "Bob": ["11", 1]}})


# -- the doors: batch --state and adjudicate ----------------------------------------------------

def test_batch_state_door_refuses_them_in_one_line(tmp_path: Path, capsys: Any) -> None:
    """`cuesim batch novus --ruling --state FILE`: exit status 2 and one line naming the file
    and the field (was: the string read as true and shots ruled)."""
    path = tmp_path / "state.json"
    path.write_text(json.dumps({**NOVUS, "deciding_swap": "yes"}), encoding="utf-8")
    with pytest.raises(BatchError, match=r"state\.deciding_swap must be true or false"):
        referee_state("novus", str(path))
    rc = main(["batch", "novus", "--shots", "2", "--ruling", "--state", str(path), "--out",
               str(tmp_path / "out.npz"), "--quiet"])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1
    assert str(path) in err and "state.deciding_swap must be true or false, got 'yes'" in err
    assert not (tmp_path / "out.npz").exists()


def test_adjudicate_door_refuses_a_5_pins_offender_who_is_not_playing(tmp_path: Path,
                                                                       capsys: Any) -> None:
    """`cuesim adjudicate FILE`: a 5-pins scenario whose state names an offender who is not a
    player: exit status 2, one line naming the field."""
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps({"game": "five_pins", "state": {**PINS, "offender": "Zed"},
                                "steps": []}), encoding="utf-8")
    rc = main(["adjudicate", str(path)])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and "state.offender must be null or one of" in err
