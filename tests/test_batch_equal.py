"""A batch gives the same numbers as a loop of `simulate`, on every game's table."""

from __future__ import annotations

import math

import numpy as np
import pytest

from cuesim import start_layout
from cuesim.api import game_table
from cuesim.batch import ShotSampler, simulate_many
from cuesim.rules.novus import NovusGame
from cuesim.rules.pool import NineBall, shot_from_result
from tests.batch_util import assert_equals_loop, assert_same


def test_novus_sampled_shots_equal_a_loop_of_simulate(table):
    layout = start_layout("novus", table)
    sampler = ShotSampler(40, {"x": (0.3, 0.7), "angle": (1.2, 1.95), "speed": (1.0, 9.0),
                               "offset": (-0.005, 0.005)}, seed=3)
    res = simulate_many(table, layout, sampler, workers=1, chunk_size=16)
    assert len(res) == 40 and res["final_xy"].shape == (40, 17, 2)
    assert (res["status"] == 0).all()
    assert_equals_loop(table, layout, res, "striker")


def test_novus_doubles_from_a_dict_of_arrays(doubles, table):
    shots = {"x": np.array([0.5, 0.2, 0.8]), "angle": np.radians([90.0, 70.0, 110.0]),
             "speed": np.array([6.0, 4.0, 8.0]), "y": np.array([np.nan, 0.06, np.nan])}
    res = simulate_many(table, doubles, shots, workers=1)
    assert_equals_loop(table, doubles, res, "striker")
    assert res["n_events"].min() > 1


def test_structured_array_input(table, singles):
    shots = np.zeros(3, dtype=[("x", "f8"), ("angle", "f8"), ("speed", "f8")])
    shots["x"], shots["angle"], shots["speed"] = 0.5, math.pi / 2, [2.0, 5.0, 8.0]
    res = simulate_many(table, singles, shots, workers=1)
    assert_equals_loop(table, singles, res, "striker")


@pytest.mark.parametrize("game", ["9-ball", "5-pins"])
def test_ball_games_equal_a_loop_of_simulate(game):
    table = game_table(game)
    layout = start_layout(game, table)
    struck = "white" if game == "5-pins" else "cue"
    shots = ShotSampler(8, {"angle": (1.45, 1.7), "speed": (3.0, 10.0), "side": (-0.3, 0.3),
                            "height": (-0.3, 0.3)}, seed=5)
    res = simulate_many(table, layout, shots, workers=1, chunk_size=5)
    assert_equals_loop(table, layout, res, struck)
    assert res["n_events"].min() > 2


def test_ball_in_hand_places_the_cue_ball():
    table = game_table("9-ball")
    layout = start_layout("9-ball", table)
    shots = {"angle": np.radians([90.0, 85.0]), "speed": np.array([7.0, 9.0]),
             "x": np.array([0.5, 0.8]), "y": np.array([0.4, 0.5])}
    res = simulate_many(table, layout, shots, workers=1)
    assert_equals_loop(table, layout, res, "cue")


def test_ruling_rows_match_the_referee_and_the_plain_run(table, singles):
    sampler = ShotSampler(6, {"angle": (1.3, 1.85), "speed": (2.0, 9.0)}, seed=1)
    plain = simulate_many(table, singles, sampler, workers=1)
    ruled = simulate_many(table, singles, sampler, workers=1, ruling=True)
    assert_same(plain, ruled, [k for k in plain.keys()])
    from cuesim import simulate
    from cuesim.batch.core import Setup, make_shot

    setup = Setup(table, singles, "striker")
    for k in range(len(ruled)):
        result = simulate(table, singles, make_shot(setup, ruled.params, k))
        ruling = NovusGame(["A", "B"]).adjudicate(result).ruling
        assert ruled["legal"][k] == ruling.legal
        assert ruled["turn_passes"][k] == ruling.turn_passes
        assert ruled["articles"][k] == ";".join(ruling.articles)


def test_nine_ball_break_rulings():
    table = game_table("9-ball")
    layout = start_layout("9-ball", table)
    shots = {"angle": np.full(2, math.pi / 2), "speed": np.array([8.0, 11.0])}
    res = simulate_many(table, layout, shots, workers=1, ruling=True)
    from cuesim import CueShot, simulate

    for k in range(2):
        r = simulate(table, layout, CueShot(angle=math.pi / 2, speed=float(shots["speed"][k])))
        ruling = NineBall(["A", "B"]).play(shot_from_result(r)).ruling
        assert res["legal"][k] == ruling.legal
        assert res["articles"][k] == ";".join(ruling.articles)


