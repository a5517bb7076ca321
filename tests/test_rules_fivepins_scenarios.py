"""5-pins JSON scenarios (rules/fivepins/README.md) through `cuesim adjudicate` and
adjudicate_scenario, and clear errors for malformed input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cuesim.cli import main
from cuesim.rules.files import adjudicate
from cuesim.rules.fivepins import adjudicate_file, adjudicate_scenario
from cuesim.tables.carom import SPOTS

HERE = Path(__file__).parent / "scenarios" / "fivepins"


def cli(path, capsys):
    assert main(["adjudicate", str(path), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_opening_foul_and_spot_scenario(capsys):
    out = cli(HERE / "opening_foul_and_spot.json", capsys)
    opening, foul, choice = out["steps"]
    assert opening["ruling"]["legal"] and opening["ruling"]["points"] == {"Ann": 6}
    assert [v["article"] for v in foul["ruling"]["violations"]] == ["5-pins 15.3.б"]
    assert foul["ruling"]["points"] == {"Ann": 4} and foul["ruling"]["next_player"] == "Ann"
    assert choice["ruling"]["placement"] == "bottom_half"
    yellow = next(p for p in out["layout"]["pieces"] if p["id"] == "yellow")
    assert (yellow["x"], yellow["y"]) == SPOTS["top_spot"]
    assert out["state"]["scores"] == {"Ann": 10, "Bob": 0}


def test_lag_and_break_scenario(capsys):
    out = cli(HERE / "lag_and_break.json", capsys)
    lag, choice, miss = out["steps"]
    assert lag["lag"]["winner"] == "Bob"
    assert choice["state"]["breaker"] == "Bob" and choice["ruling"]["placement"] == "bottom_half"
    assert [v["article"] for v in miss["ruling"]["violations"]] == ["5-pins 15.3.г"]
    assert miss["ruling"]["placement"] == "bottom_half"  # the yellow stopped in the top half


def test_game_point_capped_scenario():
    out = adjudicate_file(HERE / "game_point_capped.json")
    ruling = out["steps"][0]["ruling"]
    assert ruling["winner"] == "Ann" and ruling["match_over"]
    assert out["state"]["game_scores"] == [{"Ann": 60, "Bob": 41}]


def test_a_state_in_play_without_placement_plays_the_ball_where_it_lies():
    """13.1: a ball is in hand in play only after a foul. A `play` state that leaves out
    `placement` took the opening's bottom half (4.1), so a correct carom from the top half was
    ruled a 13.3 foul; at the `break` the default is still the bottom half."""
    shot = {"initial": {"white": [0.40, 2.00], "yellow": [1.0, 1.0], "red": [0.71, 2.40]},
            "events": [{"t": 0, "kind": "strike", "a": "white"},
                       {"t": 0.4, "kind": "collide", "a": "white", "b": "yellow"},
                       {"t": 0.8, "kind": "collide", "a": "white", "b": "red"}],
            "final": {"white": [0.5, 2.5], "yellow": [1.2, 0.6], "red": [0.9, 2.6]}}
    state = {"players": ["Ann", "Bob"], "shooter": "Ann", "scores": {"Ann": 10, "Bob": 10}}
    played = adjudicate({"game": "five_pins", "state": dict(state, phase="play"), "shot": shot})
    ruling = played["steps"][0]["ruling"]
    assert ruling["legal"] and ruling["points"] == {"Ann": 4}
    from cuesim.rules.fivepins.model import FivePinsState
    assert FivePinsState.from_dict(dict(state, phase="break")).placement == "bottom_half"
    assert FivePinsState.from_dict(state).placement == "bottom_half"  # the phase: break
    assert FivePinsState.from_dict(dict(state, phase="play")).placement is None


def test_dispatcher_knows_the_five_pins_names():
    data = json.loads((HERE / "game_point_capped.json").read_text(encoding="utf-8"))
    for name in ("five_pins", "5-pins", "fivepins"):
        assert adjudicate(dict(data, game=name))["game"] == "five_pins"


def test_round_trips_through_json():
    out = adjudicate_file(HERE / "opening_foul_and_spot.json")
    assert json.loads(json.dumps(out)) == out


@pytest.mark.parametrize("change, match", [
    ({"game": "six_pins"}, "game must be one of"),
    ({"options": {"colour": "red"}}, "unknown option"),
    ({"shot": {"before": {"white": [0.7, 0.5]}, "events": [
        {"t": 0, "kind": "strike", "a": "cue"}]}}, "unknown piece id 'cue'"),
    ({"shot": {"before": {"white": [0.7, 0.5]}, "events": [
        {"t": 0, "kind": "rail", "a": "white", "feature": "head_rail"}]}}, "unknown rail"),
    ({"shot": {"events": [{"t": 0, "kind": "strike", "a": "white"}]}}, "missing field 'initial'"),
    ({"shot": {"before": {"white": [0.7, 0.5]}, "infractions": [{"code": "foul"}]}},
     "unknown infraction code"),
    ({"shot": {"declaration": {"choice": "break"}}}, "no choice is pending"),
    ({"options": {"games": 4}, "shot": {}}, "odd"),
])
def test_malformed_scenarios_name_the_problem(change, match):
    data = {"game": "five_pins", "players": ["Ann", "Bob"]}
    data.update(change)
    with pytest.raises(ValueError, match=match):
        adjudicate_scenario(data)


def test_cli_reports_errors(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"game": "five_pins", "steps": "x"}), encoding="utf-8")
    assert main(["adjudicate", str(bad)]) == 2
    assert "steps must be a list" in capsys.readouterr().err


@pytest.mark.parametrize("game", ["five_pins", "nine_ball", "eight_ball"])
def test_a_scenario_of_no_steps_is_refused(tmp_path, capsys, game):
    """Nothing to rule on: 'rules on 0 steps' with exit 0 hid a file that lost its steps."""
    bad = tmp_path / "empty.json"
    bad.write_text(json.dumps({"game": game, "players": ["Ann", "Bob"], "steps": []}),
                   encoding="utf-8")
    assert main(["adjudicate", str(bad)]) == 2
    assert "steps must be a list of at least one step" in capsys.readouterr().err
