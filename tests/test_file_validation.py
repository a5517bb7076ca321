"""Every file kind has one validation layer: scenarios of the three referees, layouts, saved
games. Each bad input found in hand-written files is refused with the file, the field's path and
what was expected: `cuesim adjudicate` prints one line and exits 2, the API raises the door's
ValueError subclass. Random mutations of valid files never give a traceback."""

from __future__ import annotations

import copy
import json
import math
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cuesim.cli import main
from cuesim.rules.files import ScenarioError, adjudicate
from cuesim.rules.novus.__main__ import main as novus_main
from cuesim.tables.layout import Layout, LayoutError, Piece
from cuesim.viewer.placing import free_spot
from cuesim.viewer.savefile import state_drift
from cuesim.viewer.session import (
    SaveFileError,
    load_session,
    new_session,
    session_from_dict,
)
from tests.profiles import examples

HERE = Path(__file__).resolve().parent
NOVUS = json.loads((HERE / "novus_scenarios" / "pocket_keeps_turn.json").read_text())
POOL_14 = json.loads((HERE / "scenarios" / "pool" / "straight_pool_third_foul.json").read_text())
POOL_9 = json.loads((HERE / "scenarios" / "pool" / "nine_ball_push_out.json").read_text())
FIVE = json.loads((HERE / "scenarios" / "fivepins" / "opening_foul_and_spot.json").read_text())
SCENARIOS = [NOVUS, POOL_14, POOL_9, FIVE]


def changed(base, change):
    data = copy.deepcopy(base)
    change(data)
    return data


def novus_events(data, events):
    data["events"] = events


def set_path(data, path, value):
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value