def test_unplayable_shots_raise_or_are_marked(table, singles):
    shots = {"x": np.array([0.5, 0.5, 0.5]), "angle": np.full(3, math.pi / 2),
             "speed": np.array([5.0, 99.0, 5.0])}
    with pytest.raises(ValueError, match="shot 1: .*speed 99"):
        simulate_many(table, singles, shots, workers=1)
    res = simulate_many(table, singles, shots, workers=1, errors="mark")
    assert list(res["status"]) == [0, 1, 0]
    assert np.isnan(res["final_xy"][1]).all()
    assert res["n_events"][0] == res["n_events"][2] > 0


@pytest.mark.parametrize("kw", [{}, {"events": True}, {"ruling": "novus"}])
def test_a_striker_under_the_touch_gap_is_refused_as_simulate_refuses_it(table, kw):
    """Novus 12: a striker placed less than STRIKER_TOUCH_GAP (1 um) from a puck is refused
    by `simulate`; a batch refuses it too, with or without event logs or a ruling (it played
    it when the gap was above zero)."""
    from cuesim import NovusShot, simulate
    from cuesim.shot import ShotError
    from cuesim.tables.layout import Layout, Piece
    from cuesim.tables.novus import STRIKER_TOUCH_GAP
    near = NovusShot(x=0.5, angle=math.pi / 2, speed=3.0)
    sx, sy = near.striker_position(table)
    gap = table.piece_spec("striker").radius + table.piece_spec("puck").radius
    layout = Layout("novus", (Piece("p", "puck", sx + gap + 0.5 * STRIKER_TOUCH_GAP, sy, "red"),
                              Piece("q", "puck", 0.5, 0.6, "black")))
    with pytest.raises(ShotError, match="novus 12: the striker .* touches 'p'"):
        simulate(table, layout, near)
    far = NovusShot(x=0.4, angle=math.pi / 2, speed=3.0)
    res = simulate_many(table, layout, [near, far], workers=1, errors="mark", **kw)
    assert list(res["status"]) == [1, 0]
    with pytest.raises(ValueError, match="shot 0: novus 12: the striker"):
        simulate_many(table, layout, [near, far], workers=1, **kw)


@pytest.mark.parametrize("kw", [{}, {"events": True}])
@pytest.mark.parametrize("game, pieces, struck, message", [
    ("novus", [("s2", "striker", 0.3, 0.5)], "striker", "a striker 's2' besides"),
    ("novus", [("striker", "puck", 0.3, 0.5)], "striker", "'striker' is of kind 'puck'"),
    ("5-pins", None, "pin_centre", "the cue strikes a ball, and 'pin_centre' is a pin")])
def test_a_batch_refuses_the_layouts_simulate_refuses(game, pieces, struck, message, kw):
    """A second striker (novus 26.1), a piece 'striker' of another kind, a pin as the struck
    piece: `simulate` refuses every shot on such a layout, and so does a batch, whether or
    not it keeps event logs (the compiled path played them)."""
    from cuesim.tables.layout import Layout, Piece
    table = game_table(game)
    if pieces is None:
        layout = start_layout(game, table)
    else:
        layout = Layout("novus", (*(Piece(i, k, x, y, *(("red",) if k == "puck" else ()))
                                    for i, k, x, y in pieces),
                                  Piece("p", "puck", 0.6, 0.6, "red")))
    shots = {"angle": [1.0], "speed": [3.0]} | ({"x": [0.5]} if game == "novus" else {})
    with pytest.raises(ValueError, match=message):
        simulate_many(table, layout, shots, struck=struck, workers=1, errors="mark", **kw)


def test_five_pins_rulings_and_points_match_the_referee():
    """5-pins is scored by points (5-pins 8, 15): a ruled batch adds each shot's points for
    the shooter and for the opponent, as the referee gives them to a fresh game's breaker (A,
    the white ball) and a loop of `simulate` finds them."""
    from cuesim import CueShot, simulate
    from cuesim.rules.fivepins import FivePinsGame
    from cuesim.rules.fivepins import shot_from_result as five_pins_shot

    table = game_table("5-pins")
    layout = start_layout("5-pins", table)
    shots = ShotSampler(24, {"angle": (1.4, 1.75), "speed": (1.0, 6.0), "side": (-0.3, 0.3)},
                        seed=8)
    plain = simulate_many(table, layout, shots, workers=1)
    res = simulate_many(table, layout, shots, workers=1, ruling=True)
    assert res.manifest["ruling"] == "5-pins"
    assert_same(plain, res, list(plain.keys()))
    scored = 0
    for k in range(len(res)):
        p = {name: float(res.params[name][k]) for name in ("angle", "speed", "side")}
        r = simulate(table, layout, CueShot(ball="white", **p))
        ruling = FivePinsGame(["A", "B"]).play(five_pins_shot(r)).ruling
        assert res["legal"][k] == ruling.legal
        assert res["articles"][k] == ";".join(ruling.articles)
        assert res["points"][k] == ruling.points.get("A", 0)
        assert res["points_opponent"][k] == ruling.points.get("B", 0)
        scored += int(res["points"][k] + res["points_opponent"][k] > 0)
    assert scored > 0  # the shots score something, for one side or the other
    nine = simulate_many(game_table("9-ball"), start_layout("9-ball"),
                         {"angle": np.full(1, math.pi / 2), "speed": np.full(1, 8.0)},
                         workers=1, ruling=True)
    assert "points" not in nine  # 8-ball and 9-ball are won by games: no points column


