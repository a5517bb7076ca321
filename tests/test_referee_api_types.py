"""The referees' Python doors check the types of what they are given: a TypeError naming the
argument or field and what was expected (an ArgumentTypeError: a TypeError and, as every
refusal of the referees, a ValueError), never an AttributeError from deep inside a ruling."""

from __future__ import annotations

import pytest

from cuesim.rules.api_checks import ArgumentTypeError
from cuesim.rules.fivepins import Declaration as FivePinsDeclaration
from cuesim.rules.fivepins import FivePinsGame, FivePinsShot
from cuesim.rules.novus import NovusGame
from cuesim.rules.pool import EightBall, NineBall, PoolShot, StraightPool
from cuesim.rules.pool.model import Declaration
from cuesim.rules.ruling import Infraction


@pytest.mark.parametrize("make,message", [
    (lambda: NineBall(race_to="3"), "race_to must be int, got '3'"),
    (lambda: EightBall(players=("Ann", 2)), "players must be"),
    (lambda: StraightPool(points_to=1.5), "points_to must be int"),
    (lambda: NineBall(break_order=None), "break_order must be str"),
    (lambda: FivePinsGame(points_to="60"), "points_to must be int"),
    (lambda: FivePinsGame(lag="yes"), "lag must be bool"),
    (lambda: NovusGame("Ann Bob"), "players must be a list of str"),
    (lambda: NovusGame(["Ann", "Bob"], sets="3"), "sets must be int"),
    (lambda: NovusGame(["Ann", "Bob"], colours="rb"), "colours must be"),
])
def test_game_settings_of_the_wrong_type_are_named(make, message):
    with pytest.raises(ArgumentTypeError, match=message):
        make()


@pytest.mark.parametrize("play,message", [
    (lambda: NineBall().play("a shot"), "shot must be a PoolShot, got 'a shot'"),
    (lambda: NineBall().play(PoolShot(events="strike")), "shot.events must be a list of Event"),
    (lambda: NineBall().play(PoolShot(declaration=Declaration(frozen=["1"]))),
     r"shot.declaration.frozen must be a dict of str to str, got \['1'\]"),
    (lambda: NineBall().play(PoolShot(declaration=Declaration(safety="no"))),
     "shot.declaration.safety must be bool"),
    (lambda: NineBall().play(PoolShot(infractions=["double_hit"])),
     "shot.infractions must be a list of Infraction"),
    (lambda: NineBall().play(PoolShot(initial={"cue": (0.5, 0.5)})),
     "shot.initial must be a Layout or None"),
    (lambda: NineBall().choose(1), "option must be str, got 1"),
    (lambda: FivePinsGame().play(None), "shot must be a FivePinsShot, got None"),
    (lambda: FivePinsGame().play(FivePinsShot(declaration=FivePinsDeclaration(
        moved_pins="pin_top"))), "shot.declaration.moved_pins must be a list of str"),
    (lambda: FivePinsGame().choose(None), "option must be str"),
    (lambda: NovusGame(["Ann", "Bob"]).adjudicate("a shot"),
     "shot must be a ShotResult or a ShotRecord or None, got 'a shot'"),
    (lambda: NovusGame(["Ann", "Bob"]).adjudicate(None, [("slow_play",)]),
     "infractions must be a list of Infraction or None"),
    (lambda: NovusGame(["Ann", "Bob"]).play({"x": 0.5}), "shot must be a NovusShot"),
])
def test_shots_of_the_wrong_type_are_named(play, message):
    with pytest.raises(ArgumentTypeError, match=message):
        play()


def test_well_typed_calls_still_play():
    """Tuples pass for lists, ints for floats: what a caller would naturally write."""
    g = NineBall(players=("Ann", "Bob"), race_to=2)
    out = g.play(PoolShot(infractions=[Infraction("slow_play", "Ann")]))
    assert not out.ruling.legal
    assert NovusGame(("Ann", "Bob")).players == ("Ann", "Bob")


def test_requests_check_their_arguments():
    with pytest.raises(ArgumentTypeError, match="layout must be a Layout"):
        StraightPool().request_kitchen_spot({"3": (0.3, 0.2)})
    with pytest.raises(ValueError, match="foul_free_shot must be bool"):  # a ValueError too
        FivePinsGame().contact_reset("no")
