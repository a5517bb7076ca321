"""The novus referee (articles 10-27 of the federation rulebook): singles and doubles, sets and
matches. See README.md in this folder for the scenario JSON schema and the rule choices."""

from cuesim.rules.novus.classify import ShotAnalysis, analyse_shot
from cuesim.rules.novus.game import NovusGame, NovusOutcome
from cuesim.rules.novus.infractions import INFRACTIONS
from cuesim.rules.novus.scenario import (
    adjudicate_file,
    adjudicate_scenario,
    game_from_dict,
    load_scenario,
)
from cuesim.rules.novus.shotlog import ShotRecord

__all__ = [
    "INFRACTIONS",
    "NovusGame",
    "NovusOutcome",
    "ShotAnalysis",
    "ShotRecord",
    "adjudicate_file",
    "adjudicate_scenario",
    "analyse_shot",
    "game_from_dict",
    "load_scenario",
]