STRIKE = {"t": 0.0, "kind": "strike", "a": "striker"}
BAD_SCENARIOS = [
    # wrong types
    (POOL_14, lambda d: set_path(d, ["state", "scores", "Ann"], "twenty"),
     "scenario.state.scores must be an object of a whole number"),
    (POOL_14, lambda d: set_path(d, ["state", "scores"], None), "scenario.state.scores must be"),
    (POOL_14, lambda d: set_path(d, ["state", "fouls"], ["Ann", 2]),
     "scenario.state.fouls must be an object"),
    (POOL_14, lambda d: set_path(d, ["state", "pending"], "choice"),
     "scenario.state.pending must be an object or null, got 'choice'"),
    (POOL_14, lambda d: d.pop("state") and d.update(players=["Ann", "Bob"],
                                                    options={"race_to": "3"}),
     "scenario.options.race_to must be a whole number, got '3'"),
    (FIVE, lambda d: d.pop("state", None) or d.update(options={"points_to": "60"}),
     "scenario.options.points_to must be a whole number, got '60'"),
    (FIVE, lambda d: d.pop("state", None) or d.update(options={"games": 2.5}),
     "scenario.options.games must be a whole number, got 2.5"),
    (POOL_9, lambda d: set_path(d, ["steps", 0, "declaration", "push_out"], "yes"),
     r"steps\[0\]\.declaration\.push_out must be true or false, got 'yes'"),
    (POOL_14, lambda d: set_path(d, ["shot", "infractions"], [{"code": "touched_ball",
                                                                "pieces": "red1"}]),
     "infraction.pieces must be a list of piece ids, got 'red1'"),
    (POOL_14, lambda d: set_path(d, ["state", "players"], ["Ann", "Ann"]),
     "two different names"),
    # event logs that cannot have happened
    (NOVUS, lambda d: novus_events(d, [STRIKE, {"t": 0.05, "kind": "line", "a": "striker",
                                                "feature": "zone_south", "direction": -1}]),
     "'striker' crosses the line 'zone_south' with direction -1, but it is on the other side"),
    (NOVUS, lambda d: novus_events(d, [STRIKE, *[{"t": t, "kind": "line", "a": "striker",
                                                  "feature": "zone_south", "direction": 1}
                                                 for t in (0.05, 0.1)]]),
     r"events\[2\].direction: 'striker' crosses the line 'zone_south' with direction \+1"),
    (NOVUS, lambda d: novus_events(d, [STRIKE, {"t": 0.3, "kind": "pocket", "a": "red1"}]),
     r"a 'pocket' event needs 'feature', the hole, one of \['south_west'"),  # it was taken
    (NOVUS, lambda d: novus_events(d, [STRIKE, {"t": 0.05, "kind": "pocket", "a": "red1",
                                                "feature": "north_east"},
                                       {"t": 0.2, "kind": "collide", "a": "striker",
                                        "b": "red1"}]),
     "'red1' has an event at 0.2 s after it dropped into a pocket at 0.05 s"),
    (NOVUS, lambda d: novus_events(d, [STRIKE, {"t": 0.3, "kind": "pocket", "a": "striker",
                                                "feature": "south_west"},
                                       {"t": 0.4, "kind": "collide", "a": "striker",
                                        "b": "red2"}]),
     "'striker' has an event at 0.4 s after it dropped"),
    (NOVUS, lambda d: novus_events(d, [dict(STRIKE, t=-1.0), {"t": -0.5, "kind": "collide",
                                                              "a": "striker", "b": "red1"}]),
     r"events\[0\]\.t must be a time in \[0, 3600\] s"),
    (POOL_14, lambda d: set_path(d, ["shot", "events", 1, "t"], math.nan),
     r"shot\.events\[1\]\.t must be a time in \[0, 3600\] s \(no shot lasts an hour\), "
     r"got nan"),
    # a time no shot reaches was taken (finite, in order)
    (POOL_14, lambda d: [set_path(d, ["shot", "events", k, "t"], 1e308)
                         for k in range(1, len(d["shot"]["events"]))],
     r"shot\.events\[1\]\.t must be a time in \[0, 3600\] s"),
    (POOL_14, lambda d: d["shot"]["events"].reverse(), "events must be in time order"),
    (POOL_9, lambda d: set_path(d, ["steps", 2, "events", 2, "feature"], "ceiling"),
     "unknown rail 'ceiling'"),
    (POOL_14, lambda d: set_path(d, ["shot", "events", 1, "b"], "16"),
     "unknown piece id '16'"),
    # layouts against their table
    (NOVUS, lambda d: set_path(d, ["after", "pieces", 1, "x"], 1.7),
     r"scenario\.after: piece 'red2' at \(1\.7000, 0\.7000\) is not wholly on the board"),
    (POOL_14, lambda d: set_path(d, ["shot", "final"], {"cue": [0.635, 1.0], "5": [0.635, 1.01],
                                                        "6": [0.3, 2.0]}),
     r"shot\.final: pieces 'cue' and '5' overlap"),
    (POOL_14, lambda d: (d["shot"]["events"].extend(
        [{"t": 0.95, "kind": "collide", "a": "cue", "b": "6"},
         {"t": 1.0, "kind": "pocket", "a": "6", "feature": "foot_left"}]),
        set_path(d, ["shot", "final"], {"cue": [0.635, 1.0], "5": [0.635, 1.5],
                                        "6": [0.3, 2.0]})),
     r"shot\.final still has \['6'\] on the table, but the events pocket them"),
]


