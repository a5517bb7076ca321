"""WPA 3.32: a pocketed ball comes back only by spotting (or a new rack). A scenario step
whose table holds a ball the step before left off cannot have happened: refused."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from cuesim.cli import main
from cuesim.rules.files import ScenarioError
from cuesim.rules.pool.scenario import adjudicate_scenario

SCENARIOS = Path(__file__).parent / "scenarios" / "pool"
BREAK_AND_RUN = json.loads((SCENARIOS / "eight_ball_break_and_run.json").read_text())


def test_wpa_3_32_a_pocketed_ball_not_spotted_cannot_come_back(tmp_path, capsys):
    s = copy.deepcopy(BREAK_AND_RUN)
    s["steps"][1]["initial"]["3"] = [0.2, 0.5]  # pocketed on the break, not spotted in 8-ball
    with pytest.raises(ScenarioError, match=r"steps\[1\]\.initial: ball '3' is on the table, "
                                            r"but the step before left it off"):
        adjudicate_scenario(s)
    path = tmp_path / "s.json"
    path.write_text(json.dumps(s))
    assert main(["adjudicate", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "WPA 3.32" in err


def test_a_ball_a_step_leaves_out_is_off_the_table_from_then_on():
    s = copy.deepcopy(BREAK_AND_RUN)  # the 5 on the table, left out of step 1, back in 2
    s["steps"][0]["initial"]["5"] = s["steps"][2]["initial"]["5"] = [0.2, 1.5]
    with pytest.raises(ScenarioError, match=r"steps\[2\]\.initial: ball '5' is on the table"):
        adjudicate_scenario(s)


def test_a_choice_step_in_between_changes_no_table():
    """5.6, 3.32: the 2 pocketed on a push-out stays down; a choice step after it (no table of
    its own) does not bring it back: the next shot's table with the 2 on it is refused."""
    table = {"cue": [0.635, 1.2], "1": [0.2, 1.0], "2": [0.6, 1.9], "3": [0.9, 1.7],
             "9": [0.5, 2.3]}
    s = {"game": "nine_ball",
         "state": {"game": "nine_ball", "players": ["Ann", "Bob"], "shooter": "Bob",
                   "breaker": "Ann", "phase": "play", "ball_in_hand": None,
                   "push_out_available": True},
         "steps": [
             {"initial": table, "declaration": {"push_out": True},
              "events": [{"t": 0.0, "kind": "strike", "a": "cue"},
                         {"t": 0.3, "kind": "collide", "a": "cue", "b": "2"},
                         {"t": 0.8, "kind": "pocket", "a": "2", "feature": "foot_left"}]},
             {"declaration": {"choice": "shoot"}},
             {"initial": table,
              "events": [{"t": 0.0, "kind": "strike", "a": "cue"},
                         {"t": 0.3, "kind": "collide", "a": "cue", "b": "1"},
                         {"t": 0.5, "kind": "collide", "a": "1", "b": "2"},
                         {"t": 0.9, "kind": "pocket", "a": "2", "feature": "foot_right"}]}]}
    with pytest.raises(ScenarioError, match=r"steps\[2\]\.initial: ball '2' is on the table"):
        adjudicate_scenario(s)


@pytest.mark.parametrize("path", sorted(SCENARIOS.glob("*.json")), ids=lambda p: p.stem)
def test_the_shipped_scenarios_go_on_from_the_table_left(path):
    """Re-racks (14.1), spotted balls and ball in hand all continue."""
    adjudicate_scenario(json.loads(path.read_text()))


@pytest.mark.parametrize("game", ["eight_ball", "nine_ball"])
def test_points_to_is_an_option_of_14_1_only(game):
    """WPA 6.1: 14.1 is played to a number of points; 8-ball and 9-ball count racks, so
    `points_to` there would be ignored: refused."""
    s = {"game": game, "options": {"points_to": 50}, "steps": [{"declaration": {}}]}
    with pytest.raises(ScenarioError, match=r"unknown option\(s\) \['points_to'\]"):
        adjudicate_scenario(s)
    adjudicate_scenario({"game": "straight_pool", "options": {"points_to": 50},
                         "steps": copy.deepcopy(BREAK_AND_RUN["steps"][:1])})


def test_a_step_on_a_table_where_no_game_goes_on_is_refused_naming_the_step():
    """4.1: an 8-ball step whose table has no 8 cannot have been played; the refusal names
    the step and its layout, as the loader's own checks do."""
    s = copy.deepcopy(BREAK_AND_RUN)
    del s["steps"][1]["initial"]["8"]
    with pytest.raises(ValueError, match=r"^steps\[1\]: initial: the layout has no 8: the 8-ball "
                                         "game is over once the 8 is down"):
        adjudicate_scenario(s)
