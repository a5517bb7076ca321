"""Shots from any position: grids of parameters, lists of shot objects, a layout file and a game
state that the referee rules the shots in; every bad input refused in one line."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from cuesim import CueShot, NovusShot, simulate
from cuesim.api import game_table, start_layout
from cuesim.batch import BatchError, ShotGrid, ShotSampler, read_results, simulate_many
from cuesim.batch.store import parts_dir
from cuesim.cli import main
from cuesim.tables.layout import Layout
from tests.batch_util import assert_same

POOL_STATE = {"game": "nine_ball", "players": ["A", "B"], "shooter": "B", "breaker": "A",
              "phase": "play", "ball_in_hand": None, "inning": 3}


@pytest.fixture(scope="module")
def pool_table():
    return game_table("9-ball")


@pytest.fixture(scope="module")
def pool_layout(pool_table):
    """The cue ball in the kitchen, the 1 ahead of it, the 9 off to the side."""
    start = start_layout("9-ball", pool_table)
    cue = start.get("cue")
    layout = start.without([p.id for p in start.pieces if p.id not in ("cue", "1", "9")])
    return layout.moved("1", cue.x, 1.4).moved("9", 0.3, 2.0)


def test_a_grid_is_every_combination_first_axis_slowest():
    grid = ShotGrid({"speed": (2.0, 8.0, 4), "angle": (1.4, 1.7, 3)}, {"offset": 0.001})
    grid.check("novus")
    assert grid.n == 12
    p = grid.chunk("novus", 0, 0, 12)
    assert list(p["speed"]) == [2.0] * 3 + [4.0] * 3 + [6.0] * 3 + [8.0] * 3
    assert list(p["angle"][:3]) == list(np.linspace(1.4, 1.7, 3))
    assert (p["offset"] == 0.001).all() and (p["x"] == 0.5).all()
    tail = grid.chunk("novus", 3, 7, 12)  # any slice, from the shot numbers alone
    for k in p:
        assert np.array_equal(p[k][7:], tail[k], equal_nan=True), k
    assert grid.to_dict() == {"kind": "grid", "n": 12, "fixed": {"offset": 0.001},
                              "axes": {"speed": [2.0, 8.0, 4], "angle": [1.4, 1.7, 3]}}


def test_a_grid_run_equals_the_same_shots_as_a_table(table, singles):
    grid = ShotGrid({"x": (0.3, 0.7, 3), "speed": (3.0, 7.0, 3)}, {"angle": 1.5})
    res = simulate_many(table, singles, grid, workers=1, chunk_size=4)
    same = simulate_many(table, singles, grid.chunk("novus", 0, 0, 9), workers=1, chunk_size=4)
    assert_same(res, same, [k for k in res.keys() if k != "shot"])
    assert res.manifest["source"]["kind"] == "grid"


def test_a_list_of_shot_objects(table, singles, pool_table, pool_layout):
    shots = [NovusShot(x=0.4 + 0.05 * k, angle=1.5, speed=3.0 + k, offset=0.001 * k)
             for k in range(4)]
    res = simulate_many(table, singles, shots, workers=1)
    for k, shot in enumerate(shots):
        r = simulate(table, singles, shot)
        assert np.array_equal(res["final_xy"][k], r.final_positions)
    cue = [CueShot(angle=math.pi / 2 + 0.01 * k, speed=2.0 + k, side=0.1,
                   position=None if k % 2 else (0.6, 0.5)) for k in range(4)]
    res = simulate_many(pool_table, pool_layout, cue, workers=1)
    for k, shot in enumerate(cue):
        r = simulate(pool_table, pool_layout, shot)
        assert np.array_equal(res["final_xy"][k], r.final_positions), k
    assert np.isnan(res["param.x"][1]) and res["param.x"][0] == 0.6


def test_a_batch_plays_each_shot_s_cue_end_mass(pool_table, pool_layout):
    """end_mass, the cue's squirt, is a ball-game parameter like the others: from shot
    objects, sampled, and the standard shaft's by default; the shots equal `simulate`'s."""
    from cuesim.tables.balls import CUE_END_MASS

    cue = [CueShot(angle=math.pi / 2, speed=2.0, side=0.4, end_mass=m)
           for m in (CUE_END_MASS, 0.002, 0.0)]
    res = simulate_many(pool_table, pool_layout, cue, workers=1)
    assert list(res["param.end_mass"]) == [CUE_END_MASS, 0.002, 0.0]
    for k, shot in enumerate(cue):
        assert np.array_equal(res["final_xy"][k],
                              simulate(pool_table, pool_layout, shot).final_positions), k
    assert not np.array_equal(res["final_xy"][0], res["final_xy"][2])  # squirt shows
    sampled = simulate_many(pool_table, pool_layout,
                            ShotSampler(3, {"end_mass": (0.0, 0.008), "side": (0.3, 0.4)},
                                        seed=2), workers=1)
    assert ((0.0 <= sampled["param.end_mass"]) & (sampled["param.end_mass"] <= 0.008)).all()
    plain = simulate_many(pool_table, pool_layout, ShotSampler(2, {"side": (0.3, 0.4)}, seed=2),
                          workers=1)
    assert (plain["param.end_mass"] == CUE_END_MASS).all()


@pytest.mark.parametrize("shots, message", [
    ([], "no shots given"),
    ([NovusShot(x=0.5, angle=1.5, speed=3.0), CueShot(angle=1.0, speed=2.0)],
     "shots[1] is a CueShot; on this table every shot must be a NovusShot"),
    ([NovusShot(x=0.5, angle=1.5, speed=3.0), NovusShot(x=0.5, angle=1.5, speed=3.0,
                                                         side="north")],
     "several sides ['north', 'south']"),
])
def test_bad_lists_of_shots(table, singles, shots, message):
    with pytest.raises(BatchError, match=message.replace("[", r"\[").replace("]", r"\]")):
        simulate_many(table, singles, shots, workers=1)


def test_cue_shots_striking_two_balls_are_refused(pool_table, pool_layout):
    shots = [CueShot(angle=1.0, speed=2.0), CueShot(angle=1.0, speed=2.0, ball="1")]
    with pytest.raises(BatchError, match="a batch strikes one ball"):
        simulate_many(pool_table, pool_layout, shots, workers=1)


def _referee_loop(table, layout, res, state):
    """The ruling of each shot by the referee itself, in `state`."""
    from cuesim.batch.core import Setup, make_shot
    from cuesim.rules.pool import shot_from_result
    from cuesim.rules.pool.scenario import make_game

    setup = Setup(table, layout, "cue")
    out = []
    for k in range(len(res)):
        result = simulate(table, layout, make_shot(setup, res.params, k))
        game = make_game({"game": "9-ball", "state": state})
        ruling = game.play(shot_from_result(result)).ruling
        out.append((ruling.legal, ruling.turn_passes, ";".join(ruling.articles)))
    return out


def test_shots_from_a_layout_ruled_in_a_game_state(tmp_path, pool_table, pool_layout, capsys):
    layout_file, state_file = tmp_path / "layout.json", tmp_path / "state.json"
    pool_layout.save(layout_file)
    state_file.write_text(json.dumps({"game": "9-ball", "state": POOL_STATE}))
    out = tmp_path / "r.parquet"
    code = main(["batch", "9-ball", "--layout", str(layout_file), "--state", str(state_file),
                 "--ruling", "--grid", "angle=86:94:5", "--grid", "speed=1:5:3", "--workers",
                 "1", "--quiet", "--out", str(out)])
    assert code == 0, capsys.readouterr().err
    res = read_results(out)
    assert len(res) == 15 and res.manifest["state"] == POOL_STATE
    assert Layout.from_dict(res.manifest["layout"]) == pool_layout
    got = list(zip(res["legal"], res["turn_passes"], res["articles"], strict=True))
    assert got == _referee_loop(pool_table, pool_layout, res, POOL_STATE)
    # as the first shot of a fresh game, a break, the same layout is refused: a 9-ball break
    # is played on the rack (WPA 5.2); before, these shots were ruled as breaks
    with pytest.raises(BatchError, match=r"the 9-ball break is played on its opening rack, "
                                         r"and this is none: nine_ball racks 9 balls, the "
                                         r"layout has 2; .*\(a state in play rules shots from "
                                         r"any position\)"):
        simulate_many(pool_table, pool_layout, res.params, workers=1, ruling="9-ball")
    fresh = simulate_many(pool_table, pool_layout, res.params, workers=1)
    assert_same(fresh, res, ["final_xy", "n_events", "pocketed"])


def test_novus_shots_from_the_shooters_side(table, singles):
    from cuesim.rules.novus.scenario import game_from_dict

    state = {"shooter": "B"}  # B sits north
    shots = [NovusShot(x=0.5, angle=1.45 + 0.05 * k, speed=4.0 + k) for k in range(3)]
    res = simulate_many(table, singles, shots, workers=1, ruling="novus", state=state)
    assert res.manifest["side"] == "north"
    for k, shot in enumerate(shots):
        north = NovusShot(x=shot.x, angle=shot.angle, speed=shot.speed, side="north")
        r = simulate(table, singles, north)
        assert np.array_equal(res["final_xy"][k], r.final_positions), k
        ruling = game_from_dict(state).adjudicate(r).ruling
        assert res["articles"][k] == ";".join(ruling.articles)
        assert res["legal"][k] == ruling.legal


def run(args, capsys):
    code = main(["batch", *args])
    return code, capsys.readouterr().err


def _files(tmp_path):
    layout = tmp_path / "l.json"
    start_layout("9-ball").save(layout)
    novus_layout = tmp_path / "n.json"
    start_layout("novus").save(novus_layout)
    bad_json = tmp_path / "bad.json"
    bad_json.write_text("{nope")
    overlap = tmp_path / "overlap.json"
    data = start_layout("9-ball").to_dict()
    data["pieces"][1]["x"], data["pieces"][1]["y"] = data["pieces"][0]["x"], data["pieces"][0]["y"]
    overlap.write_text(json.dumps(data))
    no_pieces = tmp_path / "np.json"
    no_pieces.write_text('{"table": "pool_9ft"}')
    over = tmp_path / "over.json"
    over.write_text(json.dumps({**POOL_STATE, "phase": "match_over", "winner": "A"}))
    unknown = tmp_path / "unknown.json"
    unknown.write_text(json.dumps({**POOL_STATE, "spin": 1}))
    wrong_type = tmp_path / "wrong_type.json"  # a bare state: its fields are state.<name>
    wrong_type.write_text(json.dumps({**POOL_STATE, "shooter": 5}))
    good = tmp_path / "state.json"
    good.write_text(json.dumps(POOL_STATE))
    novus_state = tmp_path / "ns.json"
    novus_state.write_text(json.dumps({"mode": "doubles"}))
    return {"layout": layout, "novus_layout": novus_layout, "bad_json": bad_json,
            "overlap": overlap, "no_pieces": no_pieces, "over": over, "unknown": unknown,
            "wrong_type": wrong_type,
            "good": good, "novus_state": novus_state, "missing": tmp_path / "missing.json"}


BAD = [
    (["9-ball", "--grid", "speed=1:5"], "--grid 'speed=1:5': expected NAME=LO:HI:N"),
    (["9-ball", "--grid", "speed=1:5:1"], "N must be at least 2"),
    (["9-ball", "--grid", "speed=1:5:x"], "N = 'x' is not a whole number"),
    (["9-ball", "--grid", "speed=5:1:3"], "LO must be below HI"),
    (["9-ball", "--grid", "spin=1:5:3"], "unknown parameter 'spin'"),
    (["9-ball", "--grid", "speed=1:5:3", "--grid", "speed=1:5:3"], "on the grid twice"),
    (["9-ball", "--grid", "speed=1:5:3", "--shots", "4"], "do not combine it with --shots"),
    (["9-ball", "--grid", "speed=1:5:3", "--seed", "4"], "do not combine it with --shots"),
    (["9-ball", "--grid", "speed=1:5:3", "--set", "speed=2"], "already on the grid"),
    (["9-ball", "--grid", "speed=1:99:3"], "range of 'speed' (1:99) includes shots that cannot"),
    # a fixed value at fault is named, not the first varied range (it blamed 'angle', 'speed')
    (["novus", "--shots", "3", "--vary", "angle=80:100", "--set", "offset=0.1"],
     "the fixed values (offset=0.1) give shots that cannot be played: tip offset 0.1 m"),
    (["9-ball", "--shots", "3", "--vary", "speed=2:8", "--set", "height=0.9"],
     "the fixed values (height=0.9) give shots that cannot be played: tip offset"),
    (["9-ball", "--shots", "3", "--layout", "{missing}"], "--layout: cannot read layout file"),
    (["9-ball", "--shots", "3", "--layout", "{bad_json}"], "is not valid JSON (line 1"),
    (["9-ball", "--shots", "3", "--layout", "{no_pieces}"], "missing field 'pieces'"),
    (["9-ball", "--shots", "3", "--layout", "{novus_layout}"],
     "layout is for table 'novus', not 'pool_9ft'"),
    (["9-ball", "--shots", "3", "--layout", "{overlap}"],
     "overlap.json: pieces 'cue' and '1' overlap"),
    (["9-ball", "--shots", "3", "--state", "{good}"], "--state is the referee's game state: "
                                                      "it needs --ruling"),
    (["9-ball", "--shots", "3", "--ruling", "--state", "{missing}"],
     "--state: cannot read state file"),
    (["9-ball", "--shots", "3", "--ruling", "--state", "{bad_json}"], "is not valid JSON"),
    (["9-ball", "--shots", "3", "--ruling", "--state", "{over}"], "the match is over"),
    (["9-ball", "--shots", "3", "--ruling", "--state", "{unknown}"], "spin"),
    (["9-ball", "--shots", "3", "--ruling", "--state", "{wrong_type}"],
     "wrong_type.json: state.shooter must be a string, got 5"),
    (["novus", "--shots", "3", "--ruling", "--state", "{novus_state}"],
     "state.mode is 'doubles', but the game is novus: give a singles state, or play "
     "novus-doubles"),
    (["novus", "--shots", "3", "--ruling", "--state", "{good}"], "--state: "),
]


@pytest.mark.parametrize("args, message", BAD)
def test_bad_sources_give_one_clear_line(tmp_path, capsys, args, message):
    files = _files(tmp_path)
    out = tmp_path / "o.npz"
    args = [a.format(**files) for a in args]
    code, err = run([*args, "--workers", "1", "--quiet", "--out", str(out)], capsys)
    assert code == 2, err
    assert message in err and err.startswith("cuesim: error:") and err.count("\n") == 1, err
    assert not out.exists() and not parts_dir(out).exists()


def test_five_pins_shots_strike_the_shooters_ball_in_a_game_state():
    """In a 5-pins game state the shooter's own ball is struck (5-pins 4.4): Bob, the yellow;
    naming another ball is refused."""
    from cuesim.rules.fivepins import shot_from_result as five_pins_shot
    from cuesim.rules.fivepins.scenario import make_game

    table = game_table("5-pins")
    layout = start_layout("5-pins", table)
    state = {"players": ["Ann", "Bob"], "balls": {"Ann": "white", "Bob": "yellow"},
             "shooter": "Bob", "breaker": "Ann", "phase": "play", "placement": None,
             "scores": {"Ann": 10, "Bob": 12}}
    shots = {"angle": np.array([-1.6, -1.5]), "speed": np.array([3.0, 5.0])}
    res = simulate_many(table, layout, shots, workers=1, ruling=True, state=state)
    assert res.manifest["struck"] == "yellow"
    for k in range(2):
        r = simulate(table, layout, CueShot(ball="yellow", angle=float(shots["angle"][k]),
                                            speed=float(shots["speed"][k])))
        ruling = make_game({"game": "five_pins", "state": state}).play(five_pins_shot(r)).ruling
        assert res["articles"][k] == ";".join(ruling.articles)
        assert res["points"][k] == ruling.points.get("Bob", 0)
    with pytest.raises(ValueError, match="strike the white ball, but in the game state Bob "
                                         "shoots, whose ball is the yellow"):
        simulate_many(table, layout, [CueShot(ball="white", angle=1.5, speed=3.0)],
                      workers=1, ruling=True, state=state)


def test_straight_pool_points_in_a_game_state_third_foul():
    """14.1 in a game state: B, warned on two consecutive fouls (WPA 2.16), shoots; a shot
    that misses every ball is his third foul, 1 + 15 points off his score (WPA 6.12), and the
    `points` column says -16 for the shooter, B; a legal shot that pockets nothing, 0."""
    from cuesim.rules.pool import StraightPool, shot_from_result
    from cuesim.rules.pool.model import PoolState

    table = game_table("14.1")
    layout = start_layout("14.1", table)
    state = {"game": "straight_pool", "players": ["A", "B"], "shooter": "B", "breaker": "A",
             "phase": "play", "ball_in_hand": None, "fouls": {"B": 2}, "warned": {"B": True},
             "scores": {"A": 5, "B": 3}}
    cue, apex = layout.get("cue"), layout.get("1")
    at_rack = math.atan2(apex.y - cue.y, apex.x - cue.x)
    shots = [CueShot(angle=at_rack + math.pi, speed=0.4),  # away from the rack, short: 3.18
             CueShot(angle=at_rack, speed=3.0)]
    res = simulate_many(table, layout, shots, workers=1, ruling="14.1", state=state)
    assert "WPA 6.12" in res["articles"][0].split(";") and res["points"][0] == -16
    for k, shot in enumerate(shots):
        ref = StraightPool(["A", "B"], state=PoolState.from_dict(dict(state)))
        ruling = ref.play(shot_from_result(simulate(table, layout, shot))).ruling
        assert res["articles"][k] == ";".join(ruling.articles)
        assert res["points"][k] == ruling.points.get("B", 0)
        assert res["points_opponent"][k] == ruling.points.get("A", 0) == 0
    assert res["legal"][1] and res["points"][1] == 0  # the rack hit, nothing called or made


@pytest.mark.parametrize(("make", "message"), [
    (lambda: ShotGrid({"speed": (1.0, 2.0)}), r"grid axis 'speed' must be \(lo, hi, count\)"),
    (lambda: ShotGrid({"speed": (1.0, 2.0, 1)}), "the count must be a whole number >= 2"),
    (lambda: ShotGrid({"speed": (2.0, 1.0, 3)}), "lo must be below hi"),
    (lambda: ShotGrid({}), "a grid needs at least one axis"),
    (lambda: ShotGrid({"speed": (1.0, 2.0, 3)}, fixed=[("x", 0.5)]), "fixed must be a dict"),
    (lambda: ShotSampler(0), "the number of shots must be a positive integer, got 0"),
    (lambda: ShotSampler(True), "the number of shots must be a positive integer, got True"),
    (lambda: ShotSampler(5, seed=-1), "the seed must be a non-negative integer"),
    (lambda: ShotSampler(5, vary={"speed": (3.0, 1.0)}), "range of 'speed' is reversed"),
    (lambda: ShotSampler(5, vary={"speed": (1.0, math.inf)}), "range of 'speed' must be finite"),
    (lambda: ShotSampler(5, vary=[("speed", 1.0, 2.0)]), "vary must be a dict"),
])
def test_a_sampler_or_grid_is_checked_when_it_is_made(make, message):
    """What needs no game (counts, seeds, ranges, axes) is refused when the sampler or grid
    is made, not first by simulate_many (was: `ShotGrid({"speed": (1, 2)}).n` an IndexError);
    the names and the values each parameter allows wait for the batch's game."""
    with pytest.raises(BatchError, match=message):
        make()
    assert ShotGrid({"bogus": (1.0, 2.0, 3)}).n == 3  # names are the game's to judge
    with pytest.raises(BatchError, match="bogus"):
        simulate_many(game_table("9-ball"), start_layout("9-ball"), ShotGrid(
            {"bogus": (1.0, 2.0, 3)}))


@pytest.mark.parametrize("game, gone", [("9-ball", "9"), ("8-ball", "8")])
def test_rulings_on_a_layout_where_no_game_goes_on_are_refused_before_any_shot(game, gone):
    """4.1 / 5.3: every shot of the batch would be refused by the referee (errors='mark'
    included, since the layout, not the shot, is wrong): refused when the job is made."""
    table = game_table(game)
    layout = start_layout(game, table).without([gone])
    with pytest.raises(BatchError, match=f"layout: the {game} referee cannot rule on it: the "
                                         f"layout has no {gone}"):
        simulate_many(table, layout, ShotSampler(3, {"speed": (2.0, 3.0)}), ruling=game,
                      errors="mark", workers=1)