@pytest.mark.parametrize(("base", "change", "message"), BAD_SCENARIOS)
def test_bad_scenarios_are_refused_naming_the_field(base, change, message, tmp_path, capsys):
    data = changed(base, change)
    with pytest.raises(ScenarioError, match=message):
        adjudicate(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))  # NaN is written as the non-JSON constant NaN
    assert main(["adjudicate", str(path)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert str(path) in err


def test_nan_and_huge_numbers_in_a_file_are_refused_by_name(tmp_path, capsys):
    for text, message in (('{"game": "novus", "t": NaN}', "NaN is not a JSON number"),
                          ('{"game": "novus", "t": 1e999}', "the number 1e999 is too large")):
        path = tmp_path / "n.json"
        path.write_text(text)
        assert main(["adjudicate", str(path)]) == 2
        assert message in capsys.readouterr().err


def test_deep_nesting_and_binary_files_name_the_file(tmp_path, capsys):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    binary = tmp_path / "scenario.json"
    binary.write_bytes(bytes(range(256)) * 4)
    for path, message in ((deep, "nests objects or lists more than"),
                          (binary, "is not UTF-8 text")):
        assert main(["adjudicate", str(path)]) == 2
        err = capsys.readouterr().err
        assert message in err and str(path) in err and len(err.strip().splitlines()) == 1
        with pytest.raises(LayoutError, match=message):
            Layout.load(path)
        with pytest.raises(SaveFileError, match=message):
            load_session(path)


def test_an_endless_file_is_refused_not_read_until_the_memory_runs_out(monkeypatch, capsys):
    """/dev/zero as a layout, a scenario or a saved game was read whole: the shoot command was
    killed for memory (no message), or a MemoryError traceback. Now at most MAX_BYTES are read
    (lowered here to 1 MiB to keep the test light) and the file is named in one line."""
    from cuesim.tables import jsonfile

    monkeypatch.setattr(jsonfile, "MAX_BYTES", 1024 * 1024)
    for argv in (["adjudicate", "/dev/zero"],
                 ["shoot", "novus", "--speed", "2", "--layout", "/dev/zero"]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert "/dev/zero is longer than 1 MiB" in err and len(err.strip().splitlines()) == 1
    with pytest.raises(LayoutError, match="longer than"):
        Layout.load("/dev/zero")
    with pytest.raises(SaveFileError, match="longer than"):
        load_session("/dev/zero")


def test_a_file_without_a_game_is_named_as_such(tmp_path, capsys):
    """A layout given to adjudicate was "unknown game ''"; now the missing field is named."""
    path = tmp_path / "lay.json"
    path.write_text('{"table": "novus", "pieces": []}')
    assert main(["adjudicate", str(path)]) == 2
    err = capsys.readouterr().err
    assert "missing field 'game'" in err and "looks like a layout" in err


def test_novus_module_command_exits_2_like_adjudicate(tmp_path, capsys):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(changed(NOVUS, lambda d: set_path(
        d, ["after", "pieces", 1, "x"], 1.7))))
    assert novus_main([str(path)]) == 2
    assert "scenario.after" in capsys.readouterr().err


# -- saved games -------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def saved():
    session = new_session("novus", ["Anna", "Boris"])
    session.play(session.struck_position(), math.pi / 2, 2.0)
    return session.to_dict()


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d["actions"][0].update(speed="fast"), r"actions\[0\]\.speed must be a finite"),
    (lambda d: d.update(players=5), "players must be a list of 2 different names, got 5"),
    (lambda d: d.update(actions=["shot"]), r"actions\[0\] must be an object whose kind"),
    (lambda d: d["actions"][0].update(kind=[]), r"actions\[0\] must be an object whose kind"),
    (lambda d: d["actions"][0].update(declaration="x"),
     r"actions\[0\]\.declaration must be an object"),
    (lambda d: d["actions"][0].update(player="Mallory"),
     r"actions\[0\]\.player must be one of the players"),
    (lambda d: d.update(players=["Boris", "Anna"]), "is not the shooter at that point"),
    (lambda d: d.update(base={"layout": d["layout"]}), "base must be an object with the layout"),
    (lambda d: d.update(base={"layout": dict(d["layout"], table="carom"), "state": {}}),
     "base: layout is for table 'carom'"),
    (lambda d: d.update(options={"sets": 0}), "options.sets must be a whole number 1 to 1000"),
    # a match that never ends: the game's own refusal did not name the file
    (lambda d: d.update(options={"sets": 10**30}), "options.sets must be a whole number 1 to"),
    (lambda d: d.update(game="chess"), "game must be one of"),
    # the saved layout, checked like every layout (types, the game's table, the bed, overlaps)
    (lambda d: d["layout"].update(pieces="red1"), "layout: 'pieces' must be a list"),
    (lambda d: d["layout"]["pieces"][0].update(x="left"),
     r"layout: pieces\[0\]\.x must be a number in metres, got 'left'"),
    (lambda d: d["layout"].update(table="pool_9ft"),
     "layout is for table 'pool_9ft'; a novus game is played on 'novus'"),
    (lambda d: d["layout"]["pieces"][0].update(x=1.7),
     r"layout: piece 'red1' at \(1\.7000, .*is not wholly on the board"),
    (lambda d: d["layout"]["pieces"][1].update(x=d["layout"]["pieces"][0]["x"] + 0.01,
                                               y=d["layout"]["pieces"][0]["y"]), "overlap"),
    (lambda d: d["layout"].update(pieces=d["layout"]["pieces"][1:]),
     r"layout lacks \['red1'\], which are on the table in the replayed game"),
])
def test_tampered_saved_games_are_refused(saved, change, message, tmp_path, capsys):
    data = changed(saved, change)
    with pytest.raises(SaveFileError, match=message):
        session_from_dict(data)
    path = tmp_path / "save.json"
    path.write_text(json.dumps(data))
    assert main(["play", "novus", "--load", str(path), "--screenshot",
                 str(tmp_path / "s.png")]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and str(path) in err


def test_saved_layout_with_a_pocketed_ball_is_refused(tmp_path, capsys):
    """WPA 3.11 (a pocketed ball stays off the table): a saved 9-ball game whose layout still
    shows a ball the replayed break pocketed is refused in one line, exit 2."""
    for turn in (-0.002, 0.002, 0.005, 0.0, -0.005):  # a break that pockets a ball
        session = new_session("9-ball", ["Ann", "Bob"])
        session.play(session.struck_position(), math.pi / 2 + turn, 8.0)
        down = sorted(set(map(str, range(1, 10))) - set(session.layout().ids()))
        if down:
            break
    assert down, "no break pocketed a ball: try other breaks"
    data = session.to_dict()
    session_from_dict(copy.deepcopy(data))  # the honest save loads
    free = next((x, y) for x in (0.2, 0.4, 0.6, 0.8, 1.0) for y in (0.2, 0.4, 0.6)
                if free_spot(session.table, session.layout(),
                             Piece(down[0], "ball", x, y, "ball")) is None)
    data["layout"]["pieces"].append({"id": down[0], "kind": "ball", "group": "ball",
                                     "x": free[0], "y": free[1]})
    with pytest.raises(SaveFileError, match=rf"layout has \['{down[0]}'\] on the table, but "
                       "in the replayed game they were pocketed"):
        session_from_dict(data)
    path = tmp_path / "save.json"
    path.write_text(json.dumps(data))
    assert main(["play", "9-ball", "--load", str(path), "--screenshot",
                 str(tmp_path / "s.png")]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "pocketed" in err


def test_a_valid_save_still_loads(saved, tmp_path):
    path = tmp_path / "save.json"
    path.write_text(json.dumps(saved))
    assert len(load_session(path).actions) == 1


# -- random mutations never give a traceback ----------------------------------------------
def _paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, (*prefix, i))


# containers built fresh for each draw: `st.just([])` hands out one shared list, which a later
# mutation could put inside itself (a cycle) or change for every later example
JUNK = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.floats(allow_nan=True),
                 st.text(max_size=4), st.builds(list), st.builds(dict),
                 st.builds(lambda: ["red1"]))


