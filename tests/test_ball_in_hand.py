"""Ball in hand after a scratch: a cue ball the layout lacks is put down by a shot's position
(`CueShot.place`, the batch's setup), as WPA 3.40 / 4.14 and 5-pins 13 put it in the player's
hand. `ShotResult.final` leaves a pocketed cue ball out, so playing on from a scratch took
adding it back by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest

from cuesim import CueShot, Piece, ShotError, simulate, start_layout
from cuesim.batch import BatchError, ShotSampler, simulate_many
from cuesim.tables import pool_table
from cuesim.tables.carom import carom_table


def _scratch() -> tuple[object, object]:
    """A 9-ball table after a shot that pockets the cue ball: (table, final layout)."""
    table = pool_table("9ft")
    layout = start_layout("9-ball", table).moved("cue", 0.12, 0.12)
    result = simulate(table, layout, CueShot(angle=math.radians(225), speed=2.0))
    assert "cue" in result.pocketed
    return table, result.final


def test_a_pocketed_cue_ball_is_put_down_by_the_next_shots_position():
    """WPA 3.40: after the scratch the opponent plays the cue ball from hand; the shot with a
    position puts it down there, and plays as the layout with the ball added would."""
    table, after = _scratch()
    assert "cue" not in after.ids()
    shot = CueShot(angle=math.radians(80), speed=4.0, position=(0.5, 0.6))
    played = simulate(table, after, shot)
    assert played.initial.get("cue") == Piece("cue", "ball", 0.5, 0.6, "cue")
    by_hand = simulate(table, after.with_piece(Piece("cue", "ball", 0.5, 0.6, "cue")),
                       CueShot(angle=math.radians(80), speed=4.0))
    assert np.array_equal(played.events, by_hand.events)
    assert np.array_equal(played.final_positions, by_hand.final_positions)


def test_without_a_position_the_missing_cue_ball_is_named_with_the_way_on():
    table, after = _scratch()
    with pytest.raises(ShotError, match=r"no ball 'cue' on the table; balls are .*; give its "
                                        r"position \(ball in hand\) to put it down"):
        simulate(table, after, CueShot(angle=1.0, speed=3.0))


def test_only_a_cue_ball_is_put_down_from_hand():
    """An object ball is never in hand: striking a missing one is refused, with a position
    too, and the message does not offer one."""
    table = pool_table("9ft")
    layout = start_layout("9-ball", table).without(["1"])
    with pytest.raises(ShotError, match=r"no ball '1' on the table; balls are \[[^]]*\]$"):
        simulate(table, layout, CueShot(angle=1.0, speed=3.0, ball="1", position=(0.5, 0.5)))
    carom = carom_table()
    no_red = start_layout("5-pins", carom).without(["red"])
    with pytest.raises(ShotError, match="no ball 'red' on the table"):
        simulate(carom, no_red, CueShot(angle=1.0, speed=2.0, ball="red", position=(0.4, 0.5)))


def test_the_put_down_ball_is_checked_like_any_placed_ball():
    table, after = _scratch()
    with pytest.raises(ShotError, match="overlap"):
        simulate(table, after, CueShot(angle=1.0, speed=3.0,
                                       position=(after.get("1").x, after.get("1").y)))


@pytest.mark.parametrize("ball", ["white", "yellow"])
def test_five_pins_cue_balls_are_put_down_with_their_group(ball):
    """5-pins 13: a cue ball in hand; it goes down with its own colour as its group."""
    carom = carom_table()
    layout = start_layout("5-pins", carom).without([ball])
    result = simulate(carom, layout, CueShot(angle=1.0, speed=2.0, ball=ball,
                                             position=(0.4, 0.5)))
    assert result.initial.get(ball) == Piece(ball, "ball", 0.4, 0.5, ball)


def test_batch_puts_the_cue_ball_down_at_each_shots_place():
    """simulate_many on a layout without the cue ball: each shot's x, y put it down, with the
    same numbers as `simulate` gives that shot (the ball's column is the last, as there)."""
    table, after = _scratch()
    sampler = ShotSampler(12, vary={"angle": (1.2, 1.9), "speed": (2.0, 6.0), "x": (0.3, 0.9),
                                    "y": (0.3, 0.6)}, seed=3)
    res = simulate_many(table, after, sampler, threads=1)
    assert res.ids[-1] == "cue" and not (res["status"] != 0).any()
    for k in (0, 5, 11):
        one = simulate(table, after, CueShot(
            angle=float(res["param.angle"][k]), speed=float(res["param.speed"][k]),
            position=(float(res["param.x"][k]), float(res["param.y"][k]))))
        assert np.array_equal(one.final_positions, res["final_xy"][k])


def test_batch_without_places_for_a_missing_cue_ball_is_refused_or_marked():
    """Sampled shots that give no x, y are refused before anything runs; in a parameter
    table, a row without them is a shot that cannot be played ('mark': status 1)."""
    table, after = _scratch()
    with pytest.raises(BatchError, match=r"the defaults of what is not varied give shots that "
                                         r"cannot be played: no ball 'cue' on the table.*give "
                                         r"its position \(ball in hand\)"):
        simulate_many(table, after, ShotSampler(4, vary={"angle": (1.2, 1.9)}))
    params = {"angle": np.array([1.5, 1.5]), "speed": np.array([3.0, 3.0]),
              "x": np.array([0.6, np.nan]), "y": np.array([0.5, np.nan])}
    res = simulate_many(table, after, params, errors="mark", threads=1)
    assert list(res["status"]) == [0, 1]
    with pytest.raises(BatchError, match="shot 1: no ball 'cue' on the table"):
        simulate_many(table, after, params, threads=1)
