"""A shot handed to a referee from Python: an event whose values cannot be (a negative or NaN
speed, a rail event naming no cushion or a pocket, a direction of 7), a `result` that is no
simulation or not the one the shot's log came from, and an infraction whose fields have the
wrong types are refused, naming the field, by every referee, as a scenario file's are (README
Errors). Before, the Python doors checked only the events' types and skipped every check of a
shot that carried any `result`: four "rail" events naming no cushion were ruled a legal 8-ball
break (WPA 4.5), `result=True` let a ball drop twice with no strike, and
`Infraction("touched_ball", "", "12")` was read as balls 1 and 2."""

from __future__ import annotations

import dataclasses
import math

import pytest

from cuesim.api import CueShot, NovusShot, game_table, simulate, start_layout
from cuesim.rules.api_checks import ArgumentTypeError
from cuesim.rules.files import ScenarioError
from cuesim.rules.fivepins import FivePinsGame, FivePinsShot
from cuesim.rules.fivepins.model import shot_from_result as five_pins_shot
from cuesim.rules.novus import NovusGame
from cuesim.rules.novus.shotlog import ShotRecord
from cuesim.rules.pool import EightBall, NineBall, PoolShot
from cuesim.rules.pool.model import shot_from_result as pool_shot
from cuesim.rules.ruling import Infraction
from cuesim.sim.events import EventKind
from cuesim.sim.result import Event

RAIL, STRIKE, COLLIDE = EventKind.RAIL, EventKind.STRIKE, EventKind.COLLIDE


def _nine_ball_break():
    table = game_table("9-ball")
    return simulate(table, start_layout("9-ball", table), CueShot(angle=math.pi / 2, speed=8.0))


def _rack_hit(*extra: Event) -> PoolShot:
    """The 8-ball rack: the cue ball hits the apex ball, then `extra`."""
    layout = start_layout("8-ball")
    return PoolShot([Event(0.0, STRIKE, "cue"), Event(0.5, COLLIDE, "cue", "1", speed=5.0),
                     *extra], layout, layout)


@pytest.mark.parametrize(("event", "field"), [
    (Event(1.0, RAIL, "2"), r"events\[2\]: a rail event needs 'feature'"),
    (Event(1.0, RAIL, "2", feature="side_left"), r"events\[2\]\.feature: unknown rail"),
    (Event(1.0, RAIL, "2", feature="head_rail", speed=-1.0), r"events\[2\]\.speed must be"),
    (Event(1.0, RAIL, "2", feature="head_rail", speed=math.nan), r"events\[2\]\.speed"),
    (Event(1.0, COLLIDE, "2", "3", direction=7), r"events\[2\]\.direction must be 0, \+1"),
])
def test_pool_event_values_that_cannot_be_are_refused(event: Event, field: str):
    """WPA 4.5 needs four balls to reach a cushion: a rail event that names none, or a
    pocket, or has a negative speed, cannot have happened (was: a legal break)."""
    with pytest.raises(ValueError, match=field):
        EightBall(players=("Ann", "Bob")).play(_rack_hit(event))


def test_five_pins_and_novus_check_event_values_too():
    layout = start_layout("5-pins")
    bad = [Event(0.0, STRIKE, "white"), Event(0.5, COLLIDE, "white", "red", direction=3)]
    with pytest.raises(ScenarioError, match=r"events\[1\]\.direction must be 0, \+1 or -1"):
        FivePinsGame(players=("Ann", "Bob")).play(FivePinsShot(bad, layout, layout))
    novus = start_layout("novus")
    log = [Event(0.0, STRIKE, "striker", speed=-3.0)]
    with pytest.raises(ScenarioError, match=r"events\[0\]\.speed must be a finite speed"):
        NovusGame(["Ann", "Bob"]).adjudicate(ShotRecord.from_parts(novus, novus, log))