@st.composite
def mutated(draw, bases):
    data = copy.deepcopy(draw(st.sampled_from(bases)))
    for _ in range(draw(st.integers(1, 3))):
        paths = [p for p in _paths(data) if p]
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent = data
        for key in path[:-1]:
            parent = parent[key]
        action = draw(st.sampled_from(["replace", "delete", "shuffle", "move"]))
        if action == "replace":
            parent[path[-1]] = draw(JUNK)
        elif action == "delete":
            del parent[path[-1]]
        elif action == "shuffle" and isinstance(parent[path[-1]], list):
            draw(st.randoms(use_true_random=False)).shuffle(parent[path[-1]])
        elif action == "move" and isinstance(parent[path[-1]], int | float) \
                and not isinstance(parent[path[-1]], bool):
            parent[path[-1]] = parent[path[-1]] + draw(st.floats(-2.0, 2.0))
    return data


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated(SCENARIOS))
def test_mutated_scenarios_never_give_a_traceback(data):
    try:
        adjudicate(data)
    except ScenarioError:
        pass


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_mutated_saves_never_give_a_traceback(saved, data):
    try:
        session_from_dict(data.draw(mutated([saved])))
    except SaveFileError:
        pass


# -- the lag (WPA 3.6) in a scenario file ------------------------------------------------------
LAG = {
    "game": "nine_ball", "players": ["Ann", "Bob"],
    "steps": [{
        "request": "lag", "balls": {"Ann": "cue", "Bob": "1"},
        "initial": {"cue": [0.4, 0.5], "1": [0.9, 0.5]},
        "events": [{"t": 0.0, "kind": "strike", "a": "cue"},
                   {"t": 0.0, "kind": "strike", "a": "1"},
                   {"t": 1.1, "kind": "rail", "a": "cue", "feature": "foot_rail"},
                   {"t": 1.2, "kind": "rail", "a": "1", "feature": "foot_rail"}],
        "final": {"cue": [0.4, 0.30], "1": [0.9, 0.5]},
    }],
}


