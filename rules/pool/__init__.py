"""The WPA pool referee: general rules (section 3), 8-ball (4), 9-ball (5), 14.1 continuous (6).

A game object holds the frame and match state; `play(PoolShot)` rules on one shot's event log,
layouts, declaration and declared infractions and returns an Outcome (the Ruling, the next
state, what was spotted, the table for the next shot). `adjudicate_scenario` does the same for
a JSON scenario (schema in README.md)."""

from cuesim.rules.pool.base import PoolGame
from cuesim.rules.pool.eight_ball import EightBall
from cuesim.rules.pool.facts import ShotFacts
from cuesim.rules.pool.general import INFRACTIONS, LagResult, adjudicate_lag
from cuesim.rules.pool.model import (
    Declaration,
    Outcome,
    PoolShot,
    PoolState,
    shot_from_result,
)
from cuesim.rules.pool.nine_ball import NineBall
from cuesim.rules.pool.racks import check_rack, rack_layout
from cuesim.rules.pool.scenario import GAMES, adjudicate_file, adjudicate_scenario
from cuesim.rules.pool.straight_pool import StraightPool

__all__ = [
    "GAMES",
    "INFRACTIONS",
    "Declaration",
    "EightBall",
    "LagResult",
    "NineBall",
    "Outcome",
    "PoolGame",
    "PoolShot",
    "PoolState",
    "ShotFacts",
    "StraightPool",
    "adjudicate_file",
    "adjudicate_lag",
    "adjudicate_scenario",
    "check_rack",
    "rack_layout",
    "shot_from_result",
]