def test_a_result_that_is_no_simulation_is_refused():
    """`result` is the ShotResult the log came from, or None (was: any value skipped the
    checks, and a ball dropping twice with no strike was ruled a 3.18 foul)."""
    layout = start_layout("9-ball")
    drops = [Event(0.5, EventKind.POCKET, "9", feature="foot_left"),
             Event(0.6, EventKind.POCKET, "9", feature="foot_right")]
    with pytest.raises(ArgumentTypeError, match=r"shot\.result must be a ShotResult or None"):
        NineBall(players=("Ann", "Bob")).play(PoolShot(drops, layout, layout,
                                                       result=True))  # type: ignore[arg-type]
    five = start_layout("5-pins")
    with pytest.raises(ArgumentTypeError, match=r"shot\.result must be a ShotResult or None"):
        FivePinsGame(players=("Ann", "Bob")).play(FivePinsShot(
            [], five, five, result="sim"))  # type: ignore[arg-type]


def test_a_pool_log_that_is_not_its_results_is_refused():
    result = _nine_ball_break()
    shot = pool_shot(result)
    NineBall(players=("Ann", "Bob")).play(shot)  # the simulation's own log is ruled
    for changed, field in [
        (dataclasses.replace(shot, events=shot.events[:-1]), r"shot\.events: \d+ events, but"),
        (dataclasses.replace(shot, events=[*shot.events[:3], dataclasses.replace(
            shot.events[3], a="9")] + shot.events[4:]), r"shot\.events\[3\] is not event 3"),
        (dataclasses.replace(shot, final=shot.initial), r"shot\.final is not the final layout"),
    ]:
        with pytest.raises(ScenarioError, match=field):
            NineBall(players=("Ann", "Bob")).play(changed)


def test_a_five_pins_log_that_is_not_its_results_is_refused():
    table = game_table("5-pins")
    result = simulate(table, start_layout("5-pins", table), CueShot(angle=math.pi / 2,
                                                                     speed=3.0, ball="white"))
    shot = five_pins_shot(result)
    late = [dataclasses.replace(e, t=e.t + 1.0) for e in shot.events]
    with pytest.raises(ScenarioError, match=r"shot\.events\[0\] is not event 0"):
        FivePinsGame(players=("Ann", "Bob")).play(dataclasses.replace(shot, events=late))


def test_a_novus_record_that_is_not_its_results_is_refused():
    table = game_table("novus")
    result = simulate(table, start_layout("novus", table), NovusShot(x=0.5, angle=math.pi / 2,
                                                                      speed=5.0))
    record = ShotRecord.from_result(result)
    NovusGame(["Ann", "Bob"]).adjudicate(record)
    with pytest.raises(ScenarioError, match=r"shot\.events: \d+ events, but"):
        NovusGame(["Ann", "Bob"]).adjudicate(dataclasses.replace(record,
                                                                 events=record.events[:1]))
    with pytest.raises(ScenarioError, match=r"shot\.pocketed .* is not what shot\.result"):
        NovusGame(["Ann", "Bob"]).adjudicate(dataclasses.replace(
            record, pocketed=[*record.pocketed, "red1"]))


@pytest.mark.parametrize("infraction", [Infraction("touched_ball", "", "12"),  # type: ignore
                                        Infraction("double_hit", "", (), 5)])  # type: ignore
def test_an_infraction_field_of_the_wrong_type_is_refused(infraction: Infraction):
    """`pieces` is a list or tuple of ids ("12" was read as balls 1 and 2), `note` a string."""
    layout = start_layout("9-ball")
    with pytest.raises(ArgumentTypeError, match=r"shot\.infractions\[0\]\.(pieces|note) must"):
        NineBall(players=("Ann", "Bob")).play(PoolShot([], layout, layout,
                                                       infractions=[infraction]))
    five = start_layout("5-pins")
    with pytest.raises(ArgumentTypeError, match=r"shot\.infractions\[0\]\.(pieces|note) must"):
        FivePinsGame(players=("Ann", "Bob")).play(FivePinsShot([], five, five,
                                                               infractions=[infraction]))
    with pytest.raises(ArgumentTypeError, match=r"^infractions\[0\]\.(pieces|note) must"):
        NovusGame(["Ann", "Bob"]).adjudicate(None, [infraction])
