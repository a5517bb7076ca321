"""JSON adjudication scenarios (rules/pool/README.md) through adjudicate_scenario, and clear
errors for malformed input."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from cuesim.rules.pool import adjudicate_file, adjudicate_scenario

HERE = Path(__file__).parent / "scenarios" / "pool"


def load(name):
    return json.loads((HERE / name).read_text(encoding="utf-8"))


def test_eight_ball_break_and_run_scenario():
    out = adjudicate_file(HERE / "eight_ball_break_and_run.json")
    steps = out["steps"]
    assert [s["ruling"]["legal"] for s in steps] == [True, True, True]
    assert steps[1]["state"]["groups"] == {"Ann": "solids", "Bob": "stripes"}
    assert steps[2]["ruling"]["winner"] == "Ann" and steps[2]["ruling"]["match_over"]
    assert out["state"]["phase"] == "match_over"


def test_nine_ball_push_out_scenario():
    out = adjudicate_scenario(load("nine_ball_push_out.json"))
    push, passed, miss = out["steps"]
    assert push["ruling"]["legal"] and push["state"]["pending"]["player"] == "Ann"
    assert passed["ruling"]["next_player"] == "Bob"
    assert [v["article"] for v in miss["ruling"]["violations"]] == ["WPA 5.8"]
    assert miss["ruling"]["next_player"] == "Ann" and miss["ruling"]["placement"] == "table"


def test_straight_pool_third_foul_scenario():
    out = adjudicate_scenario(load("straight_pool_third_foul.json"))
    ruling = out["steps"][0]["ruling"]
    assert ruling["points"] == {"Ann": -16}
    assert out["state"]["scores"]["Ann"] == 14
    assert out["state"]["pending"]["player"] == "Bob"


def test_straight_pool_rerack_scenario():
    out = adjudicate_scenario(load("straight_pool_rerack.json"))
    step = out["steps"][0]
    assert step["ruling"]["points"] == {"Ann": 1}
    ids = {p["id"] for p in out["layout"]["pieces"]}
    assert len(ids) == 16  # 14 racked + the 15th + the cue ball
    assert {"id": "7", "article": "WPA 6.7.6"}.items() <= step["spotted"][0].items()


def test_scenario_round_trips_through_json():
    out = adjudicate_scenario(load("straight_pool_rerack.json"))
    again = json.loads(json.dumps(out))
    assert again == out


@pytest.mark.parametrize("mutate,message", [
    (lambda d: d.update(game="snooker"), "unknown game 'snooker'"),
    (lambda d: d.pop("game"), "missing field 'game'"),
    (lambda d: d.pop("shot"), "missing field 'shot' or 'steps'"),
    (lambda d: d["shot"]["events"][1].update(b="16"), "unknown piece id '16'"),
    (lambda d: d["shot"]["initial"].update({"cue2": [0.1, 0.1]}), "unknown ball id 'cue2'"),
    (lambda d: d["shot"]["events"][2].update(feature="corner"), "unknown pocket 'corner'"),
    (lambda d: d["shot"]["events"][0].pop("kind"), "missing field 'kind'"),
    (lambda d: d["shot"]["events"][0].update(kind="bounce"), "unknown event kind 'bounce'"),
    (lambda d: d["shot"].pop("initial"), "missing field 'initial'"),
    (lambda d: d["shot"]["declaration"].update(callled="4"), "unknown field"),
    (lambda d: d["shot"].update(infractions=[{"player": "Ann"}]), "has no 'code'"),
    (lambda d: d["state"].update(shooter="Cid"), "is not one of the players"),
    (lambda d: d["state"].pop("players"), "missing field 'players'"),
    (lambda d: d["shot"]["initial"].update({"4": [0.1]}), r"must be \[x, y\]"),
])
def test_malformed_scenarios_name_the_problem(mutate, message):
    data = copy.deepcopy(load("straight_pool_rerack.json"))
    mutate(data)
    with pytest.raises(ValueError, match=message):
        adjudicate_scenario(data)


def test_nine_ball_rejects_balls_above_nine():
    data = load("nine_ball_push_out.json")
    data["steps"][0]["initial"]["12"] = [0.2, 0.2]
    with pytest.raises(ValueError, match="unknown ball id '12' for nine_ball"):
        adjudicate_scenario(data)


def test_unknown_choice_is_named():
    data = load("nine_ball_push_out.json")
    data["steps"][1]["declaration"]["choice"] = "rerack"
    with pytest.raises(ValueError, match="'rerack' is not an option"):
        adjudicate_scenario(data)


def test_novus_style_flat_single_shot():
    data = {
        "game": "9-ball",
        "description": "a flat scenario with before/after, as the novus referee reads",
        "state": {"game": "nine_ball", "players": ["Ann", "Bob"], "shooter": "Ann",
                  "phase": "play", "ball_in_hand": None},
        "before": {"cue": [0.6, 1.0], "1": [0.6, 1.5], "9": [0.2, 2.0]},
        "after": {"cue": [0.6, 1.4], "9": [0.2, 2.0]},
        "events": [{"t": 0, "kind": "strike", "a": "cue"},
                   {"t": 0.2, "kind": "collide", "a": "cue", "b": "1"},
                   {"t": 0.5, "kind": "pocket", "a": "1", "feature": "foot_left"}],
    }
    out = adjudicate_scenario(data)
    assert out["steps"][0]["ruling"]["legal"]
    assert out["steps"][0]["ruling"]["next_player"] == "Ann"


def test_3_33_jammed_needs_the_layout_after_the_shot():
    """A scenario that judges balls pocketed from a jam (3.33) must show where they lie: the
    loader used to drop them from the derived 'after' and then refuse its own layout."""
    data = load("nine_ball_push_out.json")
    step = data["steps"][0]
    step.pop("final", None)
    step.pop("after", None)
    ball = next(b for b in step["initial"] if b != "cue")
    step.setdefault("declaration", {})["jammed"] = {ball: "foot_left"}
    with pytest.raises(ValueError, match=r"steps\[0\]\.declaration\.jammed: give the layout "
                                         "after the shot"):
        adjudicate_scenario(data)


def test_pool_readme_python_example_runs():
    import re

    readme = Path(__file__).resolve().parent.parent / "rules" / "pool" / "README.md"
    blocks = re.findall(r"```python\n(.*?)```", readme.read_text(), flags=re.S)
    assert blocks
    for block in blocks:
        exec(compile(block, "rules/pool/README.md", "exec"), {})
