"""The 5-pins referee (WCBS international rules, 1997): the lag (3), the opening (4), correct
and incorrect shots (5, 6, 7), scoring (8), leaving the game (9), balls in contact (10), balls
off the table (11), pins (12), ball in hand (13) and fouls (15), games and the match (2).

A game object holds the game and match state; `play(FivePinsShot)` rules on one shot's event
log, layouts, declaration and declared infractions and returns an Outcome (the Ruling, the next
state, what was put back, the table for the next shot). `adjudicate_scenario` does the same for
a JSON scenario (schema in README.md)."""

from cuesim.rules.fivepins.facts import KnockedPin, ShotFacts
from cuesim.rules.fivepins.fouls import INFRACTIONS, Judgement, judge
from cuesim.rules.fivepins.game import FivePinsGame
from cuesim.rules.fivepins.lag import LagResult, adjudicate_lag
from cuesim.rules.fivepins.model import (
    Declaration,
    FivePinsShot,
    FivePinsState,
    Outcome,
    shot_from_result,
)
from cuesim.rules.fivepins.scenario import (
    GAME_NAMES,
    adjudicate_file,
    adjudicate_scenario,
)
from cuesim.rules.fivepins.scoring import carom_points, pin_points

__all__ = [
    "GAME_NAMES",
    "INFRACTIONS",
    "Declaration",
    "FivePinsGame",
    "FivePinsShot",
    "FivePinsState",
    "Judgement",
    "KnockedPin",
    "LagResult",
    "Outcome",
    "ShotFacts",
    "adjudicate_file",
    "adjudicate_lag",
    "adjudicate_scenario",
    "carom_points",
    "judge",
    "pin_points",
    "shot_from_result",
]