def test_the_lag_is_ruled_from_a_scenario_file(tmp_path, capsys):
    path = tmp_path / "lag.json"
    path.write_text(json.dumps(LAG))
    assert main(["adjudicate", str(path), "--json"]) == 0
    ruling = json.loads(capsys.readouterr().out)["steps"][0]["ruling"]
    assert ruling["winner"] == "Ann" and ruling["next_player"] == "Ann"
    long_rail = changed(LAG, lambda d: d["steps"][0]["events"].insert(
        3, {"t": 1.15, "kind": "rail", "a": "cue", "feature": "right_foot_rail"}))
    ruling = adjudicate(long_rail)["steps"][0]["ruling"]
    assert ruling["winner"] == "Bob"
    assert [v["article"] for v in ruling["violations"]] == ["WPA 3.6 (e)"]


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d["steps"][0].update(balls={"Ann": "cue"}), "must map each player"),
    (lambda d: d["steps"][0].update(balls={"Ann": "cue", "Bob": "cue"}), "must map each player"),
    (lambda d: d["steps"][0].pop("final"), "a lag needs 'final'"),
    (lambda d: d["steps"][0].update(balls={"Ann": "cue", "Bob": "2"}), "has no lag ball"),
    (lambda d: d["steps"][0].update(off_table=["9"]), "off_table must list lag balls"),
])
def test_a_bad_lag_is_refused(change, message):
    with pytest.raises(ScenarioError, match=message):
        adjudicate(changed(LAG, change))


@pytest.mark.parametrize(("value", "message"), [
    (1, r"options\.impact_steps must be a number in \[2, 320\], got 1"),
    (400.0, r"options\.impact_steps must be a number in \[2, 320\], got 400\.0"),
    ("10", r"options\.impact_steps must be a number in \[2, 320\], got '10'"),
    (True, r"options\.impact_steps must be a number in \[2, 320\], got True"),
])
def test_a_saved_impact_resolution_out_of_range_is_refused(saved, value, message):
    """The saved game's physics option (`cuesim play --impact-steps`) is checked like the
    others: a number in tables.contact.IMPACT_STEPS_RANGE."""
    with pytest.raises(SaveFileError, match=message):
        session_from_dict(changed(saved, lambda d: d.update(options={"impact_steps": value})))
    ok = session_from_dict(changed(saved, lambda d: d.update(options={"impact_steps": 12.5})))
    assert ok.table.physics.impact_steps == 12.5


