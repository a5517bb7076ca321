"""Doors that take a state or a scenario refuse what cannot have happened, naming the field:
the pool referee's `state.pending`, `warned`, `match_warnings` and `groups`
(`rules.pool.model.check_state`); the fields of a scenario's events (`rules.files.parse_event`)
and its top level (`check_scenario_fields`); a novus state's `sets_won`; a 5-pins event whose
pieces are of the wrong kind. Every pending choice the pool referees offer still passes."""

from __future__ import annotations

import copy
import inspect
import json
import re
from pathlib import Path
from typing import Any

import pytest

from cuesim.rules.files import ScenarioError, adjudicate
from cuesim.rules.fivepins import FivePinsGame
from cuesim.rules.fivepins.model import FivePinsShot
from cuesim.rules.pool.base import PoolGame
from cuesim.rules.pool.model import PENDING_OPTIONS, PoolState, check_pending
from cuesim.rules.wording import CHOICES
from cuesim.sim.events import EventKind
from cuesim.sim.result import Event

SCENARIOS = Path(__file__).parent / "scenarios"
NOVUS = Path(__file__).parent / "novus_scenarios"


def _load(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def _pool_state(**fields: Any) -> dict[str, Any]:
    """A 9-ball state in play, Ann to shoot (as the chooser of `_push_out`: the referee hands
    the turn to the player who chooses), with `fields` over it."""
    state = {"game": "nine_ball", "players": ["Ann", "Bob"], "shooter": "Ann",
             "breaker": "Ann", "phase": "play", "ball_in_hand": None}
    state.update(fields)
    return state


def _push_out(**options: Any) -> dict[str, Any]:
    """A pending 5.6 push-out choice for Ann, with `options` over the referee's own."""
    opts = {"shoot": {"shooter": "Ann", "ball_in_hand": None, "rerack": False},
            "pass": {"shooter": "Bob", "ball_in_hand": None, "rerack": False}}
    opts.update(options)
    return {"player": "Ann", "article": "WPA 5.6", "options": opts}


# -- D8: the pool referee's state ----------------------------------------------------------------

BAD_POOL_STATES = [
    (_pool_state(pending="yes"), r"state\.pending must be null or an object"),
    (_pool_state(pending={**_push_out(), "player": "Zed"}),
     r"state\.pending\.player 'Zed' is not one of the players"),
    (_pool_state(pending={**_push_out(), "article": 5}), r"state\.pending\.article must be"),
    (_pool_state(pending={**_push_out(), "extra": 1}),
     r"state\.pending: unknown field\(s\) \['extra'\]"),
    (_pool_state(pending={"player": "Ann", "article": "WPA 5.6"}),
     r"state\.pending is missing field 'options'"),
    (_pool_state(pending={**_push_out(), "options": []}),
     r"state\.pending\.options must be an object of one or more options"),
    (_pool_state(pending={**_push_out(), "options": {}}),
     r"state\.pending\.options must be an object of one or more options"),
    (_pool_state(pending=_push_out(teleport={"shooter": "Ann", "ball_in_hand": None,
                                             "rerack": False})),
     r"state\.pending\.options: 'teleport' is not an option the nine_ball referee offers"),
    (_pool_state(pending=_push_out(rerack={"shooter": "Ann", "ball_in_hand": None,
                                           "rerack": True})),
     r"'rerack' is not an option the nine_ball referee offers"),
    (_pool_state(pending=_push_out(shoot="Ann shoots")),
     r"state\.pending\.options\.shoot must be \{'shooter': a player"),
    (_pool_state(pending=_push_out(shoot={"shooter": "Ann"})),
     r"state\.pending\.options\.shoot must be \{'shooter'"),
    (_pool_state(pending=_push_out(shoot={"shooter": "Ghost", "ball_in_hand": None,
                                          "rerack": False})),
     r"state\.pending\.options\.shoot\.shooter 'Ghost' is not one of the players"),
    (_pool_state(pending=_push_out(shoot={"shooter": "Ann", "ball_in_hand": "moon",
                                          "rerack": False})),
     r"state\.pending\.options\.shoot\.ball_in_hand must be one of null, 'kitchen', 'table'"),
    (_pool_state(pending=_push_out(shoot={"shooter": "Ann", "ball_in_hand": None,
                                          "rerack": "no"})),
     r"state\.pending\.options\.shoot\.rerack must be true or false"),
    (_pool_state(game="straight_pool", pending={
        "player": "Ann", "article": "WPA 6.12",
        "options": {"accept": {"shooter": "Ann", "ball_in_hand": "table", "rerack": False}}}),
     r"state\.pending\.options\.accept\.ball_in_hand must be one of null, 'kitchen', got "
     r"'table'"),
    (_pool_state(warned={"Zed": True}), r"state\.warned must give players of"),
    (_pool_state(warned={"Ann": 1}), r"state\.warned must give players of .* true or false"),
    (_pool_state(match_warnings={"Zed": []}), r"state\.match_warnings must give players of"),
    (_pool_state(groups={"Ann": "solids", "Bob": "stripes"}),
     r"state\.groups .*only 8-ball has groups"),
    (_pool_state(game="straight_pool", groups={"Ann": "solids", "Bob": "stripes"}),
     r"state\.groups .*only 8-ball has groups"),
]


@pytest.mark.parametrize("state, message", BAD_POOL_STATES)
def test_pool_state_door_refuses_an_impossible_pending_warned_or_groups(state, message):
    """`PoolState.from_dict` (the state given to the referee: scenario `state`, `--state`)
    refuses a pending choice, warning or groups no match can reach, naming the field."""
    with pytest.raises(ValueError, match=message):
        PoolState.from_dict(copy.deepcopy(state))


@pytest.mark.parametrize("state, message", BAD_POOL_STATES[1:4] + [BAD_POOL_STATES[k] for k in
                                                                  (-5, -3, -2, -1)])
def test_pool_scenario_state_door_names_the_field_not_a_type_error(state, message):
    """A scenario with such a state is a ScenarioError naming the field, never the catch-all
    'wrong type or shape' message, and never a ruling."""
    scenario = {"game": state["game"], "state": copy.deepcopy(state),
                "shot": {"declaration": {"choice": "shoot"}}}
    with pytest.raises(ScenarioError, match=message) as err:
        adjudicate(scenario)
    assert "wrong type or shape" not in str(err.value)


def test_pool_game_door_checks_a_state_object_too():
    """`NineBall(state=PoolState(...))` (the API door) runs the same check."""
    from cuesim.rules.pool.nine_ball import NineBall

    state = PoolState.from_dict(_pool_state())
    state.pending = {**_push_out(), "player": "Zed"}
    with pytest.raises(ValueError, match=r"state\.pending\.player 'Zed'"):
        NineBall(state=state)


def test_pool_state_pending_of_each_referee_is_accepted_and_worded():
    """The options PENDING_OPTIONS lists are the ones `rules.wording.CHOICES` words, and a
    state with the referee's own push-out choice passes."""
    for game, names in PENDING_OPTIONS.items():
        assert set(names) <= set(CHOICES), game
    state = PoolState.from_dict(_pool_state(pending=_push_out()))
    assert state.pending == _push_out()


def _test_calls(module: Any) -> list[tuple[Any, dict[str, Any]]]:
    """The module's test functions with their arguments: those without parameters, and those
    whose parameters all come from one `pytest.mark.parametrize` (one call per case)."""
    calls = []
    for name, fn in sorted(vars(module).items()):
        if not name.startswith("test_") or not inspect.isfunction(fn):
            continue
        params = list(inspect.signature(fn).parameters)
        marks = [m for m in getattr(fn, "pytestmark", []) if m.name == "parametrize"]
        if not params:
            calls.append((fn, {}))
        elif len(marks) == 1:
            names = marks[0].args[0]
            names = [n.strip() for n in names.split(",")] if isinstance(names, str) else names
            if sorted(names) != sorted(params):
                continue
            for case in marks[0].args[1]:
                if hasattr(case, "marks"):  # pytest.param(...)
                    if case.marks:
                        continue
                    case = case.values
                values = (case,) if len(names) == 1 else tuple(case)
                calls.append((fn, dict(zip(names, values, strict=True))))
    return calls


def test_pool_state_round_trip_every_pending_the_referees_offer_passes(monkeypatch):
    """Round trip: the pool referees' own tests are played with every offered choice checked
    (`check_pending`) and every outcome's state read back through `PoolState.from_dict`; all
    pass, and between them every option of PENDING_OPTIONS is offered."""
    from tests import (
        test_rules_pool_eight_ball,
        test_rules_pool_general,
        test_rules_pool_nine_ball,
        test_rules_pool_scenarios,
        test_rules_pool_straight_pool,
        test_rules_pool_thresholds,
    )

    offered: dict[str, set[str]] = {game: set() for game in PENDING_OPTIONS}
    original_offer, original_play, original_choose = PoolGame._offer, PoolGame.play, \
        PoolGame.choose

    def offer(self: PoolGame, st: PoolState, *args: Any) -> None:
        original_offer(self, st, *args)
        check_pending(st)
        offered[st.game] |= set(st.pending["options"])

    def read_back(out: Any) -> Any:
        PoolState.from_dict(json.loads(json.dumps(out.state.to_dict())))
        return out

    monkeypatch.setattr(PoolGame, "_offer", offer)
    monkeypatch.setattr(PoolGame, "play", lambda self, shot: read_back(original_play(self, shot)))
    monkeypatch.setattr(PoolGame, "choose",
                        lambda self, option: read_back(original_choose(self, option)))
    for module in (test_rules_pool_eight_ball, test_rules_pool_nine_ball,
                   test_rules_pool_straight_pool, test_rules_pool_scenarios,
                   test_rules_pool_thresholds, test_rules_pool_general):
        for fn, kwargs in _test_calls(module):
            fn(**kwargs)
    assert offered == {game: set(names) for game, names in PENDING_OPTIONS.items()}


def test_novus_and_5_pins_states_their_referees_reach_load_again(monkeypatch):
    """Round trip: the novus and 5-pins referees' own tests are played with every state they
    write read back through their loaders (`game_from_dict`, `FivePinsState.from_dict`), a
    finished novus match excepted (it has no shot to rule on). It found a novus state given
    without history leading to one the loader refused (`history_from`), as the pool round trip
    above found a match lost by 3.29 (3 frames won in frame 1)."""
    import importlib

    from cuesim.rules.fivepins.model import FivePinsState
    from cuesim.rules.novus.game import NovusGame
    from cuesim.rules.novus.scenario import game_from_dict

    read = {"novus": 0, "5-pins": 0}

    def novus_back(g: NovusGame) -> None:
        if not g.match_over:
            game_from_dict(json.loads(json.dumps(g.to_dict())))
            read["novus"] += 1

    def pins_back(g: FivePinsGame) -> None:
        FivePinsState.from_dict(json.loads(json.dumps(g.state.to_dict())))
        read["5-pins"] += 1

    def read_back(method: Any, back: Any) -> Any:
        def checked(self: Any, *args: Any, **kwargs: Any) -> Any:
            out = method(self, *args, **kwargs)
            back(self)
            return out
        return checked

    for cls, names, back in ((NovusGame, ("play", "adjudicate"), novus_back),
                             (FivePinsGame, ("play", "choose", "contact_reset"), pins_back)):
        for name in names:
            monkeypatch.setattr(cls, name, read_back(getattr(cls, name), back))
    tests = sorted(p.stem for p in Path(__file__).parent.glob("test_rules_*.py")
                   if "novus" in p.stem or "fivepins" in p.stem)
    for stem in tests:
        for fn, kwargs in _test_calls(importlib.import_module(f"tests.{stem}")):
            fn(**kwargs)
    assert read["novus"] > 100 and read["5-pins"] > 100, read


# -- D9: event fields and the top level of a scenario -------------------------------------------

def _pool_scenario() -> dict[str, Any]:
    return _load(SCENARIOS / "pool" / "nine_ball_push_out.json")


def _events_of(data: dict[str, Any], key: str, kind: str | None = None
               ) -> tuple[dict[str, Any], str]:
    """The first event of a scenario that has `key` (and is of `kind`), and its path in
    messages."""
    if "steps" in data:
        where = [(step.get("events", []), f"steps[{i}]") for i, step in enumerate(data["steps"])]
    elif "shot" in data:
        where = [(data["shot"].get("events", []), "shot")]
    else:
        where = [(data["events"], "scenario")]
    for events, name in where:
        for k, event in enumerate(events):
            if key in event and kind in (None, event["kind"]):
                return event, re.escape(f"{name}.events[{k}]")
    raise AssertionError(f"no event with {key!r}")


@pytest.mark.parametrize("field, value, message", [
    ("t", "0.3", r"\.t must be a time in \[0, 3600\] s \(no shot lasts an hour\), got '0\.3'"),
    ("t", True, r"\.t must be a time in \[0, 3600\] s .*, got True"),
    ("t", None, r"\.t must be a time in \[0, 3600\] s .*, got None"),
    ("t", 1e308, r"\.t must be a time in \[0, 3600\] s .*, got 1e\+308"),  # it was taken
    ("speed", "fast", r"\.speed must be a speed >= 0 in m/s, got 'fast'"),
    ("speed", False, r"\.speed must be a speed >= 0 in m/s, got False"),
    ("a", 1, r"\.a must be a piece id \(a string\), got 1"),
    ("b", 1, r"\.b must be a piece id \(a string\), got 1"),
    ("kind", 3, r"\.kind must be an event kind \(a string\), got 3"),
    ("feature", 7, r"\.feature must be a pocket, cushion, rail or line name"),
    ("colour", "red", r": unknown field\(s\) \['colour'\]"),
])
@pytest.mark.parametrize("game", ["pool", "fivepins"])
def test_scenario_event_door_refuses_fields_of_the_wrong_type(game, field, value, message):
    """`parse_event` (pool and 5-pins scenarios): `t`/`speed` must be JSON numbers (a string
    or a boolean is not read as one, as novus refuses them), `kind`/`a`/`b`/`feature`
    strings, and an unknown field is refused, each named with the event's path."""
    data = (_pool_scenario() if game == "pool"
            else _load(SCENARIOS / "fivepins" / sorted(
                p.name for p in (SCENARIOS / "fivepins").glob("*.json")
                if '"events"' in p.read_text(encoding="utf-8"))[0]))
    event, where = _events_of(data, "b")
    event[field] = value
    with pytest.raises(ScenarioError, match=where + message):
        adjudicate(data)


def test_scenario_top_level_door_refuses_unknown_fields():
    """A pool (or 5-pins) scenario's unknown top-level field is refused, not ignored."""
    data = _pool_scenario()
    data["wat"] = 1
    with pytest.raises(ScenarioError, match=r"scenario: unknown field\(s\) \['wat'\]"):
        adjudicate(data)
    pins = {"game": "five_pins", "wat": 1, "shot": {}}
    with pytest.raises(ScenarioError, match=r"scenario: unknown field\(s\) \['wat'\]"):
        adjudicate(pins)


@pytest.mark.parametrize("key, value", [("players", ["X", "Y"]), ("options", {"race_to": 3})])
def test_scenario_players_or_options_door_refused_with_state(key, value):
    """`players` or `options` beside `state` (which holds them) is refused, naming the field,
    in pool and 5-pins scenarios, rather than silently ignored."""
    data = {"game": "9-ball", "state": _pool_state(), key: value,
            "shot": {"declaration": {}}}
    with pytest.raises(ScenarioError, match=rf"scenario\.{key}: give 'state'"):
        adjudicate(data)
    pins = {"game": "five_pins", "state": {}, key: value, "shot": {}}
    with pytest.raises(ScenarioError, match=rf"scenario\.{key}: give 'state'"):
        adjudicate(pins)


def test_scenario_table_door_of_five_pins_needs_state():
    """A 5-pins `table` is read only with `state`; without one it is refused, not ignored."""
    with pytest.raises(ScenarioError, match=r"scenario\.table: .* given with 'state'"):
        adjudicate({"game": "five_pins", "table": {}, "shot": {}})


def test_scenario_files_of_the_project_still_pass():
    """The project's own example scenarios (tests/scenarios, tests/novus_scenarios) are still
    ruled on."""
    files = sorted(SCENARIOS.rglob("*.json")) + sorted(NOVUS.glob("*.json"))
    assert files
    for path in files:
        assert adjudicate(_load(path)), path


# -- D10: novus sets_won, 5-pins pieces of the wrong kind ----------------------------------------

def _novus(state: dict[str, Any]) -> dict[str, Any]:
    data = _load(NOVUS / "opening_miss.json")
    data["state"] = {**data.get("state", {}), **state}
    return data


@pytest.mark.parametrize("state, message", [
    ({"sets": 1, "sets_won": {"Anna": 5, "Boris": 0}},
     r"state\.sets_won .*5 set\(s\) won, but set 1 of 1 is being played, so at most 0"),
    ({"sets": 3, "set_number": 2, "sets_won": {"Anna": 1, "Boris": 1}},
     r"state\.sets_won .*2 set\(s\) won, but set 2 of 3 .* at most 1"),
    ({"sets": 3, "set_number": 3, "sets_won": {"Anna": 2, "Boris": 0}},
     r"state\.sets_won: Anna has 2 of 3 sets, more than half, so the match is over"),
])
def test_novus_state_door_refuses_impossible_sets_won(state, message):
    """A novus state's `sets_won` must fit a match still on in set `set_number` of `sets`."""
    data = _novus(state)
    players = data["state"].get("players", ["A", "B"])
    data["state"]["sets_won"] = dict(zip(players, state["sets_won"].values(), strict=True))
    message = message.replace("Anna", players[0])
    with pytest.raises(ScenarioError, match=message):
        adjudicate(data)


@pytest.mark.parametrize("state", [
    {"sets": 3, "set_number": 2, "sets_won": [1, 0]},
    {"sets": 3, "set_number": 3, "sets_won": [1, 1]},
    {"sets": 3, "set_number": 3, "sets_won": [2, 0], "play_all_sets": True},
])
def test_novus_state_door_accepts_sets_won_a_match_can_reach(state):
    data = _novus(state)
    players = data["state"].get("players", ["A", "B"])
    data["state"]["sets_won"] = dict(zip(players, state["sets_won"], strict=True))
    assert adjudicate(data)["ruling"]


def _pins_scenario() -> dict[str, Any]:
    return _load(SCENARIOS / "fivepins" / sorted(
        p.name for p in (SCENARIOS / "fivepins").glob("*.json")
        if '"pin"' in p.read_text(encoding="utf-8"))[0])


def test_fivepins_event_door_refuses_a_pin_event_on_a_ball():
    """A 5-pins `pin` event knocks down a pin: `b` the red ball is refused (was: scored)."""
    data = _pins_scenario()
    event, where = _events_of(data, "b", "pin")
    event["b"] = "red"
    with pytest.raises(ScenarioError, match=where + r"\.b: a pin event knocks down a pin .*"
                                                    r"not the ball 'red'"):
        adjudicate(data)


def test_fivepins_event_door_refuses_a_pin_knocked_down_twice_12_2():
    """5-pins 12.2: a knocked pin counts as knocked once, even if it comes back to its spot;
    the core fells a pin once a shot. A second `pin` event for it cannot have happened: it is
    refused naming both events (was: ruled, the pin scored once)."""
    data = _pins_scenario()
    event, _ = _events_of(data, "b", "pin")
    events = next(ev for ev in ([s.get("events", []) for s in data.get("steps", [])]
                                + [data.get("shot", {}).get("events", []),
                                   data.get("events", [])]) if event in ev)
    k = events.index(event)
    events.append({**event, "t": events[-1]["t"] + 0.1})
    with pytest.raises(ScenarioError, match=rf"events\[{len(events) - 1}\]\.b: "
                                            rf"{event['b']!r} is knocked down a second time; "
                                            rf"events\[{k}\] knocked it already"):
        adjudicate(data)


def test_fivepins_event_door_refuses_a_strike_of_a_pin():
    """A strike is of a ball: a strike of a pin is refused, naming the event's `a`."""
    data = _pins_scenario()
    event, where = _events_of(data, "a")
    assert event["kind"] == "strike"
    event["a"] = "pin_centre"
    with pytest.raises(ScenarioError, match=where + r"\.a: a strike is of a ball"):
        adjudicate(data)


def test_fivepins_game_door_refuses_a_pin_event_on_a_ball():
    """The API door (`FivePinsGame.play` with a hand-made shot) refuses it too."""
    game = FivePinsGame(players=["Ann", "Bob"])
    events = [Event(t=0.0, kind=EventKind.STRIKE, a="white"),
              Event(t=0.5, kind=EventKind.PIN, a="white", b="red")]
    with pytest.raises(ValueError, match=r"shot\.events\[1\]\.b: a pin event knocks down"):
        game.play(FivePinsShot(events))


@pytest.mark.parametrize("change, message", [
    ({"colour": "red"}, "unknown field"),
    ({"b": 1}, "events[1].b must be a non-empty string, got 1"),
    ({"a": ""}, "events[1].a must be a non-empty string"),
    ({"speed": "fast"}, "events[1].speed must be a speed >= 0"),
    ({"speed": -1.0}, "events[1].speed must be a speed >= 0"),
])
def test_novus_event_fields_checked_by_type(change, message):
    """A novus log's events: unknown fields were ignored, `b` 1 read as the piece '1', a speed
    in words failed inside float() without the field's name."""
    from cuesim.rules.novus.shotlog import event_from_dict

    event = {"t": 0.1, "kind": "collide", "a": "striker", "b": "red1", **change}
    with pytest.raises(ValueError, match=re.escape(message)):
        event_from_dict(event, 1)


@pytest.mark.parametrize(("folder", "table"), [(NOVUS, "novus"),
                                               (SCENARIOS / "pool", "pool_9ft")])
def test_a_pin_event_where_no_pins_stand_is_refused(folder: Path, table: str):
    """Only 5-pins has pins (5-pins 1): a `pin` event in a novus or pool scenario cannot have
    happened and is refused, naming the event (was: ruled as a collision)."""
    path = next(p for p in sorted(folder.glob("*.json"))
                if '"collide"' in p.read_text(encoding="utf-8"))
    data = _load(path)
    event, where = _events_of(data, "b", "collide")
    event["kind"] = "pin"
    with pytest.raises(ScenarioError, match=where + r"\.kind: a pin event, but "
                                                    rf"(the {table} table|this game) has no pins"):
        adjudicate(data)

