"""A hand-written event log whose pieces would have to be faster than any shot makes them
(`rules.event_log.check_reach`: a cue gives at most the energy `motion_limits` holds a strike to,
and impacts and friction only take energy away) is refused, naming the event, by the scenario
files and by every referee's Python API. Before, `cuesim adjudicate` ruled "a legal shot" on a
9-ball log where the cue ball and the 1 collided at the strike 0.44 m apart at 1e300 m/s and
the 1 dropped into a pocket 1.6 m away a millisecond later."""

from __future__ import annotations

import json
import re

import pytest

from cuesim.api import start_layout
from cuesim.cli import main
from cuesim.rules.files import ScenarioError
from cuesim.rules.fivepins import FivePinsGame, FivePinsShot
from cuesim.rules.novus import NovusGame
from cuesim.rules.novus.shotlog import ShotRecord
from cuesim.rules.pool import NineBall, PoolShot
from cuesim.sim.events import EventKind
from cuesim.sim.result import Event

STRIKE, COLLIDE, POCKET = EventKind.STRIKE, EventKind.COLLIDE, EventKind.POCKET
STATE = {"game": "nine_ball", "players": ["Ann", "Bob"], "shooter": "Ann", "breaker": "Bob",
         "phase": "play", "ball_in_hand": None}
INITIAL = {"cue": [0.635, 1.0], "1": [0.635, 1.5], "9": [1.0, 2.2]}


def _scenario(tmp_path, events: list[dict]) -> str:
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps({"game": "nine_ball", "state": STATE,
                                "shot": {"initial": INITIAL, "events": events}}))
    return str(path)


@pytest.mark.parametrize(("events", "message"), [
    ([{"t": 0.0, "kind": "collide", "a": "cue", "b": "1", "speed": 1e300}],
     r"events\[1\]\.speed = 1e\+300 m/s is beyond what the shot can give 'cue' and '1'"),
    ([{"t": 0.0, "kind": "collide", "a": "cue", "b": "1", "speed": 2.0}],
     r"events\[1\]: 'cue' and '1' cannot reach this collide by t = 0 s: 0\.443 m away"),
    ([{"t": 0.05, "kind": "collide", "a": "cue", "b": "1", "speed": 2.0},
      {"t": 0.051, "kind": "pocket", "a": "1", "feature": "head_left"}],
     r"events\[2\]: '1' cannot reach this pocket by t = 0\.051 s"),
])
def test_a_scenario_log_no_shot_is_fast_enough_for_is_refused(tmp_path, capsys, events, message):
    path = _scenario(tmp_path, [{"t": 0.0, "kind": "strike", "a": "cue"}, *events])
    assert main(["adjudicate", path]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"scenario {path}: shot." in err
    assert re.search(message, err), err


def test_the_same_log_at_a_pace_a_shot_has_is_ruled(tmp_path, capsys):
    """0.44 m at 0.2 s, then 0.9 m to the pocket by 0.6 s: a legal pot (WPA 5.5)."""
    path = _scenario(tmp_path, [{"t": 0.0, "kind": "strike", "a": "cue"},
                                {"t": 0.2, "kind": "collide", "a": "cue", "b": "1", "speed": 2.0},
                                {"t": 0.6, "kind": "pocket", "a": "1", "feature": "side_left"}])
    assert main(["adjudicate", path]) == 0
    assert "A legal shot" in capsys.readouterr().out


def test_every_referee_checks_the_reach_of_a_python_log():
    pool = start_layout("9-ball")
    far = next(p.id for p in pool.pieces if p.id != "cue")
    with pytest.raises(ScenarioError, match=r"shot\.events\[1\]: 'cue' and .* cannot reach"):
        NineBall(players=("Ann", "Bob")).play(PoolShot(
            [Event(0.0, STRIKE, "cue"), Event(0.001, COLLIDE, "cue", far, speed=1.0)],
            pool, pool))
    five = start_layout("5-pins")
    with pytest.raises(ScenarioError, match=r"shot\.events\[1\]: 'white' and 'red' cannot"):
        FivePinsGame(players=("Ann", "Bob")).play(FivePinsShot(
            [Event(0.0, STRIKE, "white"), Event(0.001, COLLIDE, "white", "red", speed=1.0)],
            five, five))
    novus = start_layout("novus")
    puck = max((p for p in novus.pieces if p.id != "striker"), key=lambda p: p.y)
    with pytest.raises(ScenarioError, match=r"shot\.events\[1\]: 'striker' and .* cannot"):
        NovusGame(["Ann", "Bob"]).adjudicate(ShotRecord.from_parts(novus, novus, [
            Event(0.0, STRIKE, "striker"), Event(0.001, COLLIDE, "striker", puck.id, speed=1.0)]))