@pytest.mark.parametrize(("data", "table", "shows", "hides"), [
    ("a string", None, '"striker"', '"pin_centre"'),  # no table known: the novus example
    ("a string", "carom", '"pin_centre"', '"striker"'),
    ("a string", "pool_9ft", '"cue"', '"striker"'),
    ({"table": "pool_9ft", "pieces": [{"kind": "ball", "x": 0.6, "y": 0.6}]}, None, '"cue"',
     '"striker"'),  # the table the data names
    ({"table": "carom", "pieces": [{"id": "white", "x": 0.3, "y": 0.7}]}, "novus",
     '"pin_centre"', '"striker"'),
    ({"pieces": []}, "carom", '"pin_centre"', '"striker"'),
])
def test_a_layouts_schema_shows_an_example_of_its_own_table(data, table, shows, hides):
    """The schema printed with a layout error shows the pieces of the table the layout names,
    else of the table the caller expects (a 5-pins or pool file is not told about strikers)."""
    with pytest.raises(LayoutError) as err:
        Layout.from_dict(data, source="f.json: layout", table=table)
    assert str(err.value).startswith("f.json: layout")
    assert shows in str(err.value) and hides not in str(err.value)


@pytest.mark.parametrize("name", ["fivepins/lag_and_break", "pool/nine_ball_push_out"])
def test_a_scenarios_broken_layout_shows_an_example_of_its_table(name, tmp_path, capsys):
    data = json.loads((Path(__file__).parent / "scenarios" / f"{name}.json").read_text())
    key = "before" if "before" in data["steps"][0] else "initial"
    data["steps"][0][key] = "not a layout"
    with pytest.raises(ScenarioError) as exc:  # the Python API: the message with the schema
        adjudicate(data)
    assert f"steps[0].{key}: expected a JSON object, got str" in str(exc.value)
    assert ('"carom"' if "fivepins" in name else '"pool_9ft"') in str(exc.value)
    assert '"striker"' not in str(exc.value)
    path = tmp_path / "s.json"  # the command line: one line, pointing at `cuesim layout`
    path.write_text(json.dumps(data))
    assert main(["adjudicate", str(path)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and str(path) in err
    assert f"steps[0].{key}: expected a JSON object, got str" in err
    assert "`cuesim layout GAME` prints a layout" in err


@pytest.mark.parametrize("name", ["fivepins/lag_and_break", "pool/nine_ball_push_out"])
def test_a_shot_layout_is_named_as_the_file_names_it(name, tmp_path, capsys):
    """'before' and 'after' are the files' other names of 'initial' and 'final': a message
    names the field the file has."""
    data = json.loads((Path(__file__).parent / "scenarios" / f"{name}.json").read_text())
    step = data["steps"][0]
    key = "before" if "before" in step else "initial"
    layout = step[key]
    first = next(iter(layout)) if "pieces" not in layout else None
    if first is not None:  # the short form {"white": [x, y], ...}: a piece far off the table
        layout[first] = [50.0, 50.0]
    else:
        layout["pieces"][0]["x"] = 50.0
    path = tmp_path / "s.json"
    path.write_text(json.dumps(data))
    assert main(["adjudicate", str(path)]) == 2
    assert f"steps[0].{key}" in capsys.readouterr().err


def test_command_line_errors_are_one_line():
    """A layout's schema becomes a pointer to `cuesim layout`; other line breaks '; '."""
    from cuesim.tables.layout import one_line

    with pytest.raises(LayoutError) as exc:
        Layout.from_dict({"pieces": []}, source="f.json")
    assert "\n" in str(exc.value)
    assert one_line(str(exc.value)) == ("f.json: missing field 'table'. (`cuesim layout GAME` "
                                        "prints a layout in the expected form)")
    assert one_line("first\n  second\n\nthird") == "first; second; third"
    assert one_line("plain") == "plain"


def test_the_novus_module_command_prints_one_line_too(tmp_path, capsys):
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"game": "novus", "before": "x", "events": []}))
    assert novus_main([str(path)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "cuesim layout GAME" in err


def test_an_unknown_table_is_named_by_the_files_own_key():
    """A shot's layout for a table no referee knows: the message names the key the file used
    ('initial' here, 'before' elsewhere)."""
    data = json.loads((Path(__file__).parent / "scenarios" / "pool" /
                       "nine_ball_push_out.json").read_text())
    step = data["steps"][0]
    assert "initial" in step
    step["initial"] = {"table": "snooker", "pieces": [
        {"id": "cue", "kind": "ball", "x": 0.5, "y": 0.5}]}
    with pytest.raises(ScenarioError, match=r"steps\[0\]\.initial"):
        adjudicate(data)


def test_a_saved_game_that_replays_where_it_was_saved_has_no_note(saved):
    session = session_from_dict(copy.deepcopy(saved), "game.json")
    assert session.load_note is None


def _played(game: str, shots: int = 8) -> dict:
    """A saved game of `game` after up to `shots` shots (each at the game's first target, a
    little off, at 2.5-4.5 m/s; a pending choice takes its first option), through JSON."""
    session = new_session(game)
    for n in range(shots):
        if session.over():
            break
        pending = session.pending()
        if pending:
            session.choose(pending[2][0])
            continue
        x, y = session.struck_position()
        tx, ty = session.targets()[0]
        session.play((x, y), math.atan2(ty - y, tx - x) + 0.05 * n, 2.5 + n % 3)
    return json.loads(json.dumps(session.to_dict()))


@pytest.mark.parametrize("game", ["novus", "novus-doubles", "8-ball", "9-ball", "14.1",
                                  "5-pins"])
def test_a_saved_game_replays_to_its_saved_state(game):
    """Every game's saved `state` (the referee's when saved) is what its replay gives: no note.
    An edited state is reported by its first differing field, and the replay is played."""
    data = _played(game)
    assert session_from_dict(copy.deepcopy(data), "game.json").load_note is None
    shooter = data["state"]["shooter"]
    other = next(p for p in data["players"] if p != shooter)
    data["state"]["shooter"] = other
    session = session_from_dict(data, "game.json")
    assert session.load_note == (
        f"game.json: the replayed referee differs from the saved state at state.shooter: saved "
        f"{other!r}, replayed {shooter!r} (a file from a version of cuesim with other physics "
        "or rules, or edited): the replayed game is what is played")
    assert session.shooter() == shooter


def test_a_saved_state_is_compared_field_by_field_not_by_version():
    """Fields only one side has are skipped (another version's referee), a number off in its
    last bits is the same number, a list of another length and an int saved as a bool differ."""
    replayed = {"scores": {"Ann": 3}, "t": 0.1 + 0.2, "history": [1, 2], "over": False}
    assert state_drift({"state": {"scores": {"Ann": 3, "Cy": 1}, "t": 0.3, "old": 1}},
                       replayed) is None
    assert "state.history: saved 3 entries, replayed 2" in state_drift(
        {"state": {"history": [1, 2, 3]}}, replayed)
    assert "state.over: saved 0, replayed False" in state_drift({"state": {"over": 0}},
                                                                  replayed)
    assert "state.scores.Ann: saved 4, replayed 3" in state_drift(
        {"state": {"scores": {"Ann": 4}}}, replayed, "f.json")


def test_a_saved_state_that_is_not_an_object_is_refused(saved):
    data = copy.deepcopy(saved)
    data["state"] = [1, 2]
    with pytest.raises(SaveFileError, match=r"^game\.json: state must be an object \(the "
                       r"referee's state when the game was saved\), got \[1, 2\]$"):
        session_from_dict(data, "game.json")


def test_a_replay_that_drifts_from_the_saved_layout_is_reported_not_refused(saved):
    """A saved layout that the replay does not reproduce (a file saved with other physics, or
    edited) still loads, since the actions are the game, but says which piece lies how far from
    where the file has it (viewer/savefile.py, DRIFT_REPORTED); the replay is played."""
    data = copy.deepcopy(saved)
    puck = next(p for p in data["layout"]["pieces"] if p["id"] != "striker")
    pid, x0, y0 = puck["id"], puck["x"], puck["y"]
    puck["y"] = y0 + 0.05 if y0 < 0.5 else y0 - 0.05  # toward the middle, onto free board
    session = session_from_dict(data, "game.json")
    assert session.load_note is not None
    assert f"the replay leaves {pid!r} 50.0 mm from where the saved layout has it" in \
        session.load_note and session.load_note.startswith("game.json: ")
    assert (session.layout().get(pid).x, session.layout().get(pid).y) == (x0, y0)  # replayed


def _unreplayable(data: dict) -> dict:
    """The saved game as another version's physics would leave it: its second shot played by
    the other player (the turn went the other way), the saved table and state untouched."""
    data = copy.deepcopy(data)
    k = [i for i, a in enumerate(data["actions"]) if a["kind"] == "shot"][1]
    action = data["actions"][k]
    action["player"] = next(p for p in data["players"] if p != action["player"])
    return data


@pytest.mark.parametrize("game", ["novus", "novus-doubles", "9-ball", "14.1", "5-pins"])
def test_a_game_that_no_longer_replays_carries_on_from_its_saved_table(game, tmp_path):
    """A game saved by a version of cuesim with other physics (squirt, say) can reach a shot
    the replay refuses or a turn that went the other way. It used to be refused; it now carries
    on from the table and referee state it was saved with, says so, keeps that as its base
    through save and load, plays on from it, and undo goes back to it and no further."""
    data = _unreplayable(_played(game, shots=4))
    session = session_from_dict(copy.deepcopy(data), "game.json")
    note = session.load_note or ""
    assert "is not the shooter at that point" in note and "carries on from the table" in note
    assert session.layout().to_dict() == data["layout"]
    assert session.state_dict() == data["state"] and session.actions == []
    path = tmp_path / "again.json"
    session.save(path)
    again = load_session(path)
    assert again.load_note is None and again.base == session.base
    assert again.layout() == session.layout() and again.state_dict() == session.state_dict()
    if not again.over():
        pending = again.pending()
        if pending:
            again.choose(pending[2][0])
        else:
            x, y = again.struck_position()
            tx, ty = again.targets()[0]
            again.play((x, y), math.atan2(ty - y, tx - x), 3.0)
        again.save(path)
        later = load_session(path)
        assert later.load_note is None and later.layout() == again.layout()
        assert later.state_dict() == again.state_dict() and len(later.actions) == 1
        assert later.undo() and later.layout() == session.layout()
        assert later.state_dict() == session.state_dict()
    assert not session.undo()


def test_a_game_whose_saved_table_does_not_fit_either_is_refused(saved):
    """The carry-on needs the saved table and state to fit the game: players swapped in the
    file make the replay's turn and the state's players wrong at once, and it is refused in
    one line that names both."""
    data = copy.deepcopy(saved)
    data["players"] = list(reversed(data["players"]))
    with pytest.raises(SaveFileError, match=r"is not the shooter at that point .* other physics "
                       r"or rules replays differently from some shot on\); nor does its saved "
                       r"table and state fit: the saved referee state's players"):
        session_from_dict(data, "game.json")


def test_the_referees_api_refuses_a_crossing_from_the_wrong_side():
    """A cue ball in the kitchen crossing the head string into the kitchen (direction -1) was
    ruled on: the Python API checks hand-written crossings as the scenario files do."""
    from tests.pool_util import cross, nine_in_play, shot, spread, strike

    pos = spread(["1", "9"], cue=(0.6, 0.4))  # behind the head string (y = 0.635 m)
    with pytest.raises(ValueError, match="'cue' crosses the line 'head_string' with "
                                         "direction -1"):
        nine_in_play().play(shot([strike(), cross(0.2, direction=-1)], pos))
    nine_in_play().play(shot([strike(), cross(0.2), cross(0.5, direction=-1)], pos))
