"""A shot has one strike (pool 3.21 / double hit 3.23, novus, 5-pins 15): `run_motion` can
strike several pieces at once (the 5-pins lag, article 3, strikes both balls), and a result
that does so is refused by every referee's ordinary shot instead of being ruled as if the cue
had struck one ball."""

from __future__ import annotations

import pytest

from cuesim import novus_table, start_layout
from cuesim.rules.fivepins import FivePinsGame
from cuesim.rules.fivepins import shot_from_result as fivepins_shot
from cuesim.rules.novus import NovusGame
from cuesim.rules.pool import NineBall
from cuesim.rules.pool import shot_from_result as pool_shot
from cuesim.sim import run_motion
from cuesim.tables import pool_table
from cuesim.tables.carom import carom_table, five_pins_layout


def test_pool_3_21_a_result_striking_two_balls_is_refused():
    table = pool_table("9ft")
    rack = start_layout("9-ball", table)
    res = run_motion(table, rack, {"cue": (0.0, 3.0, 0.0, 0.0, 0.0),
                                   "9": (0.5, 0.0, 0.0, 0.0, 0.0)}, struck=("cue", "9"))
    game = NineBall(players=("Ann", "Bob"))
    with pytest.raises(ValueError, match=r"events\[1\]: a second strike; a shot has one"):
        game.play(pool_shot(res))


def test_fivepins_15_a_result_striking_both_balls_is_refused_outside_the_lag():
    table = carom_table()
    layout = five_pins_layout(table, breaker="white", breaker_xy=(0.40, 0.70))
    res = run_motion(table, layout, {"white": (0.0, 2.0, 0.0, 0.0, 0.0),
                                     "yellow": (0.0, -1.0, 0.0, 0.0, 0.0)},
                     struck=("white", "yellow"))
    game = FivePinsGame(players=("Ann", "Bob"))
    with pytest.raises(ValueError, match=r"a second strike; a shot has one \(only the lag"):
        game.play(fivepins_shot(res))


def test_novus_a_result_striking_two_pieces_is_refused():
    table = novus_table()
    game = NovusGame(players=("Ann", "Bob"))
    layout = game.layout.with_piece(_striker(game))
    puck = next(p.id for p in layout.pieces if p.kind == "puck")
    res = run_motion(table, layout, {"striker": (0.0, 2.0, 0.0), puck: (0.5, 0.0, 0.0)},
                     struck=("striker", puck))
    with pytest.raises(ValueError, match=r"events\[1\]: a second strike"):
        game.adjudicate(res)


def _striker(game):
    from cuesim import NovusShot

    return NovusShot(x=0.5, angle=1.57, speed=2.0, side=game.side_of(game.shooter)).place(
        novus_table(), game.layout).get("striker")