def test_straight_pool_rulings_and_points_match_the_referee():
    """14.1 is scored by points (WPA 6.5): a ruled batch adds each shot's points as the
    referee gives them to a fresh game's breaker, a foul's taken from the shooter (WPA 6.6: a
    breaking violation -2; 6.11: a foul -1) and none to the opponent."""
    from cuesim import CueShot, simulate
    from cuesim.rules.pool import StraightPool

    table = game_table("14.1")
    layout = start_layout("14.1", table)
    shots = ShotSampler(24, {"angle": (1.45, 1.7), "speed": (0.5, 9.0), "side": (-0.4, 0.4)},
                        seed=5)
    res = simulate_many(table, layout, shots, workers=1, ruling="14.1")
    assert res.manifest["ruling"] == "14.1"
    penalised = 0
    for k in range(len(res)):
        p = {name: float(res.params[name][k]) for name in ("angle", "speed", "side")}
        r = simulate(table, layout, CueShot(**p))
        ruling = StraightPool(["A", "B"]).play(shot_from_result(r)).ruling
        assert res["legal"][k] == ruling.legal
        assert res["articles"][k] == ";".join(ruling.articles)
        assert res["points"][k] == ruling.points.get("A", 0)
        assert res["points_opponent"][k] == ruling.points.get("B", 0) == 0
        penalised += int(res["points"][k] < 0)
        assert (res["points"][k] < 0) == (not ruling.legal)
    assert 0 < penalised < len(res)  # some breaks are fouls (their points < 0), some not


@pytest.mark.parametrize("side", ["south", "east", "north", "west"])
def test_novus_shots_made_at_once_are_novus_shots_byte_for_byte(table, side):
    """`novus_shot_arrays` (the batch's plain novus shots, made at once) gives the striker's
    place and motion of `NovusShot.striker_position` and `striker_motion` to the last bit
    (novus 12), and calls a row plain only where every check of NovusShot passes: rows on
    and beyond each bound (the strip, the speed, the aim, the tip offset) included."""
    from cuesim.shot import NovusShot, ShotError, novus_shot_arrays
    from cuesim.tables.novus import MAX_STRIKE_SPEED
    from cuesim.tables.numbers import MAX_AIM_ANGLE

    (u0, u1), (w0, w1) = table.striker_strip()
    radius = table.piece_spec("striker").radius
    rng = np.random.default_rng(7)
    n = 600
    x = rng.uniform(u0 - 0.05, u1 + 0.05, n)
    y = rng.uniform(w0 - 0.02, w1 + 0.02, n)
    angle = rng.uniform(-7.0, 7.0, n)
    speed = rng.uniform(-1.0, MAX_STRIKE_SPEED + 1.0, n)
    offset = rng.uniform(-1.2 * radius, 1.2 * radius, n)
    y[::4] = np.nan
    x[:4], y[4:8] = [u0, u1, u0 - 1e-12, u1 + 2e-12], [w0, w1, w0 - 1e-12, w1 + 2e-12]
    speed[8:11], angle[11:13] = [MAX_STRIKE_SPEED, 0.0, 1e-300], [MAX_AIM_ANGLE, -MAX_AIM_ANGLE]
    angle[13], offset[14:16] = MAX_AIM_ANGLE * (1 + 1e-15), [radius, -radius]
    place, motion, plain = novus_shot_arrays(table, side, x, y, angle, speed, offset)
    plays = 0
    for k in range(n):
        try:
            shot = NovusShot(x=float(x[k]), angle=float(angle[k]), speed=float(speed[k]),
                             y=None if math.isnan(y[k]) else float(y[k]),
                             offset=float(offset[k]), side=side)
            xy, (vx, vy, w) = shot.striker_position(table), shot.striker_motion(table)
        except ShotError:
            assert not plain[k], k
            continue
        plays += 1
        assert plain[k], k
        assert tuple(place[k]) == xy and tuple(motion[k]) == (vx, vy, 0.0, 0.0, w), k
    assert 100 < plays < n
